"""Two engines, one truth: the explorer and the SMT engine agree on random scenarios.

Scenarios are random pools of cards; the engines start from a random reachable state (a
random walk of legal actions from the open game state) and decide random claims. A
disagreement is a bug in one of them; hypothesis shrinks it to a small case.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.checker import prepare
from verifier.explore import ExplorerEngine
from verifier.generate import claim, scenario, to_text
from verifier.logic import CONCRETE
from verifier.scenario import load_scenario
from verifier.smt.engine import SmtEngine
from verifier.state import FIELDS
from verifier.verdict import Verdict, decide

T = TypeVar("T")
_AN = FIELDS.index("an")


class DrawChooser:
    def __init__(self, draw: Any) -> None:
        self.draw = draw

    def pick(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(list(options)))

    def integer(self, low: int, high: int) -> int:
        return int(self.draw(st.integers(low, high)))


@st.composite
def cases(draw: Any, game: str = "yugioh") -> tuple[dict[str, Any], list[str], list[int]]:
    chooser = DrawChooser(draw)
    data = scenario(chooser, game)
    names = list(data["cards"])
    claims = [claim(chooser, names) for _ in range(3)]
    walk = draw(st.lists(st.integers(0, 50), max_size=4))
    return data, claims, walk


def agree(case: tuple[dict[str, Any], list[str], list[int]]) -> None:
    data, claims, walk = case
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.yaml"
        path.write_text(to_text(data), encoding="utf-8")
        sc = load_scenario(path)
    prepared = prepare(sc)
    system = prepared.system
    state = prepared.history.state
    for choice in walk:
        options = list(system.enabled_actions(state))
        if not options:
            break
        state = system.step(CONCRETE, state, options[choice % len(options)])
    start = state[_AN]
    # Limits keep a scenario whose chains grow without end from taking the run with it;
    # each engine then answers "unknown" and there is nothing to compare.
    explorer = ExplorerEngine(system, state, start, max_states=40_000)
    smt = SmtEngine(system, state, start, max_bound=64)
    for text in claims:
        formula = sc.parse(text)
        by_explorer = decide(explorer, formula)
        by_smt = decide(smt, formula)
        if Verdict.UNKNOWN in (by_explorer.verdict, by_smt.verdict):
            # A limit was reached: an engine that is unsure contradicts nothing.
            continue
        assert by_explorer.verdict is by_smt.verdict, (text, by_explorer.verdict, by_smt.verdict)
        if by_explorer.trace is not None and by_smt.trace is not None:
            # Both are shortest witnesses (or counterexamples) of the same claim.
            assert len(by_explorer.trace) == len(by_smt.trace), text


SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
    max_examples=60,
)


@SETTINGS
@given(cases())
def test_engines_agree_on_random_yugioh_scenarios(
    case: tuple[dict[str, Any], list[str], list[int]],
) -> None:
    agree(case)


@pytest.mark.slow
@settings(SETTINGS, max_examples=2400, derandomize=False)
@given(cases())
def test_engines_agree_on_many_yugioh_scenarios(
    case: tuple[dict[str, Any], list[str], list[int]],
) -> None:
    agree(case)


@settings(SETTINGS, max_examples=25)
@given(cases("cmc"))
def test_engines_agree_on_random_cmc_scenarios(
    case: tuple[dict[str, Any], list[str], list[int]],
) -> None:
    agree(case)


@pytest.mark.slow
@settings(SETTINGS, max_examples=1000, derandomize=False)
@given(cases("cmc"))
def test_engines_agree_on_many_cmc_scenarios(
    case: tuple[dict[str, Any], list[str], list[int]],
) -> None:
    agree(case)
