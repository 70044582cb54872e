"""The claim language's syntax tree: quantifiers, connectives and atoms over a continuation."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "Activates",
    "AfterLink",
    "And",
    "Atom",
    "Before",
    "ChainLength",
    "ControllerIs",
    "Countered",
    "Dizzy",
    "FaceIs",
    "Formula",
    "Loses",
    "MissesTiming",
    "Negated",
    "NoEffect",
    "Not",
    "Now",
    "Or",
    "OrderIs",
    "PlayerCount",
    "PositionIs",
    "Priority",
    "Quantified",
    "Resolves",
    "Responds",
    "SentByCleanup",
    "SpeedIs",
    "Targets",
    "Triggers",
    "ZoneIs",
    "point_of",
]


@dataclass(frozen=True, slots=True)
class Activates:
    """``player`` (or anyone, when None) activates an effect of ``card`` after the scenario."""

    player: int | None
    card: int


@dataclass(frozen=True, slots=True)
class Responds:
    """``player`` adds a link to the scenario's current chain (Chain Link 2 or higher)."""

    player: int


@dataclass(frozen=True, slots=True)
class Loses:
    """``player`` loses the Duel or the game on the continuation (Life Points reaching 0, a
    draw the Deck cannot give: the rule system's ``state_based``; never without them)."""

    player: int


@dataclass(frozen=True, slots=True)
class Resolves:
    """A link of ``card`` resolves with its effect applied."""

    card: int


@dataclass(frozen=True, slots=True)
class Negated:
    """A link of ``card`` has its activation or its effect negated."""

    card: int


@dataclass(frozen=True, slots=True)
class Countered:
    """A link of ``card`` is countered: its activation negated (Magic: removed from the stack
    by a counterspell, CR 701.5a)."""

    card: int


@dataclass(frozen=True, slots=True)
class NoEffect:
    """A link of ``card`` resolves without effect: its target is gone or no longer fits."""

    card: int


@dataclass(frozen=True, slots=True)
class Before:
    """A link of ``first`` resolves before a link of ``second``."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Targets:
    """An activation of ``card`` in the continuation targets the card ``second`` or the
    player ``player`` (exactly one of them is given)."""

    card: int
    second: int | None
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Triggers:
    """A trigger effect of ``card`` triggers."""

    card: int


@dataclass(frozen=True, slots=True)
class MissesTiming:
    """An optional trigger effect of ``card`` triggers but misses the timing."""

    card: int


@dataclass(frozen=True, slots=True)
class SentByCleanup:
    """A chain's cleanup sent ``card`` to the graveyard (it was not destroyed or moved first)."""

    card: int


@dataclass(frozen=True, slots=True)
class Dizzy:
    """``card`` is dizzy at the end."""

    card: int


@dataclass(frozen=True, slots=True)
class OrderIs:
    """The order of chain ``chain``: ``activation`` (links), ``resolution`` or ``segoc``; or
    ``stack``: the links on the chain now, the first added first.

    Chain 0 means the default: the scenario's chain (1), or for ``segoc`` the first chain on
    which simultaneous triggers were placed.
    """

    which: str
    chain: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ZoneIs:
    card: int
    zone: int


@dataclass(frozen=True, slots=True)
class PositionIs:
    """A monster on the field is in Defense Position (``defense``; a face-down monster
    always is) or in Attack Position."""

    card: int
    defense: bool


@dataclass(frozen=True, slots=True)
class FaceIs:
    """A card on the field is face-up (``up``) or face-down."""

    card: int
    up: bool


@dataclass(frozen=True, slots=True)
class ControllerIs:
    card: int
    player: int


@dataclass(frozen=True, slots=True)
class SpeedIs:
    """The speed (a rank) at which ``card``'s last link was on the chain."""

    card: int
    speed: int


@dataclass(frozen=True, slots=True)
class ChainLength:
    """The number of links of chain ``chain`` (0: the scenario's chain) compared to ``value``."""

    chain: int
    op: str
    value: int


@dataclass(frozen=True, slots=True)
class PlayerCount:
    """A number about a player at the end (``life_points``, ``cards_drawn``, ``hand_size``,
    ``deck_size``, ``battle_damage``) compared."""

    what: str
    player: int
    op: str
    value: int


@dataclass(frozen=True, slots=True)
class CardStat:
    """A monster's ATK or DEF at the end (``atk``, ``def``) compared; 0 for a card without."""

    what: str
    card: int
    op: str
    value: int


@dataclass(frozen=True, slots=True)
class Priority:
    """``player`` holds the right to act (activate or pass) at the scenario's point: a fact
    of the point, the same on every continuation."""

    player: int


@dataclass(frozen=True, slots=True)
class Attacks:
    """``card`` declared an attack in the continuation."""

    card: int


@dataclass(frozen=True, slots=True)
class DestroyedByBattle:
    """``card`` was destroyed by battle in the continuation."""

    card: int


@dataclass(frozen=True, slots=True)
class StepIs:
    """The continuation ends in step ``step`` (an index into the turn's steps), or in a
    step of phase ``phase``."""

    steps: tuple[str, ...]
    what: str


Atom = (
    Activates
    | Attacks
    | DestroyedByBattle
    | StepIs
    | Responds
    | Loses
    | Resolves
    | Negated
    | Countered
    | NoEffect
    | Before
    | Targets
    | Triggers
    | MissesTiming
    | CardStat
    | SentByCleanup
    | Dizzy
    | OrderIs
    | ZoneIs
    | PositionIs
    | FaceIs
    | ControllerIs
    | SpeedIs
    | ChainLength
    | PlayerCount
    | Priority
)


@dataclass(frozen=True, slots=True)
class Not:
    arg: Formula


@dataclass(frozen=True, slots=True)
class And:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Or:
    args: tuple[Formula, ...]


@dataclass(frozen=True, slots=True)
class Quantified:
    """``exists`` (some continuation) or ``always`` (every continuation) over a body."""

    kind: str
    body: Formula


@dataclass(frozen=True, slots=True)
class AfterLink:
    """``body`` decided where Chain Link ``link`` of the scenario's chain has just resolved
    (the continuation ends there); false on a continuation where it never resolves."""

    link: int
    body: Formula


@dataclass(frozen=True, slots=True)
class Now:
    """``body`` decided at the scenario's point (where the history ends), not at the end of
    a continuation: a fact of the point, the same on every continuation."""

    body: Formula


Formula = Atom | Not | And | Or | Quantified | AfterLink | Now


def point_of(formula: Formula) -> int | None:
    """The chain link at which ``formula`` is decided (``after_link(N)``), or None: at the
    end of the continuation."""
    body = formula.body if isinstance(formula, Quantified) else formula
    return body.link if isinstance(body, AfterLink) else None
