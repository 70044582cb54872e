"""Spells with two targets (Magic's Fire): each target is chosen on casting and checked again
on resolution (CR 608.2b); the errors of ``targets`` and of "targeting X and Y"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run, bad_input
from verifier.io.scenario import load_scenario
from verifier.system import build_system

FIRE = """rules: mtg
turn: A
life-points: 20
cards:
  Grizzly Bears: {kind: creature, controller: B, power: 2, toughness: 2}
  Llanowar Elves: {kind: creature, controller: B, power: 1, toughness: 1}
  Fire:
    kind: instant
    controller: A
    targets: 2
    target: {card: monster, zone: field}
    effect: {damage: {amount: 1, to: target}}
  Lightning Bolt:
    kind: instant
    controller: A
    target: {card: monster, zone: field}
    effect: {damage: {amount: 3, to: target}}
history:
  - A casts Fire targeting Grizzly Bears and Llanowar Elves
claims:
  - claim: zone("Llanowar Elves") == graveyard
    expect: holds
"""


def _error(run: Callable[..., Run], path: Path) -> str:
    return bad_input(run, path)[0]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("    targets: 2\n", "    targets: 0\n", "targets"),
        ("    targets: 2\n", "    targets: 3\n", "targets"),
        (
            "    targets: 2\n    target: {card: monster, zone: field}\n",
            "    targets: 2\n",
            "error: 'targets: 2' needs 'target'",
        ),
        (
            "targeting Grizzly Bears and Llanowar Elves",
            "targeting Grizzly Bears and Grizzly Bears",
            "error: 'Grizzly Bears' is named twice",
        ),
        (
            "targeting Grizzly Bears and Llanowar Elves",
            "targeting Grizzly Bears targeting Llanowar Elves",
            "error: one 'targeting' per step",
        ),
        (
            "A casts Fire targeting Grizzly Bears and Llanowar Elves",
            "A casts Fire targeting Grizzly Bears",
            "names 1 target, but Fire targets 2",
        ),
        (
            "A casts Fire targeting Grizzly Bears and Llanowar Elves",
            "A casts Lightning Bolt targeting Grizzly Bears and Llanowar Elves",
            "names 2 targets, but Lightning Bolt targets 1",
        ),
    ],
    ids=["zero", "three", "without-target", "twice", "two-targeting", "one-of-two", "two-of-one"],
)
def test_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path], old: str, new: str, message: str
) -> None:
    assert old in FIRE
    line = _error(run, write("s.yaml", FIRE.replace(old, new, 1)))
    assert message in line
    assert line.startswith(str(write("s.yaml", "").parent))  # path:line:col: error: ...


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_each_target_is_dealt_damage(
    run: Callable[..., Run], write: Callable[[str, str], Path], engine: str
) -> None:
    result = run("check", "--engine", engine, str(write("s.yaml", FIRE)))
    assert result.code == 0, result
    assert "1 as expected" in result.out


def test_both_targets_taken_by_the_same_spell_fail_together(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    # Fire kills the Elves (A's Lightning Bolt in response changes nothing about that); a
    # claim it leaves the Elves alive fails, with the trace naming both targets.
    text = FIRE.replace('zone("Llanowar Elves") == graveyard', 'zone("Llanowar Elves") == field')
    result = run("check", "--engine", "both", str(write("s.yaml", text)))
    assert result.code == 1, result
    assert "A casts Fire targeting Grizzly Bears and Llanowar Elves" in result.out
    assert "Llanowar Elves, Grizzly Bears are dealt 1 damage" in result.out or (
        "Grizzly Bears, Llanowar Elves are dealt 1 damage" in result.out
    )


def test_a_two_target_spell_is_offered_each_pair_of_targets_once(
    write: Callable[[str, str], Path],
) -> None:
    scenario = load_scenario(write("s.yaml", FIRE), history=None)
    system = build_system(scenario)
    fire = next(a.index for a in scenario.abilities if a.label == "Fire")
    pairs = [
        (a.target, a.target2) for a in system.actions if a.ability == fire and a.kind == "activate"
    ]
    names = {c.name: c.index for c in scenario.cards}
    bears, elves = names["Grizzly Bears"], names["Llanowar Elves"]
    # Fire never targets itself (it is on the stack, not a creature) nor one card twice.
    assert pairs == [(min(bears, elves), max(bears, elves))]
    assert system.layout.has("ltg2")
    bolt = next(a for a in scenario.abilities if a.label == "Lightning Bolt")
    assert bolt.targets == 1


def test_one_target_scenarios_keep_their_state() -> None:
    # A scenario without a two-target ability has no second-target slot.
    scenario = load_scenario(EXAMPLES / "mtg" / "target-illegal-on-resolution.yaml")
    assert not build_system(scenario).layout.has("ltg2")


@pytest.mark.full  # the SMT engine proves its bound complete for the core: seconds
def test_why_asks_about_the_pair_of_targets_named(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    # The Elves cannot be targeted: Fire on the Bears and the Elves can never be cast, though
    # Fire on the Bears and another creature can (the pair is matched in either order).
    text = "\n".join(
        [
            *FIRE.split("history:", maxsplit=1)[0].splitlines(),
            "  Hill Giant: {kind: creature, controller: B, power: 3, toughness: 3}",
        ]
    ).replace("toughness: 1}", "toughness: 1, continuous: {untargetable: this}}")
    path = str(write("s.yaml", text + "\n"))
    never = run("why", path, "A casts Fire targeting Grizzly Bears and Llanowar Elves")
    assert never.code == 0, never
    assert "A cannot activate Fire on any continuation" in never.out
    assert "(lock.untargetable)" in never.out
    can = run("why", path, "A casts Fire targeting Hill Giant and Grizzly Bears")
    assert can.code == 0, can
    assert "A casts Fire targeting Grizzly Bears and Hill Giant" in can.out
