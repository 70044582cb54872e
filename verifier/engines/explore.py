"""The explicit engine: every reachable state, breadth first, deduplicated.

States are hashable tuples, so a dictionary of parents deduplicates them and gives a shortest
path to each; continuations end in :attr:`~verifier.core.state.Mode.DONE` states. The state graph
can be exported through networkx.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Capacity, Mode, State
from verifier.engines.base import (
    ARRAYS_AFTER,
    DECIDER_AFTER,
    DEFAULT_MEMORY_LIMIT,
    DEFAULT_STATE_LIMIT,
    Figures,
    Search,
)
from verifier.engines.recall import Recall
from verifier.engines.records import (
    WHOLE,
    Quotient,
    View,
    composed,
    view,
)
from verifier.engines.resident import resident_bytes
from verifier.engines.screen import Screen
from verifier.engines.slicing import Slicer
from verifier.engines.symmetry import Canon, Symmetry, concrete_path, interchangeable, named_cards
from verifier.system import Action, System

if TYPE_CHECKING:  # the array step (NumPy) loads only when used
    from verifier.engines.arrays import Levels
    from verifier.engines.program import Program

__all__ = ["MOVES", "ORDERS", "Exploration", "ExplorerEngine", "explore", "reporter"]

_mode, _overflow = READ.mode, READ.overflow  # read in the inner loop


Progress = Callable[["Exploration"], None]
"""Told of an exploration's progress every :data:`PROGRESS_EVERY` expanded states."""

PROGRESS_EVERY = 1024

ORDERS = ("breadth", "fewest-moves")
"""The orders in which an exploration visits states. ``breadth``: by distance from the
start, so the first final state that shows a claim is reached by a shortest continuation.
``fewest-moves``: by the number of moves the players chose (:data:`MOVES`), then by
distance, so the first one shown is reached with the fewest moves, and the fewest steps
among those; a claim about what one answer does is settled without first visiting every
state a few steps deep, where most states are long chains of many answers."""

MOVES = frozenset({"activate", "summon", "attack", "position"})
"""The actions a player elects to take, as opposed to passing, resolving, cleaning up, a
trigger going on its chain, a timer, or the turn moving on."""


class Exploration:
    """A breadth-first exploration from a scenario's point, which can be taken further.

    States are added in breadth-first order; a final state (mode ``DONE``) or a state past a
    capacity is recognised when it is first reached, so :attr:`terminals` lists the final
    states in order of their distance from the start. :meth:`advance` explores on until a
    newly reached final state satisfies a goal, the graph is exhausted, or a limit stops it;
    a later call goes on from there.
    """

    __slots__ = (
        "_baseline",
        "_capacities",
        "_columns",
        "_cost",
        "_expanded",
        "_heap",
        "_pushed",
        "_queue",
        "budget",
        "canonical",
        "deadlocks",
        "edges",
        "enabled",
        "last",
        "max_bytes",
        "max_states",
        "order",
        "overflowed",
        "parent",
        "pause_at",
        "paused",
        "progress",
        "seconds",
        "start",
        "step",
        "stopped_by",
        "system",
        "terminals",
    )

    def __init__(
        self,
        system: System,
        start: State,
        max_states: int = DEFAULT_STATE_LIMIT,
        keep_edges: bool = False,
        seconds: float | None = None,
        max_bytes: int | None = DEFAULT_MEMORY_LIMIT,
        progress: Progress | None = None,
        order: str = "breadth",
        canonical: Canon | None = None,
        screen: Screen | None = None,
        recall: Recall | None = None,
    ) -> None:
        """``canonical``, when given, maps every state reached after the start to the
        representative of its class (symmetry reduction): states are then deduplicated up
        to that renaming, and :meth:`path` replays real actions through them. ``screen``,
        when given, finds each state's legal actions (the same ones, faster:
        :mod:`verifier.engines.screen`); ``recall``, when given, finds them and each
        action's successor (the same ones, remembered: :mod:`verifier.engines.recall`)."""
        if order not in ORDERS:
            raise ValueError(f"no exploration order {order!r} (orders: {', '.join(ORDERS)})")
        self.system = system
        self.order = order
        self.canonical = canonical
        self.enabled: Callable[[State], Iterable[Action]]
        self.step: Callable[[State, Action], State]
        if recall is not None:
            self.enabled, self.step = recall.enabled, recall.step
        else:
            self.enabled = system.enabled_actions if screen is None else screen.enabled
            self.step = partial(system.step, CONCRETE)
        self.start = start
        self.max_states = max_states
        self.budget = seconds
        self.max_bytes = max_bytes
        self.progress = progress
        self._baseline = resident_bytes() if max_bytes is not None else None
        self.parent: dict[State, tuple[State, Action] | None] = {start: None}
        self.terminals: list[State] = []
        self.deadlocks: list[State] = []
        self.edges: list[tuple[State, State, Action]] | None = [] if keep_edges else None
        self.overflowed = 0
        self._capacities: set[Capacity] = set()
        # One copy of each column value (a tuple of zones, of faces...): states share them.
        self._columns: dict[tuple[object, ...], tuple[object, ...]] = {}
        self._queue: deque[State] = deque()
        # Stop, unfinished, between two states once this many are reached (to go on another
        # way, :meth:`ExplorerEngine._handed_off`); None: never.
        self.pause_at: int | None = None
        self.paused = False
        self._expanded = 0
        self.last: State | None = None  # the state expanded last
        self.seconds = 0.0
        self.stopped_by = ""  # "states", "time" or "memory": the limit that stopped it
        # The fewest-moves order: a heap of (moves, depth, number, state), and the best
        # (moves, depth) known for each state not expanded yet.
        self._heap: list[tuple[int, int, int, State]] = []
        self._cost: dict[State, tuple[int, int]] = {}
        self._pushed = 0
        if order == "breadth":
            if self._reached(start):
                self._queue.append(start)
        else:
            self._heap.append((0, 0, 0, start))
            self._cost[start] = (0, 0)

    @property
    def states(self) -> int:
        return len(self.parent)

    @property
    def expanded(self) -> int:
        """States whose successors have been computed."""
        return self._expanded

    @property
    def frontier(self) -> int:
        """States reached but not expanded yet."""
        return len(self._queue) + len(self._cost)

    @property
    def capacities(self) -> frozenset[Capacity]:
        return frozenset(self._capacities)

    @property
    def finished(self) -> bool:
        """Whether the exploration can go no further (exhausted, or stopped by a limit)."""
        return bool(self.stopped_by) or not (self._queue or self._heap)

    @property
    def complete(self) -> bool:
        """Whether every reachable state was visited."""
        return not self.stopped_by and not (self._queue or self._heap)

    @property
    def faithful(self) -> bool:
        """Whether every continuation was followed to its end within the capacities."""
        return self.complete and not self.overflowed and not self.deadlocks

    @property
    def final_states(self) -> int:
        return len(self.terminals)

    def queued(self) -> list[State]:
        """The states reached and not expanded yet, breadth first, in the order they will be."""
        return list(self._queue)

    def depth(self, state: State) -> int:
        """How many actions lead from the start to ``state`` (the shortest way)."""
        depth, link = 0, self.parent[state]
        while link is not None:
            depth += 1
            link = self.parent[link[0]]
        return depth

    def path(self, state: State) -> list[Action]:
        """The shortest sequence of actions from the start to ``state`` (under symmetry
        reduction: real actions to a renaming of ``state``)."""
        actions: list[Action] = []
        states: list[State] = []
        current = state
        while True:
            link = self.parent[current]
            if link is None:
                break
            states.append(current)
            current, action = link
            actions.append(action)
        actions.reverse()
        if self.canonical is None:
            return actions
        states.reverse()
        return concrete_path(self.system, self.start, self.canonical, states)

    def _reached(self, state: State) -> bool | None:
        """File a newly reached state: True when it is to be expanded, False when it is a
        final state (added to :attr:`terminals`), None when it is past a capacity."""
        overflow = _overflow(state)
        if overflow:
            self.overflowed += 1
            self._capacities.add(Capacity(overflow))
            return None
        if _mode(state) == Mode.DONE:
            self.terminals.append(state)
            return False
        return True

    def advance(self, goal: Callable[[State], bool] | None = None) -> State | None:
        """Explore on; return the first final state, in the exploration's order, that
        satisfies ``goal`` and was not reached before this call.

        Returns None once the exploration is finished (exhausted, or stopped by a limit).
        The exploration can always be taken further from where it stopped.
        """
        if self.finished:
            return None
        if self.order == "breadth":
            return self._breadth(goal)
        return self._fewest_moves(goal)

    def _due(self, expanded: int, deadline: float | None) -> str:
        """The limit (``time`` or ``memory``) reached after ``expanded`` states, if any."""
        if deadline is not None and time.perf_counter() > deadline:
            return "time"
        if self._baseline is not None and self.max_bytes is not None and expanded % 4096 == 0:
            now = resident_bytes()
            if now is not None and now - self._baseline >= self.max_bytes:
                return "memory"
        return ""

    def _fewest_moves(self, goal: Callable[[State], bool] | None) -> State | None:
        """Dijkstra's search on the cost (moves, steps): a state's cost is final when it is
        taken from the heap, so a final state is classified then, not when first reached."""
        began = time.perf_counter()
        deadline = None if self.budget is None else began + self.budget - self.seconds
        enabled = self.enabled
        step = self.step
        parent, heap, cost, edges = self.parent, self._heap, self._cost, self.edges
        max_states, progress, moves = self.max_states, self.progress, MOVES
        push, pop = heapq.heappush, heapq.heappop
        intern = self._columns.setdefault
        canonical = self.canonical
        pause_at = self.pause_at
        try:
            while heap:
                if pause_at is not None and len(parent) >= pause_at:
                    self.paused = True
                    break
                made, depth, _, state = pop(heap)
                if cost.get(state) != (made, depth):
                    continue  # a better way to it was found after this entry was pushed
                del cost[state]
                filed = self._reached(state)
                if not filed:
                    if filed is False and goal is not None and goal(state):
                        return state
                    continue
                expanded = self._expanded + 1
                if expanded % 256 == 0:
                    # A limit stops the exploration for good: the state need not go back.
                    self.stopped_by = self._due(expanded, deadline)
                    if self.stopped_by:
                        return None
                    if progress is not None and expanded % PROGRESS_EVERY == 0:
                        self.seconds += time.perf_counter() - began
                        began = time.perf_counter()
                        progress(self)
                self._expanded, self.last = expanded, state
                moved = False
                for action in enabled(state):
                    moved = True
                    nxt = step(state, action)
                    if canonical is not None:
                        nxt = canonical(nxt)
                    if edges is not None:
                        edges.append((state, nxt, action))
                    better = (made + (action.kind in moves), depth + 1)
                    if nxt in parent:
                        known = cost.get(nxt)
                        if known is None or known <= better:
                            continue  # expanded already, or reached as cheaply
                    else:
                        nxt = tuple([intern(x, x) if type(x) is tuple else x for x in nxt])
                    parent[nxt] = (state, action)
                    if len(parent) > max_states:
                        self.stopped_by = "states"
                        heap.clear()
                        cost.clear()
                        return None
                    cost[nxt] = better
                    self._pushed += 1
                    push(heap, (*better, self._pushed, nxt))
                if not moved:
                    self.deadlocks.append(state)
            return None
        finally:
            self.seconds += time.perf_counter() - began

    def _breadth(self, goal: Callable[[State], bool] | None) -> State | None:
        """Breadth first: a state reached first is reached by a shortest continuation, so a
        final state is classified as soon as it is reached (its successor's expansion is
        finished first, so the exploration can go on from there)."""
        began = time.perf_counter()
        deadline = None if self.budget is None else began + self.budget - self.seconds
        enabled = self.enabled
        step = self.step
        parent, queue, edges = self.parent, self._queue, self.edges
        reached, done = self._reached, int(Mode.DONE)
        intern = self._columns.setdefault
        max_states = self.max_states
        progress = self.progress
        canonical = self.canonical
        found: State | None = None
        try:
            pause_at = self.pause_at
            while queue and found is None:
                if pause_at is not None and len(parent) >= pause_at:
                    self.paused = True
                    break
                expanded = self._expanded + 1
                if expanded % 256 == 0:
                    self.stopped_by = self._due(expanded, deadline)
                    if self.stopped_by:
                        break
                    if progress is not None and expanded % PROGRESS_EVERY == 0:
                        self.seconds += time.perf_counter() - began
                        began = time.perf_counter()
                        progress(self)
                state = queue.popleft()
                self._expanded, self.last = expanded, state
                moved = False
                for action in enabled(state):
                    moved = True
                    nxt = step(state, action)
                    if canonical is not None:
                        nxt = canonical(nxt)
                    if edges is not None:
                        edges.append((state, nxt, action))
                    if nxt in parent:
                        continue
                    nxt = tuple([intern(x, x) if type(x) is tuple else x for x in nxt])
                    parent[nxt] = (state, action)
                    if len(parent) > max_states:
                        self.stopped_by = "states"
                        queue.clear()
                        break
                    # Inlined :meth:`_reached`: most states are neither final nor past a
                    # capacity, and this loop is the explorer's hot path.
                    if _overflow(nxt) or _mode(nxt) == done:
                        filed = reached(nxt)
                        if filed is False and found is None and goal is not None and goal(nxt):
                            found = nxt
                    else:
                        queue.append(nxt)
                if not moved:
                    self.deadlocks.append(state)
        finally:
            self.seconds += time.perf_counter() - began
        return found

    def run(self) -> Exploration:
        """Explore to the end (or to a limit)."""
        self.advance()
        return self


def reporter(figures: Figures | None) -> Progress | None:
    """An exploration's progress told as figures (see :data:`~verifier.engines.base.Figures`)."""
    if figures is None:
        return None
    told = figures
    began = time.perf_counter()
    deepest = 0  # the depth told never goes back (the fewest-moves order is not by depth)

    def tell(ex: Exploration) -> None:
        nonlocal deepest
        if ex.last is not None:
            deepest = max(deepest, ex.depth(ex.last))
        now = resident_bytes()
        baseline = ex._baseline
        memory = 0 if now is None or baseline is None else now - baseline
        seconds = time.perf_counter() - began
        told(
            {
                "states": ex.states,
                "rate": ex.expanded / ex.seconds if ex.seconds else 0.0,
                "depth": deepest,
                "memory": memory,
                "seconds": seconds,
            }
        )

    return tell


def explore(
    system: System,
    start: State,
    max_states: int = DEFAULT_STATE_LIMIT,
    keep_edges: bool = False,
    seconds: float | None = None,
    max_bytes: int | None = DEFAULT_MEMORY_LIMIT,
    progress: Progress | None = None,
) -> Exploration:
    """Breadth-first search of every continuation from ``start``.

    It stops, incomplete, past ``max_states`` states, ``seconds`` seconds, or ``max_bytes``
    bytes of memory added to the process (checked every few thousand states).
    """
    return Exploration(system, start, max_states, keep_edges, seconds, max_bytes, progress).run()


def _composed(
    rename: Callable[[Any], Any] | None, forget: Callable[[Any], Any] | None
) -> Callable[[Any], Any] | None:
    """Rows' canonical form under a renaming and the record quotient, as
    :func:`~verifier.engines.records.composed` for states: the quotient first, so that the
    renaming sees only what is kept."""
    if rename is None or forget is None:
        return rename or forget
    return lambda rows: rename(forget(rows))


class _OutOfTime(Exception):
    """The engine's time ran out while a claim was evaluated on final states."""


class ExplorerEngine:
    """Decides claims over one breadth-first exploration, taken only as far as each claim
    needs: a final state that shows the claim (a witness of an ``exists``, a counterexample
    of an ``always``) ends the search, and the next claim goes on from there.

    The final states are examined in the order the exploration reaches them, so the trace
    found is the one a full exploration would give: a shortest. (With interchangeable
    cards, a shortest that may use one copy where the full exploration's uses another: a
    class's representative offers its actions in the order of its renamed cards.)
    """

    name = "explore"

    def __init__(
        self,
        system: System,
        start: State,
        start_activations: int,
        max_states: int = DEFAULT_STATE_LIMIT,
        seconds: float | None = None,
        *,
        progress: Progress | None = None,
        order: str = "breadth",
        reduce: bool = True,
        arrays_after: int | None = ARRAYS_AFTER,
        decider_after: int = DECIDER_AFTER,
    ) -> None:
        """``reduce``: explore interchangeable cards in one order only (symmetry reduction,
        :mod:`verifier.engines.symmetry`; the cards a claim names are never renamed),
        first try to decide each claim without a search (:mod:`verifier.engines.slicing`),
        and skip the activations the rules forbid on a state's few telling fields before
        their checks run (:mod:`verifier.engines.screen`).

        ``arrays_after``: a breadth-first search that has visited this many states without
        deciding goes on from there with the array step (:mod:`verifier.engines.arrays`:
        the same states, a level at a time, with the same reductions over rows). A search
        in the fewest-moves order that has visited ``decider_after`` states (or
        ``arrays_after``, if more) goes on in its order, but first the array step explores
        every continuation breadth first: when no final state shows the claim, that decides
        it, no witness being wanted. None: never."""
        self.system = system
        self.start = start
        self.start_activations = start_activations
        self.max_states = max_states
        self.seconds = seconds
        # The limit is on the engine's whole work, the claims' evaluation on final states
        # included, not on the exploration alone.
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.progress = progress
        self.order = order
        self.reduce = reduce
        self.named: frozenset[int] = frozenset()  # cards claims named: never renamed
        self.classes: tuple[tuple[int, ...], ...] = ()
        # What of the logs the claims asked so far read (the record quotient); without the
        # reductions, all of them.
        self.view: View = View() if reduce else WHOLE
        self.screen = Screen(system) if reduce else None
        self.recall = Recall(system, self.screen)
        self.arrays_after = arrays_after
        self.decider_after = decider_after
        self.arrays = False  # whether the exploration is the array step's
        # In the fewest-moves order: the array step's breadth-first exploration of the same
        # states, which settles claims that no final state shows.
        self.decider: Levels | None = None
        self.exploration: Exploration | Levels = self._exploration(self.classes)
        self.slicer = Slicer(system, start, start_activations) if reduce else None

    def _exploration(self, classes: tuple[tuple[int, ...], ...]) -> Exploration:
        symmetry = Symmetry(self.system.world, classes)
        quotient = None if self.view.whole else Quotient(self.system.layout, self.start, self.view)
        # A new exploration (for a finer symmetry) has what is left of the engine's time.
        left = None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())
        self.arrays = False
        exploration = Exploration(
            self.system,
            self.start,
            self.max_states,
            seconds=left,
            progress=self.progress,
            order=self.order,
            canonical=composed(symmetry.canonical if symmetry else None, quotient),
            screen=self.screen,
            recall=self.recall,
        )
        # The array step may take over where it pauses, with the same reductions over rows.
        self.decider = None
        if self.order == "breadth":
            exploration.pause_at = self.arrays_after
        elif self.arrays_after is not None:
            exploration.pause_at = max(self.arrays_after, self.decider_after)
        return exploration

    def _reduced_for(self, body: ast.Formula) -> None:
        """Explore with the reductions a claim allows: no card it names is renamed, and the
        logs keep what it reads of them (:mod:`verifier.engines.records`).

        The exploration goes on while it allows the claim; otherwise a new one starts with
        what every claim asked so far needs (the time spent still counts against the
        limit). Before anything is explored, the first claims set the reductions.
        """
        if not self.reduce:
            return
        named = named_cards(body)
        wanted = view(self.system.world, body)
        fresh = not self.exploration.expanded
        clash = any(c in members for members in self.classes for c in named)
        if not clash and self.view.covers(wanted) and not (fresh and not self.classes):
            return
        if clash or fresh:
            self.named |= named
        classes = interchangeable(self.system.world, self.named)
        widened = self.view | wanted
        if classes:
            widened = widened.in_order()  # sets of entries and renamings do not mix
        if classes != self.classes or widened != self.view or self.exploration.expanded:
            self.classes, self.view = classes, widened
            self.exploration = self._exploration(classes)

    def search(self, body: ast.Formula, want: bool) -> Search:
        if self.slicer is not None:
            began = time.perf_counter()
            sliced = self.slicer.decide(body, want)
            if sliced is not None:
                names = tuple(c.name for c in self.system.world.cards)
                stats: dict[str, float | int | str] = {
                    "states": sliced.visited,
                    "final_states": 0,
                    "explore_seconds": round(time.perf_counter() - began, 4),
                    "argument": "claim slicing",
                }
                return Search(None, True, sliced.told(names), stats)
        self._reduced_for(body)
        ex = self.exploration
        world, activations = self.system.world, self.start_activations

        deadline = self.deadline
        evaluated = 0

        def shows(state: State) -> bool:
            nonlocal evaluated
            evaluated += 1
            if deadline is not None and evaluated % 16 == 0 and time.perf_counter() > deadline:
                raise _OutOfTime
            return bool(truth(CONCRETE, world, state, body, activations, ex.start)) == want

        try:
            decider = self.decider
            if decider is None:
                found = self._find(shows, body, want)
                if found is None and self._handed_off():
                    if self.decider is not None and self._settles(self.decider, body, want):
                        return self._settled(self.decider)
                    found = self._find(shows, body, want)
            else:
                # The final states found so far (a witness in the search's own order), then
                # the decider, then the search further.
                found = self._find(shows, body, want, further=False)
                if found is None:
                    if self._settles(decider, body, want):
                        return self._settled(decider)
                    found = self._find(shows, body, want)
        except _OutOfTime:
            self.exploration.stopped_by = "time"
            return Search(None, False, self._limits(), self.stats())
        ex = self.exploration
        if found is not None:
            return Search(ex.path(found), True, "", self.stats())
        return Search(None, ex.faithful, self._limits(), self.stats())

    def _settles(self, decider: Levels, body: ast.Formula, want: bool) -> bool:
        """Whether ``decider``, explored on as far as needed, has every continuation and no
        final state that shows the claim."""
        from verifier.engines.relation import compile_claim

        if self.deadline is not None:
            decider.budget = decider.seconds + max(0.0, self.deadline - time.perf_counter())
        system, start = self.system, self.start
        claim = compile_claim(system, start, decider.program, body, self.start_activations)
        if decider.first(claim, want) is not None:
            return False
        if decider.advance(claim=(claim, want)) is not None:
            return False
        if decider.stopped_by:
            self.decider = None  # its memory back before the search goes on
            return False
        return True

    def _settled(self, decider: Levels) -> Search:
        """The answer of a claim no final state of the decider's shows."""
        return Search(None, decider.faithful, self._limits(decider), self.stats(decider))

    def _find(
        self, shows: Callable[[State], bool], body: ast.Formula, want: bool, further: bool = True
    ) -> State | None:
        """The first final state of the exploration, in its order, that ``shows`` the claim
        (the array step evaluates the claim over its rows, as a program of its own);
        ``further``: explored on as far as needed, else among those found so far."""
        ex = self.exploration
        if self.deadline is not None:
            ex.budget = ex.seconds + max(0.0, self.deadline - time.perf_counter())
        if isinstance(ex, Exploration):
            found = next((state for state in ex.terminals if shows(state)), None)
            return ex.advance(shows) if found is None and further else found
        from verifier.engines.relation import compile_claim

        claim = compile_claim(self.system, self.start, ex.program, body, self.start_activations)
        found = ex.first(claim, want)
        return ex.advance(claim=(claim, want)) if found is None else found

    def _handed_off(self) -> bool:
        """When the interpreted exploration paused (True): breadth first, it goes on with
        the array step from where it paused; in the fewest-moves order, it goes on as it
        was, with the array step's breadth-first exploration beside it as the decider.
        Where the array step cannot keep the reductions (members of a class that differ
        where no action changes them...), the interpreted step goes on alone. False when
        it did not pause."""
        ex = self.exploration
        if not isinstance(ex, Exploration) or not ex.paused:
            return False
        ex.pause_at, ex.paused = None, False
        from verifier.engines.arrays import Levels
        from verifier.engines.program import Unsupported
        from verifier.engines.relation import compile_relation

        began = time.perf_counter()
        try:
            reductions = self._row_reductions(compile_relation(self.system, self.start))
        except Unsupported:
            self.arrays_after = None
            return True
        program, symmetry, canonical = reductions
        progress: Any = self.progress  # told the same figures
        if self.order == "breadth":
            self.arrays = True
            self.exploration = Levels.resumed(ex, program, progress, symmetry, canonical)
            self.exploration.seconds += time.perf_counter() - began
        else:
            self.decider = Levels(
                self.system,
                self.start,
                program,
                ex.max_states,
                None,
                ex.max_bytes,
                progress,
                symmetry,
                canonical,
            )
            self.decider.seconds += time.perf_counter() - began
        return True

    def _row_reductions(self, program: Program) -> tuple[Program, Any, Any]:
        """The engine's reductions over the rows of ``program``: the program to step them
        with (it leaves the columns the record quotient forgets unwritten), what is left
        to map its successors with, and the canonical form of any row;
        :class:`Unsupported` when the array step cannot compute them."""
        from verifier.engines.array_records import RowQuotient
        from verifier.engines.array_symmetry import RowSymmetry

        system, start = self.system, self.start
        rename = RowSymmetry(system.world, self.classes, program, start) if self.classes else None
        if self.view.whole:
            return program, rename, rename
        forget = RowQuotient(system.layout, start, self.view, program)
        stepped, left = forget.leaving_unwritten(program)
        return stepped, _composed(rename, left), _composed(rename, forget)

    def stats(self, of: Exploration | Levels | None = None) -> dict[str, float | int | str]:
        """The figures of the exploration (or of ``of``)."""
        ex = self.exploration if of is None else of
        seconds = ex.seconds
        if of is not None and of is not self.exploration:
            seconds += self.exploration.seconds  # the decider's: both explorations' time
        stats: dict[str, float | int | str] = {
            "states": ex.states,
            "final_states": ex.final_states,
            "explore_seconds": round(seconds, 4),
        }
        if self.arrays or not isinstance(ex, Exploration):
            stats["step"] = "arrays"
        return stats

    def _limits(self, of: Exploration | Levels | None = None) -> str:
        ex = self.exploration if of is None else of
        if ex.stopped_by == "states":
            return (
                f"the exploration reached its state limit ({ex.states - 1}; --max-states "
                "raises it, --engine smt decides without visiting states)"
            )
        if ex.stopped_by == "time":
            return (
                f"the exploration ran out of time after {ex.states} states (--timeout gives "
                "it more; --engine smt decides without visiting states)"
            )
        if ex.stopped_by == "memory":
            gigabytes = DEFAULT_MEMORY_LIMIT / 1e9
            return (
                f"the exploration reached its memory limit after {ex.states} states "
                f"({gigabytes:.1f} GB; a smaller pool, a lower --max-states, or --engine smt)"
            )
        if ex.overflowed:
            reasons = "; ".join(c.reason for c in sorted(ex.capacities))
            return f"{ex.overflowed} continuation(s) run past a capacity: {reasons}"
        if ex.deadlocks:
            return f"{len(ex.deadlocks)} state(s) where nobody can act (a rule-system bug)"
        return ""
