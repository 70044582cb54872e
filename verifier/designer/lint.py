"""``verifier lint``: is a rule system sound? Findings with a severity, the parameter they
concern, and a minimal witness scenario.

- ``resolution.tie`` (error): two links whose order no key of a keyed resolution order
  decides; when there is none, the order is proved total and asymmetric with z3.
- ``kind.never-activated`` (warning): a kind whose cards can never be activated.
- ``kind.never-answered`` (warning): a kind that no card of any kind can answer.
- ``speed.unused`` (warning): a speed that no kind has.
- ``parameter.unused`` (warning): a parameter that the selected primitives never read (or a
  Damage Step allowance for a speed the rule system lacks).
- ``chain.unbounded`` (error): a continuation that goes on past every capacity.
- ``state.deadlock`` (error): a state, not final, in which nobody can do anything.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from verifier.core.state import READ
from verifier.designer.orders import stopped_reason
from verifier.designer.probes import activatable_kinds, answer_probe, card, probe_text, start_probe
from verifier.engines.explore import explore
from verifier.engines.smt.order import prove_order
from verifier.errors import InputError, Span, VerifierError
from verifier.io.model import load_model
from verifier.io.scenario import InMemory, load_scenario
from verifier.run.check import prepare
from verifier.spec.rulesystem import RuleSystem, SpeedFrom
from verifier.trace.narrate import replay

__all__ = ["Finding", "lint"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a rule system gets wrong, or leaves unused."""

    code: str
    severity: str
    parameter: str
    message: str
    span: Span
    witness: str | None = None
    proof: str = ""

    def render(self) -> str:
        return f"{self.span}: {self.severity}: [{self.code}] {self.message}"


@dataclass(frozen=True, slots=True)
class Report:
    findings: list[Finding]
    proofs: list[str]
    # What a limit (states, seconds) stopped before it was decided; empty when lint is complete.
    incomplete: list[str] = field(default_factory=list)


DEFAULT_LINT_STATES = 200_000


def lint(
    model_path: str | Path,
    scenarios: Sequence[str | Path] = (),
    max_states: int = DEFAULT_LINT_STATES,
    seconds: float | None = None,
    allow_outside: bool = False,
) -> Report:
    """Lint the rule system in ``model_path``, exploring ``scenarios`` under it too.

    ``max_states`` bounds each exploration, ``seconds`` each exploration and solver call;
    what a limit stopped is listed in :attr:`Report.incomplete`, never passed off as clean.
    """
    model = load_model(model_path)
    findings: list[Finding] = []
    proofs: list[str] = []
    incomplete: list[str] = []
    findings += _unused(model)
    tie, proof = _tie(model, seconds, incomplete)
    findings += tie
    if proof:
        proofs.append(proof)
    for kind_name, path, purpose in _probes(model):
        findings += _probe(model, kind_name, path, purpose, max_states, seconds, incomplete)
    for given in scenarios:
        where = Path(given)
        text = _read(where)
        findings += _runs(
            model, where, text, max_states, seconds, incomplete, allow_outside=allow_outside
        )
    return Report(findings, proofs, incomplete)


def _read(path: Path) -> str:
    """A scenario's text; a file that cannot be read is bad input, not a bug."""
    if not path.is_file():
        raise InputError(f"no such file: {path}", Span(str(path), 1, 1))
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise InputError(f"cannot read {path}: {reason}", Span(str(path), 1, 1)) from None


def _finding(
    model: RuleSystem,
    code: str,
    severity: str,
    parameter: str,
    message: str,
    witness: str | None = None,
) -> Finding:
    return Finding(code, severity, parameter, message, model.span(parameter), witness)


# -- parameters --------------------------------------------------------------------------------


def _unused(model: RuleSystem) -> list[Finding]:
    out = []
    if model.speed_from == SpeedFrom.KIND:
        used = {k.speed for k in model.kinds.values() if k.speed is not None}
        for rank, name in enumerate(model.speeds):
            if rank not in used:
                out.append(
                    _finding(
                        model,
                        "speed.unused",
                        "warning",
                        "speeds",
                        f"no kind has speed {name}, so nothing can ever be activated at it",
                    )
                )
    spans = model.spans
    if model.immediate:
        for parameter in ("chain", "resolution.instant"):
            if parameter in spans:
                out.append(
                    _finding(
                        model,
                        "parameter.unused",
                        "warning",
                        parameter,
                        f"'{parameter}' is never read: order 'immediate' builds no chain",
                    )
                )
    if model.battle and len(model.speeds) < 3:
        for parameter, listed in (
            ("battle.damage_step", model.damage_step),
            ("battle.damage_calculation", model.damage_calculation),
            ("battle.after_damage_calculation", model.after_damage_calculation),
        ):
            if "spell-speed-3" in listed:
                out.append(
                    _finding(
                        model,
                        "parameter.unused",
                        "warning",
                        parameter,
                        f"'{parameter}' lets Spell Speed 3 through, but the rule system has "
                        "fewer than three speeds",
                    )
                )
    has_triggers = any(k.trigger for k in model.kinds.values())
    if "triggers" in spans and not has_triggers:
        out.append(
            _finding(
                model,
                "parameter.unused",
                "warning",
                "triggers",
                "'triggers' is never read: no kind is a trigger",
            )
        )
    return out


# -- the resolution order ---------------------------------------------------------------------


def _tie(
    model: RuleSystem, seconds: float | None, incomplete: list[str]
) -> tuple[list[Finding], str]:
    if model.immediate:
        return [], ""
    if model.order == ("backwards",):
        return [], "resolution order 'backwards' is total: one link is always the last added"
    kinds = activatable_kinds(model)
    if not kinds:
        return [], ""
    cards = {
        "First": card(model, kinds[0], "A", False),
        "Second": card(model, kinds[0], "A", False),
    }
    probe = InMemory("order.yaml", probe_text(model, {"turn": "A", "cards": cards}))
    system = prepare(load_scenario(probe, model=model)).system
    if system.layout.slots < 2:
        return [], ""
    proof = prove_order(system, seconds)
    order = ", ".join(model.order)
    if proof.outcome == "unknown":
        incomplete.append(f"the resolution order [{order}]: the solver ran out of time")
        return [], ""
    if proof.outcome == "tie":
        (s0, s1), (p0, p1) = proof.speeds, proof.players
        witness = _tie_witness(model, kinds[0].name, (s0, s1), (p0, p1))
        who = "the same player" if p0 == p1 else "different players"
        message = (
            f"order [{order}] leaves two links tied: speeds {model.speeds[s0]} and "
            f"{model.speeds[s1]}, added by {who}; either may resolve first"
        )
        return [
            _finding(model, "resolution.tie", "error", "resolution.order", message, witness)
        ], ""
    if proof.outcome == "both":
        message = f"order [{order}] puts two links each before the other"
        return [_finding(model, "resolution.tie", "error", "resolution.order", message)], ""
    return [], f"resolution order [{order}] is total and asymmetric (proved with z3)"


def _tie_witness(
    model: RuleSystem, kind: str, speeds: tuple[int, int], players: tuple[int, int]
) -> str:
    names = ("A", "B")
    cards = {}
    history = []
    for i, label in enumerate(("First", "Second")):
        entry = card(model, model.kinds[kind], names[players[i]], players[i] == 1)
        if "speed" in entry:
            entry["speed"] = model.speeds[speeds[i]]
        elif "ability" in entry:
            entry["ability"]["speed"] = model.speeds[speeds[i]]
        cards[label] = entry
        history.append(f"{names[players[i]]} activates {label}")
    claims = [
        {"claim": 'exists resolution_order == ["First", "Second"]', "expect": "holds"},
        {"claim": 'exists resolution_order == ["Second", "First"]', "expect": "holds"},
    ]
    return probe_text(model, {"turn": "A", "cards": cards, "history": history, "claims": claims})


# -- kinds, probed --------------------------------------------------------------------------


def _probes(model: RuleSystem) -> Iterator[tuple[str, InMemory, str]]:
    for kind in activatable_kinds(model):
        probes = [("start", start_probe(model, kind))]
        if not model.immediate:
            # Under an immediate order nothing is ever answered: there is no chain.
            probes.append(("answer", answer_probe(model, kind)))
        for purpose, text in probes:
            yield kind.name, InMemory(f"{purpose}-{kind.name}.yaml", text), purpose


def _probe(
    model: RuleSystem,
    kind: str,
    probe: InMemory,
    purpose: str,
    max_states: int,
    seconds: float | None,
    incomplete: list[str],
) -> list[Finding]:
    text, path = probe.text, Path(probe.name)
    try:
        prepared = prepare(load_scenario(probe, model=model))
    except VerifierError:
        # The probe's own history is illegal: the kind cannot start a chain (reported by
        # the start probe).
        return []
    from verifier.run.check import check

    [claim] = prepared.scenario.claims
    [result] = check(
        prepared,
        [(claim.id, claim.text, claim.formula, claim.expect)],
        "explore",
        seconds,
        max_states,
    )
    out = list(_runs(model, path, text, max_states, seconds, incomplete, prepared=prepared))
    stopped = result.verdict.value == "unknown" and "--" in result.detail  # a limit's option
    if stopped and not any(n.startswith(f"probe {path.name}:") for n in incomplete):
        incomplete.append(f"probe {path.name}: {result.detail}")
    if result.verdict.value == "fails":
        if purpose == "start":
            message = f"a card of kind '{kind}' can never be activated"
            code = "kind.never-activated"
        else:
            message = f"nothing can ever answer a card of kind '{kind}'"
            code = "kind.never-answered"
        out.append(_finding(model, code, "warning", f"kinds.{kind}", message, text))
    return out


def _runs(
    model: RuleSystem,
    path: Path,
    text: str,
    max_states: int,
    seconds: float | None,
    incomplete: list[str],
    prepared: object = None,
    allow_outside: bool = False,
) -> list[Finding]:
    """Unbounded chains and dead ends on every continuation of a scenario."""
    from verifier.run.check import Prepared

    label = str(path) if prepared is None else f"probe {path.name}"
    if not isinstance(prepared, Prepared):
        scenario = load_scenario(path, model=model, allow_outside=allow_outside)
        prepared = prepare(scenario)
    ex = explore(prepared.system, prepared.history.state, max_states, seconds=seconds)
    if ex.stopped_by:
        incomplete.append(f"{label}: {stopped_reason(ex.stopped_by)}")
    out = []
    if ex.overflowed:
        out.append(
            _finding(
                model,
                "chain.unbounded",
                "error",
                "chain",
                f"{path.name}: a continuation goes on past the state's capacities "
                "(a chain that can grow without end)",
                _with_trace(text, prepared, ex, overflow=True),
            )
        )
    if ex.deadlocks:
        out.append(
            _finding(
                model,
                "state.deadlock",
                "error",
                "chain",
                f"{path.name}: nobody can act and the chain cannot end "
                f"({len(ex.deadlocks)} such state(s))",
                _with_trace(text, prepared, ex, overflow=False),
            )
        )
    return out


def _with_trace(text: str, prepared: object, ex: object, overflow: bool) -> str:
    """The scenario, with the shortest continuation to the problem as comments."""
    from verifier.engines.explore import Exploration
    from verifier.run.check import Prepared

    assert isinstance(prepared, Prepared) and isinstance(ex, Exploration)
    targets = [s for s in ex.parent if READ.overflow(s)] if overflow else ex.deadlocks
    if not targets:
        return text
    actions = ex.path(min(targets, key=lambda s: len(ex.path(s))))
    _, steps = replay(prepared.system, prepared.history.state, actions)
    lines = [f"# {step.text}" for step in steps]
    return text + "# The shortest continuation that shows it:\n" + "\n".join(lines) + "\n"


def witness_name(finding: Finding, index: int) -> str:
    return f"{index:02d}-{finding.code.replace('.', '-')}.yaml"


def as_json(report: Report) -> str:
    return (
        json.dumps(
            {
                "findings": [
                    {
                        "code": f.code,
                        "severity": f.severity,
                        "parameter": f.parameter,
                        "message": f.message,
                        "where": str(f.span),
                        "witness": f.witness,
                    }
                    for f in report.findings
                ],
                "proofs": report.proofs,
                "incomplete": report.incomplete,
            },
            indent=2,
        )
        + "\n"
    )
