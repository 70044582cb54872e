"""The explicit engine: every reachable state, breadth first, deduplicated.

States are hashable tuples, so a dictionary of parents deduplicates them and gives a shortest
path to each; continuations end in :attr:`~verifier.core.state.Mode.DONE` states. The state graph
can be exported through networkx.
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass, field

from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Capacity, Mode, State
from verifier.engines.base import DEFAULT_MEMORY_LIMIT, DEFAULT_STATE_LIMIT, Search
from verifier.system import Action, System

__all__ = ["Exploration", "ExplorerEngine", "explore"]

"""Bytes the exploration may add to the process before it stops (``unknown``): with the
rest of a run, the default keeps it under 2 GB whatever the pool."""


_mode, _overflow = READ.mode, READ.overflow  # read in the inner loop


def _resident_bytes() -> int | None:
    """The process's resident memory now (Linux), or None where it cannot be read cheaply."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@dataclass(slots=True)
class Exploration:
    """The result of one exploration from a scenario's point."""

    start: State
    parent: dict[State, tuple[State, Action] | None]
    terminals: list[State]
    deadlocks: list[State]
    overflowed: int
    seconds: float
    capacities: frozenset[Capacity] = frozenset()
    edges: list[tuple[State, State, Action]] | None = field(default=None)
    stopped_by: str = ""  # "states", "time" or "memory": the limit that stopped it

    @property
    def states(self) -> int:
        return len(self.parent)

    @property
    def complete(self) -> bool:
        """Whether every reachable state was visited."""
        return not self.stopped_by

    @property
    def faithful(self) -> bool:
        """Whether every continuation was followed to its end within the capacities."""
        return self.complete and not self.overflowed and not self.deadlocks

    def path(self, state: State) -> list[Action]:
        """The shortest sequence of actions from the start to ``state``."""
        actions: list[Action] = []
        current = state
        while True:
            link = self.parent[current]
            if link is None:
                break
            current, action = link
            actions.append(action)
        actions.reverse()
        return actions


def explore(
    system: System,
    start: State,
    max_states: int = DEFAULT_STATE_LIMIT,
    keep_edges: bool = False,
    seconds: float | None = None,
    max_bytes: int | None = DEFAULT_MEMORY_LIMIT,
) -> Exploration:
    """Breadth-first search of every continuation from ``start``.

    It stops, incomplete, past ``max_states`` states, ``seconds`` seconds, or ``max_bytes``
    bytes of memory added to the process (checked every few thousand states).
    """
    began = time.perf_counter()
    baseline = _resident_bytes() if max_bytes is not None else None
    deadline = None if seconds is None else began + seconds
    enabled = system.enabled_actions
    step = system.step
    parent: dict[State, tuple[State, Action] | None] = {start: None}
    queue: deque[State] = deque([start])
    terminals: list[State] = []
    deadlocks: list[State] = []
    edges: list[tuple[State, State, Action]] | None = [] if keep_edges else None
    overflowed = 0
    capacities: set[Capacity] = set()
    stopped_by = ""
    expanded = 0
    while queue:
        state = queue.popleft()
        if _overflow(state):
            overflowed += 1
            capacities.add(Capacity(_overflow(state)))
            continue
        if _mode(state) == Mode.DONE:
            terminals.append(state)
            continue
        expanded += 1
        if deadline is not None and expanded % 256 == 0 and time.perf_counter() > deadline:
            stopped_by = "time"
            break
        if baseline is not None and max_bytes is not None and expanded % 4096 == 0:
            now = _resident_bytes()
            if now is not None and now - baseline > max_bytes:
                stopped_by = "memory"
                break
        moved = False
        for action in enabled(state):
            moved = True
            nxt = step(CONCRETE, state, action)
            if edges is not None:
                edges.append((state, nxt, action))
            if nxt in parent:
                continue
            parent[nxt] = (state, action)
            if len(parent) > max_states:
                stopped_by = "states"
                queue.clear()
                break
            queue.append(nxt)
        if not moved:
            deadlocks.append(state)
    return Exploration(
        start=start,
        parent=parent,
        terminals=terminals,
        deadlocks=deadlocks,
        overflowed=overflowed,
        seconds=time.perf_counter() - began,
        capacities=frozenset(capacities),
        edges=edges,
        stopped_by=stopped_by,
    )


class ExplorerEngine:
    """Decides claims by scanning the final states of one exploration."""

    name = "explore"

    def __init__(
        self, system: System, start: State, start_activations: int, **limits: float
    ) -> None:
        self.system = system
        self.start_activations = start_activations
        self.exploration = explore(
            system,
            start,
            max_states=int(limits.get("max_states", DEFAULT_STATE_LIMIT)),
            seconds=limits.get("seconds"),
        )

    def search(self, body: ast.Formula, want: bool) -> Search:
        ex = self.exploration
        world = self.system.world
        for state in ex.terminals:
            shown = truth(CONCRETE, world, state, body, self.start_activations, ex.start)
            if bool(shown) == want:
                return Search(ex.path(state), True, "", self.stats())
        return Search(None, ex.faithful, self._limits(), self.stats())

    def stats(self) -> dict[str, float | int | str]:
        ex = self.exploration
        return {
            "states": ex.states,
            "final_states": len(ex.terminals),
            "explore_seconds": round(ex.seconds, 4),
        }

    def _limits(self) -> str:
        ex = self.exploration
        if ex.stopped_by == "states":
            return f"the exploration reached its state limit ({ex.states - 1}; --max-states)"
        if ex.stopped_by == "time":
            return f"the exploration ran out of time after {ex.states} states (--timeout)"
        if ex.stopped_by == "memory":
            gigabytes = DEFAULT_MEMORY_LIMIT / 1e9
            return (
                f"the exploration reached its memory limit after {ex.states} states "
                f"({gigabytes:.1f} GB; a smaller pool or --max-states)"
            )
        if ex.overflowed:
            reasons = "; ".join(c.reason for c in sorted(ex.capacities))
            return f"{ex.overflowed} continuation(s) run past a capacity: {reasons}"
        if ex.deadlocks:
            return f"{len(ex.deadlocks)} state(s) where nobody can act (a rule-system bug)"
        return ""
