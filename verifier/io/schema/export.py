"""The JSON Schemas of the formats, for editors and other tools."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel

from verifier.games import games
from verifier.io.schema.rulesystem import RuleSystemFile
from verifier.io.schema.scenario import LibraryFile, ScenarioFile


def json_schema(which: Literal["scenario", "model", "library"] = "scenario") -> str:
    """The JSON Schema of scenario, rule-system or library files, as formatted JSON."""
    model: type[BaseModel] = ScenarioFile
    if which == "model":
        model = RuleSystemFile
    elif which == "library":
        model = LibraryFile
    schema = model.model_json_schema(by_alias=True)
    if which == "model":
        # Any registered game: the bundled ones, and those a program registers.
        game = schema["properties"]["game"]
        game.pop("pattern", None)
        game["enum"] = [g.name for g in games()]
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
