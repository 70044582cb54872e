"""Copies of spells (Magic, CR 707.10): ``copy-spell: target`` copies the spell it targets,
``copy-spell: storm`` (a storm ability, CR 702.40) its own spell once per spell cast before it
this turn.

Twincast: "Copy target instant or sorcery spell. You may choose new targets for the copy."
The copy has the copied spell's characteristics and the choices made for it (707.10); it is
put on the stack, not cast (so nothing that counts casting sees it), and it resolves, or is
countered, as a spell does; once it leaves the stack it ceases to exist (704.5e). Each copy
is a card slot the scenario keeps ("Lightning Bolt (copy 1)", :mod:`verifier.io.copies`):
claims name it, and a counterspell may target it apart from the spell it copies.

The effect creates the copy, which then waits to be put on the stack the way a trigger
waits: its controller puts it there before anyone receives priority, choosing its targets
as a trigger's are chosen: the copied spell's, or new ones (707.10c), any that fit the
spell's target. With several copies waiting (storm), their controller puts them on in any
order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from verifier.core.logic import Term
from verifier.core.state import Capacity
from verifier.effects.verb import Chooser, Link, Loading, Names, Need, Place, Told, Verb, are
from verifier.spec.cards import Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["COPY"]


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    return {"obj": value}


def _copy(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f, w = ctx.L, ctx.f, ctx.w
    families = _families(ctx)
    if effect.obj == "storm":
        # Storm (CR 702.40a): a copy of its spell for each spell cast before it this turn,
        # counted as it was cast, and made even once the spell has left the stack.
        spell = link.ability.card
        count: Term = f.stormc[spell]
        found: Term = go
        of = [(fam, go) for fam in families if fam[0] == spell]
        copied: Term = _modes(ctx, spell)[0]
    else:
        # The link of the spell it targets, still on the stack (a card is there at most once).
        aimed = [
            L.and_(go, i < f.clen, L.not_(f.ldone[i]), L.not_(link.slot[i]))
            for i in range(w.layout.slots)
        ]
        aimed = [L.and_(a, f.lcard[i] == link.target) for i, a in enumerate(aimed)]
        found = L.or_(*aimed)
        if L.is_false(found):
            return
        count = 1
        of = [(fam, L.and_(found, L.or_(*(link.target == c for c in fam)))) for fam in families]
        copied = L.select(aimed, f.lab, -1)
    made: Term = False
    hit: list[Term] = [False] * w.n
    for family, ours in of:
        if L.is_false(ours):
            continue
        for k in family[1:]:
            # The first slots of the spell not used yet: each is one object (CR 400.7), so a
            # spell that targeted a copy now gone never reaches a later one.
            now = L.and_(ours, count > 0, L.not_(f.made[k]))
            if L.is_false(now):
                continue
            for j, ability in enumerate(_modes(ctx, k)):
                # A copy of the mode the copied link is (the j-th spell ability of its card);
                # it waits to be put on the stack, its controller choosing its targets.
                same = L.or_(*(copied == _modes(ctx, c)[j] for c in family))
                _wait(ctx, ability, L.and_(now, same), link.me)
            f.made[k] = L.or_(f.made[k], now)
            hit[k] = now
            made = L.or_(made, now)
            count = L.ite(now, count - 1, count)
    ctx.exceed(Capacity.COPIES, L.and_(found, count > 0))
    ctx.event(made)
    if any(h is True for h in hit):
        ctx.note("copy", hit, "", link.me)


def _wait(ctx: Ctx, ability: int, when: Term, player: Term) -> None:
    """The copy's ``ability`` waits to be put on the stack by ``player`` (as a trigger waits:
    before anyone receives priority, CR 707.10, 117.5)."""
    L, f = ctx.L, ctx.f
    if L.is_false(when):
        return
    f.pend[ability] = L.ite(when, 1, f.pend[ability])
    f.pseq[ability] = L.ite(when, f.seq, f.pseq[ability])
    f.plast[ability] = L.ite(when, f.seq, f.plast[ability])
    f.pctrl[ability] = L.ite(when, player, f.pctrl[ability])


def _families(ctx: Ctx) -> list[list[int]]:
    """Each spell the scenario keeps copies of, followed by its copy slots."""
    originals = sorted({c.copy_of for c in ctx.w.cards if c.copy_of >= 0})
    return [[o, *(c.index for c in ctx.w.cards if c.copy_of == o)] for o in originals]


def _modes(ctx: Ctx, card: int) -> list[int]:
    """The abilities that are ``card``'s spell (one per mode), in order."""
    return [a for a in ctx.w.cards[card].abilities if ctx.w.abilities[a].card_activation]


def _told(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    copies = "a copy" if len(note.cards) == 1 else "copies"
    text = (
        f"{names.listed(note)} {are(note.cards)} created under {names.who(note)}'s control, "
        f"{copies} of the spell to be put onto the stack (CR 707.10)"
    )
    return [Told("effect", text, note.player, note.cards[0])]


def _ceases(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    text = f"{names.listed(note)} leaves the stack and ceases to exist (a copy, CR 704.5e)"
    return [Told("effect", text, None, note.cards[0])]


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    return []  # the generator writes copy spells itself: they need a target on the stack


ONE_AT_A_TIME = Need(
    lambda model: model.one_at_a_time,
    "'{verb}' puts a copy on a stack that resolves one object at a time; {model} resolves "
    "whole chains",
)

COPY = Verb(
    "copy-spell",
    Literal["target"],
    _load,
    _copy,
    {"copy": _told, "copy-ceases": _ceases},
    _generate,
    needs=(ONE_AT_A_TIME,),
    fields=("made",),
    schema={
        "description": "Magic: put a copy of the spell this one targets on the stack, with "
        "the same targets (CR 707.10; Twincast); its target is an instant or sorcery on the "
        "stack"
    },
)
