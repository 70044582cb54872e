"""Cards and what they do: frozen records built from scenario files, shared by both engines."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from verifier.errors import Span

__all__ = [
    "ALL_TYPES",
    "COLOR_BITS",
    "HIDDEN",
    "Ability",
    "Card",
    "Condition",
    "Continuous",
    "ContinuousKind",
    "Cost",
    "Effect",
    "Filter",
    "TokenSpec",
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
    STACK = 5  # a spell being cast, under a rule system whose chain holds its cards (MTG)
    NONE = 6  # nowhere: a token not created yet, or one that ceased to exist (MTG, CR 111.7)

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def named(cls, name: str) -> Zone:
        return cls[name.upper()]


ALL_TYPES = frozenset({"monster", "spell", "trap", "land"})

COLOR_BITS = {"white": 1, "blue": 2, "black": 4, "red": 8, "green": 16}
"""Magic: each colour's bit in a card's colours kept in the state (CR 105.1, the optional
field ``colors``)."""


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
    direct: bool | None = None
    """Yu-Gi-Oh!: the monster whose direct attack is under way (or, with False, any other)."""
    color: str | None = None
    """Magic: a colour the card has, ``colorless``, or ``non-COLOR``."""
    kinds: frozenset[str] | None = None
    """The card kinds that fit (None: any)."""
    level_at_least: int | None = None
    level_at_most: int | None = None
    def_at_least: int | None = None
    def_at_most: int | None = None
    attributes: frozenset[str] | None = None
    """Yu-Gi-Oh!: the Attributes that fit (None: any)."""
    monster_types: frozenset[str] | None = None
    """Yu-Gi-Oh!: the monster Types that fit (None: any)."""
    players: str | None = None
    """A target filter's players (CR 115.1): ``any``, ``you`` or ``opponent`` may be
    targeted too (None: no player)."""
    cards: bool = True
    """Whether cards fit at all (False: a filter of players only, "target player")."""


HIDDEN = -2
"""A card of a hand that the scenario does not list (one of ``hands:``), where a cost or an
action names a card: discarding "1 card" may discard one of them."""


@dataclass(frozen=True, slots=True)
class Cost:
    """A cost paid on activation, of a kind of :mod:`verifier.rules.costs`: ``tribute``,
    ``discard`` or ``banish`` (this card, or one card chosen by a filter), ``send-to-graveyard``
    (this card, from the hand), ``pay-lp``, ``dizzy`` (Magic's tap, ``{T}``) or ``mana`` (a
    mana cost, CR 202.1)."""

    kind: str
    filter: Filter | None = None
    amount: int | None = None
    this: bool = False
    """The card itself pays it ("discard this card", "Tribute this card")."""
    hidden: bool = False
    """A card of the hand that the scenario does not list may pay it (any card, no type)."""
    mana: tuple[int, ...] = ()
    """``mana``: the coloured symbols of the cost, a count per type (W, U, B, R, G, C); its
    ``amount`` is the generic part (CR 202.1)."""
    chooses: bool = False
    """Whether the player chooses the card that pays it (one of several; see
    :mod:`verifier.rules.costs`)."""


@dataclass(frozen=True, slots=True)
class Condition:
    """An activation condition: ``activates``, ``summoned``, ``would-be-summoned``, one of
    the Battle Phase's (``attack-declared``, ``damage-step``, ``damage-calculation``), an
    event (``destroyed``, ``banished``, ...), or ``during`` (only a phase or a turn: ``phases`` and
    ``turn``, which also narrow any other kind)."""

    kind: str
    types: frozenset[str] = ALL_TYPES
    filter: Filter | None = None
    by: str = "any"
    how: str = "any"
    includes: frozenset[str] = frozenset()
    """``activates``: the activation answered includes one of these effect verbs."""
    on_field: bool = False
    """``activates``: the activation answered is of an effect on the field (not a card's own
    activation, nor an effect activated in the hand or graveyard)."""
    would_destroy: Filter | None = None
    """``activates``: the activation answered would destroy cards that fit this filter ..."""
    at_least: int = 1
    """... at least this many of them."""
    phases: frozenset[str] | None = None
    """Only during these phases ("During your opponent's Main Phase"); None: any phase."""
    turn: str = "any"
    """Only during the turn of ``yours`` (this card's controller) or the ``opponent``."""
    event: bool = False
    """Whether it is met by an event that happened to a card while that event is the last
    thing to have happened (:mod:`verifier.rules.events`)."""


@dataclass(frozen=True, slots=True)
class TriggerSpec:
    """What triggers a trigger effect, and how its activation may miss the timing."""

    events: frozenset[str]
    this_card: bool
    filter: Filter | None
    from_zone: Zone | None
    optional: bool
    wording: str
    step: str | None = None
    """Event ``step-begins``: the step at whose beginning it triggers."""
    whose: str = "each"
    """Event ``step-begins``: ``your`` (its controller's turn only) or ``each``."""


@dataclass(frozen=True, slots=True)
class TokenSpec:
    """What ``create-token`` makes (CR 111): a creature token's name, power, toughness and
    colours, and how many token slots of that name the scenario keeps for it."""

    name: str
    power: int
    toughness: int
    colors: frozenset[str] = frozenset()
    slots: int = 1


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
    token: TokenSpec | None = None
    """``create-token``: the token it creates (``amount`` of them)."""
    mana: tuple[int, ...] = ()
    """``add-mana``: how much of each type of mana it adds (W, U, B, R, G, C)."""
    no_regen: bool = False
    """``destroy``: what it destroys cannot be regenerated (Magic, CR 701.19c)."""
    colors: frozenset[str] | None = None
    """``become-color``: the colours it gives (none: colourless); None for other verbs."""


class ContinuousKind(StrEnum):
    """What a continuous effect does (:class:`Continuous`)."""

    NEGATE_EFFECTS = "negate-effects"
    """The effects of cards of a type are negated (Imperial Order)."""
    BIND = "bind"
    """The card is bound to its target: destroyed when it leaves (Call of the Haunted)."""
    CANNOT_ACTIVATE = "cannot-activate"
    """A lock: cards of these types cannot be activated (Royal Decree)."""
    UNAFFECTED = "unaffected"
    """A protection: this card is unaffected by the effects of cards of these types."""
    UNTARGETABLE = "untargetable"
    """A protection: cards cannot be targeted by card effects."""


@dataclass(frozen=True, slots=True)
class Continuous:
    """A continuous effect: ``negate-effects`` of a card type, ``bind`` to its target, or a
    lock or protection: ``cannot-activate`` (activations of cards of ``types`` by ``by``),
    ``unaffected`` (this card, by the effects of cards of ``types`` controlled by ``by``),
    ``untargetable`` (this card, or the cards ``filter`` fits, by ``by``'s card effects).
    ``by`` is relative to the card's controller."""

    kind: ContinuousKind
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
    origin: Zone = Zone.FIELD
    """Where a monster's effect is activated from: the field (face-up), the hand or the
    graveyard; for a trigger watching other cards, where its card must be to see them."""
    mode: str | None = None
    """The mode this ability is, for a card with several (Solemn Judgment: ``summon``)."""
    modes_of: int = -1
    """For a mode: which effect of its card it is a mode of (0: a Spell/Trap Card's own
    activation; ``i + 1``: the card's listed effect ``i``); -1 for an ability without modes.
    The modes of one effect are one effect to its ``once`` limit."""
    cannot_be_negated: bool = False
    """Neither its activation nor its effect can be negated."""
    combat_damage: bool = False
    """Magic before 2010: the combat damage put on the stack as the combat damage step
    begins (an object of the game's, not of a card; it is tied to the first attacker)."""
    targets: int = 1
    """How many different cards it targets (each fits ``target``): 1 or 2."""
    target2: Filter | None = None
    """The second target's own filter ("target creature and target player", CR 115.1);
    None: both fit ``target``."""
    mandatory: bool = False
    """A mandatory Quick Effect: when it can be activated, it must be, before anything else
    is done (and out of turn: it does not wait for the right to respond)."""
    split_second: bool = False
    """Magic's split second: while its link is on the stack, only activations that never go
    on the stack (mana abilities) may be made (CR 702.61a)."""

    def may_pay_with_itself(self, cost: Cost) -> bool:
        """Whether its own card may be the one that pays ``cost``: a Tribute (Magic: a
        sacrifice) for an effect activated on the field, which may Tribute the monster whose
        effect it is (Cannon Soldier's "Tribute 1 monster"; CR 701.17a: any permanent its
        controller controls). A card being activated, or an effect activated from the hand
        or the graveyard, never pays its own cost with a card chosen by a filter."""
        return cost.kind == "tribute" and not self.card_activation and self.origin is Zone.FIELD

    def filter_of(self, second: bool) -> Filter | None:
        """The filter the first or the second target must fit."""
        return self.target2 if second and self.target2 is not None else self.target

    def uses(self, verb: str) -> bool:
        """Whether some part of the effect (a coin toss's outcomes too) has this verb;
        ``VERB from ZONE``: a part with that verb that acts on a card in that zone, one it
        chooses there ("Special Summon 1 monster from your Deck") or its target there
        (Monster Reborn: "Target 1 monster in either GY; Special Summon it")."""
        name, _, zone = verb.partition(" from ")
        return any(e.verb == name and (not zone or self._from(e, zone)) for e in self.parts())

    def _from(self, part: Effect, zone: str) -> bool:
        """Whether ``part`` acts on a card in ``zone``: the card it chooses, or its target."""
        where = Zone.named(zone)
        if part.obj == "target":
            targets = [self.target, self.target2 if self.targets > 1 else None]
            return any(t is not None and t.zone is where for t in targets)
        return part.filter is not None and part.filter.zone is where

    def choices(self) -> list[Filter]:
        """The filters of the parts that act on a card chosen as it resolves (``chosen``)."""
        return [e.filter for e in self.choosing() if e.filter is not None]

    def choosing(self) -> list[Effect]:
        """The parts that act on a card chosen as it resolves (``chosen``, with a filter)."""
        return [e for e in _parts(self.effects) if e.obj == "chosen" and e.filter]

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
    attacking: bool = False
    """Magic: an attacking creature."""
    colors: frozenset[str] = frozenset()
    """Magic: its colours (none: colourless)."""
    blocking: int = -1
    """Magic: the attacking creature it blocks, or -1."""
    first_strike: bool = False
    """Magic's first strike: it deals combat damage in the first-strike combat damage step
    (CR 702.7b, 510.4)."""
    double_strike: bool = False
    """Magic's double strike: it deals combat damage in both combat damage steps (CR
    702.4b, 510.4)."""
    printed: str = ""
    """The name printed on it, which "once per turn" limits by name count: the library card
    it copies (``card:``, or a library card of its own name), else its own name."""

    token: str = ""
    """A token's name ("Soldier"): a card the scenario does not list, in no zone until an
    effect creates it (CR 111.1); it ceases to exist once it leaves the battlefield."""
    maker: int = -1
    """A token's ability that creates it."""
    attribute: str | None = None
    """Yu-Gi-Oh!: a monster's Attribute (``dark``, ``light``...)."""
    monster_type: str | None = None
    """Yu-Gi-Oh!: a monster's Type (``fiend``, ``winged-beast``...)."""
    copy_of: int = -1
    """Magic: the spell this card is a copy of (CR 707.10): a card the scenario does not
    list, in no zone until an effect puts it on the stack, never cast; it ceases to exist
    once it leaves the stack (704.5e). -1: not a copy."""
    morph: Cost | None = None
    """Magic: its morph cost (CR 702.37), a mana cost that turns it face up."""
    hidden: bool = False
    """Magic: a face-down creature (CR 708.2: a 2/2 with no name, text, colour or mana cost)
    at the scenario's point; its real values are its printed ones."""

    @property
    def printed_name(self) -> str:
        return self.printed or self.name
