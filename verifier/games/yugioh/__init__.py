"""Yu-Gi-Oh! (the seeds' Spell Speed, chain and SEGOC documents; the official rulebook)."""

from __future__ import annotations

from types import MappingProxyType

from verifier.games.base import Drafting, Game, Wording

__all__ = ["BLANK", "GAME"]

BLANK = """\
# A Yu-Gi-Oh! scenario: the rule system, whose turn it is, the cards and where they are,
# what has happened, and the claims to decide. Cards named in the bundled library take
# their text from it; others are written out here (see the README's "Scenarios").
rules: yugioh
library: yugioh
turn: A
cards:
  Raigeki: {controller: A, zone: hand}
  Mirror Force: {controller: B, set: earlier-turn}
  Blue-Eyes White Dragon: {controller: B}
history:
  - A activates Raigeki
claims:
  - claim: can_respond(B)          # Mirror Force answers an attack, not a spell
    expect: fails
  - claim: zone("Blue-Eyes White Dragon") == graveyard
    expect: holds
"""
"""A small scenario to start from, on the web page."""

GAME = Game(
    name="yugioh",
    title="Yu-Gi-Oh! Trading Card Game",
    card_types=frozenset({"monster", "spell", "trap"}),
    zones=frozenset({"deck", "hand", "field", "graveyard", "banished"}),
    phases=("draw", "standby", "main1", "battle", "main2", "end"),
    # The official rulebook's turn: the Battle Phase has a Start Step, a Battle Step, a
    # Damage Step (five timings) and an End Step; after each Damage Step the Battle Step
    # comes again, for the next attack.
    steps=(
        ("draw", "draw"),
        ("standby", "standby"),
        ("main1", "main1"),
        ("start-step", "battle"),
        ("battle-step", "battle"),
        ("damage-start", "battle"),
        ("before-damage", "battle"),
        ("damage-calculation", "battle"),
        ("after-damage", "battle"),
        ("damage-end", "battle"),
        ("end-step", "battle"),
        ("main2", "main2"),
        ("end", "end"),
    ),
    filter_keys=frozenset({"position", "attacking"}),
    verbs=frozenset(
        {
            "destroy",
            "banish",
            "negate",
            "flip-face-down",
            "take-control",
            "special-summon",
            "normal-summon",
            "send-to-graveyard",
            "return-to-hand",
            "draw",
            "add-from-deck",
            "lose-lp",
            "gain-lp",
            "coin-toss",
            "change-atk",
            "change-def",
            "negate-attack",
            "end-battle-phase",
        }
    ),
    wording=Wording(
        steps=MappingProxyType(
            {
                "draw": "the Draw Phase",
                "standby": "the Standby Phase",
                "main1": "Main Phase 1",
                "start-step": "the Battle Phase: its Start Step",
                "battle-step": "the Battle Step",
                "damage-start": "the Damage Step: its start",
                "before-damage": "the Damage Step: before damage calculation",
                "damage-calculation": "the Damage Step: damage calculation",
                "after-damage": "the Damage Step: after damage calculation",
                "damage-end": "the Damage Step: its end",
                "end-step": "the Battle Phase's End Step",
                "main2": "Main Phase 2",
                "end": "the End Phase",
            }
        )
    ),
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
    drafting=Drafting(
        cards="spell-speed-chain",
        battle_phase=True,
        continuous_locks=True,
        hand_cards=True,
        summon_shapes=True,
        step_triggers=True,
        step_claims=True,
        claim_atoms_left_out=("dizzy",),
    ),
    short_title="Yu-Gi-Oh!",
    blank=BLANK,
)
