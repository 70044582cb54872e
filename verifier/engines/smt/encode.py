"""The transition relation as propositional constraints, unrolled step by step.

The relation is built once by running the one semantics (:meth:`verifier.system.System.
step` and its guards) on z3 terms over generic state variables ``X``, an action ``a`` and
next-state variables ``Y``. Every integer of the state is a bit-vector made of named Boolean
bits, so the relation can be bit-blasted once into a propositional formula over those bits;
each step of the unrolling is then a substitution of bits (done inside z3), and the solver
sees plain clauses. State elements that no action ever changes are the scenario's constants
and never become variables. A step with no legal action is a stutter: the state stays the
same, so final states (and dead ends) persist to the last step.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from verifier.core.state import Capacity, Field, Mode, State
from verifier.engines.smt.logic import Z3Logic
from verifier.system import Action, System

__all__ = ["OutOfTime", "Unrolling", "action_code"]

Element = tuple[Field, int, int | None]
"""A state element: the field, its position in the vector, and the index within an array
field (``None`` for a scalar)."""


def _label(element: Element) -> str:
    field, _, index = element
    return field.name if index is None else f"{field.name}[{index}]"


def _bits(element: Element, suffix: str, width: int) -> tuple[Any, ...]:
    """The Boolean variables a state element is made of."""
    name = _label(element) + suffix
    if element[0].boolean:
        return (z3.Bool(name),)
    return tuple(z3.Bool(f"{name}.{j}") for j in range(width))


def _term(element: Element, bits: tuple[Any, ...]) -> Any:
    """The z3 term of a state element made of ``bits``."""
    if element[0].boolean:
        return bits[0]
    one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
    return z3.Concat(*(z3.If(bit, one, zero) for bit in reversed(bits)))


def _variable(element: Element, suffix: str, width: int) -> tuple[Any, tuple[Any, ...]]:
    """A state element as a z3 term, and the Boolean variables it is made of."""
    bits = _bits(element, suffix, width)
    return _term(element, bits), bits


def _bits_of(value: Any, element: Element, width: int) -> tuple[Any, ...]:
    """The constant bits of a concrete value of ``element`` (two's complement)."""
    if element[0].boolean:
        return (z3.BoolVal(bool(value)),)
    limit = 1 << (width - 1)
    if not -limit <= int(value) < limit:
        raise OverflowError(f"{_label(element)} = {value} does not fit in {width}-bit integers")
    word = int(value) & ((1 << width) - 1)
    return tuple(z3.BoolVal(bool(word >> j & 1)) for j in range(width))


def action_code(bits: tuple[Any, ...], value: int) -> Any:
    """The action number ``value`` in binary over the Boolean ``bits``.

    A binary code makes exactly one action the step's action, with no extra constraint.
    """
    return z3.And(*(bit if value >> j & 1 else z3.Not(bit) for j, bit in enumerate(bits)))


class OutOfTime(Exception):
    """The deadline passed while the encoding was being built."""


@dataclass(frozen=True, slots=True)
class _Relation:
    """The bit-blasted transition relation over generic bits."""

    elements: tuple[Element, ...]
    current: tuple[Any, ...]  # the bits of X, element after element
    following: tuple[Any, ...]  # the bits of Y
    act: tuple[Any, ...]
    formula: Any


class Unrolling:
    """The relation unrolled from a concrete start state, one step at a time."""

    def __init__(
        self,
        system: System,
        start: State,
        relaxed: dict[int, dict[str, Any]] | None = None,
        deadline: float | None = None,
    ) -> None:
        """``relaxed`` maps action indices to Boolean literals per rule name: the named
        checks of those actions then hold only where their literal is asserted (for finding
        which rules forbid an action). Building raises :class:`OutOfTime` once
        ``deadline`` (a ``time.perf_counter()`` value) has passed."""
        self.deadline = deadline
        self.system = system
        self.start = start
        self.relaxed = relaxed or {}
        self.width = system.layout.bits
        self.L = Z3Logic(self.width)
        self.actions: tuple[Action, ...] = system.actions
        self.stutter = len(self.actions)
        self.relation = self._relation()
        self.terms: dict[tuple[int, Element], Any] = {}
        self.offsets: dict[Element, int] = {}
        offset = 0
        for e in self.relation.elements:
            self.offsets[e] = offset
            offset += 1 if e[0].boolean else self.width
        self.bits: list[tuple[Any, ...]] = [
            tuple(
                b for e in self.relation.elements for b in _bits_of(self._start(e), e, self.width)
            )
        ]
        self.acts: list[tuple[Any, ...]] = []
        self.constraints: list[Any] = []

    # -- building the relation --------------------------------------------------------------

    def _start(self, element: Element) -> Any:
        return _at(self.start, element)

    def _state(self, make: Any) -> State:
        """A state with ``make(element)`` for each element."""
        fields: list[Any] = []
        for position, field in enumerate(self.system.layout.fields):
            if field.over is not None:
                size = len(self.start[position])
                fields.append(tuple(make((field, position, i)) for i in range(size)))
            else:
                fields.append(make((field, position, None)))
        return tuple(fields)

    def _relation(self) -> _Relation:
        system = self.system
        Z3, lift, width = self.L, self.L.lift, self.width
        # Pass 1: which elements can any action change? The others stay constants.
        generic = self._state(
            lambda e: z3.Bool(_label(e)) if e[0].boolean else z3.BitVec(_label(e), width)
        )
        changing: set[Element] = set()
        for action in self.actions:
            self._in_time()
            after = system.step(Z3, generic, action)
            changing |= {e for e in self._elements() if not _same(_at(generic, e), _at(after, e))}
        elements = tuple(sorted(changing, key=lambda e: (e[1], -1 if e[2] is None else e[2])))
        # Pass 2: the relation over the changing elements only.
        now = {e: _variable(e, "", width) for e in elements}
        then = {e: _variable(e, "'", width) for e in elements}
        current = self._state(lambda e: now[e][0] if e in now else self._start(e))
        width = max(1, self.stutter.bit_length())
        act = tuple(z3.Bool(f"act.{j}") for j in range(width))
        guards: list[Any] = []
        nexts: list[State] = []
        for index, action in enumerate(self.actions):
            self._in_time()
            checks = tuple(system.checks(Z3, current, action))
            literals = self.relaxed.get(index)
            if literals is None:
                guards.append(Z3.and_(*(c.ok for c in checks)))
            else:
                guards.append(
                    Z3.and_(
                        *(
                            z3.Implies(literals[c.rule], lift(c.ok)) if c.rule in literals else c.ok
                            for c in checks
                        )
                    )
                )
            nexts.append(system.step(Z3, current, action))
        enabled = [(i, g) for i, g in enumerate(guards) if not (isinstance(g, bool) and not g)]
        stuck = Z3.not_(Z3.or_(*(g for _, g in enabled)))
        choices = [Z3.and_(action_code(act, i), g) for i, g in enabled]
        choices.append(Z3.and_(action_code(act, self.stutter), stuck))
        parts = [lift(Z3.or_(*choices))]
        for e in elements:
            same = now[e][0]
            value = same
            for k, _ in reversed(enabled):
                after = _at(nexts[k], e)
                if _same(after, same):
                    continue  # when no changing action is taken, the value stays anyway
                value = Z3.ite(action_code(act, k), after, value)
            parts.append(then[e][0] == lift(value))
        self._in_time()
        goal = z3.Goal()
        goal.add(*parts)
        blasted = z3.Then("simplify", "bit-blast")(goal)
        assert len(blasted) == 1
        return _Relation(
            elements=elements,
            current=tuple(b for e in elements for b in now[e][1]),
            following=tuple(b for e in elements for b in then[e][1]),
            act=act,
            formula=z3.And(*blasted[0]),
        )

    def _in_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime

    # -- unrolling ----------------------------------------------------------------------------

    @property
    def depth(self) -> int:
        return len(self.acts)

    def extend(self, depth: int) -> list[Any]:
        """Unroll up to ``depth`` steps; return the new constraints (also kept in order)."""
        rel = self.relation
        new: list[Any] = []
        while len(self.acts) < depth:
            self._in_time()
            t = len(self.acts)
            act = tuple(z3.Bool(f"act.{j}@{t}") for j in range(len(rel.act)))
            following = tuple(b for e in rel.elements for b in _bits(e, f"@{t + 1}", self.width))
            pairs = list(zip(rel.current, self.bits[t], strict=True))
            pairs += list(zip(rel.following, following, strict=True))
            pairs += list(zip(rel.act, act, strict=True))
            step = z3.substitute(rel.formula, *pairs)
            if t == 0:
                step = z3.simplify(step)
            self.acts.append(act)
            self.bits.append(following)
            new.append(step)
        self.constraints.extend(new)
        return new

    def _elements(self) -> list[Element]:
        out: list[Element] = []
        for position, field in enumerate(self.system.layout.fields):
            if field.over is not None:
                out.extend((field, position, i) for i in range(len(self.start[position])))
            else:
                out.append((field, position, None))
        return out

    def scalar(self, t: int, name: str) -> Any:
        """The value of the scalar field ``name`` at step ``t``."""
        layout = self.system.layout
        position = layout.position(name)
        return self.element(t, (layout.fields[position], position, None))

    def element(self, t: int, element: Element) -> Any:
        """The value of ``element`` at step ``t``: a term, or a constant."""
        if t == 0 or element not in self.offsets:
            return self._start(element)
        key = (t, element)
        if key not in self.terms:
            start = self.offsets[element]
            size = 1 if element[0].boolean else self.width
            self.terms[key] = _term(element, self.bits[t][start : start + size])
        return self.terms[key]

    def scalar_of(self, bits: tuple[Any, ...], name: str) -> Any:
        """The scalar field ``name`` in a state of the relation's elements made of ``bits``
        (the relation's own generic bits, or a step's): a term, or a constant."""
        layout = self.system.layout
        position = layout.position(name)
        element = (layout.fields[position], position, None)
        if element not in self.offsets:
            return self._start(element)
        start = self.offsets[element]
        size = 1 if element[0].boolean else self.width
        return _term(element, bits[start : start + size])

    def state(self, t: int) -> State:
        """The state at step ``t``: terms for changing elements, constants otherwise."""
        return self._state(lambda e: self.element(t, e))

    def finished(self, t: int) -> Any:
        """The continuation has ended faithfully by step ``t``."""
        mode = self.scalar(t, "mode")
        overflow = self.scalar(t, "overflow")
        return self.L.lift(self.L.and_(mode == int(Mode.DONE), overflow == int(Capacity.NONE)))

    def taken(self, t: int, action: int) -> Any:
        """Action number ``action`` is taken at step ``t``."""
        return action_code(self.acts[t], action)

    def decode(self, model: z3.ModelRef, until: int) -> list[Action]:
        """The actions of the first ``until`` steps of a model, without stutters."""
        out = []
        for bits in self.acts[:until]:
            index = sum(
                1 << j
                for j, bit in enumerate(bits)
                if z3.is_true(model.eval(bit, model_completion=True))
            )
            if index != self.stutter:
                out.append(self.actions[index])
        return out


def _at(state: State, element: Element) -> Any:
    _, position, index = element
    return state[position] if index is None else state[position][index]


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    a_const = isinstance(a, bool | int)
    b_const = isinstance(b, bool | int)
    if a_const and b_const:
        return bool(a == b) and type(a) is type(b)
    if a_const or b_const:
        return False
    return bool(a.eq(b))
