"""Witnesses and counterexamples as ITF traces (Apalache's Informal Trace Format, ADR-015),
so that the tools of that ecosystem (Quint, the ITF trace viewer, itf-py, itf-rs) open them.

A trace is one JSON object: ``#meta`` (the format, the scenario, the claim, its verdict, and a
legend of what the numbers mean), ``vars`` (the state's fields) and ``states``, one per state
the continuation passes through, from the scenario's initial state through its history to the
end. Each state holds every field of the state vector under its own name (``zone``, ``ctrl``,
``clen``, ...; ``verifier/core/state.py``): a field per card, ability or player is a map
(``#map``) keyed by the card's name, the ability's label, the player's name; a field per
chain-link slot or log entry is a list; integers are ``#bigint``; ``mbt::actionTaken``
names the action that led to the state (``init`` for the first), as Quint's traces do; and
the state's ``#meta`` holds the narrative of that action (the steps ``--json`` shows).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from enum import IntEnum
from pathlib import Path
from typing import Any

from verifier.core.state import Capacity, Mode, Outcome, Window
from verifier.io.output import open_folder, write_output
from verifier.run.check import ClaimResult
from verifier.spec.cards import Zone
from verifier.system import System
from verifier.trace.run import Run

__all__ = ["ACTION_TAKEN", "FORMAT_DESCRIPTION", "itf_trace", "traced", "write_itf"]

FORMAT_DESCRIPTION = "https://apalache-mc.org/docs/adr/015adr-trace.html"
ACTION_TAKEN = "mbt::actionTaken"
"""The variable Quint's traces use for the action that led to a state."""

_ENUMS: dict[str, type[IntEnum]] = {
    "zone": Zone,
    "mode": Mode,
    "window": Window,
    "r_out": Outcome,
    "overflow": Capacity,
}


def _int(value: int) -> dict[str, str]:
    return {"#bigint": str(value)}


def _value(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _int(value)
    raise TypeError(f"a state value of type {type(value).__name__}")  # a bug: states hold ints


def _unique(labels: Sequence[str]) -> list[str]:
    """The labels, a repeated one numbered (``X #2``), so that they can key a map."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


def _keys(system: System) -> dict[str, list[str]]:
    w = system.world
    return {
        "card": _unique([c.name for c in w.cards]),
        "ability": _unique([a.label for a in w.abilities]),
        "player": list(w.scenario.players),
    }


def _legend(system: System, keys: dict[str, list[str]]) -> dict[str, Any]:
    """What the numbers of the state mean: the enumerations, and the cards, abilities and
    players by index (fields such as ``lcard``, ``ltg``, ``a_ab`` hold indices; -1 is none)."""
    legend: dict[str, Any] = {
        name: {str(int(member)): member.name.lower() for member in enum}
        for name, enum in _ENUMS.items()
    }
    legend["cards"] = keys["card"]
    legend["abilities"] = keys["ability"]
    legend["players"] = keys["player"]
    if system.world.steps:
        legend["steps"] = list(system.world.steps)
    legend["speeds"] = list(system.world.model.speeds)
    return legend


def itf_trace(run: Run, meta: dict[str, Any]) -> dict[str, Any]:
    """The ITF object of ``run``; ``meta`` is added to its ``#meta`` (source, claim, ...)."""
    system = run.system
    keys = _keys(system)
    fields = system.layout.fields
    names = [f.name for f in fields]
    states = []
    for index, step in enumerate(run.steps()):
        state: dict[str, Any] = {
            "#meta": {
                "index": index,
                "history": step.history,
                "narrative": [told.to_json() for told in step.told],
            }
        }
        for f, value in zip(fields, step.state, strict=True):
            if f.over is None:
                state[f.name] = _value(value)
            elif f.over in keys:
                state[f.name] = {
                    "#map": [[k, _value(v)] for k, v in zip(keys[f.over], value, strict=True)]
                }
            else:
                state[f.name] = [_value(v) for v in value]
        state[ACTION_TAKEN] = step.action
        states.append(state)
    head = {
        "format": "ITF",
        "format-description": FORMAT_DESCRIPTION,
        **meta,
        "legend": _legend(system, keys),
    }
    return {"#meta": head, "vars": [*names, ACTION_TAKEN], "states": states}


def traced(r: ClaimResult) -> Iterator[tuple[str, ClaimResult]]:
    """The witnesses and counterexamples of a result: ``("", r)`` for its own, and
    ``(engine, side)`` for each side of a disagreement that has one."""
    if r.disagreement is not None:
        for side in r.disagreement:
            if _has_trace(side):
                yield side.engine.split(":")[0], side
    elif _has_trace(r):
        yield "", r


def _has_trace(r: ClaimResult) -> bool:
    return r.run is not None and r.role in {"witness", "counterexample"}


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _safe(text: str) -> str:
    return _UNSAFE.sub("-", text).strip("-.") or "claim"


def file_name(scenario: str, ident: str, engine: str, taken: set[str]) -> str:
    """``STEM.CLAIM-ID[.ENGINE].itf.json``; the scenario's folder is added, then a number,
    when two scenarios of a run share a name."""
    path = Path(scenario)
    tail = f"{_safe(ident)}{'.' + _safe(engine) if engine else ''}.itf.json"
    candidates = [f"{_safe(path.stem)}.{tail}"]
    if path.parent.name:
        candidates.append(f"{_safe(path.parent.name)}-{_safe(path.stem)}.{tail}")
    candidates.extend(f"{_safe(path.stem)}-{n}.{tail}" for n in range(2, 10_000))
    name = next(c for c in candidates if c not in taken)
    taken.add(name)
    return name


def write_itf(
    folder: str, results: Sequence[tuple[str, ClaimResult]], force: bool, model: dict[str, str]
) -> list[str]:
    """Write one ITF file per witness or counterexample of ``results`` (``(file, result)``)
    into ``folder`` (created if missing); ``model`` maps a file to its rule system's name.
    An existing file is not overwritten without ``force``. Returns the paths written."""
    taken: set[str] = set()
    written = []
    descriptor = open_folder(folder)
    try:
        for scenario, result in results:
            for engine, side in traced(result):
                assert side.run is not None
                name = file_name(scenario, result.id, engine, taken)
                meta = {
                    "source": scenario,
                    "rules": model.get(scenario, ""),
                    "description": f"{side.role} of {result.id}: {result.claim}",
                    "claim": result.claim,
                    "id": result.id,
                    "verdict": side.verdict.value,
                    "expected": result.expected,
                    "role": side.role,
                    "engine": side.engine,
                }
                if result.variant:
                    meta["variant"] = result.variant
                text = json.dumps(itf_trace(side.run, meta), indent=1) + "\n"
                shown = str(Path(folder) / name)
                write_output(name, text, force, folder=descriptor, shown=shown)
                written.append(shown)
    finally:
        os.close(descriptor)
    return written
