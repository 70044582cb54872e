"""The transition relation as a straight-line program over a state's changing elements.

The relation is built once by running the one rule text (each action's checks and its step,
:class:`verifier.system.System`) on symbolic values, as the SMT engine builds its own on z3
terms: :mod:`verifier.engines.relation` runs it on nodes of an instruction graph
(:mod:`verifier.engines.nodes`), which write this plain form, so that an engine which
evaluates many concrete states at once (:mod:`verifier.engines.arrays`) runs the relation
without interpreting the rules anew for each state. It is the rules' relation, not a second
rule text.

Every instruction writes one value (its index in :attr:`Program.code`) from the values
before it; integers are two's-complement of :attr:`Program.bits` bits, as in the encoding.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum

__all__ = ["Column", "Op", "Program", "Unsupported", "cone", "needed"]


class Op(IntEnum):
    """What an instruction computes from its arguments."""

    COLUMN = 0  # the row's element ``constant`` (a column of the level's matrix)
    CONST = 1  # the integer or truth value ``constant``
    ITE = 2
    AND = 3
    OR = 4
    NOT = 5
    IMPLIES = 6
    XOR = 7
    EQ = 8
    NE = 9
    LT = 10
    LE = 11
    GT = 12
    GE = 13
    ADD = 14  # wraps, as a bit-vector sum does
    SUB = 15
    NEG = 16
    SHR = 17  # arithmetic shift right (the amount read unsigned, as a bit-vector's)
    SHL = 18  # shift left, wrapping (likewise)


class Unsupported(Exception):
    """A reduction the array step cannot compute over rows of this program (the members of
    a class of interchangeable cards differ where no action changes them, ...): the caller
    goes on with the interpreted step."""


@dataclass(frozen=True, slots=True)
class Column:
    """A changing element of the state: its field's position in the vector, its index in an
    array field (``None`` for a scalar), and whether it holds a truth value."""

    position: int
    index: int | None
    boolean: bool


@dataclass(frozen=True, slots=True)
class Program:
    """The relation of one scenario from one start state.

    ``columns`` are the elements some action can change (every other element keeps its
    start value along every continuation); ``code`` the instructions, each ``(op,
    arguments, constant)``; per action of :attr:`verifier.system.System.actions`, in order,
    ``guards`` names the value that says it is legal and ``changes`` the columns it writes,
    each with the value written.
    """

    bits: int
    columns: tuple[Column, ...]
    code: tuple[tuple[Op, tuple[int, ...], int], ...]
    guards: tuple[int, ...]
    changes: tuple[tuple[tuple[int, int], ...], ...]
    mode: int | None
    """The column of the state's mode (None: it never changes)."""
    overflow: int | None
    """The column of the capacity passed (None: none can be)."""

    def without_writes(self, columns: Collection[int]) -> Program:
        """The program whose actions never write ``columns`` (kept as they are)."""
        if not columns:
            return self
        changes = tuple(
            tuple((c, slot) for c, slot in written if c not in columns) for written in self.changes
        )
        return replace(self, changes=changes)


Code = tuple[tuple[Op, tuple[int, ...], int], ...]


def cone(code: Sequence[tuple[Op, tuple[int, ...], int]], roots: Iterable[int]) -> list[int]:
    """The instructions of ``code`` that ``roots`` need (themselves included), in order."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        i = stack.pop()
        if i not in seen:
            seen.add(i)
            stack.extend(code[i][1])
    return sorted(seen)


def needed(
    code: Sequence[tuple[Op, tuple[int, ...], int]], roots: Iterable[int]
) -> tuple[Code, dict[int, int]]:
    """The instructions of ``code`` that ``roots`` need, in order, renumbered; and the map
    from the old numbers to the new."""
    renumbered: dict[int, int] = {}
    kept: list[tuple[Op, tuple[int, ...], int]] = []
    for i in cone(code, roots):
        op, args, constant = code[i]
        renumbered[i] = len(kept)
        kept.append((op, tuple(renumbered[a] for a in args), constant))
    return tuple(kept), renumbered
