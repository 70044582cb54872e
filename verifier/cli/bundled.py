"""What the package ships: ``models``, ``examples``, ``schema``."""

from __future__ import annotations

import click

from verifier.cli.common import (
    cli,
)
from verifier.errors import printable


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
