"""The array step: a breadth-first exploration that takes a whole level of states at a time.

The explorer's interpreted step runs the rules anew for every state. This one evaluates the
transition relation (:mod:`verifier.engines.program`, built from the one rule text) once per
chunk of a level: every instruction is one NumPy operation over the chunk's states in one
mode, with the relation specialised to that mode (:mod:`verifier.engines.specialize`); an
action's successors are the rows where its guard holds with the columns it writes replaced,
computed over those rows only (:mod:`verifier.engines.array_plan`). Successors are kept in
the explorer's own order (by the state they come from, then by action), deduplicated
against every state reached so far, and filed as the explorer files them: final states,
states past a capacity, dead ends. It visits exactly the explorer's states, and a final
state it shows first is reached by a shortest continuation.

A state is held as its row of changing elements (the others keep their start values), kept
as a key of a byte an element where its values fit and found again by the key's hash
(:mod:`verifier.engines.array_index`), with the state it was reached from and the action
that reached it, for the witness. Reductions, when given, map each successor row to its
canonical row first (:mod:`verifier.engines.array_symmetry`,
:mod:`verifier.engines.array_records`); a claim is evaluated over the final rows by a
program of its own (:func:`verifier.engines.relation.compile_claim`).
"""

from __future__ import annotations

import time
import weakref
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from verifier.core.state import READ, Capacity, Mode, State
from verifier.engines.array_index import RowIndex
from verifier.engines.array_plan import Plan, evaluate
from verifier.engines.base import DEFAULT_MEMORY_LIMIT, DEFAULT_STATE_LIMIT
from verifier.engines.program import Program
from verifier.engines.resident import resident_bytes
from verifier.engines.specialize import specialized
from verifier.engines.stepped import Stepped, joined
from verifier.engines.symmetry import concrete_path
from verifier.system import Action, System

if TYPE_CHECKING:
    from verifier.engines.explore import Exploration
    from verifier.engines.helper import Ahead

__all__ = ["CHUNK", "Levels", "evaluate"]

CHUNK = 8192
"""States evaluated together: each instruction is one array operation over this many."""

SPLIT = 4096
"""A chunk of fewer states is stepped whole: split by mode, each instruction's fixed cost
would weigh more than the instructions saved."""


Progress = Callable[["Levels"], None]


class Levels:
    """A breadth-first exploration by levels, with the interface of
    :class:`~verifier.engines.explore.Exploration` that the explorer engine uses."""

    order = "breadth"
    canonical = None

    def __init__(
        self,
        system: System,
        start: State,
        program: Program,
        max_states: int = DEFAULT_STATE_LIMIT,
        seconds: float | None = None,
        max_bytes: int | None = DEFAULT_MEMORY_LIMIT,
        progress: Progress | None = None,
        symmetry: Callable[[Any], Any] | None = None,
        canonical: Callable[[Any], Any] | None = None,
        chunk: int = CHUNK,
        helper: bool = True,
    ) -> None:
        """``chunk``: the states stepped together (:data:`CHUNK`). ``helper``: a level of
        two chunks or more is stepped with a helper process where one can be started
        (:mod:`verifier.engines.helper`); the same states, in the same order.

        ``symmetry``, when given, maps rows to their canonical forms
        (:class:`~verifier.engines.array_symmetry.RowSymmetry`): every state reached after
        the start is kept as its canonical form, and :meth:`path` replays real actions
        through them. ``canonical``: the canonical form of any row, where ``program``
        itself makes part of the reduction (it leaves forgotten columns unwritten, so
        ``symmetry`` need not forget them); by default ``symmetry``."""
        self.system = system
        self.symmetry = symmetry
        self._canon = symmetry if canonical is None else canonical
        self.start = start
        self.program = program
        self.max_states = max_states
        self.budget = seconds
        self.max_bytes = max_bytes
        self.progress = progress
        self._baseline = resident_bytes() if max_bytes is not None else None
        bits = program.bits
        self._dtype: Any = next(t for t in _DTYPES if np.iinfo(t).bits >= bits)
        # Every element of a state, flat: the start's, and where the row's columns go.
        self._spans: list[tuple[int, int, bool, bool]] = []
        flat: list[int] = []
        offsets: list[int] = []
        for position, field in enumerate(system.layout.fields):
            offsets.append(len(flat))
            value = start[position]
            whole = isinstance(value, tuple)
            flat.extend([int(v) for v in value] if whole else [int(value)])
            self._spans.append((offsets[-1], len(flat), whole, field.boolean))
        self._base = np.array(flat, dtype=np.int64)
        self._places = np.array(
            [offsets[c.position] + (c.index or 0) for c in program.columns], dtype=np.int64
        )
        # Per mode (the rows of a chunk in one mode are stepped together), the program
        # specialised to it and what its guards and changes need.
        self._plans: dict[int | None, Plan] = {}
        first = self.rows([start])[0]
        # Every state filed (its number its place in the order filed); the columns whose
        # start values do not fit a byte are kept whole in every key.
        self._filed = self._index_of(np.flatnonzero((first < -128) | (first > 127)))
        self._filed.file(self._filed.keys(first[None, :]), first[None, :], 1)
        self._parent = array("q", [-1])
        self._action = array("l", [-1])
        self._ids: dict[State, int] = {start: 0}  # the states handed out (final, dead ends)
        # Final states, as rows (in chunks, with their numbers) and as states decoded so far.
        self._finals: list[tuple[Any, Any]] = []
        self._final_states = 0
        self._terminals: list[State] = []
        self._decoded_chunks = 0
        self.deadlocks: list[State] = []
        self.overflowed = 0
        self._capacities: set[Capacity] = set()
        self._expanded = 0
        self.seconds = 0.0
        self.stopped_by = ""
        self.last: State | None = None
        self.level = 0
        # The states stepped together; whether a helper process may be started (at the
        # first level of two chunks); the chunks computed ahead with it.
        self.chunk = chunk
        self._helping = helper
        self._ahead: Ahead | None = None
        # The states to expand next (their rows and their numbers), in order.
        self._rows = first[None, :][:0]
        self._numbers = np.zeros(0, dtype=np.int64)
        kind = self._classify(first[None, :])[0]
        if kind == _FINAL:
            self._finals.append((first[None, :], np.zeros(1, dtype=np.int64)))
            self._final_states = 1
        elif kind == _GO:
            self._rows, self._numbers = first[None, :], np.zeros(1, dtype=np.int64)
        else:  # the start itself is past a capacity, as the explorer files it
            self.overflowed = 1
            self._capacities.add(Capacity(READ.overflow(start)))

    @classmethod
    def resumed(
        cls,
        ex: Exploration,
        program: Program,
        progress: Progress | None = None,
        symmetry: Callable[[Any], Any] | None = None,
        canonical: Callable[[Any], Any] | None = None,
    ) -> Levels:
        """The array step going on from where the breadth-first ``ex`` (its queue of states
        still to expand intact) stopped: what it reached, in its order, with its parents,
        final states, dead ends and capacities passed.

        With ``symmetry`` (the rows' own reductions, standing for the interpreted ones
        ``ex`` made), each state reached after the start is taken to its canonical row;
        states whose rows coincide are one, the first reached (the nearest the start).
        """
        made = cls(
            ex.system,
            ex.start,
            program,
            ex.max_states,
            ex.budget,
            ex.max_bytes,
            progress,
            symmetry,
            canonical,
        )
        reached = list(ex.parent)
        rows = made.rows(reached)
        if symmetry is not None and len(rows) > 1:
            rows[1:] = symmetry(rows[1:])
        keyed: dict[bytes, int] = {}  # each row: its number
        number: dict[State, int] = {}  # each state reached: the number of its row
        firsts: list[int] = []  # per row: where in ``reached`` it was first
        for at, (state, row) in enumerate(zip(reached, rows, strict=True)):
            known = number[state] = keyed.setdefault(row.tobytes(), len(firsts))
            if known == len(firsts):  # a row not reached before
                firsts.append(at)
        unique = rows[firsts]
        made._filed = made._index_of(made._filed.wide)
        made._filed.file(made._filed.keys(unique), unique, len(unique))
        code = {id(action): n for n, action in enumerate(ex.system.actions)}
        links = [ex.parent[reached[at]] for at in firsts]
        made._parent = array("q", [-1 if link is None else number[link[0]] for link in links])
        made._action = array("l", [-1 if link is None else code[id(link[1])] for link in links])
        if symmetry is None:
            made._ids = number
        finals = sorted({number[s] for s in ex.terminals})
        if finals:
            made._finals = [(made._stored(finals), np.array(finals, dtype=np.int64))]
        made._final_states = len(finals)
        made.deadlocks = list(ex.deadlocks)
        made.overflowed = ex.overflowed
        made._capacities = set(ex.capacities)
        made._expanded = ex.expanded
        made.seconds = ex.seconds
        # The queue, each row once, where it was first reached.
        waiting = set(ex.queued())
        queue = list(dict.fromkeys(number[state] for state in ex.queued()))
        queue = [n for n in queue if reached[firsts[n]] in waiting]
        made._rows = made._stored(queue) if queue else made._rows
        made._numbers = np.array(queue, dtype=np.int64)
        return made

    # -- the interface of an exploration -----------------------------------------------------

    @property
    def states(self) -> int:
        return self._filed.count

    @property
    def expanded(self) -> int:
        return self._expanded

    @property
    def capacities(self) -> frozenset[Capacity]:
        return frozenset(self._capacities)

    @property
    def finished(self) -> bool:
        return bool(self.stopped_by) or not len(self._rows)

    @property
    def complete(self) -> bool:
        return not self.stopped_by and not len(self._rows)

    @property
    def faithful(self) -> bool:
        return self.complete and not self.overflowed and not self.deadlocks

    def depth(self, state: State) -> int:
        depth, number = 0, self._ids[state]
        while self._parent[number] >= 0:
            depth, number = depth + 1, self._parent[number]
        return depth

    def path(self, state: State) -> list[Action]:
        """The actions from the start to ``state`` (a final state or a dead end found); under
        symmetry reduction, real actions to a renaming of ``state``."""
        actions: list[Action] = []
        numbers: list[int] = []
        number = self._ids[state]
        while self._parent[number] >= 0:
            actions.append(self.system.actions[self._action[number]])
            numbers.append(number)
            number = self._parent[number]
        actions.reverse()
        if self._canon is None:
            return actions
        numbers.reverse()
        states = self._decoded(self._stored(numbers))
        return concrete_path(self.system, self.start, self._canonical_state, states)

    def _index_of(self, wide: Any) -> RowIndex:
        """An index of no state yet, for this exploration's rows."""
        return RowIndex(self._dtype, len(self.program.columns), wide)

    def _stored(self, numbers: list[int]) -> Any:
        """The rows of the states numbered ``numbers``."""
        return self._filed.rows(numbers)

    def _canonical_state(self, state: State) -> State:
        assert self._canon is not None
        return self._decoded(self._canon(self.rows([state])))[0]

    def reached(self) -> list[State]:
        """Every state reached so far, in the order reached."""
        return self._decoded(self._stored(list(range(self._filed.count))))

    @property
    def final_states(self) -> int:
        """How many final states were reached."""
        return self._final_states

    @property
    def terminals(self) -> list[State]:
        """The final states reached, in the order reached."""
        for rows, numbers in self._finals[self._decoded_chunks :]:
            self._terminals.extend(self.states_of(rows, numbers))
        self._decoded_chunks = len(self._finals)
        return self._terminals

    def first(self, claim: Program, want: bool, since: int = 0) -> State | None:
        """The first final state, from the ``since``-th on, where the one value ``claim``
        computes (over the same columns) is ``want``."""
        seen = 0
        for rows, numbers in self._finals:
            if seen + len(rows) > since:
                skip = max(0, since - seen)
                for at in range(skip, len(rows), CHUNK):
                    part = rows[at : at + CHUNK]
                    values = evaluate(claim, part)
                    shown = np.broadcast_to(
                        np.asarray(values[claim.guards[0]], dtype=bool) == want, (len(part),)
                    )
                    hits = np.flatnonzero(shown)
                    if len(hits):
                        k = at + int(hits[0])
                        return self.states_of(rows[k : k + 1], numbers[k : k + 1])[0]
            seen += len(rows)
        return None

    def advance(
        self,
        goal: Callable[[State], bool] | None = None,
        claim: tuple[Program, bool] | None = None,
    ) -> State | None:
        """Explore on, a level at a time; return the first final state of the levels
        explored by this call that satisfies ``goal``, or where ``claim``'s program (over
        the same columns) computes the value it is given with."""
        began = time.perf_counter()
        deadline = None if self.budget is None else began + self.budget - self.seconds
        try:
            while not self.finished:
                known = self._final_states
                self._level(deadline)
                if claim is not None:
                    found = self.first(claim[0], claim[1], known)
                    if found is not None:
                        return found
                elif goal is not None:
                    for state in self.terminals[known:]:
                        if goal(state):
                            return state
            return None
        finally:
            self.seconds += time.perf_counter() - began

    def run(self) -> Levels:
        self.advance()
        return self

    # -- rows and states ---------------------------------------------------------------------

    def row(self, state: State) -> Any:
        """The changing elements of ``state``, as a row."""
        return self.rows([state])[0]

    def rows(self, states: list[State]) -> Any:
        """The changing elements of ``states``, a row each."""
        flat = [
            [int(v) for field in state for v in (field if type(field) is tuple else (field,))]
            for state in states
        ]
        every = np.array(flat, dtype=np.int64).reshape(len(states), len(self._base))
        return every[:, self._places].astype(self._dtype)

    def states_of(self, rows: Any, numbers: Any) -> list[State]:
        """The states of ``rows`` (handed out: their numbers are kept for their paths)."""
        made = self._decoded(rows)
        for state, number in zip(made, numbers.tolist(), strict=True):
            self._ids.setdefault(state, number)
        return made

    def _decoded(self, rows: Any) -> list[State]:
        """The states of ``rows``."""
        flat = np.repeat(self._base[None, :], len(rows), axis=0)
        flat[:, self._places] = rows
        return [
            tuple(
                [
                    (tuple(map(bool, values[a:b])) if boolean else tuple(values[a:b]))
                    if array
                    else (bool(values[a]) if boolean else values[a])
                    for a, b, array, boolean in self._spans
                ]
            )
            for values in flat.tolist()
        ]

    # -- one level ---------------------------------------------------------------------------

    def _classify(self, rows: Any) -> Any:
        """Per row: past a capacity, final, or to be expanded."""
        kinds = np.full(len(rows), _GO, dtype=np.int8)
        program = self.program
        if program.mode is not None:
            kinds[rows[:, program.mode] == int(Mode.DONE)] = _FINAL
        elif READ.mode(self.start) == Mode.DONE:
            kinds[:] = _FINAL
        if program.overflow is not None:
            kinds[rows[:, program.overflow] != int(Capacity.NONE)] = _PAST
        return kinds

    def _plan(self, mode: int | None) -> Plan:
        """How the rows in ``mode`` are stepped (None: whatever their mode)."""
        plan = self._plans.get(mode)
        if plan is None:
            program = self.program
            if mode is not None:
                program = specialized(program, self.program.mode, mode)  # type: ignore[arg-type]
            plan = self._plans[mode] = Plan(program)
        return plan

    def _level(self, deadline: float | None) -> None:
        """Expand the current level; the new states to expand become the next."""
        rows, numbers = self._rows, self._numbers
        going: list[Any] = []
        going_numbers: list[Any] = []
        chunk = self.chunk
        starts = range(0, len(rows), chunk)
        if len(starts) > 1 and self._ahead is None and self._helping:
            self._start_helper()
        ahead = self._ahead
        if ahead is not None:
            ahead.hand_on(self.level, rows, going, (self.level, 0))
        for at in starts:
            if deadline is not None and time.perf_counter() > deadline:
                self.stopped_by = "time"
            elif self._over_memory():
                self.stopped_by = "memory"
            if self.stopped_by:
                break
            part, part_numbers = rows[at : at + chunk], numbers[at : at + chunk]
            if ahead is None:
                stepped = self.stepped(part)
            else:
                stepped = ahead.take(self.level, rows, at, going)
            fresh, fresh_numbers = self._file(part, part_numbers, stepped)
            if len(fresh):
                going.append(fresh)
                going_numbers.append(fresh_numbers)
            if ahead is not None:
                following = at + chunk
                filing = (self.level, following) if following < len(rows) else (self.level + 1, 0)
                ahead.hand_on(self.level, rows, going, filing)
            if self.progress is not None:
                self.progress(self)
            if self.stopped_by:
                break
        if self.stopped_by or not going:
            self._rows, self._numbers = rows[:0], numbers[:0]
            if ahead is not None:
                ahead.forget()
        else:
            self._rows, self._numbers = np.concatenate(going), np.concatenate(going_numbers)
        self.level += 1

    @property
    def helped(self) -> int:
        """How many chunks (or halves of one) the helper process computed."""
        return 0 if self._ahead is None else self._ahead.helped

    def _start_helper(self) -> None:
        """Start the helper process (:mod:`verifier.engines.helper`), where it can be."""
        from verifier.engines.helper import Ahead

        # ``ahead`` holds this exploration's step weakly, so that the exploration goes as
        # soon as nothing else holds it, and its helper with it.
        method = weakref.WeakMethod(self.stepped)

        def stepped(rows: Any) -> Stepped:
            levels = method()
            assert levels is not None, "stepped after its exploration went"
            return levels(rows)

        width = len(self.program.columns)
        ahead = Ahead.start(stepped, joined, width, self._dtype, self.chunk)
        if ahead is None:
            self._helping = False
            return
        self._ahead = ahead
        assert ahead.helper is not None
        weakref.finalize(self, ahead.helper.close)

    def stepped(self, rows: Any) -> Stepped:
        """Everything about the successors of ``rows`` that does not depend on the states
        reached before (so the helper can compute it): which rows have none, and the
        successors in the explorer's order (by row, then action) as they are kept, with the
        rows they come from, the actions, their keys (:meth:`_key_matrix`) and kinds."""
        program = self.program
        found: list[tuple[Any, Any, Any]] = []
        split = program.mode is not None and len(rows) >= SPLIT
        modes = rows[:, program.mode] if split else None
        present = [None] if modes is None else _distinct(modes)
        for mode in present:
            at = None if len(present) == 1 else np.flatnonzero(modes == mode)
            following, where, taken = self._plan(mode).successors(rows if at is None else rows[at])
            if len(following):
                found.append((following, where if at is None else at[where], taken))
        if len(found) == 1:
            [(successors, parent, action)] = found
        elif found:
            successors = np.concatenate([f[0] for f in found])
            parent = np.concatenate([f[1] for f in found])
            action = np.concatenate([f[2] for f in found])
        else:
            successors = rows[:0]
            parent = action = np.zeros(0, dtype=np.int64)
        stuck = np.flatnonzero(np.bincount(parent, minlength=len(rows)) == 0)
        if self.symmetry is not None and len(successors):
            successors = self.symmetry(successors)
        order = np.lexsort((action, parent))
        successors, parent, action = successors[order], parent[order], action[order]
        keys, whole, hashes = self._filed.keys(successors)
        return (stuck, successors, parent, action, keys, whole, hashes, self._classify(successors))

    def _file(self, rows: Any, numbers: Any, stepped: Stepped) -> tuple[Any, Any]:
        """File the successors of ``rows`` (:meth:`stepped`) not reached before; return
        those to expand next."""
        stuck, successors, parent, action, matrix, whole, hashes, kinds = stepped
        self._expanded += len(rows)
        if len(stuck):
            self.deadlocks.extend(self.states_of(rows[stuck], numbers[stuck]))
        if not len(successors):
            return rows[:0], numbers[:0]
        # Each row not reached before: the first of equal rows within the chunk, and
        # none reached in an earlier one.
        first_number = self._filed.count
        room = self.max_states + 1 - first_number
        new = self._filed.file((matrix, whole, hashes), successors, room)
        full = len(new) >= room
        if full:
            self.stopped_by = "states"
        if not len(new):
            return rows[:0], numbers[:0]
        self._parent.frombytes(numbers[parent[new]].astype(np.int64).tobytes())
        self._action.frombytes(action[new].astype(f"=i{self._action.itemsize}").tobytes())
        # The new successors stay where they are until each kind is taken out of them
        # (those to expand next, most of them, copied once).
        kinds = kinds[new]
        chosen_numbers = np.arange(first_number, self._filed.count, dtype=np.int64)
        if full:  # the state past the limit is counted, not filed, as the explorer does
            new, chosen_numbers, kinds = new[:-1], chosen_numbers[:-1], kinds[:-1]
            if not len(new):
                return rows[:0], numbers[:0]
        finals = np.flatnonzero(kinds == _FINAL)
        if len(finals):
            self._finals.append((successors[new[finals]], chosen_numbers[finals]))
            self._final_states += len(finals)
        past = np.flatnonzero(kinds == _PAST)
        if len(past):
            self.overflowed += len(past)
            if self.program.overflow is not None:
                for value in _distinct(successors[new[past], self.program.overflow]):
                    self._capacities.add(Capacity(value))
        self.last = self.states_of(successors[new[-1:]], chosen_numbers[-1:])[0]
        go = np.flatnonzero(kinds == _GO)
        return successors[new[go]], chosen_numbers[go]

    def _over_memory(self) -> bool:
        if self._baseline is None or self.max_bytes is None:
            return False
        now = resident_bytes()
        if now is not None and self._ahead is not None and self._ahead.helper is not None:
            now += self._ahead.helper.resident()
        return now is not None and now - self._baseline >= self.max_bytes


_GO, _FINAL, _PAST = 0, 1, 2


def _distinct(values: Any) -> list[int]:
    """The values of an array of small integers, each once, in order (``np.unique`` would
    import ``numpy.ma`` for it)."""
    low = int(values.min())
    return (np.flatnonzero(np.bincount(values.astype(np.int64) - low)) + low).tolist()


_DTYPES = (np.int8, np.int16, np.int32, np.int64)
