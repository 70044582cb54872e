"""The record quotient for the array step: the log columns no claim reads, forgotten.

:class:`~verifier.engines.records.Quotient` over rows, for the views it can compute a level
at a time: a log the claims read in order keeps every entry where it is and forgets only
the columns they do not read (a target no claim asks about), written since the start. A
view that reduces a log to the set of its entries (``activates``, ``responds``...) raises
:class:`Unsupported`, and the interpreted exploration keeps its own quotient.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from verifier.core.state import Layout, State
from verifier.engines.program import Program, Unsupported
from verifier.engines.records import LOGS, View, forgets_columns_only

__all__ = ["RowQuotient"]


class RowQuotient:
    """Maps rows to the representatives of their classes under a :class:`View`."""

    def __init__(self, layout: Layout, start: State, wanted: View, program: Program) -> None:
        if not forgets_columns_only(wanted):
            raise Unsupported("a log reduced to the set of its entries")
        where = {(c.position, c.index): j for j, c in enumerate(program.columns)}
        keep = dict(wanted.keep)
        # Per log: the column of its count, the count at the start, and the columns to
        # forget (row columns, each with its fill).
        self.logs: list[tuple[int, int, list[int], list[int]]] = []
        for counter, names in LOGS.items():
            kept = keep[counter]
            # An unordered view here reads no entry: the log is as never written.
            forgotten = [n for n in names if not kept.ordered or n not in kept.columns]
            if not forgotten:
                continue
            since = int(start[layout.position(counter)])
            columns: list[int] = []
            fills: list[int] = []
            for name in forgotten:
                position = layout.position(name)
                fill = int(layout.fields[position].fill)
                for k in range(since, len(start[position])):
                    if (position, k) in where:
                        columns.append(where[(position, k)])
                        fills.append(fill)
            count = where.get((layout.position(counter), None))
            if columns and count is not None:
                self.logs.append((count, since, columns, fills))

    def __call__(self, rows: Any) -> Any:
        """The representative of every row."""
        if not self.logs or not len(rows):
            return rows
        out = rows.copy()
        for count, since, columns, fills in self.logs:
            written = (rows[:, count] != since)[:, None]
            out[:, columns] = np.where(written, np.array(fills)[None, :], rows[:, columns])
        return out
