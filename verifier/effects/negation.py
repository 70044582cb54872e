"""Verbs that stop other links: negate (an activation, an effect, a summon) and the CMC
counterspell."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from verifier.core.logic import Term
from verifier.effects.verb import (
    Chooser,
    Link,
    Loading,
    Names,
    Place,
    Told,
    Verb,
    are,
    takes_object,
)
from verifier.games import game
from verifier.spec.cards import Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["COUNTERSPELL", "NEGATE"]


def _negate(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f = ctx.L, ctx.f
    if effect.obj == "summon":
        f.summoning = L.ite(go, -1, f.summoning)
        ctx.event(go)
        if go is True:
            ctx.note("negate-summon")
        return
    from verifier.rules.locks import unnegatable

    column = f.lneg if effect.obj == "activation" else f.leneg
    # A link that "cannot be negated" is not: the negation does nothing to it.
    protected: Term = False
    for i, below in enumerate(link.below):
        kept = L.and_(below, unnegatable(ctx, f.lab[i]))
        protected = L.or_(protected, kept)
        column[i] = L.or_(column[i], L.and_(go, below, L.not_(kept)))
    ctx.event(go)
    if go is True:
        card = L.select(link.below, f.lcard, -1)
        if protected is True:
            ctx.note("not-negated", [card], effect.obj or "")
        else:
            ctx.note(f"negate-{effect.obj}", [card])


def _counterspell(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.rules.locks import unnegatable

    L, f, w = ctx.L, ctx.f, ctx.w
    # Seed 000: a counterspell counters everything after it in the resolve order (but a
    # link that cannot be negated). Magic's "counter target spell" (CR 701.5a) counters the
    # link of the spell it targets, wherever it is on the stack.
    countered = []
    for i in range(w.layout.slots):
        after = L.and_(go, i < f.clen, L.not_(f.ldone[i]), L.not_(link.slot[i]))
        if effect.obj == "target":
            aimed = f.lcard[i] == link.target
            if link.ability.targets > 1:
                aimed = L.or_(aimed, f.lcard[i] == link.target2)
            after = L.and_(after, aimed)
        after = L.and_(after, L.not_(unnegatable(ctx, f.lab[i])))
        f.lneg[i] = L.or_(f.lneg[i], after)
        countered.append(after)
    ctx.event(go)
    if go is True:
        ctx.note("counter", [f.lcard[i] for i, c in enumerate(countered) if c is True])


def _load_counterspell(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    return {"obj": "target"} if value == "target" else {}


def _negated(what: str) -> Any:
    def tell(note: Note, names: Names) -> list[Told]:
        if not note.cards:
            return []
        return [
            Told("effect", f"the {what} of {names.listed(note)} is negated", None, note.cards[0])
        ]

    return tell


def _not_negated(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    text = f"the {note.detail} of {names.listed(note)} cannot be negated: nothing happens to it"
    return [Told("effect", text, None, note.cards[0])]


def _summon_negated(note: Note, names: Names) -> list[Told]:
    return [Told("effect", "the summon is negated")]


def _countered(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    text = f"{names.listed(note)} {are(note.cards)} countered"
    return [Told("effect", text, None, note.cards[0])]


def _generate_negate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    negations = ["activation", "effect"] + (["summon"] * 3 if place.would_be else [])
    return [{"negate": c.pick(negations)}]


def _generate_counterspell(c: Chooser, place: Place) -> list[dict[str, Any]]:
    if "stack" in game(place.game).zones:
        # A spell waits on the stack, where "counter target spell" targets it (Magic).
        return [{"counterspell": "target"}] if place.target else []
    return [{"counterspell": "after"}]


NEGATE = Verb(
    "negate",
    Literal["activation", "effect", "summon"],
    takes_object,
    _negate,
    {
        "negate-activation": _negated("activation"),
        "negate-effect": _negated("effect"),
        "negate-summon": _summon_negated,
        "not-negated": _not_negated,
    },
    _generate_negate,
    schema={
        "description": "negate the activation, or the effect, of the link this one answers, or "
        "the summon being negated (the Summon negation window)"
    },
)
COUNTERSPELL = Verb(
    "counterspell",
    Literal["after", "target"],
    _load_counterspell,
    _counterspell,
    {"counter": _countered},
    _generate_counterspell,
    schema={
        "description": "CMC: counter every link that would resolve after this one ('after'); "
        "Magic: counter the spell this one targets on the stack ('target')"
    },
)
