"""Induction: a "no" proved by an invariant that z3 checks on the engine's own relation.

A judge's argument — "Book of Moon cannot be activated in the Damage Step, and every
continuation stays in the Damage Step until it ends" — is an inductive invariant over two
fields: the step of the turn and the mode. Its candidates come from the rules run on sets
of states (:mod:`verifier.engines.slicing`: the steps and modes at which the rules forbid
activating a card, closed under every action); z3 then checks the candidate on the same
transition relation the unrolling is made of, so a wrong candidate is never a proof:

- **consecution**: from *any* state at one of those steps and modes (every other field
  free), every action leads to a state at one of them;
- **safety**: from any such state, no action that activates the card is taken;
- **initiation**: every continuation from the scenario's point reaches one of them within
  ``d`` steps, or has finished by then (a dead end or a capacity passed on the way is not
  finished: the argument is then given up), and does not activate the card on the way.

Then no continuation activates the card, and a claim that this alone decides is decided by
its shape, as claim slicing decides it (``exists activates(B, "X")`` fails, ``always not
activates(B, "X")`` holds). A card that no action of the relation can activate at all needs
no invariant (it is ``True``). Whatever is not proved this way is left to the bounded
search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from verifier.claims import ast
from verifier.core.state import Mode
from verifier.engines.slicing import Key, Slice, Slicer, producing
from verifier.engines.smt.encode import Unrolling, action_code

__all__ = ["Induction", "Proof"]

MAX_DEPTH = 24
"""Steps from the scenario's point within which the continuations must reach the invariant."""


@dataclass(frozen=True, slots=True)
class Proof:
    """An inductive invariant z3 has checked, for each card of a claim that none of its
    continuations activates: the argument in words, and the depth of its initiation."""

    told: str
    depth: int
    invariant: str


class Induction:
    """Checks the candidates of one system and start state on its unrolling's relation."""

    def __init__(self, unrolling: Unrolling, slicer: Slicer) -> None:
        self.unrolling = unrolling
        self.slicer = slicer
        self.one_step = z3.SolverFor("QF_FD")
        self.one_step.set("ctrl_c", False)
        self.one_step.add(unrolling.relation.formula)
        # The first steps of the unrolling only: the bounded search's solver holds every
        # step it has unrolled, which would make each of these small questions a large one.
        self.prefix = z3.SolverFor("QF_FD")
        self.prefix.set("ctrl_c", False)
        self.steps = 0
        self._cards: dict[int, tuple[int, str] | None] = {}  # by card: (depth, invariant)

    def prove(self, body: ast.Formula, want: bool, timeout_ms: int | None) -> Proof | None:
        """The proof that no continuation makes ``body`` evaluate to ``want`` (None: not
        proved this way)."""
        slices = self.slicer.slices(body, want)
        if slices is None:
            return None
        self._timeout(timeout_ms)
        checked = []
        for card, found in sorted(slices.items()):
            if card not in self._cards:
                self._cards[card] = self._check(card, found)
            proved = self._cards[card]
            if proved is None:
                return None
            checked.append((found, proved))
        names = tuple(c.name for c in self.slicer.system.world.cards)
        told = "; ".join(found.told(names) for found, _ in checked)
        depth = max(proved[0] for _, proved in checked)
        invariant = "; ".join(proved[1] for _, proved in checked)
        return Proof(
            f"inductive invariant, checked by z3 (initiation within {depth} step(s), "
            f"consecution, safety): {told}",
            depth,
            invariant,
        )

    def _timeout(self, timeout_ms: int | None) -> None:
        if timeout_ms is not None:
            self.one_step.set("timeout", max(1, timeout_ms))
            self.prefix.set("timeout", max(1, timeout_ms))

    def ask(self, *formulas: Any) -> z3.CheckSatResult:
        """Whether ``formulas`` can hold together on the unrolling's first steps (those up
        to the deepest step they mention must have been added with :meth:`unroll`)."""
        return self.prefix.check(*formulas)

    def unroll(self, depth: int) -> None:
        """The unrolling's first ``depth`` steps, in the prefix solver."""
        self.unrolling.extend(depth)
        while self.steps < depth:
            self.prefix.add(self.unrolling.constraints[self.steps])
            self.steps += 1

    def _check(self, card: int, found: Slice) -> tuple[int, str] | None:
        """Check the candidate of ``card``: the initiation depth and the invariant in words,
        or None when z3 does not confirm it."""
        unrolling = self.unrolling
        actions = producing(self.slicer.system, frozenset({card}))
        codes = [i for i, a in enumerate(unrolling.actions) if a in actions]
        if not codes:
            return 0, "true (no action of the relation activates it)"
        if not found.keys:
            return None
        relation = unrolling.relation
        inside = self._inside(relation.current, found.keys)
        following = self._inside(relation.following, found.keys)
        taken = z3.Or(*(action_code(relation.act, i) for i in codes))
        if self.one_step.check(inside, z3.Not(following)) != z3.unsat:
            return None
        if self.one_step.check(inside, taken) != z3.unsat:
            return None
        depth = self._initiation(found.keys, codes)
        if depth is None:
            return None
        return depth, self._words(found.keys)

    def _initiation(self, keys: frozenset[Key], codes: list[int]) -> int | None:
        """The depth by which every continuation is inside ``keys`` or finished, none of
        them taking one of the actions ``codes`` while outside (None: not within
        :data:`MAX_DEPTH`, or the solver gave up)."""
        unrolling = self.unrolling
        outside: list[Any] = []
        for depth in range(MAX_DEPTH + 1):
            self.unroll(depth)
            outside.append(z3.Not(self._inside(unrolling.bits[depth], keys)))
            if depth:
                # Outside until step depth - 1, and one of them taken there.
                taken = z3.Or(*(unrolling.taken(depth - 1, i) for i in codes))
                if self.ask(*outside[:-1], taken) != z3.unsat:
                    return None
            result = self.ask(*outside, z3.Not(unrolling.finished(depth)))
            if result == z3.unsat:
                return depth
            if result != z3.sat:
                return None
        return None

    def _inside(self, bits: tuple[Any, ...], keys: frozenset[Key]) -> Any:
        """``bits`` (a state of the relation's elements) are at one of ``keys``."""
        step = self._scalar(bits, "step")
        mode = self._scalar(bits, "mode")
        return z3.Or(*(z3.And(step == s, mode == m) for s, m in sorted(keys)))

    def _scalar(self, bits: tuple[Any, ...], name: str) -> Any:
        term = self.unrolling.scalar_of(bits, name)
        if isinstance(term, int):
            return z3.BitVecVal(term, self.unrolling.width)
        return term

    def _words(self, keys: frozenset[Key]) -> str:
        """The invariant over the fields it mentions (the step of the turn, the mode), in
        the game's words."""
        world = self.slicer.system.world
        groups: dict[tuple[int, ...], list[str]] = {}
        for step in sorted({s for s, _ in keys}):
            modes = tuple(sorted(m for s, m in keys if s == step))
            groups.setdefault(modes, []).append(world.steps[step])
        return ", or ".join(
            f"step in {{{', '.join(steps)}}} and mode in {{{_modes(modes)}}}"
            for modes, steps in groups.items()
        )


def _modes(modes: tuple[int, ...]) -> str:
    return ", ".join(Mode(m).name.lower() for m in modes)
