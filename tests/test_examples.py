"""Golden tests: every bundled example decides every claim as its file expects."""

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


FAST_BATTLE = {"battle-replay-direct"}
"""The battle example the SMT engine decides in the default run. The others go through a
Battle Phase, which takes the SMT engine 5 to 45 s each: its runs of them are slow tests
(`pytest -m slow tests/test_examples.py`); the fast differential test runs both engines on
generated battles."""


LONG_FOR_SMT = {
    "summon-windows",
    "continuous-negation-on-the-field",
    "missing-the-timing",
    "segoc-four-groups",
    "speed-modifiers",
    "starlight-road-would-destroy",
    "spell-speed-basics",
    "blowback-dragon-summon-chain",
    "call-of-the-haunted-mid-chain",
    "jinzo-lock",
    "resolve-presses",
    "priority-right-to-respond",
    "magic-jammer-discard-cost",
    "then-and-missing-the-timing",
    "god-hand-smash-cannot-be-negated",
    "chthonian-blast-event-condition",
    "solemn-judgment-two-modes",
    "effect-veiler-main-phase-only",
    "effect-veiler-leaves-and-returns",
    "split-second",
    "mogg-fanatic-combat-damage",
    "sorcery-speed",
    "triggers-apnap",
    "beginning-of-upkeep-trigger",
    "priority-caster-keeps",
    "one-object-at-a-time",
}
"""Examples the SMT engine takes 4 to 30 s each to decide (the explorer well under one):
their SMT runs are slow tests too, so the default run stays under five minutes; the
explorer still decides them in the default run, and the slow SMT snapshot pins both."""


def _long_for_smt(path: Path) -> bool:
    if path.stem in LONG_FOR_SMT:
        return True
    return path.stem.startswith("battle-") and path.stem not in FAST_BATTLE


def _runs() -> list[object]:
    runs: list[object] = []
    for path in SCENARIOS:
        name = f"{path.parent.name}/{path.stem}"
        runs.append(pytest.param(path, "explore", id=f"{name}-explore"))
        marks = [pytest.mark.slow] if _long_for_smt(path) else []
        runs.append(pytest.param(path, "smt", id=f"{name}-smt", marks=marks))
    return runs


@pytest.mark.parametrize(("path", "engine"), _runs())
def test_example_decides_as_expected(run: Callable[..., Run], path: Path, engine: str) -> None:
    result = run("check", "--json", "--engine", engine, str(path))
    claims = json.loads(result.out)["claims"]
    wrong = [
        (c["claim"], c["verdict"], c["expected"]) for c in claims if c["verdict"] != c["expected"]
    ]
    assert not wrong
    assert result.code == 0
