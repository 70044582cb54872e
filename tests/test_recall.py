"""The remembered step answers exactly as the rules do.

:mod:`verifier.engines.recall` answers "which actions are legal" and "what does this action
lead to" from decision trees over the fields each earlier computation read. A wrong
memory would add or hide a continuation, so every state of every example, and of random
scenarios of all three games, is checked here twice (the second time from memory): the
legal actions, in order, and every successor are the rules' own.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, sampled_scenarios
from tests.test_screen import on_random_states
from verifier.core.logic import CONCRETE
from verifier.core.state import State
from verifier.engines import recall as recall_module
from verifier.engines.explore import Exploration, ExplorerEngine
from verifier.engines.recall import Recall
from verifier.engines.screen import Screen
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare
from verifier.system import System


def same_answers(system: System, start: State, most: int, recall: Recall | None = None) -> Recall:
    """Explore up to ``most`` states by the rules alone; in each, twice, the recall must
    give the same legal actions in the same order and the same successor of each."""
    recall = recall or Recall(system, Screen(system))
    exploration = Exploration(system, start, most)
    exploration.run()
    for _ in range(2):
        for state in exploration.parent:
            plain = list(system.enabled_actions(state))
            assert list(recall.enabled(state)) == plain, state
            for action in plain:
                assert recall.step(state, action) == system.step(CONCRETE, state, action)
    return recall


@pytest.mark.parametrize("path", sampled_scenarios())
def test_the_recall_answers_as_the_rules_in_the_examples(path: Path) -> None:
    prepared = prepare(load_scenario(path))
    recall = same_answers(prepared.system, prepared.history.state, 2_000)
    assert recall.hits > 0


@pytest.mark.full
def test_the_recall_answers_most_questions_of_the_damage_step_board_from_memory() -> None:
    prepared = prepare(load_scenario(ROOT / "bench/boards/damage-step.yaml", allow_outside=True))
    system, start = prepared.system, prepared.history.state
    recall = Recall(system, Screen(system))
    exploration = Exploration(system, start, 5_000, recall=recall)
    exploration.run()
    assert recall.hits > 2 * recall.misses
    plain = Exploration(system, start, 5_000).run()
    assert list(exploration.parent) == list(plain.parent)  # the same states, in order
    assert exploration.terminals == plain.terminals


@pytest.mark.full
def test_a_tree_that_seldom_hits_is_given_up_and_the_answers_stay_the_rules(
    tmp_path: Path,
) -> None:
    # Eight set traps: every order of the chain is its own state, so what the resolution
    # reads (the chain) is rarely shared.
    sys.path.insert(0, str(ROOT))
    from bench.pools import write_pool

    path = write_pool(tmp_path, 7)
    prepared = prepare(load_scenario(path))
    recall = same_answers(prepared.system, prepared.history.state, 6_000)
    assert not all(t.live for t in recall._step_tally.values())


def test_the_trees_are_dropped_and_grown_again_past_their_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(recall_module, "MAX_NODES", 40)
    prepared = prepare(
        load_scenario(ROOT / "examples/yugioh/raigeki-imperial-order-dark-bribe.yaml")
    )
    recall = same_answers(prepared.system, prepared.history.state, 2_000)
    assert recall.nodes <= 40 + 100  # dropped at least once; one more path may follow


def test_two_computations_that_read_alike_must_read_the_same_fields() -> None:
    # The trees rest on the rules reading the state only through its frame; a computation
    # that did otherwise would show as a different field read after the same values.
    prepared = prepare(
        load_scenario(ROOT / "examples/yugioh/raigeki-imperial-order-dark-bribe.yaml")
    )
    recall = Recall(prepared.system)
    state = prepared.history.state
    root = recall._grow(None, state, [0, 1], ("answer",))
    with pytest.raises(AssertionError):
        recall._grow(root, state, [0, 2], ("other",))


def test_the_explorer_engine_remembers_and_decides_as_before() -> None:
    prepared = prepare(
        load_scenario(ROOT / "examples/yugioh/raigeki-imperial-order-dark-bribe.yaml")
    )
    engine = ExplorerEngine(prepared.system, prepared.history.state, prepared.history.activations)
    assert engine.exploration.step == engine.recall.step


def _random(game: str, count: int, large: bool = False) -> None:
    on_random_states(same_answers, game, count, large)


@pytest.mark.full
@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_the_recall_answers_as_the_rules_in_random_scenarios(game: str) -> None:
    _random(game, 12)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_the_recall_answers_as_the_rules_in_many_random_scenarios(game: str) -> None:
    _random(game, int(os.environ.get("DIFF_EXAMPLES", "300")), large=True)
