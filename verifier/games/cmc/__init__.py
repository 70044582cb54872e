"""CMC (Chaotic Monster Cards; seed 000: the speed system and its resolve stack)."""

from __future__ import annotations

from types import MappingProxyType

from verifier.games.base import Game, Wording

__all__ = ["GAME"]

GAME = Game(
    name="cmc",
    title="CMC",
    card_types=frozenset({"monster", "spell"}),
    zones=frozenset({"deck", "hand", "field", "graveyard", "banished"}),
    phases=("main",),
    fields=("dizzy",),
    filter_keys=frozenset({"dizzy"}),  # a monster that used an ability is dizzy until undizzied
    verbs=frozenset(
        {
            "destroy",
            "banish",
            "flip-face-down",
            "take-control",
            "special-summon",
            "send-to-graveyard",
            "return-to-hand",
            "draw",
            "add-from-deck",
            "lose-lp",
            "gain-lp",
            "dizzy",
            "undizzy",
            "counterspell",  # the CMC counters what comes after it; it has no "negate"
            "slow",
            "speed-up",
        }
    ),
    wording=Wording(
        chain="stack",
        activate_card="casts",
        activate_effect="uses",
        shows_speed=True,
        added="added to the resolve stack",
        numbered=False,
        outcomes=MappingProxyType(
            {
                "resolved": "{label} is cast",
                "no-effect": "{label} fails (its target or its monster is gone)",
                "effect-negated": "{label} is negated",
                "activation-negated": "{label} was countered: nothing happens",
            }
        ),
    ),
)
