"""Scenarios: load a scenario file (cards, situation, history, claims) with positions."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from verifier.claims.ast import Formula
from verifier.claims.parse import Vocabulary, parse_claim
from verifier.effects.verb import verbs
from verifier.errors import ModelError, ScenarioError, Span
from verifier.games import Game, game
from verifier.io.bundled import bundled_libraries, is_name
from verifier.io.copies import copy_cards
from verifier.io.model import find_named_model, is_model_path, model_dirs, model_from
from verifier.io.paths import load_referenced, quoted, resolve_reference
from verifier.io.schema import (
    CONDITIONS,
    AbilityFile,
    CardFile,
    ConditionFile,
    ContinuousFile,
    CostFile,
    EffectFile,
    FilterFile,
    LibraryFile,
    ModeFile,
    RuleSystemFile,
    ScenarioFile,
    TriggerFile,
    validate,
)
from verifier.io.source import Document, data_document, load_document, parse_document
from verifier.io.storm import storm_ability, storm_copies
from verifier.io.tokens import token_cards
from verifier.rules import combat, strike
from verifier.rules.storm import storms
from verifier.spec.cards import (
    ALL_TYPES,
    EVENT_CONDITIONS,
    HAND_COSTS,
    HIDDEN,
    Ability,
    Card,
    Condition,
    Continuous,
    Cost,
    Effect,
    Filter,
    TriggerSpec,
    Zone,
)
from verifier.spec.mana import parse as parse_mana
from verifier.spec.rulesystem import RuleSystem
from verifier.spec.scenario import TOP, ClaimEntry, Scenario, Step

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
    reader = _StepReader(
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


@dataclass(frozen=True, slots=True)
class _Where:
    """Spans inside one card entry, which may come from the scenario or from a library."""

    doc: Document
    base: tuple[Any, ...]
    fallback: _Where | None = None

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


class _Loader:
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

    def scenario(self) -> Scenario:
        spec = self.spec
        turn = self.player(spec.turn, self.doc.span(("turn",)))
        phase, step, until = self.turn_point()
        external = self.library()
        library = dict(external)
        for name, entry in spec.cards.items():
            # A card may also copy another card of the scenario itself.
            library.setdefault(name, (entry, _Where(self.doc, ("cards", name))))
        cards = []
        for index, (name, given) in enumerate(spec.cards.items()):
            where = _Where(self.doc, ("cards", name))
            entry = given
            template_name = given.card or (name if name in external else None)
            if given.card is not None and (
                given.card not in library or (given.card == name and name not in external)
            ):
                # ``Raigeki: {card: Raigeki}`` names the library's card; a scenario's own card
                # cannot copy itself.
                others = [n for n in library if n != name]
                raise self.error(
                    f"no card '{given.card}' in the library{_close(given.card, others)}",
                    where.at("card"),
                )
            if template_name is not None:
                template, library_where = library[template_name]
                merged = template.model_dump(exclude_unset=True, by_alias=False)
                merged.update(given.model_dump(exclude_unset=True, by_alias=False))
                merged.pop("card", None)
                entry = CardFile.model_validate(merged)
                where = _Where(self.doc, ("cards", name), library_where)
            card = self.card(index, name, entry, where)
            cards.append(replace(card, printed=_printed(name, spec.cards)))
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

    def unknown_step(self, name: str, steps: tuple[str, ...]) -> str:
        if not steps:
            return f"{self.game.title}'s turn has no steps"
        return f"unknown step '{name}'{_close(name, list(steps))} (steps: {', '.join(steps)})"

    def copied(self, cards: tuple[Card, ...]) -> list[set[int]]:
        """For each ability, the spells its ``copy-spell`` parts may target (CR 707.10): every
        other card whose spell fits its target filter's card types and kinds."""
        out: list[set[int]] = []
        for ability in self.abilities:
            if not ability.uses("copy-spell"):
                out.append(set())
                continue
            if storms(ability):
                out.append({ability.card})  # storm copies its own spell
                continue
            flt = ability.target
            if flt is None or flt.zone is not Zone.STACK or ability.targets != 1:
                raise ScenarioError(
                    f"{ability.label} copies the spell it targets: it needs one target on the "
                    "stack (target: {zone: stack, kind: [instant, sorcery]})",
                    ability.span,
                )
            out.append(
                {
                    c.index
                    for c in cards
                    if c.index != ability.card
                    and not c.token
                    and c.type in flt.types
                    and (flt.kinds is None or c.kind in flt.kinds)
                    and any(self.abilities[a].card_activation for a in c.abilities)
                }
            )
        return out

    def check_zones(self, cards: tuple[Card, ...]) -> None:
        """The situation fits the rule system's zones: no more monsters, nor Spell and Trap
        Cards, on a player's field than that player has zones for."""
        limits = {
            "monster": (self.model.monster_zones, "Monster Zones"),
            "spell-trap": (self.model.spell_trap_zones, "Spell & Trap Zones"),
        }
        used: dict[tuple[int, str], int] = {}
        for card in cards:
            if card.zone is not Zone.FIELD:
                continue
            row = "monster" if card.type == "monster" else "spell-trap"
            zones, label = limits[row]
            used[(card.controller, row)] = count = used.get((card.controller, row), 0) + 1
            if zones is not None and count > zones:
                who = self.players[card.controller]
                raise self.error(
                    f"'{card.name}' does not fit: {who} has {zones} {label} under "
                    f"{self.model.name}, and this is card {count} there",
                    _Where(self.doc, ("cards", card.name)).key(),
                )

    # -- library -----------------------------------------------------------------------------

    def library(self) -> dict[str, tuple[CardFile, _Where]]:
        refs = self.spec.library
        if refs is None:
            return {}
        paths = [refs] if isinstance(refs, str) else refs
        found: dict[str, tuple[CardFile, _Where]] = {}
        for i, ref in enumerate(paths):
            where = ("library",) if isinstance(refs, str) else ("library", i)
            span = self.doc.span(where)
            shown = quoted(ref)
            if self.names_only and not is_name(ref):
                known = ", ".join(bundled_libraries()) or "none"
                raise self.error(
                    f"library {shown} names a file; here a scenario names a bundled card "
                    f"library by its name (bundled: {known})",
                    span,
                )
            path = (
                _bundled_library(ref, span)
                if is_name(ref)
                else resolve_reference(
                    ref,
                    self.folder,
                    "card library",
                    f"no card library {shown}",
                    span,
                    ScenarioError,
                    self.allow_outside,
                )
            )
            lib_doc, lib = load_referenced(
                path, "card library", shown, "a card library", LibraryFile, span, ScenarioError
            )
            for name, entry in lib.cards.items():
                found.setdefault(name, (entry, _Where(lib_doc, ("cards", name))))
        return found

    # -- cards ------------------------------------------------------------------------------

    def card(self, index: int, name: str, entry: CardFile, where: _Where) -> Card:
        model = self.model
        if entry.kind is None:
            raise self.error(f"card '{name}' needs a kind", where.key())
        kind = model.kinds.get(entry.kind)
        card_kinds = [k for k, v in model.kinds.items() if v.card is not None]
        if kind is None or kind.card is None:
            raise self.error(
                f"unknown card kind '{entry.kind}' under {model.name}"
                f"{_close(entry.kind, card_kinds, show=True)}",
                where.at("kind"),
            )
        if entry.controller is None and entry.owner is None:
            raise self.error(f"card '{name}' needs a controller (or an owner)", where.key())
        controller = self.player(
            entry.controller or entry.owner, where.at("controller" if entry.controller else "owner")
        )
        owner = self.player(entry.owner, where.at("owner")) if entry.owner else controller
        if entry.set is not None:
            if entry.zone is not None and self.word(entry.zone) != "field":
                raise self.error("a set card is on the field", where.at("zone"))
            zone = Zone.FIELD
            face_up = False
        else:
            default = "field" if kind.card in ("monster", "land") else "hand"
            zone = self.zone(entry.zone or default, where.at("zone"))
            face_up = entry.face != "down" if zone is Zone.FIELD else zone is not Zone.HAND
        if entry.face is not None and zone is not Zone.FIELD:
            raise self.error("only cards on the field have a face", where.at("face"))
        if entry.set is not None and kind.card == "monster" and entry.face == "up":
            raise self.error("a set card is face-down", where.at("face"))
        for key, said in (("attribute", "an Attribute"), ("monster-type", "a Type")):
            if getattr(entry, key.replace("-", "_")) is not None and kind.card != "monster":
                raise self.error(f"only a monster has {said}", where.at(key))
        archetypes = entry.archetype
        arche = frozenset([archetypes] if isinstance(archetypes, str) else archetypes or [])
        first = len(self.abilities)
        activation_keys = ("when", "cost", "target", "effect", "once", "speed")
        if kind.card in {"spell", "trap"}:
            if (entry.ability or entry.abilities) and not kind.stays:
                raise self.error(
                    f"a {kind.card} card is activated as a whole; write when/cost/target/effect "
                    "on the card, not abilities (only a card that stays on the field, a "
                    "Continuous, Equip or Field card, has effects of its own once face-up)",
                    where.key("ability" if entry.ability else "abilities"),
                )
            if entry.modes:
                for key in ("when", "target", "effect"):
                    if getattr(entry, key) is not None:
                        raise self.error(
                            f"a card with modes states '{key}' in each mode", where.key(key)
                        )
                self.check_mode_labels(entry.modes, where, ("modes",))
                for i, mode in enumerate(entry.modes):
                    sub = _Where(where.doc, (*where.base, "modes", i))
                    if where.fallback is not None and not where.has("modes"):
                        sub = _Where(where.fallback.doc, (*where.fallback.base, "modes", i))
                    self.abilities.append(self.card_activation(index, name, entry, sub, mode))
            else:
                self.abilities.append(self.card_activation(index, name, entry, where))
            # A Continuous, Equip or Field card's effects of its own, once it is face-up
            # on the field (Supply Squad, Ultimate Offering).
            self.card_effects(index, name, entry, where, of_card=True)
        else:
            for key in activation_keys:
                if getattr(entry, key) is not None:
                    raise self.error(
                        f"a monster's effects go under 'ability' or 'abilities', not '{key}'",
                        where.key(key),
                    )
            for key in ("no_response", "modes", "split_second"):
                if getattr(entry, key):
                    raise self.error(
                        "a monster's effects go under 'ability' or 'abilities'",
                        where.key(key.replace("_", "-")),
                    )
            self.card_effects(index, name, entry, where)
            if kind.cast and kind.speed is not None:
                # The card itself is cast from the hand (a creature spell): no target, no
                # effect of its own; resolved, it enters the field.
                self.abilities.append(
                    Ability(
                        index=len(self.abilities),
                        card=index,
                        label=name,
                        kind=entry.kind,
                        speed=kind.speed,
                        condition=None,
                        trigger=None,
                        costs=self.card_mana(entry, where),
                        target=None,
                        effects=(),
                        once=None,
                        no_response=False,
                        card_activation=True,
                        span=where.key(),
                    )
                )
        if entry.storm:
            self.storm(index, name, entry, kind.card, where)
        for added in self.abilities[first:]:
            if added.target is None and added.acts_on("target"):
                raise self.error(
                    f"{added.label}'s effect acts on its target, but it has none: add "
                    "'target:' (which cards it may target)",
                    added.span or where.key(),
                )
            aims = any(e.player == "target" for e in added.parts())
            filters = [f for f in (added.target, added.target2) if f is not None]
            if aims and not any(f.players for f in filters):
                raise self.error(
                    f"{added.label}'s effect acts on its target player ('player: target'), "
                    "but it targets no player: add 'player: any' (or you, opponent) to its "
                    "'target:'",
                    added.span or where.key(),
                )
        continuous = entry.continuous
        listed_c = [continuous] if not isinstance(continuous, list) else continuous
        cont = tuple(
            self.continuous(c, where, (i,) if isinstance(continuous, list) else ())
            for i, c in enumerate(listed_c)
            if c is not None
        )
        if (
            any(c.kind == "bind" for c in cont)
            and (not self.abilities or self.abilities[first].target is None)
            and kind.card != "monster"
        ):
            raise self.error(
                "'bind: target' needs the card to have a target", where.at("continuous")
            )
        if entry.dizzy:
            self.needs("dizzy", where.at("dizzy"))
        if entry.tapped and zone is not Zone.FIELD:
            raise self.error("only a permanent on the battlefield is tapped", where.at("tapped"))
        casts = kind.card in {"spell", "trap"} or (kind.cast and kind.speed is not None)
        if entry.mana is not None and not casts:
            raise self.error(
                f"a {kind.card} card of kind '{entry.kind}' is not cast, so it has no mana cost "
                "(a land is played: CR 305.1)",
                where.at("mana"),
            )
        if entry.position is not None or entry.attacked:
            key = "position" if entry.position is not None else "attacked"
            if kind.card != "monster" or zone is not Zone.FIELD:
                raise self.error(f"only a monster on the field has '{key}'", where.at(key))
        if entry.position == "attack" and not face_up:
            raise self.error("a face-down monster is in Defense Position", where.at("position"))
        if entry.speed_modifier is not None and model.slow_limit is None:
            raise self.error(f"{model.name} has no speed modifiers", where.at("speed-modifier"))
        faces = self.game.face_down_creatures
        if entry.morph is not None and (kind.card != "monster" or not faces):
            said = (
                "only a creature has a morph cost"
                if faces
                else f"{self.game.title} has no face-down creatures, so no morph cost"
            )
            raise self.error(f"{said} (CR 702.37a)", where.at("morph"))
        blocking = self.combatant(entry, kind.card, zone, where)
        self.strikes(entry, kind.card, where)
        return Card(
            index=index,
            name=name,
            kind=entry.kind,
            type=kind.card,
            owner=owner,
            controller=controller,
            zone=zone,
            face_up=face_up,
            set_this_turn=entry.set == "this-turn",
            dizzy=entry.dizzy or entry.tapped,
            atk=entry.atk if entry.atk is not None else entry.power,
            defense=entry.def_ if entry.def_ is not None else entry.toughness,
            defense_position=entry.position == "defense"
            or (entry.position is None and kind.card == "monster" and not face_up),
            attacked=entry.attacked,
            level=entry.level,
            archetypes=arche,
            speed_modifiers=(
                (entry.speed_modifier,)
                if isinstance(entry.speed_modifier, str)
                else tuple(entry.speed_modifier or ())
            ),
            stays=kind.stays,
            continuous=cont,
            abilities=tuple(range(first, len(self.abilities))),
            span=where.key(),
            cannot_be_negated=entry.cannot_be_negated,
            attacking=entry.attacking,
            blocking=blocking,
            first_strike=entry.first_strike,
            double_strike=entry.double_strike,
            colors=frozenset([entry.color] if isinstance(entry.color, str) else entry.color or []),
            attribute=entry.attribute,
            monster_type=entry.monster_type,
            morph=None if entry.morph is None else self.mana_cost(entry.morph, where.at("morph")),
            hidden=faces and kind.card == "monster" and zone is Zone.FIELD and not face_up,
        )

    def storm(self, index: int, name: str, entry: CardFile, card_type: str, where: _Where) -> None:
        """Magic: ``storm: true`` gives an instant or sorcery its storm ability (CR 702.40)."""
        at = where.at("storm")
        if not self.model.one_at_a_time:
            raise self.error(
                "storm copies a spell on a stack that resolves one object at a time; "
                f"{self.model.name} resolves whole chains",
                at,
            )
        kinds = self.model.kinds
        if card_type != "spell" or entry.kind is None or kinds[entry.kind].stays:
            raise self.error("only an instant or a sorcery has storm (CR 702.40a)", at)
        if entry.modes:
            raise self.error("storm on a card with modes is not supported", at)
        trigger = next((k for k in kinds.values() if k.trigger and k.effect), None)
        if trigger is None:
            raise self.error(f"{self.model.name} has no triggered abilities for storm", at)
        self.abilities.append(
            storm_ability(len(self.abilities), index, name, trigger.name, trigger.speed)
        )

    def combat_damage_object(self, cards: tuple[Card, ...], declared: bool) -> None:
        """Under combat damage on the stack, the object that carries it: a trigger of the
        game's, which triggers as the combat damage step begins (tied to the first attacker,
        or, for a combat declared on the way, to the first creature)."""
        attackers = [c for c in cards if c.attacking]
        if declared and not attackers:
            attackers = [c for c in cards if c.type == "monster"]
        if self.model.combat_damage != "stack" or not attackers:
            return
        kind = next((k for k in self.model.kinds.values() if k.trigger and k.effect), None)
        if kind is None:
            raise self.error(
                f"{self.model.name} puts combat damage on the stack: it needs a trigger kind",
                self.doc.span(("cards",)),
            )
        self.abilities.append(
            Ability(
                index=len(self.abilities),
                card=attackers[0].index,
                label="Combat damage",
                kind=kind.name,
                speed=kind.speed,
                condition=None,
                trigger=TriggerSpec(frozenset(), True, None, None, False, "if"),
                costs=(),
                target=None,
                effects=(Effect("combat-damage"),),
                once=None,
                no_response=False,
                card_activation=False,
                combat_damage=True,
            )
        )

    def combatant(self, entry: CardFile, card_type: str | None, zone: Zone, where: _Where) -> int:
        """Magic: check ``attacking`` and ``blocking``; the index of the attacker it blocks."""
        if not entry.attacking and entry.blocking is None:
            return -1
        key = "attacking" if entry.attacking else "blocking"
        if self.model.combat_damage is None:
            raise self.error(f"{self.model.name} has no combat ('{key}')", where.at(key))
        if card_type != "monster" or zone is not Zone.FIELD:
            raise self.error(f"only a creature on the battlefield has '{key}'", where.at(key))
        if entry.blocking is None:
            return -1
        names = list(self.spec.cards)
        if entry.blocking not in names:
            raise self.error(f"unknown card '{entry.blocking}'", where.at("blocking"))
        blocked = self.spec.cards[entry.blocking]
        if not blocked.attacking:
            raise self.error(f"'{entry.blocking}' is not attacking", where.at("blocking"))
        return names.index(entry.blocking)

    def first_strike_step(
        self, cards: tuple[Card, ...], step: str | None, until: str | None
    ) -> None:
        """A scenario at (or until) the first-strike combat damage step has a creature with
        first strike or double strike: without one the turn never goes through it."""
        if any(c.first_strike or c.double_strike for c in cards):
            return
        for key, name in (("step", step), ("until", until)):
            if name == strike.FIRST and getattr(self.spec, key) == name:
                raise self.error(
                    f"there is a {strike.FIRST} step only when an attacking or blocking "
                    "creature has first strike or double strike (CR 510.4): no card here has "
                    "'first-strike' or 'double-strike'",
                    self.doc.span((key,)),
                )

    def strikes(self, entry: CardFile, card_type: str | None, where: _Where) -> None:
        """Magic: check ``first-strike`` and ``double-strike``, keyword abilities of a
        creature that change when it deals combat damage (CR 702.7, 702.4, 510.4)."""
        for key, rule in (("first-strike", "702.7"), ("double-strike", "702.4")):
            if not getattr(entry, key.replace("-", "_")):
                continue
            if self.model.combat_damage is None:
                raise self.error(f"{self.model.name} has no combat ('{key}')", where.at(key))
            if card_type != "monster":
                raise self.error(
                    f"only a creature has {key.replace('-', ' ')}: it changes when a creature "
                    f"deals combat damage (CR {rule})",
                    where.at(key),
                )

    def continuous(self, spec: ContinuousFile, where: _Where, at: tuple[Any, ...]) -> Continuous:
        """One continuous effect: a negation, a binding, a lock or a protection."""
        path = ("continuous", *at)
        if spec.negate_effects or spec.bind:
            if spec.by is not None:
                raise self.error(
                    "'by' goes with cannot-activate, unaffected or untargetable",
                    where.key(*path, "by"),
                )
            if spec.negate_effects:
                return Continuous("negate-effects", spec.negate_effects)
            return Continuous("bind", "target")
        by = spec.by or "any"
        if spec.cannot_activate is not None:
            kinds = _listed(spec.cannot_activate)
            if not kinds:
                raise self.error(
                    "cannot-activate needs at least one kind (spell, trap, monster-effect, "
                    "spell-trap, card)",
                    where.at(*path, "cannot-activate"),
                )
            types: set[str] = set()
            for k in kinds:
                types |= _types(k)
            return Continuous("cannot-activate", ",".join(kinds), frozenset(types), by)
        if by == "you":
            key = "unaffected" if spec.unaffected is not None else "untargetable"
            raise self.error(
                f"{key} protects from the opponent's effects or anyone's: 'by' takes "
                "opponent or any",
                where.at(*path, "by"),
            )
        if spec.unaffected is not None:
            sources = _listed(spec.unaffected)
            if not sources:
                raise self.error(
                    "unaffected needs at least one kind (spells, traps, monsters, other-cards)",
                    where.at(*path, "unaffected"),
                )
            types = set()
            for k in sources:
                types |= set(ALL_TYPES) if k == "other-cards" else {k.rstrip("s")}
            return Continuous("unaffected", ",".join(sources), frozenset(types), by)
        flt = spec.untargetable
        protected = (
            None if flt is None or isinstance(flt, str) else self.filter(flt, where, "continuous")
        )
        what = "this" if protected is None else "filter"
        return Continuous("untargetable", what, by=by, filter=protected)

    def speed_of(self, kind_name: str, given: str | int | None, where: _Where) -> int | None:
        model = self.model
        if model.speed_from == "kind":
            if given is not None:
                raise self.error(
                    f"under {model.name} the speed comes from the kind; remove 'speed'",
                    where.at("speed"),
                )
            return model.kinds[kind_name].speed
        if given is None:
            raise self.error(
                f"under {model.name} every spell and ability states its speed "
                f"({', '.join(model.speeds)})",
                where.key(),
            )
        if str(given) not in model.speeds:
            raise self.error(
                f"unknown speed '{given}' (speeds: {', '.join(model.speeds)})", where.at("speed")
            )
        return model.speeds.index(str(given))

    def targets(self, count: int, target: object, where: _Where) -> int:
        """How many targets an ability chooses: more than one only with a 'target' filter."""
        if count > 1 and target is None:
            raise self.error(
                f"'targets: {count}' needs 'target' (what each target must be)",
                where.at("targets"),
            )
        return count

    def target_filters(
        self, spec: FilterFile | list[FilterFile] | None, count: int, where: _Where
    ) -> dict[str, Any]:
        """An ability's ``target``, ``target2`` and ``targets``: one filter (for each of
        ``count`` targets), or a list of two, one per target (CR 115.1)."""
        if not isinstance(spec, list):
            flt = self.filter(spec, where, "target") if spec else None
            return {"target": flt, "targets": self.targets(count, spec, where)}
        if count != 1:
            raise self.error(
                "a list of two target filters is two targets already; leave out 'targets'",
                where.at("targets"),
            )
        first, second = (self.filter(f, where, "target") for f in spec)
        return {"target": first, "target2": second, "targets": 2}

    def check_mode_labels(
        self, modes: list[ModeFile], where: _Where, path: tuple[Any, ...]
    ) -> None:
        seen: set[str] = set()
        for i, mode in enumerate(modes):
            if mode.label in seen:
                raise self.error(
                    f"two modes are called '{mode.label}'", where.at(*path, i, "label")
                )
            seen.add(mode.label)

    def card_effects(
        self, index: int, name: str, entry: CardFile, where: _Where, of_card: bool = False
    ) -> None:
        """The effects a card lists under ``ability`` or ``abilities``, each mode apart;
        ``of_card``: a Spell/Trap's, besides its own activation."""
        listed = [entry.ability] if entry.ability else list(entry.abilities or [])
        base = "ability" if entry.ability else "abilities"
        for i, ability in enumerate(listed):
            sub = _Where(where.doc, where.base + ((base,) if entry.ability else (base, i)))
            if where.fallback is not None and not where.has(base):
                fb = where.fallback
                sub = _Where(fb.doc, fb.base + ((base,) if entry.ability else (base, i)))
            if ability.modes:
                self.check_mode_labels(ability.modes, sub, ("modes",))
                for m, mode in enumerate(ability.modes):
                    at = _Where(sub.doc, (*sub.base, "modes", m))
                    self.abilities.append(
                        self.ability(index, name, ability, at, len(listed), i, mode, of_card)
                    )
            else:
                self.abilities.append(
                    self.ability(index, name, ability, sub, len(listed), i, of_card=of_card)
                )

    def card_activation(
        self, card: int, name: str, entry: CardFile, where: _Where, mode: ModeFile | None = None
    ) -> Ability:
        """The activation of a Spell or Trap Card (one per mode, for a card with modes)."""
        assert entry.kind is not None
        spec: CardFile | ModeFile = entry if mode is None else mode
        costs = self.costs(entry.cost, where)
        if mode is not None and mode.cost is not None:
            costs = self.costs([*_listed(entry.cost), *_listed(mode.cost)], where)
        costs += self.card_mana(entry, where)
        for cost in costs:
            if cost.this:
                raise self.error(
                    f"a {self.model.kinds[entry.kind].card} card does not pay "
                    f"'{cost.kind}: this' (a monster's effect may)",
                    where.at("cost"),
                )
        return Ability(
            index=len(self.abilities),
            card=card,
            label=name if mode is None else f"{name} ({mode.label})",
            kind=entry.kind,
            speed=self.speed_of(entry.kind, entry.speed, where),
            condition=self.condition(spec.when, where) if spec.when else None,
            trigger=None,
            costs=costs,
            effects=self.effects(spec.effect, where, "effect"),
            **self.target_filters(spec.target, entry.targets, where),
            once=entry.once,
            no_response=entry.no_response,
            card_activation=True,
            span=where.key(),
            mode=None if mode is None else mode.label,
            modes_of=-1 if mode is None else 0,
            cannot_be_negated=entry.cannot_be_negated,
            split_second=entry.split_second,
        )

    def ability(
        self,
        card: int,
        name: str,
        spec: AbilityFile,
        where: _Where,
        count: int,
        i: int,
        mode: ModeFile | None = None,
        of_card: bool = False,
    ) -> Ability:
        """An effect of a card; ``of_card``: of a Spell/Trap that has its own activation."""
        model = self.model
        kind = model.kinds.get(spec.type)
        effect_kinds = [k for k, v in model.kinds.items() if v.effect]
        if kind is None or not kind.effect:
            raise self.error(
                f"unknown effect type '{spec.type}' under {model.name}"
                f"{_close(spec.type, effect_kinds, show=True)}",
                where.at("type"),
            )
        label = name if count == 1 else f"{name} ({spec.label or i + 1})"
        if of_card:
            # Told apart from the card's own activation, which has the card's name.
            own = "effect" if count == 1 else f"effect {i + 1}"
            label = f"{name} ({spec.label or own})"
        if mode is not None:
            label = f"{name} ({mode.label})"
            for key in ("when", "target", "effect"):
                if getattr(spec, key) is not None:
                    raise self.error(
                        f"an effect with modes states '{key}' in each mode", where.key(key)
                    )
        trigger = None
        if kind.trigger:
            if spec.trigger is None:
                raise self.error(
                    f"a {spec.type} effect needs 'trigger' (what makes it trigger)", where.key()
                )
            trigger = self.trigger(spec.trigger, spec, where)
        elif spec.trigger is not None:
            raise self.error(
                f"only trigger effects have 'trigger'; '{spec.type}' is not one",
                where.key("trigger"),
            )
        elif spec.optional:
            raise self.error(
                "only trigger effects are optional or mandatory", where.key("optional")
            )
        if spec.mandatory and (kind.trigger or (spec if mode is None else mode).when is None):
            raise self.error(
                "only a Quick Effect with an activation condition ('when') is mandatory (a "
                "trigger effect is mandatory unless 'optional: true')",
                where.key("mandatory"),
            )
        part: AbilityFile | ModeFile = spec if mode is None else mode
        costs = self.costs(spec.cost, where)
        if mode is not None and mode.cost is not None:
            costs = self.costs([*_listed(spec.cost), *_listed(mode.cost)], where)
        origin = self.zone(spec.from_, where.at("from"))
        self.check_own_costs(costs, origin, where)
        return Ability(
            index=len(self.abilities),
            card=card,
            label=label,
            kind=spec.type,
            speed=self.speed_of(spec.type, spec.speed, where),
            condition=self.condition(part.when, where) if part.when else None,
            trigger=trigger,
            costs=costs,
            effects=self.effects(part.effect, where, "effect"),
            **self.target_filters(part.target, spec.targets, where),
            once=spec.once,
            no_response=spec.no_response,
            card_activation=False,
            span=where.key(),
            origin=origin,
            mode=None if mode is None else mode.label,
            modes_of=-1 if mode is None else i + 1,
            cannot_be_negated=spec.cannot_be_negated,
            mandatory=spec.mandatory,
        )

    def check_own_costs(self, costs: tuple[Cost, ...], origin: Zone, where: _Where) -> None:
        """A card pays a cost with itself only from where that cost takes it."""
        for cost in costs:
            if cost.this and cost.kind in HAND_COSTS and origin is not Zone.HAND:
                raise self.error(
                    f"'{cost.kind}: this' needs the effect to be activated from the hand "
                    "('from: hand')",
                    where.at("cost"),
                )
            if cost.this and cost.kind == "tribute" and origin is not Zone.FIELD:
                raise self.error(
                    "'tribute: this' needs the effect to be activated on the field",
                    where.at("cost"),
                )

    def trigger(self, spec: TriggerFile, ability: AbilityFile, where: _Where) -> TriggerSpec:
        events = [spec.event] if isinstance(spec.event, str) else spec.event
        this = spec.card == "this"
        flt = None if isinstance(spec.card, str) else self.filter(spec.card, where, "trigger")
        if ("step-begins" in events) != (spec.step is not None):
            raise self.error(
                "event 'step-begins' and 'step' go together ('at the beginning of' a step)",
                where.at("trigger"),
            )
        if spec.step is not None:
            steps = turn_steps(self.game, self.model)
            if spec.step not in steps:
                raise self.error(self.unknown_step(spec.step, steps), where.at("trigger"))
        return TriggerSpec(
            events=frozenset(events),
            this_card=this,
            filter=flt,
            from_zone=None if spec.from_ == "any" else self.zone(spec.from_, where.at("trigger")),
            optional=ability.optional,
            wording=ability.wording,
            step=spec.step,
            whose=spec.whose,
        )

    def filter(self, spec: FilterFile, where: _Where, key: str) -> Filter:
        kinds = [spec.card] if isinstance(spec.card, str) else spec.card
        types: set[str] = set()
        for k in kinds:
            if k not in CARD_TYPES and k not in self.game.words and k not in self.game.card_types:
                own = [w for w, v in self.game.words.items() if v in CARD_TYPES]
                own += sorted(t for t in self.game.card_types if t not in CARD_TYPES)
                raise self.error(
                    f"{self.game.title} has no card type '{k}' (card types: "
                    f"{', '.join([*CARD_TYPES, *own])})",
                    where.at(key),
                )
            types |= _types(self.word(k))
        if spec.dizzy is not None:
            self.needs("dizzy", where.at(key))
        wanted = None
        if spec.kind is not None:
            wanted = frozenset([spec.kind] if isinstance(spec.kind, str) else spec.kind)
            for name in sorted(wanted):
                if name not in self.model.kinds or self.model.kinds[name].card is None:
                    known = [k for k, v in self.model.kinds.items() if v.card is not None]
                    raise self.error(
                        f"unknown card kind '{name}' under {self.model.name}{_close(name, known)}",
                        where.at(key, "kind"),
                    )
        return Filter(
            types=frozenset(types),
            zone=self.zone(spec.zone, where.at(key)) if spec.zone else None,
            face=None if spec.face in (None, "any") else spec.face,
            controller=spec.controller,
            other=spec.other,
            atk_at_least=spec.atk_at_least,
            atk_at_most=spec.atk_at_most,
            archetype=spec.archetype,
            color=spec.color,
            dizzy=spec.dizzy,
            position=spec.position,
            attacking=spec.attacking,
            direct=spec.direct,
            kinds=wanted,
            level_at_least=spec.level_at_least,
            level_at_most=spec.level_at_most,
            def_at_least=spec.def_at_least,
            def_at_most=spec.def_at_most,
            attributes=_one_or_more(spec.attribute),
            monster_types=_one_or_more(spec.monster_type),
            **self.players_of(spec, where, key),
        )

    def players_of(self, spec: FilterFile, where: _Where, key: str) -> dict[str, Any]:
        """A target filter's players (CR 115.1): with card keys, "any target"; alone,
        "target player" (no card fits)."""
        if spec.player is None:
            return {}
        if key != "target":
            raise self.error(
                "'player' says which players a spell or ability may target; only a "
                "'target' filter takes it",
                where.at(key, "player"),
            )
        return {"players": spec.player, "cards": bool(spec.model_fields_set - {"player"})}

    def condition(self, spec: ConditionFile, where: _Where) -> Condition:
        phases, turn = self.phases_of(spec.during, where), spec.turn or "any"
        if all(getattr(spec, k) is None for k in CONDITIONS):
            return Condition("during", phases=phases, turn=turn)
        return replace(self.condition_kind(spec, where), phases=phases, turn=turn)

    def phases_of(self, during: str | None, where: _Where) -> frozenset[str] | None:
        """The phases ``during:`` names: ``main-phase`` (the rule system's Main Phases) or one
        of its phases."""
        if during is None:
            return None
        if during == "main-phase":
            return frozenset(self.model.main_phases)
        if during not in self.model.phases:
            names = ["main-phase", *self.model.phases]
            raise self.error(
                f"unknown phase '{during}' in 'during'{_close(during, names, show=True)}",
                where.at("when", "during"),
            )
        return frozenset({during})

    def condition_kind(self, spec: ConditionFile, where: _Where) -> Condition:
        if spec.activates is not None:
            kinds = [spec.activates] if isinstance(spec.activates, str) else spec.activates
            types: set[str] = set()
            for k in kinds:
                types |= _types(k)
            known = [v.name for v in verbs()]
            for name in spec.includes or ():
                verb, _, zone = name.partition(" from ")
                if verb not in known:
                    raise self.error(
                        f"unknown effect '{verb}' in 'includes'{_close(verb, known, show=True)}",
                        where.at("when", "includes"),
                    )
                if zone and zone.upper() not in Zone.__members__:
                    zones = [z.name.lower() for z in Zone if z is not Zone.NONE]
                    raise self.error(
                        f"unknown zone '{zone}' in 'includes' (zones: {', '.join(zones)})",
                        where.at("when", "includes"),
                    )
            would = spec.would_destroy
            return Condition(
                "activates",
                frozenset(types),
                None,
                spec.by,
                spec.how,
                includes=frozenset(spec.includes or ()),
                on_field=spec.on_field,
                would_destroy=(
                    Filter(types=frozenset(_types(would)))
                    if isinstance(would, str)
                    else None
                    if would is None
                    else self.filter(would, where, "when")
                ),
                at_least=spec.at_least,
            )
        key = next(k for k in CONDITIONS if k != "activates" and getattr(spec, k) is not None)
        kind = key.replace("_", "-")
        monster = getattr(spec, key)
        if kind in EVENT_CONDITIONS:
            for given in ("by", "how"):
                if getattr(spec, given) != "any":
                    raise self.error(
                        f"'{given}' does not go with '{kind}' (a filter's 'controller' says "
                        "whose card)",
                        where.at("when", given),
                    )
            if kind == "destroyed-by-battle" and not self.model.battle:
                raise self.error(f"{self.model.name} has no Battle Phase", where.at("when"))
            flt = (
                Filter(types=frozenset(_types(monster)))
                if isinstance(monster, str)
                else self.filter(monster, where, "when")
            )
            return Condition(kind, flt.types, flt)
        if kind == "would-be-summoned" and not self.model.summon_negation:
            raise self.error(f"{self.model.name} has no Summon negation window", where.at("when"))
        if kind in BATTLE_CONDITIONS and not self.model.battle:
            raise self.error(f"{self.model.name} has no Battle Phase", where.at("when"))
        flt = (
            Filter(types=frozenset({"monster"}))
            if isinstance(monster, str)
            else self.filter(monster, where, "when")
        )
        return Condition(kind, frozenset({"monster"}), flt, spec.by, spec.how)

    def costs(self, spec: CostFile | list[CostFile] | None, where: _Where) -> tuple[Cost, ...]:
        listed = [] if spec is None else [spec] if not isinstance(spec, list) else spec
        out = []
        for cost in listed:
            if cost.tribute == "this":
                out.append(Cost("tribute", this=True))
            elif cost.tribute is not None:
                if isinstance(cost.tribute, str):
                    flt = Filter(types=frozenset({"monster"}), zone=Zone.FIELD, controller="you")
                else:
                    flt = self.filter(cost.tribute, where, "cost")
                    if flt.zone not in (None, Zone.FIELD):
                        raise self.error(
                            "a Tributed (sacrificed) card comes from the field", where.at("cost")
                        )
                    # Your own monster on the field unless the filter says whose (Magic
                    # 701.17a: only a permanent you control can be sacrificed).
                    said = "controller" in cost.tribute.model_fields_set
                    flt = replace(
                        flt, zone=Zone.FIELD, controller=flt.controller if said else "you"
                    )
                out.append(Cost("tribute", flt))
            elif cost.discard is not None or cost.banish is not None:
                verb = "discard" if cost.discard is not None else "banish"
                value = cost.discard if cost.discard is not None else cost.banish
                if value == "this":
                    out.append(Cost(verb, this=True))
                    continue
                home = Zone.HAND if verb == "discard" else Zone.GRAVEYARD
                flt = (
                    Filter()
                    if not isinstance(value, FilterFile)
                    else self.filter(value, where, "cost")
                )
                if verb == "discard" and flt.zone not in (None, Zone.HAND):
                    raise self.error("a discarded card comes from the hand", where.at("cost"))
                # A cost is paid with the player's own cards, from the hand (a discard) or,
                # unless the filter says otherwise, the graveyard.
                flt = replace(flt, zone=flt.zone or home, controller="you")
                # Any card of the hand will do: one the scenario does not list may pay it.
                anything = Filter(zone=Zone.HAND, controller="you")
                out.append(Cost(verb, flt, hidden=flt == anything))
            elif cost.send_to_graveyard is not None:
                out.append(Cost("send-to-graveyard", this=True))
            elif cost.pay_lp is not None:
                out.append(Cost("pay-lp", None, None if cost.pay_lp == "half" else cost.pay_lp))
            elif cost.dizzy is not None:
                self.needs("dizzy", where.at("cost"))
                out.append(Cost("dizzy"))
            elif cost.tap is not None:
                out.append(Cost("dizzy"))  # Magic's {T}: the state's dizzy, in its words
            elif cost.mana is not None:
                out.append(self.mana_cost(cost.mana, where.at("cost")))
        if sum(1 for c in out if c.chooses) > 1:
            raise self.error(
                "at most one cost that chooses a card (tribute, discard or banish)",
                where.at("cost"),
            )
        return tuple(out)

    def card_mana(self, entry: CardFile, where: _Where) -> tuple[Cost, ...]:
        """The mana cost of casting the card (``mana:``), as a cost of its activation."""
        if entry.mana is None:
            return ()
        return (self.mana_cost(entry.mana, where.at("mana")),)

    def mana_cost(self, text: str, span: Span) -> Cost:
        """A mana cost (``{1}{U}{U}``): its generic part and its coloured symbols."""
        parsed = parse_mana(text)
        if parsed is None:
            raise self.error(
                f"'{text}' is not a mana cost: write symbols such as {{1}}{{U}}{{U}} or 2G "
                "(a number for generic mana; W, U, B, R, G, C)",
                span,
            )
        generic, counts = parsed
        return Cost("mana", amount=generic, mana=counts)

    def effects(
        self,
        spec: EffectFile | list[EffectFile] | None,
        where: _Where,
        key: str,
        path: tuple[Any, ...] | None = None,
    ) -> tuple[Effect, ...]:
        listed = [] if spec is None else [spec] if not isinstance(spec, list) else spec
        path = (key,) if path is None else path
        if listed and listed[0].simultaneous:
            first = (*path, 0) if isinstance(spec, list) else path
            raise self.error(
                "'simultaneous' joins a part to the part before it; the first part has none",
                where.key(*first, "simultaneous"),
            )
        return tuple(
            self.effect(e, where, key, (*path, i) if isinstance(spec, list) else path)
            for i, e in enumerate(listed)
        )

    def effect(
        self, spec: EffectFile, where: _Where, key: str, path: tuple[Any, ...] | None = None
    ) -> Effect:
        verb = next(v for v in verbs() if getattr(spec, v.key) is not None)
        loading = _Loading(self, where, key)
        fields = verb.load(getattr(spec, verb.key), spec, loading)
        if not verb.branches and (spec.then is not None or spec.otherwise is not None):
            takers = " and ".join(v.name for v in verbs() if v.branches)
            raise loading.fail(f"only {takers} takes then/otherwise")
        for need in verb.needs:
            if not need.holds(self.model):
                raise loading.fail(need.message.format(verb=verb.name, model=self.model.name))
        if spec.cannot_be_regenerated and verb.name != "destroy":
            raise loading.fail("only what 'destroy' destroys 'cannot-be-regenerated'")
        if fields.get("obj") == "chosen":
            if spec.filter is None:
                raise loading.fail(
                    "'chosen' needs a 'filter': the cards its controller may choose from"
                )
            if self.model.immediate or self.model.instant:
                raise loading.fail(
                    f"'chosen' (a card chosen as the effect resolves) is not supported under "
                    f"{self.model.name}, where some effects resolve as they are activated"
                )
        return Effect(
            verb=verb.name,
            of=spec.of,
            filter=self.filter(spec.filter, where, key) if spec.filter else None,
            to=Zone.named(self.word(spec.to)) if spec.to else None,
            player=spec.player,
            heads_at_least=spec.heads_at_least,
            then=self.effects(spec.then, where, key, None if path is None else (*path, "then")),
            otherwise=self.effects(
                spec.otherwise, where, key, None if path is None else (*path, "otherwise")
            ),
            simultaneous=spec.simultaneous,
            **fields,
        )

    # -- history ----------------------------------------------------------------------------

    def step(self, index: int, raw: Any, cards: tuple[Card, ...]) -> Step:
        path = (*self.history_path, index)
        span = self.doc.span(path)
        if not isinstance(raw, str):
            raise self.error("a history step is a sentence such as 'A activates X'", span)
        origin = _text_origin(span)
        return _StepReader(
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
        origin = _text_origin(span)
        formula = parse_claim(text, vocab, origin)
        return ClaimEntry(ident, text, formula, expect, origin, rules, turn, history, until)


@dataclass(frozen=True, slots=True)
class _Loading:
    """What a verb's loader may ask while one effect part is loaded: an error placed at it."""

    loader: _Loader
    where: _Where
    key: str

    def fail(self, message: str) -> ScenarioError:
        return self.loader.error(message, self.where.at(self.key))


def _listed(spec: Any) -> list[Any]:
    """A key that takes one entry or a list of them, as a list."""
    return [] if spec is None else spec if isinstance(spec, list) else [spec]


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


BATTLE_CONDITIONS = frozenset({"attack-declared", "damage-step", "damage-calculation"})


CARD_TYPES = ("monster", "spell", "trap", "spell-trap", "card")
"""The card types a filter names in every game (a game may have its own words for them)."""


def _types(kind: str) -> set[str]:
    if kind in {"card"}:
        return set(ALL_TYPES)
    if kind == "spell-trap":
        return {"spell", "trap"}
    if kind == "monster-effect":
        return {"monster"}
    return {kind}


def _bundled_library(name: str, span: Span | None) -> Path:
    """The card library shipped with the package under ``name`` (``library: yugioh``)."""
    libraries = bundled_libraries()
    if name in libraries:
        return libraries[name]
    known = ", ".join(libraries) or "none"
    hint = _close(name, list(libraries))
    raise ScenarioError(
        f"no bundled card library {quoted(name)} (bundled: {known}){hint}; "
        "a library file is named with its .yaml suffix",
        span,
    )


def _one_or_more(value: str | Sequence[str] | None) -> frozenset[str] | None:
    """A filter key that names one value or a list of them (None: the key is absent)."""
    if value is None:
        return None
    return frozenset([value] if isinstance(value, str) else value)


def _close(word: str, choices: list[str], show: bool = False) -> str:
    import difflib

    close = difflib.get_close_matches(word, choices, n=1)
    if close:
        return f"; did you mean '{close[0]}'?"
    if show and choices:
        return f" (known: {', '.join(choices)})"
    return ""


def _text_origin(span: Span) -> Span:
    """Where a scalar's text starts: one column after an opening quote."""
    text = span.line_text() or ""
    if 0 < span.col <= len(text) and text[span.col - 1] in "\"'":
        return span.shifted(1)
    return span


class _StepReader:
    """Reads one history sentence: who does what, with which card, target and tributes."""

    ACTIVATE = ("activates", "chains", "uses", "casts", "plays", "puts")
    PASS = ("passes", "does not respond", "does nothing")

    def __init__(
        self,
        text: str,
        origin: Span,
        players: tuple[str, str],
        cards: tuple[Card, ...],
        abilities: list[Ability],
        model: RuleSystem,
        triggers: bool = False,
    ) -> None:
        self.triggers = triggers
        self.text = text
        self.origin = origin
        self.players = players
        self.cards = cards
        self.abilities = abilities
        self.model = model
        self.names = sorted((c.name for c in cards), key=len, reverse=True)

    def error(self, message: str, offset: int = 0) -> ScenarioError:
        return ScenarioError(message, self.origin.shifted(offset))

    def read(self) -> Step:
        text = self.text.rstrip()
        if re.fullmatch(r"(the )?timer runs out|65 seconds pass( without change)?", text):
            return Step("timer", None, text=text, span=self.origin)
        moves = re.fullmatch(r"the turn moves (?:on )?to (\S+)", text)
        if moves:
            return Step("advance", None, how=moves.group(1), text=text, span=self.origin)
        whole, chosen = text, None
        choosing = re.search(r" \(choosing ", text)
        if choosing is not None and text.endswith(")") and "resolves" in text[: choosing.start()]:
            # "... resolves (choosing X)": the card its effect chooses as it resolves.
            name = text[choosing.end() : -1]
            found = [c.index for c in self.cards if c.name == name]
            if not found:
                close = _close(name, [c.name for c in self.cards])
                raise self.error(f"unknown card '{name}'{close}", choosing.end())
            chosen, text = found[0], text[: choosing.start()]
        resolves = re.fullmatch(r"the (?:chain|stack) resolves(?: \(coins (succeed|fail)\))?", text)
        if resolves:
            how = {"succeed": "heads", "fail": "tails"}.get(resolves.group(1) or "", "")
            return Step("resolve", None, card=chosen, how=how, text=whole, span=self.origin)
        top = re.fullmatch(
            r"the top (?:object|link|of the (?:stack|chain))(?: of the (?:stack|chain))? "
            r"resolves(?: \(coins (succeed|fail)\))?",
            text,
        )
        if top:
            # The link on top when the step is replayed (Magic: the top object of the stack).
            how = {"succeed": "heads", "fail": "tails"}.get(top.group(1) or "", "")
            return Step(
                "resolve", None, card=chosen, how=how, text=whole, span=self.origin, link=TOP
            )
        one = re.fullmatch(
            r"[Cc]hain [Ll]ink (\d{1,4}) resolves(?: \(coins (succeed|fail)\))?", text
        )
        if one:
            how = {"succeed": "heads", "fail": "tails"}.get(one.group(2) or "", "")
            link = int(one.group(1))
            if link < 1:
                raise self.error("Chain Links are numbered from 1", len("Chain Link "))
            return Step(
                "resolve", None, card=chosen, how=how, text=whole, span=self.origin, link=link
            )
        if chosen is not None:
            raise self.error("only a resolution chooses ('the chain resolves (choosing X)')")
        head, _, rest = text.partition(" ")
        if head not in self.players:
            raise self.error(
                f"a history step starts with a player ({' or '.join(self.players)}), not '{head}'"
            )
        player = self.players.index(head)
        offset = len(head) + 1
        if rest in self.PASS:
            return Step("pass", player, text=text, span=self.origin)
        if rest in ("presses resolve", "presses ability resolve"):
            return Step("press", player, text=text, span=self.origin)
        declines = re.match(r"(?:declines|does not activate) ", rest)
        if declines:
            return self.decline(player, offset + declines.end(), text)
        combat = not self.model.battle and self.model.combat_damage is not None
        if combat and re.match(r"(attacks|blocks) |declares no (attackers|blockers)$", rest):
            return self.declaration(player, offset, rest, text)
        attack = re.match(r"attacks (directly )?with ", rest) or re.match(r"attacks ", rest)
        if attack:
            return self.attack(player, offset, rest, text)
        if rest.startswith("turns ") and rest.endswith(" face up"):
            return self.unmorph(player, offset + len("turns "), text)
        if rest.startswith("sets "):
            card, end = self.card_at(offset + len("sets "))
            tributes, (target, _), end = self.clauses(end)
            if target is not None:
                raise self.error("a Set has no target", end)
            return Step(
                "summon",
                player,
                card=card,
                tributes=tributes,
                how="set",
                text=text,
                span=self.origin,
            )
        summon = re.match(r"(?:(normal|tribute|special|flip) )?summons ", rest)
        if summon:
            how = summon.group(1) or "normal"
            start = offset + summon.end()
            card, end = self.card_at(start)
            tributes, (target, _), end = self.clauses(end)
            if target is not None:
                raise self.error("a summon has no target", end)
            return Step(
                "summon", player, card=card, tributes=tributes, how=how, text=text, span=self.origin
            )
        for verb in self.ACTIVATE:
            if rest.startswith(verb + " "):
                start = offset + len(verb) + 1
                card, end = self.card_at(start)
                if self.cards[card].type == "land" and verb == "plays":
                    return self.land(player, card, end, text)
                ability, end, modes = self.which_ability(card, end, start, verb == "casts")
                if verb == "puts" and self.abilities[ability].trigger is None:
                    raise self.error(
                        f"'puts' puts a waiting triggered ability or a copy onto the stack; "
                        f"{self.cards[card].name} is cast or activated",
                        start,
                    )
                tributes, (target, second), end = self.clauses(end)
                return Step(
                    "activate",
                    player,
                    card=card,
                    ability=ability,
                    target=target,
                    tributes=tributes,
                    text=text,
                    span=self.origin,
                    target2=second,
                    modes=modes,
                )
        raise self.error(
            "cannot read this step; write 'A activates CARD [targeting CARD] "
            "[tributing CARD]', 'A passes', 'A summons CARD', 'A presses resolve' or "
            "'the chain resolves'",
            offset,
        )

    def unmorph(self, player: int, start: int, text: str) -> Step:
        """'A turns Exalted Angel face up': Magic's special action (CR 702.37e, 116.2b)."""
        card, end = self.card_at(start)
        if self.text[end:].strip() != "face up":
            raise self.error("turning a creature face up is all the step says", end)
        name = self.cards[card].name
        if not self.cards[card].hidden:
            raise self.error(
                f"{name} is not face-down: only a face-down creature is turned face up "
                "(CR 702.37e)",
                start,
            )
        if self.cards[card].morph is None:
            raise self.error(f"{name} has no morph cost to turn it face up (CR 702.37e)", start)
        return Step("unmorph", player, card=card, text=text, span=self.origin)

    def land(self, player: int, card: int, end: int, text: str) -> Step:
        """'A plays Forest': Magic's land drop, a special action (CR 305.1)."""
        if self.text[end:].strip():
            raise self.error("playing a land is all the step says: no target, no cost", end)
        return Step("land", player, card=card, text=text, span=self.origin)

    def decline(self, player: int, start: int, text: str) -> Step:
        """'A declines X' (or 'A does not activate X'): an optional trigger effect of X that
        is waiting to be placed on the chain is not activated."""
        card, end = self.card_at(start)
        waiting = [a for a in self.abilities if a.card == card and a.trigger is not None]
        label = re.match(r" \(([^)]*)\)", self.text[end:])
        if label:
            wanted = f"{self.cards[card].name} ({label.group(1)})"
            waiting = [a for a in waiting if a.label == wanted]
            end += label.end()
        if len(waiting) != 1:
            what = "no trigger effect" if not waiting else "several trigger effects; name one"
            raise self.error(f"'{self.cards[card].name}' has {what}", start)
        if end < len(self.text.rstrip()):
            raise self.error("unexpected words after the declined card", end)
        return Step(
            "decline", player, card=card, ability=waiting[0].index, text=text, span=self.origin
        )

    def attack(self, player: int, offset: int, rest: str, text: str) -> Step:
        """'A attacks directly with X' or 'A attacks Y with X'."""
        if not self.model.battle:
            raise self.error(f"{self.model.name} has no Battle Phase", offset)
        direct = re.match(r"attacks directly with ", rest)
        if direct:
            attacker, end = self.card_at(offset + direct.end())
            target = None
        else:
            target, end = self.card_at(offset + len("attacks "))
            if not self.text.startswith(" with ", end):
                raise self.error(
                    "write 'A attacks CARD with CARD' or 'A attacks directly with CARD'", end
                )
            attacker, end = self.card_at(end + len(" with "))
        if end < len(self.text.rstrip()):
            raise self.error("unexpected words after the attacking monster", end)
        return Step("attack", player, card=attacker, target=target, text=text, span=self.origin)

    def declaration(self, player: int, offset: int, rest: str, text: str) -> Step:
        """Magic's declarations (CR 508.1, 509.1): 'A attacks with X, Y and Z', 'A declares
        no attackers'; 'B blocks X with Y and Z with W', 'B declares no blockers'."""
        attacking = rest.startswith(("attacks", "declares no attackers"))
        verb = "declare" if attacking else "block"
        if rest.startswith("declares no ") or rest in ("attacks with nothing", "blocks nothing"):
            return Step(verb, player, text=text, span=self.origin)
        lead = "attacks with " if attacking else "blocks "
        if not rest.startswith(lead):
            raise self.error("write 'A attacks with CARD[, CARD and CARD]'", offset)
        chosen: list[int] = []
        end = offset + len(lead)
        while True:
            card, end = self.card_at(end)
            if not attacking:
                if not self.text.startswith(" with ", end):
                    raise self.error("write 'B blocks ATTACKER with BLOCKER[ and ...]'", end)
                blocker, end = self.card_at(end + len(" with "))
                chosen += [blocker, card]
            else:
                chosen.append(card)
            more = re.match(r", | and ", self.text[end:])
            if more is None:
                break
            end += more.end()
        if end < len(self.text.rstrip()):
            raise self.error("unexpected words after the declaration", end)
        if attacking:
            return Step(verb, player, tributes=tuple(sorted(chosen)), text=text, span=self.origin)
        pairs = sorted(zip(chosen[0::2], chosen[1::2], strict=True))
        blockers = [b for b, _ in pairs]
        if len(set(blockers)) != len(blockers):
            raise self.error("a creature blocks one attacker (CR 509.1a)", offset)
        flat = tuple(x for pair in pairs for x in pair)
        return Step(verb, player, tributes=flat, text=text, span=self.origin)

    def card_at(self, start: int) -> tuple[int, int]:
        rest = self.text[start:]
        for name in self.names:
            if rest.startswith(name) and (len(rest) == len(name) or rest[len(name)] in " ("):
                index = next(c.index for c in self.cards if c.name == name)
                return index, start + len(name)
        word = rest.split(" targeting ")[0].split(" tributing ")[0]
        raise self.error(
            f"unknown card '{word}'{_close(word, [c.name for c in self.cards])}", start
        )

    def which_ability(
        self, card: int, end: int, start: int, casts: bool = False
    ) -> tuple[int, int, tuple[int, ...]]:
        """The ability a step activates, where its name ends, and, for a card with modes
        none of which is named, the modes (the history takes the one legal there). A
        creature that is cast and has abilities: "casts" names the spell, "activates" one
        of its abilities."""
        owned = [
            a for a in self.abilities if a.card == card and (self.triggers or a.trigger is None)
        ]
        if self.cards[card].type == "monster" and any(a.card_activation for a in owned):
            owned = [a for a in owned if a.card_activation == casts] or owned
        label = re.match(r" \(([^)]*)\)", self.text[end:]) or re.match(
            r" choosing (.+?)(?= targeting | tributing | discarding | banishing |$)",
            self.text[end:].rstrip(),
        )
        if label:
            wanted = f"{self.cards[card].name} ({label.group(1)})"
            for a in owned:
                if a.label == wanted:
                    return a.index, end + label.end(), ()
            what = "mode" if label.group(0).startswith(" choosing") else "effect"
            raise self.error(f"'{self.cards[card].name}' has no {what} '{label.group(1)}'", end)
        if not owned:
            triggers = [a for a in self.abilities if a.card == card]
            what = "only trigger effects" if triggers else "nothing to activate"
            raise self.error(f"'{self.cards[card].name}' has {what}", start)
        if len(owned) > 1 and all(a.mode is not None for a in owned):
            return owned[0].index, end, tuple(a.index for a in owned)
        plain = [a for a in owned if a.trigger is None]
        if len(owned) > 1 and len(plain) <= 1:
            # Its one ability to activate, or one of its trigger effects waiting to go on
            # the chain: the one that can be there (as for a mode).
            ordered = [*plain, *(a for a in owned if a.trigger is not None)]
            return ordered[0].index, end, tuple(a.index for a in ordered)
        if len(owned) > 1:
            labels = ", ".join(a.label for a in owned)
            raise self.error(f"which effect? name one of: {labels}", start)
        return owned[0].index, end, ()

    def clauses(self, end: int) -> tuple[tuple[int, ...], tuple[int | None, int | None], int]:
        """The clauses after the card: its cost cards, its target or two, where they end."""
        tributes: list[int] = []
        target: int | None = None
        second: int | None = None
        while end < len(self.text.rstrip()):
            rest = self.text[end:]
            if rest.startswith(" targeting "):
                if target is not None:
                    raise self.error("one 'targeting' per step; name two targets with 'and'", end)
                target, end = self.target_at(end + len(" targeting "))
                if self.text.startswith(" and ", end) and self.card_follows(end + len(" and ")):
                    second, after = self.target_at(end + len(" and "))
                    if second == target:
                        raise self.error(
                            f"'{self.target_name(second)}' is named twice; the targets of one "
                            "spell or ability are different",
                            end + len(" and "),
                        )
                    end = after
            elif rest.startswith((" tributing ", " discarding ", " banishing ")):
                # The card chosen to pay a cost; "a card" is an unlisted card of the hand.
                start = end + len(rest.split(" ", 2)[1]) + 2
                if self.text.startswith("a card", start) and rest.split(" ")[1] == "discarding":
                    tributes.append(HIDDEN)
                    end = start + len("a card")
                    continue
                card, end = self.card_at(start)
                tributes.append(card)
            elif rest.startswith(" and ") and tributes and not rest.startswith(" and targeting"):
                card, end = self.card_at(end + len(" and "))
                tributes.append(card)
            elif rest.startswith(" on priority"):
                end += len(" on priority")
            else:
                raise self.error(
                    f"unexpected '{rest.strip()}'; expected 'targeting CARD', 'tributing CARD', "
                    "'discarding CARD' or 'banishing CARD'",
                    end + 1,
                )
        return tuple(tributes), (target, second), end

    def card_follows(self, start: int) -> bool:
        """Whether a card's (or a player's) name starts at ``start``."""
        rest = self.text[start:]
        return any(
            rest.startswith(name) and (len(rest) == len(name) or rest[len(name)] in " (")
            for name in (*self.names, *self.players)
        )

    def target_at(self, start: int) -> tuple[int, int]:
        """The target named at ``start``: a card, or a player (CR 115.1: "targeting B"),
        which a target names by the index after the cards'."""
        rest = self.text[start:]

        def ends(name: str) -> bool:
            return rest.startswith(name) and rest[len(name) : len(name) + 1] in ("", " ", "(")

        if not any(ends(name) for name in self.names):  # a card's name comes first
            for p, name in enumerate(self.players):
                if ends(name):
                    return len(self.cards) + p, start + len(name)
        return self.card_at(start)

    def target_name(self, target: int) -> str:
        n = len(self.cards)
        return self.cards[target].name if target < n else self.players[target - n]


def _printed(name: str, cards: Mapping[str, CardFile]) -> str:
    """The name printed on card ``name``: the card it copies (``card:``, followed through
    copies of copies), else its own name (a library card's name, when it is one)."""
    seen = {name}
    while True:
        entry = cards.get(name)
        if entry is None or entry.card is None or entry.card in seen:
            return name
        name = entry.card
        seen.add(name)
