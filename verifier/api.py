"""The Python API: decide a scenario's claims from a program or a notebook.

``check(source)`` decides every claim of a scenario, ``ask(source, claim)`` one claim given
as text; each answer is a frozen :class:`Result`. A source is a scenario file's path, a
mapping of the file's keys (``{"rules": "yugioh", "turn": "A", ...}``), or an
:class:`~verifier.io.scenario.InMemory` scenario (YAML text with the name messages give it).
Bad input raises a :class:`~verifier.errors.VerifierError` that carries ``path``, ``line``,
``col`` and ``message``; a bug raises anything else (:class:`~verifier.errors.InternalError`
among others), never a ``VerifierError``.

The command line decides its claims through :func:`decide` and :func:`decide_claim`, so a
program and ``verifier check`` give the same verdicts and traces.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.representer import RepresenterError

from verifier.claims.ast import Formula
from verifier.engines.base import MAX_SECONDS, MAX_STATES, Figures
from verifier.errors import InputError
from verifier.io.scenario import InMemory, load_scenario, parse_for
from verifier.run.check import ENGINES, ClaimResult, check_scenario, prepare
from verifier.run.check import check as check_claims
from verifier.run.verdict import Verdict
from verifier.spec.scenario import Scenario
from verifier.trace.narrate import TraceStep

__all__ = ["Checked", "Options", "Result", "Source", "ask", "check", "decide", "decide_claim"]

Source = str | os.PathLike[str] | InMemory | Mapping[str, Any]
"""A scenario file's path, its keys as a mapping, or YAML text as :class:`InMemory`."""

MEMORY_NAME = "<memory>.yaml"
"""The name messages give a scenario passed as a mapping."""


@dataclass(frozen=True, slots=True)
class Result:
    """The decision on one claim.

    ``verdict`` is :class:`Verdict` ``HOLDS``, ``FAILS`` or ``UNKNOWN`` (a limit was reached);
    ``trace`` the witness or counterexample that shows it (``role`` says which; empty when
    none is needed), each step with its text, player, card and chain link; ``seconds`` the
    time the engines took; ``expected`` the scenario's ``expect`` (None without one);
    ``engine`` the engine that decided it.
    """

    file: str
    id: str
    claim: str
    verdict: Verdict
    expected: str | None
    engine: str
    trace: tuple[TraceStep, ...]
    seconds: float
    role: str = ""
    detail: str = ""
    variant: str = ""
    because: tuple[str, ...] = ()
    disagreement: tuple[Result, Result] | None = None
    """When ``engine`` is ``both`` and they disagree: each engine's result."""

    @property
    def as_expected(self) -> bool:
        """The verdict is the expected one, or there is no expectation (and no disagreement).
        An ``unknown`` verdict with an expectation is not as expected, but see
        :attr:`differs`."""
        return self.disagreement is None and (
            self.expected is None or self.expected == self.verdict.value
        )

    @property
    def differs(self) -> bool:
        """A decided verdict differs from its expectation, or the engines disagree (what makes
        ``verifier check`` exit with 1; an ``unknown`` verdict never differs)."""
        return self.disagreement is not None or (
            self.expected is not None
            and self.verdict is not Verdict.UNKNOWN
            and self.expected != self.verdict.value
        )

    @classmethod
    def of(cls, file: str, r: ClaimResult) -> Result:
        """The public result of the command line's :class:`ClaimResult`."""
        sides = None
        if r.disagreement is not None:
            sides = (cls.of(file, r.disagreement[0]), cls.of(file, r.disagreement[1]))
        return cls(
            file,
            r.id,
            r.claim,
            r.verdict,
            r.expected,
            r.engine,
            r.trace,
            r.seconds,
            r.role,
            r.detail,
            r.variant,
            r.because,
            sides,
        )


@dataclass(frozen=True, slots=True)
class Checked:
    """A scenario and the results of its claims, in the file's order."""

    scenario: Scenario
    results: list[ClaimResult]


def _load(source: Source, allow_outside: bool, names_only: bool = False) -> Scenario:
    if isinstance(source, Mapping):
        source = InMemory(MEMORY_NAME, _yaml_text(source))
    where = source if isinstance(source, InMemory) else Path(source)
    return load_scenario(where, allow_outside=allow_outside, names_only=names_only)


def _yaml_text(data: Mapping[str, Any]) -> str:
    """A mapping of plain data as the text of a scenario file (so that every message has a
    line and column to point at)."""
    stream = io.StringIO()
    writer = YAML(typ="safe", pure=True)
    writer.default_flow_style = False
    writer.sort_base_mapping_type_on_output = False  # type: ignore[assignment]  # keep order
    try:
        writer.dump(dict(data), stream)
    except RepresenterError as exc:
        raise InputError(f"a scenario given as a mapping holds only plain data: {exc}") from None
    return stream.getvalue()


@dataclass(frozen=True, slots=True)
class Options:
    """How to decide: the engine, its limits, whether to name the rules that forbid what a
    failing claim asks (``explain``), whether a scenario may name files outside its folder,
    and who is told of a long exploration's progress."""

    engine: str = "auto"
    timeout: float | None = None
    max_states: int | None = None
    explain: bool = False
    allow_outside: bool = False
    progress: Figures | None = field(default=None, compare=False)
    reduce: bool = True
    """The explorer's reductions: symmetry, claim slicing, screening (False: every state)."""
    names_only: bool = False
    """The scenario may name rule systems and bundled card libraries only by their names,
    never a file (``verifier serve``)."""

    def __post_init__(self) -> None:
        # The command line's options say the same (--timeout, --max-states): one door.
        if self.engine not in ENGINES:
            raise InputError(f"unknown engine '{self.engine}' (one of {', '.join(ENGINES)})")
        seconds = self.timeout
        if seconds is not None and (
            isinstance(seconds, bool)
            or not isinstance(seconds, int | float)
            or not math.isfinite(seconds)
            or not 0 < seconds <= MAX_SECONDS
        ):
            raise InputError(
                f"timeout must be a finite number of seconds, more than 0 and at most "
                f"{MAX_SECONDS:.0f} (got {seconds!r})"
            )
        states = self.max_states
        if states is not None and (
            isinstance(states, bool) or not isinstance(states, int) or not 1 <= states <= MAX_STATES
        ):
            raise InputError(
                f"max_states must be a whole number from 1 to {MAX_STATES:,} (got {states!r})"
            )


def decide(source: Source, options: Options) -> Checked:
    """Load ``source`` and decide every claim of it (what ``verifier check`` does per file)."""
    o = options
    scenario = _load(source, o.allow_outside, o.names_only)
    results, variants = check_scenario(
        scenario, o.engine, o.timeout, o.max_states, o.progress, o.reduce
    )
    if o.explain:
        from verifier.report.reasons import with_reasons

        results = [
            with_reasons(variants[c.variant], [r], [c.formula], o.timeout)[0]
            for r, c in zip(results, scenario.claims, strict=True)
        ]
    return Checked(scenario, results)


def decide_claim(source: Source, claim: str, options: Options) -> Checked:
    """Load ``source`` and decide ``claim`` (its own claims are ignored), as ``verifier ask``."""
    o = options
    scenario = _load(source, o.allow_outside, o.names_only)
    formula = parse_for(scenario, claim)
    prepared = prepare(scenario)
    asked: list[tuple[str, str, Formula, str | None]] = [("ask", claim, formula, None)]
    results = check_claims(prepared, asked, o.engine, o.timeout, o.max_states, o.progress, o.reduce)
    if o.explain:
        from verifier.report.reasons import with_reasons

        results = with_reasons(prepared, results, [formula], o.timeout)
    return Checked(scenario, results)


def check(
    source: Source,
    *,
    engine: str = "auto",
    timeout: float | None = None,
    max_states: int | None = None,
    explain: bool = False,
    allow_outside: bool = False,
    reduce: bool = True,
) -> list[Result]:
    """Decide every claim of the scenario ``source``; one :class:`Result` per claim, in the
    file's order.

    ``engine`` is ``auto``, ``explore``, ``smt`` or ``both``; ``timeout`` (seconds per engine)
    and ``max_states`` (the explorer's) are the limits past which a verdict is ``unknown``;
    ``reduce=False`` turns the explorer's reductions off (symmetry, slicing, screening,
    the record quotient).
    Raises :class:`~verifier.errors.VerifierError` for bad input.
    """
    options = Options(engine, timeout, max_states, explain, allow_outside, reduce=reduce)
    checked = decide(source, options)
    return [Result.of(checked.scenario.path, r) for r in checked.results]


def ask(
    source: Source,
    claim: str,
    *,
    engine: str = "auto",
    timeout: float | None = None,
    max_states: int | None = None,
    explain: bool = False,
    allow_outside: bool = False,
    reduce: bool = True,
) -> Result:
    """Decide one ``claim`` (in the claim language) about the scenario ``source``; its own
    claims are ignored. Raises :class:`~verifier.errors.VerifierError` for bad input, a claim
    that does not parse included (its ``path`` is ``<claim>``)."""
    options = Options(engine, timeout, max_states, explain, allow_outside, reduce=reduce)
    checked = decide_claim(source, claim, options)
    [result] = checked.results
    return Result.of(checked.scenario.path, result)
