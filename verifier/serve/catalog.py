"""What the page offers to start from: the games, their bundled examples, a blank scenario.

The games are the registered ones with a blank scenario (:attr:`verifier.games.Game.blank`),
in the order they were registered; the first is the page's default.

An example is named by its game's folder and its file's stem (``yugioh/chain-lock``) and
found only among the bundled examples, never from a path the visitor wrote. Its text is
shown as the page will run it: a scenario on the page names its card library by name, so
an example's ``library: yugioh.cards.yaml`` (the file beside it) is shown as
``library: yugioh``, rewritten at the value's position in the parsed document.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from verifier.errors import VerifierError
from verifier.games import game_named
from verifier.games import games as registered
from verifier.io.bundled import LIBRARY_SUFFIX, bundled_examples, bundled_libraries, is_name
from verifier.io.source import Document, parse_document

__all__ = ["Example", "blank", "default_game", "example", "examples", "games", "title"]

NOT_SCENARIOS = (LIBRARY_SUFFIX, ".sweep.yaml")


@dataclass(frozen=True, slots=True)
class Example:
    """A bundled example: its name (``game/stem``), its game and its file."""

    name: str
    game: str
    path: Path

    @property
    def text(self) -> str:
        """The file's text as the page shows it (its libraries named)."""
        return _shown(self.path)


def games() -> list[str]:
    """The games the page offers: those with a blank scenario, in the page's order."""
    return [g.name for g in registered() if g.blank]


def default_game() -> str:
    """The game the page starts with: the first it offers."""
    return games()[0]


def blank(name: str) -> str:
    """The blank scenario of the game called ``name``, to start from."""
    found = game_named(name)
    return "" if found is None else found.blank


def title(name: str) -> str:
    """The game's name as the page's menus show it."""
    found = game_named(name)
    return name if found is None else found.short_title or found.title


@functools.cache
def _examples() -> dict[str, Example]:
    folder = bundled_examples()
    if folder is None:
        return {}
    found: dict[str, Example] = {}
    for game in games():
        for path in sorted((folder / game).glob("*.yaml")):
            if not path.name.endswith(NOT_SCENARIOS):
                found[f"{game}/{path.stem}"] = Example(f"{game}/{path.stem}", game, path)
    return found


def examples(game: str) -> list[Example]:
    """The bundled examples of ``game``, by name."""
    return [e for e in _examples().values() if e.game == game]


def example(name: str) -> Example | None:
    """The bundled example called ``name`` (``yugioh/chain-lock``), or None."""
    return _examples().get(name)


@functools.lru_cache(maxsize=128)
def _shown(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    try:
        doc = parse_document(text, path.name)
    except VerifierError:
        return text
    libraries = {p.resolve(): name for name, p in bundled_libraries().items()}
    return _named_libraries(doc, path.parent, libraries)


def _named_libraries(doc: Document, folder: Path, libraries: dict[Path, str]) -> str:
    """The text of ``doc`` with each ``library:`` file that is a bundled library written as
    that library's name."""
    data = doc.data if isinstance(doc.data, dict) else {}
    refs = data.get("library")
    places: list[tuple[int, ...]] = []
    if isinstance(refs, str):
        places.append(())
    elif isinstance(refs, list):
        places.extend((i,) for i, ref in enumerate(refs) if isinstance(ref, str))
    lines = list(doc.lines)
    for place in reversed(places):  # from the last, so earlier columns stay put
        path: tuple[str | int, ...] = ("library", *place)
        ref = data["library"] if not place else data["library"][place[0]]
        if is_name(ref):
            continue
        name = libraries.get((folder / ref).resolve())
        span = doc.span(path)
        if name is None or not 1 <= span.line <= len(lines):
            continue
        line = lines[span.line - 1]
        start = span.col - 1
        for written in (ref, f'"{ref}"', f"'{ref}'"):
            if line.startswith(written, start):
                lines[span.line - 1] = line[:start] + name + line[start + len(written) :]
                break
    return "\n".join(lines) + "\n"
