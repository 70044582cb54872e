"""The command line's answers on every bundled example, pinned.

A reshape of the package must not change a verdict, a trace, an order or an exit status:
this test runs the commands in-process on ``examples/`` and ``models/`` and compares what
they print (timings removed) with ``tests/snapshots/``. After a deliberate change of
behaviour, regenerate with ``UPDATE_SNAPSHOTS=1 pytest tests/test_snapshot.py`` and review
the difference like any other change.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES, MODELS, ROOT, Run

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
SCENARIOS = sorted(
    p.relative_to(ROOT).as_posix()
    for p in EXAMPLES.rglob("*.yaml")
    if not p.name.endswith((".cards.yaml", ".sweep.yaml"))
)
RULE_SYSTEMS = sorted(p.relative_to(ROOT).as_posix() for p in MODELS.glob("*.yaml"))
DIFFS = [
    ("cmc", "cmc-instant", "examples/cmc/shadehawk-clickwar.yaml"),
    ("yugioh", "yugioh-ignition-priority", "examples/yugioh/summon-windows.yaml"),
    ("yugioh", "yugioh-trigger-first", "examples/yugioh/sangan-monarch.yaml"),
    ("mtg", "mtg-damage-on-the-stack", "examples/mtg/mogg-fanatic-combat-damage.yaml"),
]
_TIME = re.compile(r"\b\d+(\.\d+)? ?(s|ms|seconds)\b")


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: _untimed(v)
            for k, v in value.items()
            if k != "seconds" and not k.endswith("_seconds")
        }
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def _plain(text: str) -> list[str]:
    """Lines without timings or the checkout's own folder."""
    return _TIME.sub("<time>", text.replace(str(ROOT), "<root>")).splitlines()


def _text(result: Run) -> dict[str, Any]:
    return {"code": result.code, "out": _plain(result.out), "err": _plain(result.err)}


def _compare(name: str, actual: Any) -> None:
    path = SNAPSHOTS / f"{name}.json"
    rendered = json.dumps(actual, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(rendered, encoding="utf-8")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert actual == expected, f"{name} differs from tests/snapshots/{name}.json"


@pytest.fixture
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("VERIFIER_MODELS", raising=False)


def _check(run: Callable[..., Run], engine: str) -> dict[str, Any]:
    result = run("check", "--json", "--engine", engine, "examples/")
    return {"code": result.code, "report": _untimed(json.loads(result.out))}


@pytest.mark.full
@pytest.mark.usefixtures("at_root")
def test_check_json_with_the_explorer(run: Callable[..., Run]) -> None:
    """Every example decides every claim as its file expects (the golden tests), and says
    so in the words pinned."""
    actual = _check(run, "explore")
    claims = actual["report"]["claims"]
    wrong = [
        (c["file"], c["id"], c["verdict"], c["expected"])
        for c in claims
        if c["verdict"] != c["expected"]
    ]
    assert wrong == [] and actual["report"]["errors"] == []
    assert {c["file"] for c in claims} == set(SCENARIOS)
    assert actual["code"] == 0
    _compare("check-explore", actual)


ACTION_KINDS = frozenset(
    {"activation", "pass", "resolution", "cleanup", "summon", "attack", "timer", "position"}
)
"""Trace steps that each stand for one action: how many there are is the witness's length,
whatever the actions' effects say (a coin toss that fails destroys nothing)."""


def _solver_free(report: dict[str, Any]) -> dict[str, Any]:
    """What the SMT engine decides, without what its solver chooses freely: the witness is
    any shortest continuation that shows the claim (a change to the encoding, such as a
    state with fewer fields, may pick another one of the same length, whose effects may be
    told in more or fewer lines), the number of queries its search for the shortest one
    took, and the bound at which its deepening found completeness."""
    claims = [
        {
            **{k: v for k, v in c.items() if k not in ("trace", "stats")},
            "trace_length": sum(step["kind"] in ACTION_KINDS for step in c["trace"]),
            "stats": {k: v for k, v in c["stats"].items() if k not in ("smt_queries", "bound")},
        }
        for c in report["report"]["claims"]
    ]
    return {"code": report["code"], "claims": claims, "errors": report["report"]["errors"]}


@pytest.mark.slow
@pytest.mark.usefixtures("at_root")
def test_check_json_with_the_smt_engine(run: Callable[..., Run]) -> None:
    actual = _check(run, "smt")
    if os.environ.get("UPDATE_SNAPSHOTS"):
        _compare("check-smt", actual)
    expected = json.loads((SNAPSHOTS / "check-smt.json").read_text(encoding="utf-8"))
    assert _solver_free(actual) == _solver_free(expected)


@pytest.mark.full
@pytest.mark.usefixtures("at_root")
def test_explain_and_orders(run: Callable[..., Run]) -> None:
    actual = {
        path: {"explain": _text(run("explain", path)), "orders": _text(run("orders", path))}
        for path in SCENARIOS
    }
    _compare("explain-orders", actual)


@pytest.mark.full
@pytest.mark.usefixtures("at_root")
def test_lint_diff_models_and_schemas(run: Callable[..., Run]) -> None:
    actual = {
        "lint": {path: _text(run("lint", path)) for path in RULE_SYSTEMS},
        "diff": {" ".join(d): _text(run("diff", *d)) for d in DIFFS},
        "models": _text(run("models")),
        "schema": {
            which: _text(run("schema", which)) for which in ("scenario", "model", "library")
        },
    }
    _compare("designer", actual)
