"""Reasons: which rules forbid an action, in words, for ``why`` and ``--explain``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from verifier.claims import ast
from verifier.core.logic import CONCRETE
from verifier.core.state import view
from verifier.engines.smt.why import why_not
from verifier.report.text import narrative
from verifier.rules.rulebook import describe
from verifier.run.check import ClaimResult, Prepared
from verifier.run.explain import because
from verifier.run.verdict import Verdict
from verifier.system import ActionKind
from verifier.trace.narrate import replay

__all__ = ["Answer", "can_explain", "claim_reasons", "why_lines", "with_reasons"]


@dataclass(frozen=True, slots=True)
class Answer:
    """The lines of an answer; whether the action is possible; whether the answer is a proof."""

    lines: tuple[str, ...]
    possible: bool
    complete: bool


def why_lines(
    prepared: Prepared,
    player: int,
    abilities: frozenset[int],
    target: int | None,
    timeout: float | None,
    indent: str = "",
    target2: int | None = None,
) -> Answer:
    """Whether ``player`` can activate one of ``abilities``, and if not, the rules why."""
    system = prepared.system
    start = prepared.history.state
    result = why_not(
        system, start, prepared.history.activations, player, abilities, target, timeout, target2
    )
    who = prepared.scenario.players[player]
    labels = (
        " or ".join(system.world.abilities[a].label for a in sorted(abilities))
        if len(abilities) <= 3
        else "anything"
    )
    if result.possible is not None:
        _, steps = replay(system, start, result.possible)
        lines = [f"{indent}{who} can activate {labels}, for example:"]
        lines += narrative([*prepared.history.steps, *steps], indent=indent + "  ")
        return Answer(tuple(lines), True, True)
    if not result.complete and not result.rules:
        line = f"{indent}undecided: a limit was reached before {who}'s {labels} was shown "
        line += "possible or impossible (--timeout)"
        return Answer((line,), False, False)
    scope = (
        f"on any continuation (a complete bound of {result.bound} steps)"
        if result.complete
        else f"on any continuation of up to {result.bound} steps (longer ones not checked)"
    )
    lines = [f"{indent}{who} cannot activate {labels} {scope}; the rules that forbid it:"]
    candidates = [
        a
        for a in system.actions
        if a.kind in {ActionKind.ACTIVATE, ActionKind.TRIGGER}
        and a.ability in abilities
        and (target is None or a.target == target)
    ]
    for rule in result.rules:
        detail = describe(rule, system.world.model.game)
        for action in candidates:
            failed = [c.rule for c in system.checks(CONCRETE, start, action) if not c.ok]
            if rule in failed:
                detail = because(system, start, action, rule)
                break
        else:
            detail = f"{detail} ({rule})"
        lines.append(f"{indent}  - {detail}")
    if not result.rules:
        lines.append(f"{indent}  - no single rule: the situation never arises")
    return Answer(tuple(lines), False, result.complete)


def can_explain(formula: ast.Formula) -> bool:
    """Whether the rules that forbid what ``formula`` asks can be named when it fails: a
    ``can_activate`` or a ``can_respond`` (``exists`` over an activation by a player, or a
    response)."""
    if not isinstance(formula, ast.Quantified) or formula.kind != "exists":
        return False
    body = formula.body
    return (isinstance(body, ast.Activates) and body.player is not None) or isinstance(
        body, ast.Responds
    )


def claim_reasons(
    prepared: Prepared, formula: ast.Formula, timeout: float | None
) -> tuple[str, ...]:
    """For a failing ``can_activate``/``can_respond`` claim: the rules that forbid it."""
    if not can_explain(formula):
        return ()
    assert isinstance(formula, ast.Quantified)
    body = formula.body
    world = prepared.system.world
    if isinstance(body, ast.Activates) and body.player is not None:
        abilities = frozenset(world.cards[body.card].abilities)
        player = body.player
    elif isinstance(body, ast.Responds):
        player = body.player
        # The cards the player controls where the scenario stands.
        owned = view(prepared.history.state).ctrl
        abilities = frozenset(a.index for a in world.abilities if owned[a.card] == player)
    else:
        return ()
    if not abilities:
        return ("there is nothing to activate",)
    answer = why_lines(prepared, player, abilities, None, timeout)
    if answer.possible:
        return ()
    return answer.lines


def with_reasons(
    prepared: Prepared, results: list[ClaimResult], formulas: list[Any], timeout: float | None
) -> list[ClaimResult]:
    """The results, each failing one with the named rules that forbid what it asks."""
    return [
        replace(r, because=claim_reasons(prepared, formula, timeout))
        if r.verdict is Verdict.FAILS
        else r
        for r, formula in zip(results, formulas, strict=True)
    ]
