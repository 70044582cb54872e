"""libyaml and ruamel read the same data at the same places (:mod:`verifier.io.source`).

libyaml's events are used when it is installed, for speed; ruamel's parser is the reference.
A text both accept must give the same data and the same place for every key and value (the
places are what error messages point at); a text either refuses gives ruamel's error."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.errors import InputError
from verifier.io import source

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(
    p
    for folder in ("examples", "models", "bench", "tests")
    for p in (ROOT / folder).rglob("*.yaml")
    if p.stat().st_size <= source.MAX_BYTES
)

pytestmark = pytest.mark.skipif(source._LIBYAML is None, reason="PyYAML built without libyaml")


def _read(text: str, fast: bool) -> object:
    """The document (its data and places) or the error, read with or without libyaml."""
    saved = source._LIBYAML
    if not fast:
        source._LIBYAML = None
    try:
        doc = source._parse(text, "f.yaml")
    except InputError as exc:
        return ("error", str(exc), exc.span)
    finally:
        source._LIBYAML = saved
    return (doc.data, doc.values, doc.keys)


def test_the_bundled_files_are_many() -> None:
    assert len(BUNDLED) > 150


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_file_reads_the_same_with_both_parsers(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _read(text, fast=True) == _read(text, fast=False)


def test_libyaml_is_used_on_a_plain_text() -> None:
    assert source._fast_events("a: 1\n") is not None
    # A directive, a tab or an empty value: ruamel alone.
    assert source._fast_events("%YAML 1.2\n---\na: 1\n") is None
    assert source._fast_events("a:\t1\n") is None
    assert source._fast_events("a:\nb: 1\n") is None
    assert source._fast_events("|\n# x\n") is None  # a document that is one scalar
    # Past the most values a file may hold, libyaml's events are not all kept in memory:
    # ruamel's stream stops at the bound with its message.
    assert source._fast_events("[" + "1, " * source.MAX_NODES + "1]\n") is None


@pytest.mark.parametrize(
    "text",
    [
        "a:\nb: 1\n",  # an empty value before the next key
        "a:\n",  # at the end
        "- \n- x\n",  # an empty list item
        "{a: , b: 2}\n",
        "[a, , b]\n",  # libyaml and ruamel both refuse: ruamel's message
        "a: [1, 2\n",  # unclosed
        "a: 1\na: 2\n",  # a duplicate key: the error is ruamel's place
        "a: !!int 3\n",
        "a: &x [1]\nb: *x\nc: *y\n",
        "a: |\n  text\n\nb: >-\n  folded\n  more\n",
        "'quoted key': \"v\\u0041\"\n",
        "a: 0x1F\nb: 1_000\nc: .inf\nd: 1e3\ne: ~\nf: True\ng: 2001-12-14\n",
        "# only a comment\n",
        "",
        "---\na: 1\n---\nb: 2\n",
        "a: b: c\n",
        "a:\n  - b\n - c\n",
        "? complex\n: value\n",
        "a: 'it''s'\n",
        'a: "\\e"\n',
        "|\n# x\n",  # a document that is one block scalar: ruamel's alone
        "a: |\n  # x\n",
        "- >\n # c\n",
    ],
)
def test_edge_cases_read_the_same(text: str) -> None:
    assert _read(text, fast=True) == _read(text, fast=False)


_SCALARS = st.sampled_from(
    [
        "x",
        "Card Name",
        "1",
        "-3",
        "0o7",
        "1.5",
        "null",
        "~",
        "true",
        "no",
        "''",
        '""',
        "'a b'",
        '"q\\n"',
        "",
        "a: b",
        "#c",
        "&k v",
        "*k",
        "!t v",
        "[1, 2]",
        "{a: 1}",
        "[]",
        "{}",
        "-",
        "? x",
        "|",
        ">",
        "'",
        '"',
        "x # note",
        "2026-12-05",
        "<<",
    ]
)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    """Lines of keys, list items and scalars at random indentation: mostly valid YAML,
    sometimes not."""
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        indent = " " * draw(st.sampled_from([0, 0, 2, 4, 1, 3]))
        shape = draw(st.sampled_from(["key", "item", "scalar", "blank", "comment"]))
        value = draw(_SCALARS)
        key = draw(st.sampled_from(["a", "b", "Card", "1", "'q k'", "a b"]))
        if shape == "key":
            lines.append(f"{indent}{key}:{' ' + value if value else ''}")
        elif shape == "item":
            lines.append(f"{indent}-{' ' + value if value else ''}")
        elif shape == "scalar":
            lines.append(f"{indent}{value}")
        elif shape == "blank":
            lines.append("")
        else:
            lines.append(f"{indent}# {value}")
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))


@settings(max_examples=400, deadline=None)
@given(_texts())
def test_random_texts_read_the_same(text: str) -> None:
    assert _read(text, fast=True) == _read(text, fast=False)
