"""The card format: cards, their abilities, costs, conditions, filters, triggers, continuous
effects and effect parts (one key per registered verb)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, create_model, model_validator

from verifier.effects.verb import verbs
from verifier.io.schema.base import (
    Activated,
    Attribute,
    CardType,
    Color,
    ColorFilter,
    ManaText,
    MonsterType,
    Side,
    Speed,
    Stat,
    Strict,
    ZoneName,
    alias,
    exactly_one,
)
from verifier.io.schema.rulesystem import ONCE, Once
from verifier.rules import activation  # noqa: F401  (it registers the bundled conditions)
from verifier.rules.conditions import ConditionKind, condition_kinds
from verifier.rules.conditions import Value as ConditionValue
from verifier.rules.costs import CostKind, Value, cost_kinds
from verifier.spec.values import Points


class FilterFile(Strict):
    """Which cards qualify: used by targets, costs, conditions and mass effects."""

    card: CardType | list[CardType] = Field(
        "card",
        description="the card types that fit: monster, spell, trap, spell-trap, card, land "
        "(Magic) (one or a list)",
    )
    zone: ZoneName | None = Field(None, description="the zone the card is in now")
    face: Literal["up", "down", "any"] | None = Field(
        None, description="face-up or face-down (on the field); any"
    )
    controller: Side = Field(
        "any", description="whose card, seen from the player whose effect it is: you, opponent, any"
    )
    other: bool = Field(False, description="not this card itself")
    atk_at_least: Stat | None = Field(None, description="a monster with at least this ATK now")
    atk_at_most: Stat | None = Field(None, description="a monster with at most this ATK now")
    archetype: str | None = Field(None, description="a card of this archetype")
    color: ColorFilter | None = Field(
        None, description="Magic: a card of this colour, or ('non-black') not of it (CR 105)"
    )
    dizzy: bool | None = Field(
        None, description="a dizzy card (true) or one that is not (false); CMC"
    )
    position: Literal["attack", "defense"] | None = Field(
        None, description="a monster in this battle position"
    )
    attacking: bool | None = Field(None, description="the monster whose attack is under way")
    direct: bool | None = Field(
        None,
        description="Yu-Gi-Oh!: the monster whose direct attack is under way ('when an "
        "opponent's monster declares a direct attack': Battle Fader)",
    )
    kind: (
        Annotated[str, Field(max_length=100)] | list[Annotated[str, Field(max_length=100)]] | None
    ) = Field(
        None,
        description="a card of this kind, or of one of these (the rule system's kinds: "
        "effect-monster, normal-monster, quick-play-spell, ...): Effect Veiler targets an "
        "Effect Monster",
    )
    level_at_least: Stat | None = Field(None, description="a monster of at least this Level")
    level_at_most: Stat | None = Field(None, description="a monster of at most this Level")
    def_at_least: Stat | None = Field(None, description="a monster with at least this DEF now")
    def_at_most: Stat | None = Field(None, description="a monster with at most this DEF now")
    attribute: Attribute | list[Attribute] | None = Field(
        None, description="Yu-Gi-Oh!: a monster of this Attribute, or of one of these"
    )
    monster_type: MonsterType | list[MonsterType] | None = Field(
        None, description="Yu-Gi-Oh!: a monster of this Type, or of one of these"
    )
    player: Side | None = Field(
        None,
        description="a target's players (Magic, CR 115.1): any, you or opponent may be "
        "targeted too; a filter of 'player' alone targets only a player ('target player', "
        "'target opponent'), with card keys it is 'any target' ('a creature or a player')",
    )


Targets = FilterFile | Annotated[list[FilterFile], Field(min_length=2, max_length=2)]
"""A target filter, or one filter for each of two targets."""


_LITERALS: dict[Value, Any] = {"this": "this", "monster": "monster", "one": 1, "half": "half"}
"""The shapes of cost value (:data:`verifier.rules.costs.VALUES`) that are one word."""


def _cost_value(kind: CostKind) -> Any:
    """The pydantic type of a cost kind's value: a filter, an amount or a mana cost, then the
    words it takes, in its order."""
    shapes: list[Any] = []
    if "filter" in kind.values:
        shapes.append(FilterFile)
    if "amount" in kind.values:
        shapes.append(Points)
    if "mana" in kind.values:
        shapes.append(ManaText)
    words = tuple(_LITERALS[v] for v in kind.values if v in _LITERALS)
    if words:
        shapes.append(Literal[words])
    union = shapes[0]
    for shape in shapes[1:]:
        union = union | shape
    return union | None


class _CostPart(Strict):
    @model_validator(mode="after")
    def _one(self) -> _CostPart:
        exactly_one(self, tuple(k.key for k in cost_kinds()), "a cost")
        return self


def _cost_model() -> type[_CostPart]:
    fields: dict[str, Any] = {
        kind.key: (_cost_value(kind), Field(None, description=kind.description))
        for kind in cost_kinds()
    }
    model = create_model(
        "CostFile",
        __base__=_CostPart,
        __module__=__name__,
        __doc__="A cost paid on activation, before the effect goes on the chain.",
        **fields,
    )
    return model


if TYPE_CHECKING:

    class CostFile(_CostPart):
        """A cost paid on activation, before the effect goes on the chain (its keys are the
        cost kinds')."""

        def __getattr__(self, name: str) -> Any: ...

else:
    CostFile = _cost_model()
    CostFile.model_rebuild()


def _effect_fields() -> dict[str, Any]:
    """The keys of an effect part: each registered verb's, then those every part shares."""
    fields: dict[str, Any] = {v.key: (v.value | None, Field(None, **v.schema)) for v in verbs()}
    # Every part accepts these; each verb reads the ones it needs (``to``: destroy; ``player``:
    # the resource verbs; the last three: coin-toss, whose loader checks them).
    fields.update(
        of=(Side, Field("any", description="whose cards a mass effect hits")),
        filter=(
            FilterFile | None,
            Field(None, description="only the cards that fit this filter are acted on"),
        ),
        to=(
            Literal["banished", "graveyard"] | None,
            Field(None, description="where destroyed cards go ('destroy and banish')"),
        ),
        player=(
            Literal["you", "opponent", "target"],
            Field(
                "you",
                description="the player who draws, gains or loses: you, opponent, or "
                "target (the player the ability targets, CR 115.1)",
            ),
        ),
        heads_at_least=(
            int | None,
            Field(None, ge=0, le=8, description="coin-toss: how many heads make it succeed"),
        ),
        then=(
            "EffectFile | list[EffectFile] | None",
            Field(None, description="coin-toss: what happens when it succeeds"),
        ),
        otherwise=(
            "EffectFile | list[EffectFile] | None",
            Field(None, description="coin-toss: what happens when it fails"),
        ),
        simultaneous=(
            bool,
            Field(
                False,
                description="this part happens at the same time as the part before it "
                "('and', 'and if you do'): one event; without it, after it ('then')",
            ),
        ),
        cannot_be_regenerated=(
            bool,
            Field(
                False,
                description="destroy: what it destroys can't be regenerated (Magic, CR "
                "701.19c: Terror, Wrath of God)",
            ),
        ),
    )
    return fields


class _EffectPart(Strict):
    @model_validator(mode="after")
    def _one(self) -> _EffectPart:
        exactly_one(self, tuple(v.key for v in verbs()), "an effect")
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
    """Make the formats follow the registries of effect verbs and cost kinds again, after one
    was registered or removed while running (a test's own)."""
    remade = ((EffectFile, _effect_model()), (CostFile, _cost_model()))
    for model, made in (*remade, (ConditionFile, _condition_model())):
        made.model_rebuild()
        model.__pydantic_fields__ = made.__pydantic_fields__
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

    pending: list[type[BaseModel]] = [Strict]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.model_fields:
            rebuild(cls)


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in getattr(annotation, "__args__", ()) or () for m in _models_in(arg)]


_CONDITION_WORDS: tuple[ConditionValue, ...] = ("card", "monster", "spell-trap")


def _condition_value(kind: ConditionKind) -> Any:
    """The pydantic type of a condition kind's value: card types, a filter, then the words it
    takes, in its order."""
    shapes: list[Any] = []
    if "types" in kind.values:
        shapes.append(Activated | list[Activated])
    if "filter" in kind.values:
        shapes.append(FilterFile)
    words = tuple(v for v in kind.values if v in _CONDITION_WORDS)
    if words:
        shapes.append(Literal[words])
    union = shapes[0]
    for shape in shapes[1:]:
        union = union | shape
    return union | None


class _Refinements(Strict):
    """The keys of a condition that refine its kind, or that stand alone."""

    by: Side = Field(
        "any",
        description="who activated the card, or summoned or controls the monster, relative to "
        "this card's controller",
    )
    how: Literal["normal", "tribute", "special", "any"] = Field(
        "any", description="how the monster is summoned"
    )
    includes: Annotated[list[str], Field(min_length=1, max_length=20)] | None = Field(
        None,
        description="with 'activates': the activation includes one of these effects (effect "
        "verbs: add-from-deck, special-summon, draw, ...; 'VERB from ZONE': a part with that "
        "verb that chooses its card in that zone, 'special-summon from deck')",
    )
    on_field: bool = Field(
        False,
        description="with 'activates': the activation is of an effect on the field, a monster's "
        "effect activated while it is there or an effect of a Spell/Trap already face-up there; "
        "not a card's own activation, nor an effect activated in the hand or graveyard (Ghost "
        "Ogre & Snow Rabbit)",
    )
    would_destroy: FilterFile | Literal["card", "monster", "spell-trap"] | None = Field(
        None,
        description="with 'activates': the activation would destroy cards that fit (its "
        "target, or the cards a mass effect destroys now); 'controller' is seen from this card",
    )
    at_least: int = Field(
        1, ge=1, le=10, description="with 'would-destroy': at least this many of them"
    )
    during: str | None = Field(
        None,
        description="only during this phase: main-phase (either Main Phase) or a phase of the "
        "rule system (draw, standby, main1, battle, main2, end); alone or with another condition",
    )
    turn: Literal["yours", "opponent"] | None = Field(
        None,
        description="only during this card's controller's turn (yours) or the other player's "
        "(opponent); alone or with another condition",
    )


class _ConditionPart(Strict):
    @model_validator(mode="after")
    def _one(self) -> _ConditionPart:
        kinds = tuple(k.key for k in condition_kinds())
        given = self.__dict__
        timed = given["during"] is not None or given["turn"] is not None
        if not (timed and all(given.get(n) is None for n in kinds)):
            exactly_one(self, kinds, "a condition")
        refined = [k for k in ("includes", "would_destroy") if given[k] is not None]
        if given["on_field"]:
            refined.append("on_field")
        if refined and given.get("activates") is None:
            raise ValueError(f"'{alias(refined[0])}' goes with 'activates'")
        if given["at_least"] != 1 and given["would_destroy"] is None:
            raise ValueError("'at-least' goes with 'would-destroy'")
        return self


def _condition_model() -> type[_ConditionPart]:
    fields: dict[str, Any] = {
        kind.key: (_condition_value(kind), Field(None, description=kind.description))
        for kind in condition_kinds()
    }
    for name, info in _Refinements.model_fields.items():
        fields[name] = (info.annotation, info)
    model = create_model(
        "ConditionFile",
        __base__=_ConditionPart,
        __module__=__name__,
        __doc__="When a card may be activated: in answer to what.",
        **fields,
    )
    return model


if TYPE_CHECKING:

    class ConditionFile(_ConditionPart):
        """When a card may be activated: in answer to what (its keys are the condition kinds',
        and those that refine them)."""

        def __getattr__(self, name: str) -> Any: ...

else:
    ConditionFile = _condition_model()
    ConditionFile.model_rebuild()


def conditions() -> tuple[str, ...]:
    """The keys of the registered kinds of condition (``would_be_summoned``)."""
    return tuple(k.key for k in condition_kinds())


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
    "destroyed-by-effect",
    "banished",
    "targeted",
    "discarded",
    "step-begins",
]


class TriggerFile(Strict):
    """What makes a trigger effect trigger."""

    step: str | None = Field(
        None,
        description="with event 'step-begins': the step at whose beginning it triggers (Magic's "
        "'at the beginning of your upkeep': upkeep), while its card is on the field",
    )
    whose: Literal["your", "each"] = Field(
        "each",
        description="with event 'step-begins': at the beginning of that step of its "
        "controller's turn only ('your'), or of each turn",
    )

    event: TriggerEvent | list[TriggerEvent] = Field(
        description="what happens that triggers it (one event or a list)"
    )
    card: Literal["this"] | FilterFile = Field(
        "this",
        description="to which card: this card, or any card that fits a filter (then this card must"
        " be face-up on the field, or where 'from' says, to see it)",
    )
    from_: ZoneName | Literal["any"] = Field(
        "any",
        alias="from",
        description="the zone the card was in before the event (a card 'sent from the field to the"
        " graveyard'); any",
    )


Affecting = Literal["spells", "traps", "monsters", "other-cards"]
CONTINUOUS = ("negate_effects", "bind", "cannot_activate", "unaffected", "untargetable")


class ContinuousFile(Strict):
    """An effect that applies while its card is face-up on the field and active."""

    negate_effects: Literal["spells", "traps", "monsters"] | None = Field(
        None,
        description="negate the effects of these cards on the field (Imperial Order: spells)",
    )
    bind: Literal["target"] | None = Field(
        None,
        description="bound to its target (Call of the Haunted): when this card leaves the "
        "field the target is destroyed, and when the target is destroyed so is this card",
    )
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
        exactly_one(self, CONTINUOUS, "a continuous effect")
        return self


Effects = EffectFile | list[EffectFile]


class ModeFile(Strict):
    """One mode of a card or effect with several conditions ("When a monster would be
    Summoned, OR a Spell/Trap Card is activated"): activated on its own, its effect follows it."""

    label: str = Field(
        pattern=r"^[^()\n]+$",
        description="its name in traces and history ('A activates X choosing LABEL')",
    )
    when: ConditionFile | None = Field(None, description="the condition of this mode")
    cost: CostFile | list[CostFile] | None = Field(
        None, description="paid besides the costs the card states for every mode"
    )
    target: Targets | None = Field(None, description="what this mode targets")
    effect: Effects | None = Field(
        None, description="what this mode does: one part or a list, applied in order"
    )


class AbilityFile(Strict):
    """An activated or trigger effect of a monster (or a CMC ability)."""

    type: str = Field(description="an effect kind of the rule system (ignition, quick, ...)")
    speed: Speed | None = Field(
        None,
        description="its speed, under a rule system whose speeds are stated on each card (CMC)",
    )
    from_: Literal["field", "hand", "graveyard"] = Field(
        "field",
        alias="from",
        description="where the effect is activated from (a trigger watching other cards: where "
        "its card must be to see them); on the field it is face-up",
    )
    modes: Annotated[list[ModeFile], Field(min_length=2, max_length=6)] | None = Field(
        None, description="several conditions, each activated on its own with its own effect"
    )
    when: ConditionFile | None = Field(
        None, description="its activation condition (a Quick Effect 'when ...')"
    )
    trigger: TriggerFile | None = Field(None, description="what makes a trigger effect trigger")
    optional: bool = Field(
        False,
        description="'you can': the player may decline it (it may miss the timing); otherwise it "
        "is mandatory",
    )
    mandatory: bool = Field(
        False,
        description="a Quick Effect without 'you can' (Doomcaliber Knight): when its condition is "
        "met it must be activated, before anything else is done",
    )
    wording: Literal["when", "if"] = Field(
        "when",
        description="'When ... you can' (misses the timing unless its event was the last thing to "
        "happen) or 'If ... you can' (does not)",
    )
    cost: CostFile | list[CostFile] | None = Field(
        None, description="what is paid on activation: one cost or a list"
    )
    target: Targets | None = Field(
        None,
        description="which cards it may target (chosen on activation, checked again on "
        "resolution); a list of two filters: two targets, each with its own ('target "
        "creature and target player', CR 115.1)",
    )
    targets: int = Field(
        1,
        ge=1,
        le=2,
        description="how many different cards it targets, each fitting 'target' (1 or 2; "
        "Magic's Fire): on resolution each is checked again, it does nothing to the illegal "
        "ones and does not resolve when all are illegal",
    )
    effect: Effects | None = Field(
        None, description="what it does on resolution: one part or a list, applied in order"
    )
    once: Once | None = Field(None, description=ONCE)
    no_response: bool = Field(False, description="neither player can respond to it")
    label: str | None = Field(None, description="a short name for this ability in traces")
    cannot_be_negated: bool = Field(
        False, description="its activation and effect cannot be negated"
    )


class CardFile(Strict):
    """A card: where it is, who has it, and what it does."""

    card: str | None = Field(None, description="a card of the library this one copies")
    kind: str | None = Field(
        None,
        description="the card kind under the rule system (normal-spell, counter-trap, effect-"
        "monster, ...)",
    )
    controller: str | None = Field(None, description="the player who controls it (a player's name)")
    owner: str | None = Field(
        None,
        description="the player who owns it (default: its controller); it goes back to its owner "
        "when it leaves the field",
    )
    zone: ZoneName | None = Field(
        None,
        description="where it is: hand, field, graveyard, banished, deck, stack (Magic) "
        "(default: monsters on the field, Spells and Traps in the hand)",
    )
    set: Literal["this-turn", "earlier-turn"] | None = Field(
        None,
        description="a card Set face-down on the field, this turn or in an earlier turn (a Trap "
        "Card Set this turn cannot be activated)",
    )
    face: Literal["up", "down"] | None = Field(
        None, description="face-up or face-down, on the field"
    )
    dizzy: bool = Field(False, description="the card is dizzy (used) at the scenario's point (CMC)")
    atk: Stat | None = Field(None, description="its printed ATK")
    def_: Stat | None = Field(None, alias="def", description="its printed DEF")
    power: Stat | None = Field(None, description="Magic: a creature's printed power (its ATK)")
    toughness: Stat | None = Field(
        None, description="Magic: a creature's printed toughness (its DEF)"
    )
    attacking: bool = Field(
        False,
        description="Magic: an attacking creature (the scenario starts after attackers are "
        "declared)",
    )
    blocking: str | None = Field(
        None, description="Magic: the attacking creature this creature blocks"
    )
    mana: ManaText | None = Field(
        None,
        description="Magic: the card's mana cost ('{1}{U}{U}', CR 202.1), paid from its "
        "caster's mana pool as it is cast",
    )
    morph: ManaText | None = Field(
        None,
        description="Magic: a creature's morph cost ('{2}{W}{W}', CR 702.37): face-down on the "
        "battlefield ('face: down') it is a 2/2 with no colour, and its controller may pay this "
        "cost to turn it face up any time they have priority (a special action, 116.2b)",
    )
    tapped: bool = Field(False, description="Magic: a tapped permanent (CR 110.5)")
    split_second: bool = Field(
        False,
        description="Magic's split second (CR 702.61): while this spell is on the stack, no "
        "spell may be cast and no ability but a mana ability activated",
    )
    storm: bool = Field(
        False,
        description="Magic's storm (CR 702.40): when this instant or sorcery is cast, it is "
        "copied once for each other spell cast before it this turn (the scenario's "
        "'spells-cast' included); its controller may choose new targets for the copies",
    )
    first_strike: bool = Field(
        False,
        description="Magic's first strike (CR 702.7): a creature that deals its combat damage "
        "in a first-strike combat damage step, before the creatures without it (510.4)",
    )
    double_strike: bool = Field(
        False,
        description="Magic's double strike (CR 702.4): a creature that deals its combat damage "
        "in both the first-strike and the regular combat damage step (510.4)",
    )
    position: Literal["attack", "defense"] | None = Field(
        None,
        description="a monster on the field: its battle position (default: Attack Position "
        "face-up, Defense Position face-down)",
    )
    attacked: bool = Field(False, description="a monster that already attacked this turn")
    level: int | None = Field(
        None,
        ge=0,
        le=13,
        description="its Level (a Tribute Summon needs 1 tribute from Level 5, 2 from Level 7)",
    )
    archetype: str | list[str] | None = Field(None, description="its archetype(s), for filters")
    attribute: Attribute | None = Field(
        None, description="Yu-Gi-Oh!: a monster's Attribute (dark, light, earth, ...)"
    )
    monster_type: MonsterType | None = Field(
        None, description="Yu-Gi-Oh!: a monster's Type (fiend, spellcaster, winged-beast, ...)"
    )
    color: Color | list[Color] | None = Field(
        None, description="Magic: its colour(s) (CR 105.1); none: colourless"
    )
    speed: Speed | None = Field(
        None,
        description="its speed, under a rule system whose speeds are stated on each card (CMC)",
    )
    speed_modifier: Literal["slow", "speed-up"] | list[Literal["slow", "speed-up"]] | None = Field(
        None, description="modifiers applied to the card, in order; they add up"
    )
    when: ConditionFile | None = Field(
        None, description="the activation condition of a Spell or Trap Card"
    )
    cost: CostFile | list[CostFile] | None = Field(
        None, description="what is paid on activation: one cost or a list"
    )
    target: Targets | None = Field(
        None,
        description="which cards it may target (chosen on activation, checked again on "
        "resolution); a list of two filters: two targets, each with its own ('target "
        "creature and target player', CR 115.1)",
    )
    targets: int = Field(
        1,
        ge=1,
        le=2,
        description="how many different cards it targets, each fitting 'target' (1 or 2; "
        "Magic's Fire): on resolution each is checked again, it does nothing to the illegal "
        "ones and does not resolve when all are illegal",
    )
    effect: Effects | None = Field(
        None, description="what it does on resolution: one part or a list, applied in order"
    )
    once: Once | None = Field(None, description=ONCE)
    no_response: bool = Field(
        False, description="neither player can respond to its activation (a chain lock)"
    )
    continuous: ContinuousFile | list[ContinuousFile] | None = Field(
        None,
        description="its continuous effects (one or a list), applying while it is face-up on the "
        "field and active",
    )
    modes: Annotated[list[ModeFile], Field(min_length=2, max_length=6)] | None = Field(
        None,
        description="a Spell or Trap Card with several conditions: each mode is activated on "
        "its own, with its own effect",
    )
    ability: AbilityFile | None = Field(None, description="the monster's effect")
    abilities: list[AbilityFile] | None = Field(
        None, description="the monster's effects, when it has several"
    )
    text: str | None = Field(
        None, description="the part of the card's official text this entry encodes"
    )
    source: str | None = Field(None, description="where the official text or ruling is")
    cannot_be_negated: bool = Field(
        False,
        description="this card's activation and effects cannot be negated, nor its continuous "
        "effects by continuous negations",
    )
