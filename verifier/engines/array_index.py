"""The states the array step has filed: each one found again by its key's hash, and its row
given back by its number.

A state's key is its row in bytes, a byte an element where its values fit (the columns that
start wide, such as life totals, whole; a row with any other value past a byte is keyed by
its elements whole). The keys of a chunk's successors are one matrix, a key a row, with a
64-bit hash of each, computed with the successors (by the helper process, where one helps:
:mod:`verifier.engines.helper`). The index maps each hash to the first row filed with it;
a state is new when no row with its hash was filed, or when the row that was differs from
its own (the rows are compared: a hash only says where to look). Two rows of
one hash are told apart by their bytes, in a table of their own. The keys are kept a block
for each chunk filed, and a state's row is read back from its key.
"""

from __future__ import annotations

import functools
import itertools
from array import array
from typing import Any

import numpy as np

__all__ = ["RowIndex", "row_hashes"]

_MIX = np.uint64(0xBF58476D1CE4E5B9)
_WHOLE = np.uint64(0x5851F42D4C957F2D)
"""Mixed into the hash of a row keyed whole, so that its key's kind is part of its hash."""


@functools.cache
def _multipliers(count: int) -> Any:
    """``count`` odd 64-bit numbers, one a word of a key: a fixed sequence (SplitMix64's),
    the same in every process, the helper's too."""
    drawn = np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    drawn = (drawn ^ (drawn >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    drawn = (drawn ^ (drawn >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return (drawn ^ (drawn >> np.uint64(31))) | np.uint64(1)


def row_hashes(matrix: Any) -> Any:
    """A 64-bit hash of each row of ``matrix`` (bytes, its width a multiple of eight): the
    row read as 8-byte words, their sum each times a multiplier of its own (wrapping), its
    high bits then mixed into its low ones."""
    words = matrix.view(np.uint64)
    hashes = words @ _multipliers(words.shape[1])
    hashes ^= hashes >> np.uint64(29)
    hashes *= _MIX
    hashes ^= hashes >> np.uint64(32)
    return hashes


def _padded(data: Any) -> Any:
    """The bytes matrix ``data`` with zero bytes after each row, to a multiple of eight."""
    count, size = data.shape
    out = np.empty((count, -(-size // 8) * 8), dtype=np.uint8)
    out[:, :size] = data
    out[:, size:] = 0
    return out


class RowIndex:
    """Every state filed so far, numbered in the order filed."""

    def __init__(self, dtype: Any, width: int, wide: Any) -> None:
        """Rows of ``width`` elements of ``dtype``; ``wide``: the columns kept whole in
        every key (their start values do not fit a byte)."""
        self.dtype = np.dtype(dtype)
        self.width = width
        self.wide = np.asarray(wide, dtype=np.int64)
        self._size = width + len(self.wide) * self.dtype.itemsize  # a compact key's bytes
        self._blocks: list[Any] = []  # keys, a block a filing
        self._starts: list[int] = []  # the number of each block's first state
        self._whole: dict[int, Any] = {}  # the rows of the states keyed whole, by number
        self._index: dict[int, int] = {}  # a hash: the ticket of the first row with it
        self._tickets = array("q")  # each ticket: the number of the state filed with it
        self._spilled: dict[bytes, int] = {}  # a row whose hash another row has: its state
        self.count = 0

    # -- what the helper may compute ---------------------------------------------------------

    def keys(self, rows: Any) -> tuple[Any, Any, Any]:
        """The keys of ``rows`` (a matrix, a key a row), which rows are keyed by their
        elements whole (an empty array: none) and each row's hash (64-bit integers)."""
        count = len(rows)
        if self.dtype.itemsize == 1:  # every value fits a byte: the rows themselves
            matrix = _padded(np.ascontiguousarray(rows).view(np.uint8))
            return matrix, np.zeros(0, dtype=bool), row_hashes(matrix).view(np.int64)
        matrix = np.empty((count, -(-self._size // 8) * 8), dtype=np.uint8)
        low = matrix[:, : self.width].view(np.int8)
        np.copyto(low, rows, casting="unsafe")
        if len(self.wide):
            wide = np.ascontiguousarray(rows[:, self.wide]).view(np.uint8)
            matrix[:, self.width : self._size] = wide
        matrix[:, self._size :] = 0
        fits = low == rows
        fits[:, self.wide] = True
        whole = ~fits.all(axis=1)
        hashes = row_hashes(matrix)
        if not whole.any():
            return matrix, whole[:0], hashes.view(np.int64)
        at = np.flatnonzero(whole)
        hashes[at] = row_hashes(_padded(np.ascontiguousarray(rows[at]).view(np.uint8))) ^ _WHOLE
        return matrix, whole, hashes.view(np.int64)

    # -- filing -----------------------------------------------------------------------------

    def file(self, keyed: tuple[Any, Any, Any], rows: Any, room: int) -> Any:
        """File the states of ``rows`` (``keyed``: their keys, :meth:`keys`) not filed
        before, the first of equal ones, at most ``room`` of them: their places in
        ``rows``, in order. They are numbered on from :attr:`count`."""
        matrix, whole, hashes = keyed
        index = self._index
        count = len(rows)
        listed: list[int] = hashes.tolist()
        # Each hash's ticket where a row was filed with it; else its own, given here: the
        # tickets counted on from ``first`` in order (a later row finds the first's).
        first = len(self._tickets)
        got = np.fromiter(
            map(index.setdefault, listed, itertools.count(first)), dtype=np.int64, count=count
        )
        own = got == np.arange(first, first + count)
        new = own
        others = np.flatnonzero(~own)
        if len(others):
            found = got[others]
            same = np.empty(len(others), dtype=bool)
            before = found < first
            if before.any():
                numbers = np.frombuffer(self._tickets, dtype=np.int64)[found[before]]
                same[before] = (self.rows(numbers) == rows[others[before]]).all(axis=1)
            here = ~before
            if here.any():
                same[here] = (rows[found[here] - first] == rows[others[here]]).all(axis=1)
            if not same.all():
                new = own.copy()
                new[self._spill(others[~same], rows)] = True
        places = np.flatnonzero(new)
        for place in places[room:].tolist():  # past the room: not filed
            if own[place]:
                del index[listed[place]]
            else:
                del self._spilled[rows[place].tobytes()]
        places = places[:room]
        # Each ticket given here: the number of the state filed with it (-1: none).
        numbers = np.full(count, -1, dtype=np.int64)
        numbers[places] = np.arange(self.count, self.count + len(places))
        self._tickets.frombytes(numbers.tobytes())
        if not own[places].all():
            for place in places.tolist():
                if not own[place]:
                    self._spilled[rows[place].tobytes()] = int(numbers[place])
        self._blocks.append(matrix[places])
        self._starts.append(self.count)
        if len(whole):
            for place in places.tolist():
                if whole[place]:
                    self._whole[int(numbers[place])] = rows[place].copy()
        self.count += len(places)
        return places

    def _spill(self, places: Any, rows: Any) -> list[int]:
        """Of the rows at ``places``, each a row whose hash a different row has: those not
        filed before (the first of equal ones), filed by their bytes."""
        new = []
        for place in places.tolist():
            key = rows[place].tobytes()
            if key not in self._spilled:
                self._spilled[key] = -1 - place  # its number once it has one
                new.append(place)
        return new

    # -- rows back --------------------------------------------------------------------------

    def rows(self, numbers: Any) -> Any:
        """The rows of the states numbered ``numbers``."""
        numbers = np.asarray(numbers, dtype=np.int64)
        out = np.empty((len(numbers), self.width), dtype=self.dtype)
        if not len(numbers):
            return out
        blocks = np.searchsorted(np.asarray(self._starts), numbers, side="right") - 1
        for block in np.flatnonzero(np.bincount(blocks)).tolist():
            places = np.flatnonzero(blocks == block)
            keys = self._blocks[block][numbers[places] - self._starts[block]]
            out[places] = self._read(keys)
        if self._whole:
            for place, number in enumerate(numbers.tolist()):
                row = self._whole.get(number)
                if row is not None:
                    out[place] = row
        return out

    def _read(self, keys: Any) -> Any:
        """The rows whose compact keys are ``keys``."""
        rows = keys[:, : self.width].view(np.int8).astype(self.dtype)
        if len(self.wide) and self.dtype.itemsize > 1:
            wide = np.ascontiguousarray(keys[:, self.width : self._size]).view(self.dtype)
            rows[:, self.wide] = wide
        return rows
