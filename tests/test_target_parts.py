"""Every part of an effect acts on a target that was legal as the effect began to resolve,
wherever an earlier part has put it: "Special Summon that target, but negate its effects"
negates the monster it has just summoned (Debris Dragon). The golden example is
``examples/yugioh/debris-dragon-negates-what-it-summons.yaml``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

REVIVE = """\
rules: yugioh
turn: A
until: main1
cards:
  Revive:
    kind: normal-spell
    controller: A
    zone: hand
    target: {{card: monster, zone: graveyard, controller: you}}
    effect: {effect}
  Lock:
    kind: effect-monster
    controller: A
    zone: graveyard
    level: 6
    continuous: [{{cannot-activate: trap}}]
  Trap Hole: {{kind: normal-trap, controller: B, set: earlier-turn, effect: {{draw: 1}}}}
history:
  - A activates Revive targeting Lock
  - B passes
  - A passes
"""

NEGATED = "[{special-summon: target}, {negate-card-effects: target, simultaneous: true}]"


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("effect", "trap"), [(NEGATED, "holds"), ("{special-summon: target}", "fails")]
)
def test_a_later_part_acts_on_the_target_an_earlier_part_moved(
    decide: Decide, engine: str, effect: str, trap: str
) -> None:
    board = REVIVE.format(effect=effect)
    assert decide(board, 'always zone("Lock") == field', engine) == "holds"
    # The Lock's effects are negated with it summoned: B's Trap can be activated again.
    assert decide(board, 'can_activate(B, "Trap Hole")', engine) == trap


FLIPPED = """\
rules: yugioh
turn: A
until: main1
cards:
  Seize:
    kind: normal-spell
    controller: A
    zone: hand
    target: {card: monster, zone: field, face: up}
    effect: [{flip-face-down: target}, {take-control: target}]
  Veil: {kind: normal-trap, controller: B, set: earlier-turn, target: {card: monster, zone: field}, effect: {flip-face-down: target}}
  Gemini Elf: {kind: normal-monster, controller: B}
history:
  - A activates Seize targeting Gemini Elf
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_target_that_stops_fitting_before_resolution_is_not_acted_on(
    decide: Decide, engine: str
) -> None:
    # Face-down before Seize resolves: the target no longer fits, so no part applies to it.
    chained = FLIPPED + "  - B activates Veil targeting Gemini Elf\n  - the chain resolves\n"
    assert decide(chained, 'controller("Gemini Elf") == B', engine) == "holds"
    # Face-up as Seize resolves: its first part flips the monster, its second still takes it.
    alone = FLIPPED + "  - B passes\n  - the chain resolves\n"
    assert decide(alone, 'controller("Gemini Elf") == A', engine) == "holds"
