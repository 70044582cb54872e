"""Proofs about a rule system's resolution order, with z3 (for ``verifier lint``).

Two links whose speeds and players are left open: does the order always put one of them
first (total), and never both (asymmetric)? The order is the rule system's own primitive
(:func:`verifier.rules.resolution.precedes`), run on symbolic speeds and players.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from verifier.engines.smt.logic import Z3Logic
from verifier.rules import resolution
from verifier.rules.context import Ctx
from verifier.system import System

__all__ = ["OrderProof", "prove_order"]


@dataclass(frozen=True, slots=True)
class OrderProof:
    """What z3 found: ``total`` (total and asymmetric), ``tie`` (neither link goes first,
    with the speeds and players that tie), ``both`` (each goes before the other), or
    ``unknown`` (the solver ran out of time)."""

    outcome: str
    speeds: tuple[int, int] = (0, 0)
    players: tuple[int, int] = (0, 0)


def prove_order(system: System, seconds: float | None) -> OrderProof:
    """Decide whether the resolution order of ``system`` is total and asymmetric for two
    links (slots 0 and 1) of any speed that goes on the chain, added by either player."""
    model = system.world.model
    Z3 = Z3Logic(system.layout.bits)
    lift = Z3.lift
    speeds = [Z3.integer(f"speed.{i}") for i in range(2)]
    players = [Z3.integer(f"player.{i}") for i in range(2)]
    start = system.layout.frame(system.initial(), writable=True)
    for i in range(2):
        start.lspd[i], start.lpl[i] = speeds[i], players[i]
    ctx = Ctx(Z3, system.layout.frame(start.dump()), system.world)
    first = lift(resolution.precedes(ctx, 0, 1))
    second = lift(resolution.precedes(ctx, 1, 0))
    solver = z3.Solver()
    solver.set("ctrl_c", False)  # Ctrl-C stops the whole command (verifier.cli)
    if seconds is not None:
        solver.set("timeout", max(1, int(seconds * 1000)))
    for value in speeds:
        # Only speeds that go on the chain can tie (an instant one never waits there).
        solver.add(value >= 0, value < len(model.speeds))
        solver.add(*(value != i for i in model.instant))
    for player in players:
        solver.add(z3.Or(player == 0, player == 1))
    tied = solver.check(z3.Not(z3.Or(first, second)))
    if tied == z3.unknown:
        return OrderProof("unknown")
    if tied == z3.sat:
        found = solver.model()
        s0, s1 = (found.eval(s).as_signed_long() for s in speeds)
        p0, p1 = (found.eval(p).as_signed_long() for p in players)
        return OrderProof("tie", (s0, s1), (p0, p1))
    both = solver.check(z3.And(first, second))
    if both == z3.unknown:
        return OrderProof("unknown")
    if both == z3.sat:
        return OrderProof("both")
    return OrderProof("total")
