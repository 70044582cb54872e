"""Magic's regeneration (CR 701.19): a shield that replaces the next destruction.

"Regenerate [a permanent]" sets up a replacement effect: the next time it would be destroyed
this turn, instead it is tapped, all damage marked on it is removed, and it is removed from
combat (701.19a). Each regeneration is one shield, used up by one destruction; the shields
end with the turn. A destruction that says the permanent "can't be regenerated" (Terror,
Wrath of God: 701.19c) is not replaced; a creature put into the graveyard without being
destroyed (0 toughness, 704.5f; a sacrifice) is not either.
"""

from __future__ import annotations

from collections.abc import Sequence

from verifier.core.logic import Term
from verifier.core.state import Reset, array, declare
from verifier.rules.context import Ctx

__all__ = ["replaced", "shield"]

# Its regeneration shields: they last for the turn (CR 701.19a).
declare(array("shield", "card", resets=frozenset({Reset.TURN})))


def shield(ctx: Ctx, hit: Sequence[Term]) -> None:
    """Give each card of ``hit`` one more regeneration shield."""
    L, f = ctx.L, ctx.f
    for c, h in enumerate(hit):
        if not L.is_false(h):
            f.shield[c] = L.ite(h, ctx.add(f.shield[c], 1, h), f.shield[c])
    ctx.note("shield", [c for c, h in enumerate(hit) if h is True])


def replaced(ctx: Ctx, hit: Sequence[Term]) -> list[Term]:
    """The cards of ``hit`` (about to be destroyed) that are destroyed after all: each one
    with a shield regenerates instead, using it up."""
    L, f, w = ctx.L, ctx.f, ctx.w
    if not w.layout.has("shield"):
        return list(hit)
    out: list[Term] = []
    saved: list[int] = []
    for c, h in enumerate(hit):
        if L.is_false(h):
            out.append(h)
            continue
        regenerates = L.and_(h, f.shield[c] > 0)
        if L.is_false(regenerates):
            out.append(h)
            continue
        f.shield[c] = L.ite(regenerates, f.shield[c] - 1, f.shield[c])
        f.dizzy[c] = L.or_(f.dizzy[c], regenerates)
        f.dmg[c] = L.ite(regenerates, 0, f.dmg[c])
        if w.layout.has("atkg"):  # removed from combat
            f.atkg[c] = L.and_(f.atkg[c], L.not_(regenerates))
            f.blk[c] = L.ite(regenerates, -1, f.blk[c])
        if regenerates is True:
            saved.append(c)
        out.append(L.and_(h, L.not_(regenerates)))
    if saved:
        ctx.note("regenerated", saved)
    return out
