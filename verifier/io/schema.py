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


ZoneName = Literal[
    "hand", "field", "graveyard", "banished", "deck", "stack", "battlefield", "exile", "library"
]
"""The zones; ``battlefield``, ``exile`` and ``library`` are Magic's words for three of them."""
CardType = Literal["monster", "spell", "trap", "spell-trap", "card", "creature", "land"]
"""The card types; ``creature`` is Magic's word for a monster."""
Activated = Literal["monster", "spell", "trap", "spell-trap", "card", "monster-effect"]
Side = Literal["you", "opponent", "any"]
Speed = Annotated[str | int, Field(description="a speed named by the rule system")]
Color = Literal["white", "blue", "black", "red", "green"]
Attribute = Literal["dark", "light", "earth", "water", "fire", "wind", "divine"]
"""Yu-Gi-Oh!: a monster's Attribute."""
MonsterType = Literal[
    "aqua",
    "beast",
    "beast-warrior",
    "creator-god",
    "cyberse",
    "dinosaur",
    "divine-beast",
    "dragon",
    "fairy",
    "fiend",
    "fish",
    "illusion",
    "insect",
    "machine",
    "plant",
    "psychic",
    "pyro",
    "reptile",
    "rock",
    "sea-serpent",
    "spellcaster",
    "thunder",
    "warrior",
    "winged-beast",
    "wyrm",
    "zombie",
]
"""Yu-Gi-Oh!: a monster's Type (its race: Fiend, Spellcaster, Winged Beast...)."""
ColorFilter = Literal[
    "white",
    "blue",
    "black",
    "red",
    "green",
    "colorless",
    "non-white",
    "non-blue",
    "non-black",
    "non-red",
    "non-green",
]

# Every number the formats accept is bounded (see verifier.spec.values).
Stat = Annotated[int, Field(ge=0, le=MAX_POINTS, description="ATK or DEF, 0 to 10^9")]
ManaText = Annotated[str, Field(min_length=1, max_length=40)]
"""Magic mana symbols: ``{1}{U}{U}`` or ``1UU`` (read by :func:`verifier.rules.mana.parse`)."""
Zones = Annotated[int, Field(ge=1, le=10, description="a number of zones, 1 to 10")]
Names = Annotated[str | list[str], Field(description="one name or a list of names")]


# --- rule systems -------------------------------------------------------------------------


class KindFile(_Strict):
    """What one card kind or effect kind is, under a rule system."""

    speed: Speed | None = Field(None, description="its speed; none for cards never activated")
    card: Literal["monster", "spell", "trap", "land"] | None = Field(
        None,
        description="the card type of a card of this kind (a Magic land is played, never "
        "cast: CR 305)",
    )
    effect: bool = Field(False, description="an effect of a monster, not a card")
    trigger: bool = Field(False, description="activates only when its trigger happens")
    hand: Literal["any", "own-turn", "never"] = Field(
        "any", description="whether the card may be activated from the hand"
    )
    set_wait: bool = Field(False, description="cannot be activated in the turn it was set")
    stays: bool = Field(False, description="stays on the field after its chain resolves")
    cast: bool = Field(
        False,
        description="a monster card of this kind is itself cast from the hand, as a spell: it "
        "goes on the stack and, resolved, onto the field (a Magic creature spell, CR 302.1)",
    )


class ChainFile(_Strict):
    respond: Literal["at-least-previous", "faster-than-previous", "any"] = Field(
        description="which speeds may answer the link on top: at least its speed, faster than it, "
        "or any"
    )
    min_response: Speed | None = Field(
        default=None,
        description="the lowest speed that may be a response (Chain Link 2 or later); slower ones "
        "only start a chain",
    )
    right_to_respond: Literal["other-player-first", "caster-keeps", "anyone"] = Field(
        description="who may add a link: the other player first (then the one who added), the "
        "player who added it first (Magic's priority: a player who casts keeps priority), or "
        "anyone at any time"
    )
    card_zone: Literal["field", "stack"] = Field(
        "field",
        description="where an activated card is while its link waits: face-up in its zone on the "
        "field (Yu-Gi-Oh!), or on the stack (Magic: a spell is cast onto the stack)",
    )
    closes_on: Literal["two-passes-in-a-row", "both-press-resolve"] = Field(
        description="when the chain stops growing: two passes in a row, or both players pressing "
        "resolve"
    )
    auto_resolve_seconds: int | None = Field(
        None,
        ge=1,
        le=3600,
        description="a stack left unchanged this long resolves by itself (1 to 3600 seconds)",
    )
    spell_trap_zones: Zones | None = Field(
        None, description="Spell & Trap Zones per player (5 in Yu-Gi-Oh!)"
    )
    monster_zones: Zones | None = Field(
        None, description="Main Monster Zones per player (5 in Yu-Gi-Oh!)"
    )


class ResolutionFile(_Strict):
    order: (
        Literal["backwards", "immediate"]
        | list[Literal["speed", "turn-player-first", "cast-order"]]
    ) = Field(
        description="how links resolve: backwards (last in, first out), all at once, or "
        "sorted by keys (speed, then the turn player's first, then cast order)"
    )
    instant: list[Speed] = Field(default_factory=list, description="speeds that never stack")
    failure: Literal["target", "target-or-source"] = Field(
        "target", description="what makes a link fail: its target, or also its source leaving"
    )
    mode: Literal["whole-chain", "one-at-a-time"] = Field(
        "whole-chain",
        description="a closed chain resolves whole, link after link with nothing in between "
        "(Yu-Gi-Oh!), or one link at a time, after which the turn player receives priority "
        "again and the players may add to what is left (Magic's stack)",
    )


class TriggersFile(_Strict):
    simultaneous: Literal["segoc", "apnap"] = Field(
        "segoc",
        description="how triggers that happen at the same time go on a chain: SEGOC (the turn "
        "player's mandatory, the opponent's mandatory, the turn player's optional, the"
        " opponent's optional) or APNAP (the turn player's, then the opponent's)",
    )
    earlier_triggered_first: bool = Field(
        False,
        description="a trigger that triggered earlier goes on the chain before later ones (seed "
        "001)",
    )
    missing_timing: Literal["when-wording", "all-optional", "never"] = Field(
        "when-wording",
        description="which optional triggers miss the timing: 'When ... you can' ones whose event "
        "was not the last thing to happen, or every optional one that cannot activate "
        "at once (seed 001), or none (Magic: a trigger waits for the next time a player "
        "would receive priority)",
    )
    unactivatable: Literal["drop", "wait"] = Field(
        "drop", description="a mandatory trigger that cannot be activated: dropped, or waits"
    )
    hand_self_summons: Literal["any", "one-per-chain"] = Field(
        "any",
        description="trigger effects of monsters that Special Summon themselves from the hand: "
        "any number on one chain, or 'one-per-chain': each player activates at most one of them "
        "per chain (Yu-Gi-Oh!: two Battle Faders cannot both answer one attack declaration)",
    )
    placed: Literal["after-the-chain", "next-priority"] = Field(
        "after-the-chain",
        description="when a trigger that triggered while a chain is built goes on one: after "
        "that chain has resolved (Yu-Gi-Oh!'s SEGOC chain), or the next time a player would "
        "receive priority, on top of the spell whose casting triggered it (Magic 117.5, 603.3)",
    )


class WindowsFile(_Strict):
    summon_negation: bool = Field(
        True,
        description="a summon opens a Summon negation window, whose Chain Link 1 must negate the "
        "summon",
    )
    ignition_priority: bool = Field(
        False,
        description="the turn player may open the Summon response chain with a Spell Speed 1 "
        "effect 'on priority' (seed 001)",
    )


Once = Literal["turn", "chain", "name", "name-effect"]
ONCE = (
    "how often it may be activated: once per turn (this card), once per chain; 'name': once "
    "per turn for every card of its name, any of their effects (Yu-Gi-Oh!'s 'You can only "
    "activate 1 \"X\" per turn'); 'name-effect': this effect once per turn for every card of "
    "its name ('You can only use this effect of \"X\" once per turn')"
)


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


class CombatFile(_Strict):
    """Magic's combat damage step (CR 510)."""

    damage: Literal["dealt", "stack"] = Field(
        description="combat damage is dealt as the combat damage step begins, before anyone "
        "receives priority (the current rules, CR 510.2), or put on the stack as one object "
        "that resolves like a spell (the rules before Magic 2010): the damage assigned then is "
        "dealt even by a creature that has left the battlefield"
    )


class SpeedModifiersFile(_Strict):
    slow_limit: Speed = Field(description="the slowest speed a 'slow' modifier can bring a card to")
    speed_up_limit: Speed = Field(
        description="the fastest speed a 'speed-up' modifier can bring a card to"
    )


class RuleSystemFile(_Strict):
    """A rule system: the parameters that choose among the rule primitives."""

    name: str = Field(description="the rule system's name (scenarios name it in 'rules:')")
    description: str = Field(description="what the rule system is, in a sentence")
    game: str = Field(
        pattern=r"^[a-z][a-z0-9-]*$",
        description="the game it is a rule system of (a registered game: yugioh, cmc, ...)",
    )
    speeds: list[Speed] = Field(
        min_length=1, description="the speeds, slowest first (a card's speed is one of them)"
    )
    speed_from: Literal["kind", "card"] = Field(
        "kind", description="whether a card's speed comes from its kind or is stated on each card"
    )
    kinds: dict[str, KindFile] = Field(
        description="the card kinds and effect kinds, each with its speed and properties"
    )
    chain: ChainFile | None = Field(
        None, description="how a chain is built; not needed when everything resolves at once"
    )
    resolution: ResolutionFile = Field(description="how a closed chain resolves")
    cleanup: Literal["activated-spells-traps", "spells", "on-resolution"] = Field(
        "activated-spells-traps",
        description="which activated cards go to the graveyard after the chain: Spells and Traps "
        "(except Continuous, Equip and Field), or Spells only; or each card as its own link "
        "resolves (Magic: a permanent spell onto the battlefield, any other to the graveyard, "
        "a countered one to the graveyard)",
    )
    state_based: list[
        Literal["zero-life", "lethal-damage", "zero-toughness", "token-ceases", "deck-out"]
    ] = Field(
        default_factory=list,
        description="state-based actions checked whenever a player would receive priority "
        "(Magic 704): a player at 0 life loses, a creature with lethal damage is destroyed, one "
        "with toughness 0 goes to the graveyard, a token away from the battlefield ceases to "
        "exist (704.5d), a player who must draw more cards than the Deck holds loses "
        "(deck-out: the Deck's size is the scenario's 'deck')",
    )
    activation_needs_effect: bool = Field(
        False,
        description="a card or effect cannot be activated when its effect would do nothing: "
        "every part of it acts on all cards of a kind (destroy all monsters your opponent "
        "controls) and none is there (Yu-Gi-Oh!: Raigeki with no opponent's monster)",
    )
    life_below_zero: bool = Field(
        False,
        description="a life total can go below 0 (Magic 107.1b: a player at 2 dealt 3 damage "
        "is at -1, and gaining 3 then leaves 2); without it, damage and life lost stop at 0 "
        "(Yu-Gi-Oh!: Life Points become 0)",
    )
    triggers: TriggersFile | None = Field(
        None,
        description="how trigger effects go on the chain; without it, cards have no trigger "
        "effects",
    )
    windows: WindowsFile | None = Field(None, description="the timing windows around a summon")
    speed_modifiers: SpeedModifiersFile | None = Field(
        None,
        description="the limits of the 'slow' and 'speed-up' modifiers (CMC); without it, there "
        "are none",
    )
    battle: BattleFile | None = Field(
        None, description="the Battle Phase; without it a turn has no battle"
    )
    combat: CombatFile | None = Field(
        None, description="Magic's combat damage; without it creatures deal no combat damage"
    )
    phases: list[str] = Field(
        default_factory=lambda: ["main1"],
        description="the phases of a turn, in order (the game's names)",
    )
    main_phases: list[str] = Field(
        default_factory=lambda: ["main1"],
        description="the phases in which Spell Speed 1 cards may start a chain",
    )


# --- cards --------------------------------------------------------------------------------


class FilterFile(_Strict):
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


class CostFile(_Strict):
    """A cost paid on activation, before the effect goes on the chain."""

    tribute: FilterFile | Literal["monster", "this"] | None = Field(
        None, description="Tribute a monster you control (a filter chooses which), or this card"
    )
    discard: FilterFile | Literal["this", 1] | None = Field(
        None,
        description="discard this card, 1 card of your hand (a listed card or one of the "
        "hand's unlisted cards), or a card of your hand that fits a filter",
    )
    banish: FilterFile | Literal["this"] | None = Field(
        None,
        description="banish this card (from where it is: the hand, the graveyard or the "
        "field), or a card of yours that fits a filter (from the graveyard unless it names "
        "a zone)",
    )
    send_to_graveyard: Literal["this"] | None = Field(
        None,
        description="send this card from the hand to the graveyard (Effect Veiler): not a "
        "discard, so nothing that watches for discarded cards sees it",
    )
    pay_lp: Points | Literal["half"] | None = Field(
        None, description="pay Life Points: a number, or half (rounded down)"
    )
    dizzy: Literal["this"] | None = Field(None, description="dizzy this card (CMC)")
    tap: Literal["this"] | None = Field(
        None, description="Magic: tap this permanent ({T}, CR 107.5); it untaps in its untap step"
    )
    mana: ManaText | None = Field(
        None,
        description="Magic: a mana cost paid from the mana pool ('{1}{U}', '{2}'; CR 202, 601.2g)",
    )

    @model_validator(mode="after")
    def _one(self) -> CostFile:
        _exactly_one(self, COSTS, "a cost")
        return self


COSTS = ("tribute", "discard", "banish", "send_to_graveyard", "pay_lp", "dizzy", "tap", "mana")


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


EventCards = FilterFile | Literal["card", "monster", "spell-trap"] | None


class ConditionFile(_Strict):
    """When a card may be activated: in answer to what."""

    activates: Activated | list[Activated] | None = Field(
        None,
        description="when a card or effect of these types is activated (the link on top of the "
        "chain): monster, spell, trap, spell-trap, card, monster-effect",
    )
    summoned: FilterFile | Literal["monster"] | None = Field(
        None, description="when a monster that fits is summoned (the Summon response window)"
    )
    would_be_summoned: FilterFile | Literal["monster"] | None = Field(
        None,
        description="when a monster that fits would be summoned (the Summon negation window: Chain"
        " Link 1)",
    )
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
    destroyed: EventCards = Field(None, description="when a card that fits is destroyed")
    destroyed_by_effect: EventCards = Field(
        None, description="when a card that fits is destroyed by a card effect"
    )
    destroyed_by_battle: EventCards = Field(
        None, description="when a monster that fits is destroyed by battle"
    )
    sent_to_graveyard: EventCards = Field(
        None, description="when a card that fits is sent to the graveyard (from anywhere)"
    )
    leaves_field: EventCards = Field(None, description="when a card that fits leaves the field")
    banished: EventCards = Field(None, description="when a card that fits is banished")
    targeted: EventCards = Field(
        None, description="when a card that fits is targeted by an activation"
    )
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

    @model_validator(mode="after")
    def _one(self) -> ConditionFile:
        timed = self.during is not None or self.turn is not None
        if not (timed and all(getattr(self, n) is None for n in CONDITIONS)):
            _exactly_one(self, CONDITIONS, "a condition")
        refined = [k for k in ("includes", "would_destroy") if getattr(self, k) is not None]
        if self.on_field:
            refined.append("on_field")
        if refined and self.activates is None:
            raise ValueError(f"'{_alias(refined[0])}' goes with 'activates'")
        if self.at_least != 1 and self.would_destroy is None:
            raise ValueError("'at-least' goes with 'would-destroy'")
        return self


CONDITIONS = (
    "activates",
    "summoned",
    "would_be_summoned",
    "attack_declared",
    "damage_step",
    "damage_calculation",
    "destroyed",
    "destroyed_by_effect",
    "destroyed_by_battle",
    "sent_to_graveyard",
    "leaves_field",
    "banished",
    "targeted",
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
    "destroyed-by-effect",
    "banished",
    "targeted",
    "discarded",
    "step-begins",
]


class TriggerFile(_Strict):
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


class ContinuousFile(_Strict):
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
        _exactly_one(self, CONTINUOUS, "a continuous effect")
        return self


Effects = EffectFile | list[EffectFile]


class ModeFile(_Strict):
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


class AbilityFile(_Strict):
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


class CardFile(_Strict):
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


class ClaimFile(_Strict):
    """A claim, its expected verdict, and optionally a variant of the scenario it is about."""

    claim: str = Field(
        description="the claim, in the claim language ('can_respond(B)', 'always zone(\"X\") == "
        "graveyard', ...)"
    )
    expect: Literal["holds", "fails"] | None = Field(
        None, description="the verdict it should have: holds or fails (a golden test)"
    )
    id: str | None = Field(None, description="its name in reports (default: claim-N)")
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
    description: str | None = Field(None, description="what the scenario is, in a sentence")
    players: list[str] = Field(
        default_factory=lambda: ["A", "B"],
        min_length=2,
        max_length=2,
        description="the two players' names (default: A and B)",
    )
    turn: str = Field(description="the turn player")
    phase: str | None = Field(
        None, description="the phase of the turn (default: the first Main Phase)"
    )
    step: str | None = Field(
        None, description="the step of the turn the scenario starts in (names its phase too)"
    )
    until: str | None = Field(
        None,
        description="a step or phase of the turn: continuations go on through the turn, "
        "phase by phase, until it ends (without it, they end with the scenario's chains)",
    )
    life_points: Points = 8000
    hands: dict[str, Annotated[int, Field(strict=True, ge=0, le=60)]] = Field(
        default_factory=dict,
        description="how many cards each player holds besides the listed ones (unknown "
        "cards, 0 to 60): costs may discard them, draws add to them",
    )
    spells_cast: Annotated[int, Field(strict=True, ge=0, le=20)] = Field(
        0,
        description="Magic: how many spells were cast earlier this turn, before the scenario "
        "(0 to 20; storm counts them, CR 702.40a)",
    )
    deck: dict[str, Annotated[int, Field(strict=True, ge=0, le=60)]] = Field(
        default_factory=dict,
        description="how many cards each player's Deck holds besides the listed ones (0 to "
        "60): draws and 'add from the Deck' take from them, a card cannot be activated to "
        "draw more than it holds (under activation_needs_effect), and a player who must draw "
        "more loses (deck-out); a player not listed has a Deck that is not counted",
    )
    library: str | list[str] | None = Field(
        None, description="card library files (*.cards.yaml) whose cards the scenario names"
    )
    cards: dict[str, CardFile] = Field(
        description="the cards, by name: where each is, who has it, and what it does"
    )
    history: list[HistoryStep] = Field(
        default_factory=list,
        description="what has happened, in sentences; the claims are about the continuations from "
        "there",
    )
    claims: list[ClaimFile | str] = Field(
        default_factory=list,
        description="the claims to decide: a claim, or an entry with its expected verdict",
    )
    limits: LimitsFile = Field(
        default_factory=lambda: LimitsFile.model_validate({}),
        description="bounds on the scenario's own state",
    )


class LibraryFile(_Strict):
    """A card library shared between scenarios."""

    description: str | None = Field(None, description="what the library holds")
    cards: dict[str, CardFile] = Field(description="the cards, by their official names")
    left_out: dict[str, str] = Field(
        default_factory=dict,
        description="cards the format cannot encode faithfully, each with the reason",
    )


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
