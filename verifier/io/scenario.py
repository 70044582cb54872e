"""Scenarios: load a scenario file (cards, situation, history, claims) with positions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from verifier.claims.ast import Formula
from verifier.claims.parse import Vocabulary, parse_claim
from verifier.errors import ModelError, ScenarioError, Span
from verifier.games import game
from verifier.io.cards import CardReader, printed_name
from verifier.io.copies import copy_cards
from verifier.io.model import find_named_model, is_model_path, model_dirs, model_from
from verifier.io.paths import load_referenced, quoted, resolve_reference
from verifier.io.reading import Where, claim_steps, close_match, text_origin, turn_steps
from verifier.io.schema import (
    CardFile,
    RuleSystemFile,
    ScenarioFile,
    validate,
)
from verifier.io.source import data_document, load_document, parse_document
from verifier.io.steps import StepReader
from verifier.io.storm import storm_copies
from verifier.io.tokens import token_cards
from verifier.rules import combat
from verifier.rules.storm import storms
from verifier.spec.cards import Card
from verifier.spec.rulesystem import RuleSystem
from verifier.spec.scenario import ClaimEntry, Scenario, Step

__all__ = ["InMemory", "load_scenario", "parse_for", "read_step", "vocabulary"]

# The scenario's own limits (``limits:``), checked by :class:`~verifier.io.schema.LimitsFile`:
# each one acts, and any other key is refused with its position.
LIMIT_NAMES = ("pending_triggers",)


def vocabulary(scenario: Scenario) -> Vocabulary:
    """The names a claim about ``scenario`` may use."""
    return _vocabulary(scenario.cards, scenario.players, scenario.model, scenario.decks)


def _vocabulary(
    cards: Sequence[Card],
    players: tuple[str, ...],
    model: RuleSystem,
    decks: tuple[int, int] = (-1, -1),
) -> Vocabulary:
    played = game(model.game)
    # A token not created yet, or gone (CR 704.5d), is in no zone: zone("X") == none; so is
    # a copy of a spell not on the stack (704.5e).
    nowhere = ("none",) if any(c.token or c.copy_of >= 0 for c in cards) else ()
    return Vocabulary(
        tuple(c.name for c in cards),
        players,
        model.speeds,
        frozenset(played.fields),
        claim_steps(played, model),
        tuple(sorted(played.zones)) + nowhere,
        tuple(sorted(played.words.items())),
        tuple(p for p, deck in zip(players, decks, strict=True) if deck >= 0),
        played.untaps,
    )


def parse_for(scenario: Scenario, text: str, origin: Span | None = None) -> Formula:
    """Parse a claim against the names of ``scenario``."""
    where = origin if origin is not None else Span("<claim>", 1, 1, text)
    return parse_claim(text, vocabulary(scenario), where)


def read_step(scenario: Scenario, text: str) -> Step:
    """Parse a step sentence given on the command line ("B activates Book of Moon")."""
    origin = Span("<action>", 1, 1, text)
    sc = scenario
    reader = StepReader(
        text, origin, sc.players, sc.cards, list(sc.abilities), sc.model, triggers=True
    )
    return reader.read()


@dataclass(frozen=True, slots=True)
class InMemory:
    """A scenario held in memory: its text, the name messages give it, and the folder its
    relative references (``rules:``, ``library:``) are resolved from."""

    name: str
    text: str
    folder: Path = field(default_factory=Path.cwd)
    built: bool = False
    """The text is JSON a program wrote from its own data (the generator's walk, which loads
    a scenario for every step it tries): read with the ``json`` module, several times as
    fast as the positioned YAML parser, so a message about it names no line."""


def load_scenario(
    path: str | Path | InMemory,
    rules: str | None = None,
    turn: str | None = None,
    history: int | None = None,
    until: str | None = None,
    *,
    allow_outside: bool = False,
    names_only: bool = False,
    model: RuleSystem | None = None,
) -> Scenario:
    """Load a scenario file; every problem is a :class:`VerifierError` with its position.

    ``path`` may be an :class:`InMemory` scenario instead of a file's path (designer tools,
    programs). ``rules``, ``turn`` and ``history`` (the index of a claim whose own history to
    use) load
    a variant of it, as a claim's own ``rules``, ``turn`` and ``history`` ask. The paths the
    scenario names (``rules:``, ``library:``) must stay inside its folder's tree unless
    ``allow_outside``; with ``names_only`` they may name no file at all, only rule systems
    and bundled card libraries by name (what a server takes from strangers). ``model`` is a
    rule system the caller
    has loaded itself (lint, diff), used instead of the one the scenario names.
    """
    if isinstance(path, InMemory):
        if path.built:
            doc = data_document(path.name, json.loads(path.text))
        else:
            doc = parse_document(path.text, path.name)
        folder, text = path.folder, path.text
    else:
        doc, folder, text = load_document(path), Path(path).parent, None
    if not isinstance(doc.data, dict):
        raise ScenarioError("a scenario is a mapping with rules, turn, cards, ...", doc.span(()))
    if "sweep" in doc.data:
        raise ScenarioError(
            "this is a sweep, not a scenario: run it with `verifier sweep FILE`",
            doc.key_span(("sweep",)),
        )
    spec = validate(ScenarioFile, doc, ScenarioError)
    where = doc.span(("rules",))
    if rules is not None:
        where = next(
            (
                doc.span(("claims", i, "rules"))
                for i, c in enumerate(spec.claims)
                if not isinstance(c, str) and c.rules == rules
            ),
            where,
        )
    if model is None:
        model = _rule_system(rules or spec.rules, folder, where, allow_outside, names_only)
    if turn is not None:
        spec = spec.model_copy(update={"turn": turn})
    if until is not None:
        spec = spec.model_copy(update={"until": until})
    loader = _Loader(doc, spec, model, allow_outside, folder, names_only)
    if history is not None:
        entry = spec.claims[history]
        assert not isinstance(entry, str) and entry.history is not None
        loader.history_path = ("claims", history, "history")
        loader.spec = spec.model_copy(update={"history": entry.history})
    return replace(loader.scenario(), text=text, folder=str(folder))


def _rule_system(
    reference: str, folder: Path, span: Span, allow_outside: bool, names_only: bool = False
) -> RuleSystem:
    """The rule system a scenario's ``rules:`` value names: a model's name, looked up in the
    model directories, or a path, confined and loaded without echoing a file of another kind
    (refused when ``names_only``).
    """
    if not is_model_path(reference):
        return find_named_model(reference, span)
    shown = quoted(reference)
    if names_only:
        names = {p.stem for d in model_dirs() if d.is_dir() for p in d.glob("*.yaml")}
        known = ", ".join(sorted(names)) or "none"
        raise ModelError(
            f"rules {shown} names a file; here a scenario names a rule system by its name "
            f"(known: {known})",
            span,
        )
    path = resolve_reference(
        reference,
        folder,
        "rules file",
        f"no rule-system file {shown}",
        span,
        ModelError,
        allow_outside,
    )
    doc, spec = load_referenced(
        path, "rules file", shown, "a rule system", RuleSystemFile, span, ModelError
    )
    return model_from(spec, doc)


# -- where things are written ---------------------------------------------------------------


class _Loader(CardReader):
    """Reads a scenario file: its situation, cards, history and claims."""

    def scenario(self) -> Scenario:
        spec = self.spec
        turn = self.player(spec.turn, self.doc.span(("turn",)))
        phase, step, until = self.turn_point()
        external = self.library()
        library = dict(external)
        for name, entry in spec.cards.items():
            # A card may also copy another card of the scenario itself.
            library.setdefault(name, (entry, Where(self.doc, ("cards", name))))
        cards = []
        for index, (name, given) in enumerate(spec.cards.items()):
            where = Where(self.doc, ("cards", name))
            entry = given
            template_name = given.card or (name if name in external else None)
            if given.card is not None and (
                given.card not in library or (given.card == name and name not in external)
            ):
                # ``Raigeki: {card: Raigeki}`` names the library's card; a scenario's own card
                # cannot copy itself.
                others = [n for n in library if n != name]
                raise self.error(
                    f"no card '{given.card}' in the library{close_match(given.card, others)}",
                    where.at("card"),
                )
            if template_name is not None:
                template, library_where = library[template_name]
                merged = template.model_dump(exclude_unset=True, by_alias=False)
                merged.update(given.model_dump(exclude_unset=True, by_alias=False))
                merged.pop("card", None)
                entry = CardFile.model_validate(merged)
                where = Where(self.doc, ("cards", name), library_where)
            card = self.card(index, name, entry, where)
            cards.append(replace(card, printed=printed_name(name, spec.cards)))
        if not cards:
            raise self.error("a scenario needs at least one card", self.doc.span(("cards",)))
        cards_t = tuple(cards)
        self.check_zones(cards_t)
        cards_t += token_cards(cards_t, self.abilities, self.model)
        stormy = storm_copies(cards_t, self.abilities, spec.spells_cast)
        counts = [stormy if storms(a) else 1 for a in self.abilities]
        cards_t += copy_cards(cards_t, self.abilities, self.copied(cards_t), counts)
        self.spells_cast()
        declared = combat.goes_through(self.model, step, until)
        self.combat_damage_object(cards_t, declared)
        self.first_strike_step(cards_t, step, until)
        if declared and combat.choices_of(cards_t, turn) > combat.MAX_CHOICES:
            raise self.error(
                f"this combat offers {combat.choices_of(cards_t, turn)} ways to declare "
                f"attackers or blockers, more than the {combat.MAX_CHOICES} explored: start "
                "the scenario with them declared (step: declare-blockers, attacking:, "
                "blocking:), or with fewer creatures",
                self.doc.span(("cards",)),
            )
        vocab = _vocabulary(cards_t, self.players, self.model, self.decks())
        hands = self.hands()
        history = tuple(self.step(i, text, cards_t) for i, text in enumerate(spec.history))
        claims = tuple(self.claim(i, entry, vocab) for i, entry in enumerate(spec.claims))
        return Scenario(
            path=self.doc.path,
            model=self.model,
            description=spec.description or "",
            players=self.players,
            turn=turn,
            phase=phase,
            life_points=spec.life_points,
            cards=cards_t,
            abilities=tuple(self.abilities),
            history=history,
            claims=claims,
            limits=spec.limits.model_dump(exclude_none=True),
            span=self.doc.span(()),
            step=step,
            until=until,
            allow_outside=self.allow_outside,
            names_only=self.names_only,
            hands=hands,
            decks=self.decks(),
            spells_cast=spec.spells_cast,
        )

    def spells_cast(self) -> None:
        """``spells-cast`` is a notion of a game whose spells storm counts (Magic)."""
        if self.spec.spells_cast and not self.model.one_at_a_time:
            raise self.error(
                f"'spells-cast' counts spells for storm, which {self.model.name} does not have",
                self.doc.span(("spells-cast",)),
            )

    def decks(self) -> tuple[int, int]:
        """The cards of each Deck (``deck: {A: 2}``; -1 for a Deck not counted)."""
        counts = [-1, -1]
        for name, count in self.spec.deck.items():
            counts[self.player(name, self.doc.key_span(("deck", name)))] = count
        return (counts[0], counts[1])

    def hands(self) -> tuple[int, int]:
        """The unlisted cards of each hand (``hands: {A: 3}``)."""
        counts = [0, 0]
        for name, count in self.spec.hands.items():
            counts[self.player(name, self.doc.key_span(("hands", name)))] = count
        return (counts[0], counts[1])

    def turn_point(self) -> tuple[str, str, str | None]:
        """The phase and step the scenario starts in, and the last step it goes through."""
        spec, model = self.spec, self.model
        steps = turn_steps(self.game, model)
        if spec.step is not None:
            where = self.doc.span(("step",))
            if spec.step not in steps:
                raise self.error(self.unknown_step(spec.step, steps), where)
            phase = self.game.phase_of(spec.step) or spec.step
            if spec.phase is not None and spec.phase != phase:
                raise self.error(
                    f"step '{spec.step}' is in phase '{phase}', not '{spec.phase}'", where
                )
        else:
            phase = spec.phase or (model.main_phases or model.phases)[0]
            if phase not in model.phases:
                raise self.error(
                    f"unknown phase '{phase}' (phases: {', '.join(model.phases)})",
                    self.doc.span(("phase",)),
                )
        step = spec.step or next((s for s in steps if (self.game.phase_of(s) or s) == phase), "")
        turns = spec.limits.turns or 1
        if turns > 1:
            # Over several turns a continuation goes to the End Phase of the last one.
            if not steps:
                raise self.error(
                    f"{self.game.title}'s turn has no steps to go through",
                    self.doc.span(("limits", "turns")),
                )
            if spec.until is not None and self.until(spec.until, step, ("until",)) != steps[-1]:
                raise self.error(
                    f"over several turns (limits: turns: {turns}) a continuation goes to the "
                    f"end of the last one: 'until' can only be '{steps[-1]}'",
                    self.doc.span(("until",)),
                )
            return phase, step, steps[-1]
        if spec.until is None:
            return phase, step, None
        return phase, step, self.until(spec.until, step, ("until",))

    def until(self, name: str, step: str, path: tuple[Any, ...]) -> str:
        """The last step a continuation goes through, for ``until: name`` (a step or a phase)."""
        steps = turn_steps(self.game, self.model)
        where = self.doc.span(path)
        if not steps:
            raise self.error(f"{self.game.title}'s turn has no steps to go through", where)
        last = [s for s in steps if s == name or self.game.phase_of(s) == name]
        if not last:
            raise self.error(self.unknown_step(name, steps), where)
        if steps.index(last[-1]) < steps.index(step):
            raise self.error(f"'{name}' comes before the scenario's step '{step}'", where)
        return last[-1]

    def step(self, index: int, raw: Any, cards: tuple[Card, ...]) -> Step:
        path = (*self.history_path, index)
        span = self.doc.span(path)
        if not isinstance(raw, str):
            raise self.error("a history step is a sentence such as 'A activates X'", span)
        origin = text_origin(span)
        return StepReader(
            raw, origin, self.players, cards, self.abilities, self.model, triggers=True
        ).read()

    def claim(self, index: int, entry: Any, vocab: Vocabulary) -> ClaimEntry:
        path: tuple[Any, ...] = ("claims", index)
        rules = turn = until = None
        history = None
        if isinstance(entry, str):
            text, expect, ident = entry, None, f"claim-{index + 1}"
        else:
            text, expect, ident = entry.claim, entry.expect, entry.id or f"claim-{index + 1}"
            rules, turn, until = entry.rules, entry.turn, entry.until
            history = index if entry.history is not None else None
            if until is not None:
                _, step, _ = self.turn_point()
                self.until(until, step, (*path, "until"))
            if turn is not None and turn not in self.players:
                raise self.error(
                    f"unknown player '{turn}' (players: {', '.join(self.players)})",
                    self.doc.span((*path, "turn")),
                )
            path = (*path, "claim")
        span = self.doc.span(path)
        origin = text_origin(span)
        formula = parse_claim(text, vocab, origin)
        return ClaimEntry(ident, text, formula, expect, origin, rules, turn, history, until)
