"""Copies of spells (Magic, CR 707.10): ``copy-spell: target`` puts a copy of the spell it targets
on the stack, on top of it, under the control of the effect's controller.

Twincast: "Copy target instant or sorcery spell." The copy has the copied spell's
characteristics and the choices made for it, its targets included (707.10); it is put on
the stack, not cast (so nothing that counts casting sees it), and it resolves, or is
countered, as a spell does; once it leaves the stack it ceases to exist (704.5e). Each copy
is a card slot the scenario keeps ("Lightning Bolt (copy 1)", :mod:`verifier.io.copies`):
claims name it, and a counterspell may target it apart from the spell it copies.

Choosing new targets for the copy (707.10c, "you may choose new targets") is not modelled:
the copy keeps the targets of the spell it copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from verifier.core.logic import Term
from verifier.core.state import Capacity
from verifier.effects.verb import Chooser, Link, Loading, Names, Need, Place, Told, Verb
from verifier.spec.cards import Effect, Zone

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["COPY"]


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    return {"obj": value}


def _copy(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.rules.activation import push_link

    L, f, w = ctx.L, ctx.f, ctx.w
    # The link of the spell it targets, still on the stack (a card is there at most once).
    aimed = [
        L.and_(go, i < f.clen, L.not_(f.ldone[i]), L.not_(link.slot[i]), f.lcard[i] == link.target)
        for i in range(w.layout.slots)
    ]
    found = L.or_(*aimed)
    if L.is_false(found):
        return
    target = L.select(aimed, f.ltg, -1)
    second = L.select(aimed, f.ltg2, -1) if w.layout.has("ltg2") else None
    spd = L.select(aimed, f.lspd, 0)
    copied = L.select(aimed, f.lab, -1)
    made: Term = False
    hit: list[Term] = [False] * w.n
    for family in _families(ctx):
        ours = L.and_(found, L.or_(*(link.target == c for c in family)))
        if L.is_false(ours):
            continue
        for k in family[1:]:
            # The first slot of the spell not used yet: each is one object (CR 400.7), so a
            # spell that targeted a copy now gone never reaches a later one.
            now = L.and_(ours, L.not_(made), L.not_(f.made[k]))
            if L.is_false(now):
                continue
            for j, ability in enumerate(_modes(ctx, k)):
                # A copy of the mode the copied link is (the j-th spell ability of its card).
                same = L.or_(*(copied == _modes(ctx, c)[j] for c in family))
                when = L.and_(now, same)
                push_link(ctx, w.abilities[ability], link.me, target, spd, when, False, second)
            f.made[k] = L.or_(f.made[k], now)
            f.zone[k] = L.ite(now, int(Zone.STACK), f.zone[k])
            f.ctrl[k] = L.ite(now, link.me, f.ctrl[k])
            hit[k] = now
            made = L.or_(made, now)
    ctx.exceed(Capacity.COPIES, L.and_(found, L.not_(made)))
    ctx.event(made)
    if any(h is True for h in hit):
        ctx.note("copy", hit, "", link.me)


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
    text = (
        f"{names.listed(note)} is put on the stack under {names.who(note)}'s control, on "
        "top of the spell it copies (a copy is not cast, CR 707.10)"
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
