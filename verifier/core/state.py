"""The game state: a fixed vector of fields, shared by both engines.

A state is a tuple with one entry per field: a tuple for array fields (one value per card,
ability, chain-link slot, player or record entry), a single value for scalar fields. States
are hashable, so the explorer uses them as graph nodes; the SMT engine builds the same tuple
out of z3 terms. :class:`Frame` gives rules named access to one state while they read it or
compute its successor.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from verifier.core.logic import Term

__all__ = [
    "CORE",
    "OPTIONAL",
    "READ",
    "Capacity",
    "Column",
    "Field",
    "Frame",
    "Layout",
    "Mode",
    "Outcome",
    "Reset",
    "Seen",
    "State",
    "Window",
    "array",
    "declare",
    "scalar",
    "tracked",
    "view",
    "withdraw",
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
    ADVANCE = 6  # both passed in an open game state: the turn moves on to its next step


class Window(IntEnum):
    """Timing windows that change what may be activated."""

    NONE = 0
    SUMMON_NEGATION = 1  # a monster is being summoned: Chain Link 1 must negate it
    SUMMON_RESPONSE = 2  # a monster was summoned: "when ... is summoned" cards may answer
    EFFECT_SUMMON_RESPONSE = 3  # the same, after a chain whose last event was a summon
    ATTACK = 4  # a monster declared an attack: "when ... declares an attack" cards may answer
    EVENT_RESPONSE = 5  # after a chain whose last event a card's condition names ("when a
    # monster is destroyed"): those cards may answer it


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
    TOKENS = 6  # a token was created after every token slot of its effect was used
    COPIES = 7  # a spell was copied after every copy slot the scenario keeps of it was used
    DIVIDED = 8  # an attacker blocked by several creatures divides its damage: not modelled

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
            Capacity.TOKENS: "more tokens are created than create-token's 'slots' lets the "
            "scenario name",
            Capacity.COPIES: "a spell is copied more often than the scenario keeps copies of "
            "it (one per ability that copies)",
            Capacity.DIVIDED: "an attacker blocked by two or more creatures divides its "
            "combat damage among them as its controller chooses (CR 510.1c), which is not "
            "modelled",
        }[self]


Column = MutableSequence[Term]
"""An array field of a frame: one term per card, ability, slot, player or log entry."""


class Reset(Enum):
    """When a state field goes back to its value before anything happened."""

    TURN = "turn"
    """As the next turn begins: what lasts "this turn" ends."""
    MOVES = "moves"
    """When its card moves to another zone: a card that moves is a new card (CR 400.7)."""
    FLIPPED = "flipped"
    """When its card is turned face-down on the field."""


@dataclass(frozen=True, slots=True, eq=False)
class Field:
    """One field of the state vector (each is a constant of this module: compared by
    identity)."""

    name: str
    over: str | None
    """What an array field is indexed by (``card``, ``ability``, ``slot``, ``player``,
    ``alog``, ``rlog``); ``None`` for a scalar."""
    fill: int | bool
    """Its value before anything happened (the array's every entry)."""
    refers: str | None = None
    """``card`` or ``ability`` when its values name one (an index; negative: none), so a
    renaming of interchangeable cards renames them too (:mod:`verifier.engines.symmetry`)."""
    resets: frozenset[Reset] = frozenset()
    """When it goes back to ``fill`` (a field indexed by card: that card's entry)."""

    @property
    def boolean(self) -> bool:
        return type(self.fill) is bool


def _array(name: str, over: str, fill: int | bool = 0, refers: str | None = None) -> Field:
    return Field(name, over, fill, refers)


CORE: tuple[Field, ...] = (
    # per card
    _array("zone", "card"),  # Zone
    _array("up", "card", False),  # face-up
    _array("ctrl", "card"),  # controller
    _array("active", "card", False),  # its activation resolved: its continuous effects apply
    _array("bound", "card", -1, "card"),  # the card it is bound to (Call of the Haunted), or -1
    _array("summoned", "card", False),  # part of the summon the current window is about
    _array("trig", "card", False),  # record: a trigger effect of this card triggered
    _array("miss", "card", False),  # record: a trigger effect of this card missed the timing
    _array("swept", "card", False),  # record: a chain's cleanup sent this card to the graveyard
    _array("sseq", "card", -1),  # event number of its latest Special Summon by a card effect
    # per ability
    _array("uses", "ability"),  # activations this turn
    _array("cuse", "ability"),  # activations on the current chain
    _array("pend", "ability"),  # triggers waiting to activate
    _array("pseq", "ability"),  # event number of the earliest waiting trigger
    _array("plast", "ability"),  # event number of the latest waiting trigger
    _array("pctrl", "ability"),  # who controlled the card when its trigger last triggered
    _array("aspd", "ability"),  # its speed now (rank), after every modifier on its card
    # per chain-link slot
    _array("lab", "slot", -1, "ability"),  # ability, or -1 for an empty slot
    _array("lcard", "slot", -1, "card"),  # its card
    _array("lpl", "slot"),  # the player who activated it
    _array("ltg", "slot", -1, "card"),  # its target, or -1
    _array("lspd", "slot"),  # its speed (rank)
    _array("lneg", "slot", False),  # its activation was negated
    _array("leneg", "slot", False),  # its effect was negated
    _array("ldone", "slot", False),  # it has resolved
    # per player
    _array("lp", "player"),  # life points
    _array("drawn", "player"),  # cards added from the deck to the hand
    # activation log (records)
    _array("a_ab", "alog", -1, "ability"),
    _array("a_pl", "alog"),
    _array("a_cno", "alog"),
    _array("a_link", "alog"),
    _array("a_segoc", "alog", False),
    _array("a_tg", "alog", -1, "card"),  # its target: a card, a player (after the cards) or -1
    _array("a_tg2", "alog", -1, "card"),  # its second target, or -1
    # resolution log (records)
    _array("r_ab", "rlog", -1, "ability"),
    _array("r_cno", "rlog"),
    _array("r_out", "rlog"),
    _array("r_spd", "rlog"),
    # scalars
    Field("mode", None, int(Mode.OPEN)),  # Mode
    Field("right", None, 0),  # the player who may act now
    Field("passes", None, 0),  # passes in a row
    Field("clen", None, 0),  # links on the chain
    Field("rcnt", None, 0),  # links already resolved
    Field("seq", None, 0),  # number of the last event ("the last thing to happen")
    Field("cno", None, 1),  # the number of the current chain (1 = the scenario's)
    Field("window", None, int(Window.NONE)),  # Window
    Field("summoning", None, -1, "card"),  # the card being summoned, or -1
    Field("how", None, 0),  # how it is summoned: 0 normal, 1 tribute, 2 special
    Field("an", None, 0),  # entries in the activation log
    Field("rn", None, 0),  # entries in the resolution log
    Field("overflow", None, int(Capacity.NONE)),  # the Capacity a continuation ran past
)
"""The fields every state has, in vector order (arrays first). Their positions never
change, so code outside the rules may read them from any state with :func:`view`."""

OPTIONAL: dict[str, Field] = {}
"""Fields a state has only when its game (``Game.fields``), a rule primitive its rule system
selects or an effect verb its cards use asks for them; they follow the core fields. Each is
declared, with :func:`declare`, by the module that owns it (a verb, a rule), next to the code
that reads and writes it."""


def declare(*fields: Field) -> tuple[Field, ...]:
    """Make optional state fields known by their names, so a layout may carry them.

    The module that owns a field declares it at import time: its name, what it is indexed
    by, its value before anything happened and when it goes back to that value
    (:class:`Reset`). A name may be declared once; declaring the same field again (a module
    imported twice) changes nothing.
    """
    for f in fields:
        known = OPTIONAL.get(f.name)
        if known is not None and _shape(known) != _shape(f):
            raise ValueError(f"a state field named {f.name!r} is already declared")
        if f.name in _CORE_INDEX:
            raise ValueError(f"{f.name!r} is a core field of every state")
        if f.over != "card" and f.resets & {Reset.MOVES, Reset.FLIPPED}:
            raise ValueError(f"{f.name!r} is not a card's: it cannot reset as a card moves")
        if known is None:
            OPTIONAL[f.name] = f
            setattr(Frame, f.name, _missing(f.name))
    return fields


def _shape(f: Field) -> tuple[Any, ...]:
    return (f.name, f.over, f.fill, type(f.fill), f.refers, f.resets)


def withdraw(name: str) -> None:
    """Forget the optional field called ``name`` (for tests that declare their own)."""
    if OPTIONAL.pop(name, None) is not None:
        delattr(Frame, name)
        for cached in (_frame_classes, _fields, _resetting):
            cached.cache_clear()


def array(
    name: str,
    over: str,
    fill: int | bool = 0,
    refers: str | None = None,
    resets: frozenset[Reset] = frozenset(),
) -> Field:
    """An optional array field (see :class:`Field`)."""
    return Field(name, over, fill, refers, resets)


def scalar(
    name: str,
    fill: int | bool = 0,
    refers: str | None = None,
    resets: frozenset[Reset] = frozenset(),
) -> Field:
    """An optional scalar field (see :class:`Field`)."""
    return Field(name, None, fill, refers, resets)


_CORE_INDEX = {f.name: i for i, f in enumerate(CORE)}


@dataclass(frozen=True, slots=True)
class Layout:
    """The sizes and fields of the state vector of one scenario."""

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
    extra: tuple[str, ...] = ()
    """The optional fields (:data:`OPTIONAL`) this scenario's state carries, in order."""
    _classes: tuple[type[Frame], type[Frame]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_classes", _frame_classes(self.extra))

    @property
    def int_min(self) -> int:
        return -(1 << (self.bits - 1))

    @property
    def int_max(self) -> int:
        return (1 << (self.bits - 1)) - 1

    @property
    def fields(self) -> tuple[Field, ...]:
        """Every field of the vector, in order."""
        return _fields(self.extra)

    def resetting(self, reset: Reset) -> tuple[tuple[int, Field], ...]:
        """The optional fields of this layout that go back to their first value at
        ``reset``, each with its position in the vector."""
        return _resetting(self.extra, reset)

    def has(self, name: str) -> bool:
        return name in _CORE_INDEX or name in self.extra

    def size(self, over: str) -> int:
        return {
            "card": self.cards,
            "ability": self.abilities,
            "slot": self.slots,
            "player": 2,
            "alog": self.alog,
            "rlog": self.rlog,
        }[over]

    def frame(self, state: State, writable: bool = False) -> Frame:
        """Named access to ``state``: read-only, or a successor under construction."""
        frame = object.__new__(self._classes[writable])
        frame._v = list(state) if writable else state
        return frame

    def empty(self) -> list[Any]:
        """A state before anything happened, as a mutable list of fields (the loader fills
        it in with :meth:`column` and :meth:`set`)."""
        return [f.fill if f.over is None else [f.fill] * self.size(f.over) for f in self.fields]

    def column(self, fields: list[Any], name: str) -> list[Any]:
        """The list of one array field inside a mutable state."""
        result: list[Any] = fields[self._index(name)]
        return result

    def set(self, fields: list[Any], name: str, value: Any) -> None:
        """Set one scalar field of a mutable state."""
        fields[self._index(name)] = value

    def freeze(self, fields: list[Any]) -> State:
        return tuple(
            tuple(v) if f.over is not None else v for f, v in zip(self.fields, fields, strict=True)
        )

    def position(self, name: str) -> int:
        """Where field ``name`` sits in this layout's vector: for code that handles the
        vector as a whole (the SMT encoding); everything else reads fields by name."""
        return self._index(name)

    def _index(self, name: str) -> int:
        if name in _CORE_INDEX:
            return _CORE_INDEX[name]
        return len(CORE) + self.extra.index(name)


@cache
def _fields(extra: tuple[str, ...]) -> tuple[Field, ...]:
    missing = [name for name in extra if name not in OPTIONAL]
    if missing:
        raise LookupError(f"no module declared the state field {missing[0]!r}")
    return CORE + tuple(OPTIONAL[name] for name in extra)


@cache
def _resetting(extra: tuple[str, ...], reset: Reset) -> tuple[tuple[int, Field], ...]:
    return tuple(
        (len(CORE) + i, OPTIONAL[name])
        for i, name in enumerate(extra)
        if reset in OPTIONAL[name].resets
    )


class Frame:
    """Named, typed access to one state, for reading (guards) or for computing a successor.

    A read-only frame wraps the state tuple itself, so reading costs nothing to set up; a
    writable frame holds fresh lists. Each field is a property over the underlying vector.
    An optional field the scenario's layout lacks is an error to touch.
    """

    if not TYPE_CHECKING:  # the fields are properties (installed below), not slots
        __slots__ = ("_v",)
    _v: Any

    zone: Column
    up: Column
    ctrl: Column
    active: Column
    bound: Column
    summoned: Column
    trig: Column
    miss: Column
    swept: Column
    sseq: Column
    uses: Column
    cuse: Column
    pend: Column
    pseq: Column
    plast: Column
    pctrl: Column
    aspd: Column
    lab: Column
    lcard: Column
    lpl: Column
    ltg: Column
    lspd: Column
    lneg: Column
    leneg: Column
    ldone: Column
    lp: Column
    drawn: Column
    a_ab: Column
    a_pl: Column
    a_cno: Column
    a_link: Column
    a_segoc: Column
    a_tg: Column
    a_tg2: Column
    r_ab: Column
    r_cno: Column
    r_out: Column
    r_spd: Column
    mode: Term
    right: Term
    passes: Term
    clen: Term
    rcnt: Term
    seq: Term
    cno: Term
    window: Term
    summoning: Term
    how: Term
    an: Term
    rn: Term
    overflow: Term

    if TYPE_CHECKING:
        # The optional fields (:data:`OPTIONAL`) are declared by the modules that own them.

        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...

    def dump(self) -> State:
        return tuple(self._v)


def view(state: State) -> Frame:
    """Read the core fields of any state by name (see :data:`CORE`)."""
    frame = object.__new__(Frame)
    frame._v = state
    return frame


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


def _missing(name: str) -> property:
    def fail(frame: Frame, *value: Any) -> Any:
        raise AttributeError(f"this scenario's state has no field {name!r}")

    return property(fail, fail)


class _Writable(Frame):
    """A frame for computing a successor: an array field is copied when first touched, so a
    step pays only for the fields it reads or changes (copy on write)."""

    __slots__ = ()

    def dump(self) -> State:
        return tuple(tuple(x) if type(x) is list else x for x in self._v)


for _i, _f in enumerate(CORE):
    setattr(Frame, _f.name, _read(_i))
    if _f.over is not None:
        setattr(_Writable, _f.name, _copied(_i))


@cache
def _frame_classes(extra: tuple[str, ...]) -> tuple[type[Frame], type[Frame]]:
    """The frame classes of states with these optional fields after the core ones."""
    if not extra:
        return Frame, _Writable
    read = type("Frame+" + "+".join(extra), (Frame,), {"__slots__": ()})
    write = type("Writable+" + "+".join(extra), (_Writable,), {"__slots__": ()})
    for offset, name in enumerate(extra):
        index = len(CORE) + offset
        setattr(read, name, _read(index))
        setattr(write, name, _copied(index))
    return read, write


class Seen:
    """What a tracked frame saw: the fields read, in the order first read (a dict used as
    an ordered set), and the fields assigned or taken for changing."""

    __slots__ = ("put", "read")

    def __init__(self) -> None:
        self.read: dict[int, None] = {}
        self.put: set[int] = set()


def _tracked_field(index: int, writable: bool) -> property:
    def get(frame: Any) -> Any:
        seen = frame._seen
        if index not in seen.put:
            seen.read[index] = None
        value = frame._v[index]
        if writable and type(value) is tuple:
            # Copy on write: the array may be changed in place from here on.
            value = frame._v[index] = list(value)
            seen.put.add(index)
        return value

    def put(frame: Any, value: Any) -> None:
        frame._seen.put.add(index)
        frame._v[index] = value

    return property(get, put)


@cache
def _tracking_classes(layout: Layout) -> tuple[type[Frame], type[Frame]]:
    read, write = layout._classes
    classes = []
    for base, writable in ((read, False), (write, True)):
        cls = type(base.__name__ + "+tracked", (base,), {"__slots__": ("_seen",)})
        for index, f in enumerate(layout.fields):
            setattr(cls, f.name, _tracked_field(index, writable))
        classes.append(cls)
    return classes[0], classes[1]


def tracked(layout: Layout, state: State, writable: bool = False) -> tuple[Frame, Seen]:
    """A frame of ``state`` (as :meth:`Layout.frame`) that records which fields are read,
    in the order first read, and (writable) which may have changed: a computation that
    reads the state only through it is a function of the fields it read."""
    frame = object.__new__(_tracking_classes(layout)[writable])
    frame._v = list(state) if writable else state
    seen = frame._seen = Seen()
    return frame, seen


class Reader:
    """Fast named reads of core fields from plain state tuples (``operator.itemgetter``),
    for the engines' inner loops: ``READ.mode(state)``."""

    def __getattr__(self, name: str) -> Callable[[State], Any]:
        getter = itemgetter(_CORE_INDEX[name])
        setattr(self, name, getter)
        return getter


READ = Reader()
"""Named readers of the core fields of any state tuple."""
