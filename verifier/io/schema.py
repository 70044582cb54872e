"""The file formats, as pydantic models: they validate input and generate the JSON Schemas.

Only the structure lives here (keys, types, closed vocabularies). Names that refer to other
things (cards, players, kinds of the chosen rule system) are resolved by the loaders, which
know the rule system and report the place of every unknown name.
"""

from __future__ import annotations

import difflib
import json
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, model_validator

from verifier.effects.verb import verbs
from verifier.errors import VerifierError
from verifier.games import games
from verifier.io.source import Document
from verifier.spec.values import MAX_POINTS, Points

__all__ = [
    "CardFile",
    "EffectFile",
    "LibraryFile",
    "LimitsFile",
    "RuleSystemFile",
    "ScenarioFile",
    "json_schema",
    "validate",
]


M = TypeVar("M", bound=BaseModel)


def _alias(name: str) -> str:
    return name.replace("_", "-")


class _Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", alias_generator=_alias, populate_by_name=True, frozen=True
    )


ZoneName = Literal["hand", "field", "graveyard", "banished", "deck"]
CardType = Literal["monster", "spell", "trap", "spell-trap", "card"]
Activated = Literal["monster", "spell", "trap", "spell-trap", "card", "monster-effect"]
Side = Literal["you", "opponent", "any"]
Speed = Annotated[str | int, Field(description="a speed named by the rule system")]

# Every number the formats accept is bounded (see verifier.spec.values).
Stat = Annotated[int, Field(ge=0, le=MAX_POINTS, description="ATK or DEF, 0 to 10^9")]
Zones = Annotated[int, Field(ge=1, le=10, description="a number of zones, 1 to 10")]
Names = Annotated[str | list[str], Field(description="one name or a list of names")]


# --- rule systems -------------------------------------------------------------------------


class KindFile(_Strict):
    """What one card kind or effect kind is, under a rule system."""

    speed: Speed | None = Field(None, description="its speed; none for cards never activated")
    card: Literal["monster", "spell", "trap"] | None = Field(
        None, description="the card type of a card of this kind"
    )
    effect: bool = Field(False, description="an effect of a monster, not a card")
    trigger: bool = Field(False, description="activates only when its trigger happens")
    hand: Literal["any", "own-turn", "never"] = Field(
        "any", description="whether the card may be activated from the hand"
    )
    set_wait: bool = Field(False, description="cannot be activated in the turn it was set")
    stays: bool = Field(False, description="stays on the field after its chain resolves")


class ChainFile(_Strict):
    respond: Literal["at-least-previous", "faster-than-previous", "any"]
    min_response: Speed | None = None
    right_to_respond: Literal["other-player-first", "anyone"]
    closes_on: Literal["two-passes-in-a-row", "both-press-resolve"]
    auto_resolve_seconds: int | None = Field(None, ge=1, le=3600)
    spell_trap_zones: Zones | None = None
    monster_zones: Zones | None = Field(
        None, description="Main Monster Zones per player (5 in Yu-Gi-Oh!)"
    )


class ResolutionFile(_Strict):
    order: (
        Literal["backwards", "immediate"]
        | list[Literal["speed", "turn-player-first", "cast-order"]]
    )
    instant: list[Speed] = Field(default_factory=list, description="speeds that never stack")
    failure: Literal["target", "target-or-source"] = Field(
        "target", description="what makes a link fail: its target, or also its source leaving"
    )


class TriggersFile(_Strict):
    simultaneous: Literal["segoc", "apnap"] = "segoc"
    earlier_triggered_first: bool = False
    missing_timing: Literal["when-wording", "all-optional"] = "when-wording"
    unactivatable: Literal["drop", "wait"] = Field(
        "drop", description="a mandatory trigger that cannot be activated: dropped, or waits"
    )


class WindowsFile(_Strict):
    summon_negation: bool = True
    ignition_priority: bool = False


DamageStepAllowance = Literal[
    "spell-speed-3",
    "changes-atk-def",
    "negates-activation",
    "damage-step-timing",
    "damage-calculation-timing",
]


def _allow(*names: DamageStepAllowance) -> list[DamageStepAllowance]:
    return list(names)


class BattleFile(_Strict):
    """The Battle Phase: attacks, replays and the Damage Step's activation limits (Konami's
    Damage Step rules). Each list says what may be activated at those timings: Counter Traps
    (``spell-speed-3``), cards that directly change ATK or DEF, cards that negate an
    activation, cards whose own condition is such a timing; trigger effects always may."""

    damage_step: list[DamageStepAllowance] = Field(
        default_factory=lambda: _allow(
            "spell-speed-3",
            "changes-atk-def",
            "negates-activation",
            "damage-step-timing",
        ),
        description="what may be activated from the start of the Damage Step until damage "
        "calculation",
    )
    damage_calculation: list[DamageStepAllowance] = Field(
        default_factory=lambda: _allow(
            "spell-speed-3",
            "negates-activation",
            "damage-calculation-timing",
        ),
        description="what may be activated during damage calculation",
    )
    after_damage_calculation: list[DamageStepAllowance] = Field(
        default_factory=lambda: _allow("spell-speed-3", "negates-activation"),
        description="what may be activated after damage calculation and at the end of the "
        "Damage Step",
    )
    replay: bool = Field(
        True,
        description="a change in the number of the opponent's monsters after an attack is "
        "declared lets the attacking player attack again or not (a replay)",
    )


class SpeedModifiersFile(_Strict):
    slow_limit: Speed
    speed_up_limit: Speed


class RuleSystemFile(_Strict):
    """A rule system: the parameters that choose among the rule primitives."""

    name: str
    description: str
    game: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    speeds: list[Speed] = Field(min_length=1)
    speed_from: Literal["kind", "card"] = "kind"
    kinds: dict[str, KindFile]
    chain: ChainFile | None = Field(
        None, description="how a chain is built; not needed when everything resolves at once"
    )
    resolution: ResolutionFile
    cleanup: Literal["activated-spells-traps", "spells"] = "activated-spells-traps"
    triggers: TriggersFile | None = None
    windows: WindowsFile | None = None
    speed_modifiers: SpeedModifiersFile | None = None
    battle: BattleFile | None = Field(
        None, description="the Battle Phase; without it a turn has no battle"
    )
    phases: list[str] = Field(default_factory=lambda: ["main1"])
    main_phases: list[str] = Field(default_factory=lambda: ["main1"])


# --- cards --------------------------------------------------------------------------------


class FilterFile(_Strict):
    """Which cards qualify: used by targets, costs, conditions and mass effects."""

    card: CardType | list[CardType] = "card"
    zone: ZoneName | None = None
    face: Literal["up", "down", "any"] | None = None
    controller: Side = "any"
    other: bool = Field(False, description="not this card itself")
    atk_at_least: Stat | None = None
    atk_at_most: Stat | None = None
    archetype: str | None = None
    dizzy: bool | None = None
    position: Literal["attack", "defense"] | None = Field(
        None, description="a monster in this battle position"
    )
    attacking: bool | None = Field(None, description="the monster whose attack is under way")


class CostFile(_Strict):
    tribute: FilterFile | Literal["monster"] | None = None
    pay_lp: Points | Literal["half"] | None = None
    dizzy: Literal["this"] | None = None

    @model_validator(mode="after")
    def _one(self) -> CostFile:
        _exactly_one(self, ("tribute", "pay_lp", "dizzy"), "a cost")
        return self


def _effect_fields() -> dict[str, Any]:
    """The keys of an effect part: each registered verb's, then those every part shares."""
    fields: dict[str, Any] = {v.key: (v.value | None, Field(None, **v.schema)) for v in verbs()}
    # Every part accepts these; each verb reads the ones it needs (``to``: destroy; ``player``:
    # the resource verbs; the last three: coin-toss, whose loader checks them).
    fields.update(
        of=(Side, Field("any", description="whose cards a mass effect hits")),
        filter=(FilterFile | None, None),
        to=(Literal["banished", "graveyard"] | None, None),
        player=(Literal["you", "opponent"], "you"),
        heads_at_least=(int | None, Field(None, ge=0, le=8)),
        then=("EffectFile | list[EffectFile] | None", None),
        otherwise=("EffectFile | list[EffectFile] | None", None),
        simultaneous=(
            bool,
            Field(
                False,
                description="this part happens at the same time as the part before it "
                "('and', 'and if you do'): one event; without it, after it ('then')",
            ),
        ),
    )
    return fields


class _EffectPart(_Strict):
    @model_validator(mode="after")
    def _one(self) -> _EffectPart:
        _exactly_one(self, tuple(v.key for v in verbs()), "an effect")
        return self


def _effect_model() -> type[_EffectPart]:
    model = create_model(
        "EffectFile",
        __base__=_EffectPart,
        __module__=__name__,
        __doc__="One part of an effect: a verb, what it acts on, and how.",
        **_effect_fields(),
    )
    return model


if TYPE_CHECKING:

    class EffectFile(_EffectPart):
        """One part of an effect: a verb, what it acts on, and how (its keys are the verbs')."""

        def __getattr__(self, name: str) -> Any: ...

else:
    EffectFile = _effect_model()
    EffectFile.model_rebuild()


def refresh_effects() -> None:
    """Make the formats follow the registry of effect verbs again, after a verb was registered
    or removed while running (a test's own verb)."""
    fresh = _effect_model()
    fresh.model_rebuild()
    EffectFile.__pydantic_fields__ = fresh.__pydantic_fields__
    # A model's validator embeds those of the models in its fields: rebuild those first.
    done: set[type[BaseModel]] = set()

    def rebuild(cls: type[BaseModel]) -> None:
        if cls in done:
            return
        done.add(cls)
        for info in cls.model_fields.values():
            for inner in _models_in(info.annotation):
                rebuild(inner)
        cls.model_rebuild(force=True)

    pending: list[type[BaseModel]] = [_Strict]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.model_fields:
            rebuild(cls)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in getattr(annotation, "__args__", ()) or () for m in _models_in(arg)]


class ConditionFile(_Strict):
    """When a card may be activated: in answer to what."""

    activates: Activated | list[Activated] | None = None
    summoned: FilterFile | Literal["monster"] | None = None
    would_be_summoned: FilterFile | Literal["monster"] | None = None
    attack_declared: FilterFile | Literal["monster"] | None = Field(
        None, description="when a monster (the attacker) declares an attack"
    )
    damage_step: FilterFile | Literal["monster"] | None = Field(
        None,
        description="during the Damage Step, before damage calculation, when a monster battles",
    )
    damage_calculation: FilterFile | Literal["monster"] | None = Field(
        None, description="during damage calculation, when a monster battles"
    )
    by: Side = "any"
    how: Literal["normal", "tribute", "special", "any"] = "any"

    @model_validator(mode="after")
    def _one(self) -> ConditionFile:
        _exactly_one(self, CONDITIONS, "a condition")
        return self


CONDITIONS = (
    "activates",
    "summoned",
    "would_be_summoned",
    "attack_declared",
    "damage_step",
    "damage_calculation",
)


TriggerEvent = Literal[
    "sent-to-graveyard",
    "destroyed",
    "summoned",
    "normal-summoned",
    "tribute-summoned",
    "special-summoned",
    "leaves-field",
    "flipped",
    "destroyed-by-battle",
    "attack-declared",
]


class TriggerFile(_Strict):
    """What makes a trigger effect trigger."""

    event: TriggerEvent | list[TriggerEvent]
    card: Literal["this"] | FilterFile = "this"
    from_: ZoneName | Literal["any"] = Field("any", alias="from")


Affecting = Literal["spells", "traps", "monsters", "other-cards"]
CONTINUOUS = ("negate_effects", "bind", "cannot_activate", "unaffected", "untargetable")


class ContinuousFile(_Strict):
    """An effect that applies while its card is face-up on the field and active."""

    negate_effects: Literal["spells", "traps", "monsters"] | None = None
    bind: Literal["target"] | None = None
    cannot_activate: Activated | list[Activated] | None = Field(
        None,
        description="these cannot be activated (Spell or Trap Cards, monster effects; "
        "'card': any card or effect) by the players 'by' names (Jinzo, Spell Canceller)",
    )
    unaffected: Affecting | list[Affecting] | None = Field(
        None,
        description="this card is unaffected by the effects of these cards ('other-cards': "
        "every card but itself), controlled by the players 'by' names",
    )
    untargetable: Literal["this"] | FilterFile | None = Field(
        None,
        description="this card ('this') or the cards the filter fits (relative to this "
        "card's controller) cannot be targeted by the card effects of the players 'by' names",
    )
    by: Side | None = Field(
        None,
        description="whose activations a lock stops, or whose effects a protection is from, "
        "relative to this card's controller (default: any; unaffected and untargetable take "
        "opponent or any)",
    )

    @model_validator(mode="after")
    def _one(self) -> ContinuousFile:
        _exactly_one(self, CONTINUOUS, "a continuous effect")
        return self


Effects = EffectFile | list[EffectFile]


class AbilityFile(_Strict):
    """An activated or trigger effect of a monster (or a CMC ability)."""

    type: str = Field(description="an effect kind of the rule system (ignition, quick, ...)")
    speed: Speed | None = None
    when: ConditionFile | None = None
    trigger: TriggerFile | None = None
    optional: bool = False
    wording: Literal["when", "if"] = "when"
    cost: CostFile | list[CostFile] | None = None
    target: FilterFile | None = None
    effect: Effects | None = None
    once: Literal["turn", "chain"] | None = None
    no_response: bool = Field(False, description="neither player can respond to it")
    label: str | None = Field(None, description="a short name for this ability in traces")
    cannot_be_negated: bool = Field(
        False, description="its activation and effect cannot be negated"
    )


class CardFile(_Strict):
    """A card: where it is, who has it, and what it does."""

    card: str | None = Field(None, description="a card of the library this one copies")
    kind: str | None = None
    controller: str | None = None
    owner: str | None = None
    zone: ZoneName | None = None
    set: Literal["this-turn", "earlier-turn"] | None = None
    face: Literal["up", "down"] | None = None
    dizzy: bool = False
    atk: Stat | None = None
    def_: Stat | None = Field(None, alias="def")
    position: Literal["attack", "defense"] | None = Field(
        None,
        description="a monster on the field: its battle position (default: Attack Position "
        "face-up, Defense Position face-down)",
    )
    attacked: bool = Field(False, description="a monster that already attacked this turn")
    level: int | None = Field(None, ge=0, le=13)
    archetype: str | list[str] | None = None
    speed: Speed | None = None
    speed_modifier: Literal["slow", "speed-up"] | list[Literal["slow", "speed-up"]] | None = Field(
        None, description="modifiers applied to the card, in order; they add up"
    )
    when: ConditionFile | None = None
    cost: CostFile | list[CostFile] | None = None
    target: FilterFile | None = None
    effect: Effects | None = None
    once: Literal["turn", "chain"] | None = None
    no_response: bool = False
    continuous: ContinuousFile | list[ContinuousFile] | None = None
    ability: AbilityFile | None = None
    abilities: list[AbilityFile] | None = None
    cannot_be_negated: bool = Field(
        False,
        description="this card's activation and effects cannot be negated, nor its continuous "
        "effects by continuous negations",
    )


class ClaimFile(_Strict):
    """A claim, its expected verdict, and optionally a variant of the scenario it is about."""

    claim: str
    expect: Literal["holds", "fails"] | None = None
    id: str | None = None
    rules: str | None = Field(None, description="decide it under this rule system instead")
    turn: str | None = Field(None, description="decide it with this turn player instead")
    history: list[str] | None = Field(None, description="decide it after this history instead")
    until: str | None = Field(
        None,
        description="decide it at the end of this step or phase of the turn (the "
        "continuation goes on through the turn until then)",
    )


HistoryStep = Annotated[
    str, Field(description="'A activates X targeting Y', 'B passes', 'A summons X', ...")
]


PENDING_TRIGGERS_MAX = 8
MAX_TURNS = 3


class LimitsFile(_Strict):
    """Bounds a scenario sets on its own state; every one of them acts (none is ignored)."""

    pending_triggers: int | None = Field(
        None,
        alias="pending_triggers",
        strict=True,
        ge=1,
        le=PENDING_TRIGGERS_MAX,
        description="how many times one mandatory trigger may wait to be activated "
        f"(1 to {PENDING_TRIGGERS_MAX}; default 2); a run that needs more is unknown",
    )
    turns: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=MAX_TURNS,
        description=f"how many turns a continuation may span (1 to {MAX_TURNS}; default 1): "
        "past 1, it goes on through the other player's turns to the End Phase of the last",
    )


class ScenarioFile(_Strict):
    """A scenario: the rule system, the situation, what has happened, and the claims."""

    rules: str = Field(description="a rule system's name, or a path to its file")
    description: str | None = None
    players: list[str] = Field(default_factory=lambda: ["A", "B"], min_length=2, max_length=2)
    turn: str
    phase: str | None = None
    step: str | None = Field(
        None, description="the step of the turn the scenario starts in (names its phase too)"
    )
    until: str | None = Field(
        None,
        description="a step or phase of the turn: continuations go on through the turn, "
        "phase by phase, until it ends (without it, they end with the scenario's chains)",
    )
    life_points: Points = 8000
    library: str | list[str] | None = None
    cards: dict[str, CardFile]
    history: list[HistoryStep] = Field(default_factory=list)
    claims: list[ClaimFile | str] = Field(default_factory=list)
    limits: LimitsFile = Field(default_factory=lambda: LimitsFile.model_validate({}))


class LibraryFile(_Strict):
    """A card library shared between scenarios."""

    description: str | None = None
    cards: dict[str, CardFile]


# --- validation ---------------------------------------------------------------------------


def _exactly_one(model: BaseModel, names: tuple[str, ...], what: str) -> None:
    given = [n for n in names if getattr(model, n) is not None]
    if len(given) != 1:
        choices = ", ".join(_alias(n) for n in names)
        if not given:
            raise ValueError(f"{what} needs one of: {choices}")
        both = " and ".join(_alias(n) for n in given)
        raise ValueError(f"{what} takes exactly one of {choices}; got {both}")


def validate(
    model: type[M], doc: Document, error: type[VerifierError], base: tuple[Any, ...] = ()
) -> M:
    """Validate ``doc.data`` (or the part at ``base``) against ``model``.

    The first problem becomes ``error`` with the span of the offending key or value.
    """
    data = doc.data
    for key in base:
        data = data[key]
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _first_error(exc, doc, error, base, model) from None


def _union_tag(key: Any) -> bool:
    """Whether a pydantic location part names a member of a union, not a key of the data:
    a model (``ClaimFile``), a scalar type (``str``), or a composite (``list[...]``,
    ``literal['half']``, ``function-after[...]``)."""
    if not isinstance(key, str):
        return False
    return (
        "[" in key
        or key in {"str", "int", "bool", "float"}
        or key.startswith("constrained-")
        or key in _model_names()
    )


def _model_names() -> frozenset[str]:
    names: set[str] = set()
    pending: list[type] = [_Strict]
    while pending:
        cls = pending.pop()
        names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return frozenset(names)


def _data_path(data: Any, loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Split a pydantic location into the part that indexes the data and the rest.

    Union members' names in the location (``claims.0.ClaimFile.expect``) are skipped, so the
    data path reaches the offending value (``claims.0.expect``).
    """
    path: list[Any] = []
    node = data
    rest = list(loc)
    while rest:
        key = rest[0]
        in_map = isinstance(node, dict) and key in node
        in_list = isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)
        if in_map or in_list:
            node = node[key]
        elif _union_tag(key):
            rest.pop(0)
            continue
        else:
            break
        path.append(key)
        rest.pop(0)
    return tuple(path), tuple(rest)


def _first_error(
    exc: ValidationError,
    doc: Document,
    error: type[VerifierError],
    base: tuple[Any, ...],
    model: type[BaseModel],
) -> VerifierError:
    data = doc.data
    for key in base:
        data = data[key]
    errors = exc.errors()

    def depth(err: Any) -> int:
        return len(_data_path(data, err["loc"])[0])

    # Prefer the deepest located problem: it is the one the user has to fix.
    err = max(errors, key=depth)
    path, rest = _data_path(data, err["loc"])
    full = base + path
    kind = err["type"]
    value = err.get("input")
    field = path[-1] if path else None
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, path[:-1], data)
        if model is ScenarioFile and path[:-1] == ("limits",):
            msg = f"unknown limit '{field}' (limits: {', '.join(allowed)})"
            return error(msg, doc.key_span(full))
        hint = _suggest(str(field), allowed)
        msg = f"unknown key '{field}'{hint}"
        return error(msg, doc.key_span(full))
    if kind == "missing":
        missing = rest[0] if rest else field
        return error(f"missing key '{missing}'", doc.key_span(full) if path else doc.span(full))
    where = f" for '{field}'" if isinstance(field, str) else ""
    if isinstance(field, int) and len(path) >= 2 and isinstance(path[-2], str):
        where = f" for '{path[-2]}' item {field + 1}"
    # Every alternative the value could have taken here (a union's members fail together).
    here = [e for e in errors if _data_path(data, e["loc"]) == (path, ())]
    literals = [e for e in here if e["type"] == "literal_error"]
    words = [_expected_word(e) for e in here]
    if kind != "value_error" and (literals or len(here) > 1) and all(words):
        expected = " or ".join(dict.fromkeys(w for w in words if w))
        if literals and not isinstance(value, dict | list):
            return error(
                f"unknown value {_show(value)}{where} (expected {expected})", doc.span(full)
            )
        return error(f"wrong type{where}: expected {expected}, got {_show(value)}", doc.span(full))
    if kind == "value_error":
        return error(str(err["ctx"]["error"]), doc.span(full))
    if kind in _BOUNDS:
        bound = _BOUNDS[kind].format(**err.get("ctx", {}))
        name = f"'{field}'" if isinstance(field, str) else "the value"
        return error(f"{name} must be {bound}, got {_show(value)}", doc.span(full))
    word = _expected_word(err)
    if kind in _MAPPING_TYPES and word:
        return error(f"wrong type{where}: expected {word}, got {_show(value)}", doc.span(full))
    return error(f"wrong type{where}: {_lower(err['msg'])}, got {_show(value)}", doc.span(full))


_BOUNDS = {
    "greater_than_equal": "at least {ge}",
    "greater_than": "greater than {gt}",
    "less_than_equal": "at most {le}",
    "less_than": "less than {lt}",
}
_MAPPING_TYPES = {"model_type", "dict_type", "model_attributes_type"}
_TYPE_WORDS = {
    "string_type": "a string",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    **{name: "a mapping" for name in _MAPPING_TYPES},
}


def _expected_word(err: Any) -> str | None:
    """What one alternative of a union expected, in words: ``'holds' or 'fails'``, ``a list``."""
    if err["type"] == "literal_error":
        return str(err["ctx"]["expected"])
    return _TYPE_WORDS.get(err["type"])


def _allowed_keys(model: type[BaseModel], path: tuple[Any, ...], data: Any) -> list[str]:
    current: Any = model
    skip = False
    for key in path:
        if isinstance(key, int) or skip:
            skip = False
            continue
        fields = getattr(current, "model_fields", None)
        if fields is None:
            return []
        match = next(
            (f for name, f in fields.items() if (f.alias or _alias(name)) == key or name == key),
            None,
        )
        if match is None:
            return []
        skip = "dict[" in str(match.annotation)
        current = _model_in(match.annotation)
        if current is None:
            return []
    fields = getattr(current, "model_fields", {})
    return [f.alias or _alias(name) for name, f in fields.items()]


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    if close:
        return f"; did you mean '{close[0]}'?"
    if choices:
        return f" (expected one of: {', '.join(choices)})"
    return ""


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return repr(value)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def json_schema(which: Literal["scenario", "model", "library"] = "scenario") -> str:
    """The JSON Schema of scenario, rule-system or library files, as formatted JSON."""
    model: type[BaseModel] = ScenarioFile
    if which == "model":
        model = RuleSystemFile
    elif which == "library":
        model = LibraryFile
    schema = model.model_json_schema(by_alias=True)
    if which == "model":
        # Any registered game: the bundled ones, and those a program registers.
        game = schema["properties"]["game"]
        game.pop("pattern", None)
        game["enum"] = [g.name for g in games()]
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
