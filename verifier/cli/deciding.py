"""The commands that decide claims: ``check``, ``ask``, ``explain``, ``explore``."""

from __future__ import annotations

import os
import sys

import click

from verifier.api import Options, decide, decide_claim
from verifier.cli.common import (
    BAD_INPUT,
    OK,
    UNKNOWN,
    allow_outside_option,
    cleared,
    cli,
    color_option,
    engine_option,
    exit_status,
    file_error,
    force_option,
    internal_message,
    max_states_option,
    progress,
    quiet_option,
    reduce_option,
    report_internal,
    scenario_files,
    timeout_option,
    told,
)
from verifier.errors import InputError, VerifierError, printable
from verifier.io.output import check_target, open_folder, write_output
from verifier.io.scenario import load_scenario
from verifier.report.html import FileSection, html_report
from verifier.report.text import (
    FileError,
    json_report,
    narrative,
    others_lines,
    summary_line,
    text_report,
)
from verifier.run.alternatives import EXPLAIN_SECONDS, EXPLAIN_STATES, other_continuations
from verifier.run.check import ClaimResult, default_continuation, prepare
from verifier.trace.narrate import replay


@cli.command("check")
@allow_outside_option
@click.argument("paths", nargs=-1, required=True)
@engine_option
@timeout_option
@max_states_option()
@reduce_option
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
@force_option
@color_option
@quiet_option
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
    files = list(scenario_files(paths))
    if not files:
        empty = InputError(f"no scenario files in {' '.join(paths)}")
        if as_json:
            click.echo(empty.render(), err=True)
            click.echo(json_report([], [file_error(" ".join(paths), empty)]), nl=False)
            sys.exit(BAD_INPUT)
        raise empty
    refused = _refused_output(itf_dir, junit_path, html_path, force)
    if refused is not None:
        target, exc = refused
        if not as_json:
            raise exc
        click.echo(exc.render(), err=True)
        click.echo(json_report([], [file_error(target, exc)]), nl=False)
        sys.exit(BAD_INPUT)
    sections: list[FileSection] = []
    line = progress(quiet)
    options = Options(
        engine, timeout, max_states, explain, allow_outside, told(line), reduce=not no_reduce
    )
    for path in files:
        try:
            checked = decide(path, options)
            cleared(line)
        except VerifierError as exc:
            cleared(line)
            click.echo(exc.render(), err=True)
            failed.append(file_error(str(path), exc))
            continue
        except Exception as exc:  # a bug, or InternalError: this file only
            cleared(line)
            report_internal(exc, str(path))
            failed.append(FileError(str(path), internal_message(exc), kind="internal"))
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
    status = exit_status(
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
            unwritten.append(file_error(itf_dir, exc))
    if junit_path is not None:
        from verifier.report.junit import junit_xml

        try:
            write_output(junit_path, junit_xml(collected, failed, models, files), force)
            click.echo(f"wrote {printable(junit_path)}", err=True)
        except VerifierError as exc:
            click.echo(exc.render(), err=True)
            unwritten.append(file_error(junit_path, exc))
    html_path, sections = html
    if html_path is not None:
        try:
            write_output(html_path, html_report(sections, failed, len(files)), force)
            click.echo(f"wrote {printable(html_path)}", err=True)
        except VerifierError as exc:
            click.echo(exc.render(), err=True)
            unwritten.append(file_error(html_path, exc))
    return unwritten


@cli.command("ask")
@allow_outside_option
@click.argument("path")
@click.argument("claim")
@engine_option
@timeout_option
@max_states_option()
@reduce_option
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--explain", is_flag=True, help="Name the rules that forbid what the claim asks.")
@color_option
@quiet_option
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
    line = progress(quiet)
    try:
        options = Options(
            engine, timeout, max_states, explain, allow_outside, told(line), not no_reduce
        )
        checked = decide_claim(path, claim, options)
    except VerifierError as exc:
        if not as_json:
            raise
        click.echo(exc.render(), err=True)
        click.echo(json_report([], [file_error(path, exc)]), nl=False)
        sys.exit(BAD_INPUT)
    finally:
        cleared(line)
    results = checked.results
    if as_json:
        click.echo(json_report([(path, r) for r in results]), nl=False)
    else:
        lines = text_report(path, checked.scenario.model.name, results, brief=False, color=True)
        click.echo("\n".join(lines))
    sys.exit(exit_status(results))


@cli.command("explain")
@allow_outside_option
@click.argument("path")
@timeout_option
@max_states_option(EXPLAIN_STATES)
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
@allow_outside_option
@click.argument("path")
@click.option(
    "--graph", "graph_path", default=None, help="Write the state graph (.dot or .graphml)."
)
@force_option
@timeout_option
@max_states_option()
@quiet_option
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
    line = progress(quiet)
    try:
        result = explore(
            prepared.system,
            prepared.history.state,
            max_states,
            keep_edges=graph_path is not None,
            seconds=timeout,
            progress=reporter(told(line)),
        )
    finally:
        cleared(line)
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
