"""The record quotient for the array step: the log entries no claim reads, forgotten.

:class:`~verifier.engines.records.Quotient` over rows, a level at a time, for every view it
computes: a log the claims read in order keeps every entry where it is and forgets only the
columns they do not read (a target no claim asks about); a log they read as the set of its
entries (``activates``, ``responds``...) keeps, since the start, the distinct entries of the
abilities they name, with the columns they read, sorted, and the rest of the log as never
written. The count of each log, which the rules read, is kept.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from verifier.core.state import Layout, State
from verifier.engines.program import Program, Unsupported
from verifier.engines.records import LOGS, View

__all__ = ["RowQuotient"]


@dataclass(frozen=True)
class _Blanked:
    """A log whose forgotten columns are blanked where written since the start."""

    count: int  # the column of its count
    since: int  # its count at the start
    columns: list[int]  # the row columns to blank
    fills: Any  # each one's fill


@dataclass(frozen=True)
class _Set:
    """A log reduced to the set of its entries written since the start."""

    count: int
    since: int
    slots: Any  # (entries, fields): the row column of each field of each entry since
    fills: Any  # (fields,): each field's fill
    kept: Any  # (fields,): whether the claims read the field
    abilities: Any  # the abilities whose entries they read (None: every one)


class RowQuotient:
    """Maps rows to the representatives of their classes under a :class:`View`."""

    def __init__(self, layout: Layout, start: State, wanted: View, program: Program) -> None:
        where = {(c.position, c.index): j for j, c in enumerate(program.columns)}
        keep = dict(wanted.keep)
        self.logs: list[_Blanked | _Set] = []
        for counter, names in LOGS.items():
            kept = keep[counter]
            count = where.get((layout.position(counter), None))
            if count is None:
                continue  # never written
            since = int(start[layout.position(counter)])
            positions = [layout.position(n) for n in names]
            fills = [int(layout.fields[p].fill) for p in positions]
            size = len(start[positions[0]])
            if kept.ordered or kept.abilities == frozenset():
                # An unordered view that reads no entry: the log is as never written.
                columns: list[int] = []
                blank: list[int] = []
                for name, position, fill in zip(names, positions, fills, strict=True):
                    if kept.ordered and name in kept.columns:
                        continue
                    for k in range(since, size):
                        if (position, k) in where:
                            columns.append(where[(position, k)])
                            blank.append(fill)
                if columns:
                    self.logs.append(_Blanked(count, since, columns, np.array(blank)))
                continue
            # A column no action writes holds its fill in every entry since the start: it
            # tells no two entries apart and is left out (the ability column never is).
            fields = [
                f
                for f, p in enumerate(positions)
                if f == 0 or any((p, k) in where for k in range(since, size))
            ]
            slots = [[where.get((positions[f], k)) for f in fields] for k in range(since, size)]
            if any(j is None for entry in slots for j in entry):
                raise Unsupported("a log column written in some entries only")
            for f, p in enumerate(positions):
                if f not in fields and any(v != fills[f] for v in start[p][since:]):
                    raise Unsupported("a log column no action writes, not blank")
            abilities = None if kept.abilities is None else np.array(sorted(kept.abilities))
            self.logs.append(
                _Set(
                    count,
                    since,
                    np.array(slots, dtype=np.intp).reshape(size - since, len(fields)),
                    np.array([fills[f] for f in fields], dtype=np.int64),
                    np.array([names[f] in kept.columns for f in fields]),
                    abilities,
                )
            )
        self._start = [
            start[c.position] if c.index is None else start[c.position][c.index]
            for c in program.columns
        ]

    def leaving_unwritten(self, program: Program) -> tuple[Program, RowQuotient | None]:
        """The same reduction, made cheaper: ``program`` without the writes of the columns
        it blanks wherever they are written (each keeps its start value, its fill, in every
        row reached, as blanking gives it), and what is left to map rows (None: nothing).

        Exact: whatever an action computes reads its state's row, in which such a column
        holds its fill either way."""
        blanked = {
            column
            for log in self.logs
            if isinstance(log, _Blanked)
            for column, fill in zip(log.columns, log.fills.tolist(), strict=True)
            if self._start[column] == fill
        }
        left = copy.copy(self)
        left.logs = []
        for log in self.logs:
            if isinstance(log, _Blanked):
                kept = [k for k, c in enumerate(log.columns) if c not in blanked]
                if not kept:
                    continue
                left.logs.append(
                    replace(log, columns=[log.columns[k] for k in kept], fills=log.fills[kept])
                )
            else:
                left.logs.append(log)
        return program.without_writes(blanked), (left if left.logs else None)

    def __call__(self, rows: Any) -> Any:
        """The representative of every row."""
        if not self.logs or not len(rows):
            return rows
        out = rows.copy()
        for log in self.logs:
            written = rows[:, log.count] != log.since
            if isinstance(log, _Blanked):
                out[:, log.columns] = np.where(
                    written[:, None], log.fills[None, :], rows[:, log.columns]
                )
            elif log.slots.size:
                _as_set(out, rows, log, written)
        return out


def _as_set(out: Any, rows: Any, log: _Set, written: Any) -> None:
    """Writes into ``out`` each written row's entries since the start as the sorted set the
    claims see."""
    n = len(rows)
    slots, fields = log.slots.shape
    entries = rows[:, log.slots].astype(np.int64)  # (rows, slots, fields)
    entries = np.where(log.kept[None, None, :], entries, log.fills[None, None, :])
    counted = rows[:, log.count].astype(np.int64) - log.since
    valid = np.arange(slots)[None, :] < counted[:, None]
    # An entry that holds the fill in every column read is none (as the interpreted one).
    valid &= ~(entries == log.fills[None, None, :]).all(axis=2)
    if log.abilities is not None:
        valid &= np.isin(entries[:, :, 0], log.abilities)
    # Each row's entries sorted, the ones the claims read first: by row, then unread last,
    # then by field, first field first. Every row has ``slots`` entries, so the sorted
    # entries of row r are the r-th run of ``slots``.
    flat = entries.reshape(n * slots, fields)
    keys = [flat[:, f] for f in range(fields - 1, -1, -1)]
    keys += [~valid.reshape(-1), np.repeat(np.arange(n), slots)]
    order = np.lexsort(keys)
    ranked = flat[order].reshape(n, slots, fields)
    read = valid.reshape(-1)[order].reshape(n, slots)
    repeated = np.zeros((n, slots), dtype=bool)
    repeated[:, 1:] = (ranked[:, 1:] == ranked[:, :-1]).all(axis=2)
    kept = read & ~repeated
    place = np.cumsum(kept, axis=1) - 1
    reduced = np.broadcast_to(log.fills, (n, slots, fields)).copy()
    at, where = np.nonzero(kept)
    reduced[at, place[at, where]] = ranked[at, where]
    reduced = np.where(written[:, None, None], reduced, rows[:, log.slots])
    out[:, log.slots.reshape(-1)] = reduced.reshape(n, slots * fields)
