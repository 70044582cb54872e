"""Resolution order: which link of a closed chain resolves next.

- ``backwards`` (Yu-Gi-Oh!, seeds 002/004): the last link added resolves first.
- a keyed sort such as ``[speed, turn-player-first, cast-order]`` (CMC, seed 000): A before B
  ... before E; at the same speed the current (turn) player's first; at the same speed and
  caster the one cast first. Keys that leave two links tied let either resolve next.
"""

from __future__ import annotations

from verifier.core.logic import Term
from verifier.rules.context import Ctx, turn_player

__all__ = ["next_links", "precedes"]


def precedes(ctx: Ctx, i: int, j: int) -> Term:
    """Whether slot ``i`` resolves before slot ``j`` under the keyed order (strictly)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    decided: list[Term] = []
    tied: list[Term] = []
    for key in w.model.order:
        if key == "speed":
            earlier, same = f.lspd[i] < f.lspd[j], f.lspd[i] == f.lspd[j]
        elif key == "turn-player-first":
            ti, tj = f.lpl[i] == turn_player(ctx), f.lpl[j] == turn_player(ctx)
            earlier, same = L.and_(ti, L.not_(tj)), ti == tj
        elif key == "cast-order":
            earlier, same = i < j, i == j
        else:
            raise ValueError(f"unknown resolution key {key!r}")
        decided.append(L.and_(*tied, earlier))
        tied.append(same)
    return L.or_(*decided)


def next_links(ctx: Ctx) -> list[Term]:
    """For each slot, whether its link may resolve next."""
    L, f, w = ctx.L, ctx.f, ctx.w
    slots = w.layout.slots
    if w.model.immediate:
        return [False] * slots  # nothing ever waits on a chain
    if w.model.order == ("backwards",):
        return [f.clen - 1 - f.rcnt == i for i in range(slots)]
    pending = [L.and_(i < f.clen, L.not_(f.ldone[i])) for i in range(slots)]
    out = []
    for i in range(slots):
        blocked = [L.and_(pending[j], precedes(ctx, j, i)) for j in range(slots) if j != i]
        out.append(L.and_(pending[i], L.not_(L.or_(*blocked))))
    return out
