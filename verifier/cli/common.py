"""What the commands share: the command group, its options, exit statuses, the progress
line and how errors are reported."""

from __future__ import annotations

import math
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from verifier.engines.base import DEFAULT_STATE_LIMIT, MAX_SECONDS, MAX_STATES, Figures
from verifier.errors import InternalError, VerifierError
from verifier.report.progress import StatusLine
from verifier.report.text import (
    FileError,
    differs,
)
from verifier.run.check import ENGINES, ClaimResult
from verifier.run.verdict import Verdict
from verifier.version import __version__

OK, DIFFERS, BAD_INPUT, UNKNOWN, INTERNAL = 0, 1, 2, 3, 4
INTERRUPTED = 130  # the shells' status for a program stopped by Ctrl-C (128 + SIGINT)
INTERRUPT_MESSAGE = "interrupted (Ctrl-C): stopped; the claims not yet reported are undecided"

EPILOG = """\b
Examples:
  verifier examples ex && verifier check --summary ex/
  verifier check examples/
  verifier check --engine both --json examples/yugioh/raigeki-imperial-order-dark-bribe.yaml
  verifier ask examples/yugioh/raigeki-imperial-order-dark-bribe.yaml "can_respond(B)"
  verifier explain examples/yugioh/raigeki-imperial-order-dark-bribe.yaml
  verifier explore examples/yugioh/spell-speed-basics.yaml --graph chain.dot
  verifier models

\b
Exit status: 0 as expected, 1 a verdict differs (or a finding), 2 bad input,
3 unknown (a limit was reached), 4 internal error; the first that applies in
the order 4, 2, 1, 3, 0.
"""


NOT_SCENARIOS = (".cards.yaml", ".sweep.yaml")
"""Card libraries and sweeps, which a folder given to check holds beside its scenarios."""


def scenario_files(paths: Sequence[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.yaml") if not p.name.endswith(NOT_SCENARIOS))
        else:
            yield path


@click.group(
    epilog=EPILOG,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
)
@click.version_option(__version__, prog_name="verifier")
@click.option("--debug", is_flag=True, help="Show tracebacks of internal errors.")
@click.pass_context
def cli(ctx: click.Context, debug: bool) -> None:
    """Prove or refute rulings about card-game chains (Yu-Gi-Oh!, CMC, Magic).

    Each claim is decided over every legal continuation of its scenario: `holds`, `fails`
    (with a counterexample or witness chain), or `unknown` when a limit is reached.
    """
    ctx.obj = {"debug": debug}
    if ctx.invoked_subcommand is None:  # bare `verifier`: what it can do, not an error
        click.echo(ctx.get_help())


def engine_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--engine",
        type=click.Choice(ENGINES),
        default="auto",
        show_default=True,
        help="auto: the explorer (fewest moves first), the SMT engine if a limit stops it; "
        "explore: the explicit state graph, breadth first (shortest traces); smt: z3; "
        "both: explore and smt, compared.",
    )(f)


def set_color(ctx: click.Context, param: click.Parameter, value: bool | None) -> None:
    """``--color``/``--no-color``; without either, colour only on a terminal, and none when
    the NO_COLOR environment variable is set (https://no-color.org)."""
    if value is None and os.environ.get("NO_COLOR"):
        value = False
    ctx.color = value  # None: click colours a terminal and strips colour elsewhere


def color_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--color/--no-color",
        default=None,
        expose_value=False,
        callback=set_color,
        help="Colour the statuses [default: on a terminal, unless NO_COLOR is set].",
    )(f)


def reduce_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--no-reduce",
        "no_reduce",
        is_flag=True,
        help=(
            "Search every state: no symmetry reduction, claim slicing, screening or record "
            "quotient."
        ),
    )(f)


def quiet_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--quiet", is_flag=True, help="No progress line on a terminal's standard error."
    )(f)


class ProgressLine(StatusLine):
    """The line an exploration keeps on standard error: states, rate, depth, memory."""

    def __call__(self, figures: dict[str, float]) -> None:
        self.show(
            f"exploring: {figures['states']:,.0f} states, {figures['rate']:,.0f}/s, "
            f"depth {figures['depth']:.0f}, {figures['memory'] / 1e6:,.0f} MB, "
            f"{figures['seconds']:.0f} s (Ctrl-C stops)"
        )


def progress(quiet: bool) -> ProgressLine | None:
    """A progress line, unless asked to be quiet or standard error is not a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    return ProgressLine()


def cleared(line: ProgressLine | None) -> None:
    if line is not None:
        line.clear()


def told(line: ProgressLine | None) -> Figures | None:
    return line


MAX_TRIES = 100_000
MAX_WORKERS = 1024


class Seconds(click.FloatRange):
    """A positive, finite number of seconds, at most a week (nan and inf are refused)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True, max=MAX_SECONDS)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        return super().convert(number, param, ctx)


class Count(click.IntRange):
    """A whole number from 1 to ``maximum`` ("not a valid integer", not "integer range")."""

    name = "integer"

    def __init__(self, maximum: int) -> None:
        super().__init__(min=1, max=maximum)


def timeout_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--timeout",
        type=Seconds(),
        default=None,
        help=f"Seconds per engine before `unknown` (more than 0, at most {MAX_SECONDS:.0f}).",
    )(f)


def max_states_option(
    default: int = DEFAULT_STATE_LIMIT,
) -> Callable[[click.decorators.FC], click.decorators.FC]:
    def decorate(f: click.decorators.FC) -> click.decorators.FC:
        return click.option(
            "--max-states",
            type=Count(MAX_STATES),
            default=default,
            show_default=True,
            help=f"States the explorer may visit before `unknown` (1 to {MAX_STATES:,}).",
        )(f)

    return decorate


def force_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--force", is_flag=True, help="Overwrite an existing output file (never a symlink)."
    )(f)


def allow_outside_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--allow-outside",
        is_flag=True,
        help="Let scenarios name rules and library files outside their folder and the current one.",
    )(f)


def exit_status(
    results: Sequence[ClaimResult], bad_input: bool = False, internal: bool = False
) -> int:
    """The exit status, by precedence: internal error 4, bad input 2, a verdict that differs
    from its expectation (or a disagreement of the engines) 1, an unknown verdict 3, else 0."""
    if internal:
        return INTERNAL
    if bad_input:
        return BAD_INPUT
    if any(differs(r) for r in results):
        return DIFFERS
    if any(r.verdict is Verdict.UNKNOWN for r in results):
        return UNKNOWN
    return OK


def debug() -> bool:
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root() if ctx is not None else None
    return bool(root is not None and isinstance(root.obj, dict) and root.obj.get("debug"))


def internal_message(exc: BaseException) -> str:
    message = exc.message if isinstance(exc, InternalError) else str(exc)
    return f"internal error: {type(exc).__name__}: {message}"


def report_internal(exc: BaseException, where: str = "") -> None:
    """Say that the verifier has a bug: one line, and the traceback only with --debug."""
    suffix = f" (while checking {where})" if where else ""
    click.echo(internal_message(exc) + suffix, err=True)
    if debug():
        click.echo("".join(traceback.format_exception(exc)).rstrip(), err=True)
    else:
        click.echo("run with --debug to see the traceback", err=True)


def file_error(path: str, exc: VerifierError) -> FileError:
    span = exc.span
    if span is None:
        return FileError(path, exc.message)
    return FileError(span.path, exc.message, span.line, span.col)
