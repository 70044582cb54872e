"""The tiny logic every rule is written against, and its concrete implementation.

Rules and effects are written once, against :class:`Logic`: connectives, if-then-else, a
choice among options, and integer arithmetic. Run with :data:`CONCRETE` they compute the next
state of the explorer; run with the z3 implementation in :mod:`verifier.engines.smt.logic`
they build the constraints of the SMT engine. The two engines therefore share one semantics
and differ only in how they search.

Integers are two's-complement values of a width the scenario fixes (``Layout.bits``). Sums
and differences go through :meth:`Logic.add` and :meth:`Logic.sub`, which also say whether
the exact result fits that width, so a rule can mark the state at capacity instead of letting
a value wrap; comparisons use Python's ``==`` and ``<`` on values inside the range, which
both plain ints and z3 terms support.

A rule must never branch with a Python ``if`` on a value that comes from the state: z3 refuses
to turn a symbolic term into a bool, so such a mistake fails loudly in the SMT engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["CONCRETE", "Concrete", "Logic", "Term", "fits"]


class Symbolic(Protocol):
    """A z3 term, as far as rules use one: compared, added and subtracted into more terms
    (its comparisons build terms too, so their results are never Python truth values)."""

    def __eq__(self, other: object, /) -> Any: ...
    def __ne__(self, other: object, /) -> Any: ...
    def __hash__(self) -> int: ...
    def __lt__(self, other: Any, /) -> Any: ...
    def __le__(self, other: Any, /) -> Any: ...
    def __gt__(self, other: Any, /) -> Any: ...
    def __ge__(self, other: Any, /) -> Any: ...
    def __add__(self, other: Any, /) -> Any: ...
    def __radd__(self, other: Any, /) -> Any: ...
    def __sub__(self, other: Any, /) -> Any: ...
    def __rsub__(self, other: Any, /) -> Any: ...
    def __rshift__(self, other: int, /) -> Any: ...


Term = bool | int | Symbolic
"""A truth value or an integer: a Python value in the explorer, possibly a z3 term in the
SMT engine. Rules combine terms only through :class:`Logic` and the operators above."""


class Logic(Protocol):
    """Connectives and choices over terms."""

    symbolic: bool

    def and_(self, *xs: Term) -> Term: ...

    def or_(self, *xs: Term) -> Term: ...

    def not_(self, x: Term) -> Term: ...

    def ite(self, c: Term, a: Term, b: Term) -> Term: ...

    def pick(self, values: Sequence[Term], index: Term, default: Term) -> Term:
        """``values[index]``, or ``default`` when ``index`` is out of range."""
        ...

    def select(self, mask: Sequence[Term], values: Sequence[Term], default: Term) -> Term:
        """The value at the first true position of ``mask``, else ``default``."""
        ...

    def count(self, xs: Sequence[Term]) -> Term:
        """How many of ``xs`` are true."""
        ...

    def add(self, a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        """``a + b``, and whether the exact sum fits in ``bits``-bit integers."""
        ...

    def sub(self, a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        """``a - b``, and whether the exact difference fits in ``bits``-bit integers."""
        ...

    def half(self, x: Term) -> Term:
        """``x`` halved and rounded down (``floor(x / 2)``, also for negative ``x``).

        What "pay half your Life Points" takes: the Life Points left are rounded up
        (Official Card Database FAQ on "Dinomorphia Intact": paying half of 125 LP leaves 63).
        """
        ...

    def is_false(self, x: Term) -> bool:
        """True only when ``x`` is certainly false (used to skip work, never to decide)."""
        ...


class Concrete:
    """Plain Python values: what the explorer runs."""

    symbolic = False

    @staticmethod
    def and_(*xs: Term) -> Term:
        return all(xs)

    @staticmethod
    def or_(*xs: Term) -> Term:
        return any(xs)

    @staticmethod
    def not_(x: Term) -> Term:
        return not x

    @staticmethod
    def ite(c: Term, a: Term, b: Term) -> Term:
        return a if c else b

    @staticmethod
    def pick(values: Sequence[Term], index: Term, default: Term) -> Term:
        assert isinstance(index, int), "a concrete index"
        return values[index] if 0 <= index < len(values) else default

    @staticmethod
    def select(mask: Sequence[Term], values: Sequence[Term], default: Term) -> Term:
        for m, v in zip(mask, values, strict=True):
            if m:
                return v
        return default

    @staticmethod
    def count(xs: Sequence[Term]) -> Term:
        return sum(1 for x in xs if x)

    @staticmethod
    def add(a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        return _checked(a + b, bits)

    @staticmethod
    def sub(a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        return _checked(a - b, bits)

    @staticmethod
    def half(x: Term) -> Term:
        return x >> 1

    @staticmethod
    def is_false(x: Term) -> bool:
        return not x


def _checked(value: int, bits: int) -> tuple[int, bool]:
    limit = 1 << (bits - 1)
    return value, -limit <= value < limit


def fits(value: int, bits: int) -> bool:
    """Whether the plain integer ``value`` is a ``bits``-bit two's-complement value."""
    return _checked(value, bits)[1]


CONCRETE = Concrete()
