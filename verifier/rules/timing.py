"""Where the game is: the step of the turn, the mode its chains end in, the window open.

Queries every other rule asks (may this be activated in a Main Phase? what does the game do
once a chain is over?); they read the state and change nothing, so the rules that move the
turn on (:mod:`verifier.rules.turn`), open and close windows (:mod:`verifier.rules.windows`)
and place triggers (:mod:`verifier.rules.triggers`) all stand on this module.
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Mode, Reset, Window, declare, scalar
from verifier.rules.context import Check, Ctx, turn_player
from verifier.spec.scenario import Scenario

__all__ = [
    "closed",
    "main_phase",
    "main_phase_checks",
    "open_for_turn_player",
    "responding",
    "settled",
    "step_is",
    "turns_of",
]

declare(
    scalar("step"),  # the step of the turn (an index into the game's steps)
    scalar("tno"),  # how many turns began after the scenario's
    # Normal Summons and Sets the turn player made this turn.
    scalar("nsum", resets=frozenset({Reset.TURN})),
)


def turns_of(scenario: Scenario) -> int:
    """How many turns a continuation may span (``limits.turns``; the scenario's own: 1)."""
    return scenario.limits.get("turns", 1)


def _last_turn(ctx: Ctx) -> Term:
    turns = turns_of(ctx.w.scenario)
    return True if turns == 1 else ctx.f.tno == turns - 1


def step_is(ctx: Ctx, *names: str) -> Term:
    """Whether the game is in one of the steps ``names`` (those the turn has)."""
    w, L = ctx.w, ctx.L
    if not w.progresses:
        return w.scenario.step in names
    return L.or_(*(ctx.f.step == w.step_index(n) for n in names if n in w.steps))


def main_phase(ctx: Ctx) -> Term:
    """Whether the game is in a Main Phase."""
    w = ctx.w
    if not w.progresses:
        return w.main_phase
    mains = [s for s, phase in zip(w.steps, w.phases, strict=True) if phase in w.model.main_phases]
    return step_is(ctx, *mains)


def settled(ctx: Ctx) -> int:
    """The mode once the chains are over: the game state opens again in the same step when
    the scenario goes through its turn; otherwise its continuation is done."""
    return int(Mode.OPEN) if ctx.w.progresses else int(Mode.DONE)


def closed(ctx: Ctx) -> int | Term:
    """The mode after both players pass in an open game state with nothing to answer: the
    turn moves on, unless the scenario's last step ends."""
    w = ctx.w
    if not w.progresses:
        return int(Mode.DONE)
    assert w.until is not None
    ends = ctx.L.and_(ctx.f.step == w.until, _last_turn(ctx))
    return ctx.L.ite(ends, int(Mode.DONE), int(Mode.ADVANCE))


def responding(ctx: Ctx) -> Term:
    """Whether a Summon response window is open (after a summon, or an effect's summon)."""
    f = ctx.f
    return ctx.L.or_(
        f.window == int(Window.SUMMON_RESPONSE), f.window == int(Window.EFFECT_SUMMON_RESPONSE)
    )


def open_for_turn_player(ctx: Ctx) -> Term:
    """An open game state in which the turn player may act (no chain, nothing to answer)."""
    L, f = ctx.L, ctx.f
    return L.and_(
        f.mode == int(Mode.OPEN),
        f.window == int(Window.NONE),
        f.clen == 0,
        f.right == turn_player(ctx),
        f.passes == 0,
    )


def main_phase_checks(ctx: Ctx, normal: bool) -> Iterator[Check]:
    """A move of the turn player's open Main Phase (a Normal Summon or Set: once per turn)."""
    yield Check("turn.main-phase", ctx.L.and_(main_phase(ctx), open_for_turn_player(ctx)))
    if normal and ctx.w.layout.has("nsum"):
        yield Check("summon.once-per-turn", ctx.f.nsum == 0)
