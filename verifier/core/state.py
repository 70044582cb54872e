"""The game state: a fixed vector of fields, shared by both engines.

A state is a tuple with one entry per field: a tuple for array fields (one value per card,
ability, chain-link slot, player or record entry), a single value for scalar fields. States
are hashable, so the explorer uses them as graph nodes; the SMT engine builds the same tuple
out of z3 terms. :class:`Frame` gives rules named access to one state while they read it or
compute its successor.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from verifier.spec.cards import Zone

__all__ = [
    "ARRAYS",
    "BOOLEANS",
    "FIELDS",
    "SCALARS",
    "Capacity",
    "Frame",
    "Layout",
    "Mode",
    "Outcome",
    "State",
    "Window",
]

State = tuple[Any, ...]


class Mode(IntEnum):
    """What the game is doing."""

    OPEN = 0  # no chain: the player with the right may start one
    BUILD = 1  # a chain is being built: links are added until it closes
    RESOLVE = 2  # the chain resolves, one link at a time; nothing is activated
    CLEANUP = 3  # the last link resolved: activated cards go where they go
    TRIGGERS = 4  # waiting triggers go on a new chain (SEGOC)
    DONE = 5  # the scenario's chain and every chain it caused have resolved


class Window(IntEnum):
    """Timing windows that change what may be activated."""

    NONE = 0
    SUMMON_NEGATION = 1  # a monster is being summoned: Chain Link 1 must negate it
    SUMMON_RESPONSE = 2  # a monster was summoned: "when ... is summoned" cards may answer
    EFFECT_SUMMON_RESPONSE = 3  # the same, after a chain whose last event was a summon


class Outcome(IntEnum):
    """How a chain link resolved."""

    NONE = 0
    RESOLVED = 1  # its effect was applied
    NO_EFFECT = 2  # its target was gone or no longer fit
    EFFECT_NEGATED = 3  # its effect was negated (the activation stands)
    ACTIVATION_NEGATED = 4  # its activation was negated (or it was countered)

    @property
    def negated(self) -> bool:
        return self in (Outcome.EFFECT_NEGATED, Outcome.ACTIVATION_NEGATED)


class Capacity(IntEnum):
    """Which fixed capacity a continuation ran past (the ``overflow`` field); past any of
    them the state is no longer faithful, and a verdict that needs it is ``unknown``."""

    NONE = 0
    CHAIN = 1  # more chain links than the state has slots for
    ACTIVATIONS = 2  # more activations than the activation log holds
    RESOLUTIONS = 3  # more resolutions than the resolution log holds
    PENDING = 4  # one trigger triggered more often than limits.pending_triggers lets it wait
    INTEGER = 5  # an integer (life points, cards drawn, an event number) left its range

    @property
    def reason(self) -> str:
        return {
            Capacity.NONE: "",
            Capacity.CHAIN: "a chain grows past the state's chain-link slots",
            Capacity.ACTIVATIONS: "more activations than the activation log holds",
            Capacity.RESOLUTIONS: "more resolutions than the resolution log holds",
            Capacity.PENDING: "a trigger triggers more often than limits.pending_triggers "
            "lets it wait",
            Capacity.INTEGER: "an integer (life points, cards drawn, an event count) leaves "
            "the range of the encoding",
        }[self]


# Array fields and what they are indexed by.
ARRAYS: tuple[tuple[str, str], ...] = (
    # per card
    ("zone", "card"),  # Zone
    ("up", "card"),  # face-up
    ("ctrl", "card"),  # controller
    ("dizzy", "card"),  # CMC: dizzy (used)
    ("active", "card"),  # its activation resolved: its continuous effects apply
    ("bound", "card"),  # the card it is bound to (Call of the Haunted), or -1
    ("summoned", "card"),  # part of the summon the current window is about
    ("trig", "card"),  # record: a trigger effect of this card triggered
    ("miss", "card"),  # record: a trigger effect of this card missed the timing
    ("swept", "card"),  # record: a chain's cleanup sent this card to the graveyard
    ("sseq", "card"),  # event number of its latest Special Summon by a card effect
    # per ability
    ("uses", "ability"),  # activations this turn
    ("cuse", "ability"),  # activations on the current chain
    ("pend", "ability"),  # triggers waiting to activate
    ("pseq", "ability"),  # event number of the earliest waiting trigger
    ("plast", "ability"),  # event number of the latest waiting trigger
    ("pctrl", "ability"),  # who controlled the card when its trigger last triggered
    ("aspd", "ability"),  # CMC: its speed now (rank), after every modifier on its card
    # per chain-link slot
    ("lab", "slot"),  # ability, or -1 for an empty slot
    ("lcard", "slot"),  # its card
    ("lpl", "slot"),  # the player who activated it
    ("ltg", "slot"),  # its target, or -1
    ("lspd", "slot"),  # its speed (rank)
    ("lneg", "slot"),  # its activation was negated
    ("leneg", "slot"),  # its effect was negated
    ("ldone", "slot"),  # it has resolved
    # per player
    ("lp", "player"),  # life points
    ("drawn", "player"),  # cards added from the deck to the hand
    ("pressed", "player"),  # CMC: pressed resolve, or passed in the open state
    # activation log (records)
    ("a_ab", "alog"),
    ("a_pl", "alog"),
    ("a_cno", "alog"),
    ("a_link", "alog"),
    ("a_segoc", "alog"),
    # resolution log (records)
    ("r_ab", "rlog"),
    ("r_cno", "rlog"),
    ("r_out", "rlog"),
    ("r_spd", "rlog"),
)

SCALARS: tuple[str, ...] = (
    "mode",  # Mode
    "right",  # the player who may act now
    "passes",  # passes in a row
    "clen",  # links on the chain
    "rcnt",  # links already resolved
    "seq",  # number of the last event ("the last thing to happen")
    "cno",  # the number of the current chain (1 = the scenario's)
    "window",  # Window
    "summoning",  # the card being summoned, or -1
    "how",  # how it is summoned: 0 normal, 1 tribute, 2 special
    "an",  # entries in the activation log
    "rn",  # entries in the resolution log
    "overflow",  # the Capacity a continuation ran past (0: none): no longer faithful
)

FIELDS: tuple[str, ...] = tuple(name for name, _ in ARRAYS) + SCALARS
BOOLEANS = frozenset(
    {
        "up",
        "dizzy",
        "active",
        "summoned",
        "trig",
        "miss",
        "swept",
        "lneg",
        "leneg",
        "ldone",
        "pressed",
        "a_segoc",
    }
)
"""Fields whose values are booleans; every other field holds integers."""
_MINUS_ONE = frozenset({"bound", "lab", "lcard", "ltg", "a_ab", "r_ab", "sseq"})
_ARRAY_INDEX = {name: i for i, (name, _) in enumerate(ARRAYS)}


@dataclass(frozen=True, slots=True)
class Layout:
    """The sizes of the state vector of one scenario."""

    cards: int
    abilities: int
    slots: int
    alog: int
    rlog: int
    pending_cap: int
    bits: int = 16
    """Width of every integer of the state (two's complement): wide enough for the
    scenario's life points and amounts; a value that would leave it marks the state
    at capacity (:attr:`Capacity.INTEGER`), never wraps."""

    @property
    def int_min(self) -> int:
        return -(1 << (self.bits - 1))

    @property
    def int_max(self) -> int:
        return (1 << (self.bits - 1)) - 1

    def size(self, index_kind: str) -> int:
        return {
            "card": self.cards,
            "ability": self.abilities,
            "slot": self.slots,
            "player": 2,
            "alog": self.alog,
            "rlog": self.rlog,
        }[index_kind]

    def position(self, name: str) -> int:
        """The index of a field in a state tuple."""
        return FIELDS.index(name)


class Frame:
    """Named access to one state, for reading (guards) or for computing a successor.

    A read-only frame wraps the state tuple itself, so reading costs nothing to set up; a
    writable frame holds fresh lists. Each field is a property over the underlying vector.
    """

    __slots__ = ("_v",)

    zone: Any
    up: Any
    ctrl: Any
    dizzy: Any
    active: Any
    bound: Any
    summoned: Any
    trig: Any
    miss: Any
    swept: Any
    sseq: Any
    uses: Any
    cuse: Any
    pend: Any
    pseq: Any
    plast: Any
    pctrl: Any
    aspd: Any
    lab: Any
    lcard: Any
    lpl: Any
    ltg: Any
    lspd: Any
    lneg: Any
    leneg: Any
    ldone: Any
    lp: Any
    drawn: Any
    pressed: Any
    a_ab: Any
    a_pl: Any
    a_cno: Any
    a_link: Any
    a_segoc: Any
    r_ab: Any
    r_cno: Any
    r_out: Any
    r_spd: Any
    mode: Any
    right: Any
    passes: Any
    clen: Any
    rcnt: Any
    seq: Any
    cno: Any
    window: Any
    summoning: Any
    how: Any
    an: Any
    rn: Any
    overflow: Any

    def __new__(cls, state: State, writable: bool) -> Frame:
        frame = object.__new__(_Writable if writable else Frame)
        frame._v = list(state) if writable else state
        return frame

    def __init__(self, state: State, writable: bool) -> None:
        self._v: Any

    def dump(self) -> State:
        return tuple(self._v)


class _Writable(Frame):
    """A frame for computing a successor: an array field is copied when first touched, so a
    step pays only for the fields it reads or changes (copy on write)."""

    __slots__ = ()

    def dump(self) -> State:
        return tuple(tuple(x) if type(x) is list else x for x in self._v)


def _read(index: int) -> property:
    def get(frame: Frame) -> Any:
        return frame._v[index]

    def put(frame: Frame, value: Any) -> None:
        frame._v[index] = value

    return property(get, put)


def _copied(index: int) -> property:
    def get(frame: Frame) -> Any:
        value = frame._v[index]
        if type(value) is tuple:
            value = frame._v[index] = list(value)
        return value

    def put(frame: Frame, value: Any) -> None:
        frame._v[index] = value

    return property(get, put)


for _index, _name in enumerate(FIELDS):
    setattr(Frame, _name, _read(_index))
    if _index < len(ARRAYS):
        setattr(_Writable, _name, _copied(_index))


def empty_state(layout: Layout) -> list[Any]:
    """A zeroed state as a mutable list of fields (the loader fills it in)."""
    fields: list[Any] = []
    for name, kind in ARRAYS:
        fill: Any = -1 if name in _MINUS_ONE else False if name in BOOLEANS else 0
        fields.append([fill] * layout.size(kind))
    scalars: dict[str, Any] = {
        "mode": int(Mode.OPEN),
        "right": 0,
        "passes": 0,
        "clen": 0,
        "rcnt": 0,
        "seq": 0,
        "cno": 1,
        "window": int(Window.NONE),
        "summoning": -1,
        "how": 0,
        "an": 0,
        "rn": 0,
        "overflow": int(Capacity.NONE),
    }
    fields.extend(scalars[name] for name in SCALARS)
    return fields


def freeze(fields: list[Any]) -> State:
    return tuple(tuple(f) if i < len(ARRAYS) else f for i, f in enumerate(fields))


def array(fields: list[Any], name: str) -> list[Any]:
    """The list of one array field inside a mutable state."""
    result: list[Any] = fields[_ARRAY_INDEX[name]]
    return result


ZONE_LABELS = {int(z): z.label for z in Zone}
