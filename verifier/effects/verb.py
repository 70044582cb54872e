"""What one effect verb is: its key and value in the files, how it loads, what it does, how it
is told, how the generator writes it; and the registry of the verbs, in the files' order.

A verb module imports the rule modules inside its functions, not at the top: the file formats
(:mod:`verifier.io.schema`) are built from this registry, and the rules import the formats
through the world, so a module-level import would be circular.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

from verifier.core.logic import Term
from verifier.errors import InternalError
from verifier.games import game
from verifier.rules.costs import cost_kinds
from verifier.rules.moves import Moved
from verifier.spec.cards import Ability, Effect

if TYPE_CHECKING:
    from verifier.io.model import RuleSystem
    from verifier.rules.context import Ctx, Note

__all__ = [
    "DIZZY_CARDS",
    "MASS",
    "SPEED_MODIFIERS",
    "Chooser",
    "Link",
    "Loading",
    "Moved",
    "Names",
    "Need",
    "Object",
    "Place",
    "Told",
    "Verb",
    "are",
    "changed",
    "narrator",
    "object_part",
    "register",
    "takes_amount",
    "takes_object",
    "told_of_cards",
    "unregister",
    "verb",
    "verbs",
]

T = TypeVar("T")

#: What an effect part acts on: its target, the card of the link below, itself, the summoned
#: monster, the monster it is bound to, one card chosen as it resolves (among those its
#: ``filter`` fits, without targeting), or every card of a kind on the field.
Object = Literal[
    "target",
    "chosen",
    "that-card",
    "this-card",
    "summoned",
    "bound",
    "all-monsters",
    "all-spells-traps",
    "all-cards",
]
#: The objects that mean every card of a kind on the field (``of`` and ``filter`` narrow them).
MASS = ("all-monsters", "all-spells-traps", "all-cards")


# -- applying -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Link:
    """The link being resolved: whose it is, what it targets, where it is on the chain."""

    ability: Ability
    me: Term
    target: Term
    slot: Sequence[Term]
    below: Sequence[Term]
    heads: bool | None
    target2: Term = -1
    """Its second target (an ability that targets two cards), or -1."""
    chosen: int = -1
    """The card its controller chose as it resolves (``chosen`` parts), or -1: none."""
    legal: tuple[Term, Term] | None = None
    """Whether its target and its second target were still legal as it began to resolve:
    every part acts on a target that was, wherever an earlier part has put it ("Special
    Summon that target, but negate its effects"). None: each part checks as it applies (a
    link looked at before it resolves)."""


Apply = Callable[["Ctx", Link, Effect, Term], Moved | None]
"""Apply one effect part when ``go`` holds; a part that moves cards returns what it moved,
so that binding continuous effects can follow."""


# -- loading --------------------------------------------------------------------------------


class Loading(Protocol):
    """What a verb's loader may ask of the scenario loader."""

    def fail(self, message: str) -> Exception:
        """The error to raise, placed at the effect part."""
        ...


Loader = Callable[[Any, Any, Loading], dict[str, Any]]
"""``load(value, spec, loading)``: the fields of the :class:`~verifier.spec.cards.Effect`
record that the verb's ``value`` (and the rest of the part, ``spec``) fill in, after the
verb's own checks. The keys every part shares (``of``, ``filter``, ``to``, ``player``,
``then``, ...) are filled in by the scenario loader."""


def takes_object(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    """The loader of a verb whose value is what it acts on (``destroy: target``)."""
    return {"obj": value}


def takes_amount(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    """The loader of a verb whose value is a number (``draw: 2``)."""
    return {"amount": value}


@dataclass(frozen=True, slots=True)
class Need:
    """A feature of the rule system a verb needs, and what to say when it is missing.

    ``message`` is formatted with ``verb`` (the verb's key) and ``model`` (the rule system's
    name).
    """

    holds: Callable[[RuleSystem], bool]
    message: str


DIZZY_CARDS = Need(
    lambda model: game(model.game).has_field("dizzy"),
    "'{verb}' needs cards that can be dizzy; {model} has none",
)
SPEED_MODIFIERS = Need(lambda model: model.slow_limit is not None, "{model} has no speed modifiers")


# -- telling --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Told:
    """One step of a narrative: its kind, its sentence, whom and which card it is about."""

    kind: str
    text: str
    player: int | None = None
    card: int | None = None


@dataclass(frozen=True, slots=True)
class Names:
    """The names a narration uses: the cards' and the players'."""

    cards: Sequence[str]
    players: Sequence[str]
    terms: Mapping[str, str] = field(default_factory=dict)
    """The game's own words for the verifier's (``Life Points``: ``life``)."""

    def term(self, word: str) -> str:
        """``word`` in the game's own words."""
        return self.terms.get(word, word)

    def listed(self, note: Note) -> str:
        """The note's cards, by name: ``Raigeki, Dark Hole``."""
        return ", ".join(self.cards[c] for c in note.cards)

    def who(self, note: Note) -> str | None:
        """The note's player, by name."""
        return None if note.player is None else self.players[note.player]


def are(cards: Sequence[int]) -> str:
    """``is`` for one card, ``are`` for several."""
    return "is" if len(cards) == 1 else "are"


Narrator = Callable[["Note", Names], list[Told]]
"""What one note becomes in a narrative (nothing, for a note about no card)."""


def told_of_cards(words: str, kind: str = "effect") -> Narrator:
    """A narrator of a note about cards: ``{cards} {words}`` (``Kuriboh is flipped face-down``)."""

    def tell(note: Note, names: Names) -> list[Told]:
        if not note.cards:
            return []
        said = names.term(words)  # in the game's own words ("becomes tapped")
        return [Told(kind, f"{names.listed(note)} {said}", None, note.cards[0])]

    return tell


def changed(ctx: Ctx, hit: Sequence[Term], kind: str) -> None:
    """Record that the cards in ``hit`` changed (one event, one note ``kind``)."""
    L = ctx.L
    if all(L.is_false(h) for h in hit):
        return
    ctx.event(L.or_(*hit))
    ctx.note(kind, list(hit))


# -- generating -----------------------------------------------------------------------------


class Chooser(Protocol):
    """Where a generator's choices come from."""

    def pick(self, options: Sequence[T]) -> T: ...

    def integer(self, low: int, high: int) -> int: ...


class Place(Protocol):
    """Where an effect part is being generated: what it may refer to, and the generator's
    ranges of values."""

    game: str
    target: bool  # the ability names a target
    answers: bool  # a link below it (that-card)
    summon: bool  # a summoned monster (summoned)
    would_be: bool  # a summon it may negate
    bound: bool  # a monster it is bound to
    depth: int  # how many more effect parts may nest inside this one
    player_target: bool  # the ability may target a player (``player: target``)

    def filter(self, c: Chooser) -> dict[str, Any]:
        """A card filter."""
        ...

    def lp_amount(self, c: Chooser) -> int:
        """A Life Point amount."""
        ...

    def count(self, c: Chooser) -> int:
        """A number of cards."""
        ...

    def parts(self, c: Chooser) -> Any:
        """Effect parts nested one level deeper (one part or a list)."""
        ...


Generator = Callable[[Chooser, Place], list[dict[str, Any]]]
"""Effect parts that use the verb, as file data: usually one; none when the verb has no
place here (a CMC verb in Yu-Gi-Oh!, a nested coin toss too deep)."""


# -- the verb and the registry --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verb:
    """One effect verb, everything about it in one place."""

    name: str
    """Its key in the files (``send-to-graveyard``)."""
    value: Any
    """The pydantic type of its value."""
    load: Loader
    apply: Apply
    notes: Mapping[str, Narrator]
    """The kinds of note it leaves, and how each is told."""
    generate: Generator
    needs: tuple[Need, ...] = ()
    """Features of the rule system it needs (checked when a scenario is loaded)."""
    branches: bool = False
    """Whether it takes ``then`` and ``otherwise``: its resolution goes one way or the other,
    as the resolving action says (``Action.heads``), so both are explored."""
    schema: Mapping[str, Any] = field(default_factory=dict)
    """Arguments of its pydantic ``Field`` (bounds, a description)."""
    amount: Literal["gain", "draw", "loss", "stat"] | None = None
    """What its amount adds to, for sizing the state's integers: Life Points gained, cards
    drawn, a loss that may take Life Points below 0 before they are clamped, or a change of
    a monster's ATK or DEF (either way)."""
    fields: tuple[str, ...] = ()
    """Optional state fields it reads or writes (a scenario that uses it carries them)."""
    refreshes: str | None = None
    """The cost it undoes (``dizzy``): an ability with that cost may be activated again
    after it, which the activation log must have room for."""
    chooses: Callable[[Ctx, int, Term], Term] | None = None
    """For a part on a card chosen as it resolves (``chosen``): whether card ``c`` may be
    chosen by player ``me`` now, besides the part's ``filter`` (a Normal Summon chooses a
    monster in that player's hand that needs no Tribute); None: whatever the filter fits."""

    @property
    def key(self) -> str:
        """Its field name in the pydantic model (``send_to_graveyard``)."""
        return self.name.replace("-", "_")


_VERBS: dict[str, Verb] = {}


def register(new: Verb) -> Verb:
    """Add ``new`` to the vocabulary, after the verbs already there."""
    if new.name in _VERBS:
        raise ValueError(f"the effect verb '{new.name}' is already registered")
    for kind, told in new.notes.items():
        for old in _VERBS.values():
            if old.notes.get(kind, told) is not told:
                raise ValueError(f"'{new.name}' and '{old.name}' tell note '{kind}' differently")
    _VERBS[new.name] = new
    return new


def unregister(name: str) -> None:
    """Remove the verb ``name`` (a verb registered for a while, by a test)."""
    del _VERBS[name]


def verbs() -> tuple[Verb, ...]:
    """Every registered verb, in the order the files list them."""
    return tuple(_VERBS.values())


def verb(name: str) -> Verb:
    """The verb with the key ``name`` (``send-to-graveyard``)."""
    try:
        return _VERBS[name]
    except KeyError:
        raise InternalError(f"unknown effect verb {name!r}") from None


def narrator(kind: str) -> Narrator | None:
    """How a note of ``kind`` left by an effect or a cost is told; None when no verb or cost
    kind leaves it."""
    for v in _VERBS.values():
        if kind in v.notes:
            return v.notes[kind]
    for cost in cost_kinds():
        if kind in cost.notes:
            told: Narrator = cost.notes[kind]
            return told
    return None


def object_part(c: Chooser, place: Place, name: str) -> dict[str, Any]:
    """A part ``{name: object}`` on any object this place offers, sometimes narrowed."""
    objects: list[str] = ["this-card", *MASS]
    if place.target:
        objects += ["target"] * 4
    if place.answers:
        objects += ["that-card"] * 2
    if place.summon:
        objects += ["summoned"] * 3
    if place.bound:
        objects += ["bound"] * 3
    obj = c.pick(objects)
    part: dict[str, Any] = {name: obj}
    if obj in MASS:
        if c.integer(0, 1) == 0:
            part["of"] = c.pick(["you", "opponent", "any"])
        if c.integer(0, 3) == 0:
            part["filter"] = place.filter(c)
    elif c.integer(0, 7) == 0:
        part["filter"] = place.filter(c)
    return part
