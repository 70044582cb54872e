"""An effect's Special Summon needs a free Monster Zone: at activation (a card whose effect
only Special Summons is not activated without one; the golden example is
``examples/yugioh/special-summon-needs-a-zone.yaml``) and at resolution (a chained summon
that took the last zone leaves the monster where it is)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

FOUR = """\
rules: yugioh
turn: A
cards:
  M1: {kind: normal-monster, controller: A, atk: 100}
  M2: {kind: normal-monster, controller: A, atk: 100}
  M3: {kind: normal-monster, controller: A, atk: 100}
  M4: {kind: normal-monster, controller: A, atk: 100}
  Dragon: {kind: normal-monster, controller: B, zone: graveyard, atk: 3000}
  Elf: {kind: normal-monster, controller: A, zone: graveyard, atk: 1900}
  Reborn:
    kind: normal-spell
    controller: A
    zone: hand
    target: {card: monster, zone: graveyard}
    effect: {special-summon: target}
  Haunted:
    kind: normal-trap
    controller: A
    set: earlier-turn
    target: {card: monster, zone: graveyard, controller: you}
    effect: {special-summon: target}
history:
  - A activates Reborn targeting Dragon
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_summon_chained_first_takes_the_last_zone(decide: Decide, engine: str) -> None:
    # Haunted (Chain Link 2) summons Elf into the fifth zone; Reborn then has no room.
    both = 'exists (activates("Haunted") and zone("Elf") == field and zone("Dragon") == graveyard)'
    assert decide(FOUR, both, engine) == "holds"
    assert decide(FOUR, 'exists (zone("Elf") == field and zone("Dragon") == field)', engine) == (
        "fails"
    )
    # Without the chain, Reborn summons Dragon into the fifth zone.
    alone = 'exists (not activates("Haunted") and zone("Dragon") == field)'
    assert decide(FOUR, alone, engine) == "holds"
