"""--color/--no-color: colour only on a terminal by default, never with NO_COLOR set, and
the flags win over both."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import GOOD
from tests.test_exit_codes import WRONG
from verifier.cli import cli

ESC = "\x1b["


@pytest.fixture
def files(tmp_path: Path) -> list[str]:
    good = tmp_path / "good.yaml"
    good.write_text(GOOD, encoding="utf-8")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(WRONG, encoding="utf-8")
    return [str(good), str(wrong)]


def _out(args: list[str], terminal: bool, no_color: str | None = None) -> str:
    """The output of ``verifier ARGS``; ``terminal`` makes click treat it as a terminal."""
    runner = CliRunner(env={"NO_COLOR": no_color})
    result = runner.invoke(cli, args, color=terminal)
    assert result.exit_code in (0, 1, 3), result.output
    return result.output


def test_a_terminal_gets_colour_and_a_pipe_does_not(files: list[str]) -> None:
    coloured = _out(["check", *files], terminal=True)
    assert f"{ESC}32mok              {ESC}0m claim-1" in coloured  # green: as expected
    assert f"{ESC}31m{ESC}1mEXPECTED FAILS  {ESC}0m claim-1" in coloured  # red: not
    assert f"{ESC}31m{ESC}1m1 not{ESC}0m" in coloured.splitlines()[-1]
    assert ESC not in _out(["check", *files], terminal=False)


def test_no_color_is_respected_and_the_flags_win(files: list[str]) -> None:
    assert ESC not in _out(["check", *files], terminal=True, no_color="1")
    assert ESC not in _out(["check", "--no-color", *files], terminal=True)
    assert ESC in _out(["check", "--color", *files], terminal=True, no_color="1")
    ask = ["ask", "--color", "--engine", "explore", "--max-states", "1", files[0], "can_respond(B)"]
    assert f"{ESC}33mundecided       {ESC}0m ask" in _out(ask, terminal=True)  # yellow
    # An empty NO_COLOR does not count (no-color.org).
    assert ESC in _out(["check", *files], terminal=True, no_color="")


def test_json_is_never_coloured(files: list[str]) -> None:
    assert ESC not in _out(["check", "--json", "--color", *files], terminal=True)
