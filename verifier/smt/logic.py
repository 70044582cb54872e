"""The logic interface over z3 terms, folding Python constants as it goes.

Rules run unchanged on a mix of plain values and z3 terms: whatever is still a Python value
is computed at once, so constant parts of a state never reach the solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from verifier.logic import Term

__all__ = ["WIDTH", "Z3", "Z3Logic", "integer", "lift"]

WIDTH = 16
"""Bits of every integer of the encoding (signed): life points, counters, indices.

Bit-vectors let z3 bit-blast each step into plain SAT, which suits the small finite domains
of game states far better than linear integer arithmetic.
"""


def integer(name: str) -> Any:
    """A fresh integer variable of the encoding."""
    return z3.BitVec(name, WIDTH)


def lift(value: Term) -> Any:
    """A z3 term for ``value`` (Python bools become Bool, ints become Int)."""
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.BitVecVal(value, WIDTH)
    return value


def _concrete(value: Term) -> bool:
    return isinstance(value, bool | int)


class Z3Logic:
    """Connectives and choices that build z3 terms, or Python values when they can."""

    symbolic = True

    @staticmethod
    def and_(*xs: Term) -> Term:
        terms = []
        for x in xs:
            if x is False:
                return False
            if x is True:
                continue
            if isinstance(x, bool | int):
                if not x:
                    return False
                continue
            if z3.is_false(x):
                return False
            if z3.is_true(x):
                continue
            terms.append(x)
        if not terms:
            return True
        return terms[0] if len(terms) == 1 else z3.And(*terms)

    @staticmethod
    def or_(*xs: Term) -> Term:
        terms = []
        for x in xs:
            if x is True:
                return True
            if x is False:
                continue
            if isinstance(x, bool | int):
                if x:
                    return True
                continue
            if z3.is_true(x):
                return True
            if z3.is_false(x):
                continue
            terms.append(x)
        if not terms:
            return False
        return terms[0] if len(terms) == 1 else z3.Or(*terms)

    @staticmethod
    def not_(x: Term) -> Term:
        if isinstance(x, bool | int):
            return not x
        return z3.Not(x)

    @staticmethod
    def ite(c: Term, a: Term, b: Term) -> Term:
        if isinstance(c, bool | int):
            return a if c else b
        if a is b:
            return a
        if _concrete(a) and _concrete(b) and a == b and type(a) is type(b):
            return a
        if not _concrete(a) and not _concrete(b) and a.eq(b):
            return a
        return z3.If(c, lift(a), lift(b))

    def pick(self, values: Sequence[Term], index: Term, default: Term) -> Term:
        if isinstance(index, int):
            return values[index] if 0 <= index < len(values) else default
        result = default
        for i in range(len(values) - 1, -1, -1):
            result = self.ite(index == i, values[i], result)
        return result

    def select(self, mask: Sequence[Term], values: Sequence[Term], default: Term) -> Term:
        result = default
        for m, v in zip(reversed(mask), reversed(values), strict=True):
            result = self.ite(m, v, result)
        return result

    def count(self, xs: Sequence[Term]) -> Term:
        total: Term = 0
        parts = []
        for x in xs:
            if isinstance(x, bool | int):
                total += 1 if x else 0
            else:
                parts.append(z3.If(x, z3.BitVecVal(1, WIDTH), z3.BitVecVal(0, WIDTH)))
        if not parts:
            return total
        summed = parts[0]
        for part in parts[1:]:
            summed = summed + part
        return summed + total if total else summed

    @staticmethod
    def half(x: Term) -> Term:
        return x // 2 if isinstance(x, int) else x / 2

    @staticmethod
    def is_false(x: Term) -> bool:
        if isinstance(x, bool | int):
            return not x
        return bool(z3.is_false(x))


Z3 = Z3Logic()
