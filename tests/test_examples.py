"""Golden tests: every bundled example decides every claim as its file expects, under the
SMT engine here (the explorer's answers on every example are pinned and checked in
tests/test_snapshot.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run
from verifier.io.scenario import load_scenario

SCENARIOS = sorted(
    p for p in EXAMPLES.rglob("*.yaml") if not p.name.endswith((".cards.yaml", ".sweep.yaml"))
)


def test_there_are_examples_for_each_game() -> None:
    games = {p.parent.name for p in SCENARIOS}
    assert "yugioh" in games


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_claim_states_its_expectation(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.claims, "an example without claims tests nothing"
    assert all(c.expect is not None for c in scenario.claims)


SMT_IN_THE_DEFAULT_RUN = {
    "yugioh/raigeki-imperial-order-dark-bribe",
    "yugioh/battle-replay-direct",
    "cmc/counterspell",
    "mtg/counterspell-any-spell",
}
"""The examples the SMT engine decides in the default run, one or two of each game. The
explorer decides every example in the default run (tests/test_snapshot.py pins its answers
and checks each against its expectation); the SMT engine takes 1 to 45 s an example, so
its runs of the others are slow tests (`pytest -m slow tests/test_examples.py`), and the
default run compares the two engines on random scenarios of each game instead
(tests/test_differential.py)."""


def _runs() -> list[object]:
    runs: list[object] = []
    for path in SCENARIOS:
        name = f"{path.parent.name}/{path.stem}"
        marks = [] if name in SMT_IN_THE_DEFAULT_RUN else [pytest.mark.slow]
        runs.append(pytest.param(path, "smt", id=f"{name}-smt", marks=marks))
    return runs


def test_the_default_run_names_real_examples() -> None:
    names = {f"{p.parent.name}/{p.stem}" for p in SCENARIOS}
    assert names >= SMT_IN_THE_DEFAULT_RUN


@pytest.mark.parametrize(("path", "engine"), _runs())
def test_example_decides_as_expected(run: Callable[..., Run], path: Path, engine: str) -> None:
    result = run("check", "--json", "--engine", engine, str(path))
    claims = json.loads(result.out)["claims"]
    wrong = [
        (c["claim"], c["verdict"], c["expected"]) for c in claims if c["verdict"] != c["expected"]
    ]
    assert not wrong
    assert result.code == 0
