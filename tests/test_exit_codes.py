"""Exit statuses as documented, their precedence, and summaries that count every file.

0 all as expected; 1 a decided verdict differs (or the engines disagree); 2 bad input;
3 a verdict unknown; 4 an internal error. Several at once: 4 > 2 > 1 > 3 > 0.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import GOOD, Run
from verifier.engines.base import Search
from verifier.engines.explore import ExplorerEngine
from verifier.errors import InternalError, VerifierError

WRONG = GOOD.replace("expect: holds", "expect: fails")
BAD = GOOD.replace("expect: holds", "expect: yes")


def _pool(size: int, expect: str = "") -> str:
    cards = "".join(
        f"  Trap {i}: {{kind: normal-trap, controller: {'AB'[i % 2]}, "
        f"set: earlier-turn, effect: {{draw: 1}}}}\n"
        for i in range(size)
    )
    tail = f"\n    expect: {expect}" if expect else ""
    return (
        f"rules: yugioh\nturn: A\ncards:\n{cards}claims:\n  - claim: chain_length <= {size}{tail}\n"
    )


@pytest.fixture
def broken_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The explorer raises on any scenario whose file is named broken*.yaml."""
    honest = ExplorerEngine.search

    def search(self: ExplorerEngine, body: object, want: bool) -> Search:
        if Path(self.system.scenario.path).name.startswith("broken"):
            raise RuntimeError("boom")
        return honest(self, body, want)  # type: ignore[arg-type]

    monkeypatch.setattr(ExplorerEngine, "search", search)


def test_internal_error_is_not_bad_input() -> None:
    assert not issubclass(InternalError, VerifierError)


@pytest.mark.usefixtures("broken_engine")
def test_an_internal_error_exits_4_and_other_files_are_still_reported(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    good = write("good.yaml", GOOD)
    broken = write("broken.yaml", GOOD)
    result = run("check", str(broken), str(good))
    assert result.code == 4
    assert f"{good} (yugioh)" in result.out
    assert "holds    ok               claim-1: can_respond(B)" in result.out
    assert result.err.splitlines()[:2] == [
        f"internal error: RuntimeError: boom (while checking {broken})",
        "run with --debug to see the traceback",
    ]
    assert "Traceback" not in result.err
    assert result.out.splitlines()[-1] == (
        "1 claim(s) in 2 file(s): 1 as expected, 1 file(s) met an internal error"
    )


@pytest.mark.usefixtures("broken_engine")
def test_an_internal_error_in_json_keeps_the_other_results(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    good = write("good.yaml", GOOD)
    broken = write("broken.yaml", GOOD)
    result = run("check", "--json", str(good), str(broken))
    assert result.code == 4
    data = json.loads(result.out)
    assert [(c["file"], c["verdict"]) for c in data["claims"]] == [(str(good), "holds")]
    assert data["errors"] == [
        {
            "file": str(broken),
            "line": None,
            "col": None,
            "message": "internal error: RuntimeError: boom",
            "kind": "internal",
        }
    ]


@pytest.mark.usefixtures("broken_engine")
def test_debug_shows_the_traceback_of_an_internal_error(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("--debug", "check", str(write("broken.yaml", GOOD)))
    assert result.code == 4
    assert "Traceback (most recent call last)" in result.err
    assert "RuntimeError: boom" in result.err


def test_an_internal_error_class_exits_4(
    run: Callable[..., Run], write: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def search(self: ExplorerEngine, body: object, want: bool) -> Search:
        raise InternalError("the engine lost its way")

    monkeypatch.setattr(ExplorerEngine, "search", search)
    path = write("s.yaml", GOOD)
    result = run("check", str(path))
    assert result.code == 4
    assert result.err.startswith("internal error: InternalError: the engine lost its way")
    asked = run("ask", str(path), "can_respond(B)")
    assert asked.code == 4
    assert asked.err.startswith("internal error: InternalError: the engine lost its way")


def test_unknown_with_an_expectation_is_3_and_shown_undecided(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("pool.yaml", _pool(4, expect="holds"))
    result = run("check", "--engine", "explore", "--max-states", "20", str(path))
    assert result.code == 3
    assert "unknown  undecided        claim-1: chain_length <= 4" in result.out
    assert "EXPECTED" not in result.out
    assert result.out.splitlines()[-1] == "1 claim(s) in 1 file(s): 0 as expected, 1 unknown"


def test_a_differing_verdict_outranks_an_unknown_one(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    unknown = write("pool.yaml", _pool(4, expect="holds"))
    wrong = write("wrong.yaml", WRONG)
    result = run("check", "--engine", "explore", "--max-states", "20", str(unknown), str(wrong))
    assert result.code == 1
    assert result.out.splitlines()[-1] == (
        "2 claim(s) in 2 file(s): 0 as expected, 1 not, 1 unknown"
    )


def test_bad_input_outranks_a_differing_verdict(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("check", str(write("wrong.yaml", WRONG)), str(write("bad.yaml", BAD)))
    assert result.code == 2
    assert "holds    EXPECTED FAILS   claim-1: can_respond(B)" in result.out
    assert result.out.splitlines()[-1] == (
        "1 claim(s) in 2 file(s): 0 as expected, 1 not, 1 file(s) failed to load"
    )


@pytest.mark.usefixtures("broken_engine")
def test_an_internal_error_outranks_bad_input(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("check", str(write("bad.yaml", BAD)), str(write("broken.yaml", GOOD)))
    assert result.code == 4


def test_a_single_bad_file_is_counted_in_the_summary(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("check", str(write("bad.yaml", BAD)))
    assert result.code == 2
    assert result.out.splitlines()[-1] == (
        "0 claim(s) in 1 file(s): 0 as expected, 1 file(s) failed to load"
    )


def test_a_folder_summary_counts_the_files_that_failed_to_load(
    run: Callable[..., Run], write: Callable[[str, str], Path], tmp_path: Path
) -> None:
    write("dir/a.yaml", GOOD)
    write("dir/b.yaml", BAD)
    write("dir/sub/c.yaml", GOOD)
    result = run("check", str(tmp_path / "dir"))
    assert result.code == 2
    assert result.out.splitlines()[-1] == (
        "2 claim(s) in 3 file(s): 2 as expected, 1 file(s) failed to load"
    )


def test_json_lists_input_errors_with_their_place(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    good = write("good.yaml", GOOD)
    bad = write("bad.yaml", BAD)
    result = run("check", "--json", str(good), str(bad))
    assert result.code == 2
    data = json.loads(result.out)
    assert set(data) == {"claims", "errors"}
    assert len(data["claims"]) == 1
    [error] = data["errors"]
    assert error["file"] == str(bad)
    assert (error["line"], error["col"]) == (11, 13)
    assert error["message"].startswith("unknown value 'yes' for 'expect'")
    assert error["kind"] == "input"


def test_all_as_expected_is_0_and_json_has_no_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("check", "--json", str(write("good.yaml", GOOD)))
    assert result.code == 0
    assert json.loads(result.out)["errors"] == []


def test_an_empty_folder_is_bad_input_in_json_too(run: Callable[..., Run], tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    text = run("check", str(folder))
    assert text.code == 2
    assert text.err == f"error: no scenario files in {folder}\n"
    result = run("check", "--json", str(folder))
    assert result.code == 2
    assert json.loads(result.out) == {
        "claims": [],
        "errors": [
            {
                "file": str(folder),
                "line": None,
                "col": None,
                "message": f"no scenario files in {folder}",
                "kind": "input",
            }
        ],
    }


@pytest.mark.full
def test_lint_of_a_missing_scenario_is_bad_input(run: Callable[..., Run], tmp_path: Path) -> None:
    missing = tmp_path / "nothing.yaml"
    result = run("lint", "yugioh", str(missing))
    assert result.code == 2
    assert result.err == f"{missing}:1:1: error: no such file: {missing}\n"


def test_ask_exit_statuses(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    """ask: 0 for a decided verdict (it has no expectation), 3 for unknown, 2 for bad input."""
    path = str(write("s.yaml", GOOD))
    assert run("ask", path, "can_respond(B)").code == 0
    assert run("ask", path, 'always zone("Mirror Force") == field').code == 0  # fails: decided
    pool = str(write("pool.yaml", _pool(4)))
    unknown = run("ask", "--engine", "explore", "--max-states", "20", pool, "chain_length <= 4")
    assert unknown.code == 3
    assert "unknown  undecided        ask: chain_length <= 4" in unknown.out
    bad = run("ask", path, 'resolves("Nope")')
    assert bad.code == 2
    assert bad.err.startswith("<claim>:1:10: error: unknown card 'Nope'")


def test_ask_json_reports_input_errors_in_its_object(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", GOOD)
    result = run("ask", "--json", str(path), 'resolves("Nope")')
    assert result.code == 2
    assert result.err.startswith("<claim>:1:10: error: unknown card 'Nope'")
    data = json.loads(result.out)
    assert data["claims"] == []
    [error] = data["errors"]
    assert (error["file"], error["line"], error["col"], error["kind"]) == (
        "<claim>",
        1,
        10,
        "input",
    )
    assert error["message"].startswith("unknown card 'Nope'")
    bad = run("ask", "--json", str(write("bad.yaml", BAD)), "can_respond(B)")
    assert bad.code == 2
    assert json.loads(bad.out)["errors"][0]["line"] == 11


def test_engines_that_disagree_exit_1(
    run: Callable[..., Run], write: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    def search(self: ExplorerEngine, body: object, want: bool) -> Search:
        return Search(None, True, "", {})  # a wrong explorer: nothing is ever possible

    monkeypatch.setattr(ExplorerEngine, "search", search)
    result = run("check", "--engine", "both", str(write("s.yaml", GOOD)))
    assert result.code == 1
    assert "DISAGREE" in result.out
    assert "the engines disagree: explore says fails, smt says holds" in result.out


@pytest.mark.parametrize("undecided", ["explore", "smt"])
def test_an_undecided_engine_is_no_disagreement(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    monkeypatch: pytest.MonkeyPatch,
    undecided: str,
) -> None:
    # One engine stops at a limit: the other one's verdict stands, and the report says that
    # the first is undecided (exit 0 as expected, never 1 for a disagreement).
    from verifier.engines.smt.engine import SmtEngine

    engine = ExplorerEngine if undecided == "explore" else SmtEngine

    def search(self: object, body: object, want: bool) -> Search:
        return Search(None, False, "a limit was reached", {})

    monkeypatch.setattr(engine, "search", search)
    result = run("check", "--engine", "both", "--json", str(write("s.yaml", GOOD)))
    assert result.code == 0, result.out
    claims = json.loads(result.out)["claims"]
    assert all(c["verdict"] in ("holds", "fails") for c in claims)
    assert all(f"{undecided} is undecided: a limit was reached" in c["detail"] for c in claims)


def test_explain_exit_statuses(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    """explain: 0 once it has said whether other continuations end differently; 3 when a limit
    stopped that search before it found one; 2 for bad input."""
    path = str(write("s.yaml", GOOD))
    assert run("explain", path).code == 0
    stopped = run("explain", "--max-states", "1", path)
    assert stopped.code == 3
    assert "none found before the search stopped (the state limit was reached" in stopped.out
    assert run("explain", str(write("bad.yaml", BAD))).code == 2


@pytest.mark.parametrize(("text", "status"), [(GOOD, 0), (WRONG, 1), (BAD, 2)])
def test_the_program_ends_with_its_status_and_all_its_output(
    write: Callable[[str, str], Path], text: str, status: int
) -> None:
    # Run as the program, it ends without the interpreter's teardown: what it printed is
    # flushed first, on both streams, and the status is the one documented.
    path = write("case.yaml", text)
    done = subprocess.run(
        [sys.executable, "-m", "verifier", "check", "--json", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == status
    report = json.loads(done.stdout)
    assert len(report["claims"]) == (0 if status == 2 else 1)
    assert bool(report["errors"]) is (status == 2)
