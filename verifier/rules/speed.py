"""Speeds: Spell Speed eligibility for a new link, the timing of the slowest speeds, and the
speed modifiers of CMC.

Seed 001 and the "Chain" article: Chain Link 2 and up needs a Spell Speed at least the
previous link's, and at least 2 (``min_response``); Spell Speed 1 may only start a chain, in
the turn player's open Main Phase. Seed 000: a slowed speed moves one step later (E stays E);
a sped-up speed moves one step earlier, but never past ``speed_up_limit`` (S and A stay).
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Mode, Window
from verifier.rules import timing
from verifier.rules.context import Check, Ctx, turn_player
from verifier.spec.cards import Ability, Card
from verifier.spec.rulesystem import Respond, RuleSystem

__all__ = ["activation_speed", "chain_checks", "slowed", "sped_up", "timing_checks"]


def slowed(ctx: Ctx, rank: Term) -> Term:
    limit = ctx.w.model.slow_limit
    assert limit is not None
    return ctx.L.ite(rank < limit, rank + 1, rank)


def sped_up(ctx: Ctx, rank: Term) -> Term:
    limit = ctx.w.model.speed_up_limit
    assert limit is not None
    return ctx.L.ite(rank > limit, rank - 1, rank)


def base_speed(model: RuleSystem, card: Card, ability: Ability) -> int:
    """The speed of ``ability`` with the modifiers printed on its card, applied in order.

    Seed 000's table applies one step per modifier, so modifiers add up: two slows make an
    S ability B; and they apply in order, since the limits stop a step (E slowed stays E).
    """
    assert ability.speed is not None
    rank = ability.speed
    if model.slow_limit is None or model.speed_up_limit is None:
        return rank
    for modifier in card.speed_modifiers:
        if modifier == "slow":
            rank = rank + 1 if rank < model.slow_limit else rank
        else:
            rank = rank - 1 if rank > model.speed_up_limit else rank
    return rank


def activation_speed(ctx: Ctx, ability: Ability) -> Term:
    """The speed an activation of ``ability`` gets, after the modifiers on its card."""
    assert ability.speed is not None
    if ctx.w.model.slow_limit is None:
        return ability.speed
    return ctx.f.aspd[ability.index]


def top_slot(ctx: Ctx) -> list[Term]:
    """The slot of the last link added, as a mask."""
    f = ctx.f
    return [f.clen == i + 1 for i in range(ctx.w.layout.slots)]


def chain_checks(ctx: Ctx, speed: Term) -> Iterator[Check]:
    """The Spell Speed rules for adding a link on top of a chain (Chain Link 2 and up)."""
    model = ctx.w.model
    if model.respond == Respond.ANY:
        return
    L, f = ctx.L, ctx.f
    empty = f.clen == 0
    previous = L.select(top_slot(ctx), f.lspd, 0)
    faster = (
        speed > previous if model.respond == Respond.FASTER_THAN_PREVIOUS else speed >= previous
    )
    yield Check("chain.speed", L.or_(empty, faster))
    if model.min_response is not None:
        yield Check("chain.min-response", L.or_(empty, speed >= model.min_response))


def timing_checks(ctx: Ctx, speed: Term, player: Term) -> Iterator[Check]:
    """Speeds below ``min_response`` only start a chain, in the turn player's open Main Phase."""
    model = ctx.w.model
    if model.respond == Respond.ANY or model.min_response is None:
        return
    L, f = ctx.L, ctx.f
    slow = speed < model.min_response
    # After a chain that ended with an effect's summon the game state is open as usual.
    open_window = L.or_(
        f.window == int(Window.NONE),
        f.window == int(Window.EFFECT_SUMMON_RESPONSE),
        f.window == int(Window.EVENT_RESPONSE),
    )
    if model.ignition_priority:
        # Seed 001: the turn player may activate a Spell Speed 1 effect "on priority" as the
        # first link of the Summon response chain.
        open_window = L.or_(open_window, f.window == int(Window.SUMMON_RESPONSE))
    allowed = L.and_(
        f.mode == int(Mode.OPEN), player == turn_player(ctx), timing.main_phase(ctx), open_window
    )
    yield Check("timing.speed-1", L.or_(L.not_(slow), allowed))
