"""Yu-Gi-Oh! (the seeds' Spell Speed, chain and SEGOC documents; the official rulebook)."""

from __future__ import annotations

from types import MappingProxyType

from verifier.games.base import Game, Wording

__all__ = ["GAME"]

GAME = Game(
    name="yugioh",
    title="Yu-Gi-Oh! Trading Card Game",
    card_types=frozenset({"monster", "spell", "trap"}),
    zones=frozenset({"deck", "hand", "field", "graveyard", "banished"}),
    phases=("draw", "standby", "main1", "battle", "main2", "end"),
    verbs=frozenset(
        {
            "destroy",
            "banish",
            "negate",
            "flip-face-down",
            "take-control",
            "special-summon",
            "send-to-graveyard",
            "return-to-hand",
            "draw",
            "add-from-deck",
            "lose-lp",
            "gain-lp",
            "coin-toss",
            "change-atk",
            "change-def",
        }
    ),
    wording=Wording(),
    rulebook=MappingProxyType(
        {
            "chain.min-response": "a Chain Link 2 or higher needs Spell Speed 2 or higher",
            "timing.speed-1": (
                "Spell Speed 1 only starts a chain, in the turn player's open Main Phase"
            ),
            "zone.spell-trap-zones": "there is no free Spell & Trap Zone",
            "summon.tributes": (
                "a Level 5 or 6 monster is summoned with 1 Tribute, Level 7 or higher with 2, "
                "Level 4 or lower with none"
            ),
        }
    ),
)
