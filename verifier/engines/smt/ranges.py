"""The values each integer element of the state can take: intervals closed under every step.

The SMT engine bit-blasts the state, and every integer of the rules is a bit-vector of the
scenario's width (18 bits on a Damage Step board, for life points and ATK). Most elements
never hold more than a few values: a zone, a mode, a card's index, a player. Storing them in
all 18 bits makes every step's clauses and every query larger than they need be.

An interval for each element is found by abstract interpretation over the same z3 terms the
relation is made of: each action's new value of an element is evaluated on intervals (a
constant is itself, an element is its interval, a choice is the hull of its two values, a
sum or difference is the sum or difference of intervals), ignoring every guard and every
condition of a choice, so the result holds in *every* state whose elements lie in their
intervals, reachable or not. Starting from the start state's values, the intervals grow
until every action keeps every element inside its own (a fixpoint); one that still grows
after a few rounds (a counter) is given the whole width. So by induction on the steps, no
continuation leaves the intervals, and an element stored in the fewest bits of its interval
holds every value the rules can give it: nothing is wrapped or cut.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import z3

__all__ = ["ROUNDS", "Interval", "bits_for", "closed_intervals"]

ROUNDS = 4
"""Rounds an interval may grow in before it is given the whole width."""

Interval = tuple[int, int]

Key = TypeVar("Key")


def bits_for(interval: Interval) -> int:
    """The fewest bits that hold every value of ``interval``: unsigned when it has no
    negative value, two's complement otherwise."""
    low, high = interval
    if low >= 0:
        return max(1, high.bit_length())
    bits = 1
    while not (-(1 << (bits - 1)) <= low and high < 1 << (bits - 1)):
        bits += 1
    return bits


def closed_intervals(
    starts: Mapping[Key, int],
    variables: Mapping[int, Key],
    values: Mapping[Key, Iterable[Any]],
    width: int,
    in_time: Callable[[], None] = lambda: None,
) -> dict[Key, Interval]:
    """An interval for each key of ``starts`` that holds its start value and every value
    of ``values[key]`` (z3 bit-vector terms of ``width`` bits, or ints) when every variable
    (by z3 term id, in ``variables``) is in its key's interval."""
    whole = (-(1 << (width - 1)), (1 << (width - 1)) - 1)
    intervals = {key: (value, value) for key, value in starts.items()}
    growing = [key for key in starts if values.get(key)]
    round_ = 0
    while True:
        evaluate = _Evaluator(intervals, variables, whole)
        changed = False
        for key in growing:
            in_time()
            low, high = interval = intervals[key]
            if interval == whole:
                continue
            for value in values[key]:
                lo, hi = evaluate(value)
                low, high = min(low, lo), max(high, hi)
            if (low, high) != interval:
                changed = True
                # After a few rounds whatever still grows takes the whole width, so the
                # rounds end: each one after them makes at least one more interval whole.
                intervals[key] = (low, high) if round_ < ROUNDS else whole
        if not changed:
            return intervals
        round_ += 1


class _Evaluator:
    """A term's interval, given each variable's (memoised per term for one round).

    It walks z3's own term graph through the C interface: the Python wrappers build an
    object for every node and ask for its kind anew on every test, which made this walk
    a good part of building the relation."""

    def __init__(
        self, intervals: Mapping[Any, Interval], variables: Mapping[int, Any], whole: Interval
    ) -> None:
        self.intervals = intervals
        self.variables = variables
        self.whole = whole
        self.memo: dict[int, Interval] = {}
        self.context: Any = None

    def __call__(self, term: Any) -> Interval:
        if isinstance(term, bool | int):
            return int(term), int(term)
        self.context = term.ctx_ref()
        return self._at(term.as_ast())

    def _at(self, node: Any) -> Interval:
        context = self.context
        key = z3.Z3_get_ast_id(context, node)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._interval(key, node)
        return found

    def _interval(self, key: int, node: Any) -> Interval:
        if key in self.variables:
            return self.intervals[self.variables[key]]
        context = self.context
        kind = z3.Z3_get_ast_kind(context, node)
        if kind == z3.Z3_NUMERAL_AST:
            size = z3.Z3_get_bv_sort_size(context, z3.Z3_get_sort(context, node))
            value = int(z3.Z3_get_numeral_string(context, node))
            return (value - (1 << size) if value >> (size - 1) else value,) * 2
        if kind != z3.Z3_APP_AST:
            return self.whole
        app = z3.Z3_to_app(context, node)
        op = z3.Z3_get_decl_kind(context, z3.Z3_get_app_decl(context, app))
        args = [
            z3.Z3_get_app_arg(context, app, i) for i in range(z3.Z3_get_app_num_args(context, app))
        ]
        if op == z3.Z3_OP_ITE:
            a, b = self._at(args[1]), self._at(args[2])
            return min(a[0], b[0]), max(a[1], b[1])
        if op == z3.Z3_OP_BADD:
            parts = [self._at(arg) for arg in args]
            return self._fit(sum(p[0] for p in parts), sum(p[1] for p in parts))
        if op == z3.Z3_OP_BSUB:
            a, b = self._at(args[0]), self._at(args[1])
            return self._fit(a[0] - b[1], a[1] - b[0])
        if op == z3.Z3_OP_BNEG:
            a = self._at(args[0])
            return self._fit(-a[1], -a[0])
        if op == z3.Z3_OP_BASHR and z3.Z3_get_ast_kind(context, args[1]) == z3.Z3_NUMERAL_AST:
            a, shift = self._at(args[0]), int(z3.Z3_get_numeral_string(context, args[1]))
            return a[0] >> shift, a[1] >> shift
        return self.whole  # anything else: every value of the width

    def _fit(self, low: int, high: int) -> Interval:
        """An exact result, or the whole width where bit-vector arithmetic could wrap."""
        whole = self.whole
        return (low, high) if whole[0] <= low and high <= whole[1] else whole
