"""The rule-system format: card kinds, the chain, resolution, triggers, windows, battle and
combat, speeds."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from verifier.io.schema.base import Speed, Strict, Zones


class KindFile(Strict):
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


class ChainFile(Strict):
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


class ResolutionFile(Strict):
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


class TriggersFile(Strict):
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


class WindowsFile(Strict):
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


class BattleFile(Strict):
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


class CombatFile(Strict):
    """Magic's combat damage step (CR 510)."""

    damage: Literal["dealt", "stack"] = Field(
        description="combat damage is dealt as the combat damage step begins, before anyone "
        "receives priority (the current rules, CR 510.2), or put on the stack as one object "
        "that resolves like a spell (the rules before Magic 2010): the damage assigned then is "
        "dealt even by a creature that has left the battlefield"
    )


class SpeedModifiersFile(Strict):
    slow_limit: Speed = Field(description="the slowest speed a 'slow' modifier can bring a card to")
    speed_up_limit: Speed = Field(
        description="the fastest speed a 'speed-up' modifier can bring a card to"
    )


class RuleSystemFile(Strict):
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
