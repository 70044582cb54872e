"""The sweep file format (``*.sweep.yaml``), validated with the scenario formats' positions."""

from __future__ import annotations

import json
from typing import Annotated, Any, get_args

from pydantic import Field

from verifier.io.schema import (
    ConditionFile,
    Names,
    Speed,
    Strict,
    TriggerEvent,
    alias,
)

__all__ = [
    "CONDITIONS",
    "TRIGGER_EVENTS",
    "PlaceholderFile",
    "SweepClaimFile",
    "SweepFile",
    "sweep_schema",
]

_QUALIFIERS = frozenset({"by", "how", "includes", "would-destroy", "at-least"})
CONDITIONS = tuple(
    alias(name) for name in ConditionFile.model_fields if alias(name) not in _QUALIFIERS
)
"""The activation conditions a placeholder's ``condition`` filter may name."""
TRIGGER_EVENTS = tuple(get_args(TriggerEvent))
"""The trigger events a placeholder's ``trigger`` filter may name."""


class PlaceholderFile(Strict):
    """Which cards of the library a placeholder stands for: each filter given must fit."""

    kind: Names | None = Field(None, description="the card's kind, or one of a list of kinds")
    speed: Speed | list[Speed] | None = Field(
        None,
        description="a speed of the first model's (or a list): a card fits when one of its "
        "activations (the card, or a monster's effect) has it",
    )
    condition: str | list[str] | None = Field(
        None,
        description="an activation condition (activates, summoned, attack-declared, destroyed, "
        "...): the card, one of its modes or effects, is activated on it",
    )
    trigger: str | list[str] | None = Field(
        None, description="a trigger event: one of the card's trigger effects waits for it"
    )
    names: list[str] | None = Field(None, description="only these cards of the library")
    exclude: list[str] = Field(default_factory=list, description="never these cards")


class SweepClaimFile(Strict):
    """A claim decided for every instance, with its name in the results."""

    claim: str = Field(description="the claim; placeholders ({ANSWER}) are filled in")
    id: str | None = Field(None, description="its name in the results (default: claim-N)")


class SweepFile(Strict):
    """A sweep: a scenario template, the cards its placeholders take, claims and models."""

    sweep: str = Field(description="the question the sweep answers, in a sentence")
    library: str | list[str] = Field(
        description="card library files (*.cards.yaml) the placeholders draw from; every "
        "instance names them too"
    )
    placeholders: Annotated[dict[str, PlaceholderFile], Field(min_length=1, max_length=4)] = Field(
        description="each placeholder (a name in capitals, written {NAME} in the template) and "
        "the filters its cards must fit"
    )
    distinct: bool = Field(True, description="no card twice in one instance")
    unordered: bool = Field(
        False,
        description="one instance per set of cards: {X: Sangan, Y: Witch} and {X: Witch, "
        "Y: Sangan} are the same instance (for placeholders that play the same part)",
    )
    models: Annotated[list[str], Field(min_length=1, max_length=8)] = Field(
        description="the rule systems to compare: names or paths; every instance is decided "
        "under each"
    )
    scenario: dict[str, Any] = Field(
        description="the scenario template: a scenario without rules, library and claims, with "
        "{NAME} where a placeholder's card goes"
    )
    claims: Annotated[list[SweepClaimFile | str], Field(min_length=1, max_length=50)] = Field(
        description="the claims to decide for every instance"
    )


def sweep_schema() -> str:
    """The JSON Schema of sweep files, as formatted JSON (the template is any mapping: it is
    checked as a scenario when the sweep is loaded)."""
    schema = SweepFile.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
