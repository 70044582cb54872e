"""A sweep's instances: its template filled in with each choice of cards, once per model.

Each instance is a scenario's text (JSON, which is YAML), decided from memory; its cache key
is a hash of that text, the texts of the files it reads (libraries, the rule system) and the
engine settings, so a result is reused only for exactly the same question.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from verifier.sweep.load import PLACEHOLDER, Sweep
from verifier.version import __version__

__all__ = ["Job", "Settings", "bindings", "jobs"]


@dataclass(frozen=True, slots=True)
class Settings:
    """How every instance is decided: the engine and its limits."""

    engine: str = "auto"
    timeout: float | None = None
    max_states: int | None = None


@dataclass(frozen=True, slots=True)
class Job:
    """One instance under one model: what a worker decides (all of it picklable)."""

    instance: int
    cards: tuple[str, ...]
    """The card each placeholder takes, in the placeholders' order."""
    model: str
    name: str
    """How messages about the instance name it."""
    text: str
    folder: str
    claims: tuple[tuple[str, str], ...]
    """Each claim's id and text, filled in."""
    settings: Settings
    key: str
    """The cache key: a SHA-256 of everything the result depends on."""
    problem: str = ""
    """Why the instance cannot be written at all (its rows say it; nothing is decided)."""


class _Twice(Exception):
    """A key of the template is written twice once its placeholders are filled in."""


def bindings(sweep: Sweep) -> Iterator[tuple[str, ...]]:
    """Each choice of cards, one card per placeholder, in the library's order: without a card
    twice when the sweep is ``distinct``, once per set of cards when it is ``unordered``."""
    seen: set[tuple[str, ...]] = set()
    for cards in itertools.product(*(p.cards for p in sweep.placeholders)):
        if sweep.distinct and len(set(cards)) < len(cards):
            continue
        if sweep.unordered:
            key = tuple(sorted(cards))
            if key in seen:
                continue
            seen.add(key)
        yield cards


def _digest(value: Any) -> str:
    """The SHA-256 of ``value`` written as JSON."""
    return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode("utf-8")).hexdigest()


def _filled(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return PLACEHOLDER.sub(lambda m: names[m.group(1)], value)
    if isinstance(value, dict):
        filled: dict[Any, Any] = {}
        for key, item in value.items():
            new = _filled(key, names)
            if new in filled:
                raise _Twice(new)
            filled[new] = _filled(item, names)
        return filled
    if isinstance(value, list):
        return [_filled(v, names) for v in value]
    return value


def jobs(sweep: Sweep, settings: Settings) -> list[Job]:
    """Every instance of ``sweep`` under every model, instances in order, models in order."""
    found = []
    # The files every instance reads are hashed once, not into every instance's key: a
    # library of a mebibyte would otherwise be hashed again for each of thousands of them.
    files = _digest([__version__, sweep.library_texts])
    models = {model.reference: _digest(model.text) for model in sweep.models}
    for index, cards in enumerate(bindings(sweep), start=1):
        names = {p.name: card for p, card in zip(sweep.placeholders, cards, strict=True)}
        problem = ""
        try:
            scenario = _filled(sweep.template, names)
        except _Twice as twice:
            problem = f"the template names '{twice.args[0]}' twice once its placeholders are filled"
            scenario = {}
        claims = tuple((ident, _filled(text, names)) for ident, text in sweep.claims)
        chosen = ", ".join(f"{k}={v}" for k, v in names.items())
        for model in sweep.models:
            data = {
                "rules": model.reference,
                "library": list(sweep.libraries),
                **scenario,
                "claims": [{"claim": text, "id": ident} for ident, text in claims],
            }
            text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
            key = [
                files,
                models[model.reference],
                text,
                [settings.engine, settings.timeout, settings.max_states],
            ]
            found.append(
                Job(
                    index,
                    cards,
                    model.shown,
                    f"{sweep.path}[{chosen}; {model.shown}]",
                    text,
                    sweep.folder,
                    claims,
                    settings,
                    _digest(key),
                    problem,
                )
            )
    return found
