"""Reading a sweep file: its template checked as a scenario, its placeholders' cards chosen
from the library, its models found; every problem is an error at its place in the file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from math import prod
from pathlib import Path
from typing import Any

from verifier.errors import ModelError, ScenarioError, Span
from verifier.io.model import is_model_path
from verifier.io.paths import load_referenced, quoted, resolve_reference
from verifier.io.scenario import _rule_system
from verifier.io.schema import CardFile, LibraryFile, ScenarioFile, validate
from verifier.io.source import Document, load_document
from verifier.spec.rulesystem import RuleSystem
from verifier.sweep.schema import CONDITIONS, TRIGGER_EVENTS, PlaceholderFile, SweepFile

__all__ = ["MAX_INSTANCES", "PLACEHOLDER", "ModelRef", "Placeholder", "Sweep", "load_sweep"]

MAX_INSTANCES = 100_000
"""The most instances one sweep may have (before distinct and unordered remove some)."""

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
"""A placeholder where it is used: ``{ANSWER}``."""
_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_SWEEP_KEYS = {
    "rules": "the rule systems go in the sweep's `models:`, not in its scenario",
    "library": "the card libraries go in the sweep's `library:`, not in its scenario",
    "claims": "the claims go in the sweep's `claims:`, not in its scenario",
}


@dataclass(frozen=True, slots=True)
class Placeholder:
    """A placeholder and the library's cards that fit its filters, in the library's order."""

    name: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ModelRef:
    """A rule system to compare: as the sweep names it, as an instance's ``rules:`` names it
    (a name, or a file's absolute path), and the text of its file (part of the cache key)."""

    shown: str
    reference: str
    text: str


@dataclass(frozen=True, slots=True)
class Sweep:
    """A loaded sweep file."""

    path: str
    question: str
    placeholders: tuple[Placeholder, ...]
    distinct: bool
    unordered: bool
    models: tuple[ModelRef, ...]
    claims: tuple[tuple[str, str], ...]
    """Each claim's id and text, placeholders not yet filled in."""
    libraries: tuple[str, ...]
    """The card libraries' absolute paths (an instance is read from memory, not from the
    sweep's folder)."""
    library_texts: tuple[str, ...]
    folder: str
    template: dict[str, Any] = field(compare=False)


def load_sweep(path: str | Path, allow_outside: bool = False) -> Sweep:
    """Load and check the sweep file ``path``; the paths it names (``library:``, ``models:``)
    are confined as a scenario's are, unless ``allow_outside``."""
    doc = load_document(path)
    if not isinstance(doc.data, dict):
        raise ScenarioError(
            "a sweep is a mapping with sweep, library, placeholders, models, scenario, claims",
            doc.span(()),
        )
    spec = validate(SweepFile, doc, ScenarioError)
    folder = Path(path).parent
    for key in spec.scenario:
        if key in _SWEEP_KEYS:
            raise ScenarioError(_SWEEP_KEYS[key], doc.key_span(("scenario", key)))
    for name in spec.placeholders:
        if not _NAME.fullmatch(name):
            raise ScenarioError(
                f"placeholder {quoted(name)} is not a name in capitals (ANSWER, FIRST_TRIGGER)",
                doc.key_span(("placeholders", name)),
            )
    models, first = _models(doc, spec, folder, allow_outside)
    libraries, texts, cards = _libraries(doc, spec, folder, allow_outside)
    claims = tuple(
        (f"claim-{i}", entry) if isinstance(entry, str) else (entry.id or f"claim-{i}", entry.claim)
        for i, entry in enumerate(spec.claims, start=1)
    )
    seen: set[str] = set()
    for i, (ident, _) in enumerate(claims):
        if ident in seen:
            raise ScenarioError(f"claim id {quoted(ident)} is used twice", doc.span(("claims", i)))
        seen.add(ident)
    _check_template(doc, spec, models[0].reference, libraries)
    _check_used(doc, spec)
    placeholders = tuple(
        Placeholder(name, _fitting(doc, name, entry, cards, first))
        for name, entry in spec.placeholders.items()
    )
    if prod(len(p.cards) for p in placeholders) > MAX_INSTANCES:
        counts = " x ".join(str(len(p.cards)) for p in placeholders)
        raise ScenarioError(
            f"the placeholders give {counts} instances, more than {MAX_INSTANCES:,}; "
            "narrow their filters",
            doc.key_span(("placeholders",)),
        )
    return Sweep(
        str(path),
        spec.sweep,
        placeholders,
        spec.distinct,
        spec.unordered,
        models,
        claims,
        libraries,
        texts,
        str(folder),
        spec.scenario,
    )


def _models(
    doc: Document, spec: SweepFile, folder: Path, allow_outside: bool
) -> tuple[tuple[ModelRef, ...], RuleSystem]:
    """The models to compare, and the first one's rule system (the filters read it)."""
    found: list[ModelRef] = []
    loaded: list[RuleSystem] = []
    for i, reference in enumerate(spec.models):
        span = doc.span(("models", i))
        if reference in (m.shown for m in found):
            raise ModelError(f"rule system {quoted(reference)} is listed twice", span)
        model = _rule_system(reference, folder, span, allow_outside)
        loaded.append(model)
        text = Path(model.path).read_text(encoding="utf-8")
        if is_model_path(reference):
            found.append(ModelRef(reference, str(Path(model.path).resolve()), text))
        else:
            found.append(ModelRef(reference, reference, text))
    return tuple(found), loaded[0]


def _libraries(
    doc: Document, spec: SweepFile, folder: Path, allow_outside: bool
) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, CardFile]]:
    refs = [spec.library] if isinstance(spec.library, str) else spec.library
    paths: list[str] = []
    texts: list[str] = []
    cards: dict[str, CardFile] = {}
    for i, ref in enumerate(refs):
        span = doc.span(("library",) if isinstance(spec.library, str) else ("library", i))
        shown = quoted(ref)
        path = resolve_reference(
            ref,
            folder,
            "card library",
            f"no card library {shown}",
            span,
            ScenarioError,
            allow_outside,
        )
        _, library = load_referenced(
            path, "card library", shown, "a card library", LibraryFile, span, ScenarioError
        )
        paths.append(str(path.resolve()))
        texts.append(path.read_text(encoding="utf-8"))
        for name, entry in library.cards.items():
            cards.setdefault(name, entry)
    return tuple(paths), tuple(texts), cards


def _check_template(doc: Document, spec: SweepFile, rules: str, libraries: tuple[str, ...]) -> None:
    """The template must be a scenario but for its placeholders: its keys and values are
    checked here, at their places in the sweep file."""
    data = dict(doc.data)
    data["scenario"] = {**spec.scenario, "rules": rules, "library": list(libraries)}
    validate(ScenarioFile, replace(doc, data=data), ScenarioError, ("scenario",))


def _uses(value: Any, at: tuple[Any, ...]) -> list[tuple[str, tuple[Any, ...], bool]]:
    """The placeholders written in ``value``: each with the path of the value or key (True)
    that holds it."""
    found: list[tuple[str, tuple[Any, ...], bool]] = []
    if isinstance(value, str):
        found.extend((m.group(1), at, False) for m in PLACEHOLDER.finditer(value))
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                found.extend((m.group(1), (*at, key), True) for m in PLACEHOLDER.finditer(key))
            found.extend(_uses(item, (*at, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found.extend(_uses(item, (*at, i)))
    return found


def _check_used(doc: Document, spec: SweepFile) -> None:
    """Every placeholder written is defined, and every one defined is written."""
    uses = _uses(doc.data.get("scenario"), ("scenario",)) + _uses(
        doc.data.get("claims"), ("claims",)
    )
    for name, at, is_key in uses:
        if name not in spec.placeholders:
            known = ", ".join(spec.placeholders)
            raise ScenarioError(
                f"unknown placeholder {{{name}}} (defined: {known})",
                doc.key_span(at) if is_key else doc.span(at),
            )
    used = {name for name, _, _ in uses}
    for name in spec.placeholders:
        if name not in used:
            raise ScenarioError(
                f"placeholder {name} is not used in the scenario or the claims",
                doc.key_span(("placeholders", name)),
            )


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _at(doc: Document, base: tuple[Any, ...], value: Any, index: int) -> Span:
    return doc.span((*base, index)) if isinstance(value, list) else doc.span(base)


def _speeds(entry: CardFile, model: RuleSystem) -> set[str]:
    """The speeds of a card's activations under ``model``: the card's own (a Spell or Trap),
    and each of its effects'."""
    found: set[str] = set()
    kinds = model.kinds
    if entry.speed is not None:
        found.add(str(entry.speed))
    elif entry.kind in kinds and kinds[entry.kind].speed is not None:
        rank = kinds[entry.kind].speed
        assert rank is not None
        found.add(model.speeds[rank])
    for ability in _abilities(entry):
        if ability.speed is not None:
            found.add(str(ability.speed))
        elif ability.type in kinds and (rank := kinds[ability.type].speed) is not None:
            found.add(model.speeds[rank])
    return found


def _abilities(entry: CardFile) -> list[Any]:
    return ([entry.ability] if entry.ability is not None else []) + list(entry.abilities or [])


def _conditions(entry: CardFile) -> set[str]:
    """The activation conditions a card (its modes, its effects) is activated on."""
    whens = [entry.when, *(m.when for m in entry.modes or [])]
    for ability in _abilities(entry):
        whens.append(ability.when)
        whens.extend(m.when for m in ability.modes or [])
    return {
        name
        for when in whens
        if when is not None
        for name in CONDITIONS
        if getattr(when, name.replace("-", "_")) is not None
    }


def _events(entry: CardFile) -> set[str]:
    return {
        event
        for ability in _abilities(entry)
        if ability.trigger is not None
        for event in _listed(ability.trigger.event)
    }


def _fitting(
    doc: Document, name: str, entry: PlaceholderFile, cards: dict[str, CardFile], model: RuleSystem
) -> tuple[str, ...]:
    """The library's cards that fit every filter of placeholder ``name``; the filters' values
    are checked against the first model (kinds, speeds) and the formats (conditions, events).
    """
    base = ("placeholders", name)
    checks: list[tuple[str, list[str], tuple[str, ...]]] = []
    for key, known in (
        ("kind", tuple(model.kinds)),
        ("speed", model.speeds),
        ("condition", CONDITIONS),
        ("trigger", TRIGGER_EVENTS),
    ):
        given = getattr(entry, key)
        if given is None:
            continue
        values = [str(v) for v in _listed(given)]
        for i, value in enumerate(values):
            if value not in known:
                raise ScenarioError(
                    f"unknown {key} {quoted(value)} (under {model.name}: {', '.join(known)})"
                    if key in {"kind", "speed"}
                    else f"unknown {key} {quoted(value)} ({', '.join(known)})",
                    _at(doc, (*base, key), given, i),
                )
        checks.append((key, values, known))
    for key in ("names", "exclude"):
        for i, card in enumerate(getattr(entry, key) or []):
            if card not in cards:
                raise ScenarioError(
                    f"no card {quoted(card)} in the library", doc.span((*base, key, i))
                )
    fitting = []
    for card, text in cards.items():
        if entry.names is not None and card not in entry.names:
            continue
        if card in entry.exclude:
            continue
        facts = {
            "kind": {text.kind or ""},
            "speed": _speeds(text, model),
            "condition": _conditions(text),
            "trigger": _events(text),
        }
        if all(facts[key] & set(values) for key, values, _ in checks):
            fitting.append(card)
    if not fitting:
        raise ScenarioError(
            f"no card of the library fits placeholder {name}'s filters",
            doc.key_span(("placeholders", name)),
        )
    return tuple(fitting)
