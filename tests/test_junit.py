"""``check --junit FILE``: one test case per claim, read back by parsing the XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, GOOD, Run
from tests.test_exit_codes import BAD, WRONG, _pool
from verifier.engines.base import Search
from verifier.engines.explore import ExplorerEngine


def _cases(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    return {(c.get("classname", ""), c.get("name", "")): c for c in root.iter("testcase")}


def test_one_case_per_claim_with_failures_errors_and_unknowns(
    run: Callable[..., Run], write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    good = write("good.yaml", GOOD)
    wrong = write("wrong.yaml", WRONG)
    bad = write("bad.yaml", BAD)
    unknown = write("pool.yaml", _pool(4, expect="holds"))
    report = tmp_path / "results.xml"
    result = run(
        "check",
        "--engine",
        "explore",
        "--max-states",
        "20",
        "--junit",
        str(report),
        str(good),
        str(wrong),
        str(bad),
        str(unknown),
    )
    assert result.code == 2  # bad input outranks the rest
    assert f"wrote {report}" in result.err
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    assert {k: root.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "4",
        "failures": "1",
        "errors": "1",
        "skipped": "1",
    }
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert list(suites) == [str(good), str(wrong), str(bad), str(unknown)]
    assert suites[str(wrong)].get("failures") == "1"
    cases = _cases(root)
    passed = cases[str(good), "claim-1: can_respond(B)"]
    assert list(passed) == []  # no failure, error or skipped: it passes
    assert float(passed.get("time", "-1")) >= 0
    failure = cases[str(wrong), "claim-1: can_respond(B)"].find("failure")
    assert failure is not None
    assert failure.get("message") == "expected fails, holds"
    assert "holds    EXPECTED FAILS   claim-1: can_respond(B)" in (failure.text or "")
    assert "B activates Mirror Force" in (failure.text or "")  # the witness
    error = cases[str(bad), "(load)"].find("error")
    assert error is not None
    assert error.get("type") == "input"
    assert (error.text or "").startswith(f"{bad}:11:13: unknown value 'yes' for 'expect'")
    skipped = cases[str(unknown), "claim-1: chain_length <= 4"].find("skipped")
    assert skipped is not None
    assert (skipped.get("message") or "").startswith("unknown: ")


def test_an_internal_error_is_an_error_case(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def search(self: ExplorerEngine, body: object, want: bool) -> Search:
        raise RuntimeError("boom")

    monkeypatch.setattr(ExplorerEngine, "search", search)
    report = tmp_path / "results.xml"
    broken = write("broken.yaml", GOOD)
    assert run("check", "--junit", str(report), str(broken)).code == 4
    [case] = ET.parse(report).getroot().iter("testcase")
    error = case.find("error")
    assert error is not None
    assert error.get("type") == "internal"
    assert error.get("message") == "internal error: RuntimeError: boom"


def test_an_existing_report_is_refused_before_checking(
    run: Callable[..., Run], write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    good = write("good.yaml", GOOD)
    report = write("results.xml", "mine")
    result = run("check", "--junit", str(report), str(good))
    assert result.code == 2
    assert result.out == ""
    assert result.err == f"error: '{report}' exists; use --force to overwrite\n"
    assert report.read_text(encoding="utf-8") == "mine"
    in_json = run("check", "--json", "--junit", str(report), str(good))
    assert in_json.code == 2
    assert json.loads(in_json.out) == {
        "claims": [],
        "errors": [
            {
                "file": str(report),
                "line": None,
                "col": None,
                "message": f"'{report}' exists; use --force to overwrite",
                "kind": "input",
            }
        ],
    }
    assert run("check", "--junit", str(report), "--force", str(good)).code == 0
    assert ET.parse(report).getroot().get("tests") == "1"
    link = tmp_path / "link.xml"
    link.symlink_to(tmp_path / "elsewhere.xml")
    refused = run("check", "--junit", str(link), "--force", str(good))
    assert refused.code == 2
    assert "symbolic link" in refused.err
    assert not (tmp_path / "elsewhere.xml").exists()


def test_junit_of_examples_has_a_passing_case_per_claim(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    paths = [
        str(EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"),
        str(EXAMPLES / "cmc" / "counterspell.yaml"),
    ]
    report = tmp_path / "results.xml"
    result = run("check", "--json", "--junit", str(report), *paths)
    assert result.code == 0
    claims = json.loads(result.out)["claims"]
    root = ET.parse(report).getroot()
    cases = list(root.iter("testcase"))
    assert [(c.get("classname"), c.get("name")) for c in cases] == [
        (c["file"], f"{c['id']}: {c['claim']}") for c in claims
    ]
    assert root.get("failures") == root.get("errors") == root.get("skipped") == "0"
