"""Screening skips only activations the rules forbid: the legal actions are the same.

:mod:`verifier.engines.screen` decides, from a few fields of a state, that an action cannot
be legal there, and the explorer then does not run its checks. A wrong "cannot" would hide
a continuation, so every state of every example, and of random scenarios of all three
games, is checked here: the screened legal actions are exactly the unscreened ones.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from tests.conftest import ROOT, sampled_scenarios
from tests.test_differential import Case, cases, load, walked
from verifier.core.state import State
from verifier.engines.explore import Exploration
from verifier.engines.screen import Screen
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare
from verifier.system import System


def same_actions(system: System, start: State, most: int) -> int:
    """Explore up to ``most`` states without the screen; in each, the screen must give the
    same legal actions in the same order. The number of states compared."""
    screen = Screen(system)
    exploration = Exploration(system, start, most)
    exploration.run()
    for state in exploration.parent:
        plain = list(system.enabled_actions(state))
        assert list(screen.enabled(state)) == plain, state
    return exploration.states


@pytest.mark.parametrize("path", sampled_scenarios())
def test_the_screen_keeps_every_legal_action_of_the_examples(path: Path) -> None:
    prepared = prepare(load_scenario(path))
    assert same_actions(prepared.system, prepared.history.state, 3_000) > 0


@pytest.mark.full
def test_the_screen_skips_what_the_damage_step_forbids() -> None:
    # The bench's Damage Step board: most activations are ruled out without their checks.
    prepared = prepare(load_scenario(ROOT / "bench/boards/damage-step.yaml", allow_outside=True))
    system, start = prepared.system, prepared.history.state
    screen = Screen(system)
    asked = skipped = 0
    exploration = Exploration(system, start, 2_000, screen=screen)
    exploration.run()
    for state in list(exploration.parent)[:500]:
        may = screen.sieve(state)
        for action in system.actions:
            if action.kind == "activate":
                asked += 1
                skipped += not may(action)
    assert skipped > asked // 2
    assert same_actions(system, start, 2_000) == 2_001


def on_random_states(
    same: Callable[[System, State, int], object], game: str, count: int, large: bool = False
) -> None:
    """``same(system, state, most)`` from the point of ``count`` random scenarios of
    ``game`` (a random walk on from their history), up to 1,500 states each."""

    @settings(
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
        max_examples=count,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )
    @given(cases(game, large=large))
    def check(case: Case) -> None:
        data, _claims, walk = case
        prepared = prepare(load(data))
        same(prepared.system, walked(prepared.system, prepared.history.state, walk), 1_500)

    check()


def _random(game: str, count: int, large: bool = False) -> None:
    on_random_states(same_actions, game, count, large)


@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_the_screen_keeps_every_legal_action_of_random_scenarios(game: str) -> None:
    _random(game, 15)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_the_screen_keeps_every_legal_action_of_many_random_scenarios(game: str) -> None:
    _random(game, int(os.environ.get("DIFF_EXAMPLES", "300")), large=True)
