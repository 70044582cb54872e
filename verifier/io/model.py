"""Rule systems: load a model file into a frozen :class:`RuleSystem` and check it is coherent."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from verifier.errors import ModelError, Span
from verifier.games import game, game_named, games
from verifier.io.bundled import bundled_models, is_name
from verifier.io.paths import quoted
from verifier.io.schema import ChainFile, KindFile, RuleSystemFile, validate
from verifier.io.source import Document, load_document
from verifier.spec.rulesystem import (
    CardZone,
    Cleanup,
    ClosesOn,
    CombatDamage,
    Failure,
    HandSelfSummons,
    Kind,
    MissingTiming,
    ResolutionMode,
    Respond,
    RightToRespond,
    RuleSystem,
    Simultaneous,
    SpeedFrom,
    Unactivatable,
)

__all__ = [
    "Kind",
    "RuleSystem",
    "bundled_models",
    "find_model",
    "find_named_model",
    "is_model_path",
    "list_models",
    "load_model",
    "model_dirs",
    "model_from",
    "model_reference",
]


def model_dirs() -> list[Path]:
    """Where rule systems are looked up by name: each folder of ``$VERIFIER_MODELS`` (an
    ``os.pathsep``-separated search path), then the bundled rule systems."""
    dirs = [Path(p) for p in os.environ.get("VERIFIER_MODELS", "").split(os.pathsep) if p]
    bundled = bundled_models()
    if bundled is not None:
        dirs.append(bundled)
    return dirs


def list_models() -> list[RuleSystem]:
    """Every rule system found in the model directories, by name."""
    seen: dict[str, RuleSystem] = {}
    for folder in model_dirs():
        if folder.is_dir():
            for path in sorted(folder.glob("*.yaml")):
                model = load_model(path)
                seen.setdefault(model.name, model)
    return sorted(seen.values(), key=lambda m: m.name)


def is_model_path(reference: str) -> bool:
    """Whether a ``rules:`` value is a path to a model file rather than a rule system's name."""
    return not is_name(reference)


def find_model(reference: str, relative_to: Path | None, span: Span) -> RuleSystem:
    """Resolve a rule system named on the command line: a path to a model file, or a
    model's name (a scenario's ``rules:`` is confined first: see :mod:`verifier.io.scenario`)."""
    if is_model_path(reference):
        base = relative_to if relative_to is not None else Path.cwd()
        path = base / reference
        if not _is_file(path):
            raise ModelError(f"no rule-system file {quoted(reference)}", span)
        return load_model(path)
    return find_named_model(reference, span)


def find_named_model(name: str, span: Span) -> RuleSystem:
    """The rule system called ``name`` in the model directories."""
    for folder in model_dirs():
        path = folder / f"{name}.yaml"
        if _is_file(path):
            return load_model(path)
    known = sorted({p.stem for d in model_dirs() if d.is_dir() for p in d.glob("*.yaml")})
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {quoted(close[0])}?" if close else ""
    raise ModelError(
        f"unknown rule system {quoted(name)} (known: {', '.join(known) or 'none'}){hint}", span
    )


def model_reference(model: RuleSystem) -> str:
    """What a generated scenario writes in ``rules:``: the rule system's name when the name
    finds its file (so the scenario works wherever it is moved), else the file's path."""
    for folder in model_dirs():
        candidate = folder / f"{model.name}.yaml"
        if _is_file(candidate) and candidate.resolve() == Path(model.path).resolve():
            return model.name
    return str(Path(model.path).resolve())


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; a name the system cannot even look up is not one."""
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long, a NUL character
        return False


def load_model(path: str | Path) -> RuleSystem:
    """Load and check one rule-system file."""
    doc = load_document(path)
    spec = validate(RuleSystemFile, doc, ModelError)
    return model_from(spec, doc)


def model_from(spec: RuleSystemFile, doc: Document) -> RuleSystem:
    """The rule system a validated model file describes, its combinations checked."""
    return _build(spec, doc)


def _build(spec: RuleSystemFile, doc: Document) -> RuleSystem:
    played = game_named(spec.game)
    if played is None:
        known = ", ".join(g.name for g in games())
        raise ModelError(f"unknown game '{spec.game}' (known: {known})", doc.span(("game",)))
    speeds = tuple(str(s) for s in spec.speeds)
    for index, name in enumerate(speeds):
        if speeds.index(name) != index:
            raise ModelError(f"speed '{name}' is listed twice", doc.span(("speeds", index)))

    def rank(value: str | int | None, where: tuple[str | int, ...]) -> int | None:
        if value is None:
            return None
        name = str(value)
        if name not in speeds:
            raise ModelError(
                f"unknown speed '{name}' (this rule system has {', '.join(speeds)})",
                doc.span(where),
            )
        return speeds.index(name)

    kinds = {
        name: _kind(name, k, rank(k.speed, ("kinds", name, "speed")))
        for name, k in spec.kinds.items()
    }
    if spec.chain is None and spec.resolution.order != "immediate":
        raise ModelError(
            "missing key 'chain' (only order 'immediate' builds no chain)", doc.span(())
        )
    chain = spec.chain or ChainFile(
        respond="any",
        right_to_respond="anyone",
        closes_on="both-press-resolve",
        auto_resolve_seconds=None,
        spell_trap_zones=None,
        monster_zones=None,
        card_zone="field",
    )
    triggers = spec.triggers
    windows = spec.windows
    modifiers = spec.speed_modifiers
    order = (
        (spec.resolution.order,)
        if isinstance(spec.resolution.order, str)
        else tuple(spec.resolution.order)
    )
    spans = {
        ".".join(str(p) for p in path): doc.span(path)
        for path in doc.values
        if path and all(isinstance(p, str) for p in path)
    }
    model = RuleSystem(
        name=spec.name,
        description=spec.description,
        game=spec.game,
        path=doc.path,
        speeds=speeds,
        speed_from=SpeedFrom(spec.speed_from),
        kinds=kinds,
        respond=Respond(chain.respond),
        min_response=rank(chain.min_response, ("chain", "min_response")),
        right_to_respond=RightToRespond(chain.right_to_respond),
        closes_on=ClosesOn(chain.closes_on),
        auto_resolve_seconds=chain.auto_resolve_seconds,
        spell_trap_zones=chain.spell_trap_zones,
        monster_zones=chain.monster_zones,
        order=order,
        instant=frozenset(
            r
            for i, s in enumerate(spec.resolution.instant)
            if (r := rank(s, ("resolution", "instant", i))) is not None
        ),
        failure=Failure(spec.resolution.failure),
        cleanup=Cleanup(spec.cleanup),
        simultaneous=Simultaneous(triggers.simultaneous if triggers else "segoc"),
        earlier_triggered_first=triggers.earlier_triggered_first if triggers else False,
        missing_timing=MissingTiming(triggers.missing_timing if triggers else "when-wording"),
        unactivatable=Unactivatable(triggers.unactivatable if triggers else "drop"),
        hand_self_summons=HandSelfSummons(triggers.hand_self_summons if triggers else "any"),
        summon_negation=windows.summon_negation if windows else False,
        ignition_priority=windows.ignition_priority if windows else False,
        slow_limit=rank(modifiers.slow_limit, ("speed_modifiers", "slow_limit"))
        if modifiers
        else None,
        speed_up_limit=rank(modifiers.speed_up_limit, ("speed_modifiers", "speed_up_limit"))
        if modifiers
        else None,
        phases=tuple(spec.phases),
        main_phases=tuple(spec.main_phases),
        battle=spec.battle is not None,
        damage_step=frozenset(spec.battle.damage_step) if spec.battle else frozenset(),
        damage_calculation=frozenset(spec.battle.damage_calculation)
        if spec.battle
        else frozenset(),
        after_damage_calculation=frozenset(spec.battle.after_damage_calculation)
        if spec.battle
        else frozenset(),
        replay=spec.battle.replay if spec.battle else True,
        resolution_mode=ResolutionMode(spec.resolution.mode),
        card_zone=CardZone(chain.card_zone),
        state_based=frozenset(spec.state_based),
        needs_effect=spec.activation_needs_effect,
        life_below_zero=spec.life_below_zero,
        triggers_at_priority=triggers is not None and triggers.placed == "next-priority",
        combat_damage=CombatDamage(spec.combat.damage) if spec.combat else None,
        spans=spans,
    )
    _check_combinations(model, doc)
    return model


def _kind(name: str, k: KindFile, speed: int | None) -> Kind:
    return Kind(name, speed, k.card, k.effect, k.trigger, k.hand, k.set_wait, k.stays, k.cast)


def _check_combinations(model: RuleSystem, doc: Document) -> None:
    """Reject parameter combinations that no rule primitive can carry out."""

    def fail(message: str, where: tuple[str | int, ...]) -> None:
        raise ModelError(message, doc.span(where))

    played = game(model.game)
    for kind in model.kinds.values():
        if kind.card is not None and kind.card not in played.card_types:
            types = ", ".join(sorted(played.card_types))
            fail(
                f"{played.title} has no '{kind.card}' cards (its card types: {types})",
                ("kinds", kind.name, "card"),
            )
    for index, phase in enumerate(model.phases):
        if phase not in played.phases:
            fail(
                f"{played.title} has no phase '{phase}' (its phases: {', '.join(played.phases)})",
                ("phases", index),
            )
    if (
        model.closes_on == ClosesOn.TWO_PASSES_IN_A_ROW
        and model.right_to_respond == RightToRespond.ANYONE
    ):
        fail(
            "closes_on 'two-passes-in-a-row' needs right_to_respond 'other-player-first' or "
            "'caster-keeps': passes only alternate when the right to respond does",
            ("chain", "closes_on"),
        )
    if (
        model.closes_on == ClosesOn.BOTH_PRESS_RESOLVE
        and model.right_to_respond != RightToRespond.ANYONE
    ):
        fail(
            "closes_on 'both-press-resolve' needs right_to_respond 'anyone'",
            ("chain", "closes_on"),
        )
    if model.auto_resolve_seconds is not None and model.closes_on != ClosesOn.BOTH_PRESS_RESOLVE:
        fail(
            "auto_resolve_seconds needs closes_on 'both-press-resolve' (only pressed stacks wait)",
            ("chain", "auto_resolve_seconds"),
        )
    if model.min_response is not None and model.respond == Respond.ANY:
        fail("min_response is not read by respond 'any'", ("chain", "min_response"))
    if model.speed_from == SpeedFrom.KIND:
        for kind in model.kinds.values():
            if (kind.effect or kind.card in {"spell", "trap"}) and kind.speed is None:
                fail(
                    f"kind '{kind.name}' can be activated but has no speed (speed_from is 'kind')",
                    ("kinds", kind.name),
                )
    if model.earlier_triggered_first and model.simultaneous != Simultaneous.SEGOC:
        fail(
            "earlier_triggered_first orders SEGOC groups; it needs simultaneous 'segoc'",
            ("triggers", "earlier_triggered_first"),
        )
    if (model.slow_limit is None) != (model.speed_up_limit is None):
        fail("speed_modifiers needs both slow_limit and speed_up_limit", ("speed_modifiers",))
    for phase in model.main_phases:
        if phase not in model.phases:
            fail(f"main phase '{phase}' is not one of the phases", ("main_phases",))
    if model.battle and ("battle" not in played.phases or not played.steps):
        fail(f"{played.title} has no Battle Phase to describe", ("battle",))
    if model.battle and "battle" not in model.phases:
        fail("a 'battle' section needs the phase 'battle' in phases", ("battle",))
    if model.one_at_a_time and model.order != ("backwards",):
        fail(
            "mode 'one-at-a-time' resolves the top of the stack: it needs order 'backwards'",
            ("resolution", "mode"),
        )
    if model.one_at_a_time and model.closes_on != ClosesOn.TWO_PASSES_IN_A_ROW:
        fail(
            "mode 'one-at-a-time' gives priority after each resolution: it needs closes_on "
            "'two-passes-in-a-row'",
            ("resolution", "mode"),
        )
    if model.combat_damage is not None and "combat-damage" not in dict(played.steps):
        fail(f"{played.title} has no combat damage step", ("combat",))
    if model.card_zone == CardZone.STACK and "stack" not in played.zones:
        fail(f"{played.title} has no stack zone", ("chain", "card_zone"))
    if model.cleanup == Cleanup.ON_RESOLUTION and not model.one_at_a_time:
        fail(
            "cleanup 'on-resolution' needs resolution mode 'one-at-a-time'",
            ("cleanup",),
        )
    if not any(k.card == "monster" for k in model.kinds.values()):
        fail("a rule system needs at least one monster card kind", ("kinds",))
