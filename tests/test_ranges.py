"""Each integer element stored in the bits of its interval: closed under every step.

The SMT engine keeps a zone or a mode in a few bits instead of the rules' whole width. That
is sound only if no continuation ever gives an element a value outside its interval: these
tests check the interval arithmetic on terms made by hand, then every state of whole
examples and of generated scenarios against the intervals the relation was built with.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
import z3

from tests.test_differential import load
from verifier.core.logic import CONCRETE
from verifier.core.state import State
from verifier.designer.generate import RandomChooser, scenario
from verifier.engines.smt.encode import Unrolling
from verifier.engines.smt.ranges import bits_for, closed_intervals
from verifier.errors import VerifierError
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare
from verifier.system import System

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 8
WHOLE = (-128, 127)


def _intervals(
    starts: dict[str, int], values: dict[str, list[object]], variables: dict[str, z3.BitVecRef]
) -> dict[str, tuple[int, int]]:
    return closed_intervals(
        starts, {v.get_id(): name for name, v in variables.items()}, values, WIDTH
    )


def test_choices_of_constants_and_copies_take_their_hull() -> None:
    x, y, c = z3.BitVec("x", WIDTH), z3.BitVec("y", WIDTH), z3.Bool("c")
    found = _intervals(
        {"x": 0, "y": 0},
        {"x": [z3.If(c, z3.BitVecVal(5, WIDTH), z3.BitVecVal(-1, WIDTH))], "y": [x]},
        {"x": x, "y": y},
    )
    assert found == {"x": (-1, 5), "y": (-1, 5)}


def test_an_element_no_action_changes_keeps_its_start_value() -> None:
    x, y = z3.BitVec("x", WIDTH), z3.BitVec("y", WIDTH)
    found = _intervals({"x": 3, "y": 7}, {"x": [y + 1]}, {"x": x, "y": y})
    assert found == {"x": (3, 8), "y": (7, 7)}


def test_a_counter_that_keeps_growing_takes_the_whole_width() -> None:
    n = z3.BitVec("n", WIDTH)
    assert _intervals({"n": 0}, {"n": [n + 1]}, {"n": n}) == {"n": WHOLE}


def test_a_bounded_sum_stays_exact_and_one_that_could_wrap_does_not() -> None:
    a, b, c = (z3.BitVec(name, WIDTH) for name in "abc")
    choice = z3.If(z3.Bool("p"), z3.BitVecVal(2, WIDTH), z3.BitVecVal(0, WIDTH))
    found = _intervals(
        {"a": 0, "b": 100, "c": 0},
        {"a": [choice + choice - z3.BitVecVal(1, WIDTH)], "b": [b + b - b], "c": [-choice]},
        {"a": a, "b": b, "c": c},
    )
    assert found["a"] == (-1, 3)
    assert found["c"] == (-2, 0)
    assert found["b"] == WHOLE  # 100 + 100 leaves 8 bits: z3 would wrap it


def test_an_operation_it_does_not_know_takes_the_whole_width() -> None:
    x, y = z3.BitVec("x", WIDTH), z3.BitVec("y", WIDTH)
    found = _intervals({"x": 1, "y": 2}, {"x": [x * y]}, {"x": x, "y": y})
    assert found["x"] == WHOLE


def test_a_change_that_reaches_an_element_late_still_widens_it() -> None:
    # The chain n -> a -> b -> c: c only starts to grow after n took the whole width.
    n, a, b, c = (z3.BitVec(name, WIDTH) for name in "nabc")
    found = _intervals(
        {"n": 0, "a": 0, "b": 0, "c": 0},
        {"n": [n + 1], "a": [n], "b": [a], "c": [b]},
        {"n": n, "a": a, "b": b, "c": c},
    )
    assert found == dict.fromkeys("nabc", WHOLE)


@pytest.mark.parametrize(
    ("interval", "bits"),
    [((0, 0), 1), ((0, 1), 1), ((0, 3), 2), ((0, 4), 3), ((-1, 0), 1), ((-1, 1), 2),
     ((-1, 5), 4), ((-8, 7), 4), ((-9, 7), 5)],
)  # fmt: skip
def test_bits_for_an_interval(interval: tuple[int, int], bits: int) -> None:
    assert bits_for(interval) == bits
    low, high = interval
    for value in (low, high):
        word = value & ((1 << bits) - 1)
        back = word - (1 << bits) if low < 0 and word >> (bits - 1) else word
        assert back == value


def _every_state(system: System, start: State, limit: int) -> list[State]:
    """The states reachable from ``start``, breadth first (the first ``limit`` of them)."""
    seen, queue = {start}, deque([start])
    while queue and len(seen) < limit:
        state = queue.popleft()
        for action in system.enabled_actions(state):
            after = system.step(CONCRETE, state, action)
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return list(seen)


def _inside(system: System, start: State, limit: int = 20_000) -> int:
    """Every state reachable from ``start`` has each element in its interval; how many
    states there were."""
    unrolling = Unrolling(system, start)
    intervals = unrolling.storage.intervals
    states = _every_state(system, start, limit)
    for state in states:
        for element, (low, high) in intervals.items():
            _, position, index = element
            value = state[position] if index is None else state[position][index]
            assert low <= int(value) <= high, (element[0].name, index, value, (low, high))
    return len(states)


@pytest.mark.parametrize(
    "name",
    [
        "yugioh/battle-damage-step-limits.yaml",
        "yugioh/special-summon-needs-a-zone.yaml",
        "mtg/storm-copies-for-each-spell-cast-before-it.yaml",
        "mtg/declare-attackers-and-blockers.yaml",
        "cmc/speed-modifiers.yaml",
    ],
)
def test_every_state_of_an_example_is_inside_the_intervals(name: str) -> None:
    prepared = prepare(load_scenario(ROOT / "examples" / name))
    assert _inside(prepared.system, prepared.history.state) > 10


def test_the_intervals_are_narrower_than_the_width() -> None:
    prepared = prepare(
        load_scenario(ROOT / "examples" / "yugioh" / "battle-damage-step-limits.yaml")
    )
    unrolling = Unrolling(prepared.system, prepared.history.state)
    sizes = [unrolling.storage.size(e) for e in unrolling.relation.elements]
    assert max(sizes) == unrolling.width  # life points keep the whole width
    assert sum(sizes) < len(sizes) * unrolling.width / 2


@pytest.mark.parametrize(
    ("game", "seeds"), [("yugioh", range(12)), ("cmc", range(6)), ("mtg", range(8))]
)
def test_every_state_of_a_generated_scenario_is_inside_the_intervals(
    game: str, seeds: range
) -> None:
    checked = 0
    for seed in seeds:
        try:
            sc = load(scenario(RandomChooser(seed), game, size=2))
        except VerifierError:
            continue
        prepared = prepare(sc)
        _inside(prepared.system, prepared.history.state, limit=5_000)
        checked += 1
    assert checked >= len(seeds) // 2


@pytest.mark.slow
def test_every_state_of_every_example_and_of_many_generated_scenarios_is_inside() -> None:
    examples = [
        path
        for path in sorted((ROOT / "examples").rglob("*.yaml"))
        if not path.name.endswith((".cards.yaml", ".sweep.yaml", ".rules.yaml"))
    ]
    checked = 0
    for path in examples:
        try:
            prepared = prepare(load_scenario(path))
        except VerifierError:
            continue  # not a scenario (a card library, a sweep, a rule set)
        checked += _inside(prepared.system, prepared.history.state, limit=50_000)
    for game in ("yugioh", "cmc", "mtg"):
        for seed in range(1000, 1200):
            try:
                sc = load(scenario(RandomChooser(seed), game, size=3))
            except VerifierError:
                continue
            prepared = prepare(sc)
            checked += _inside(prepared.system, prepared.history.state, limit=50_000)
    print(f"{checked} states inside their intervals")
