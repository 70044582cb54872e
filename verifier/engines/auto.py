"""The default engine: the explorer first, the SMT engine when a limit stops it.

Each claim goes to the explorer, which visits states with the fewest moves first (so a
claim about what one answer does is settled after a few thousand states, whatever the
board) and shares one exploration among a scenario's claims. When it stops at a limit
(states, time or memory) without an answer, the SMT engine is asked, for the time the
``--timeout`` leaves (:data:`~verifier.engines.base.AUTO_SMT_SECONDS` without one; not at
all when less than :data:`~verifier.engines.base.AUTO_SMT_LEAST_SECONDS` is left); its
proofs do not depend on how many states there are. Every answer names the engine that
gave it (``decided_by``).
"""

from __future__ import annotations

import time

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
        self.explorer = ExplorerEngine(
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

    def search(self, body: ast.Formula, want: bool) -> Search:
        found = self.explorer.search(body, want)
        if found.found is not None or found.complete or not self.explorer.exploration.stopped_by:
            # Decided, or undecided for a reason no other engine escapes (a capacity).
            return _named(found, "explore", "")
        seconds = AUTO_SMT_SECONDS
        if self.limits.seconds is not None:
            seconds = self.limits.seconds - (time.perf_counter() - self.began)
        if seconds < AUTO_SMT_LEAST_SECONDS:
            return _named(found, "explore", "")
        if self.smt is None:
            # Imported here: z3 is loaded only by a run that needs the SMT engine.
            from verifier.engines.smt.engine import SmtEngine

            limits = Limits(seconds=seconds)
            self.smt = SmtEngine.limited(self.system, self.start, self.start_activations, limits)
        by_smt = self.smt.search(body, want)
        if by_smt.found is not None or by_smt.complete:
            return _named(by_smt, "smt", f"explorer: {found.detail}")
        detail = f"{found.detail}; then the SMT engine: {by_smt.detail}"
        return _named(Search(None, False, detail, {**found.stats, **by_smt.stats}), "explore", "")


def _named(found: Search, engine: str, note: str) -> Search:
    """``found`` with the engine that decided it in its figures."""
    stats: dict[str, float | int | str] = {**found.stats, "decided_by": engine}
    if note:
        stats["first_tried"] = note
    return Search(found.found, found.complete, found.detail, stats)
