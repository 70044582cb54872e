"""The closed vocabularies of a rule system's parameters are one truth: each enum of
:mod:`verifier.spec.rulesystem` has exactly the values its file format accepts, and a loaded
rule system carries the enum's members, not bare strings."""

from __future__ import annotations

import itertools
from typing import Any, Literal, get_args, get_origin

import pytest

from verifier.io.model import list_models
from verifier.io.schema.rulesystem import (
    ChainFile,
    CombatFile,
    ResolutionFile,
    RuleSystemFile,
    TriggersFile,
)
from verifier.spec.rulesystem import ENUMS

WHERE = {
    "speed_from": (RuleSystemFile, "speed_from"),
    "respond": (ChainFile, "respond"),
    "right_to_respond": (ChainFile, "right_to_respond"),
    "closes_on": (ChainFile, "closes_on"),
    "failure": (ResolutionFile, "failure"),
    "cleanup": (RuleSystemFile, "cleanup"),
    "simultaneous": (TriggersFile, "simultaneous"),
    "missing_timing": (TriggersFile, "missing_timing"),
    "unactivatable": (TriggersFile, "unactivatable"),
    "resolution_mode": (ResolutionFile, "mode"),
    "card_zone": (ChainFile, "card_zone"),
    "hand_self_summons": (TriggersFile, "hand_self_summons"),
    "combat_damage": (CombatFile, "damage"),
}
"""Where each parameter is written in a rule-system file."""


def _literals(annotation: Any) -> set[str]:
    if get_origin(annotation) is Literal:
        return set(get_args(annotation))
    return {v for arg in get_args(annotation) for v in _literals(arg)}


def test_every_enum_has_its_place_in_the_format() -> None:
    assert set(WHERE) == set(ENUMS)


@pytest.mark.parametrize("name", sorted(ENUMS))
def test_the_format_accepts_exactly_the_enums_values(name: str) -> None:
    model, key = WHERE[name]
    accepted = _literals(model.model_fields[key].annotation)
    assert accepted == {member.value for member in ENUMS[name]}


def test_every_bundled_rule_system_carries_the_members() -> None:
    models = list_models()
    assert len(models) >= 3
    for model, (name, enum) in itertools.product(models, ENUMS.items()):
        value = getattr(model, name)
        assert value is None or type(value) is enum, (name, value)
