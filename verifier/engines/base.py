"""What every engine offers, and its limits (the engines by name: :mod:`verifier.engines.catalog`).

An engine answers one question about a scenario's continuations from a start state: is
there one on which a claim's quantifier-free body evaluates to a given truth value? The
verdict combiner (:mod:`verifier.run.verdict`) turns those answers into verdicts; engines
know nothing of verdicts, traces in words, or files.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from verifier.claims import ast
from verifier.system import Action

__all__ = [
    "ARRAYS_AFTER",
    "AUTO_SMT_LEAST_SECONDS",
    "AUTO_SMT_SECONDS",
    "DECIDER_AFTER",
    "DEFAULT_MEMORY_LIMIT",
    "DEFAULT_SMT_BOUND",
    "DEFAULT_STATE_LIMIT",
    "MAX_SECONDS",
    "MAX_STATES",
    "Engine",
    "Figures",
    "Limits",
    "Search",
]

DEFAULT_STATE_LIMIT = 1_000_000
"""States the explorer visits before it answers ``unknown`` (``--max-states``)."""
MAX_STATES = 10_000_000
"""The largest state limit one may ask for: about 20 GB at the explorer's 2 GB per million."""
MAX_SECONDS = 7 * 24 * 3600.0
"""The longest time limit one may ask for (a week)."""
ARRAYS_AFTER = 250
"""States a breadth-first exploration visits with the interpreted step before it goes on
with the array step (:mod:`verifier.engines.arrays`), which pays about a tenth of a second
to build the relation (what the interpreted step takes for a few hundred states) and then
visits states several times faster."""
DECIDER_AFTER = 5_000
"""States a search in the fewest-moves order visits before the array step explores every
continuation beside it (:class:`~verifier.engines.explore.ExplorerEngine`): a claim with a
witness is mostly settled sooner in that order, and one without needs every state."""
DEFAULT_MEMORY_LIMIT = 1_500_000_000
"""Bytes the explorer may add to the process before it answers ``unknown``."""
DEFAULT_SMT_BOUND = 400
"""The longest continuation the SMT engine unrolls before it answers ``unknown``."""
AUTO_SMT_SECONDS = 120.0
"""Seconds the ``auto`` engine gives the SMT engine after the explorer stopped at a limit,
when no ``--timeout`` says otherwise."""
AUTO_SMT_LEAST_SECONDS = 10.0
"""The ``auto`` engine asks the SMT engine only when at least this much of ``--timeout``
is left: a scenario the explorer could not finish takes the SMT engine longer than that
to encode (seconds at 10 cards), so a shorter run would only delay the ``unknown``."""

Figures = Callable[[dict[str, float]], None]
"""Told of a long search's progress: ``states``, ``rate`` (states per second), ``depth``,
``memory`` (bytes added to the process), ``seconds``."""


@dataclass(frozen=True, slots=True)
class Search:
    """An engine's answer to "is there a continuation on which the body is ``want``?".

    ``found`` is the shortest such continuation; ``complete`` says that, when none was found,
    every continuation was really examined (so the absence is a proof).
    """

    found: list[Action] | None
    complete: bool
    detail: str
    stats: dict[str, float | int | str]


class Engine(Protocol):
    """An engine answers: is there a continuation on which ``body`` evaluates to ``want``?"""

    name: str

    def search(self, body: ast.Formula, want: bool) -> Search: ...


@dataclass(frozen=True, slots=True)
class Limits:
    """What bounds an engine's work: ``seconds`` (None: no deadline) and ``max_states``
    (the explorer's state limit; None: its default); ``progress``, when given, is told of
    the explorer's progress now and then."""

    seconds: float | None = None
    max_states: int | None = None
    progress: Figures | None = None
    reduce: bool = True
    """Whether the explorer explores interchangeable cards in one order only (symmetry
    reduction) and first tries to decide a claim without a search (claim slicing);
    ``--no-reduce`` turns both off."""
