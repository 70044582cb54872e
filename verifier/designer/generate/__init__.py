"""Small random scenarios and claims, for cross-checking the engines and comparing models.

Generation is driven by a :class:`Chooser`, so the same code serves hypothesis (which can
shrink a failing case) and a seeded ``random.Random`` (for ``verifier diff``'s search).
Scenarios come out as plain data, written as JSON, which every YAML loader reads.

The generator reaches every key and value range the formats accept: Life Points from 1 to
the schema's bound (odd values, values next to powers of two), every effect verb on every
object, every cost, condition, trigger event and continuous effect, speed modifiers, other
players' names, phases, and histories of several steps. Histories are built by walking legal
actions (each step is checked by loading the scenario with it), so they are always legal.
"""

from __future__ import annotations

from verifier.designer.generate.cards import YUGIOH_SPELLS_TRAPS
from verifier.designer.generate.chooser import (
    CLAIM_CONSTANTS,
    COMPARISONS,
    COUNTS,
    LP_AMOUNTS,
    LP_VALUES,
    Chooser,
    RandomChooser,
)
from verifier.designer.generate.claims import Claim, claim, claim_text, claims_for, to_text
from verifier.designer.generate.scenarios import scenario

__all__ = [
    "CLAIM_CONSTANTS",
    "COMPARISONS",
    "COUNTS",
    "LP_AMOUNTS",
    "LP_VALUES",
    "YUGIOH_SPELLS_TRAPS",
    "Chooser",
    "Claim",
    "RandomChooser",
    "claim",
    "claim_text",
    "claims_for",
    "scenario",
    "to_text",
]
