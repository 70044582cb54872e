"""The default engine: the explorer first, the SMT engine when a limit stops it.

Each claim goes to the explorer, which visits states with the fewest moves first (so a
claim about what one answer does is settled after a few thousand states, whatever the
board) and shares one exploration among a scenario's claims. When it stops at a limit
(states, time or memory) without an answer, the SMT engine is asked, for the time the
``--timeout`` leaves (:data:`~verifier.engines.base.AUTO_SMT_SECONDS` without one; not at
all when less than :data:`~verifier.engines.base.AUTO_SMT_LEAST_SECONDS` is left); its
proofs do not depend on how many states there are. Every answer names the engine that
gave it (``decided_by``).

Where a second core is there, a claim the explorer has not decided within
:data:`~verifier.engines.rival.RACE_AFTER` seconds is also given to an SMT engine in a
process of its own (:mod:`verifier.engines.rival`): the first to decide answers. Once the
SMT engine has overtaken it, the explorer is left where it stopped and the SMT engine
answers the scenario's later claims.
"""

from __future__ import annotations

import contextlib
import time
import weakref

from verifier.claims import ast
from verifier.core.state import State
from verifier.engines.base import (
    AUTO_SMT_LEAST_SECONDS,
    AUTO_SMT_SECONDS,
    DEFAULT_STATE_LIMIT,
    Engine,
    Limits,
    Search,
)
from verifier.engines.explore import ExplorerEngine, reporter
from verifier.engines.helper import available
from verifier.engines.rival import Overtaken, Rival, racing
from verifier.system import System

__all__ = ["AutoEngine"]


class AutoEngine:
    """Picks, per claim, the engine that answers it: the explorer, else the SMT engine."""

    name = "auto"

    def __init__(
        self, system: System, start: State, start_activations: int, limits: Limits
    ) -> None:
        self.system = system
        self.start = start
        self.start_activations = start_activations
        self.limits = limits
        self.began = time.perf_counter()
        self.explorer: ExplorerEngine | None = ExplorerEngine(
            system,
            start,
            start_activations,
            limits.max_states or DEFAULT_STATE_LIMIT,
            limits.seconds,
            progress=reporter(limits.progress),
            order="fewest-moves",
            reduce=limits.reduce,
        )
        self.smt: Engine | None = None
        self.races = available()  # a second core for the SMT engine beside the explorer
        self.rival: Rival | None = None

    def search(self, body: ast.Formula, want: bool) -> Search:
        if self.explorer is None:
            return self._rival_alone(body, want)
        asked = False

        def rival() -> Rival | None:
            nonlocal asked
            if self._seconds() < AUTO_SMT_LEAST_SECONDS:
                return None
            if self.rival is None or self.rival.lost:
                self.rival = Rival(
                    self.system, self.start, self.start_activations, self._smt_limits()
                )
                weakref.finalize(self, self.rival.close)
            self.rival.ask(body, want)
            asked = True
            return self.rival

        explorer = self.explorer
        began = time.perf_counter()
        try:
            with racing(rival) if self.races else contextlib.nullcontext():
                found = explorer.search(body, want)
        except Overtaken:
            # The exploration is left unfinished where it was interrupted, and let go.
            self.explorer = None
            assert self.rival is not None
            answer = self.rival.answer()
            assert answer is not None  # it decided: Overtaken is raised only then
            note = f"explorer: overtaken after {time.perf_counter() - began:.1f} s"
            return _named(answer, "smt", note)
        if found.found is not None or found.complete or not explorer.exploration.stopped_by:
            # Decided, or undecided for a reason no other engine escapes (a capacity).
            if asked and self.rival is not None and not self.rival.answered():
                self.rival.close()  # busy with the claim decided: a new one races next time
                self.rival = None
            return _named(found, "explore", "")
        if asked and self.rival is not None:
            by_rival = self.rival.answer()
            if by_rival is not None:
                return self._either(found, by_rival)
        seconds = self._seconds()
        if seconds < AUTO_SMT_LEAST_SECONDS:
            return _named(found, "explore", "")
        if self.smt is None:
            # Imported here: z3 is loaded only by a run that needs the SMT engine.
            from verifier.engines.smt.engine import SmtEngine

            limits = self._smt_limits()
            self.smt = SmtEngine.limited(self.system, self.start, self.start_activations, limits)
        return self._either(found, self.smt.search(body, want))

    def _seconds(self) -> float:
        """The seconds the SMT engine may take: what ``--timeout`` leaves, else
        :data:`~verifier.engines.base.AUTO_SMT_SECONDS`."""
        if self.limits.seconds is None:
            return AUTO_SMT_SECONDS
        return self.limits.seconds - (time.perf_counter() - self.began)

    def _smt_limits(self) -> Limits:
        return Limits(seconds=self._seconds(), reduce=self.limits.reduce)

    def _either(self, found: Search, by_smt: Search) -> Search:
        """The SMT engine's answer where it decides, else the explorer's with both reasons."""
        if by_smt.found is not None or by_smt.complete:
            return _named(by_smt, "smt", f"explorer: {found.detail}")
        detail = f"{found.detail}; then the SMT engine: {by_smt.detail}"
        return _named(Search(None, False, detail, {**found.stats, **by_smt.stats}), "explore", "")

    def _rival_alone(self, body: ast.Formula, want: bool) -> Search:
        """A claim after the explorer was overtaken: the rival's answer."""
        rival = self.rival
        answer = None
        if rival is not None and not rival.lost:
            rival.ask(body, want)
            answer = rival.answer()
        if answer is None:
            detail = "the explorer was overtaken on an earlier claim and the SMT engine ended"
            return _named(Search(None, False, detail, {}), "smt", "")
        return _named(answer, "smt", "explorer: overtaken on an earlier claim")


def _named(found: Search, engine: str, note: str) -> Search:
    """``found`` with the engine that decided it in its figures."""
    stats: dict[str, float | int | str] = {**found.stats, "decided_by": engine}
    if note:
        stats["first_tried"] = note
    return Search(found.found, found.complete, found.detail, stats)
