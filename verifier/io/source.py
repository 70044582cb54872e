"""Positioned YAML: load a file safely and remember where every key and value came from.

Input files are data that travel between people, so loading is bounded: a file is at most
:data:`MAX_BYTES` of UTF-8 text without control characters, nests at most :data:`MAX_DEPTH`
collections deep, holds at most :data:`MAX_NODES` values, its aliases stand for at most
:data:`MAX_ALIAS_NODES` nodes in all, it carries no tags (``!!int``, ``!foo``), and its
numbers have at most :data:`MAX_DIGITS` digits. Only plain data is built (dicts, lists,
str, int, float, bool, None), from a parser's event stream with an explicit stack, so no
input can exhaust the recursion limit or the memory; each refusal is an
:class:`InputError` at the place it concerns.

The events come from libyaml (PyYAML's C parser) where it is there, ten times as fast as
ruamel's parser in Python on a card library of 300 cards; ruamel's parser is the reference.
A text libyaml refuses, or whose data are refused, is parsed again by ruamel, so every error
message (and its place) is ruamel's; a text with a directive (``%YAML``) or a tab, where the
two parsers' YAML versions may differ, goes to ruamel alone. ``tests/test_source_parsers.py``
checks that both give the same data and places on every bundled file and on random texts.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver

from verifier.errors import InputError, Span, unprintable

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_NODES",
    "Document",
    "Key",
    "data_document",
    "load_document",
    "parse_document",
]

MAX_BYTES = 1024 * 1024
"""The largest input file, in bytes (1 MiB)."""
MAX_DEPTH = 64
"""How deeply mappings and lists may nest (aliases counted as what they stand for)."""
MAX_ALIAS_NODES = 10_000
"""How many nodes all the aliases of one file may stand for together."""
MAX_DIGITS = 18
"""The most digits a number may have (any int64 fits)."""
MAX_NODES = 50_000
"""The most values (scalars, mappings, lists) one file may hold, keys included."""

Key = str | int
Path_ = tuple[Key, ...]
Pos = tuple[int, int]

# What YAML 1.2 allows in a stream (the complement is refused as a control character).
_NOT_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_YAML_TAG = "tag:yaml.org,2002:"


@dataclass(frozen=True, slots=True)
class Document:
    """Plain data (dicts, lists, scalars) and the spans of each value and mapping key."""

    path: str
    data: Any
    lines: tuple[str, ...]
    values: dict[Path_, tuple[int, int]]
    keys: dict[Path_, tuple[int, int]]

    def _span(self, pos: tuple[int, int]) -> Span:
        line, col = pos
        text = self.lines[line] if line < len(self.lines) else None
        return Span(self.path, line + 1, col + 1, text)

    def span(self, path: Path_) -> Span:
        """Where the value at ``path`` starts; the nearest enclosing value when unknown."""
        for depth in range(len(path), -1, -1):
            pos = self.values.get(path[:depth])
            if pos is not None:
                return self._span(pos)
        return Span(self.path, 1, 1, self.lines[0] if self.lines else None)

    def key_span(self, path: Path_) -> Span:
        """Where the mapping key that ends ``path`` is written."""
        pos = self.keys.get(path)
        return self._span(pos) if pos is not None else self.span(path)


def data_document(name: str, data: Any) -> Document:
    """A document of plain data a program built itself (not a file's): no text, so every
    span is its start."""
    return Document(name, data, (), {(): (0, 0)}, {})


def load_document(path: str | Path) -> Document:
    """Read and parse a YAML file; a missing, oversized or bad file is an :class:`InputError`."""
    name = str(path)
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"no such file: {name}", Span(name, 1, 1)) from None
    except IsADirectoryError:
        raise InputError(f"expected a file, found a directory: {name}", Span(name, 1, 1)) from None
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror}", Span(name, 1, 1)) from None
    if len(raw) > MAX_BYTES:
        raise InputError(
            f"file too large (more than {MAX_BYTES} bytes; at most 1 MiB)", Span(name, 1, 1)
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8")
        lines = tuple(_normalise(good).splitlines())
        line, col = _position(good, len(good))
        byte = raw[exc.start]
        message = f"not UTF-8 text ({exc.reason}: byte 0x{byte:02x})"
        raise InputError(message, _make_span(name, lines, line, col)) from None
    return parse_document(text, name)


_CACHED_CHARS = 256 * 1024
"""Documents up to this size are kept (the last :data:`_CACHED` of them): a run reads the
same rule system and card library for every scenario, and each parse of them took longer
than deciding most scenarios."""
_CACHED = 32


def parse_document(text: str, name: str) -> Document:
    """Parse YAML text; only plain data is built, never objects named by tags.

    The document is shared with every caller that parses the same text under the same name:
    its data are read, never changed."""
    if len(text) <= _CACHED_CHARS:
        return _parse_cached(text, name)
    return _parse(text, name)


@functools.lru_cache(maxsize=_CACHED)
def _parse_cached(text: str, name: str) -> Document:
    return _parse(text, name)


def _parse(text: str, name: str) -> Document:
    text = _normalise(text)
    lines = tuple(text.splitlines())
    if len(text) > MAX_BYTES:
        raise InputError(f"file too large (more than {MAX_BYTES} characters)", Span(name, 1, 1))
    bad = _NOT_PRINTABLE.search(text)
    if bad is not None:
        line, col = _position(text, bad.start())
        char = ord(bad.group())
        raise InputError(
            f"control character U+{char:04X} is not allowed", _make_span(name, lines, line, col)
        )
    fast = _fast_events(text)
    if fast is not None:
        try:
            return _document(name, lines, _Composer(name, lines).compose(fast))
        except (InputError, ValueError):
            pass  # refused: ruamel says why, and where
    try:
        root = _Composer(name, lines).compose(_ruamel_events(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line, mark.column) if mark is not None else (0, 0)
        problem = exc.problem or exc.context or "malformed YAML"
        message = f"YAML syntax: {_tidy(problem)}"
        raise InputError(message, _make_span(name, lines, line, col)) from None
    except YAMLError as exc:
        raise InputError(f"YAML syntax: {_tidy(str(exc))}", Span(name, 1, 1)) from None
    return _document(name, lines, root)


def _document(name: str, lines: tuple[str, ...], root: _Node | None) -> Document:
    values: dict[Path_, Pos] = {(): (0, 0)}
    keys: dict[Path_, Pos] = {}
    data = None if root is None else _Builder(name, lines, values, keys).build(root, ())
    return Document(name, data, lines, values, keys)


# -- events: (kind, position, event) from libyaml or from ruamel ---------------------------

Event = tuple[str, Pos, Any]
"""An event's class name (both parsers name them alike), its 0-based line and column, and
the event itself (``value``, ``style``, ``implicit``, ``anchor``, ``tag`` as both have them)."""


def _ruamel_events(text: str) -> Iterator[Event]:
    for event in YAML(typ="base", pure=True).parse(text):
        yield type(event).__name__, (event.start_mark.line, event.start_mark.column), event


def _libyaml() -> Callable[[str], Iterator[Any]] | None:
    """libyaml's event parser, when PyYAML was built with it."""
    try:
        import yaml
    except ImportError:  # pragma: no cover - PyYAML is a dependency
        return None
    if not getattr(yaml, "__with_libyaml__", False):  # pragma: no cover - built without it
        return None
    loader = yaml.CSafeLoader

    def parse(text: str) -> Iterator[Any]:
        return yaml.parse(text, Loader=loader)

    return parse


_LIBYAML = _libyaml()
_RUAMEL_ONLY = re.compile(r"^%|\t", re.MULTILINE)
"""A directive (the parsers read different YAML versions) or a tab (they read tabs in
indentation differently): such a text is parsed by ruamel alone."""


def _fast_events(text: str) -> list[Event] | None:
    """The text's events from libyaml (None: there is no libyaml, the text is for ruamel
    alone, or libyaml refuses it). A text with an empty plain value (``key:`` and nothing
    after it) is ruamel's too: the two parsers place such a value differently; so is a
    document that is a single scalar."""
    if _LIBYAML is None or _RUAMEL_ONLY.search(text):
        return None
    events: list[Event] = []
    values = 0
    try:
        for event in _LIBYAML(text):
            kind = type(event).__name__
            if kind == "ScalarEvent" and event.value == "" and not event.style:
                return None
            if kind in _VALUES:
                values += 1
                if values > MAX_NODES:
                    return None  # refused: ruamel's events stream to the same refusal
            events.append((kind, (event.start_mark.line, event.start_mark.column), event))
    except Exception:  # any refusal: ruamel gives the message
        return None
    if len(events) > 2 and events[2][0] == "ScalarEvent":
        # A document that is one scalar (no scenario is): libyaml reads a block scalar there
        # differently ("|" then "# x" at column 0 is text to YAML 1.2, a comment to libyaml).
        return None
    return events


def _normalise(text: str) -> str:
    """Line ends as ``\\n``, as a file read in text mode has them."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _position(text: str, index: int) -> Pos:
    """The 0-based line and column of ``text[index]``."""
    line = text.count("\n", 0, index)
    start = text.rfind("\n", 0, index) + 1
    return line, index - start


def _tidy(problem: str) -> str:
    """One line; ruamel shows some tokens as a one-element tuple: ``('<scalar>',)``."""
    return re.sub(r"\('([^']*)',\)", r"'\1'", " ".join(problem.split()))


def _make_span(name: str, lines: tuple[str, ...], line: int, col: int) -> Span:
    if line >= len(lines) and lines:
        # The end of the file (a mapping or list left open): its last line, past its end.
        line, col = len(lines) - 1, len(lines[-1])
    text = lines[line] if 0 <= line < len(lines) else None
    return Span(name, line + 1, col + 1, text)


# -- composing: events to a node graph, iteratively and within the bounds -------------------


class _Node:
    """A scalar (its plain value), or a mapping or list (its children, with their positions)."""

    __slots__ = ("children", "height", "kind", "merge", "pos", "size", "value")

    def __init__(self, kind: str, pos: Pos, value: Any = None) -> None:
        self.kind = kind  # "scalar", "map" or "seq"
        self.pos = pos
        self.value = value
        self.merge = False  # a plain '<<' (a merge key)
        self.children: list[tuple[_Node, Pos]] = []
        self.height = 0  # collections nested in it, itself included
        self.size = 1  # nodes it stands for, aliases expanded


_VALUES = frozenset({"ScalarEvent", "AliasEvent", "MappingStartEvent", "SequenceStartEvent"})


class _Composer:
    def __init__(self, name: str, lines: tuple[str, ...]) -> None:
        self.name = name
        self.lines = lines
        self.resolver = VersionedResolver()
        self._kinds: dict[str, str] = {}  # a plain scalar's type, by its text

    def error(self, message: str, pos: Pos) -> InputError:
        return InputError(message, _make_span(self.name, self.lines, *pos))

    def compose(self, events: Iterable[Event]) -> _Node | None:
        anchors: dict[str, _Node] = {}
        opening: set[str] = set()
        stack: list[tuple[_Node, str | None]] = []
        root: _Node | None = None
        documents = 0
        expanded = 0
        written = 0
        for kind, at, event in events:
            pos = at
            if kind in _VALUES:
                written += 1
                if written > MAX_NODES:
                    raise self.error(f"too many values in one file (at most {MAX_NODES})", pos)
            if kind == "DocumentStartEvent":
                documents += 1
                if documents > 1:
                    raise self.error(
                        "YAML syntax: expected a single document in the stream, "
                        "but found another document",
                        pos,
                    )
                continue
            node: _Node | None = None
            if kind == "AliasEvent":
                alias = str(event.anchor)
                if alias in opening:
                    raise self.error(f"alias '*{alias}' refers to a collection it is inside", pos)
                if alias not in anchors:
                    raise self.error(f"undefined alias '*{alias}'", pos)
                node = anchors[alias]
                expanded += node.size
                if expanded > MAX_ALIAS_NODES:
                    raise self.error(
                        f"aliases expand to too many nodes (at most {MAX_ALIAS_NODES} in a file)",
                        pos,
                    )
                if len(stack) + node.height > MAX_DEPTH:
                    raise self.error(f"nesting too deep (at most {MAX_DEPTH} levels)", pos)
            elif kind == "ScalarEvent":
                self.refuse_tag(event.tag, pos)
                node = self.scalar(event, pos)
                if event.anchor is not None:
                    anchors[str(event.anchor)] = node
            elif kind in ("MappingStartEvent", "SequenceStartEvent"):
                self.refuse_tag(event.tag, pos)
                if len(stack) + 1 > MAX_DEPTH:
                    raise self.error(f"nesting too deep (at most {MAX_DEPTH} levels)", pos)
                shape = "map" if kind == "MappingStartEvent" else "seq"
                name = None if event.anchor is None else str(event.anchor)
                if name is not None:
                    opening.add(name)
                stack.append((_Node(shape, pos), name))
                continue
            elif kind in ("MappingEndEvent", "SequenceEndEvent"):
                node, name = stack.pop()
                node.height = 1 + max((c.height for c, _ in node.children), default=0)
                node.size = 1 + sum(c.size for c, _ in node.children)
                if name is not None:
                    opening.discard(name)
                    anchors[name] = node
                pos = node.pos
            if node is None:
                continue
            if stack:
                parent = stack[-1][0]
                key = parent.kind == "map" and len(parent.children) % 2 == 0
                if key and node.kind == "scalar" and "\n" in str(node.value):
                    raise self.error("a line break is not allowed in a key", pos)
                parent.children.append((node, pos))
            else:
                root = node
        return root

    def refuse_tag(self, tag: Any, pos: Pos) -> None:
        if tag is None:
            return
        shown = str(getattr(tag, "value", tag))
        if shown.startswith(_YAML_TAG):
            shown = "!!" + shown[len(_YAML_TAG) :]
        raise self.error(f"tags are not allowed (found '{shown}'); write plain values", pos)

    def scalar(self, event: Any, pos: Pos) -> _Node:
        text = str(event.value)
        # The raw text was checked for control characters; a double-quoted string's escapes
        # ("\e", "\u202e") make them anew. Names and texts are printed: they may hold none
        # (a line break only inside a string, never inside a key: see compose).
        bad = unprintable(text, allowed="\n")
        if bad is not None:
            raise self.error(
                f"control character U+{ord(bad.group()):04X} is not allowed in a string "
                "(names and texts are printed)",
                pos,
            )
        if event.style or not event.implicit[0]:  # libyaml writes a plain style as ""
            return _Node("scalar", pos, text)  # quoted or block: a string
        kind = self._kinds.get(text)
        if kind is None:
            tag = str(self.resolver.resolve(ScalarNode, text, (True, False)))
            kind = self._kinds[text] = tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else "str"
        node = _Node("scalar", pos, text)
        if kind == "null":
            node.value = None
        elif kind == "bool":
            node.value = text.lower() == "true"
        elif kind == "int":
            node.value = self.integer(text, pos)
        elif kind == "float":
            node.value = self.real(text, pos)
        elif kind == "merge":
            node.merge = True
        return node

    def integer(self, text: str, pos: Pos) -> int | str:
        body = text.replace("_", "")
        sign = -1 if body.startswith("-") else 1
        body = body.lstrip("+-")
        base = {"0x": 16, "0o": 8, "0b": 2}.get(body[:2].lower(), 10)
        digits = body[2:] if base != 10 else body
        if len(digits) > MAX_DIGITS:
            raise self.error(f"number too large (at most {MAX_DIGITS} digits)", pos)
        try:
            return sign * int(digits, base)
        except ValueError:
            return text  # looks like a number to the resolver only: keep the text

    def real(self, text: str, pos: Pos) -> float | str:
        body = text.replace("_", "")
        lowered = body.lower().lstrip("+-")
        if lowered in {".inf", ".nan"}:
            return float(body.lower().replace(".", ""))
        mantissa = re.split("[eE]", lowered)[0]
        if sum(c.isdigit() for c in mantissa) > MAX_DIGITS:
            raise self.error(f"number too large (at most {MAX_DIGITS} digits)", pos)
        try:
            value = float(body)
        except ValueError:
            return text
        if not math.isfinite(value) or abs(value) >= 10.0**MAX_DIGITS:
            raise self.error(f"number too large (at most {MAX_DIGITS} digits)", pos)
        return value


# -- building: the node graph to plain data, with the span of each value and key -----------


class _Builder:
    """Recursion here is bounded: the composer refused graphs deeper than MAX_DEPTH."""

    def __init__(
        self,
        name: str,
        lines: tuple[str, ...],
        values: dict[Path_, Pos],
        keys: dict[Path_, Pos],
    ) -> None:
        self.name = name
        self.lines = lines
        self.values = values
        self.keys = keys

    def error(self, message: str, pos: Pos) -> InputError:
        return InputError(message, _make_span(self.name, self.lines, *pos))

    def build(self, node: _Node, path: Path_) -> Any:
        if node.kind == "scalar":
            return node.value
        if node.kind == "seq":
            items = []
            for index, (item, pos) in enumerate(node.children):
                sub = (*path, index)
                self.values[sub] = pos
                items.append(self.build(item, sub))
            return items
        out: dict[Key, Any] = {}
        children = node.children
        for (key_node, key_pos), (value, pos) in zip(children[0::2], children[1::2], strict=True):
            if key_node.merge:
                raise self.error("merge keys ('<<') are not supported; write the keys out", key_pos)
            key = self.key(key_node, key_pos)
            if key in out:
                raise self.error(
                    f"duplicate key '{key}' (each name may appear only once here)", key_pos
                )
            sub = (*path, key)
            self.keys[sub] = key_pos
            self.values[sub] = pos
            out[key] = self.build(value, sub)
        return out

    def key(self, node: _Node, pos: Pos) -> Key:
        if node.kind != "scalar":
            what = "a mapping" if node.kind == "map" else "a list"
            raise self.error(f"a key must be a name, got {what}", pos)
        key = node.value
        if not isinstance(key, str | int) or isinstance(key, bool):
            raise self.error(f"a key must be a name, got {key!r}", pos)
        return key
