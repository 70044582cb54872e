"""A third interpretation of the logic: sets of possible values, for proofs about many states.

Rules are written once against :class:`~verifier.core.logic.Logic`. Run with :data:`ABSTRACT`
on a state whose fields are partly unknown (:data:`ANY`, or a :class:`Values` set), they
compute an over-approximation: every value a concrete run could produce, from any concrete
state the abstract one stands for, is among the values the abstract run produces. So a guard
that evaluates to plain ``False`` here is false in every one of those states: the action is
impossible there, whatever the unknown fields hold. That is how the explorer proves a "no"
without visiting states (:mod:`verifier.engines.slicing`).

A rule that branches with a Python ``if`` on a value it cannot know raises
:class:`Undecided` (as it would fail in the SMT engine); the caller then decides nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from verifier.core.logic import Term, fits

__all__ = ["ABSTRACT", "ANY", "Abstract", "Undecided", "Values", "possible"]

CAP = 64
"""More possible values than this are not kept apart: the set becomes :data:`ANY`."""


class Undecided(Exception):
    """An abstract run needed a truth value it cannot know."""


class Values:
    """The possible values of a term: a set of ints and bools, or any value (:data:`ANY`)."""

    __slots__ = ("options",)

    def __init__(self, options: frozenset[Any] | None) -> None:
        self.options = options  # None: any value at all

    def __repr__(self) -> str:
        return "ANY" if self.options is None else f"Values({sorted(self.options)})"

    def __bool__(self) -> bool:
        raise Undecided("a rule branched on a value it cannot know")

    def __hash__(self) -> int:
        return hash(self.options)

    def _binary(self, other: Any, op: Callable[[Any, Any], Any], truth: bool) -> Any:
        return _combine(self, other, op, truth)

    def __eq__(self, other: object) -> Any:
        return self._binary(other, lambda a, b: a == b, True)

    def __ne__(self, other: object) -> Any:
        return self._binary(other, lambda a, b: a != b, True)

    def __lt__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a < b, True)

    def __le__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a <= b, True)

    def __gt__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a > b, True)

    def __ge__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a >= b, True)

    def __add__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a + b, False)

    def __radd__(self, other: Any) -> Any:
        return _combine(other, self, lambda a, b: a + b, False)

    def __sub__(self, other: Any) -> Any:
        return self._binary(other, lambda a, b: a - b, False)

    def __rsub__(self, other: Any) -> Any:
        return _combine(other, self, lambda a, b: a - b, False)

    def __rshift__(self, other: int) -> Any:
        return self._binary(other, lambda a, b: a >> b, False)


ANY = Values(None)
"""A field whose value is not known: any value at all."""

MAYBE = Values(frozenset({False, True}))


def possible(x: Any) -> frozenset[Any] | None:
    """The values ``x`` may take (None: any)."""
    if isinstance(x, Values):
        return x.options
    return frozenset({x})


def _make(options: Iterable[Any] | None, truth: bool = False) -> Any:
    """A term for these possible values: the value itself when there is only one."""
    if options is None:
        return MAYBE if truth else ANY
    found = frozenset(options)
    if len(found) == 1:
        return next(iter(found))
    if len(found) > CAP:
        return MAYBE if truth else ANY
    return Values(found)


def _combine(a: Any, b: Any, op: Callable[[Any, Any], Any], truth: bool) -> Any:
    left, right = possible(a), possible(b)
    if left is None or right is None or len(left) * len(right) > CAP * CAP:
        return _make(None, truth)
    return _make((op(x, y) for x, y in itertools.product(left, right)), truth)


def _truths(x: Any) -> frozenset[bool]:
    options = possible(x)
    if options is None:
        return frozenset({False, True})
    return frozenset(bool(o) for o in options)


def join(*xs: Any) -> Any:
    """A term that may be any of ``xs``."""
    out: set[Any] = set()
    for x in xs:
        options = possible(x)
        if options is None:
            return ANY
        out |= options
    return _make(out)


def _fitting(x: Any, bits: int) -> Any:
    """Whether ``x`` fits ``bits``-bit integers, for each value it may take."""
    options = possible(x)
    if options is None:
        return MAYBE
    return _make((fits(v, bits) for v in options), truth=True)


class Abstract:
    """Kleene's three-valued connectives and set-valued arithmetic: what the explorer runs
    to learn what holds in every state of a set."""

    symbolic = False

    @staticmethod
    def and_(*xs: Term) -> Term:
        truths = [_truths(x) for x in xs]
        if any(t == {False} for t in truths):
            return False
        if all(t == {True} for t in truths):
            return True
        return MAYBE

    @staticmethod
    def or_(*xs: Term) -> Term:
        truths = [_truths(x) for x in xs]
        if any(t == {True} for t in truths):
            return True
        if all(t == {False} for t in truths):
            return False
        return MAYBE

    @staticmethod
    def not_(x: Term) -> Term:
        result: Term = _make((not t for t in _truths(x)), truth=True)
        return result

    @staticmethod
    def ite(c: Term, a: Term, b: Term) -> Term:
        truths = _truths(c)
        if truths == {True}:
            return a
        if truths == {False}:
            return b
        result: Term = join(a, b)
        return result

    @staticmethod
    def pick(values: Sequence[Term], index: Term, default: Term) -> Term:
        options = possible(index)
        if options is None:
            anything: Term = join(*values, default)
            return anything
        chosen = [values[i] if 0 <= i < len(values) else default for i in options]
        result: Term = join(*chosen)
        return result

    def select(self, mask: Sequence[Term], values: Sequence[Term], default: Term) -> Term:
        result = default
        for m, v in zip(reversed(mask), reversed(values), strict=True):
            result = self.ite(m, v, result)
        return result

    def count(self, xs: Sequence[Term]) -> Term:
        total: Term = 0
        for x in xs:
            total = total + self.ite(x, 1, 0)
        return total

    @staticmethod
    def add(a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        total = a + b
        return total, _fitting(total, bits)

    @staticmethod
    def sub(a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        difference = a - b
        return difference, _fitting(difference, bits)

    @staticmethod
    def half(x: Term) -> Term:
        return x >> 1

    @staticmethod
    def is_false(x: Term) -> bool:
        return _truths(x) == {False}


ABSTRACT = Abstract()
