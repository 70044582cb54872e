"""The file formats, as pydantic models: they validate input and generate the JSON Schemas.

Only the structure lives here (keys, types, closed vocabularies). Names that refer to other
things (cards, players, kinds of the chosen rule system) are resolved by the loaders, which
know the rule system and report the place of every unknown name.

The formats by section: :mod:`.base` (what every format shares), :mod:`.rulesystem`,
:mod:`.cards`, :mod:`.scenario` (and libraries), :mod:`.validation`, :mod:`.export` (the
JSON Schemas).
"""

from verifier.io.schema.base import Names, Speed, Strict, alias
from verifier.io.schema.cards import (
    AbilityFile,
    CardFile,
    ConditionFile,
    ContinuousFile,
    CostFile,
    EffectFile,
    FilterFile,
    ModeFile,
    TriggerEvent,
    TriggerFile,
    conditions,
    refresh_effects,
)
from verifier.io.schema.export import json_schema
from verifier.io.schema.rulesystem import ChainFile, KindFile, RuleSystemFile
from verifier.io.schema.scenario import LibraryFile, LimitsFile, ScenarioFile
from verifier.io.schema.validation import validate

__all__ = [
    "AbilityFile",
    "CardFile",
    "ChainFile",
    "ConditionFile",
    "ContinuousFile",
    "CostFile",
    "EffectFile",
    "FilterFile",
    "KindFile",
    "LibraryFile",
    "LimitsFile",
    "ModeFile",
    "Names",
    "RuleSystemFile",
    "ScenarioFile",
    "Speed",
    "Strict",
    "TriggerEvent",
    "TriggerFile",
    "alias",
    "conditions",
    "json_schema",
    "refresh_effects",
    "validate",
]
