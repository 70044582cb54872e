"""The concrete step, remembered: each computation keyed by the fields it read.

The explorer asks two questions of every state it expands: which actions are legal there,
and what each one leads to. Both are computed by the rules (:class:`~verifier.system.System`),
which read a state only through its frame; most of what they read (the step of the turn,
the mode, the zones, the chain) is shared by thousands of states, whose columns the
explorer keeps one copy of. So each answer is remembered in a decision tree over the
fields the computation read, in the order it first read them: a later state that agrees
on those fields reads the same values at every point of the same computation, and so gets
the same answer, found by a few lookups instead of running the rules again.

This is memoisation of the one rule text, not a second one: a state no tree holds is
computed by the rules themselves (through a frame that records what they read), and the
answer is exactly the rules' (``tests/test_recall.py`` compares the two in every state of
every example and on random scenarios of all three games).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from verifier.core.logic import CONCRETE
from verifier.core.state import State, tracked
from verifier.engines.screen import Screen
from verifier.rules.context import Ctx
from verifier.system import Action, System

__all__ = ["MAX_NODES", "Recall"]

MAX_NODES = 400_000
"""Decision-tree nodes kept before the trees are dropped and grown again (a bound on the
memory they take: each node is a small dictionary)."""


class _Node:
    """Branch on the value of one field: ``at``, its position in the state vector."""

    __slots__ = ("at", "next")

    def __init__(self, at: int) -> None:
        self.at = at
        self.next: dict[object, _Node | _Leaf] = {}


class _Leaf:
    """A remembered answer: the legal actions, or the fields a step sets (position, value)."""

    __slots__ = ("answer",)

    def __init__(self, answer: Any) -> None:
        self.answer = answer


_Tree = _Node | _Leaf | None


class _Tally:
    """Lookups in one tree, and whether remembering still pays there: where few states
    share what a computation reads (every order of a chain of interchangeable traps), a
    lookup that misses costs more than the computation alone, so the tree is given up."""

    __slots__ = ("hits", "live", "misses")

    def __init__(self) -> None:
        self.hits = 0
        self.misses = 0
        self.live = True

    def missed(self) -> None:
        self.misses += 1
        looked = self.hits + self.misses
        if looked >= TRIAL and self.hits < looked * LEAST_HITS:
            self.live = False


TRIAL = 500
"""Lookups in a tree before it may be given up."""

LEAST_HITS = 0.6
"""The share of lookups that must hit for a tree to be kept."""


class Recall:
    """The legal actions and the successors of concrete states of one system, remembered.

    ``enabled`` and ``step`` answer exactly as :meth:`System.enabled_actions` and
    :meth:`System.step` (with the concrete logic) do.
    """

    def __init__(self, system: System, screen: Screen | None = None) -> None:
        """``screen``, when given, skips the activations it knows to be illegal while a
        state's legal actions are computed (the fields it reads join the key)."""
        self.system = system
        self.screen = screen
        self.world = system.world
        self.layout = system.layout
        self._enabled: _Tree = None
        self._enabled_tally = _Tally()
        # By action (its id, with the action itself kept so that the id stays its own).
        self._steps: dict[int, tuple[Action, _Tree]] = {}
        self._step_tally = {kind: _Tally() for kind in {a.kind for a in system.actions}}
        self.nodes = 0

    @property
    def hits(self) -> int:
        return self._enabled_tally.hits + sum(t.hits for t in self._step_tally.values())

    @property
    def misses(self) -> int:
        return self._enabled_tally.misses + sum(t.misses for t in self._step_tally.values())

    def enabled(self, state: State) -> Iterable[Action]:
        tally = self._enabled_tally
        if not tally.live:
            if self.screen is not None:
                return self.screen.enabled(state)
            return self.system.enabled_actions(state)
        node = self._enabled
        while type(node) is _Node:
            node = node.next.get(state[node.at])
        if node is not None:
            tally.hits += 1
            return node.answer  # type: ignore[union-attr,no-any-return]
        tally.missed()
        frame, seen = tracked(self.layout, state)
        screen = self.screen
        if screen is None:
            actions = tuple(self.system.legal(Ctx(CONCRETE, frame, self.world)))
        else:
            seen.read.update(dict.fromkeys(screen.reads))
            sieve = screen.sieve(state)
            actions = tuple(self.system.legal(Ctx(CONCRETE, frame, self.world), sieve))
        self._enabled = self._grow(self._enabled, state, list(seen.read), actions)
        return actions

    def step(self, state: State, action: Action) -> State:
        tally = self._step_tally.get(action.kind)
        if tally is None:
            tally = self._step_tally[action.kind] = _Tally()
        if not tally.live:
            return self.system.step(CONCRETE, state, action)
        entry = self._steps.get(id(action))
        node: _Tree = entry[1] if entry is not None and entry[0] is action else None
        while type(node) is _Node:
            node = node.next.get(state[node.at])
        if node is not None:
            tally.hits += 1
            after = list(state)
            for at, value in node.answer:  # type: ignore[union-attr]
                after[at] = value
            return tuple(after)
        tally.missed()
        frame, seen = tracked(self.layout, state, writable=True)
        self.system.apply(Ctx(CONCRETE, frame, self.world), action)
        successor = frame.dump()
        sets = tuple((at, successor[at]) for at in sorted(seen.put))
        root = entry[1] if entry is not None and entry[0] is action else None
        self._steps[id(action)] = (action, self._grow(root, state, list(seen.read), sets))
        return successor

    def _grow(self, root: _Tree, state: State, read: list[int], answer: object) -> _Tree:
        """``root`` with the path of ``state`` over the fields ``read`` (in the order first
        read) ending in ``answer``."""
        if self.nodes >= MAX_NODES:
            self._enabled, self._steps, self.nodes = None, {}, 0
            root = None
        leaf = _Leaf(answer)
        if not read:
            return leaf
        if root is None:
            root = _Node(read[0])
            self.nodes += 1
        node = root
        for k, at in enumerate(read):
            if not isinstance(node, _Node) or node.at != at:
                raise _Nondeterministic
            value = state[at]
            if k + 1 == len(read):
                node.next[value] = leaf
                break
            child = node.next.get(value)
            if child is None:
                child = node.next[value] = _Node(read[k + 1])
                self.nodes += 1
            node = child
        return root


class _Nondeterministic(AssertionError):
    """Two computations that read the same values read different fields next: the rules
    read something other than the state (a bug); nothing remembered could be trusted."""
