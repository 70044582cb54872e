"""What one kind of cost is, everything about it in one place; and the registry of the kinds,
in the files' order.

A cost kind is one key of a ``cost:`` in the files (``tribute: monster``, ``pay-lp: 1000``):
the values that key takes, how a value becomes a :class:`~verifier.spec.cards.Cost` (with the
kind's own checks of the file), whether the player chooses a card to pay it, whether it can be
paid now and what paying it does. The file formats (:mod:`verifier.io.schema`), the scenario
loader, the rules of activation (:mod:`verifier.rules.activation`) and the scenario generator
are built from this registry, so a kind added with :func:`register` (a test's own) works end
to end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from verifier.core.logic import Term
from verifier.rules.context import Check, Ctx
from verifier.rules.moves import move, tribute
from verifier.spec.cards import HIDDEN, Ability, Cost, Filter, Zone

__all__ = [
    "VALUES",
    "CostKind",
    "Loading",
    "Value",
    "choosing_words",
    "cost_kind",
    "cost_kinds",
    "register",
    "unregister",
]

Value = Literal["this", "filter", "monster", "one", "amount", "half", "mana"]
"""A shape of value a cost's key takes in the files: ``this`` (this card), a card ``filter``,
``monster`` (a monster its player controls), ``1`` (``one``: any card), an ``amount`` of Life
Points, ``half`` of them, or a ``mana`` cost (``{1}{U}``)."""
VALUES: tuple[Value, ...] = ("this", "filter", "monster", "one", "amount", "half", "mana")


class Loading(Protocol):
    """What a cost kind's loader may ask of the scenario loader (placed at the ``cost``)."""

    def fail(self, message: str) -> Exception:
        """The error to raise, placed at the cost."""
        ...

    def filter(self, value: Any) -> Filter:
        """The card filter written as ``value``."""
        ...

    def says(self, value: Any, key: str) -> bool:
        """Whether the filter written as ``value`` names ``key`` itself."""
        ...

    def needs(self, field: str) -> None:
        """Refuse the cost unless the game's cards have the state field ``field``."""
        ...

    def mana(self, value: str) -> Cost:
        """The mana cost written as ``value``."""
        ...


Loader = Callable[[Any, Loading], Cost]
"""``load(value, loading)``: the cost its key's ``value`` stands for."""
Checks = Callable[[Ctx, Ability, Cost, Term], Iterator[Check]]
"""``checks(ctx, ability, cost, player)``: whether ``player`` can pay it now, each rule named
(besides the fit of a card chosen to pay it, which every choosing cost shares)."""
Pay = Callable[[Ctx, Ability, Cost, Term, int], None]
"""``pay(ctx, ability, cost, player, card)``: pay it, with ``card`` (the card that pays it:
this card, the one chosen, :data:`~verifier.spec.cards.HIDDEN`; -1: no card)."""


def _no_checks(ctx: Ctx, ability: Ability, cost: Cost, player: Term) -> Iterator[Check]:
    return iter(())


def _nothing(ctx: Ctx, ability: Ability, cost: Cost, player: Term, card: int) -> None:
    return None


@dataclass(frozen=True, slots=True)
class CostKind:
    """One kind of cost, everything about it in one place."""

    name: str
    """Its key in the files (``send-to-graveyard``); the ``kind`` of the costs it loads,
    unless its loader says otherwise (Magic's ``tap`` is the state's ``dizzy``)."""
    values: tuple[Value, ...]
    """The shapes of value its key takes."""
    description: str
    """What it is, for the formats' schema."""
    load: Loader
    checks: Checks = _no_checks
    pay: Pay = _nothing
    chooses: bool = False
    """Whether the player chooses the card that pays it (unless it is ``this`` card)."""
    itself_from: Zone | None = None
    """Where an effect must be activated from for its card to pay this cost with itself
    ("discard this card": the hand); None: anywhere."""
    word: str = ""
    """A choosing cost: the word before the card chosen to pay it, in a history and a trace
    ("A activates Cannon Soldier tributing Kuriboh")."""
    notes: Mapping[str, Any] = field(default_factory=dict)
    """How the notes its payment leaves are told, by kind (each a
    :data:`verifier.effects.verb.Narrator`); the bundled costs' notes are told by the
    narration itself, in the game's words."""
    generate: Callable[[Any, Any], Any] | None = None
    """``generate(chooser, place)``: a value of its key, as the scenario generator writes it
    on any card (``place``: a :class:`verifier.effects.verb.Place`); None: the generator
    writes it only where the card's own shape asks for it (a discard from the hand)."""

    @property
    def key(self) -> str:
        """Its field name in the pydantic model (``send_to_graveyard``)."""
        return self.name.replace("-", "_")


_KINDS: dict[str, CostKind] = {}


def register(new: CostKind) -> CostKind:
    """Add ``new`` to the costs the files may name, after those already there."""
    if new.name in _KINDS:
        raise ValueError(f"the cost '{new.name}' is already registered")
    unknown = set(new.values) - set(VALUES)
    if unknown or not new.values:
        raise ValueError(f"the cost '{new.name}' takes values of no known shape: {unknown}")
    if new.chooses and not new.word:
        raise ValueError(f"the cost '{new.name}' chooses a card: it needs its word")
    _KINDS[new.name] = new
    return new


def unregister(name: str) -> None:
    """Remove the cost ``name`` (a cost registered for a while, by a test)."""
    del _KINDS[name]


def cost_kinds() -> tuple[CostKind, ...]:
    """Every registered cost kind, in the order the files list them."""
    return tuple(_KINDS.values())


def cost_kind(name: str) -> CostKind:
    """The cost kind called ``name`` (a cost's ``kind``)."""
    return _KINDS[name]


def choosing_words() -> tuple[str, ...]:
    """The words before a card chosen to pay a cost, in a history ("tributing")."""
    return tuple(kind.word for kind in _KINDS.values() if kind.word)


# -- paying with a card -------------------------------------------------------------------------


def _pay_with_card(
    to: Zone, events: tuple[str, ...], paid: str
) -> Callable[[Ctx, Ability, Cost, Term, int], None]:
    def pay(ctx: Ctx, ability: Ability, cost: Cost, player: Term, card: int) -> None:
        L, f = ctx.L, ctx.f
        if card == HIDDEN:  # an unlisted card of the hand
            for p in (0, 1):
                f.hand[p] = L.ite(player == p, f.hand[p] - 1, f.hand[p])
            ctx.event()
            ctx.note("discard-unlisted", (), "", player)
            return
        move(ctx, [c == card for c in range(ctx.w.n)], to, events, paid=paid)

    return pay


def _pay_tribute(ctx: Ctx, ability: Ability, cost: Cost, player: Term, card: int) -> None:
    tribute(ctx, (card,))


def _load_tribute(value: Any, loading: Loading) -> Cost:
    if value == "this":
        return Cost("tribute", this=True)
    if value == "monster":
        return Cost(
            "tribute", Filter(types=frozenset({"monster"}), zone=Zone.FIELD, controller="you")
        )
    flt = loading.filter(value)
    if flt.zone not in (None, Zone.FIELD):
        raise loading.fail("a Tributed (sacrificed) card comes from the field")
    # Your own monster on the field unless the filter says whose (Magic 701.17a: only a
    # permanent you control can be sacrificed).
    whose = flt.controller if loading.says(value, "controller") else "you"
    return Cost("tribute", replace(flt, zone=Zone.FIELD, controller=whose))


def _load_from(kind: str, home: Zone) -> Loader:
    """The loader of a cost paid with a card of the player's own (a discard from the hand, a
    banishment from the graveyard unless the filter says where)."""

    def load(value: Any, loading: Loading) -> Cost:
        if value == "this":
            return Cost(kind, this=True)
        flt = loading.filter(value) if value not in (1, "monster") else Filter()
        if home is Zone.HAND and flt.zone not in (None, Zone.HAND):
            raise loading.fail("a discarded card comes from the hand")
        flt = replace(flt, zone=flt.zone or home, controller="you")
        # Any card of the hand will do: one the scenario does not list may pay it.
        anything = Filter(zone=Zone.HAND, controller="you")
        return Cost(kind, flt, hidden=flt == anything)

    return load


def _banish_checks(ctx: Ctx, ability: Ability, cost: Cost, player: Term) -> Iterator[Check]:
    if cost.this:
        yield Check("cost.banish", ctx.f.zone[ability.card] != int(Zone.BANISHED))


# -- Life Points, dizzy, mana -------------------------------------------------------------------


def _load_lp(value: Any, loading: Loading) -> Cost:
    return Cost("pay-lp", None, None if value == "half" else value)


def _lp_checks(ctx: Ctx, ability: Ability, cost: Cost, player: Term) -> Iterator[Check]:
    if cost.amount is not None:
        yield Check("cost.life-points", ctx.L.pick(ctx.f.lp, player, 0) >= cost.amount)


def _pay_lp(ctx: Ctx, ability: Ability, cost: Cost, player: Term, card: int) -> None:
    L, f = ctx.L, ctx.f
    for p in (0, 1):
        # "Pay half": the Life Points left are rounded up (see Logic.half).
        amount = L.half(f.lp[p]) if cost.amount is None else cost.amount
        paying = player == p
        f.lp[p] = L.ite(paying, ctx.sub(f.lp[p], amount, paying), f.lp[p])
    ctx.note("pay-lp", (), "half" if cost.amount is None else str(cost.amount), player)


def _load_dizzy(value: Any, loading: Loading) -> Cost:
    loading.needs("dizzy")
    return Cost("dizzy")


def _dizzy_checks(ctx: Ctx, ability: Ability, cost: Cost, player: Term) -> Iterator[Check]:
    L, f = ctx.L, ctx.f
    yield Check("cost.dizzy", L.not_(f.dizzy[ability.card]))
    if ctx.w.layout.has("fresh") and ctx.w.cards[ability.card].type == "monster":
        # CR 302.6: a creature's {T} ability waits until it has been under its controller's
        # control since their turn began.
        yield Check("combat.summoning-sickness", L.not_(f.fresh[ability.card]))


def _pay_dizzy(ctx: Ctx, ability: Ability, cost: Cost, player: Term, card: int) -> None:
    ctx.f.dizzy[ability.card] = True
    ctx.note("dizzy", [ability.card])


# The mana of a mana cost is chosen by the action and paid by rules/mana.py.

for _kind in (
    CostKind(
        "tribute",
        ("filter", "monster", "this"),
        "Tribute a monster you control (a filter chooses which), or this card",
        _load_tribute,
        pay=_pay_tribute,
        chooses=True,
        itself_from=Zone.FIELD,
        word="tributing",
        generate=lambda c, place: (
            "monster"
            if c.integer(0, 1) == 0
            else {"card": "monster", "zone": "field", "controller": "you"}
        ),
    ),
    CostKind(
        "discard",
        ("filter", "this", "one"),
        "discard this card, 1 card of your hand (a listed card or one of the hand's unlisted "
        "cards), or a card of your hand that fits a filter",
        _load_from("discard", Zone.HAND),
        pay=_pay_with_card(Zone.GRAVEYARD, ("sent-to-graveyard", "discarded"), "discard"),
        chooses=True,
        itself_from=Zone.HAND,
        word="discarding",
    ),
    CostKind(
        "banish",
        ("filter", "this"),
        "banish this card (from where it is: the hand, the graveyard or the field), or a card "
        "of yours that fits a filter (from the graveyard unless it names a zone)",
        _load_from("banish", Zone.GRAVEYARD),
        _banish_checks,
        _pay_with_card(Zone.BANISHED, ("banished",), "banish"),
        chooses=True,
        word="banishing",
    ),
    CostKind(
        "send-to-graveyard",
        ("this",),
        "send this card from the hand to the graveyard (Effect Veiler): not a discard, so "
        "nothing that watches for discarded cards sees it",
        lambda value, loading: Cost("send-to-graveyard", this=True),
        # Not a discard: no "discarded" event.
        pay=_pay_with_card(Zone.GRAVEYARD, ("sent-to-graveyard",), "send"),
        itself_from=Zone.HAND,
    ),
    CostKind(
        "pay-lp",
        ("amount", "half"),
        "pay Life Points: a number, or half (rounded down)",
        _load_lp,
        _lp_checks,
        _pay_lp,
        generate=lambda c, place: place.lp_amount(c),
    ),
    CostKind(
        "dizzy",
        ("this",),
        "dizzy this card (CMC)",
        _load_dizzy,
        _dizzy_checks,
        _pay_dizzy,
        generate=lambda c, place: "this",
    ),
    CostKind(
        "tap",
        ("this",),
        "Magic: tap this permanent ({T}, CR 107.5); it untaps in its untap step",
        lambda value, loading: Cost("dizzy"),  # the state's dizzy, in Magic's words
    ),
    CostKind(
        "mana",
        ("mana",),
        "Magic: a mana cost paid from the mana pool ('{1}{U}', '{2}'; CR 202, 601.2g)",
        lambda value, loading: loading.mana(value),
    ),
):
    register(_kind)
