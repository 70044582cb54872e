"""The SMT engine: decides claims over a bounded unrolling whose bound is proved complete.

Every activation uses something up (a card leaves its place, a limit is spent), so every
continuation ends. The engine unrolls until the solver proves that no run of that many steps
is still going (or has run past a capacity): from then on, an UNSAT answer covers every
continuation and is a proof. When no such bound is found within the limits, a verdict that
would need one is ``unknown``, and says to which bound it was checked.

Each question is put to a fresh bit-blasting solver (simplify, bit-blast, SAT): on these
small finite domains that is an order of magnitude faster than z3's incremental core, and the
unrolling itself is built once and shared.
"""

from __future__ import annotations

import time
from typing import Any

import z3

from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.errors import InternalError
from verifier.logic import CONCRETE
from verifier.smt.encode import Unrolling
from verifier.smt.logic import Z3, lift
from verifier.state import FIELDS, Mode, State
from verifier.trace import IllegalTrace, replay
from verifier.transitions import Action, System
from verifier.verdict import Search

__all__ = ["SmtEngine", "solve"]

_MODE = FIELDS.index("mode")
FIRST_BOUND = 8
MAX_BOUND = 400


def solve(
    constraints: list[Any], extra: list[Any], deadline: float | None
) -> tuple[z3.CheckSatResult, z3.ModelRef | None, str]:
    """Solve ``constraints`` and ``extra`` with a fresh bit-blasting solver."""
    solver = z3.Then("simplify", "propagate-values", "solve-eqs", "bit-blast", "sat").solver()
    if deadline is not None:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return z3.unknown, None, "timeout"
        solver.set("timeout", max(1, int(remaining * 1000)))
    solver.add(*constraints)
    solver.add(*extra)
    result = solver.check()
    if result == z3.sat:
        return result, solver.model(), ""
    return result, None, solver.reason_unknown() if result == z3.unknown else ""


class SmtEngine:
    """Decides claims with z3 on an unrolling of the transition relation."""

    name = "smt"

    def __init__(
        self,
        system: System,
        start: State,
        start_activations: int,
        timeout: float | None = None,
        max_bound: int = MAX_BOUND,
    ) -> None:
        began = time.perf_counter()
        self.system = system
        self.start_activations = start_activations
        self.deadline = None if timeout is None else began + timeout
        self.unrolling = Unrolling(system, start)
        self.queries = 0
        self.bound, self.complete, self.bound_note = self._complete_bound(max_bound)
        self.setup_seconds = time.perf_counter() - began

    # -- solving -----------------------------------------------------------------------------

    def _check(self, *extra: Any) -> tuple[z3.CheckSatResult, z3.ModelRef | None, str]:
        """Solve the unrolling with ``extra`` constraints; the model when satisfiable."""
        self.queries += 1
        return solve(self.unrolling.constraints, list(extra), self.deadline)

    def _complete_bound(self, limit: int) -> tuple[int, bool, str]:
        """Deepen until no run of ``bound`` steps is unfinished: then the bound is complete."""
        bound = FIRST_BOUND
        while True:
            self.unrolling.extend(bound)
            result, _, reason = self._check(z3.Not(self.unrolling.finished(bound)))
            if result == z3.unsat:
                return bound, True, ""
            if result == z3.unknown:
                return bound, False, f"the solver gave up ({reason})"
            if bound >= limit:
                return bound, False, f"some continuations are longer than {bound} steps"
            bound = min(limit, bound * 2)

    # -- claims ------------------------------------------------------------------------------

    def search(self, body: ast.Formula, want: bool) -> Search:
        began = time.perf_counter()
        unrolling = self.unrolling
        bound = self.bound
        value = lift(
            truth(Z3, self.system.world, unrolling.state(bound), body, self.start_activations)
        )
        goal = value if want else z3.Not(value)
        result, model, reason = self._check(goal, unrolling.finished(bound))
        stats: dict[str, float | int | str] = {
            "bound": bound,
            "complete_bound": "yes" if self.complete else "no",
            "smt_setup_seconds": round(self.setup_seconds, 4),
        }
        if result == z3.sat and model is not None:
            actions = self._shortest(goal, model, bound)
            self._confirm(actions, body, want)
            stats["smt_seconds"] = round(time.perf_counter() - began, 4)
            stats["smt_queries"] = self.queries
            return Search(actions, True, "", stats)
        stats["smt_seconds"] = round(time.perf_counter() - began, 4)
        stats["smt_queries"] = self.queries
        if result == z3.unsat and self.complete:
            return Search(None, True, "", stats)
        if result == z3.unknown:
            return Search(None, False, f"the solver gave up ({reason})", stats)
        return Search(
            None,
            False,
            f"bounded to {bound} steps: no continuation of up to {bound} steps shows it "
            f"({self.bound_note})",
            stats,
        )

    def _confirm(self, actions: list[Action], body: ast.Formula, want: bool) -> None:
        """Replay a decoded continuation concretely: it must be legal and show the claim."""
        try:
            final, _ = replay(self.system, self.unrolling.start, actions)
        except IllegalTrace as exc:
            raise InternalError(f"the SMT engine produced an illegal continuation: {exc}") from None
        shown = truth(CONCRETE, self.system.world, final, body, self.start_activations)
        if bool(shown) != want or final[_MODE] != Mode.DONE:
            raise InternalError("the SMT engine's continuation does not show what it claims")

    def _shortest(self, goal: Any, model: z3.ModelRef, bound: int) -> list[Action]:
        """A continuation with the goal that finishes in the fewest steps."""
        best = self.unrolling.decode(model, bound)
        low, high = 0, len(best)
        while low < high:
            middle = (low + high) // 2
            result, found, _ = self._check(goal, self.unrolling.finished(middle))
            if result == z3.sat and found is not None:
                best = self.unrolling.decode(found, middle)
                high = len(best)
            else:
                low = middle + 1
        return best
