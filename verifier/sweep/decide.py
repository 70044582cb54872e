"""Deciding one instance under one model: what a worker process runs.

Whatever happens, the answer is a row per claim: an instance that does not load, or meets an
internal error, gives rows with the verdict ``error`` and the reason; a limit reached gives
``unknown`` and says which. A sweep never stops on one instance.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from verifier.errors import InternalError, VerifierError
from verifier.io.scenario import InMemory, load_scenario
from verifier.run.check import ClaimResult, check_scenario
from verifier.run.verdict import Verdict
from verifier.sweep.expand import Job

__all__ = ["ERROR", "WITNESS_CHARS", "Row", "decide_job", "quiet_worker"]

ERROR = "error"
"""The verdict of a row whose instance could not be decided at all (it did not load, or the
verifier met an internal error on it)."""
WITNESS_CHARS = 300
"""The most characters of a witness or counterexample a row keeps."""
_SHOWN_STEPS = frozenset({"activation", "summon", "trigger"})


@dataclass(frozen=True, slots=True)
class Row:
    """One claim of one instance under one model."""

    instance: int
    cards: tuple[str, ...]
    model: str
    claim_id: str
    claim: str
    verdict: str
    engine: str
    seconds: float
    witness: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["cards"] = list(self.cards)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Row:
        return cls(**{**data, "cards": tuple(data["cards"])})


def quiet_worker() -> None:
    """A worker process ends at once, without a traceback, on Ctrl-C (the terminal sends it
    to every process of the group; the command itself says it was stopped). It explores on
    one core: the pool has a worker a core already, so no explorer of it starts a helper
    process (``VERIFIER_CORES=1``, :mod:`verifier.engines.helper`)."""
    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(130))
    os.environ["VERIFIER_CORES"] = "1"


def _witness(result: ClaimResult) -> str:
    steps = [s.text for s in result.trace if not s.history and s.kind in _SHOWN_STEPS]
    if not steps:
        return ""
    text = f"{result.role}: " + "; ".join(steps) if result.role else "; ".join(steps)
    return text if len(text) <= WITNESS_CHARS else text[: WITNESS_CHARS - 1] + "…"


def _failed(job: Job, reason: str, began: float) -> tuple[Row, ...]:
    seconds = round(time.perf_counter() - began, 4)
    return tuple(
        Row(job.instance, job.cards, job.model, ident, text, ERROR, "", seconds, "", reason)
        for ident, text in job.claims
    )


def decide_job(job: Job) -> tuple[Row, ...]:
    """Decide every claim of ``job``; never raises for the instance's sake."""
    began = time.perf_counter()
    if job.problem:
        return _failed(job, f"does not load: {job.problem}", began)
    settings = job.settings
    try:
        # The sweep's own references were confined when it was loaded; an instance names
        # only those (the libraries' and a model file's absolute paths).
        scenario = load_scenario(InMemory(job.name, job.text, Path(job.folder)), allow_outside=True)
        results, _ = check_scenario(
            scenario, settings.engine, settings.timeout, settings.max_states
        )
    except VerifierError as exc:
        where = f" (line {exc.span.line} of the instance)" if exc.span is not None else ""
        return _failed(job, f"does not load: {exc.message}{where}", began)
    except Exception as exc:  # a bug, on this instance only: a row that says so
        message = exc.message if isinstance(exc, InternalError) else str(exc)
        return _failed(job, f"internal error: {type(exc).__name__}: {message}", began)
    return tuple(
        Row(
            job.instance,
            job.cards,
            job.model,
            ident,
            text,
            result.verdict.value,
            result.engine,
            round(result.seconds, 4),
            _witness(result),
            result.detail if result.verdict is Verdict.UNKNOWN else "",
        )
        for (ident, text), result in zip(job.claims, results, strict=True)
    )
