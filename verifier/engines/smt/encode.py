"""The transition relation as propositional constraints, unrolled step by step.

The relation is built once by running the one semantics (:meth:`verifier.system.System.
step` and its guards) on z3 terms over generic state variables ``X``, an action ``a`` and
next-state variables ``Y``. Every integer of the state is a bit-vector made of named Boolean
bits, as few as the values it can take need (:mod:`verifier.engines.smt.ranges`: an interval
closed under every step; the rules still compute in the scenario's whole width), so the
relation can be bit-blasted once into a propositional formula over those bits; each step of
the unrolling is then a substitution of bits (done inside z3), and the solver sees plain
clauses. State elements that no action ever changes are the scenario's constants and never
become variables. A step with no legal action is a stutter: the state stays the same, so
final states (and dead ends) persist to the last step.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from verifier.core.state import Capacity, Field, Mode, State
from verifier.engines.smt.logic import Z3Logic
from verifier.engines.smt.ranges import Interval, bits_for, closed_intervals
from verifier.system import Action, System

__all__ = ["OutOfTime", "Unrolling", "action_code"]

Element = tuple[Field, int, int | None]
"""A state element: the field, its position in the vector, and the index within an array
field (``None`` for a scalar)."""


def _label(element: Element) -> str:
    field, _, index = element
    return field.name if index is None else f"{field.name}[{index}]"


@dataclass(frozen=True, slots=True)
class _Storage:
    """How the elements are stored: each integer element in the fewest bits of its
    interval (:mod:`verifier.engines.smt.ranges`), read as a term of the rules' ``width``
    (zero-extended when the interval has no negative value, sign-extended otherwise)."""

    width: int
    intervals: dict[Element, Interval]

    def size(self, element: Element) -> int:
        """The Boolean variables ``element`` is stored in."""
        if element[0].boolean:
            return 1
        return bits_for(self.intervals[element])

    def bits(self, element: Element, suffix: str) -> tuple[Any, ...]:
        """The Boolean variables a state element is made of."""
        name = _label(element) + suffix
        if element[0].boolean:
            return (z3.Bool(name),)
        return tuple(z3.Bool(f"{name}.{j}") for j in range(self.size(element)))

    def stored(self, bits: tuple[Any, ...]) -> Any:
        """The bit-vector ``bits`` make (the first is the lowest), without extension.

        Made through z3's C interface: this runs for every element of every state term,
        and z3's Python wrappers check each argument's sort anew."""
        context = bits[0].ctx
        ref = context.ref()
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        word: Any = None
        for bit in reversed(bits):
            # Each new term is wrapped at once: the wrapper holds z3's reference to it.
            part = z3.BitVecRef(
                z3.Z3_mk_ite(ref, bit.as_ast(), one.as_ast(), zero.as_ast()), context
            )
            word = (
                part
                if word is None
                else z3.BitVecRef(z3.Z3_mk_concat(ref, word.as_ast(), part.as_ast()), context)
            )
        return word

    def term(self, element: Element, bits: tuple[Any, ...]) -> Any:
        """The z3 term of a state element made of ``bits``, as wide as the rules' integers."""
        if element[0].boolean:
            return bits[0]
        stored, extra = self.stored(bits), self.width - len(bits)
        if not extra:
            return stored
        if self.intervals[element][0] >= 0:
            return z3.ZeroExt(extra, stored)
        return z3.SignExt(extra, stored)

    def variable(self, element: Element, suffix: str) -> tuple[Any, tuple[Any, ...]]:
        """A state element as a z3 term, and the Boolean variables it is made of."""
        bits = self.bits(element, suffix)
        return self.term(element, bits), bits

    def constant(self, value: Any, element: Element) -> tuple[Any, ...]:
        """The constant bits of a concrete value of ``element``."""
        if element[0].boolean:
            return (z3.BoolVal(bool(value)),)
        low, high = self.intervals[element]
        if not low <= int(value) <= high:
            raise OverflowError(f"{_label(element)} = {value} is outside [{low}, {high}]")
        size = self.size(element)
        word = int(value) & ((1 << size) - 1)
        return tuple(z3.BoolVal(bool(word >> j & 1)) for j in range(size))


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
    storage: _Storage
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
        self.storage = storage = self.relation.storage
        self.offsets: dict[Element, int] = {}
        offset = 0
        for e in self.relation.elements:
            self.offsets[e] = offset
            offset += storage.size(e)
        self.bits: list[tuple[Any, ...]] = [
            tuple(b for e in self.relation.elements for b in storage.constant(self._start(e), e))
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
        values: dict[Element, list[Any]] = {}
        for action in self.actions:
            self._in_time()
            after = system.step(Z3, generic, action)
            for e in self._elements():
                if not _same(_at(generic, e), _at(after, e)):
                    values.setdefault(e, []).append(_at(after, e))
        elements = tuple(sorted(values, key=lambda e: (e[1], -1 if e[2] is None else e[2])))
        integers = [e for e in self._elements() if not e[0].boolean]
        storage = _Storage(
            width,
            closed_intervals(
                {e: int(self._start(e)) for e in integers},
                {_at(generic, e).get_id(): e for e in integers},
                values,
                width,
                self._in_time,
            ),
        )
        # Pass 2: the relation over the changing elements only.
        now = {e: storage.variable(e, "") for e in elements}
        then = {e: storage.variable(e, "'") for e in elements}
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
        # One term per action's code, shared by every element's choice of value.
        codes = {i: action_code(act, i) for i, _ in enabled}
        choices = [Z3.and_(codes[i], g) for i, g in enabled]
        choices.append(Z3.and_(action_code(act, self.stutter), stuck))
        parts = [lift(Z3.or_(*choices))]
        for e in elements:
            same = now[e][0]
            value = same
            for k, _ in reversed(enabled):
                after = _at(nexts[k], e)
                if _same(after, same):
                    continue  # when no changing action is taken, the value stays anyway
                value = Z3.ite(codes[k], after, value)
            if e[0].boolean or storage.size(e) == self.width:
                parts.append(then[e][0] == lift(value))
            else:
                # The value is in the element's interval (it is closed under every step),
                # so its low bits are all of it.
                size = storage.size(e)
                parts.append(storage.stored(then[e][1]) == z3.Extract(size - 1, 0, lift(value)))
        self._in_time()
        goal = z3.Goal()
        goal.add(*parts)
        blasted = z3.Then("simplify", "bit-blast")(goal)
        assert len(blasted) == 1
        return _Relation(
            elements=elements,
            storage=storage,
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
            following = tuple(b for e in rel.elements for b in self.storage.bits(e, f"@{t + 1}"))
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
            size = self.storage.size(element)
            self.terms[key] = self.storage.term(element, self.bits[t][start : start + size])
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
        size = self.storage.size(element)
        return self.storage.term(element, bits[start : start + size])

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
