"""The logic interface over z3 terms, folding Python constants as it goes.

Rules run unchanged on a mix of plain values and z3 terms: whatever is still a Python value
is computed at once, so constant parts of a state never reach the solver. Integers are
bit-vectors of the scenario's width (``Layout.bits``), which lets z3 bit-blast each step into
plain SAT; sums and differences report, as the concrete logic does, whether the exact result
fits that width, so nothing ever wraps silently.

The connectives and choices, made by the hundred thousand while a relation is built, go to
z3's C interface directly: z3's Python wrappers check and coerce every argument's sort on
each call, which was most of the time spent building. The terms are the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from verifier.core.logic import Term, fits

__all__ = ["Z3Logic"]


def _concrete(value: Term) -> bool:
    return isinstance(value, bool | int)


def _same_term(a: Any, b: Any) -> bool:
    """Whether two z3 terms are structurally the same."""
    return bool(a.eq(b))


def _connective(make: Any, terms: list[Any]) -> Any:
    """``make`` (z3's ``Z3_mk_and`` or ``Z3_mk_or``) of Boolean terms."""
    context = terms[0].ctx
    array = (z3.Ast * len(terms))(*(t.as_ast() for t in terms))
    return z3.BoolRef(make(context.ref(), len(terms), array), context)


def _choice(c: Any, a: Any, b: Any) -> Any:
    """``If(c, a, b)`` for a Boolean ``c`` and two terms of one kind (as z3.If, without
    its coercions: z3 itself refuses two bit-vectors of different widths); anything else
    goes through z3.If."""
    if isinstance(c, z3.BoolRef):
        if isinstance(a, z3.BoolRef) and isinstance(b, z3.BoolRef):
            kind: Any = z3.BoolRef
        elif isinstance(a, z3.BitVecRef) and isinstance(b, z3.BitVecRef):
            kind = z3.BitVecRef
        else:
            return z3.If(c, a, b)
        context = c.ctx
        return kind(z3.Z3_mk_ite(context.ref(), c.as_ast(), a.as_ast(), b.as_ast()), context)
    return z3.If(c, a, b)


class Z3Logic:
    """Connectives, choices and integers that build z3 terms, or Python values when they can."""

    symbolic = True

    def __init__(self, bits: int) -> None:
        self.bits = bits

    def integer(self, name: str) -> Any:
        """A fresh integer variable of the encoding."""
        return z3.BitVec(name, self.bits)

    def lift(self, value: Term) -> Any:
        """A z3 term for ``value`` (Python bools become Bool, ints bit-vectors).

        An int outside the width is a bug of whoever sized the encoding: refuse it rather
        than let z3 wrap it.
        """
        if isinstance(value, bool):
            return z3.BoolVal(value)
        if isinstance(value, int):
            if not fits(value, self.bits):
                raise OverflowError(f"{value} does not fit in {self.bits}-bit integers")
            return z3.BitVecVal(value, self.bits)
        return value

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
        return terms[0] if len(terms) == 1 else _connective(z3.Z3_mk_and, terms)

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
        return terms[0] if len(terms) == 1 else _connective(z3.Z3_mk_or, terms)

    @staticmethod
    def not_(x: Term) -> Term:
        if isinstance(x, bool | int):
            return not x
        term: Term = (
            z3.BoolRef(z3.Z3_mk_not(x.ctx.ref(), x.as_ast()), x.ctx)
            if isinstance(x, z3.BoolRef)
            else z3.Not(x)
        )
        return term

    def ite(self, c: Term, a: Term, b: Term) -> Term:
        if isinstance(c, bool | int):
            return a if c else b
        if a is b:
            return a
        if _concrete(a) and _concrete(b) and a == b and type(a) is type(b):
            return a
        if not _concrete(a) and not _concrete(b) and _same_term(a, b):
            return a
        term: Term = _choice(c, self.lift(a), self.lift(b))
        return term

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
                parts.append(z3.If(x, self.lift(1), self.lift(0)))
        if not parts:
            return total
        summed = parts[0]
        for part in parts[1:]:
            summed = summed + part
        result: Term = summed + total if total else summed
        return result

    def add(self, a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        if _concrete(a) and _concrete(b):
            return a + b, fits(a + b, bits)
        x, y = self.lift(a), self.lift(b)
        return x + y, z3.And(z3.BVAddNoOverflow(x, y, True), z3.BVAddNoUnderflow(x, y))

    def sub(self, a: Term, b: Term, bits: int) -> tuple[Term, Term]:
        if _concrete(a) and _concrete(b):
            return a - b, fits(a - b, bits)
        x, y = self.lift(a), self.lift(b)
        return x - y, z3.And(z3.BVSubNoOverflow(x, y), z3.BVSubNoUnderflow(x, y, True))

    @staticmethod
    def half(x: Term) -> Term:
        # ``>>`` is an arithmetic shift both on Python ints and on z3 bit-vectors: floor(x/2).
        return x >> 1

    @staticmethod
    def is_false(x: Term) -> bool:
        if isinstance(x, bool | int):
            return not x
        return bool(z3.is_false(x))
