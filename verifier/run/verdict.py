"""Verdicts, and how the verdicts of quantified parts combine into a claim's verdict."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from verifier.claims import ast
from verifier.claims.parse import quantifier_free
from verifier.engines.base import Engine, Search
from verifier.system import Action

__all__ = ["Decision", "Engine", "Search", "Verdict", "decide"]


class Verdict(Enum):
    """What an engine concluded about a claim."""

    HOLDS = "holds"  # proved over every continuation, or a witness exists (for exists)
    FAILS = "fails"  # a counterexample exists, or no continuation is a witness (proved)
    UNKNOWN = "unknown"  # a limit was reached before either was established


@dataclass(frozen=True, slots=True)
class Decision:
    """A verdict with the continuation that shows it, when there is one."""

    verdict: Verdict
    trace: tuple[Action, ...] | None = None
    role: str = ""  # "witness" or "counterexample" when a trace is attached
    detail: str = ""
    stats: dict[str, float | int | str] = field(default_factory=dict)


def decide(engine: Engine, formula: ast.Formula) -> Decision:
    """Decide a claim: quantifiers ask the engine; connectives combine three-valued."""
    if quantifier_free(formula):
        formula = ast.Quantified("always", formula)
    return _decide(engine, formula)


def _decide(engine: Engine, formula: ast.Formula) -> Decision:
    if isinstance(formula, ast.Quantified):
        want = formula.kind == "exists"
        found = engine.search(formula.body, want)
        stats = dict(found.stats)
        if found.found is not None:
            verdict = Verdict.HOLDS if want else Verdict.FAILS
            role = "witness" if want else "counterexample"
            return Decision(verdict, tuple(found.found), role, "", stats)
        if found.complete:
            verdict = Verdict.FAILS if want else Verdict.HOLDS
            detail = found.detail or (
                "no legal continuation satisfies it" if want else "it holds on every continuation"
            )
            return Decision(verdict, None, "", detail, stats)
        return Decision(Verdict.UNKNOWN, None, "", found.detail, stats)
    if isinstance(formula, ast.Not):
        inner = _decide(engine, formula.arg)
        flipped = {
            Verdict.HOLDS: Verdict.FAILS,
            Verdict.FAILS: Verdict.HOLDS,
            Verdict.UNKNOWN: Verdict.UNKNOWN,
        }[inner.verdict]
        return Decision(flipped, inner.trace, inner.role, inner.detail, inner.stats)
    if isinstance(formula, ast.And | ast.Or):
        parts = [
            _decide(engine, a if not quantifier_free(a) else ast.Quantified("always", a))
            for a in formula.args
        ]
        deciding = Verdict.FAILS if isinstance(formula, ast.And) else Verdict.HOLDS
        for part in parts:
            if part.verdict is deciding:
                return part
        unknown = [p for p in parts if p.verdict is Verdict.UNKNOWN]
        if unknown:
            return unknown[0]
        other = Verdict.HOLDS if deciding is Verdict.FAILS else Verdict.FAILS
        traced = next((p for p in parts if p.trace is not None), parts[0])
        merged: dict[str, float | int | str] = {}
        for p in parts:
            merged.update(p.stats)
        return Decision(other, traced.trace, traced.role, traced.detail, merged)
    raise TypeError(f"not a claim: {formula!r}")
