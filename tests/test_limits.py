"""Limits: a scenario's own ``limits`` act or are refused with their position; every numeric
option of every command is range-checked (a usage error, exit 2, never a crash)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, MODELS, Run
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare

BASICS = str(EXAMPLES / "yugioh" / "spell-speed-basics.yaml")
SANGAN = str(EXAMPLES / "yugioh" / "sangan-monarch.yaml")
YUGIOH = str(MODELS / "yugioh.yaml")

SCENARIO = """\
rules: yugioh
turn: A
cards:
  Pot of Greed: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 2}}
claims:
  - claim: resolves("Pot of Greed")
"""


def _with_limits(limits: str) -> str:
    return SCENARIO + f"limits: {limits}\n"


def test_pending_triggers_sets_the_capacity_of_waiting_triggers(
    write: Callable[[str, str], Path],
) -> None:
    path = write("s.yaml", _with_limits("{pending_triggers: 5}"))
    scenario = load_scenario(path)
    assert scenario.limits == {"pending_triggers": 5}
    assert prepare(scenario).system.layout.pending_cap == 5
    default = load_scenario(write("d.yaml", SCENARIO))
    assert default.limits == {}
    assert prepare(default).system.layout.pending_cap == 2


@pytest.mark.parametrize(
    ("limits", "expected"),
    [
        pytest.param(
            "{states: 1}",
            [
                "s.yaml:7:10: error: unknown limit 'states' (limits: pending_triggers, turns)",
                "    limits: {states: 1}",
                "             ^",
            ],
            id="states",
        ),
        pytest.param(
            "{depth: 3}",
            ["s.yaml:7:10: error: unknown limit 'depth' (limits: pending_triggers, turns)"],
            id="depth",
        ),
        pytest.param(
            "{pending_triggers: 65536}",
            [
                "s.yaml:7:28: error: 'pending_triggers' must be at most 8, got 65536",
                "    limits: {pending_triggers: 65536}",
                "                               ^",
            ],
            id="huge",
        ),
        pytest.param(
            "{pending_triggers: -1}",
            ["s.yaml:7:28: error: 'pending_triggers' must be at least 1, got -1"],
            id="negative",
        ),
        pytest.param(
            "{pending_triggers: 0}",
            ["s.yaml:7:28: error: 'pending_triggers' must be at least 1, got 0"],
            id="zero",
        ),
        pytest.param(
            "{pending_triggers: 1e7}",
            [
                "s.yaml:7:28: error: wrong type for 'pending_triggers': input should be a valid "
                "integer, got 10000000.0"
            ],
            id="float",
        ),
        pytest.param(
            "{pending_triggers: true}",
            [
                "s.yaml:7:28: error: wrong type for 'pending_triggers': input should be a valid "
                "integer, got True"
            ],
            id="boolean",
        ),
        pytest.param(
            "[2]",
            ["s.yaml:7:9: error: wrong type for 'limits': expected a mapping, got a list"],
            id="not-a-mapping",
        ),
    ],
)
def test_bad_limits_are_refused_with_their_position(
    run: Callable[..., Run], write: Callable[[str, str], Path], limits: str, expected: list[str]
) -> None:
    path = write("s.yaml", _with_limits(limits))
    result = run("check", str(path))
    assert result.code == 2
    assert "Traceback" not in result.err
    lines = [line.replace(str(path), "s.yaml") for line in result.err.splitlines()]
    assert lines[: len(expected)] == expected


def test_a_good_limit_checks(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    result = run("check", str(write("s.yaml", _with_limits("{pending_triggers: 1}"))))
    assert result.code == 0, result.err


# -- numeric options ----------------------------------------------------------------------------

TIMEOUT_COMMANDS = [
    ("check", BASICS),
    ("ask", BASICS, "can_respond(B)"),
    ("why", BASICS, "B activates Card Destruction"),
    ("explore", BASICS),
    ("orders", SANGAN),
    ("diff", "yugioh", "yugioh-trigger-first", SANGAN),
    ("lint", YUGIOH),
]
STATES_COMMANDS = [
    ("check", BASICS),
    ("ask", BASICS, "can_respond(B)"),
    ("explore", BASICS),
    ("orders", SANGAN),
    ("diff", "yugioh", "yugioh-trigger-first", SANGAN),
    ("lint", YUGIOH),
]


@pytest.mark.parametrize("command", TIMEOUT_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("-5", "-5.0 is not in the range 0<x<=604800.0"),
        ("0", "0.0 is not in the range 0<x<=604800.0"),
        ("nan", "'nan' is not a finite number of seconds"),
        ("inf", "'inf' is not a finite number of seconds"),
        ("-inf", "'-inf' is not a finite number of seconds"),
        ("1e9", "1000000000.0 is not in the range 0<x<=604800.0"),
        ("soon", "'soon' is not a valid float"),
    ],
)
def test_timeout_is_range_checked(
    run: Callable[..., Run], command: tuple[str, ...], value: str, reason: str
) -> None:
    result = run(*command, "--timeout", value)
    assert result.code == 2
    assert f"Error: Invalid value for '--timeout': {reason}." in result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize("command", STATES_COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("0", "0 is not in the range 1<=x<=10000000"),
        ("-3", "-3 is not in the range 1<=x<=10000000"),
        ("100000000000", "100000000000 is not in the range 1<=x<=10000000"),
        ("1.5", "'1.5' is not a valid integer"),
    ],
)
def test_max_states_is_range_checked(
    run: Callable[..., Run], command: tuple[str, ...], value: str, reason: str
) -> None:
    result = run(*command, "--max-states", value)
    assert result.code == 2
    assert f"Error: Invalid value for '--max-states': {reason}." in result.err


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("0", "0 is not in the range 1<=x<=100000"),
        ("-1", "-1 is not in the range 1<=x<=100000"),
        ("1000000", "1000000 is not in the range 1<=x<=100000"),
    ],
)
def test_diff_tries_is_range_checked(run: Callable[..., Run], value: str, reason: str) -> None:
    result = run("diff", "yugioh", "yugioh-trigger-first", "--tries", value)
    assert result.code == 2
    assert f"Error: Invalid value for '--tries': {reason}." in result.err


def test_a_valid_timeout_is_accepted(run: Callable[..., Run]) -> None:
    assert run("check", "--timeout", "600", BASICS).code == 0


# -- every command honours the limits, and says when one stopped it ---------------------------


def test_explore_says_when_the_state_limit_stopped_it(run: Callable[..., Run]) -> None:
    result = run("explore", "--max-states", "5", SANGAN)
    assert result.code == 3
    assert result.out.rstrip().endswith("(incomplete: the state limit was reached; --max-states)")
    assert run("explore", SANGAN).code == 0


def test_orders_honours_the_state_limit(run: Callable[..., Run]) -> None:
    result = run("orders", "--max-states", "5", SANGAN)
    assert result.code == 3
    assert result.out == (
        f"{SANGAN}: no simultaneous triggers went on a chain before the exploration stopped "
        "(incomplete: the state limit was reached; --max-states)\n"
    )
    complete = run("orders", SANGAN)
    assert complete.code == 1
    assert "sensitive" in complete.out.splitlines()[0]
    assert "incomplete" not in complete.out


def test_orders_does_not_call_a_partial_exploration_insensitive(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    whirlwind = str(EXAMPLES / "yugioh" / "black-whirlwind-segoc.yaml")
    assert run("orders", whirlwind).out.splitlines()[0].endswith(": insensitive")
    for limit in range(5, 40):
        result = run("orders", "--max-states", str(limit), whirlwind)
        first = result.out.splitlines()[0]
        if "incomplete" in first:
            assert result.code == 3, first
            assert ": insensitive" not in first
        else:
            assert result.code == 0


def test_orders_honours_the_time_limit(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    cards = "".join(
        f"  Trap {i}: {{kind: normal-trap, controller: {'AB'[i % 2]}, set: earlier-turn, "
        "effect: {draw: 1}}\n"
        for i in range(9)
    )
    path = write("pool.yaml", f"rules: yugioh\nturn: A\ncards:\n{cards}")
    result = run("orders", "--timeout", "0.01", str(path))
    assert result.code == 3
    assert "(incomplete: the time limit was reached; --timeout)" in result.out


def test_diff_honours_the_state_limit(run: Callable[..., Run]) -> None:
    result = run("diff", "--max-states", "5", "yugioh", "yugioh-trigger-first", SANGAN)
    assert result.code == 3
    assert result.out.splitlines()[0] == (
        f"{SANGAN}: no difference(s) (incomplete: a limit stopped the exploration under "
        "yugioh, yugioh-trigger-first; --max-states, --timeout)"
    )
    complete = run("diff", "yugioh", "yugioh-trigger-first", SANGAN)
    assert complete.code == 1
    assert complete.out.splitlines()[0] == f"{SANGAN}: 1 difference(s)"


def test_diff_search_passes_over_scenarios_a_limit_stopped(run: Callable[..., Run]) -> None:
    result = run("diff", "--tries", "3", "--max-states", "1", "yugioh", "yugioh-trigger-first")
    assert result.code == 3
    assert result.out == (
        "no difference found in 3 generated scenarios "
        "(incomplete: a limit stopped 3 of them; --max-states, --timeout)\n"
    )


@pytest.mark.full
def test_lint_honours_the_state_limit(run: Callable[..., Run]) -> None:
    result = run("lint", "--max-states", "3", YUGIOH)
    assert result.code == 3
    lines = result.out.splitlines()
    assert (
        "incomplete: probe start-normal-spell.yaml: the state limit was reached; --max-states"
        in lines
    )
    assert lines[-1] == f"{YUGIOH}: no finding, but the check is incomplete (a limit was reached)"
    assert run("lint", YUGIOH).out.splitlines()[-1] == f"{YUGIOH}: clean"


def test_lint_json_lists_what_a_limit_stopped(run: Callable[..., Run]) -> None:
    import json

    result = run("lint", "--json", "--max-states", "3", YUGIOH)
    assert result.code == 3
    data = json.loads(result.out)
    assert data["findings"] == []
    assert "probe start-quick.yaml: the state limit was reached; --max-states" in data["incomplete"]


def test_lint_scenarios_honour_the_time_limit(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    cards = "".join(
        f"  Trap {i}: {{kind: normal-trap, controller: {'AB'[i % 2]}, set: earlier-turn, "
        "effect: {draw: 1}}\n"
        for i in range(9)
    )
    path = write("pool.yaml", f"rules: yugioh\nturn: A\ncards:\n{cards}")
    result = run("lint", "--timeout", "0.05", YUGIOH, str(path))
    assert result.code == 3
    assert f"incomplete: {path}: the time limit was reached; --timeout" in result.out.splitlines()


def test_the_timeout_bounds_the_claims_evaluation_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Claims that hold must be evaluated on every final state; when that is slow, the
    # engine's time limit still holds: what is left undecided is unknown, named "time".
    import time

    from bench.pools import write_pool
    from verifier.engines import explore
    from verifier.io.scenario import parse_for
    from verifier.run.verdict import Verdict, decide

    honest = explore.truth

    def slow(*args: object) -> object:
        time.sleep(0.005)
        return honest(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(explore, "truth", slow)
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    # The interpreted step evaluates each claim state by state (the array step evaluates it
    # over the final rows at once, not through ``truth``).
    engine = explore.ExplorerEngine(
        prepared.system, prepared.history.state, 0, seconds=1.0, reduce=False, arrays_after=None
    )
    began = time.perf_counter()
    verdicts = [
        decide(engine, parse_for(prepared.scenario, f"always chain_length <= {6 + i}")).verdict
        for i in range(10)
    ]
    # Unbounded, the ten claims take 10 x 325 final states x 5 ms: over 16 s.
    assert time.perf_counter() - began < 8
    assert Verdict.UNKNOWN in verdicts
    assert engine.exploration.stopped_by == "time"
