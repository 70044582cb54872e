"""Cards and what they do: frozen records built from scenario files, shared by both engines."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from verifier.errors import Span

__all__ = [
    "ALL_TYPES",
    "Ability",
    "Card",
    "Condition",
    "Continuous",
    "Cost",
    "Effect",
    "Filter",
    "TriggerSpec",
    "Zone",
]


class Zone(IntEnum):
    """Where a card is. The values are the encoding used by both engines."""

    DECK = 0
    HAND = 1
    FIELD = 2
    GRAVEYARD = 3
    BANISHED = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def named(cls, name: str) -> Zone:
        return cls[name.upper()]


ALL_TYPES = frozenset({"monster", "spell", "trap"})


@dataclass(frozen=True, slots=True)
class Filter:
    """Which cards qualify. ``controller`` is relative to the player the effect belongs to."""

    types: frozenset[str] = ALL_TYPES
    zone: Zone | None = None
    face: str | None = None
    controller: str = "any"
    other: bool = False
    atk_at_least: int | None = None
    atk_at_most: int | None = None
    archetype: str | None = None
    dizzy: bool | None = None
    position: str | None = None
    """``attack`` or ``defense``: a monster in that battle position."""
    attacking: bool | None = None
    """The monster whose attack is under way (or, with False, any other)."""


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost paid on activation: ``tribute`` (with a filter), ``pay-lp`` or ``dizzy``."""

    kind: str
    filter: Filter | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class Condition:
    """An activation condition: ``activates``, ``summoned``, ``would-be-summoned``, or one of
    the Battle Phase's: ``attack-declared``, ``damage-step``, ``damage-calculation``."""

    kind: str
    types: frozenset[str] = ALL_TYPES
    filter: Filter | None = None
    by: str = "any"
    how: str = "any"


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """What triggers a trigger effect, and how its activation may miss the timing."""

    events: frozenset[str]
    this_card: bool
    filter: Filter | None
    from_zone: Zone | None
    optional: bool
    wording: str


@dataclass(frozen=True, slots=True)
class Effect:
    """One part of an effect; parts resolve one after another ("then")."""

    verb: str
    obj: str | None = None
    of: str = "any"
    filter: Filter | None = None
    to: Zone | None = None
    player: str = "you"
    amount: int | None = None
    heads_at_least: int | None = None
    then: tuple[Effect, ...] = ()
    otherwise: tuple[Effect, ...] = ()
    simultaneous: bool = False
    """It happens at the same time as the part before it ("and", "and if you do"): its
    events share that part's event number. Otherwise it happens after it ("then")."""


@dataclass(frozen=True, slots=True)
class Continuous:
    """A continuous effect: ``negate-effects`` of a card type, ``bind`` to its target, or a
    lock or protection: ``cannot-activate`` (activations of cards of ``types`` by ``by``),
    ``unaffected`` (this card, by the effects of cards of ``types`` controlled by ``by``),
    ``untargetable`` (this card, or the cards ``filter`` fits, by ``by``'s card effects).
    ``by`` is relative to the card's controller."""

    kind: str
    what: str
    types: frozenset[str] = frozenset()
    by: str = "any"
    filter: Filter | None = None
    """For ``untargetable``: the cards it protects (None: this card)."""


@dataclass(frozen=True, slots=True)
class Ability:
    """Something that can be put on a chain: a spell/trap card's activation or an effect."""

    index: int
    card: int
    label: str
    kind: str
    speed: int | None
    condition: Condition | None
    trigger: TriggerSpec | None
    costs: tuple[Cost, ...]
    target: Filter | None
    effects: tuple[Effect, ...]
    once: str | None
    no_response: bool
    card_activation: bool
    span: Span | None = field(default=None, compare=False, repr=False)
    cannot_be_negated: bool = False
    """Neither its activation nor its effect can be negated."""

    def uses(self, verb: str) -> bool:
        """Whether some part of the effect (a coin toss's outcomes too) has this verb."""
        return any(e.verb == verb for e in _parts(self.effects))

    def parts(self) -> list[Effect]:
        """Every part of the effect, the outcomes of coin tosses included."""
        return _parts(self.effects)

    def acts_on(self, obj: str) -> bool:
        """Whether some part of the effect acts on this object (``summoned``, ...)."""
        return any(e.obj == obj for e in _parts(self.effects))


def _parts(effects: tuple[Effect, ...]) -> list[Effect]:
    out: list[Effect] = []
    for effect in effects:
        out.append(effect)
        out += _parts(effect.then + effect.otherwise)
    return out


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the scenario, as it is before the history is replayed."""

    index: int
    name: str
    kind: str
    type: str
    owner: int
    controller: int
    zone: Zone
    face_up: bool
    set_this_turn: bool
    dizzy: bool
    atk: int | None
    defense: int | None
    defense_position: bool
    attacked: bool
    level: int | None
    archetypes: frozenset[str]
    speed_modifiers: tuple[str, ...]
    stays: bool
    continuous: tuple[Continuous, ...]
    abilities: tuple[int, ...]
    span: Span | None = field(default=None, compare=False, repr=False)
    cannot_be_negated: bool = False
    """Its activation and effects cannot be negated (continuous negations included)."""
