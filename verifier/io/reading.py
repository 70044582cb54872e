"""What every part of the scenario loader shares: the scenario being read, where a card
entry's keys are (:class:`Where`), its errors, and the game's words for zones and types."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verifier.errors import ScenarioError, Span
from verifier.games import Game, game
from verifier.io.schema import ScenarioFile
from verifier.io.source import Document
from verifier.spec.cards import (
    ALL_TYPES,
    Ability,
    Zone,
)
from verifier.spec.rulesystem import RuleSystem

__all__ = [
    "CARD_TYPES",
    "Reader",
    "Where",
    "card_types",
    "claim_steps",
    "close_match",
    "listed",
    "one_or_more",
    "text_origin",
    "turn_steps",
]


@dataclass(frozen=True, slots=True)
class Where:
    """Spans inside one card entry, which may come from the scenario or from a library."""

    doc: Document
    base: tuple[Any, ...]
    fallback: Where | None = None

    def has(self, key: str) -> bool:
        data = self.doc.data
        for part in self.base:
            data = data[part]
        return isinstance(data, dict) and key in data

    def at(self, *path: Any) -> Span:
        if path and self.fallback is not None and not self.has(str(path[0])):
            return self.fallback.at(*path)
        return self.doc.span(self.base + path)

    def key(self, *path: Any) -> Span:
        if path and self.fallback is not None and not self.has(str(path[0])):
            return self.fallback.key(*path)
        return self.doc.key_span(self.base + path)


class Reader:
    """The scenario being read, its game and players; errors placed at a key."""

    def __init__(
        self,
        doc: Document,
        spec: ScenarioFile,
        model: RuleSystem,
        allow_outside: bool = False,
        folder: Path | None = None,
        names_only: bool = False,
    ) -> None:
        self.doc = doc
        # Where the scenario's references resolve from and are confined to: its file's
        # folder, or the folder an in-memory scenario names (never its name's folder).
        self.folder = Path(doc.path).parent if folder is None else folder
        self.spec = spec
        self.model = model
        self.game = game(model.game)
        self.allow_outside = allow_outside
        self.names_only = names_only
        self.players = (spec.players[0], spec.players[1])
        if self.players[0] == self.players[1]:
            raise ScenarioError("the two players need different names", doc.span(("players", 1)))
        self.abilities: list[Ability] = []
        self.history_path: tuple[Any, ...] = ("history",)

    def error(self, message: str, span: Span) -> ScenarioError:
        return ScenarioError(message, span)

    def word(self, name: str) -> str:
        """The verifier's name for a zone or card type the game calls ``name``."""
        return self.game.words.get(name, name)

    def zone(self, name: str, span: Span) -> Zone:
        """The zone called ``name`` (in the game's own words too), if the game has it."""
        name = self.word(name)
        if name not in self.game.zones:
            zones = ", ".join(sorted(self.game.zones))
            raise self.error(f"{self.game.title} has no {name} zone (its zones: {zones})", span)
        return Zone.named(name)

    def needs(self, field: str, span: Span) -> None:
        """Refuse a key that reads or writes an optional state field the game lacks."""
        if not self.game.has_field(field):
            raise self.error(
                f"'{field}' is not a notion of {self.game.title} (rule system {self.model.name})",
                span,
            )

    def player(self, name: str | None, span: Span) -> int:
        if name in self.players:
            return self.players.index(name)
        raise self.error(f"unknown player '{name}' (players: {', '.join(self.players)})", span)

    def unknown_step(self, name: str, steps: tuple[str, ...]) -> str:
        if not steps:
            return f"{self.game.title}'s turn has no steps"
        return f"unknown step '{name}'{close_match(name, list(steps))} (steps: {', '.join(steps)})"


def listed(spec: Any) -> list[Any]:
    """A key that takes one entry or a list of them, as a list."""
    return [] if spec is None else spec if isinstance(spec, list) else [spec]


CARD_TYPES = ("monster", "spell", "trap", "spell-trap", "card")
"""The card types a filter names in every game (a game may have its own words for them)."""


def card_types(kind: str) -> set[str]:
    if kind in {"card"}:
        return set(ALL_TYPES)
    if kind == "spell-trap":
        return {"spell", "trap"}
    if kind == "monster-effect":
        return {"monster"}
    return {kind}


def one_or_more(value: str | Sequence[str] | None) -> frozenset[str] | None:
    """A filter key that names one value or a list of them (None: the key is absent)."""
    if value is None:
        return None
    return frozenset([value] if isinstance(value, str) else value)


def close_match(word: str, choices: list[str], show: bool = False) -> str:
    import difflib

    close = difflib.get_close_matches(word, choices, n=1)
    if close:
        return f"; did you mean '{close[0]}'?"
    if show and choices:
        return f" (known: {', '.join(choices)})"
    return ""


def text_origin(span: Span) -> Span:
    """Where a scalar's text starts: one column after an opening quote."""
    text = span.line_text() or ""
    if 0 < span.col <= len(text) and text[span.col - 1] in "\"'":
        return span.shifted(1)
    return span


def turn_steps(played: Game, model: RuleSystem) -> tuple[str, ...]:
    """The steps of a turn under ``model``: the game's, in the phases the model has (the
    Battle Phase's only with its ``battle`` section)."""
    return tuple(name for name, _ in played.steps_under(model.phases, model.battle))


def claim_steps(played: Game, model: RuleSystem) -> tuple[tuple[str, str], ...]:
    """The steps and phases a claim may name: each step with its phase, and each phase of
    the rule system without steps as a step of its own."""
    steps = turn_steps(played, model)
    stepped = {played.phase_of(s) for s in steps}
    return tuple((s, played.phase_of(s) or s) for s in steps) + tuple(
        (p, p) for p in model.phases if p not in stepped
    )
