"""Names are data: no control or bidirectional character reaches a terminal or a report.

A scenario's strings are refused when they hold one (a double-quoted YAML string's escapes
make them even though the file's text has none), a claim on the command line likewise, and
a file's own name, which the user chose, is shown escaped everywhere it is printed or
written.
"""

from __future__ import annotations

import json
import shutil
import xml.dom.minidom
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run
from verifier.errors import InputError, Span, printable

RAIGEKI = EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"
CARD = "  {name}: {{kind: normal-spell, controller: A, zone: hand, effect: {{draw: 1}}}}\n"


def _scenario(name: str, text: str = "") -> str:
    extra = f"    text: {text}\n" if text else ""
    return f"rules: yugioh\nturn: A\ncards:\n{CARD.format(name=name)}{extra}"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        (r'"Pot\eof Greed"', "U+001B"),  # an escape sequence's start
        (r'"Pot\u202eof Greed"', "U+202E"),  # right-to-left override
        (r'"Pot\x07of Greed"', "U+0007"),  # a bell
        (r'"Pot\x9bof Greed"', "U+009B"),  # a C1 control sequence introducer
    ],
)
def test_a_control_character_in_a_name_is_refused_at_its_place(
    run: Callable[..., Run], write: Callable[[str, str], Path], name: str, code: str
) -> None:
    result = run("check", str(write("s.yaml", _scenario(name))))
    assert result.code == 2
    assert f"s.yaml:4:3: error: control character {code} is not allowed in a string" in result.err
    assert "\x1b" not in result.err and "\u202e" not in result.err


def test_a_line_break_is_refused_in_a_name_not_in_a_text(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("check", str(write("s.yaml", _scenario(r'"Pot\nof Greed"'))))
    assert result.code == 2
    assert "s.yaml:4:3: error: a line break is not allowed in a key" in result.err
    lines = _scenario("Pot of Greed").replace(
        "effect: {draw: 1}}", 'effect: {draw: 1}, text: "Draw 2\\ncards."}'
    )
    assert run("check", str(write("t.yaml", lines))).code == 0


def test_a_control_character_in_a_claim_on_the_command_line_is_refused(
    run: Callable[..., Run],
) -> None:
    result = run("ask", str(RAIGEKI), "can_respond(B) \x1b]0;title\x07")
    assert result.code == 2
    assert "<claim>:1:16: error: control character U+001B is not allowed in a claim" in result.err
    assert "can_respond(B) \\x1b]0;title\\x07" in result.err
    assert "\x1b" not in result.err + result.out and "\x07" not in result.err + result.out


def test_a_file_name_is_printed_and_written_escaped(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    named = tmp_path / "x\x1b]0;title\x07\u202e.yaml"
    shutil.copy(RAIGEKI.parent / "spell-speed-basics.yaml", named)
    for card_library in RAIGEKI.parent.glob("*.cards.yaml"):
        shutil.copy(card_library, tmp_path / card_library.name)
    junit, html = tmp_path / "run.xml", tmp_path / "run.html"
    result = run("check", "--quiet", "--junit", str(junit), "--html", str(html), str(named))
    assert result.code == 0, result.err
    shown = str(named).replace("\x1b", "\\x1b").replace("\x07", "\\x07")
    assert shown.replace("\u202e", "\\u202e") in result.out
    for text in (result.out, result.err, junit.read_text("utf-8"), html.read_text("utf-8")):
        assert not any(c in text for c in "\x1b\x07\u202e")
    xml.dom.minidom.parse(str(junit))  # well-formed XML 1.0
    listed = run("check", "--json", str(named))
    assert json.loads(listed.out)["claims"][0]["file"] == str(named)  # JSON escapes itself


def test_an_error_escapes_its_path_message_and_line_and_keeps_its_caret() -> None:
    error = InputError("bad \x1b[2J", Span("f\x1b.yaml", 1, 4, "a\x1bbc"))
    assert error.render() == (
        "f\\x1b.yaml:1:4: error: bad \\x1b[2J\n    a\\x1bbc\n" + " " * 10 + "^"
    )
    assert printable("tab\tand line\nbreak", keep="\n") == "tab\tand line\nbreak"
    assert printable("line\nbreak") == "line\\x0abreak"


@pytest.mark.full
@pytest.mark.parametrize(
    "command",
    [
        ["explain"],
        ["explore"],
        ["orders"],
        ["lint", "yugioh"],
        ["diff", "yugioh", "yugioh-trigger-first"],
        ["why", "{path}", "B activates Dark Bribe"],
    ],
)
def test_every_command_shows_a_hostile_file_name_escaped(
    run: Callable[..., Run], tmp_path: Path, command: list[str]
) -> None:
    named = tmp_path / "x\x1b]0;title\x07\u202e.yaml"
    shutil.copy(RAIGEKI.parent / "spell-speed-basics.yaml", named)
    args = [a.format(path=named) for a in command]
    if "{path}" not in command:
        args.append(str(named))
    result = run(*args)
    assert result.code in (0, 1, 2, 3), result.err
    assert not any(c in result.out + result.err for c in "\x1b\x07\u202e")
