"""Shared fixtures: run the command line in-process and capture what it prints."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from verifier.cli import main
from verifier.io.scenario import parse_for

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
MODELS = ROOT / "models"

SCENARIOS = sorted(
    p for p in EXAMPLES.rglob("*.yaml") if not p.name.endswith((".cards.yaml", ".sweep.yaml"))
)
"""Every scenario of ``examples/``."""

SAMPLED_SCENARIOS = 4
"""A walk over every example's states (the screen, the recall, the records) takes the
default run every fourth scenario and the first of each game; the ``full`` tier takes the
rest (CI runs both)."""


def sampled_scenarios() -> list[object]:
    """:data:`SCENARIOS` as parameters, the ones outside the default run's sample marked
    ``full``."""
    games: set[str] = set()
    params: list[object] = []
    for index, path in enumerate(SCENARIOS):
        first = path.parent.name not in games
        games.add(path.parent.name)
        marks = [] if first or index % SAMPLED_SCENARIOS == 0 else [pytest.mark.full]
        name = f"{path.parent.name}/{path.name}"
        params.append(pytest.param(path, id=name, marks=marks))
    return params


GOOD = """\
rules: yugioh
turn: A
cards:
  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters, of: opponent}}
  Mirror Force: {kind: normal-trap, controller: B, set: earlier-turn}
  Blue-Eyes White Dragon: {kind: normal-monster, controller: B, atk: 3000}
history:
  - A activates Raigeki
claims:
  - claim: can_respond(B)
    expect: holds
"""
"""A small scenario that loads and checks; error tests break one thing in it."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test written for both engines runs under the explorer in the default run and under
    the SMT engine in the ``full`` tier (``pytest -m full``; CI runs both tiers): the SMT
    engine takes seconds for a scenario the explorer decides in milliseconds, and the
    default run compares the engines on random scenarios of every game instead
    (tests/test_differential.py)."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        smt = callspec is not None and callspec.params.get("engine") == "smt"
        if smt and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.full)


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def bad_input(run: Callable[..., Run], path: Path) -> list[str]:
    """The lines ``check`` writes for ``path``, which must be bad input (status 2, no
    traceback)."""
    result = run("check", str(path))
    assert result.code == 2, result
    assert "Traceback" not in result.err
    return result.err.splitlines()


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run ``verifier ARGS...`` and return its exit status and output."""

    def invoke(*args: str) -> Run:
        capsys.readouterr()
        with pytest.raises(SystemExit) as exited:
            main(list(args))
        captured = capsys.readouterr()
        code = exited.value.code
        return Run(code if isinstance(code, int) else 0, captured.out, captured.err)

    return invoke


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write a file under the test's temporary folder and return its path."""

    def make(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return make


MTG_LIBRARY = "mtg.cards.yaml"
"""The Magic examples' card library, as a scenario beside a copy of it names it."""


@pytest.fixture
def mtg_library(tmp_path: Path) -> str:
    """A copy of the Magic examples' card library beside the test's scenarios; its name."""
    shutil.copy(EXAMPLES / "mtg" / MTG_LIBRARY, tmp_path / MTG_LIBRARY)
    return MTG_LIBRARY


@pytest.fixture
def decide(tmp_path: Path) -> Callable[..., str]:
    """``decide(scenario_yaml, claim, engine="explore")``: the verdict, as a string."""
    from verifier.io.scenario import load_scenario
    from verifier.run.check import check, prepare

    counter = iter(range(1_000_000))

    def verdict(text: str, claim: str, engine: str = "explore") -> str:
        path = tmp_path / f"scenario-{next(counter)}.yaml"
        path.write_text(text, encoding="utf-8")
        scenario = load_scenario(path)
        prepared = prepare(scenario)
        [result] = check(prepared, [("t", claim, parse_for(scenario, claim), None)], engine)
        return result.verdict.value

    return verdict
