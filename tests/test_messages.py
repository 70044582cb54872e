"""Messages a newcomer meets first: each says where and what, and what was probably meant."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import Run, bad_input


def test_an_unknown_rule_system_suggests_the_close_one(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", "rules: yugio\nturn: A\ncards: {}\n")
    first, line, caret = bad_input(run, path)[:3]
    assert first.startswith(f"{path}:1:8: error: unknown rule system 'yugio' (known: ")
    assert first.endswith("; did you mean 'yugioh'?")
    assert line == "    rules: yugio" and caret == "           ^"


def test_a_missing_library_says_where_it_looked(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", "rules: yugioh\nlibrary: nothere.cards.yaml\nturn: A\ncards: {}\n")
    first = bad_input(run, path)[0]
    looked = path.parent / "nothere.cards.yaml"
    assert first == (
        f"{path}:2:10: error: no card library 'nothere.cards.yaml' (looked for {looked})"
    )


def test_a_yaml_error_at_the_end_of_the_file_points_at_its_last_line(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    # A list left open: the parser notices at the end of the stream, past the last line.
    path = write("s.yaml", "rules: yugioh\nturn: A\ncards: {a: [\n")
    first, line, caret = bad_input(run, path)[:3]
    assert first.startswith(f"{path}:3:13: error: YAML syntax: ")
    assert line == "    cards: {a: ["
    assert caret == " " * 16 + "^"


def test_why_says_a_card_is_on_the_chain(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write(
        "s.yaml",
        "rules: yugioh\nturn: A\ncards:\n"
        "  Jar: {kind: quick-play-spell, controller: A, zone: hand, effect: {draw: 1}}\n"
        "  Trap: {kind: normal-trap, controller: B, set: earlier-turn, effect: {draw: 1}}\n"
        "history:\n  - A activates Jar\n",
    )
    result = run("why", str(path), "A activates Jar")
    assert result.code == 0, result
    assert "Jar is on the chain (Chain Link 1)" in result.out
    assert "on the field" not in result.out
