"""The tiny logic every rule is written against, and its concrete implementation.

Rules and effects are written once, against :class:`Logic`: connectives, if-then-else, and a
choice among options. Integers use Python's own ``==``, ``<`` and ``+``, which both plain ints
and z3 terms support. Run with :data:`CONCRETE` they compute the next state of the explorer;
run with the z3 implementation in :mod:`verifier.smt.logic` they build the constraints of the
SMT engine. The two engines therefore share one semantics and differ only in how they search.

A rule must never branch with a Python ``if`` on a value that comes from the state: z3 refuses
to turn a symbolic term into a bool, so such a mistake fails loudly in the SMT engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["CONCRETE", "Concrete", "Logic", "Term"]

Term = Any
"""An int or bool: a Python value in the explorer, possibly a z3 term in the SMT engine."""


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

    def half(self, x: Term) -> Term:
        """``x`` halved, rounded down (for "pay half your Life Points")."""
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
    def half(x: Term) -> Term:
        return x // 2

    @staticmethod
    def is_false(x: Term) -> bool:
        return not x


CONCRETE = Concrete()
