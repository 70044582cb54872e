"""Golden tests: every bundled example decides every claim as its file expects."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run
from verifier.io.scenario import load_scenario

SCENARIOS = sorted(p for p in EXAMPLES.rglob("*.yaml") if not p.name.endswith(".cards.yaml"))


def test_there_are_examples_for_each_game() -> None:
    games = {p.parent.name for p in SCENARIOS}
    assert "yugioh" in games


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_claim_states_its_expectation(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.claims, "an example without claims tests nothing"
    assert all(c.expect is not None for c in scenario.claims)


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_example_decides_as_expected(run: Callable[..., Run], path: Path, engine: str) -> None:
    result = run("check", "--json", "--engine", engine, str(path))
    claims = json.loads(result.out)["claims"]
    wrong = [
        (c["claim"], c["verdict"], c["expected"]) for c in claims if c["verdict"] != c["expected"]
    ]
    assert not wrong
    assert result.code == 0
