"""The SMT engine: decides claims over a bounded unrolling whose bound is proved complete.

Every activation uses something up (a card leaves its place, a limit is spent), so every
continuation ends. The engine unrolls until the solver proves that no run of that many steps
is still going (or has run past a capacity): from then on, an UNSAT answer covers every
continuation and is a proof. When no such bound is found within the limits, a verdict that
would need one is ``unknown``, and says to which bound it was checked.

The unrolling is propositional (see :mod:`verifier.engines.smt.encode`) and goes, step by step, to
one incremental SAT-based solver; each question (a claim's body wanted true or false, "the
continuation has finished by step t") is a literal asked by assumption, so the solver keeps
what it learned between questions and between bounds.
"""

from __future__ import annotations

import time
from typing import Any

import z3

from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Capacity, Mode, State
from verifier.engines.base import DEFAULT_SMT_BOUND, Limits, Search
from verifier.engines.smt.encode import OutOfTime, Unrolling
from verifier.errors import InternalError
from verifier.system import Action, IllegalTrace, System

__all__ = ["FIRST_BOUND", "SmtEngine", "Solver"]

FIRST_BOUND = 8


class Solver:
    """An incremental SAT-based solver over an unrolling, asked questions by assumption.

    Each question (a formula over the unrolling) gets a literal the first time it is asked;
    the solver keeps what it learned between questions.
    """

    def __init__(self, unrolling: Unrolling, deadline: float | None) -> None:
        self.unrolling = unrolling
        self.deadline = deadline
        self.solver = z3.SolverFor("QF_FD")
        # Ctrl-C is the command line's to handle (it stops the process at once); left to z3,
        # it would only cancel this query, which then answers unknown.
        self.solver.set("ctrl_c", False)
        self.added = 0
        self.literals: dict[Any, Any] = {}
        self.queries = 0

    def _sync(self) -> None:
        """Add the unrolling's constraints that the solver has not seen yet."""
        constraints = self.unrolling.constraints
        self.solver.add(*constraints[self.added :])
        self.added = len(constraints)

    def literal(self, key: Any, formula: Any) -> Any:
        """A literal that implies ``formula`` (made once per ``key``)."""
        if key not in self.literals:
            literal = z3.Bool(f"ask@{len(self.literals)}")
            self.solver.add(z3.Implies(literal, formula))
            self.literals[key] = literal
        return self.literals[key]

    def finished(self, t: int) -> Any:
        """A literal for "the continuation has ended faithfully by step ``t``"."""
        return self.literal(("finished", t), self.unrolling.finished(t))

    def check(self, *assumptions: Any) -> tuple[z3.CheckSatResult, z3.ModelRef | None, str]:
        self._sync()
        if self.deadline is not None:
            remaining = self.deadline - time.perf_counter()
            if remaining <= 0:
                return z3.unknown, None, "timeout"
            self.solver.set("timeout", max(1, int(remaining * 1000)))
        self.queries += 1
        result = self.solver.check(*assumptions)
        if result == z3.sat:
            return result, self.solver.model(), ""
        return result, None, self.solver.reason_unknown() if result == z3.unknown else ""


class SmtEngine:
    """Decides claims with z3 on an unrolling of the transition relation."""

    name = "smt"

    @classmethod
    def limited(
        cls, system: System, start: State, start_activations: int, limits: Limits
    ) -> SmtEngine:
        """The engine with ``limits``' time (the other limits are the explorer's)."""
        return cls(system, start, start_activations, timeout=limits.seconds)

    def __init__(
        self,
        system: System,
        start: State,
        start_activations: int,
        timeout: float | None = None,
        max_bound: int = DEFAULT_SMT_BOUND,
    ) -> None:
        began = time.perf_counter()
        self.system = system
        self.start = start
        self.start_activations = start_activations
        self.deadline = None if timeout is None else began + timeout
        self.unrolling: Unrolling | None = None
        try:
            self.unrolling = Unrolling(system, start, deadline=self.deadline)
            self.solver = Solver(self.unrolling, self.deadline)
            self.bound, self.complete, self.bound_note = self._complete_bound(max_bound)
        except OutOfTime:
            self.unrolling = None
            self.bound, self.complete = 0, False
            self.bound_note = "the time ran out while the encoding was built (--timeout)"
        self.setup_seconds = time.perf_counter() - began

    def _complete_bound(self, limit: int) -> tuple[int, bool, str]:
        """Deepen until no run of ``bound`` steps is unfinished: then the bound is complete.

        Every activation is logged, so no run is longer than a few steps per log entry: the
        deepening stops there. A run that exceeds a capacity never finishes faithfully,
        however deep the unrolling: the deepening goes on while some other run is still
        going (a witness may finish later), and the bound is then not complete.
        """
        layout = self.system.layout
        unrolling = self.unrolling
        assert unrolling is not None
        limit = min(
            limit,
            8 * (max(layout.alog, layout.slots) + 2) + self.system.turn_actions(),
        )
        bound = FIRST_BOUND
        while True:
            unrolling.extend(bound)
            unfinished = self.solver.literal(
                ("unfinished", bound), z3.Not(unrolling.finished(bound))
            )
            result, _, reason = self.solver.check(unfinished)
            if result == z3.unsat:
                return bound, True, ""
            if result == z3.unknown:
                return bound, False, f"the solver gave up ({reason})"
            overflow = unrolling.scalar(bound, "overflow")
            faithful = unrolling.L.lift(overflow == int(Capacity.NONE))
            going = self.solver.literal(("going", bound), faithful)
            result, _, reason = self.solver.check(unfinished, going)
            if result == z3.unknown:
                return bound, False, f"the solver gave up ({reason})"
            if result == z3.unsat:
                # Every run still unfinished is past a capacity: none goes on faithfully.
                past = self.solver.literal(("overflow", bound), z3.Not(faithful))
                found, model, _ = self.solver.check(past)
                code = (
                    overflow
                    if isinstance(overflow, int)
                    else model.eval(overflow, model_completion=True).as_signed_long()
                    if found == z3.sat and model is not None
                    else int(Capacity.NONE)
                )
                return bound, False, f"a continuation runs past a capacity: {Capacity(code).reason}"
            if bound >= limit:
                return bound, False, f"some continuations are longer than {bound} steps"
            bound = min(limit, bound * 3 // 2)

    # -- claims ------------------------------------------------------------------------------

    def search(self, body: ast.Formula, want: bool) -> Search:
        began = time.perf_counter()
        stats: dict[str, float | int | str] = {
            "bound": self.bound,
            "complete_bound": "yes" if self.complete else "no",
            "smt_setup_seconds": round(self.setup_seconds, 4),
        }
        if self.unrolling is None:
            return Search(None, False, self.bound_note, stats)
        unrolling = self.unrolling
        final = unrolling.state(self.bound)
        value = unrolling.L.lift(
            truth(unrolling.L, self.system.world, final, body, self.start_activations, self.start)
        )
        literal = self.solver.literal((body, want), value if want else z3.Not(value))
        result, model, reason = self.solver.check(literal, self.solver.finished(self.bound))
        if result == z3.sat and model is not None:
            actions, shortest = self._shortest(literal, model)
            stats["shortest_trace"] = "yes" if shortest else "no (a limit stopped the search)"
            self._confirm(actions, body, want)
        stats["smt_seconds"] = round(time.perf_counter() - began, 4)
        stats["smt_queries"] = self.solver.queries
        if result == z3.sat:
            return Search(actions, True, "", stats)
        if result == z3.unsat and self.complete:
            return Search(None, True, "", stats)
        if result == z3.unknown:
            return Search(None, False, f"the solver gave up ({reason})", stats)
        return Search(
            None,
            False,
            f"bounded to {self.bound} steps: no continuation of up to {self.bound} steps "
            f"shows it ({self.bound_note})",
            stats,
        )

    def _confirm(self, actions: list[Action], body: ast.Formula, want: bool) -> None:
        """Replay a decoded continuation concretely: it must be legal and show the claim."""
        try:
            final = self.system.run(self.start, actions)
        except IllegalTrace as exc:
            raise InternalError(f"the SMT engine produced an illegal continuation: {exc}") from None
        world = self.system.world
        shown = truth(CONCRETE, world, final, body, self.start_activations, self.start)
        if bool(shown) != want or READ.mode(final) != Mode.DONE:
            raise InternalError("the SMT engine's continuation does not show what it claims")

    def _shortest(self, literal: Any, model: z3.ModelRef) -> tuple[list[Action], bool]:
        """A continuation with the goal that finishes in the fewest steps, and whether it is
        known to be the shortest (a limit may stop the search with a longer one in hand)."""
        assert self.unrolling is not None
        best = self.unrolling.decode(model, self.bound)
        low, high = 0, len(best)
        while low < high:
            middle = (low + high) // 2
            result, found, _ = self.solver.check(literal, self.solver.finished(middle))
            if result == z3.sat and found is not None:
                best = self.unrolling.decode(found, middle)
                high = len(best)
            elif result == z3.unsat:
                low = middle + 1
            else:
                return best, False
        return best, True
