"""Reports: claim results as readable text or as JSON, and narratives of continuations."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import click

from verifier.errors import printable
from verifier.run.alternatives import Others
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
    "others_lines",
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


MOVES = frozenset({"activation", "pass", "timer", "summon", "attack", "position", "combat", "land"})
"""The kinds of trace step that are a move of a player's (numbered in a narrative); the
others are what a move causes."""


def numbered(steps: Sequence[TraceStep]) -> list[tuple[int | None, TraceStep, str]]:
    """Each step with its move number (None for what a move causes) and its history tag."""
    rows: list[tuple[int | None, TraceStep, str]] = []
    number = 0
    for step in steps:
        # Every move a player makes: activations, passes, summons and Sets, attacks and
        # position changes, declarations, a land played, a creature turned face up.
        move = step.kind in MOVES
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


_STATUS_COLORS = {"ok": "green", "undecided": "yellow"}


def _painted(text: str, color: bool, fg: str | None, bold: bool = False) -> str:
    """``text`` in colour (ANSI) when ``color``; ``click.echo`` strips it where colour is off."""
    return click.style(text, fg=fg, bold=bold or None) if color and fg is not None else text


def text_report(
    path: str,
    model: str,
    results: Sequence[ClaimResult],
    brief: bool,
    color: bool = False,
    summary: bool = False,
) -> list[str]:
    """The lines of a file's report; with ``color``, its statuses are coloured (green as
    expected, red not, yellow undecided). With ``summary``, one line for the file, and only
    the claims that are not as expected (or unknown), as ``brief`` shows them."""
    lines = [f"{printable(path)} ({printable(model)})"]
    if summary:
        lines[0] += ": " + _tally(results, color)
        results = [r for r in results if differs(r) or r.verdict is Verdict.UNKNOWN]
        brief = True
    for r in results:
        variant = f"  [{r.variant}]" if r.variant else ""
        st = status(r)
        wrong = st == "DISAGREE" or st.startswith("EXPECTED")
        fg = "red" if wrong else _STATUS_COLORS.get(st)
        shown = _painted(f"{st:<16}", color, fg, bold=wrong)
        lines.append(f"  {r.verdict.value:<8} {shown} {r.id}: {r.claim}{variant}")
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
        argued = _argument(r)
        if argued and not brief:
            lines.append(f"           {argued}")
        for line in r.because:
            lines.append(f"           {line}")
        if r.trace and (not brief or not r.as_expected):
            lines.append(f"           {r.role}:")
            lines.extend(narrative(r.trace, indent="           "))
    return lines


def _argument(r: ClaimResult) -> str:
    """The SMT engine's argument for a decided verdict, in a line: ``by inductive invariant:
    step in {...} and mode in {...}``, ``by witness at depth 7``, ``by bounded: complete at
    12`` ("" for the explorer's answers, which rest on the states it visited)."""
    argument = r.stats.get("argument")
    if r.verdict is Verdict.UNKNOWN or not isinstance(argument, str) or "smt" not in r.engine:
        return ""
    invariant = r.stats.get("invariant")
    return f"by {argument}" + (f": {invariant}" if isinstance(invariant, str) else "")


def _tally(results: Sequence[ClaimResult], color: bool) -> str:
    """How a file's claims came out, in one phrase: "4 claim(s), all as expected"."""
    wrong = sum(1 for r in results if differs(r))
    unknown = sum(1 for r in results if r.verdict is Verdict.UNKNOWN and not differs(r))
    ok = len(results) - wrong - unknown
    if not wrong and not unknown:
        return f"{len(results)} claim(s), " + _painted("all as expected", color, "green")
    parts = [f"{ok} as expected"]
    if wrong:
        parts.append(_painted(f"{wrong} not", color, "red", bold=True))
    if unknown:
        parts.append(_painted(f"{unknown} unknown", color, "yellow"))
    return f"{len(results)} claim(s): " + ", ".join(parts)


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
        out["role"] = r.role  # witness or counterexample, as the API says
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
    collected: Sequence[tuple[str, ClaimResult]],
    failed: Sequence[FileError],
    files: int,
    color: bool = False,
) -> str:
    """``N claim(s) in F file(s): G as expected, D not, U unknown, E file(s) failed to load``
    (with ``color``, the counts that are not as expected in red and yellow)."""
    results = [r for _, r in collected]
    total = len(results)
    wrong = sum(1 for r in results if differs(r))
    unknown = sum(1 for r in results if r.verdict is Verdict.UNKNOWN and not differs(r))
    good = total - wrong - unknown
    bad_input = sum(1 for f in failed if f.kind == "input")
    internal = sum(1 for f in failed if f.kind == "internal")
    return (
        f"{total} claim(s) in {files} file(s): {_painted(f'{good} as expected', color, 'green')}"
        + (", " + _painted(f"{wrong} not", color, "red", True) if wrong else "")
        + (", " + _painted(f"{unknown} unknown", color, "yellow") if unknown else "")
        + (
            ", " + _painted(f"{bad_input} file(s) failed to load", color, "red")
            if bad_input
            else ""
        )
        + (
            ", " + _painted(f"{internal} file(s) met an internal error", color, "red", True)
            if internal
            else ""
        )
    )


_STOPPED = {
    "states": "the state limit was reached; --max-states",
    "time": "the time limit was reached; --timeout",
    "memory": "the memory budget was reached",
    "capacity": "some continuations exceed the state's capacities",
}


def others_lines(others: Others, indent: str = "  ") -> list[str]:
    """What ``explain`` says of the continuations it does not narrate."""
    stopped = _STOPPED.get(others.stopped, others.stopped)
    if not others.count:
        if stopped:
            return [
                f"{indent}Other continuations: none found before the search stopped ({stopped}); "
                "`verifier check` decides claims over all of them."
            ]
        return [f"{indent}No other continuation ends differently: this is how the scenario ends."]
    more = f", at least (the search stopped: {stopped})" if stopped else ""
    lines = [
        f"{indent}Other continuations: {others.count} other way(s) to end{more}. The narrative "
        "above is the one in which nobody activates anything more; the others:"
    ]
    for other in others.shown:
        choices = "; ".join(other.choices) or "the same choices, in another order"
        lines.append(f"{indent}  - {choices}")
        differs = "; ".join(other.differs) or (
            "the same cards, Life Points and draws, with the links added in another order"
        )
        lines.append(f"{indent}      ends: {differs}")
    if others.count > len(others.shown):
        lines.append(f"{indent}  ... and {others.count - len(others.shown)} more")
    lines.append(
        f"{indent}`verifier check` decides a claim over every continuation "
        "(`exists ...` shows one that satisfies it, `always ...` one that does not)."
    )
    return lines


def difference_lines(differences: Sequence[Any]) -> list[str]:
    """The differences ``verifier diff`` found, each with its continuation under each model."""
    lines = []
    for difference in differences:
        lines.append(f"  {difference.kind}: {difference.summary}")
        for model, steps in difference.under:
            lines.append(f"    under {model}:")
            lines.extend(narrative(steps, indent="      "))
    return lines
