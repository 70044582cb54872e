"""``check --itf DIR``: each witness and counterexample as an ITF trace (Apalache's Informal
Trace Format), read back with itf-py and compared with the states the transition system
really passes through."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import itf_py
import pytest

from tests.conftest import EXAMPLES, GOOD, Run
from verifier.core.state import Mode
from verifier.io.scenario import load_scenario
from verifier.report.itf import ACTION_TAKEN, FORMAT_DESCRIPTION, file_name
from verifier.run.check import check_scenario
from verifier.spec.cards import Zone

TWO_CLAIMS = GOOD + (
    '  - claim: always zone("Mirror Force") == field\n'  # fails: B may activate it
    "    id: stays-set\n"
    "    expect: fails\n"
)
"""A witness (B can respond) and a counterexample (Mirror Force does not always stay)."""


def _bigints(value: Any) -> bool:
    """Whether every integer inside an ITF value is encoded as ``#bigint``."""
    if isinstance(value, bool | str):
        return True
    if isinstance(value, int | float):
        return False
    if isinstance(value, list):
        return all(_bigints(v) for v in value)
    assert isinstance(value, dict)
    if "#bigint" in value:
        return isinstance(value["#bigint"], str) and value["#bigint"].lstrip("-").isdigit()
    if "#map" in value:
        return all(_bigints(k) and _bigints(v) for k, v in value["#map"])
    return all(_bigints(v) for v in value.values())


def _check_shape(data: dict[str, Any]) -> None:
    """The ITF shape (ADR-015): #meta with the format, vars, states indexed in order, each
    state holding exactly the vars, every integer a #bigint."""
    assert data["#meta"]["format"] == "ITF"
    assert data["#meta"]["format-description"] == FORMAT_DESCRIPTION
    assert data["vars"][-1] == ACTION_TAKEN
    assert len(set(data["vars"])) == len(data["vars"])
    assert data["states"], "a trace has states"
    for index, state in enumerate(data["states"]):
        assert state["#meta"]["index"] == index
        assert set(state) - {"#meta"} == set(data["vars"])
        assert all(_bigints(state[v]) for v in data["vars"])
    assert data["states"][0][ACTION_TAKEN] == "init"


def test_witness_and_counterexample_are_itf_traces_of_the_real_states(
    run: Callable[..., Run], write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    scenario_path = write("mirror.yaml", TWO_CLAIMS)
    out = tmp_path / "traces" / "new"  # created, parents included
    result = run("check", "--itf", str(out), str(scenario_path))
    assert result.code == 0, result.out + result.err
    assert sorted(p.name for p in out.iterdir()) == [
        "mirror.claim-1.itf.json",
        "mirror.stays-set.itf.json",
    ]
    assert f"wrote 2 ITF trace(s) to {out}" in result.err

    results, _ = check_scenario(load_scenario(scenario_path))
    for r in results:
        data = json.loads((out / f"mirror.{r.id}.itf.json").read_text(encoding="utf-8"))
        _check_shape(data)
        meta = data["#meta"]
        assert (meta["id"], meta["claim"], meta["verdict"], meta["role"]) == (
            r.id,
            r.claim,
            r.verdict.value,
            r.role,
        )
        assert meta["source"] == str(scenario_path)
        assert meta["legend"]["cards"] == ["Raigeki", "Mirror Force", "Blue-Eyes White Dragon"]
        assert meta["legend"]["zone"]["3"] == "graveyard"
        # itf-py, the ecosystem's Python reader, reads it; its states are the real ones.
        trace = itf_py.trace_from_json(data)
        assert r.run is not None
        real = r.run.steps()
        layout = r.run.system.layout
        assert len(trace.states) == len(real) == len(r.run.actions) + 1
        for state, step in zip(trace.states, real, strict=True):
            frame = layout.frame(step.state)
            assert state.values[ACTION_TAKEN] == step.action
            assert state.meta["history"] is step.history
            assert list(state.values["zone"].values()) == list(frame.zone)
            assert list(state.values["zone"]) == [
                "Raigeki",
                "Mirror Force",
                "Blue-Eyes White Dragon",
            ]
            assert state.values["mode"] == frame.mode
            assert state.values["clen"] == frame.clen
            assert list(state.values["lab"]) == list(frame.lab)
            assert dict(state.values["lp"]) == {"A": frame.lp[0], "B": frame.lp[1]}
        told = [t["text"] for state in data["states"] for t in state["#meta"]["narrative"]]
        assert told == [step.text for step in r.trace]  # the narrative, state by state
        last = trace.states[-1].values
        assert last["mode"] == Mode.DONE
        assert last["zone"]["Mirror Force"] == Zone.GRAVEYARD  # B activated it
        actions = [s.values[ACTION_TAKEN] for s in trace.states]
        assert actions[1] == "A activates Raigeki"
        assert "B activates Mirror Force" in actions


def test_itf_files_are_not_overwritten_without_force(
    run: Callable[..., Run], write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    scenario_path = write("mirror.yaml", GOOD)
    out = tmp_path / "traces"
    assert run("check", "--itf", str(out), str(scenario_path)).code == 0
    target = out / "mirror.claim-1.itf.json"
    target.write_text("mine", encoding="utf-8")
    again = run("check", "--itf", str(out), str(scenario_path))
    assert again.code == 2
    assert f"error: '{target}' exists; use --force to overwrite" in again.err
    assert "1 claim(s) in 1 file(s): 1 as expected" in again.out  # the report still printed
    assert target.read_text(encoding="utf-8") == "mine"
    forced = run("check", "--itf", str(out), "--force", str(scenario_path))
    assert forced.code == 0
    assert json.loads(target.read_text(encoding="utf-8"))["#meta"]["format"] == "ITF"


def test_itf_into_a_symlink_or_a_file_is_refused_before_checking(
    run: Callable[..., Run], write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    scenario_path = write("mirror.yaml", GOOD)
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    result = run("check", "--itf", str(link), str(scenario_path))
    assert result.code == 2
    assert "symbolic link" in result.err
    assert result.out == ""  # nothing was checked
    assert list(real.iterdir()) == []
    plain = write("plain.txt", "x")
    onto_file = run("check", "--itf", str(plain), str(scenario_path))
    assert onto_file.code == 2
    assert "is not a folder" in onto_file.err or "exists and is not a folder" in onto_file.err


def test_holding_claims_without_a_trace_write_no_file(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    out = tmp_path / "traces"
    path = EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"
    result = run("check", "--itf", str(out), str(path))
    assert result.code == 0
    assert list(out.iterdir()) == []  # every claim holds (or fails) over all continuations
    assert "wrote 0 ITF trace(s)" in result.err


def test_file_names_stay_distinct_and_safe() -> None:
    taken: set[str] = set()
    assert file_name("a/yugioh/x.yaml", "claim-1", "", taken) == "x.claim-1.itf.json"
    assert file_name("a/cmc/x.yaml", "claim-1", "", taken) == "cmc-x.claim-1.itf.json"
    assert file_name("b/cmc/x.yaml", "claim-1", "", taken) == "x-2.claim-1.itf.json"
    assert file_name("x.yaml", "../../etc/passwd", "smt", taken) == "x.etc-passwd.smt.itf.json"
    assert all("/" not in name for name in taken)


def _examples(few: bool = False) -> list[str]:
    """Every example, or a few with witnesses in both games."""
    paths = sorted(str(p) for p in EXAMPLES.rglob("*.yaml") if not p.name.endswith(".cards.yaml"))
    return [p for p in paths if "segoc" in p or "clickwar" in p] if few else paths


def _itf_for(run: Callable[..., Run], paths: list[str], out: Path) -> None:
    result = run("check", "--json", "--itf", str(out), *paths)
    assert result.code == 0, result.err
    claims = json.loads(result.out)["claims"]
    traced = [c for c in claims if c.get("role") in {"witness", "counterexample"}]
    files = sorted(out.iterdir())
    assert len(files) == len(traced) > 0
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        _check_shape(data)
        assert itf_py.trace_from_json(data).states[-1].values[ACTION_TAKEN] != "init"


def test_itf_of_some_examples(run: Callable[..., Run], tmp_path: Path) -> None:
    _itf_for(run, _examples(few=True), tmp_path / "itf")


@pytest.mark.slow
def test_itf_of_every_example(run: Callable[..., Run], tmp_path: Path) -> None:
    _itf_for(run, _examples(), tmp_path / "itf")


def test_an_unwritable_trace_is_an_error_in_json_too(
    run: Callable[..., Run], write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    scenario_path = write("mirror.yaml", GOOD)
    out = tmp_path / "traces"
    out.mkdir()
    (out / "mirror.claim-1.itf.json").write_text("mine", encoding="utf-8")
    result = run("check", "--json", "--itf", str(out), str(scenario_path))
    assert result.code == 2
    data = json.loads(result.out)
    assert [c["verdict"] for c in data["claims"]] == ["holds"]
    assert data["errors"] == [
        {
            "file": str(out),
            "line": None,
            "col": None,
            "message": f"'{out / 'mirror.claim-1.itf.json'}' exists; use --force to overwrite",
            "kind": "input",
        }
    ]


def test_engines_that_disagree_each_get_their_trace(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from verifier.engines.base import Search
    from verifier.engines.explore import ExplorerEngine

    def search(self: ExplorerEngine, body: object, want: bool) -> Search:
        return Search(None, True, "", {})  # a wrong explorer: nothing is ever possible

    monkeypatch.setattr(ExplorerEngine, "search", search)
    out = tmp_path / "traces"
    result = run("check", "--engine", "both", "--itf", str(out), str(write("s.yaml", GOOD)))
    assert result.code == 1
    # The explorer's "fails" has no trace; the SMT engine's witness is written under its name.
    assert [p.name for p in out.iterdir()] == ["s.claim-1.smt.itf.json"]
    data = json.loads((out / "s.claim-1.smt.itf.json").read_text(encoding="utf-8"))
    _check_shape(data)
    assert (data["#meta"]["engine"], data["#meta"]["role"]) == ("smt", "witness")
