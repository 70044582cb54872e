"""Proves or refutes rulings about card-game chains with two independent engines.

The Python API (see the README's "Python API"): :func:`check` decides every claim of a
scenario, :func:`ask` one claim; both answer with frozen :class:`Result` records and raise
:class:`VerifierError` (with ``path``, ``line``, ``col``, ``message``) for bad input.
"""

from verifier.api import Result, Source, ask, check
from verifier.errors import (
    ClaimError,
    InputError,
    InternalError,
    ModelError,
    ScenarioError,
    VerifierError,
)
from verifier.io.scenario import InMemory
from verifier.run.verdict import Verdict
from verifier.trace.narrate import TraceStep
from verifier.version import __version__

__all__ = [
    "ClaimError",
    "InMemory",
    "InputError",
    "InternalError",
    "ModelError",
    "Result",
    "ScenarioError",
    "Source",
    "TraceStep",
    "Verdict",
    "VerifierError",
    "__version__",
    "ask",
    "check",
]
