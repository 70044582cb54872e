"""Input bounds: each input that once crashed the verifier is refused with one located error.

YAML files: tags, long numbers, deep nesting, alias bombs, control characters, non-UTF-8
bytes and oversized files. Claims: over-long claims and numbers, too many atoms, too deep
a nesting. Each is exit status 2, the exact message, and quick.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import GOOD, Run
from verifier.io.source import MAX_BYTES, MAX_NODES, parse_document


def first_error(run: Callable[..., Run], path: Path, seconds: float = 5) -> str:
    start = time.perf_counter()
    result = run("check", "--max-states", "2000", "--timeout", "2", str(path))
    assert time.perf_counter() - start < seconds
    assert result.code == 2, result
    assert "Traceback" not in result.err
    assert "internal error" not in result.err
    return result.err.splitlines()[0].replace(str(path), "s.yaml")


@pytest.mark.parametrize(
    ("value", "column", "shown"),
    [
        ("!!bool 1", 8, "!!bool"),
        ("!!int x", 8, "!!int"),
        ("!!int 0x", 8, "!!int"),
        ("!!float x", 8, "!!float"),
        ("!!set x", 8, "!!set"),
        ("!!str A", 8, "!!str"),
        ("!custom A", 8, "!custom"),
        ("! A", 8, "!"),
    ],
)
def test_tags_are_refused(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    value: str,
    column: int,
    shown: str,
) -> None:
    path = write("s.yaml", GOOD.replace("turn: A", f"turn:  {value}"))
    assert first_error(run, path) == (
        f"s.yaml:2:{column}: error: tags are not allowed (found '{shown}'); write plain values"
    )


def test_a_tag_on_a_mapping_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", GOOD.replace("cards:\n", "cards: !!omap\n"))
    assert first_error(run, path) == (
        "s.yaml:3:8: error: tags are not allowed (found '!!omap'); write plain values"
    )


@pytest.mark.parametrize(
    "number",
    ["9" * 4301, "1" * 19, "-" + "1" * 19, "0x" + "f" * 19, "1" * 19 + ".5", "1e400"],
    ids=["4301-digits", "19-digits", "negative", "hex", "float", "float-overflow"],
)
def test_long_numbers_are_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path], number: str
) -> None:
    path = write(
        "s.yaml", GOOD.replace("set: earlier-turn}", f"set: earlier-turn, atk: {number}}}")
    )
    assert first_error(run, path) == "s.yaml:5:76: error: number too large (at most 18 digits)"


def test_eighteen_digits_are_still_a_number() -> None:
    doc = parse_document("atk: -999999999999999999\n", "s.yaml")
    assert doc.data == {"atk": -999_999_999_999_999_999}


@pytest.mark.parametrize("levels", [65, 246, 5000])
def test_deep_nesting_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path], levels: int
) -> None:
    # The scenario's mapping is level 1: the 64th bracket opens level 65.
    path = write("s.yaml", GOOD + "limits: " + "[" * levels + "]" * levels + "\n")
    assert first_error(run, path) == "s.yaml:12:72: error: nesting too deep (at most 64 levels)"


def test_deep_block_nesting_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = "".join(" " * depth + f"k{depth}:\n" for depth in range(300))
    path = write("s.yaml", text)
    assert first_error(run, path) == "s.yaml:65:65: error: nesting too deep (at most 64 levels)"


def test_nesting_through_an_alias_counts_what_it_stands_for(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    deep = "[" * 40 + "]" * 40
    path = write(
        "s.yaml", f"a: &x {deep}\nb: [[[[[[[[[[[[[[[[[[[[[[[[[*x]]]]]]]]]]]]]]]]]]]]]]]]]\n"
    )
    assert first_error(run, path) == "s.yaml:2:29: error: nesting too deep (at most 64 levels)"


def billion_laughs(levels: int) -> str:
    lines = ['a0: &a0 "lol"']
    for level in range(1, levels + 1):
        refs = ", ".join([f"*a{level - 1}"] * 10)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [4, 9, 20])
def test_alias_bombs_are_refused_quickly(
    run: Callable[..., Run], write: Callable[[str, str], Path], levels: int
) -> None:
    text = billion_laughs(levels)
    path = write("s.yaml", text)
    tracemalloc.start()
    try:
        line = first_error(run, path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50 * 1024 * 1024
    assert line == "s.yaml:5:45: error: aliases expand to too many nodes (at most 10000 in a file)"


def test_a_few_aliases_are_plain_data() -> None:
    doc = parse_document("a: &x {kind: spell}\nb: *x\nc: [*x, *x]\n", "s.yaml")
    assert doc.data == {
        "a": {"kind": "spell"},
        "b": {"kind": "spell"},
        "c": [{"kind": "spell"}] * 2,
    }
    assert doc.data["b"] is not doc.data["a"]
    assert doc.span(("b",)).col == 4
    assert doc.span(("b", "kind")).line == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: &x [*x]\n", "s.yaml:1:8: error: alias '*x' refers to a collection it is inside"),
        ("a: *nothing\n", "s.yaml:1:4: error: undefined alias '*nothing'"),
        (
            "a: &x {b: 1}\nc:\n  <<: *x\n",
            "s.yaml:3:3: error: merge keys ('<<') are not supported; write the keys out",
        ),
        ("? [a]\n: 1\n", "s.yaml:1:3: error: a key must be a name, got a list"),
        ("~: 1\n", "s.yaml:1:1: error: a key must be a name, got None"),
        ("true: 1\n", "s.yaml:1:1: error: a key must be a name, got True"),
        (
            "a: 1\n---\nb: 2\n",
            "s.yaml:2:1: error: YAML syntax: expected a single document in the stream, "
            "but found another document",
        ),
    ],
)
def test_aliases_keys_and_documents(
    run: Callable[..., Run], write: Callable[[str, str], Path], text: str, expected: str
) -> None:
    assert first_error(run, write("s.yaml", text)) == expected


@pytest.mark.parametrize(
    ("char", "name"), [("\x00", "U+0000"), ("\x1b", "U+001B"), ("\x7f", "U+007F")]
)
def test_control_characters_are_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path], char: str, name: str
) -> None:
    path = write("s.yaml", GOOD.replace("turn: A", f"turn: A{char}"))
    assert first_error(run, path) == f"s.yaml:2:8: error: control character {name} is not allowed"


def test_non_utf8_bytes_are_refused(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_bytes(GOOD.replace("turn: A", "turn: A\xff").encode("latin-1"))
    assert first_error(run, path) == (
        "s.yaml:2:8: error: not UTF-8 text (invalid start byte: byte 0xff)"
    )


def test_oversized_files_are_refused(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(GOOD + "#" * MAX_BYTES + "\n", encoding="utf-8")
    assert first_error(run, path) == (
        f"s.yaml:1:1: error: file too large (more than {MAX_BYTES} bytes; at most 1 MiB)"
    )


@pytest.mark.full
def test_too_many_values_are_refused_quickly(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("cards: [" + "1, " * 60_000 + "1]\n", encoding="utf-8")
    # The document's mapping, the key 'cards' and the list are values too: the item at
    # index MAX_NODES - 3 is one too many. Parsing 50,000 values takes a few seconds.
    assert first_error(run, path, seconds=30) == (
        f"s.yaml:1:{9 + 3 * (MAX_NODES - 3)}: error: too many values in one file "
        f"(at most {MAX_NODES})"
    )


def test_bounds_apply_to_card_libraries(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    write("lib.cards.yaml", "cards:\n  Raigeki: {kind: normal-spell, atk: !!int 3}\n")
    path = write("s.yaml", GOOD.replace("turn: A", "turn: A\nlibrary: lib.cards.yaml"))
    result = run("check", str(path))
    assert result.code == 2
    line = result.err.splitlines()[0]
    # A referenced file that is not YAML of its kind is reported at the reference, by
    # position only: its contents are never echoed.
    assert line.endswith(
        "s.yaml:3:10: error: card library 'lib.cards.yaml' is not valid YAML "
        "(the problem is at line 2, column 38)"
    )


# -- claims ---------------------------------------------------------------------------------


def ask(run: Callable[..., Run], write: Callable[[str, str], Path], claim: str) -> list[str]:
    path = write("s.yaml", GOOD)
    start = time.perf_counter()
    result = run("ask", "--max-states", "2000", "--timeout", "2", str(path), claim)
    assert time.perf_counter() - start < 5
    assert result.code == 2, result
    assert "Traceback" not in result.err
    return result.err.splitlines()


def test_a_4300_digit_claim_number_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    lines = ask(run, write, "chain_length == " + "9" * 4300)
    assert lines[0] == "<claim>:1:4001: error: claim too long (4316 characters; at most 4000)"


def test_a_19_digit_claim_number_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    lines = ask(run, write, "chain_length == " + "9" * 19)
    assert lines[0] == "<claim>:1:17: error: number too large (at most 18 digits)"
    lines = ask(run, write, "chain(" + "1" * 19 + ").chain_length == 1")
    assert lines[0] == "<claim>:1:7: error: number too large (at most 18 digits)"


def test_500_and_atoms_are_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    lines = ask(run, write, " and ".join(["x"] * 500))
    assert lines[0] == "<claim>:1:601: error: claim has too many atoms (at most 100)"


def test_500_real_atoms_are_refused_as_too_long(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    lines = ask(run, write, " or ".join(['resolves("Raigeki")'] * 500))
    assert lines[0] == "<claim>:1:4001: error: claim too long (11496 characters; at most 4000)"


def test_100_atoms_are_a_claim(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    path = write("s.yaml", GOOD)
    result = run("ask", str(path), " and ".join(["can_respond(B)"] * 100))
    assert result.code == 0, result
    assert "holds" in result.out


def test_1000_nots_are_refused(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    lines = ask(run, write, "not " * 1000 + "can_respond(B)")
    assert lines[0] == "<claim>:1:4001: error: claim too long (4014 characters; at most 4000)"


def test_deep_nots_are_refused(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    lines = ask(run, write, "not " * 51 + "can_respond(B)")
    assert lines[0] == (
        "<claim>:1:201: error: claim nested too deeply "
        "(at most 50 levels of not, and, or and quantifiers)"
    )


def test_deep_alternation_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    claim = "can_respond(B)"
    for _ in range(30):
        claim = f"not ({claim} and can_respond(B))"
    lines = ask(run, write, claim)
    assert lines[0].startswith("<claim>:1:") and lines[0].endswith(
        "error: claim nested too deeply (at most 50 levels of not, and, or and quantifiers)"
    )


def test_deep_parentheses_are_a_claim(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", GOOD)
    result = run("ask", str(path), "(" * 1500 + "can_respond(B)" + ")" * 1500)
    assert result.code == 0, result


def test_claim_bounds_apply_in_scenario_files(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", GOOD.replace("can_respond(B)", "not " * 60 + "can_respond(B)"))
    assert first_error(run, path) == (
        "s.yaml:10:212: error: claim nested too deeply "
        "(at most 50 levels of not, and, or and quantifiers)"
    )


def test_yaml_syntax_errors_name_tokens_plainly(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", "%YAML 1.2\n" + GOOD)
    assert first_error(run, path) == (
        "s.yaml:2:1: error: YAML syntax: expected '<document start>', but found '<scalar>'"
    )
