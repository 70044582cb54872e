"""Rule systems as frozen records: the parameters that select the rule primitives."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from verifier.errors import Span

__all__ = [
    "ENUMS",
    "CardZone",
    "Cleanup",
    "ClosesOn",
    "CombatDamage",
    "Failure",
    "HandSelfSummons",
    "Kind",
    "MissingTiming",
    "ResolutionMode",
    "Respond",
    "RightToRespond",
    "RuleSystem",
    "Simultaneous",
    "SpeedFrom",
    "Unactivatable",
]


class SpeedFrom(StrEnum):
    """Where an activation's speed comes from."""

    KIND = "kind"
    """Its card kind or effect kind (Yu-Gi-Oh!'s Spell Speeds)."""
    CARD = "card"
    """The card itself (CMC's speeds S and A-E)."""


class Respond(StrEnum):
    """Which speeds may respond to a link."""

    AT_LEAST_PREVIOUS = "at-least-previous"
    FASTER_THAN_PREVIOUS = "faster-than-previous"
    ANY = "any"


class RightToRespond(StrEnum):
    """Who may act after a link is added."""

    OTHER_PLAYER_FIRST = "other-player-first"
    CASTER_KEEPS = "caster-keeps"
    ANYONE = "anyone"


class ClosesOn(StrEnum):
    """What closes a chain."""

    TWO_PASSES_IN_A_ROW = "two-passes-in-a-row"
    BOTH_PRESS_RESOLVE = "both-press-resolve"


class Failure(StrEnum):
    """What makes a link resolve without effect."""

    TARGET = "target"
    TARGET_OR_SOURCE = "target-or-source"


class Cleanup(StrEnum):
    """Which activated cards go to the graveyard, and when."""

    ACTIVATED_SPELLS_TRAPS = "activated-spells-traps"
    SPELLS = "spells"
    ON_RESOLUTION = "on-resolution"


class Simultaneous(StrEnum):
    """How triggers that trigger at once are put on the chain."""

    SEGOC = "segoc"
    APNAP = "apnap"


class MissingTiming(StrEnum):
    """Which optional triggers can miss the timing."""

    WHEN_WORDING = "when-wording"
    ALL_OPTIONAL = "all-optional"
    NEVER = "never"


class Unactivatable(StrEnum):
    """What happens to a trigger that cannot be activated when it would be."""

    DROP = "drop"
    WAIT = "wait"


class ResolutionMode(StrEnum):
    """How a closed chain resolves."""

    WHOLE_CHAIN = "whole-chain"
    ONE_AT_A_TIME = "one-at-a-time"


class CardZone(StrEnum):
    """Where an activated card waits for its link to resolve."""

    FIELD = "field"
    STACK = "stack"


class HandSelfSummons(StrEnum):
    """How many triggers of monsters that Special Summon themselves from the hand a player
    may activate per chain."""

    ANY = "any"
    ONE_PER_CHAIN = "one-per-chain"


class CombatDamage(StrEnum):
    """How Magic's combat damage is dealt."""

    DEALT = "dealt"
    STACK = "stack"


ENUMS: dict[str, type[StrEnum]] = {
    "speed_from": SpeedFrom,
    "respond": Respond,
    "right_to_respond": RightToRespond,
    "closes_on": ClosesOn,
    "failure": Failure,
    "cleanup": Cleanup,
    "simultaneous": Simultaneous,
    "missing_timing": MissingTiming,
    "unactivatable": Unactivatable,
    "resolution_mode": ResolutionMode,
    "card_zone": CardZone,
    "hand_self_summons": HandSelfSummons,
    "combat_damage": CombatDamage,
}
"""The parameters of a rule system whose values are a closed vocabulary, with theirs."""


@dataclass(frozen=True, slots=True)
class Kind:
    """A card kind or effect kind and what the rule system says about it."""

    name: str
    speed: int | None
    card: str | None
    effect: bool
    trigger: bool
    hand: str
    set_wait: bool
    stays: bool
    cast: bool = False
    """A monster card of this kind is itself cast from the hand (a Magic creature spell)."""


@dataclass(frozen=True, slots=True)
class RuleSystem:
    """The parameters of one rule system; each selects a rule primitive in ``verifier.rules``.

    Speeds are ranks: the index of the speed in ``speeds`` as the model file lists them.
    """

    name: str
    description: str
    game: str
    path: str
    speeds: tuple[str, ...]
    speed_from: SpeedFrom
    kinds: dict[str, Kind]
    respond: Respond
    min_response: int | None
    right_to_respond: RightToRespond
    closes_on: ClosesOn
    auto_resolve_seconds: int | None
    spell_trap_zones: int | None
    monster_zones: int | None
    order: tuple[str, ...]
    instant: frozenset[int]
    failure: Failure
    cleanup: Cleanup
    simultaneous: Simultaneous
    earlier_triggered_first: bool
    missing_timing: MissingTiming
    unactivatable: Unactivatable
    summon_negation: bool
    ignition_priority: bool
    slow_limit: int | None
    speed_up_limit: int | None
    phases: tuple[str, ...]
    main_phases: tuple[str, ...]
    battle: bool = False
    """Whether the rule system has a Battle Phase with attacks (its ``battle`` section)."""
    damage_step: frozenset[str] = frozenset()
    """What may be activated from the start of the Damage Step until damage calculation."""
    damage_calculation: frozenset[str] = frozenset()
    """What may be activated during damage calculation."""
    after_damage_calculation: frozenset[str] = frozenset()
    """What may be activated after damage calculation, to the end of the Damage Step."""
    replay: bool = True
    """Whether a change in the opponent's monsters after an attack declaration is a replay."""
    resolution_mode: ResolutionMode = ResolutionMode.WHOLE_CHAIN
    """``whole-chain``: a closed chain resolves to its end; ``one-at-a-time``: one link
    resolves, then the turn player receives priority again (Magic 117.3b, 405.5, 608.1)."""
    card_zone: CardZone = CardZone.FIELD
    """Where an activated card waits for its link to resolve: ``field`` or ``stack``."""
    hand_self_summons: HandSelfSummons = HandSelfSummons.ANY
    """``one-per-chain``: each player activates at most one trigger effect of a monster that
    Special Summons itself from the hand per chain; ``any``: no such limit."""
    combat_damage: CombatDamage | None = None
    """Magic's combat damage: ``dealt`` as the combat damage step begins, or put on the
    ``stack``; None: no combat damage."""
    state_based: frozenset[str] = frozenset()
    """The state-based actions checked after each resolution (Magic 704)."""
    needs_effect: bool = False
    """Whether a card or effect that would do nothing cannot be activated (Yu-Gi-Oh!)."""
    triggers_at_priority: bool = False
    """Whether a trigger that triggered while a chain was built goes on it the next time a
    player would receive priority (Magic 117.5), not after the chain (Yu-Gi-Oh!)."""
    life_below_zero: bool = False
    """Whether a life total can go below 0 (Magic 107.1b, 704.5a); otherwise damage and
    life lost stop at 0 (Yu-Gi-Oh!: Life Points become 0)."""
    spans: dict[str, Span] = field(default_factory=dict, compare=False, repr=False)

    @property
    def one_at_a_time(self) -> bool:
        """Whether players receive priority between two resolutions (Magic's stack)."""
        return self.resolution_mode == ResolutionMode.ONE_AT_A_TIME

    @property
    def immediate(self) -> bool:
        """Whether everything resolves the moment it is activated (no chain at all)."""
        return self.order == ("immediate",)

    def span(self, parameter: str) -> Span:
        """Where a parameter is written (the file's start when it is left at its default)."""
        return self.spans.get(parameter, Span(self.path, 1, 1))
