"""The engines by name: ``--engine auto``, ``explore``, ``smt``.

Each engine module is imported when its engine is first asked for (so z3, the SMT engine's
solver, is loaded only by a run that uses it). This module stands above every engine; no
engine imports it.
"""

from __future__ import annotations

from collections.abc import Callable

from verifier.core.state import State
from verifier.engines.base import DEFAULT_STATE_LIMIT, Engine, Limits
from verifier.system import System

__all__ = ["EngineFactory", "engine_names", "make_engine", "register_engine"]

EngineFactory = Callable[[System, State, int, Limits], Engine]
"""Builds an engine for a system, its start state and the activations before it."""

_ENGINES: dict[str, Callable[[], EngineFactory]] = {}


def register_engine(name: str, factory: Callable[[], EngineFactory]) -> None:
    """Make an engine available by name; ``factory`` is called on first use (so an engine's
    heavy imports, z3 for one, happen only when it is asked for)."""
    _ENGINES[name] = factory


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def make_engine(
    name: str, system: System, start: State, start_activations: int, limits: Limits
) -> Engine:
    """The engine called ``name`` over ``system`` from ``start``."""
    if name not in _ENGINES:
        raise LookupError(f"no engine named {name!r} (engines: {', '.join(engine_names())})")
    return _ENGINES[name]()(system, start, start_activations, limits)


def _explorer() -> EngineFactory:
    from verifier.engines.explore import ExplorerEngine, reporter

    def make(system: System, start: State, activations: int, limits: Limits) -> Engine:
        return ExplorerEngine(
            system,
            start,
            activations,
            limits.max_states or DEFAULT_STATE_LIMIT,
            limits.seconds,
            progress=reporter(limits.progress),
            reduce=limits.reduce,
        )

    return make


def _auto() -> EngineFactory:
    from verifier.engines.auto import AutoEngine

    return AutoEngine


def _smt() -> EngineFactory:
    from verifier.engines.smt.engine import SmtEngine

    return SmtEngine.limited


register_engine("auto", _auto)
register_engine("explore", _explorer)
register_engine("smt", _smt)
