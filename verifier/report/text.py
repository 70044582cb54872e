"""Reports: claim results as readable text or as JSON, and narratives of continuations."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from verifier.run.check import ClaimResult
from verifier.run.verdict import Verdict
from verifier.trace.narrate import TraceStep

__all__ = [
    "FileError",
    "difference_lines",
    "differs",
    "json_report",
    "narrative",
    "numbered",
    "status",
    "summary_line",
    "text_report",
]


@dataclass(frozen=True, slots=True)
class FileError:
    """A file whose claims could not be decided: bad input, or an internal error."""

    file: str
    message: str
    line: int | None = None
    col: int | None = None
    kind: str = "input"  # input | internal

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "message": self.message,
            "kind": self.kind,
        }


def differs(r: ClaimResult) -> bool:
    """Whether a decided verdict differs from its expectation, or the engines disagree.

    An ``unknown`` verdict is undecided, never a mismatch: it counts as unknown (exit 3).
    """
    if r.disagreement is not None:
        return True
    return (
        r.expected is not None
        and r.verdict is not Verdict.UNKNOWN
        and r.expected != r.verdict.value
    )


def numbered(steps: Sequence[TraceStep]) -> list[tuple[int | None, TraceStep, str]]:
    """Each step with its move number (None for what a move causes) and its history tag."""
    rows: list[tuple[int | None, TraceStep, str]] = []
    number = 0
    for step in steps:
        move = step.kind in {"activation", "pass", "timer", "summon"}
        number += move
        tag = "history" if step.history and not step.implied else ""
        tag = "implied by the history" if step.implied else tag
        rows.append((number if move else None, step, tag))
    return rows


def narrative(steps: Sequence[TraceStep], indent: str = "  ") -> list[str]:
    """Numbered lines, history steps marked, chain boundaries visible."""
    return [
        f"{indent}{'    ' if n is None else f'{n:>2}. '}{step.text}{f' ({tag})' if tag else ''}"
        for n, step, tag in numbered(steps)
    ]


def status(r: ClaimResult) -> str:
    """How a verdict stands against its expectation, in a word or two."""
    if r.disagreement is not None:
        return "DISAGREE"
    if r.verdict is Verdict.UNKNOWN:
        return "undecided"
    if r.expected is None:
        return "decided"
    if r.as_expected:
        return "ok"
    return f"EXPECTED {r.expected.upper()}"


def text_report(path: str, model: str, results: Sequence[ClaimResult], brief: bool) -> list[str]:
    lines = [f"{path} ({model})"]
    for r in results:
        variant = f"  [{r.variant}]" if r.variant else ""
        lines.append(f"  {r.verdict.value:<8} {status(r):<16} {r.id}: {r.claim}{variant}")
        if r.disagreement is not None:
            lines.append(f"           {r.detail}")
            for side in r.disagreement:
                lines.append(
                    f"           {side.engine}: {side.verdict.value}"
                    f"{' (' + side.detail + ')' if side.detail else ''}"
                )
                if side.trace:
                    lines.append(f"           {side.engine}'s {side.role}:")
                    lines.extend(narrative(side.trace, indent="           "))
            continue
        informative = r.verdict is Verdict.UNKNOWN or not r.as_expected
        if r.detail and informative:
            lines.append(f"           {r.detail}")
        for line in r.because:
            lines.append(f"           {line}")
        if r.trace and (not brief or not r.as_expected):
            lines.append(f"           {r.role}:")
            lines.extend(narrative(r.trace, indent="           "))
    return lines


def json_claim(path: str, r: ClaimResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": r.id,
        "file": path,
        "claim": r.claim,
        "verdict": r.verdict.value,
        "expected": r.expected,
        "engine": r.engine,
        "trace": [s.to_json() for s in r.trace],
        "seconds": round(r.seconds, 4),
    }
    if r.role:
        out["trace_role"] = r.role
    if r.detail:
        out["detail"] = r.detail
    if r.stats:
        out["stats"] = r.stats
    if r.because:
        out["because"] = list(r.because)
    if r.variant:
        out["variant"] = r.variant
    if r.disagreement is not None:
        out["disagreement"] = [json_claim(path, side) for side in r.disagreement]
    return out


def json_report(
    results: Sequence[tuple[str, ClaimResult]], errors: Sequence[FileError] = ()
) -> str:
    """``{"claims": [...], "errors": [...]}``: every decided claim, and every file that could
    not be checked (with its line and column when the problem has a place)."""
    data = {
        "claims": [json_claim(p, r) for p, r in results],
        "errors": [e.to_json() for e in errors],
    }
    return json.dumps(data, indent=2) + "\n"


def summary_line(
    collected: Sequence[tuple[str, ClaimResult]], failed: Sequence[FileError], files: int
) -> str:
    """``N claim(s) in F file(s): G as expected, D not, U unknown, E file(s) failed to load``."""
    results = [r for _, r in collected]
    total = len(results)
    wrong = sum(1 for r in results if differs(r))
    unknown = sum(1 for r in results if r.verdict is Verdict.UNKNOWN and not differs(r))
    good = total - wrong - unknown
    bad_input = sum(1 for f in failed if f.kind == "input")
    internal = sum(1 for f in failed if f.kind == "internal")
    return (
        f"{total} claim(s) in {files} file(s): {good} as expected"
        + (f", {wrong} not" if wrong else "")
        + (f", {unknown} unknown" if unknown else "")
        + (f", {bad_input} file(s) failed to load" if bad_input else "")
        + (f", {internal} file(s) met an internal error" if internal else "")
    )


def difference_lines(differences: Sequence[Any]) -> list[str]:
    """The differences ``verifier diff`` found, each with its continuation under each model."""
    lines = []
    for difference in differences:
        lines.append(f"  {difference.kind}: {difference.summary}")
        for model, steps in difference.under:
            lines.append(f"    under {model}:")
            lines.extend(narrative(steps, indent="      "))
    return lines
