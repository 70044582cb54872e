"""CMC (Chaotic Monster Cards; seed 000: the speed system and its resolve stack)."""

from __future__ import annotations

from types import MappingProxyType

from verifier.games.base import Drafting, Game, Wording

__all__ = ["BLANK", "GAME"]

BLANK = """\
# A CMC scenario: spells and abilities go on the resolve stack and resolve by speed
# (A first, then B ... E), the turn player's first at the same speed.
rules: cmc
library: cmc
turn: A
cards:
  Mind Burrower: {controller: A}
  Shadehawk: {controller: B}
  Thundermancy: {controller: B, zone: hand}
history:
  - A uses Mind Burrower targeting Shadehawk
claims:
  - claim: can_activate(B, "Thundermancy")
    expect: holds
"""
"""A small scenario to start from, on the web page."""

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
    drafting=Drafting(
        cards="speed-stack",
        rules=("cmc", "cmc", "cmc-instant"),
        speeds=("S", "A", "B", "C", "D", "E"),
        speed_modifiers=True,
        dizzy_costs=True,
    ),
    blank=BLANK,
)
