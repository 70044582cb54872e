"""The HTML report: one self-contained page for a run of ``verifier check``.

Every file and claim with its verdict, its expectation, the engine and the seconds; each
witness or counterexample as pictures of its chains (inline SVG) and as a numbered
narrative; the rules that forbid what a failing claim asks (``--explain``); the files that
failed to load, with their errors. Styles are inline and the page loads nothing.

The page is rendered from the Jinja2 templates shipped in ``verifier/report/templates/``
with autoescaping on: scenario text (card names, claims, descriptions) is untrusted input.
The results part of it (``results.html.j2``) is also what the web page of ``verifier
serve`` shows, through :func:`html_results`: one renderer for both.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from verifier.errors import printable
from verifier.games import game_named
from verifier.report.chains import Figure, chains, figure
from verifier.report.text import FileError, differs, numbered, status, summary_line
from verifier.run.check import ClaimResult
from verifier.run.verdict import Verdict
from verifier.spec.scenario import Scenario
from verifier.trace.narrate import TraceStep
from verifier.version import __version__

if TYPE_CHECKING:
    import jinja2

__all__ = ["FileSection", "html_report", "html_results", "stylesheet"]


@dataclass(frozen=True, slots=True)
class FileSection:
    """A scenario file that was checked: its rule system, game, description and results."""

    path: str
    model: str
    game: str
    description: str
    players: tuple[str, ...]
    results: tuple[ClaimResult, ...]

    @classmethod
    def of(cls, path: str, scenario: Scenario, results: Sequence[ClaimResult]) -> FileSection:
        model = scenario.model
        description = scenario.description or ""
        return cls(path, model.name, model.game, description, scenario.players, tuple(results))


_RULE = re.compile(r"\(([a-z0-9-]+(?:\.[a-z0-9-]+)+)\)")


def _shown(value: object) -> object:
    """A value as a template shows it: text with its control and bidirectional characters
    escaped (markup the page made itself, a drawn chain, is left as it is)."""
    import markupsafe

    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return printable(value, keep="\n")
    return value


@functools.cache  # compiled once per process: the web page draws results on every run
def _environment() -> jinja2.Environment:
    import jinja2  # only a run that writes a page pays for the import

    return jinja2.Environment(
        loader=jinja2.PackageLoader("verifier.report", "templates"),
        autoescape=True,
        # Names and paths are data: a control or bidirectional character is shown escaped.
        finalize=_shown,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _kind(r: ClaimResult) -> str:
    """The claim's CSS class: ok, differs, unknown or decided."""
    if differs(r):
        return "differs"
    if r.verdict is Verdict.UNKNOWN:
        return "unknown"
    return "decided" if r.expected is None else "ok"


def _reason(line: str) -> dict[str, Any]:
    """A line of a ``why`` answer: an item ("- ...") split around the rule names it gives."""
    text = line.strip()
    item = text.startswith("- ")
    text = text[2:] if item else text
    parts = _RULE.split(text)  # text, rule, text, rule, ..., text
    return {"item": item, "parts": [(p, i % 2 == 1) for i, p in enumerate(parts) if p]}


def _trace(steps: Sequence[TraceStep], noun: str, players: Sequence[str]) -> dict[str, Any]:
    figures: list[Figure] = [figure(c, noun, players) for c in chains(steps)]
    rows = [
        {"number": n, "text": step.text, "tag": tag, "kind": step.kind}
        for n, step, tag in numbered(steps)
    ]
    moves = sum(1 for row in rows if row["number"] is not None)
    return {"figures": figures, "rows": rows, "moves": moves, "same_as": None}


def _drawn_once(claims: list[dict[str, Any]], anchor: str) -> None:
    """A continuation already drawn for an earlier claim of the file is not drawn again: the
    later claim points to it (``same_as``: the earlier claim's id and anchor)."""
    drawn: dict[tuple[tuple[str, str, str], ...], tuple[str, str]] = {}
    for index, claim in enumerate(claims, start=1):
        if not claim["rows"]:
            continue
        key = tuple((row["text"], row["tag"], row["kind"]) for row in claim["rows"])
        if key in drawn:
            claim["same_as"] = drawn[key]
        else:
            drawn[key] = (claim["r"].id, f"{anchor}-{index}")


def _claim(r: ClaimResult, noun: str, players: Sequence[str]) -> dict[str, Any]:
    sides = [
        {
            "engine": side.engine,
            "verdict": side.verdict.value,
            "detail": side.detail,
            "role": side.role,
            **_trace(side.trace, noun, players),
        }
        for side in r.disagreement or ()
    ]
    return {
        "r": r,
        "status": status(r),
        "kind": _kind(r),
        "reasons": [_reason(line) for line in r.because],
        "sides": sides,
        "why": False,
        **_trace(r.trace, noun, players),
    }


def _counts(results: Sequence[ClaimResult]) -> dict[str, int]:
    counts = {"ok": 0, "decided": 0, "differs": 0, "unknown": 0}
    for r in results:
        counts[_kind(r)] += 1
    return counts


def _sections(
    sections: Sequence[FileSection], why: Callable[[ClaimResult], bool] | None = None
) -> list[dict[str, Any]]:
    """What the results template shows of each file: its claims, each drawn once."""
    shown = []
    for index, section in enumerate(sections, start=1):
        known = game_named(section.game)
        noun = known.wording.chain if known is not None else "chain"
        claims = [_claim(r, noun, section.players) for r in section.results]
        if why is not None:
            for claim in claims:
                claim["why"] = why(claim["r"])
        _drawn_once(claims, f"file-{index}")
        shown.append(
            {
                "anchor": f"file-{index}",
                "section": section,
                "counts": _counts(section.results),
                "claims": claims,
            }
        )
    return shown


def html_report(sections: Sequence[FileSection], failed: Sequence[FileError], files: int) -> str:
    """The page for ``files`` scenario files: those checked, and those that ``failed``."""
    collected = [(s.path, r) for s in sections for r in s.results]
    template = _environment().get_template("report.html.j2")
    return template.render(
        version=__version__,
        summary=summary_line(collected, failed, files),
        counts=_counts([r for _, r in collected]),
        failed=failed,
        sections=_sections(sections),
        why_form=None,
    )


def html_results(
    sections: Sequence[FileSection],
    why: Callable[[ClaimResult], bool] | None = None,
    why_form: str | None = None,
) -> str:
    """The results of ``sections`` as the report draws them, without the page around them
    (markup for another page to hold: ``verifier serve``).

    A claim for which ``why`` is true gets a "why?" button that submits the form whose id
    is ``why_form`` with ``why`` set to the claim's text.
    """
    template = _environment().get_template("fragment.html.j2")
    return template.render(sections=_sections(sections, why), why_form=why_form)


def stylesheet() -> str:
    """The report's styles (``report.css``), which a page holding :func:`html_results` uses."""
    from importlib import resources

    return resources.files("verifier.report").joinpath("templates/report.css").read_text("utf-8")
