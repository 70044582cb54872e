"""The ``verifier`` command.

Exit status: 0 every claim as expected (no finding, no difference); 1 a decided verdict differs
from its expectation, the engines disagree, or lint/diff/orders found something; 2 bad input
(a file that does not load, a bad option, an output that would be overwritten); 3 a verdict is
unknown or an exploration was stopped by a limit; 4 an internal error (a bug).

When a run has several outcomes, the exit status is the first that applies, in the order
4 (internal error) > 2 (bad input) > 1 (differs) > 3 (unknown) > 0: a bug is never hidden by
bad input, and a wrong verdict is never hidden by an undecided one. An ``unknown`` verdict
with an ``expect`` is undecided (3), not a mismatch.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import click

from verifier.api import Options, decide, decide_claim
from verifier.designer.lint import DEFAULT_LINT_STATES
from verifier.designer.orders import DEFAULT_ORDERS_STATES
from verifier.engines.base import DEFAULT_STATE_LIMIT, MAX_SECONDS, MAX_STATES, Figures
from verifier.errors import InputError, InternalError, Span, VerifierError, printable
from verifier.io.output import check_target, open_folder, write_output
from verifier.io.scenario import load_scenario, read_step
from verifier.report.html import FileSection, html_report
from verifier.report.progress import StatusLine
from verifier.report.reasons import why_lines
from verifier.report.text import (
    FileError,
    difference_lines,
    differs,
    json_report,
    narrative,
    others_lines,
    summary_line,
    text_report,
)
from verifier.run.alternatives import EXPLAIN_SECONDS, EXPLAIN_STATES, other_continuations
from verifier.run.check import ENGINES, ClaimResult, default_continuation, prepare
from verifier.run.verdict import Verdict
from verifier.trace.narrate import replay
from verifier.version import __version__

__all__ = ["cli", "main"]

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


def _scenario_files(paths: Sequence[str]) -> Iterator[Path]:
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


def _engine_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--engine",
        type=click.Choice(ENGINES),
        default="auto",
        show_default=True,
        help="auto: the explorer (fewest moves first), the SMT engine if a limit stops it; "
        "explore: the explicit state graph, breadth first (shortest traces); smt: z3; "
        "both: explore and smt, compared.",
    )(f)


def _set_color(ctx: click.Context, param: click.Parameter, value: bool | None) -> None:
    """``--color``/``--no-color``; without either, colour only on a terminal, and none when
    the NO_COLOR environment variable is set (https://no-color.org)."""
    if value is None and os.environ.get("NO_COLOR"):
        value = False
    ctx.color = value  # None: click colours a terminal and strips colour elsewhere


def _color_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--color/--no-color",
        default=None,
        expose_value=False,
        callback=_set_color,
        help="Colour the statuses [default: on a terminal, unless NO_COLOR is set].",
    )(f)


def _reduce_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--no-reduce",
        "no_reduce",
        is_flag=True,
        help=(
            "Search every state: no symmetry reduction, claim slicing, screening or record "
            "quotient."
        ),
    )(f)


def _quiet_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--quiet", is_flag=True, help="No progress line on a terminal's standard error."
    )(f)


class _ProgressLine(StatusLine):
    """The line an exploration keeps on standard error: states, rate, depth, memory."""

    def __call__(self, figures: dict[str, float]) -> None:
        self.show(
            f"exploring: {figures['states']:,.0f} states, {figures['rate']:,.0f}/s, "
            f"depth {figures['depth']:.0f}, {figures['memory'] / 1e6:,.0f} MB, "
            f"{figures['seconds']:.0f} s (Ctrl-C stops)"
        )


def _progress(quiet: bool) -> _ProgressLine | None:
    """A progress line, unless asked to be quiet or standard error is not a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    return _ProgressLine()


def _cleared(line: _ProgressLine | None) -> None:
    if line is not None:
        line.clear()


def _told(line: _ProgressLine | None) -> Figures | None:
    return line


MAX_TRIES = 100_000
MAX_WORKERS = 1024


class _Seconds(click.FloatRange):
    """A positive, finite number of seconds, at most a week (nan and inf are refused)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(min=0, min_open=True, max=MAX_SECONDS)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number of seconds.", param, ctx)
        return super().convert(number, param, ctx)


class _Count(click.IntRange):
    """A whole number from 1 to ``maximum`` ("not a valid integer", not "integer range")."""

    name = "integer"

    def __init__(self, maximum: int) -> None:
        super().__init__(min=1, max=maximum)


def _timeout_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--timeout",
        type=_Seconds(),
        default=None,
        help=f"Seconds per engine before `unknown` (more than 0, at most {MAX_SECONDS:.0f}).",
    )(f)


def _max_states_option(
    default: int = DEFAULT_STATE_LIMIT,
) -> Callable[[click.decorators.FC], click.decorators.FC]:
    def decorate(f: click.decorators.FC) -> click.decorators.FC:
        return click.option(
            "--max-states",
            type=_Count(MAX_STATES),
            default=default,
            show_default=True,
            help=f"States the explorer may visit before `unknown` (1 to {MAX_STATES:,}).",
        )(f)

    return decorate


def _force_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--force", is_flag=True, help="Overwrite an existing output file (never a symlink)."
    )(f)


def _allow_outside_option(f: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--allow-outside",
        is_flag=True,
        help="Let scenarios name rules and library files outside their folder and the current one.",
    )(f)


def _status(results: Sequence[ClaimResult], bad_input: bool = False, internal: bool = False) -> int:
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


def _debug() -> bool:
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root() if ctx is not None else None
    return bool(root is not None and isinstance(root.obj, dict) and root.obj.get("debug"))


def _internal_message(exc: BaseException) -> str:
    message = exc.message if isinstance(exc, InternalError) else str(exc)
    return f"internal error: {type(exc).__name__}: {message}"


def _report_internal(exc: BaseException, where: str = "") -> None:
    """Say that the verifier has a bug: one line, and the traceback only with --debug."""
    suffix = f" (while checking {where})" if where else ""
    click.echo(_internal_message(exc) + suffix, err=True)
    if _debug():
        click.echo("".join(traceback.format_exception(exc)).rstrip(), err=True)
    else:
        click.echo("run with --debug to see the traceback", err=True)


def _file_error(path: str, exc: VerifierError) -> FileError:
    span = exc.span
    if span is None:
        return FileError(path, exc.message)
    return FileError(span.path, exc.message, span.line, span.col)


@cli.command("check")
@_allow_outside_option
@click.argument("paths", nargs=-1, required=True)
@_engine_option
@_timeout_option
@_max_states_option()
@_reduce_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object for the run.")
@click.option("--brief", is_flag=True, help="Print traces only for unexpected verdicts.")
@click.option(
    "--summary",
    is_flag=True,
    help="One line per file; only the claims not as expected, or unknown, in full.",
)
@click.option("--explain", is_flag=True, help="Name the rules that forbid what a claim asks.")
@click.option(
    "--itf",
    "itf_dir",
    default=None,
    metavar="DIR",
    help="Write each witness and counterexample as an ITF trace into DIR.",
)
@click.option(
    "--junit", "junit_path", default=None, metavar="FILE", help="Write a JUnit XML report."
)
@click.option(
    "--html", "html_path", default=None, metavar="FILE", help="Also write the run as one HTML page."
)
@_force_option
@_color_option
@_quiet_option
def check_cmd(
    paths: tuple[str, ...],
    engine: str,
    timeout: float | None,
    max_states: int,
    no_reduce: bool,
    as_json: bool,
    brief: bool,
    summary: bool,
    explain: bool,
    allow_outside: bool,
    quiet: bool,
    itf_dir: str | None,
    junit_path: str | None,
    html_path: str | None,
    force: bool,
) -> None:
    """Decide every claim of each scenario FILE (or every scenario under DIR).

    A file that cannot be loaded, or that meets an internal error, is reported and the other
    files are still checked; the exit status is the worst outcome (see `verifier --help`).
    """
    collected: list[tuple[str, ClaimResult]] = []
    failed: list[FileError] = []
    models: dict[str, str] = {}
    files = list(_scenario_files(paths))
    if not files:
        empty = InputError(f"no scenario files in {' '.join(paths)}")
        if as_json:
            click.echo(empty.render(), err=True)
            click.echo(json_report([], [_file_error(" ".join(paths), empty)]), nl=False)
            sys.exit(BAD_INPUT)
        raise empty
    refused = _refused_output(itf_dir, junit_path, html_path, force)
    if refused is not None:
        target, exc = refused
        if not as_json:
            raise exc
        click.echo(exc.render(), err=True)
        click.echo(json_report([], [_file_error(target, exc)]), nl=False)
        sys.exit(BAD_INPUT)
    sections: list[FileSection] = []
    line = _progress(quiet)
    options = Options(
        engine, timeout, max_states, explain, allow_outside, _told(line), reduce=not no_reduce
    )
    for path in files:
        try:
            checked = decide(path, options)
            _cleared(line)
        except VerifierError as exc:
            _cleared(line)
            click.echo(exc.render(), err=True)
            failed.append(_file_error(str(path), exc))
            continue
        except Exception as exc:  # a bug, or InternalError: this file only
            _cleared(line)
            _report_internal(exc, str(path))
            failed.append(FileError(str(path), _internal_message(exc), kind="internal"))
            continue
        results = checked.results
        models[str(path)] = checked.scenario.model.name
        collected.extend((str(path), r) for r in results)
        sections.append(FileSection.of(str(path), checked.scenario, results))
        if not as_json:
            lines = text_report(
                str(path), checked.scenario.model.name, results, brief, color=True, summary=summary
            )
            click.echo("\n".join(lines))
    unwritten = _write_outputs(
        itf_dir,
        junit_path,
        (html_path, sections),
        force,
        collected,
        failed,
        models,
        [str(f) for f in files],
    )
    if as_json:
        click.echo(json_report(collected, [*failed, *unwritten]), nl=False)
    else:
        click.echo(summary_line(collected, failed, len(files), color=True))
    status = _status(
        [r for _, r in collected],
        bad_input=any(f.kind == "input" for f in failed) or bool(unwritten),
        internal=any(f.kind == "internal" for f in failed),
    )
    sys.exit(status)


def _refused_output(
    itf_dir: str | None, junit_path: str | None, html_path: str | None, force: bool
) -> tuple[str, VerifierError] | None:
    """An output target that could not be written, and why, found before any claim is
    decided (the ITF folder is created if need be)."""
    for target in (junit_path, html_path):
        if target is not None:
            try:
                check_target(target, force)
            except VerifierError as exc:
                return target, exc
    if itf_dir is not None:
        try:
            os.close(open_folder(itf_dir))
        except VerifierError as exc:
            return itf_dir, exc
    return None


def _write_outputs(
    itf_dir: str | None,
    junit_path: str | None,
    html: tuple[str | None, list[FileSection]],
    force: bool,
    collected: list[tuple[str, ClaimResult]],
    failed: list[FileError],
    models: dict[str, str],
    files: list[str],
) -> list[FileError]:
    """Write the ITF traces, the JUnit report and the HTML page; say on standard error what
    was written, or why it could not be (each such output is returned: bad input, exit status 2)."""
    unwritten: list[FileError] = []
    if itf_dir is not None:
        from verifier.report.itf import write_itf

        try:
            written = write_itf(itf_dir, collected, force, models)
            click.echo(f"wrote {len(written)} ITF trace(s) to {printable(itf_dir)}", err=True)
        except VerifierError as exc:
            click.echo(exc.render(), err=True)
            unwritten.append(_file_error(itf_dir, exc))
    if junit_path is not None:
        from verifier.report.junit import junit_xml

        try:
            write_output(junit_path, junit_xml(collected, failed, models, files), force)
            click.echo(f"wrote {printable(junit_path)}", err=True)
        except VerifierError as exc:
            click.echo(exc.render(), err=True)
            unwritten.append(_file_error(junit_path, exc))
    html_path, sections = html
    if html_path is not None:
        try:
            write_output(html_path, html_report(sections, failed, len(files)), force)
            click.echo(f"wrote {printable(html_path)}", err=True)
        except VerifierError as exc:
            click.echo(exc.render(), err=True)
            unwritten.append(_file_error(html_path, exc))
    return unwritten


@cli.command("ask")
@_allow_outside_option
@click.argument("path")
@click.argument("claim")
@_engine_option
@_timeout_option
@_max_states_option()
@_reduce_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--explain", is_flag=True, help="Name the rules that forbid what the claim asks.")
@_color_option
@_quiet_option
def ask_cmd(
    path: str,
    claim: str,
    engine: str,
    timeout: float | None,
    max_states: int,
    no_reduce: bool,
    as_json: bool,
    explain: bool,
    allow_outside: bool,
    quiet: bool,
) -> None:
    """Decide one CLAIM about the scenario in PATH (its own claims are ignored)."""
    line = _progress(quiet)
    try:
        options = Options(
            engine, timeout, max_states, explain, allow_outside, _told(line), not no_reduce
        )
        checked = decide_claim(path, claim, options)
    except VerifierError as exc:
        if not as_json:
            raise
        click.echo(exc.render(), err=True)
        click.echo(json_report([], [_file_error(path, exc)]), nl=False)
        sys.exit(BAD_INPUT)
    finally:
        _cleared(line)
    results = checked.results
    if as_json:
        click.echo(json_report([(path, r) for r in results]), nl=False)
    else:
        lines = text_report(path, checked.scenario.model.name, results, brief=False, color=True)
        click.echo("\n".join(lines))
    sys.exit(_status(results))


@cli.command("explain")
@_allow_outside_option
@click.argument("path")
@_timeout_option
@_max_states_option(EXPLAIN_STATES)
def explain_cmd(path: str, allow_outside: bool, timeout: float | None, max_states: int) -> None:
    """Narrate the scenario step by step: the history, then the chain resolving.

    The narrative is the continuation in which nobody activates anything more; the other
    continuations are explored (within --max-states and --timeout, 10 s by default) and each
    other way the scenario can end is listed with the choices that lead there and how its end
    differs. Exit status 3 when a limit stopped that search before it found any.
    """
    scenario = load_scenario(path, allow_outside=allow_outside)
    prepared = prepare(scenario)
    actions = default_continuation(prepared)
    final, steps = replay(prepared.system, prepared.history.state, actions)
    click.echo(f"{printable(path)} ({scenario.model.name})")
    if scenario.description:
        click.echo(f"  {scenario.description}")
    click.echo("\n".join(narrative([*prepared.history.steps, *steps])))
    if any(a.heads is not None for a in actions):
        click.echo("  (coin tosses are shown succeeding; claims cover every outcome)")
    others = other_continuations(prepared, final, max_states, timeout or EXPLAIN_SECONDS)
    click.echo("\n".join(others_lines(others)))
    sys.exit(UNKNOWN if others.stopped and not others.count else OK)


@cli.command("explore")
@_allow_outside_option
@click.argument("path")
@click.option(
    "--graph", "graph_path", default=None, help="Write the state graph (.dot or .graphml)."
)
@_force_option
@_timeout_option
@_max_states_option()
@_quiet_option
def explore_cmd(
    path: str,
    graph_path: str | None,
    force: bool,
    timeout: float | None,
    max_states: int,
    allow_outside: bool,
    quiet: bool,
) -> None:
    """Explore every continuation of the scenario and report the state graph's size.

    Exit status 3 when a limit (--max-states, --timeout) stopped the exploration.
    """
    from verifier.designer.orders import stopped_reason
    from verifier.engines.explore import explore, reporter

    scenario = load_scenario(path, allow_outside=allow_outside)
    prepared = prepare(scenario)
    if graph_path is not None:
        if not graph_path.endswith((".dot", ".graphml")):
            raise InputError(f"unknown graph format for '{graph_path}' (use .dot or .graphml)")
        check_target(graph_path, force)
    line = _progress(quiet)
    try:
        result = explore(
            prepared.system,
            prepared.history.state,
            max_states,
            keep_edges=graph_path is not None,
            seconds=timeout,
            progress=reporter(_told(line)),
        )
    finally:
        _cleared(line)
    if result.stopped_by:
        note = f" (incomplete: {stopped_reason(result.stopped_by)})"
    elif not result.faithful:
        note = " (incomplete: some continuations exceed the state's capacities or deadlock)"
    else:
        note = ""
    click.echo(
        f"{printable(path)}: {result.states} states, {len(result.terminals)} final, "
        f"{result.seconds:.3f}s{note}"
    )
    if graph_path is not None:
        from verifier.report.graph import graph_bytes, state_graph

        graph = state_graph(prepared.system, result)
        write_output(graph_path, graph_bytes(graph, graph_path), force)
        click.echo(
            f"wrote {printable(graph_path)} ({graph.number_of_nodes()} nodes, "
            f"{graph.number_of_edges()} edges)"
        )
    sys.exit(UNKNOWN if result.stopped_by else OK)


@cli.command("lint")
@_allow_outside_option
@click.argument("model")
@click.argument("scenarios", nargs=-1)
@click.option("--witnesses", default=None, help="Write each finding's witness scenario here.")
@_force_option
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@_timeout_option
@_max_states_option(DEFAULT_LINT_STATES)
def lint_cmd(
    model: str,
    scenarios: tuple[str, ...],
    witnesses: str | None,
    force: bool,
    as_json: bool,
    timeout: float | None,
    max_states: int,
    allow_outside: bool,
) -> None:
    """Check the rule system MODEL (a name or a file) for ties, dead kinds, dead ends.

    Each finding names the parameter it concerns and comes with a minimal witness scenario;
    SCENARIO files are explored under MODEL too. Exit status 1 when there are findings, 3
    when there are none but a limit (--max-states, --timeout) stopped part of the check.
    """
    from verifier.designer.lint import as_json as lint_json
    from verifier.designer.lint import lint, witness_name
    from verifier.io.model import find_model

    path = find_model(model, Path.cwd(), Span("<model>", 1, 1, model)).path
    if witnesses is not None and Path(witnesses).is_symlink():
        raise InputError(f"'{witnesses}' is a symbolic link; refusing to write into it")
    report = lint(
        path, scenarios, max_states=max_states, seconds=timeout, allow_outside=allow_outside
    )
    folder = open_folder(witnesses) if witnesses is not None else None
    try:
        written: dict[int, str] = {}
        if folder is not None:
            assert witnesses is not None
            for index, finding in enumerate(report.findings, start=1):
                if finding.witness is not None:
                    name = witness_name(finding, index)
                    shown = str(Path(witnesses) / name)
                    write_output(name, finding.witness, force, folder=folder, shown=shown)
                    written[index] = shown
    finally:
        if folder is not None:
            os.close(folder)
    if as_json:
        click.echo(lint_json(report), nl=False)
    for index, finding in enumerate(report.findings, start=1):
        if as_json:
            continue
        click.echo(finding.render())
        line = finding.span.line_text()
        if line is not None:
            click.echo(f"    {line}\n    {' ' * (finding.span.col - 1)}^")
        if index in written:
            click.echo(f"    witness: {written[index]}")
        elif finding.witness is not None:
            click.echo("    (a witness scenario is written with --witnesses DIR)")
    if not as_json:
        for proof in report.proofs:
            click.echo(f"proved: {proof}")
        for note in report.incomplete:
            click.echo(f"incomplete: {note}")
        count = len(report.findings)
        if count:
            click.echo(f"{printable(path)}: {count} finding(s)")
        elif report.incomplete:
            click.echo(
                f"{printable(path)}: no finding, but the check is incomplete (a limit was reached)"
            )
        else:
            click.echo(f"{printable(path)}: clean")
    sys.exit(DIFFERS if report.findings else UNKNOWN if report.incomplete else OK)


@cli.command("diff")
@_allow_outside_option
@click.argument("model_a")
@click.argument("model_b")
@click.argument("scenarios", nargs=-1)
@click.option("--out", default=None, help="Write the generated distinguishing scenario here.")
@_force_option
@click.option(
    "--tries",
    type=_Count(MAX_TRIES),
    default=200,
    show_default=True,
    help="Generated scenarios to try.",
)
@_timeout_option
@click.option(
    "--max-states",
    type=_Count(MAX_STATES),
    default=None,
    help="States each exploration may visit [default: 500,000 per SCENARIO, "
    "50,000 per generated scenario].",
)
def diff_cmd(
    model_a: str,
    model_b: str,
    scenarios: tuple[str, ...],
    out: str | None,
    force: bool,
    tries: int,
    timeout: float | None,
    max_states: int | None,
    allow_outside: bool,
) -> None:
    """Find continuations legal under one model only, or ending differently.

    Each kind of difference is shown on its shortest distinguishing chain. With no SCENARIO,
    small generated scenarios are tried until one tells the models apart. Exit status 1 when
    a difference is found, 3 when none is but a limit (--max-states, --timeout) stopped an
    exploration.
    """
    from verifier.designer.diff import compare, search
    from verifier.io.model import find_model

    models = [find_model(m, Path.cwd(), Span("<model>", 1, 1, m)) for m in (model_a, model_b)]
    if out is not None:
        check_target(out, force)
    found_any = False
    cut_short = False
    if scenarios:
        for path in _scenario_files(scenarios):
            stopped: list[str] = []
            differences = compare(
                path,
                models[0],
                models[1],
                max_states=max_states or 500_000,
                seconds=timeout,
                stopped=stopped,
                allow_outside=allow_outside,
            )
            note = ""
            if stopped:
                cut_short = True
                note = (
                    f" (incomplete: a limit stopped the exploration under {', '.join(stopped)}; "
                    "--max-states, --timeout)"
                )
            click.echo(f"{printable(str(path))}: {len(differences) or 'no'} difference(s){note}")
            if differences:
                click.echo("\n".join(difference_lines(differences)))
            # A partial exploration can mistake an unexplored continuation for a difference.
            found_any = found_any or (bool(differences) and not stopped)
    else:
        passed_over: list[str] = []
        result = search(
            models[0],
            models[1],
            tries=tries,
            max_states=max_states or 50_000,
            seconds=timeout,
            stopped=passed_over,
        )
        if result is None:
            note = ""
            if passed_over:
                cut_short = True
                note = (
                    f" (incomplete: a limit stopped {len(passed_over)} of them; "
                    "--max-states, --timeout)"
                )
            click.echo(f"no difference found in {tries} generated scenarios{note}")
        else:
            text, differences = result
            found_any = True
            if out is not None:
                write_output(out, text, force)
                click.echo(f"wrote the distinguishing scenario to {printable(out)}")
            else:
                click.echo("a distinguishing scenario (write it with --out FILE):")
                click.echo(text, nl=False)
            click.echo("\n".join(difference_lines(differences)))
    sys.exit(DIFFERS if found_any else UNKNOWN if cut_short else OK)


@cli.command("orders")
@_allow_outside_option
@click.argument("path")
@_timeout_option
@_max_states_option(DEFAULT_ORDERS_STATES)
def orders_cmd(path: str, timeout: float | None, max_states: int, allow_outside: bool) -> None:
    """Which permitted orders of simultaneous triggers (SEGOC) lead to different outcomes.

    Exit status 1 when the order matters, 3 when a limit stopped the exploration before it
    could show that the order does not matter.
    """
    from verifier.designer.orders import segoc_orders

    scenario = load_scenario(path, allow_outside=allow_outside)
    prepared = prepare(scenario)
    found = segoc_orders(prepared, max_states=max_states, seconds=timeout)
    classes = found.classes
    incomplete = f" (incomplete: {found.stopped})" if found.stopped else ""
    if not classes:
        if found.stopped:
            click.echo(
                f"{printable(path)}: no simultaneous triggers went on a chain before the "
                f"exploration stopped{incomplete}"
            )
            sys.exit(UNKNOWN)
        click.echo(f"{printable(path)}: no simultaneous triggers go on a chain")
        sys.exit(OK)
    outcomes = {c.outcome for c in classes}
    sensitive = len(outcomes) > 1
    verdict = "sensitive" if sensitive else "insensitive"
    if found.stopped and not sensitive:
        verdict = "undecided"
    click.echo(
        f"{printable(path)}: {len(classes)} trigger order(s), {len(outcomes)} outcome(s): "
        f"{verdict}{incomplete}"
    )
    for entry in classes:
        click.echo(f"  {' > '.join(entry.order)}  ->  outcome {entry.outcome}")
        for line in entry.differs:
            click.echo(f"      {line}")
    # Two outcomes reached are a finding even in a partial exploration; one is not a proof.
    sys.exit(DIFFERS if sensitive else UNKNOWN if found.stopped else OK)


@cli.command("why")
@_allow_outside_option
@click.argument("path")
@click.argument("action")
@_timeout_option
def why_cmd(path: str, action: str, timeout: float | None, allow_outside: bool) -> None:
    """Say why ACTION ("B activates Book of Moon [targeting X]") can never happen.

    The SMT engine finds a minimal set of named rules that together forbid it on every
    continuation, or a continuation in which it does happen.
    """
    scenario = load_scenario(path, allow_outside=allow_outside)
    step = read_step(scenario, action)
    if step.verb != "activate" or step.ability is None or step.player is None:
        raise InputError(
            "why takes an activation, such as 'B activates Book of Moon'",
            Span("<action>", 1, 1, action),
        )
    prepared = prepare(scenario)
    answer = why_lines(
        prepared,
        step.player,
        frozenset({step.ability}),
        step.target,
        timeout,
        target2=step.target2,
    )
    click.echo("\n".join(answer.lines))
    sys.exit(OK if answer.complete else UNKNOWN)


@cli.command("sweep")
@_allow_outside_option
@click.argument("path")
@click.option(
    "--workers",
    type=_Count(MAX_WORKERS),
    default=None,
    help="Worker processes (default: every core; with local-cluster, its workers).",
)
@click.option(
    "--scheduler",
    default=None,
    help="Run on a Dask cluster: a scheduler's address (tcp://HOST:8786), or local-cluster.",
)
@click.option("--out", default=None, help="Write one row per instance and claim (.csv, .parquet).")
@click.option(
    "--cache",
    default=None,
    help="The cache folder (default: OUT.cache next to --out; no cache without either).",
)
@_force_option
@_engine_option
@_timeout_option
@_max_states_option()
@_quiet_option
def sweep_cmd(
    path: str,
    workers: int | None,
    scheduler: str | None,
    out: str | None,
    cache: str | None,
    force: bool,
    engine: str,
    timeout: float | None,
    max_states: int,
    allow_outside: bool,
    quiet: bool,
) -> None:
    """Decide a sweep (a *.sweep.yaml file): its claims for every choice of cards, under each
    of its models, on a process pool or a Dask cluster.

    Exit status 2 when an instance does not load, 3 when a verdict is unknown, 4 on an
    internal error in an instance; the other instances are decided all the same.
    """
    from verifier.sweep.command import Options, sweep_command
    from verifier.sweep.expand import Settings

    settings = Settings(engine, timeout, max_states)
    options = Options(workers, scheduler, out, cache, force, settings, allow_outside)
    sys.exit(sweep_command(path, options, quiet))


SERVE_EXTRA = "verifier serve needs the serve extra: pip install 'chain-verifier[serve]'"


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="The port."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Runs decided at once, each in a worker process (default: the CPUs, at most 4).",
)
@click.option(
    "--queue",
    "waiting",
    type=click.IntRange(0, 10_000),
    default=16,
    show_default=True,
    help="Runs that may wait for a worker; beyond them a run is answered `busy` (503).",
)
@click.option(
    "--timeout",
    type=_Seconds(),
    default=10.0,
    show_default=True,
    help="Seconds per engine for each claim before `unknown`.",
)
@_max_states_option()
@click.option(
    "--run-seconds",
    type=_Seconds(),
    default=60.0,
    show_default=True,
    help="The most one run may take in all; its worker is then stopped.",
)
def serve_cmd(
    host: str,
    port: int,
    workers: int | None,
    waiting: int,
    timeout: float,
    max_states: int,
    run_seconds: float,
) -> None:
    """Serve the web page: write a scenario, run it, share the question as a link.

    Scenarios name rule systems and card libraries by name only (no files); each run goes
    to a worker process with these limits, and nothing is written. Stop it with Ctrl-C.
    """
    import importlib.util

    if any(importlib.util.find_spec(m) is None for m in ("starlette", "uvicorn")):
        click.echo(f"error: {SERVE_EXTRA}", err=True)
        sys.exit(BAD_INPUT)
    from verifier.serve.app import Settings, serve
    from verifier.serve.worker import RunLimits

    # The server stops itself on Ctrl-C, its runs with it (not the checks' immediate exit).
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    limits = RunLimits(timeout, max_states, run_seconds, debug=_debug())
    count = workers if workers is not None else max(1, min(4, os.cpu_count() or 1))
    click.echo(f"verifier serve: http://{host}:{port}/ (Ctrl-C to stop)", err=True)
    serve(Settings(host, port, count, waiting, limits))


@cli.command("models")
def models_cmd() -> None:
    """List the rule systems, one line each."""
    from verifier.io.model import list_models

    for model in list_models():
        click.echo(f"{model.name:<28} {model.description}")


@cli.command("examples")
@click.argument("destination")
@click.option("--force", is_flag=True, help="Overwrite files that exist.")
def examples_cmd(destination: str, force: bool) -> None:
    """Copy the bundled examples and card libraries into DESTINATION.

    Then `verifier check DESTINATION` decides them all. An existing file is never
    overwritten without --force.
    """
    from verifier.io.examples import copy_examples

    files = copy_examples(destination, force)
    click.echo(f"wrote {len(files)} file(s) to {printable(destination)}", err=True)


@cli.command("schema")
@click.argument(
    "which", type=click.Choice(["scenario", "model", "library", "sweep"]), default="scenario"
)
def schema_cmd(which: str) -> None:
    """Print the JSON Schema of scenario, rule-system, card-library or sweep files."""
    from verifier.io.schema import json_schema

    if which == "sweep":
        from verifier.sweep.schema import sweep_schema

        click.echo(sweep_schema(), nl=False)
        return
    click.echo(json_schema(which), nl=False)  # type: ignore[arg-type]


_WAKEUP: list[socket.socket] = []


def _stop_at_once_on_interrupt() -> None:
    """Make Ctrl-C stop the program at once, even while the solver runs.

    Python runs its signal handlers between bytecodes, so a Ctrl-C that arrives while z3
    (or any long C call) works would wait for it to return, minutes perhaps. The signal is
    instead written to a socket that a watching thread reads: it prints one line and ends
    the process with status 130 whatever the main thread is doing.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:  # not the main thread of the main interpreter
        return
    _WAKEUP.append(writer)  # the socket must outlive this function
    signal.signal(signal.SIGINT, lambda signum, frame: None)

    def watch() -> None:
        while True:
            data = reader.recv(64)
            if not data:
                return
            if signal.SIGINT in data:
                with contextlib.suppress(OSError, ValueError, RuntimeError):
                    sys.stdout.flush()
                os.write(2, ("\r\x1b[K" if sys.stderr.isatty() else "").encode())
                os.write(2, (INTERRUPT_MESSAGE + "\n").encode())
                _stop_workers()
                os._exit(INTERRUPTED)

    threading.Thread(target=watch, name="interrupt", daemon=True).start()


def _stop_workers() -> None:
    """Stop the worker processes a sweep started, so that none goes on after the command
    (a worker busy in the solver would finish its job first)."""
    processes = sys.modules.get("multiprocessing")
    if processes is None:
        return
    with contextlib.suppress(Exception):
        for child in processes.active_children():
            child.kill()


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; errors become one located message and exit status 2."""
    if argv is None:
        _stop_at_once_on_interrupt()
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    try:
        cli.main(args=args, prog_name="verifier", standalone_mode=False)
    except VerifierError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(BAD_INPUT)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(BAD_INPUT)
    except (click.exceptions.Abort, KeyboardInterrupt):
        # Ctrl-C (click turns it into Abort): one line, and the shells' status for it.
        click.echo(INTERRUPT_MESSAGE, err=True)
        sys.exit(INTERRUPTED)
    except SystemExit:
        raise
    except Exception as exc:  # InternalError, or any other bug
        click.echo(_internal_message(exc), err=True)
        if debug:
            traceback.print_exc()
        else:
            click.echo("run with --debug to see the traceback", err=True)
        sys.exit(INTERNAL)
    sys.exit(OK)
