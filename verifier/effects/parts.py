"""The parts of an effect, applied in order: "then" a new event, "and" the same one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from verifier.core.logic import Term
from verifier.effects.movement import binding
from verifier.effects.verb import Link, Moved, verb
from verifier.spec.cards import Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx

__all__ = ["apply_effects"]


def apply_effects(ctx: Ctx, link: Link, parts: Sequence[Effect], go: Term) -> None:
    """Apply the parts of an effect, each only when ``go`` holds.

    A part happens after the one before it ("then": a new event), or, marked
    ``simultaneous``, at the same time ("and", "and if you do"): the events of such a group
    share one event number, so a trigger of the first part's event is still "the last thing
    to happen" after the second, and the binding continuous effects their moves set off
    follow the whole group.
    """
    outer = ctx.moment
    moves: list[Moved] = []
    for i, part in enumerate(parts):
        if ctx.L.is_false(go):
            break
        if not part.simultaneous:
            for earlier in moves:
                binding(ctx, earlier)
            moves = []
            joined = i + 1 < len(parts) and parts[i + 1].simultaneous
            ctx.moment = ctx.f.seq if joined else None
        done = verb(part.verb).apply(ctx, link, part, go)
        if done is not None:
            moves.append(done)
    ctx.moment = outer
    for moved in moves:
        binding(ctx, moved)
