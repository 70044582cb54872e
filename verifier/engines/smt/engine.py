"""The SMT engine: decides claims by an inductive invariant, else on a bounded unrolling.

Each claim is first tried by induction (:mod:`verifier.engines.smt.induction`: an invariant
over the step of the turn and the mode, checked by z3 on the one-step relation), which
proves a "no" about activations without unrolling every continuation. Otherwise the
unrolling is deepened: at each bound the claim's own question is asked first (a witness, the
shortest one, found at the smallest depth); without one, the solver is asked whether no run
of that many steps is still going (or has run past a capacity). Every activation uses
something up (a card leaves its place, a limit is spent), so every continuation ends: once
such a bound is proved complete, an UNSAT answer covers every continuation and is a proof.
Once an earlier claim of the scenario has proved a bound complete, a later claim is asked at
that bound straight away: one question where there is no witness, and a witness found there
is shortened from the first step up, so it is still the shortest. When none is found within
the limits, a verdict that would need one is ``unknown``, and says to which bound it was
checked. Each answer says which argument decided it
(``inductive invariant``, ``witness at depth k``, ``bounded: complete at k``).

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
from verifier.engines.slicing import Slicer
from verifier.engines.smt.encode import OutOfTime, Unrolling
from verifier.engines.smt.induction import Induction
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
    """Decides claims with z3: by an inductive invariant, else on a bounded unrolling."""

    name = "smt"

    @classmethod
    def limited(
        cls, system: System, start: State, start_activations: int, limits: Limits
    ) -> SmtEngine:
        """The engine with ``limits``' time and reductions (the other limits are the
        explorer's)."""
        return cls(
            system, start, start_activations, timeout=limits.seconds, induction=limits.reduce
        )

    def __init__(
        self,
        system: System,
        start: State,
        start_activations: int,
        timeout: float | None = None,
        max_bound: int = DEFAULT_SMT_BOUND,
        induction: bool = True,
    ) -> None:
        began = time.perf_counter()
        self.system = system
        self.start = start
        self.start_activations = start_activations
        self.deadline = None if timeout is None else began + timeout
        layout = system.layout
        # Every activation is logged, so no run is longer than a few steps per log entry.
        self.limit = min(
            max_bound, 8 * (max(layout.alog, layout.slots) + 2) + system.turn_actions()
        )
        self._completeness: dict[int, tuple[bool | None, str]] = {}
        self.unrolling: Unrolling | None = None
        self.induction: Induction | None = None
        self.note = ""
        try:
            self.unrolling = Unrolling(system, start, deadline=self.deadline)
            self.solver = Solver(self.unrolling, self.deadline)
            if induction:
                slicer = Slicer(system, start, start_activations)
                self.induction = Induction(self.unrolling, slicer)
        except OutOfTime:
            self.unrolling = None
            self.note = "the time ran out while the encoding was built (--timeout)"
        self.setup_seconds = time.perf_counter() - began

    def _bounds(self) -> list[int]:
        """The depths the unrolling is deepened through, up to its limit."""
        bounds, bound = [], FIRST_BOUND
        while True:
            bounds.append(min(bound, self.limit))
            if bound >= self.limit:
                return bounds
            bound = bound * 3 // 2

    def _complete_at(self, bound: int) -> tuple[bool | None, str]:
        """Whether no run of ``bound`` steps is unfinished: True (the bound is complete),
        None (some run is still going faithfully: deeper may be complete) or False with
        the reason no bound will be (a capacity passed, the solver gave up, the limit)."""
        if bound not in self._completeness:
            self._completeness[bound] = self._completeness_of(bound)
        return self._completeness[bound]

    def _completeness_of(self, bound: int) -> tuple[bool | None, str]:
        unrolling = self.unrolling
        assert unrolling is not None
        unrolling.extend(bound)
        unfinished = self.solver.literal(("unfinished", bound), z3.Not(unrolling.finished(bound)))
        result, _, reason = self.solver.check(unfinished)
        if result == z3.unsat:
            return True, ""
        if result == z3.unknown:
            return False, f"the solver gave up ({reason})"
        overflow = unrolling.scalar(bound, "overflow")
        faithful = unrolling.L.lift(overflow == int(Capacity.NONE))
        going = self.solver.literal(("going", bound), faithful)
        result, _, reason = self.solver.check(unfinished, going)
        if result == z3.unknown:
            return False, f"the solver gave up ({reason})"
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
            return False, f"a continuation runs past a capacity: {Capacity(code).reason}"
        if bound >= self.limit:
            return False, f"some continuations are longer than {bound} steps"
        return None, ""

    def deepen(self) -> tuple[int, bool]:
        """Deepen until a bound is complete or none will be: the bound, and whether it is
        complete (for the questions asked of the whole unrolling, such as ``why``)."""
        bound = 0
        try:
            for bound in self._bounds():
                complete, _ = self._complete_at(bound)
                if complete is not None:
                    return bound, complete
        except OutOfTime:
            pass
        return bound, False

    # -- claims ------------------------------------------------------------------------------

    def search(self, body: ast.Formula, want: bool) -> Search:
        began = time.perf_counter()
        stats: dict[str, float | int | str] = {"smt_setup_seconds": round(self.setup_seconds, 4)}
        if self.unrolling is None:
            return Search(None, False, self.note, stats)
        try:
            found = self._decide(body, want)
        except OutOfTime:
            found = Search(None, False, "the time ran out while the unrolling was deepened", {})
        stats.update(found.stats)
        stats["smt_seconds"] = round(time.perf_counter() - began, 4)
        stats["smt_queries"] = self.solver.queries
        return Search(found.found, found.complete, found.detail, stats)

    def _decide(self, body: ast.Formula, want: bool) -> Search:
        """The claim by induction, else on the unrolling deepened bound by bound; its
        figures say which argument decided it."""
        if self.induction is not None:
            proof = self.induction.prove(body, want, self._remaining_ms())
            if proof is not None:
                invariant: dict[str, float | int | str] = {
                    "argument": "inductive invariant",
                    "invariant": proof.invariant,
                }
                return Search(None, True, proof.told, invariant)
        known = self._known_complete()
        if known is not None:
            return self._at_complete(body, want, known)
        shorter = 0  # no continuation of this many steps or fewer shows it (asked and refuted)
        for bound in self._bounds():
            literal, (result, model, reason) = self._ask(body, want, bound)
            if result == z3.sat and model is not None:
                return self._witness(literal, model, bound, shorter + 1, body, want)
            if result == z3.unknown:
                return Search(None, False, f"the solver gave up ({reason})", {"bound": bound})
            shorter = bound
            complete, note = self._complete_at(bound)
            if complete:
                return self._complete(bound)
            if complete is False:
                detail = (
                    f"bounded to {bound} steps: no continuation of up to {bound} steps "
                    f"shows it ({note})"
                )
                return Search(None, False, detail, {"bound": bound, "complete_bound": "no"})
        raise InternalError("the deepening ended without a complete bound or a reason")

    def _known_complete(self) -> int | None:
        """The smallest bound an earlier claim proved complete, if any."""
        complete = [bound for bound, (done, _) in self._completeness.items() if done]
        return min(complete) if complete else None

    def _at_complete(self, body: ast.Formula, want: bool, bound: int) -> Search:
        """The claim asked at a bound already proved complete: no witness there is a proof,
        and a witness found there is shortened as one found while deepening is."""
        literal, (result, model, reason) = self._ask(body, want, bound)
        if result == z3.sat and model is not None:
            return self._witness(literal, model, bound, 1, body, want)
        if result == z3.unknown:
            return Search(None, False, f"the solver gave up ({reason})", {"bound": bound})
        return self._complete(bound)

    def _ask(
        self, body: ast.Formula, want: bool, bound: int
    ) -> tuple[Any, tuple[z3.CheckSatResult, z3.ModelRef | None, str]]:
        """Whether some continuation that has finished by step ``bound`` makes ``body``
        evaluate to ``want``: the question's literal, and the solver's answer."""
        unrolling = self.unrolling
        assert unrolling is not None
        unrolling.extend(bound)
        final = unrolling.state(bound)
        world, activations = self.system.world, self.start_activations
        value = unrolling.L.lift(truth(unrolling.L, world, final, body, activations, self.start))
        literal = self.solver.literal((body, want, bound), value if want else z3.Not(value))
        return literal, self.solver.check(literal, self.solver.finished(bound))

    def _witness(
        self, literal: Any, model: z3.ModelRef, bound: int, low: int, body: ast.Formula, want: bool
    ) -> Search:
        """The shortest continuation showing the claim, from one found at ``bound``."""
        actions, shortest = self._shortest(literal, model, bound, low)
        self._confirm(actions, body, want)
        witness: dict[str, float | int | str] = {
            "bound": bound,
            "shortest_trace": "yes" if shortest else "no (a limit stopped the search)",
            "argument": f"witness at depth {len(actions)}",
        }
        return Search(actions, True, "", witness)

    @staticmethod
    def _complete(bound: int) -> Search:
        """No continuation shows the claim, and every one has finished by step ``bound``."""
        figures: dict[str, float | int | str] = {
            "bound": bound,
            "complete_bound": "yes",
            "argument": f"bounded: complete at {bound}",
        }
        return Search(None, True, "", figures)

    def _remaining_ms(self) -> int | None:
        if self.deadline is None:
            return None
        return int((self.deadline - time.perf_counter()) * 1000)

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

    def _shortest(
        self, literal: Any, model: z3.ModelRef, bound: int, low: int
    ) -> tuple[list[Action], bool]:
        """A continuation with the goal that finishes in the fewest steps, and whether it is
        known to be the shortest (a limit may stop the search with a longer one in hand).

        No continuation with the goal finishes in fewer than ``low`` steps: a smaller bound
        was asked and refuted (a finished continuation stays finished, so "none finished by
        step k" covers every shorter one), and is not asked again."""
        assert self.unrolling is not None
        best = self.unrolling.decode(model, bound)
        high = len(best)
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
