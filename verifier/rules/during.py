"""Conditions on the phase and the turn: "During your opponent's Main Phase" (Effect Veiler),
"During the Battle Phase". They read the step the game is in (:mod:`verifier.rules.turn`: the
scenario's own step, or the ``step`` field when its continuations go through the turn) and
the turn player."""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.rules.context import Check, Ctx, turn_player
from verifier.rules.timing import step_is
from verifier.spec.cards import Condition

__all__ = ["during_checks"]


def in_phases(ctx: Ctx, phases: frozenset[str]) -> Term:
    """Whether the game is in one of ``phases``."""
    w = ctx.w
    if not w.progresses:
        return w.scenario.phase in phases
    steps = [s for s, phase in zip(w.steps, w.phases, strict=True) if phase in phases]
    return step_is(ctx, *steps)


def during_checks(ctx: Ctx, condition: Condition, player: Term) -> Iterator[Check]:
    """The phase and the turn an activation condition asks for, each a rule of its own."""
    if condition.phases is not None:
        yield Check("card.phase", in_phases(ctx, condition.phases))
    if condition.turn == "yours":
        yield Check("card.turn", turn_player(ctx) == player)
    elif condition.turn == "opponent":
        yield Check("card.turn", turn_player(ctx) != player)
