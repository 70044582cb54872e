"""The file formats: the published JSON Schema, rule-system loading, card libraries."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import EXAMPLES, MODELS, SCENARIOS, Run
from verifier.errors import ModelError
from verifier.io.model import load_model
from verifier.io.scenario import load_scenario
from verifier.io.schema import json_schema
from verifier.io.source import load_document

SCHEMA = EXAMPLES / "scenario.schema.json"


@functools.cache
def validator() -> jsonschema.protocols.Validator:
    """The published schema's validator, checked against its metaschema once (not once per
    file, as ``jsonschema.validate`` would)."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_published_schema_is_generated_from_the_definitions() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == json_schema("scenario")


@pytest.mark.parametrize(
    "path",
    SCENARIOS,
    ids=lambda p: p.stem,
)
def test_examples_validate_against_the_schema(path: Path) -> None:
    validator().validate(load_document(path).data)


def test_the_schema_rejects_unknown_keys() -> None:
    with pytest.raises(jsonschema.ValidationError):
        validator().validate({"rules": "yugioh", "turn": "A", "cards": {}, "colour": 1})


@pytest.mark.parametrize("path", sorted(MODELS.glob("*.yaml")), ids=lambda p: p.stem)
def test_shipped_models_load(path: Path) -> None:
    model = load_model(path)
    assert model.name == path.stem
    assert model.description


def test_models_command_lists_each_model_once(run: Callable[..., Run]) -> None:
    result = run("models")
    names = [line.split()[0] for line in result.out.splitlines()]
    assert names == sorted(p.stem for p in MODELS.glob("*.yaml"))


MODEL = (MODELS / "yugioh.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("respond: at-least-previous", "respond: faster"), "unknown value 'faster' for 'respond'"),
        (
            ("min_response: 2", "min_response: 4"),
            "unknown speed '4' (this rule system has 1, 2, 3)",
        ),
        (
            ("right_to_respond: other-player-first", "right_to_respond: anyone"),
            "closes_on 'two-passes-in-a-row' needs right_to_respond 'other-player-first'",
        ),
        (("  order: backwards", "  order: backward"), "unknown value 'backward' for 'order'"),
        (("speed_from: kind", "speed_from: kind\ncolour: red"), "unknown key 'colour'"),
    ],
)
def test_bad_models_are_located_errors(
    write: Callable[[str, str], Path], change: tuple[str, str], message: str
) -> None:
    path = write("m.yaml", MODEL.replace(*change))
    with pytest.raises(ModelError) as raised:
        load_model(path)
    assert raised.value.message.startswith(message)
    assert raised.value.span is not None and raised.value.span.line > 1


def test_library_cards_are_shared_and_overridden(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    write(
        "shared.cards.yaml",
        "cards:\n"
        "  Raigeki: {kind: normal-spell, effect: {destroy: all-monsters, of: opponent}}\n"
        "  Kuriboh: {kind: normal-monster}\n",
    )
    path = write(
        "s.yaml",
        "rules: yugioh\nturn: A\nlibrary: shared.cards.yaml\ncards:\n"
        "  Raigeki: {controller: A, zone: hand}\n"
        "  Kuriboh: {controller: B}\n"
        "  Second Kuriboh: {card: Kuriboh, controller: B}\n"
        "history: [A activates Raigeki]\n"
        "claims:\n"
        '  - {claim: zone("Kuriboh") == graveyard and zone("Second Kuriboh") == graveyard, expect: holds}\n',
    )
    result = run("check", str(path))
    assert result.code == 0, result.out + result.err


def test_a_condition_lists_monster_effects_with_card_types(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        "rules: yugioh\nturn: A\ncards:\n"
        "  Breaker: {kind: counter-trap, controller: B, set: earlier-turn, "
        "when: {activates: [spell, monster-effect], by: opponent}, effect: {negate: activation}}\n",
        encoding="utf-8",
    )
    [condition] = [a.condition for a in load_scenario(path).abilities if a.condition]
    assert condition.types == frozenset({"spell", "monster"})


@pytest.mark.parametrize("which", ["scenario", "model", "library"])
def test_every_key_of_the_formats_has_a_description(which: str) -> None:
    # Editors show a key's description as its help: every key of every format has one.
    schema = json.loads(json_schema(which))  # type: ignore[arg-type]
    nodes = {"the file": schema, **schema.get("$defs", {})}
    missing = [
        f"{name}.{key}"
        for name, node in nodes.items()
        for key, prop in node.get("properties", {}).items()
        if "description" not in prop
    ]
    assert missing == []
