"""What each instruction of a program computes, over arrays of values (one value a state):
NumPy's operations, with sums, differences and shifts wrapping as bit-vector ones do, so a
program computes what the SMT engine's terms do."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from verifier.engines.program import Op

__all__ = ["operation"]


def _wrap(values: Any, bits: int) -> Any:
    """Two's-complement wrap to ``bits``, as a bit-vector sum does."""
    half = 1 << (bits - 1)
    return ((values + half) & ((1 << bits) - 1)) - half


def operation(op: Op, count: int, bits: int) -> Callable[..., Any]:
    """What computes ``op`` over ``count`` arguments (sums and differences wrap to ``bits``)."""
    if op is Op.ITE and count == 3:
        return np.where
    if op is Op.NOT and count == 1:
        return np.logical_not
    if op is Op.SUB and count == 2:
        return lambda a, b: _wrap(np.subtract(a, b, dtype=np.int64), bits)
    if op is Op.NEG and count == 1:
        return lambda a: _wrap(-np.int64(a), bits)
    if op in (Op.SHR, Op.SHL) and count == 2:
        return lambda a, b: _shift(op, a, b, bits)
    if count == 2 and op in _BINARY:
        return _BINARY[op]
    if op in _FOLDED and count >= 1:
        combine = _FOLDED[op]

        def folded(*xs: Any) -> Any:
            value = xs[0]
            for x in xs[1:]:
                value = combine(value, x)
            return _wrap(value, bits) if op is Op.ADD else value

        return folded
    raise AssertionError(f"no evaluation of {op!r} with {count} arguments")


def _shift(op: Op, a: Any, b: Any, bits: int) -> Any:
    """A bit-vector shift: the amount is unsigned (a negative one is past the width), and
    a shift by the width or more leaves only the sign (right) or nothing (left)."""
    a, b = np.int64(0) + a, np.int64(0) + b
    past = (b < 0) | (b >= bits)
    amount = np.where(past, bits - 1, b)
    if op is Op.SHR:
        return np.right_shift(a, amount)
    return np.where(past, 0, _wrap(np.left_shift(a, amount), bits))


def _add(a: Any, b: Any) -> Any:
    return np.add(a, b, dtype=np.int64)


def _implies(a: Any, b: Any) -> Any:
    return np.logical_or(np.logical_not(a), b)


_FOLDED: dict[Op, Callable[[Any, Any], Any]] = {
    Op.AND: np.logical_and,
    Op.OR: np.logical_or,
    Op.XOR: np.logical_xor,
    Op.ADD: _add,
}
"""The operations of any number of arguments, folded left (a sum wraps once, at the end:
two's-complement addition is associative)."""

_BINARY: dict[Op, Callable[[Any, Any], Any]] = {
    Op.AND: np.logical_and,
    Op.OR: np.logical_or,
    Op.XOR: np.logical_xor,
    Op.IMPLIES: _implies,
    Op.EQ: np.equal,
    Op.NE: np.not_equal,
    Op.LT: np.less,
    Op.LE: np.less_equal,
    Op.GT: np.greater,
    Op.GE: np.greater_equal,
}
"""The operations of two arguments computed as they are (sums and differences wrap)."""
