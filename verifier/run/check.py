"""Deciding a scenario's claims with one engine or both, and the default continuation."""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from verifier.claims import ast
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Mode, State
from verifier.engines.base import Figures, Limits
from verifier.engines.catalog import make_engine
from verifier.games import game
from verifier.io.scenario import InMemory
from verifier.run.history import Replayed, replay_history
from verifier.run.verdict import Decision, Engine, Verdict, decide
from verifier.spec.scenario import Scenario, Variant
from verifier.system import Action, ActionKind, System, build_system
from verifier.trace.narrate import TraceStep, replay
from verifier.trace.run import Run

__all__ = [
    "ENGINES",
    "ClaimResult",
    "Prepared",
    "at_point",
    "check",
    "default_continuation",
    "prepare",
]

ENGINES = ("auto", "explore", "smt", "both")


@dataclass(frozen=True, slots=True)
class Prepared:
    """A scenario with its transition system and its history replayed."""

    scenario: Scenario
    system: System
    history: Replayed


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """The decision on one claim, ready to print."""

    id: str
    claim: str
    expected: str | None
    verdict: Verdict
    engine: str
    role: str
    detail: str
    trace: tuple[TraceStep, ...]
    seconds: float
    stats: dict[str, Any] = field(default_factory=dict)
    disagreement: tuple[ClaimResult, ClaimResult] | None = None
    because: tuple[str, ...] = ()
    variant: str = ""
    run: Run | None = field(default=None, compare=False, repr=False)
    """The actions of :attr:`trace` from the initial state, to replay its states (ITF)."""

    @property
    def as_expected(self) -> bool:
        return self.disagreement is None and (
            self.expected is None or self.expected == self.verdict.value
        )


def prepare(scenario: Scenario) -> Prepared:
    system = build_system(scenario)
    return Prepared(scenario, system, replay_history(system))


def at_point(prepared: Prepared, link: int | None) -> Prepared:
    """``prepared`` whose continuations end where Chain Link ``link`` of the scenario's
    chain has just resolved (a claim's ``after_link``); itself for None.

    The scenario's chain is the one under way at its point, or the next one to start: the
    chain number of the state after the history. The history is replayed without the stop.
    """
    if link is None:
        return prepared
    chain = int(READ.cno(prepared.history.state))
    return replace(prepared, system=prepared.system.stopping_after(chain, link))


def _engine(
    prepared: Prepared,
    name: str,
    timeout: float | None,
    max_states: int | None = None,
    progress: Figures | None = None,
    reduce: bool = True,
) -> Engine:
    history = prepared.history
    limits = Limits(seconds=timeout, max_states=max_states, progress=progress, reduce=reduce)
    return make_engine(name, prepared.system, history.state, history.activations, limits)


def check_scenario(
    scenario: Scenario,
    engine: str = "auto",
    timeout: float | None = None,
    max_states: int | None = None,
    progress: Figures | None = None,
    reduce: bool = True,
) -> tuple[list[ClaimResult], dict[Variant, Prepared]]:
    """Decide every claim of ``scenario``, each under the variant it names (rules, turn,
    history).

    Returns the results in the file's order, and the prepared variant of each group.
    """
    from verifier.io.scenario import load_scenario

    groups: dict[Variant, list[int]] = {}
    for index, entry in enumerate(scenario.claims):
        groups.setdefault(entry.variant, []).append(index)
    results: dict[int, ClaimResult] = {}
    prepared_by_variant: dict[Variant, Prepared] = {}
    for variant, indices in groups.items():
        rules, turn, history, until = variant
        variant_scenario = (
            scenario
            if variant == (None, None, None, None)
            else load_scenario(
                _source(scenario),
                rules,
                turn,
                history,
                until,
                allow_outside=scenario.allow_outside,
                names_only=scenario.names_only,
            )
        )
        prepared = prepare(variant_scenario)
        prepared_by_variant[variant] = prepared
        entries = [variant_scenario.claims[i] for i in indices]
        decided = check(
            prepared,
            [(c.id, c.text, c.formula, c.expect) for c in entries],
            engine,
            timeout,
            max_states,
            progress,
            reduce,
        )
        label = _variant_label(variant_scenario, variant)
        for i, result in zip(indices, decided, strict=True):
            results[i] = replace(result, variant=label)
    return [results[i] for i in range(len(scenario.claims))], prepared_by_variant


def _source(scenario: Scenario) -> str | InMemory:
    """Where to load ``scenario`` again: its file, or its text when it came from memory."""
    if scenario.text is None:
        return scenario.path
    return InMemory(scenario.path, scenario.text, Path(scenario.folder))


def _variant_label(scenario: Scenario, variant: Variant) -> str:
    rules, turn, history, until = variant
    parts = []
    if until is not None:
        parts.append(f"at the end of {until}")
    if history is not None:
        parts.append("after its own history")
    if rules is not None:
        parts.append(f"under {scenario.model.name}")
    if turn is not None:
        parts.append(f"in {turn}'s turn")
    return ", ".join(parts)


def check(
    prepared: Prepared,
    claims: list[tuple[str, str, ast.Formula, str | None]],
    engine: str = "auto",
    timeout: float | None = None,
    max_states: int | None = None,
    progress: Figures | None = None,
    reduce: bool = True,
) -> list[ClaimResult]:
    """Decide each ``(id, text, formula, expected)`` claim with ``engine``.

    ``timeout`` bounds each engine's seconds, ``max_states`` the explorer's states; a limit
    reached gives ``unknown``. A claim ``after_link(N) F`` is decided on the continuations
    that end where Chain Link N has just resolved (:func:`at_point`). ``progress`` is told of
    long explorations' progress.
    """
    names = ["explore", "smt"] if engine == "both" else [engine]
    engines: dict[tuple[str, int | None], Engine] = {}
    points: dict[int | None, Prepared] = {None: prepared}
    results = []
    for ident, text, formula, expected in claims:
        link = ast.point_of(formula)
        if link not in points:
            points[link] = at_point(prepared, link)
        here = points[link]
        per_engine = []
        for name in names:
            began = time.perf_counter()
            if (name, link) not in engines:
                engines[name, link] = _engine(here, name, timeout, max_states, progress, reduce)
            decision = decide(engines[name, link], formula)
            seconds = time.perf_counter() - began
            if _point_only(formula) and decision.trace is not None:
                # Every continuation agrees on a fact of the point: show the point itself.
                decision = replace(decision, trace=(), role="at the scenario's point")
            per_engine.append(_result(here, ident, text, expected, name, decision, seconds))
        decided = [r for r in per_engine if r.verdict is not Verdict.UNKNOWN]
        if len(decided) == 2 and decided[0].verdict is not decided[1].verdict:
            first = per_engine[0]
            results.append(
                ClaimResult(
                    ident,
                    text,
                    expected,
                    Verdict.UNKNOWN,
                    "both",
                    "",
                    "the engines disagree: "
                    + ", ".join(f"{r.engine} says {r.verdict.value}" for r in per_engine),
                    (),
                    sum(r.seconds for r in per_engine),
                    first.stats,
                    (per_engine[0], per_engine[1]),
                )
            )
        elif len(per_engine) == 2:
            # An engine that stopped at a limit contradicts nothing: the other one decides.
            chosen = per_engine[1] if per_engine[1].trace else per_engine[0]
            detail = chosen.detail
            if len(decided) == 1:
                chosen = decided[0]
                undecided = next(r for r in per_engine if r is not chosen)
                detail = "; ".join(
                    part
                    for part in (
                        chosen.detail,
                        f"{undecided.engine} is undecided: {undecided.detail}",
                    )
                    if part
                )
            stats = {**per_engine[0].stats, **per_engine[1].stats}
            results.append(
                ClaimResult(
                    ident,
                    text,
                    expected,
                    chosen.verdict,
                    "both",
                    chosen.role,
                    detail,
                    chosen.trace,
                    sum(r.seconds for r in per_engine),
                    stats,
                    run=chosen.run,
                )
            )
        else:
            results.append(per_engine[0])
    return results


def _stopped(prepared: Prepared, final: State) -> tuple[TraceStep, ...]:
    """The step that says a continuation ended at its ``after_link`` point, if it did."""
    stop = prepared.system.stop
    if stop is None:
        return ()
    chain, link = stop
    f = prepared.system.layout.frame(final)
    if f.cno != chain or link > len(f.ldone) or not f.ldone[link - 1]:
        return ()
    name = game(prepared.scenario.model.game).wording.link.format(n=link)
    return (TraceStep("point", f"{name} has resolved: the claim is decided here", chain=chain),)


def _point_only(formula: ast.Formula) -> bool:
    """Whether ``formula`` reads nothing but the scenario's point (``priority``, ``now``)."""
    if isinstance(formula, ast.Quantified):
        return _point_only(formula.body)
    if isinstance(formula, ast.Not):
        return _point_only(formula.arg)
    if isinstance(formula, ast.And | ast.Or):
        return all(_point_only(a) for a in formula.args)
    return isinstance(formula, ast.Priority | ast.Now)


def _result(
    prepared: Prepared,
    ident: str,
    text: str,
    expected: str | None,
    engine: str,
    decision: Decision,
    seconds: float,
) -> ClaimResult:
    steps: tuple[TraceStep, ...] = ()
    run = None
    if decision.trace is not None:
        final, continuation = replay(prepared.system, prepared.history.state, decision.trace)
        steps = prepared.history.steps + tuple(continuation) + _stopped(prepared, final)
        history = prepared.history.actions
        run = Run(prepared.system, history + decision.trace, len(history))
    decided_by = decision.stats.get("decided_by")
    return ClaimResult(
        ident,
        text,
        expected,
        decision.verdict,
        f"{engine}: {decided_by}" if decided_by else engine,
        decision.role,
        decision.detail,
        steps,
        seconds,
        dict(decision.stats),
        run=run,
    )


_PREFERENCE = (
    ActionKind.PASS,
    ActionKind.TRIGGER,
    ActionKind.RESOLVE,
    ActionKind.CLEANUP,
    ActionKind.DECLINE,
    ActionKind.TIMER,
)


def default_continuation(prepared: Prepared, limit: int = 10_000) -> list[Action]:
    """The continuation in which nobody activates anything more and coin tosses succeed.

    Mandatory triggers still go on their chains (optional ones too: they are activated), as
    do mandatory Quick Effects, so the narrative shows every chain the scenario causes.
    """
    system = prepared.system
    state: State = prepared.history.state
    actions: list[Action] = []
    ordered = sorted(
        system.actions,
        key=lambda a: (
            _PREFERENCE.index(a.kind) if a.kind in _PREFERENCE else 99,
            a.heads is False,
        ),
    )
    for _ in range(limit):
        if READ.mode(state) == Mode.DONE:
            return actions
        for action in ordered:
            if (
                action.kind == ActionKind.ACTIVATE
                and not system.world.abilities[action.ability].mandatory
            ):
                continue
            if system.enabled(state, action):
                actions.append(action)
                state = system.step(CONCRETE, state, action)
                break
        else:
            return actions
    return actions
