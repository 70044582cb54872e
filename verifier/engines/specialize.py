"""A program specialised to the rows where one column holds one value.

Most of a relation's instructions matter in one mode of the game only: the guards of the
activations in an open game state or while a chain is built, the effects of the abilities
while it resolves. Over a chunk of rows in one mode, the rest is computed for nothing. A
program specialised to that mode reads the column as its value and folds what it decides
(a choice whose condition is known, a conjunction with a false member, an operation on
values alone, computed as :func:`verifier.engines.operations.operation` computes it): the
guards it makes false disable their actions, and only what the others need is kept.

On every row where the column holds the value, the specialised program computes exactly
what the program does: the same legal actions, the same successors.
"""

from __future__ import annotations

from typing import Any

from verifier.engines.operations import operation
from verifier.engines.program import Op, Program, needed

__all__ = ["specialized"]

Value = tuple[bool, Any]
"""A folded instruction: (True, the value it always has) or (False, its new instruction)."""

_COMMUTATIVE = frozenset({Op.AND, Op.OR, Op.XOR, Op.EQ, Op.NE, Op.ADD})


class _Code:
    """The new instructions, each made once."""

    def __init__(self) -> None:
        self.code: list[tuple[Op, tuple[int, ...], int]] = []
        self._made: dict[tuple[Op, tuple[int, ...], int], int] = {}

    def make(self, op: Op, args: tuple[int, ...], constant: int = 0) -> int:
        if op in _COMMUTATIVE:
            args = tuple(sorted(args))
        key = (op, args, constant)
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = len(self.code)
            self.code.append(key)
        return made

    def of(self, value: Value) -> int:
        """The instruction that computes ``value``."""
        known, what = value
        return self.make(Op.CONST, (), int(what)) if known else int(what)


def specialized(program: Program, column: int, value: int) -> Program:
    """``program`` on the rows whose ``column`` holds ``value`` (same columns and actions;
    an action it proves illegal there has the guard ``False`` and no changes)."""
    out = _Code()
    folded: list[Value] = []
    for op, args, constant in program.code:
        parts = [folded[a] for a in args]
        result: Value
        if op is Op.COLUMN:
            result = (True, value) if constant == column else (False, out.make(op, (), constant))
        elif op is Op.CONST:
            result = (True, constant)
        elif all(known for known, _ in parts):
            computed = operation(op, len(parts), program.bits)(*(v for _, v in parts))
            result = (True, computed.item() if hasattr(computed, "item") else computed)
        elif op is Op.ITE:
            result = _choice(out, parts)
        elif op in (Op.AND, Op.OR):
            result = _connective(out, op, parts)
        else:
            result = (False, out.make(op, tuple(out.of(p) for p in parts), constant))
        folded.append(result)

    guards: list[int] = []
    changes: list[tuple[tuple[int, int], ...]] = []
    for guard, written in zip(program.guards, program.changes, strict=True):
        known, what = folded[guard]
        if known and not what:
            guards.append(out.of((True, False)))
            changes.append(())
            continue
        guards.append(out.of(folded[guard]))
        kept = []
        for target, slot in written:
            new = folded[slot]
            if new == (True, value) and target == column:
                continue  # writes the value the column holds
            if not new[0] and out.code[new[1]] == (Op.COLUMN, (), target):
                continue  # writes the column itself
            kept.append((target, out.of(new)))
        changes.append(tuple(kept))
    code, renumbered = needed(out.code, guards + [s for c in changes for _, s in c])
    return Program(
        bits=program.bits,
        columns=program.columns,
        code=code,
        guards=tuple(renumbered[g] for g in guards),
        changes=tuple(tuple((t, renumbered[s]) for t, s in c) for c in changes),
        mode=program.mode,
        overflow=program.overflow,
    )


def _choice(out: _Code, parts: list[Value]) -> Value:
    condition, then, other = parts
    if condition[0]:
        return then if condition[1] else other
    if then == other:
        return then
    return (False, out.make(Op.ITE, (out.of(condition), out.of(then), out.of(other))))


def _connective(out: _Code, op: Op, parts: list[Value]) -> Value:
    deciding = op is Op.OR  # True decides a disjunction, False a conjunction
    if any(known and bool(v) is deciding for known, v in parts):
        return (True, deciding)
    rest = list(dict.fromkeys(p for p in parts if not p[0]))  # some part is unknown
    if len(rest) == 1:
        return rest[0]
    return (False, out.make(op, tuple(out.of(p) for p in rest)))
