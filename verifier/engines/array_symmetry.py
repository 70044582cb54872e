"""Symmetry reduction for the array step: interchangeable cards sorted, a level at a time.

The same reduction as :mod:`verifier.engines.symmetry`, computed over the rows of
:mod:`verifier.engines.arrays` instead of one state at a time. For each class of
interchangeable cards, every member gets a key from the row: its own entries, its
abilities' entries, and where it and each of its abilities are named (a bit per entry of
each array that names cards or abilities, a truth value per such scalar). The members are
sorted by that key and renamed in that order; every entry that names a member is renamed
with it.

A canonical row is always a renaming of the row it stands for, so the reduction is sound
whatever the key; and the key is everything the row says of a member, so two rows that are
renamings of one another get the same canonical row. Elements no action changes are not in
the rows: where such an element differs between the members of a class, or names one of
them, the rows cannot be renamed and :class:`Unsupported` is raised (the interpreted
exploration, with its own symmetry reduction, is then used).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from verifier.core.state import State
from verifier.core.world import World
from verifier.engines.program import Program, Unsupported

__all__ = ["RowSymmetry"]

_BITS = 62
"""Entries of an array one key word says "named here" for (a bit each)."""


class _Class:
    """One class of interchangeable cards, as columns of the rows."""

    def __init__(self, members: Sequence[int], abilities: Sequence[Sequence[int]]) -> None:
        self.members = np.array(members, dtype=np.int64)
        self.abilities = np.array(abilities, dtype=np.int64).reshape(len(members), -1)
        self.groups: list[Any] = []  # per field and ability slot: the members' columns
        self.table: Any = None  # the groups as one (groups, members) matrix
        self.keys: list[tuple[Any, int]] = []  # (columns naming cards or abilities, what)


class RowSymmetry:
    """The canonical form of rows under renamings of interchangeable cards."""

    def __init__(
        self, world: World, classes: Sequence[Sequence[int]], program: Program, start: State
    ) -> None:
        layout = world.layout
        where = {(c.position, c.index): j for j, c in enumerate(program.columns)}
        abilities = [world.cards[c].abilities for c in range(world.n)]
        self.cards = world.n
        self.ability_count = len(world.abilities)
        self.classes: list[_Class] = []
        in_class = {card for members in classes for card in members}
        in_class_abilities = {a for card in in_class for a in abilities[card]}
        # The entries that name cards (and abilities), and which.
        self.card_refs: list[int] = []
        self.ability_refs: list[int] = []
        for position, field in enumerate(layout.fields):
            if field.refers is None:
                continue
            named = in_class if field.refers == "card" else in_class_abilities
            count = 1 if field.over is None else len(start[position])
            for i in range(count):
                element = (position, None if field.over is None else i)
                if element in where:
                    (self.card_refs if field.refers == "card" else self.ability_refs).append(
                        where[element]
                    )
                else:
                    value = start[position] if field.over is None else start[position][i]
                    if value in named:
                        raise Unsupported("an element no action changes names a renamed card")
        for members in classes:
            kind = _Class(members, [abilities[c] for c in members])
            for position, field in enumerate(layout.fields):
                if field.over == "card":
                    slots = [[(position, m)] for m in members]
                elif field.over == "ability":
                    slots = [[(position, a) for a in abilities[m]] for m in members]
                else:
                    continue
                for k in range(len(slots[0])):
                    elements = [slots[m][k] for m in range(len(members))]
                    if all(e in where for e in elements):
                        kind.groups.append(np.array([where[e] for e in elements]))
                    elif any(e in where for e in elements) or (
                        len({start[p][i] for p, i in elements}) > 1
                    ):
                        raise Unsupported("the members of a class differ where no action changes")
            kind.table = np.array(kind.groups, dtype=np.intp).reshape(-1, len(members))
            self.classes.append(kind)

    def __call__(self, rows: Any) -> Any:
        """The canonical form of every row."""
        if not len(rows):
            return rows
        out = rows.copy()
        count = len(rows)
        every = np.arange(count)[:, None]
        card_map = np.broadcast_to(np.arange(self.cards), (count, self.cards)).copy()
        ability_map = np.broadcast_to(
            np.arange(self.ability_count), (count, self.ability_count)
        ).copy()
        for kind in self.classes:
            order = self._order(rows, kind)
            if len(kind.table):
                gathered = np.take_along_axis(rows[:, kind.table], order[:, None, :], axis=2)
                out[:, kind.table.reshape(-1)] = gathered.reshape(count, -1)
            card_map[every, kind.members[order]] = kind.members[None, :]
            for slot in range(kind.abilities.shape[1]):
                sources = kind.abilities[:, slot]
                ability_map[every, sources[order]] = sources[None, :]
        for refs, mapping, size in (
            (self.card_refs, card_map, self.cards),
            (self.ability_refs, ability_map, self.ability_count),
        ):
            if not refs:
                continue
            values = out[:, refs].astype(np.int64)
            inside = (values >= 0) & (values < size)
            renamed = np.take_along_axis(mapping, np.where(inside, values, 0), axis=1)
            out[:, refs] = np.where(inside, renamed, values)
        return out

    def _order(self, rows: Any, kind: _Class) -> Any:
        """Per row, the class's members (indices into it) sorted by their keys."""
        count, size = len(rows), len(kind.members)
        keys: list[Any] = _packed(rows[:, kind.table], rows.dtype) if len(kind.table) else []
        for refs, targets in (
            (self.card_refs, kind.members[:, None]),
            (self.ability_refs, kind.abilities),
        ):
            if not refs:
                continue
            values = rows[:, refs].astype(np.int64)
            for slot in range(targets.shape[1]):
                named = values[:, None, :] == targets[None, :, slot, None]
                for at in range(0, len(refs), _BITS):
                    part = named[:, :, at : at + _BITS].astype(np.int64)
                    weights = np.left_shift(np.int64(1), np.arange(part.shape[2], dtype=np.int64))
                    keys.append(part @ weights)
        # Sort the (row, member) pairs by row first, then by the member's key.
        columns = [np.repeat(np.arange(count), size)]
        columns += [key.reshape(count * size) for key in keys]
        order = np.lexsort(tuple(reversed(columns)))
        return order.reshape(count, size) - (np.arange(count) * size)[:, None]


def _packed(values: Any, dtype: Any) -> list[Any]:
    """Keys that order the members as ``values`` (rows, groups, members) does, group after
    group: several groups' values in one word, each shifted to be non-negative."""
    bits = np.iinfo(dtype).bits
    offset = 1 << (bits - 1)
    per = max(1, 63 // bits) if bits < 64 else 1
    shifted = values.astype(np.int64) + (offset if bits < 64 else 0)
    keys = []
    for at in range(0, values.shape[1], per):
        part = shifted[:, at : at + per, :]
        if bits >= 64 or part.shape[1] == 1:
            keys.append(part[:, 0, :])
            continue
        word = part[:, 0, :]
        for k in range(1, part.shape[1]):
            word = (word << bits) | part[:, k, :]
        keys.append(word)
    return keys
