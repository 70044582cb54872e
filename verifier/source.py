"""Positioned YAML: load a file safely and remember where every key and value came from."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from verifier.errors import InputError, Span

__all__ = ["Document", "Key", "load_document", "parse_document"]

Key = str | int
Path_ = tuple[Key, ...]


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


def load_document(path: str | Path) -> Document:
    """Read and parse a YAML file; a missing or malformed file is an :class:`InputError`."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"no such file: {name}", Span(name, 1, 1)) from None
    except IsADirectoryError:
        raise InputError(f"expected a file, found a directory: {name}", Span(name, 1, 1)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason})", Span(name, 1, 1)) from None
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror}", Span(name, 1, 1)) from None
    return parse_document(text, name)


def parse_document(text: str, name: str) -> Document:
    """Parse YAML text; only plain data is built, never objects named by tags."""
    lines = tuple(text.splitlines())
    try:
        tree = YAML(typ="rt", pure=True).load(text)
    except DuplicateKeyError as exc:
        mark = exc.problem_mark
        line, col = (mark.line, mark.column) if mark is not None else (0, 0)
        key = (exc.problem or "").split('"')[1] if '"' in (exc.problem or "") else "?"
        message = f"duplicate key '{key}' (each name may appear only once here)"
        raise InputError(message, _make_span(name, lines, line, col)) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line, mark.column) if mark is not None else (0, 0)
        problem = exc.problem or exc.context or "malformed YAML"
        message = f"YAML syntax: {_tidy(problem)}"
        raise InputError(message, _make_span(name, lines, line, col)) from None
    except YAMLError as exc:
        raise InputError(f"YAML syntax: {_tidy(str(exc))}", Span(name, 1, 1)) from None
    values: dict[Path_, tuple[int, int]] = {(): (0, 0)}
    keys: dict[Path_, tuple[int, int]] = {}
    data = _plain(tree, (), values, keys, name, lines)
    return Document(name, data, lines, values, keys)


def _tidy(problem: str) -> str:
    return " ".join(problem.split())


def _make_span(name: str, lines: tuple[str, ...], line: int, col: int) -> Span:
    text = lines[line] if 0 <= line < len(lines) else None
    return Span(name, line + 1, col + 1, text)


def _plain(
    node: Any,
    path: Path_,
    values: dict[Path_, tuple[int, int]],
    keys: dict[Path_, tuple[int, int]],
    name: str,
    lines: tuple[str, ...],
) -> Any:
    if isinstance(node, CommentedMap):
        values.setdefault(path, (node.lc.line, node.lc.col))
        out: dict[Any, Any] = {}
        for key in node:
            sub = (*path, key)
            keys[sub] = node.lc.key(key)
            values[sub] = node.lc.value(key)
            if not isinstance(key, str | int) or isinstance(key, bool):
                line, col = keys[sub]
                raise InputError(
                    f"a key must be a name, got {key!r}", _make_span(name, lines, line, col)
                )
            out[key] = _plain(node[key], sub, values, keys, name, lines)
        return out
    if isinstance(node, CommentedSeq):
        values.setdefault(path, (node.lc.line, node.lc.col))
        items = []
        for index, item in enumerate(node):
            sub = (*path, index)
            values[sub] = node.lc.item(index)
            items.append(_plain(item, sub, values, keys, name, lines))
        return items
    if node is None or isinstance(node, bool):
        return node
    if isinstance(node, str):
        return str(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    line, col = values.get(path, (0, 0))
    raise InputError(
        f"unsupported YAML value ({type(node).__name__}); tags are not allowed",
        _make_span(name, lines, line, col),
    )
