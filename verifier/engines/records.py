"""The record quotient: continuations that differ only in log entries no claim reads.

A state carries two logs, the activations and the resolutions of the continuation so far.
The rules write them and never read them (``tests/test_records.py`` checks it in every
state of every example and on random scenarios of all three games): what may happen next
depends on the board, the chain and the counters, not on the order in which the board came
about. Only the claims read the logs, and most of them only ask whether some entry is there:
``activates(A, "X")`` (so ``can_activate``), ``responds(B)`` (so ``can_respond``), ``targets``,
``resolves``, ``negated``, ``countered``, ``no_effect``.

For such claims two states that agree on everything but their logs, and whose logs hold the
same set of entries as the claim sees them (the entries of the abilities it names, with the
columns it reads), have the same futures and give every claim the same value at every
final state they lead to: the entries still to come are the same for both, and an
existence is decided by the set. The explorer keeps one state per class, the state with
each log's entries since the start reduced to that set, sorted, and the rest of the log
as it was never written; the length of each log (which the rules do read, to append and to
find a full log) is kept. Two states that agree on the board, reached by activations in a
different order, are then explored once.

A claim that reads a log in any other way (an order, a count, the last of several entries,
"before") sees the logs whole; so does every atom this module does not know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from verifier.claims import ast
from verifier.core.state import Layout, State
from verifier.core.world import World

__all__ = ["LOGS", "WHOLE", "Quotient", "View", "composed", "view"]

LOGS: dict[str, tuple[str, ...]] = {
    "an": ("a_ab", "a_pl", "a_cno", "a_link", "a_segoc", "a_tg", "a_tg2"),
    "rn": ("r_ab", "r_cno", "r_out", "r_spd"),
}
"""Each log: the field that counts its entries, and its columns (the first names the
ability of the entry)."""

_LOG_FREE = (
    ast.Loses,
    ast.Triggers,
    ast.MissesTiming,
    ast.SentByCleanup,
    ast.Dizzy,
    ast.ZoneIs,
    ast.PositionIs,
    ast.FaceIs,
    ast.ControllerIs,
    ast.CardStat,
    ast.PlayerCount,
    ast.Attacks,
    ast.DestroyedByBattle,
    ast.StepIs,
    ast.Priority,
)
"""The atoms that read no log."""

_OUTCOMES = (ast.Resolves, ast.Negated, ast.Countered, ast.NoEffect)

_TARGETS = frozenset({"a_tg", "a_tg2"})
"""The columns only ``targets`` reads."""

_ORDERED = (ast.Before, ast.SpeedIs, ast.ChainLength, ast.OrderIs)
"""The atoms that read the order or the count of entries (every column but the targets)."""


@dataclass(frozen=True, slots=True)
class Keep:
    """What of one log a claim reads: the entries of ``abilities`` (None: of every
    ability), and of them the ``columns``; ``ordered``: every entry where it is (an order
    or a count), only the columns no claim reads forgotten."""

    abilities: frozenset[int] | None
    columns: frozenset[str]
    ordered: bool = False

    def __or__(self, other: Keep) -> Keep:
        if self.abilities is None or other.abilities is None:
            abilities = None
        else:
            abilities = self.abilities | other.abilities
        ordered = self.ordered or other.ordered
        return Keep(None if ordered else abilities, self.columns | other.columns, ordered)

    def covers(self, other: Keep) -> bool:
        if other.ordered and not self.ordered:
            return False
        if self.abilities is not None and (
            other.abilities is None or not other.abilities <= self.abilities
        ):
            return False
        return other.columns <= self.columns


NOTHING = Keep(frozenset(), frozenset())


@dataclass(frozen=True, slots=True)
class View:
    """What of the logs some claims read; ``whole``: all of them, as they are."""

    keep: tuple[tuple[str, Keep], ...] = (("an", NOTHING), ("rn", NOTHING))
    whole: bool = False

    def __or__(self, other: View) -> View:
        if self.whole or other.whole:
            return WHOLE
        theirs = dict(other.keep)
        return View(tuple((log, keep | theirs[log]) for log, keep in self.keep))

    def in_order(self) -> View:
        """The view that keeps in order, where they are, the entries this one reads as a set.

        What the symmetry reduction needs: it tells interchangeable cards apart by where
        they are named, and a log reduced to a sorted set puts its entries in an order that
        depends on the cards' names, so two renamings of one state could get two canonical
        forms (and a continuation through them no real one follows). In order, where an
        entry is does not depend on names."""
        if self.whole:
            return self
        keep = tuple(
            (
                log,
                Keep(None, k.columns, True) if not k.ordered and k.abilities != frozenset() else k,
            )
            for log, k in self.keep
        )
        return View(keep)

    def covers(self, other: View) -> bool:
        if self.whole:
            return True
        if other.whole:
            return False
        theirs = dict(other.keep)
        return all(keep.covers(theirs[log]) for log, keep in self.keep)


WHOLE = View(whole=True)


def _atom(world: World, formula: ast.Formula) -> View:
    def of(card: int) -> frozenset[int]:
        return frozenset(world.cards[card].abilities)

    if isinstance(formula, _LOG_FREE):
        return View()
    if isinstance(formula, ast.Activates):
        columns = {"a_ab"} | (set() if formula.player is None else {"a_pl"})
        return View((("an", Keep(of(formula.card), frozenset(columns))), ("rn", NOTHING)))
    if isinstance(formula, ast.Targets):
        keep = Keep(of(formula.card), frozenset({"a_ab", "a_tg", "a_tg2"}))
        return View((("an", keep), ("rn", NOTHING)))
    if isinstance(formula, ast.Responds):
        columns = {"a_pl", "a_cno", "a_link"}
        if any(c.copy_of >= 0 for c in world.cards):
            columns.add("a_ab")  # a copy of a spell is not a response: it reads whose
        return View((("an", Keep(None, frozenset(columns))), ("rn", NOTHING)))
    if isinstance(formula, _ORDERED):
        return View(
            tuple(
                (log, Keep(None, frozenset(columns) - _TARGETS, ordered=True))
                for log, columns in LOGS.items()
            )
        )
    if isinstance(formula, _OUTCOMES):
        keep = Keep(of(formula.card), frozenset({"r_ab", "r_out"}))
        return View((("an", NOTHING), ("rn", keep)))
    return WHOLE


def view(world: World, formula: ast.Formula) -> View:
    """What of the logs ``formula`` reads."""
    out = View()
    stack: list[ast.Formula] = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Not):
            stack.append(node.arg)
        elif isinstance(node, ast.And | ast.Or):
            stack.extend(node.args)
        elif isinstance(node, ast.Quantified | ast.AfterLink):
            stack.append(node.body)
        elif isinstance(node, ast.Now):
            continue  # it reads the start state, which no quotient changes
        else:
            out = out | _atom(world, node)
            if out.whole:
                return out
    return out


@dataclass(frozen=True, slots=True)
class _Log:
    counter: int  # the position of the field that counts its entries
    columns: tuple[int, ...]  # the positions of its columns, the ability column first
    fills: tuple[object, ...]  # each column's value where nothing was written
    kept: tuple[bool, ...]  # whether the claims read the column
    abilities: frozenset[int] | None  # the entries they read (None: all)
    ordered: bool  # every entry where it is
    since: int  # entries the start state holds: never changed


class Quotient:
    """Maps each state to the representative of its class under a :class:`View`."""

    def __init__(self, layout: Layout, start: State, wanted: View) -> None:
        self._logs: list[_Log] = []
        keep = dict(wanted.keep)
        for counter, names in LOGS.items():
            positions = tuple(layout.position(n) for n in names)
            self._logs.append(
                _Log(
                    counter=layout.position(counter),
                    columns=positions,
                    fills=tuple(layout.fields[p].fill for p in positions),
                    kept=tuple(n in keep[counter].columns for n in names),
                    abilities=keep[counter].abilities,
                    ordered=keep[counter].ordered,
                    since=int(start[layout.position(counter)]),
                )
            )
        self._known: dict[tuple[object, ...], tuple[tuple[object, ...], ...]] = {}

    def __call__(self, state: State) -> State:
        out: list[object] | None = None
        known = self._known
        for log in self._logs:
            count = state[log.counter]
            if count == log.since or (log.ordered and all(log.kept)):
                continue
            key = (log.counter, count, *(state[p] for p in log.columns))
            columns = known.get(key)
            if columns is None:
                written = int(count)
                columns = known[key] = self._reduced(log, [state[p] for p in log.columns], written)
            if out is None:
                out = list(state)
            for p, column in zip(log.columns, columns, strict=True):
                out[p] = column
        return state if out is None else tuple(out)

    @staticmethod
    def _reduced(log: _Log, columns: list[object], count: int) -> tuple[tuple[object, ...], ...]:
        """The columns with the ``count - since`` entries written since the start reduced
        to the set the claims see."""
        ability = columns[0]
        assert isinstance(ability, tuple)
        size, since = len(ability), log.since
        if log.ordered:
            blanked = []
            for column, kept, fill in zip(columns, log.kept, log.fills, strict=True):
                assert isinstance(column, tuple)
                blanked.append(column if kept else column[:since] + (fill,) * (size - since))
            return tuple(blanked)
        entries: set[tuple[object, ...]] = set()
        for k in range(since, min(count, size)):
            if log.abilities is None or ability[k] in log.abilities:
                entries.add(
                    tuple(
                        column[k] if kept else fill  # type: ignore[index]
                        for column, kept, fill in zip(columns, log.kept, log.fills, strict=True)
                    )
                )
        # An entry that holds the fill in every column read is no entry to any claim, and
        # is one with the places a representative leaves blank (an entry equal to another).
        entries.discard(log.fills)
        ordered = sorted(entries, key=_order)
        out = []
        for j, (column, fill) in enumerate(zip(columns, log.fills, strict=True)):
            assert isinstance(column, tuple)
            written = [entry[j] for entry in ordered]
            out.append(column[:since] + tuple(written) + (fill,) * (size - since - len(written)))
        return tuple(out)


def _order(entry: tuple[object, ...]) -> tuple[int, ...]:
    return tuple(int(v) for v in entry)  # type: ignore[call-overload]


def composed(
    rename: Callable[[State], State] | None, quotient: Callable[[State], State] | None
) -> Callable[[State], State] | None:
    """The canonical form under both a renaming of interchangeable cards and the quotient
    (either may be absent): the quotient, then the renaming, then the quotient again.

    The renaming chooses among interchangeable cards by all they are named in, log entries
    included; were it to see entries that the quotient then forgets, two states of one class
    could get different forms (two Forests, one tapped before the start and one since: which
    is called which would depend on an entry no claim reads). The quotient comes first, so
    the renaming sees only what is kept; and last, for the renaming may change the order in
    which the kept entries sort."""
    if rename is None or quotient is None:
        return rename or quotient
    return lambda state: quotient(rename(quotient(state)))
