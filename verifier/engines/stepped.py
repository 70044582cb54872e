"""What the array step computes of a chunk of rows before filing it
(:meth:`~verifier.engines.arrays.Levels.stepped`), and that of two runs of rows joined.

A chunk stepped is a tuple of arrays: the rows with no successor (positions), the
successors in the explorer's order (by the row they come from, then by action), the rows
they come from (positions), the actions (numbers), the successors' keys (a matrix, a key
a row), which of them are keyed by their elements whole (empty: none), the keys' hashes
(:class:`~verifier.engines.array_index.RowIndex`) and their kinds (to expand, final, past
a capacity). The helper process computes it where the explorer would
(:mod:`verifier.engines.helper`), for a chunk or for half of one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Stepped", "joined"]

Stepped = tuple[Any, ...]
"""A chunk of rows stepped, before filing (see the module's description)."""


def joined(first: Stepped, second: Stepped, count: int) -> Stepped:
    """What is computed of two runs of rows one after the other, the first of ``count``
    rows, from what is computed of each: the second's positions moved on by ``count``."""
    stuck, successors, parent, action, keys, whole, hashes, kinds = first
    stuck_2, successors_2, parent_2, action_2, keys_2, whole_2, hashes_2, kinds_2 = second
    if len(whole) or len(whole_2):
        whole = np.concatenate([_every(whole, len(successors)), _every(whole_2, len(successors_2))])
    return (
        np.concatenate([stuck, stuck_2 + count]),
        np.concatenate([successors, successors_2]),
        np.concatenate([parent, parent_2 + count]),
        np.concatenate([action, action_2]),
        np.concatenate([keys, keys_2]),
        whole,
        np.concatenate([hashes, hashes_2]),
        np.concatenate([kinds, kinds_2]),
    )


def _every(whole: Any, count: int) -> Any:
    """Which of ``count`` rows are keyed whole (``whole``, where it is not empty)."""
    return whole if len(whole) else np.zeros(count, dtype=bool)
