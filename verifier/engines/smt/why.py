"""Why an action is impossible: a minimal set of named rules that together forbid it.

The guards of the action in question are relaxed: each named check holds only where a
literal for its rule is assumed. With every literal assumed the action is impossible on
every continuation; the literals are then removed one by one while it stays impossible,
leaving a minimal set of rules that forbid it (a minimised unsat core over named rules).
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from verifier.core.logic import CONCRETE
from verifier.core.state import State, view
from verifier.engines.smt.encode import OutOfTime, Unrolling
from verifier.engines.smt.engine import SmtEngine, Solver
from verifier.system import Action, ActionKind, System

__all__ = ["WhyNot", "why_not"]

STRICT = frozenset({"capacity"})
# Rules are dropped from the explanation in this order when they are not needed: the most
# specific reasons (the card itself, its condition) are tried last, so they are kept.
_ORDER = (
    "scenario.ended",
    "turn.advancing",
    "triggers.placing",
    "chain.resolving",
    "chain.right-to-respond",
    "chain.already-pressed",
    "zone.",
    "window.",
    "chain.min-response",
    "chain.speed",
    "timing.",
    "chain.locked",
    "limit.",
    "cost.",
    "target.",
    "card.",
)


def _preference(rule: str) -> int:
    return next((i for i, prefix in enumerate(_ORDER) if rule.startswith(prefix)), len(_ORDER))


@dataclass(frozen=True, slots=True)
class WhyNot:
    """Either a continuation in which the action is taken, or the rules that forbid it."""

    possible: list[Action] | None
    rules: tuple[str, ...]
    complete: bool
    bound: int


def why_not(
    system: System,
    start: State,
    start_activations: int,
    player: int,
    abilities: frozenset[int],
    target: int | None = None,
    timeout: float | None = None,
    target2: int | None = None,
) -> WhyNot:
    """Can ``player`` activate one of ``abilities`` (on ``target``, and ``target2`` for a
    second target, in either order)? If not, which rules say so?"""
    engine = SmtEngine(system, start, start_activations, timeout=timeout)
    wanted = [
        i
        for i, a in enumerate(system.actions)
        if a.kind in {ActionKind.ACTIVATE, ActionKind.TRIGGER}
        and a.ability in abilities
        and _aims_at(a, target, target2)
    ]
    names = sorted(
        {
            c.rule
            for i in wanted
            for c in system.checks(CONCRETE, start, system.actions[i])
            if c.rule not in STRICT
        }
    )
    literals = {name: z3.Bool(f"rule:{name}") for name in names}
    if engine.unrolling is None:
        return WhyNot(None, (), False, 0)
    bound, complete = engine.deepen()
    try:
        unrolling = Unrolling(
            system, start, relaxed={i: literals for i in wanted}, deadline=engine.deadline
        )
        unrolling.extend(bound)
    except OutOfTime:
        return WhyNot(None, (), False, bound)
    solver = Solver(unrolling, engine.deadline)
    taken = []
    for t in range(unrolling.depth):
        at = view(unrolling.state(t))
        ctrl, pctrl = at.ctrl, at.pctrl
        for i in wanted:
            action = system.actions[i]
            ability = system.world.abilities[action.ability]
            # A trigger is activated by whoever controlled its card when it triggered.
            by = pctrl[ability.index] if action.kind == ActionKind.TRIGGER else ctrl[ability.card]
            taken.append(z3.And(unrolling.taken(t, i), unrolling.L.lift(by == player)))
    goal = solver.literal("taken", z3.Or(*taken) if taken else z3.BoolVal(False))
    result, model, _ = solver.check(goal, *literals.values())
    if result == z3.sat and model is not None:
        actions = unrolling.decode(model, bound)
        return WhyNot(actions, (), complete, bound)
    if result != z3.unsat:
        # The solver gave up: no rule is shown to forbid it.
        return WhyNot(None, (), False, bound)
    core = sorted(names, key=_preference)
    for name in list(core):
        trial = [literals[n] for n in core if n != name]
        result, _, _ = solver.check(goal, *trial)
        if result == z3.unsat:
            core.remove(name)
    return WhyNot(None, tuple(core), complete, bound)


def _aims_at(action: Action, target: int | None, target2: int | None) -> bool:
    """Whether ``action`` has the targets asked for (any, one, or a pair in either order)."""
    if target is None:
        return True
    if target2 is None:
        return action.target == target
    return sorted((action.target, action.target2)) == sorted((target, target2))
