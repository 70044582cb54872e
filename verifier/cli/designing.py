"""The designer's commands: ``lint``, ``diff``, ``orders``, ``why``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from verifier.cli.common import (
    DIFFERS,
    MAX_TRIES,
    OK,
    UNKNOWN,
    Count,
    allow_outside_option,
    cli,
    force_option,
    max_states_option,
    scenario_files,
    timeout_option,
)
from verifier.designer.lint import DEFAULT_LINT_STATES
from verifier.designer.orders import DEFAULT_ORDERS_STATES
from verifier.engines.base import MAX_STATES
from verifier.errors import InputError, Span, printable
from verifier.io.output import check_target, open_folder, write_output
from verifier.io.scenario import load_scenario, read_step
from verifier.report.reasons import why_lines
from verifier.report.text import (
    difference_lines,
)
from verifier.run.check import prepare


@cli.command("lint")
@allow_outside_option
@click.argument("model")
@click.argument("scenarios", nargs=-1)
@click.option("--witnesses", default=None, help="Write each finding's witness scenario here.")
@force_option
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
@timeout_option
@max_states_option(DEFAULT_LINT_STATES)
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
@allow_outside_option
@click.argument("model_a")
@click.argument("model_b")
@click.argument("scenarios", nargs=-1)
@click.option("--out", default=None, help="Write the generated distinguishing scenario here.")
@force_option
@click.option(
    "--tries",
    type=Count(MAX_TRIES),
    default=200,
    show_default=True,
    help="Generated scenarios to try.",
)
@timeout_option
@click.option(
    "--max-states",
    type=Count(MAX_STATES),
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
        for path in scenario_files(scenarios):
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
@allow_outside_option
@click.argument("path")
@timeout_option
@max_states_option(DEFAULT_ORDERS_STATES)
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
@allow_outside_option
@click.argument("path")
@click.argument("action")
@timeout_option
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
