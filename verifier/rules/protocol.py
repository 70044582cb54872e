"""The response protocol: who may add a link, what a pass (or a resolve press) does, when a
chain closes.

- ``other-player-first`` with ``two-passes-in-a-row`` (Yu-Gi-Oh!, seeds 002/004): after a link,
  the other player may respond first; if they pass, the player who added it may add again;
  two passes in a row close the chain.
- ``caster-keeps`` with ``two-passes-in-a-row`` (Magic, CR 117.3c-d): a player who casts a
  spell or activates an ability receives priority again; a pass gives it to the other player;
  all players passing in succession closes it (the top object resolves, CR 117.4).
- ``anyone`` with ``both-press-resolve`` (CMC, seed 000): either player may add at any time;
  both must press resolve, and any addition that goes on the stack clears both presses. With
  ``auto_resolve_seconds``, a stack left unchanged that long resolves by itself.
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Mode, Window, array, declare
from verifier.rules import timing
from verifier.rules.context import Check, Ctx, turn_player
from verifier.spec.rulesystem import RightToRespond, RuleSystem

__all__ = [
    "acting",
    "after_add",
    "fields",
    "may_act",
    "may_pass",
    "may_time_out",
    "open_responses",
    "open_state",
    "pass_",
    "time_out",
]

declare(array("pressed", "player", False))  # pressed resolve, or passed in the open state


def _alternating(ctx: Ctx) -> bool:
    return ctx.w.model.right_to_respond != RightToRespond.ANYONE


def fields(model: RuleSystem) -> tuple[str, ...]:
    """The optional state fields this protocol keeps: who has pressed resolve, unless the
    right to respond alternates (then passes in a row are counted instead)."""
    return ("pressed",) if model.right_to_respond == RightToRespond.ANYONE else ()


def acting(ctx: Ctx) -> Iterator[Check]:
    """Whether players act now (an open game state, or a chain being built): each mode in
    which they do not is its own named rule, so an explanation says which it is."""
    L, mode = ctx.L, ctx.f.mode
    yield Check("chain.resolving", L.and_(mode != int(Mode.RESOLVE), mode != int(Mode.CLEANUP)))
    yield Check("triggers.placing", mode != int(Mode.TRIGGERS))
    yield Check("turn.advancing", mode != int(Mode.ADVANCE))
    yield Check("scenario.ended", mode != int(Mode.DONE))
    if ctx.w.layout.has("declaring"):  # Magic: nobody has priority during a declaration
        yield Check("combat.declaring", ctx.f.declaring == 0)


def may_act(ctx: Ctx, player: Term) -> Iterator[Check]:
    """Whether ``player`` holds the right to add a link (or start a chain) now."""
    yield from acting(ctx)
    f = ctx.f
    if _alternating(ctx):
        yield Check("chain.right-to-respond", f.right == player)


def open_responses(ctx: Ctx, when: Term, last_player: Term) -> None:
    """After a link is added by ``last_player``: the other player may respond first (or,
    under ``caster-keeps``, the player who added it keeps the right: CR 117.3c)."""
    L, f = ctx.L, ctx.f
    if _alternating(ctx):
        keeps = ctx.w.model.right_to_respond == RightToRespond.CASTER_KEEPS
        f.right = L.ite(when, last_player if keeps else 1 - last_player, f.right)
        f.passes = L.ite(when, 0, f.passes)
    else:
        for p in (0, 1):
            f.pressed[p] = L.ite(when, False, f.pressed[p])


def open_state(ctx: Ctx, when: Term) -> None:
    """An open game state: the turn player may act first, nobody has passed."""
    L, f = ctx.L, ctx.f
    f.right = L.ite(when, turn_player(ctx), f.right)
    f.passes = L.ite(when, 0, f.passes)
    if not _alternating(ctx):
        for p in (0, 1):
            f.pressed[p] = L.ite(when, False, f.pressed[p])


def after_add(ctx: Ctx, player: Term, stacked: Term) -> None:
    """A link (``stacked``) or an instant effect was added by ``player``."""
    open_responses(ctx, stacked, player)


def may_pass(ctx: Ctx, player: int) -> Iterator[Check]:
    f, L = ctx.f, ctx.L
    yield from acting(ctx)
    if _alternating(ctx):
        yield Check("chain.right-to-respond", f.right == player)
    else:
        yield Check("chain.already-pressed", L.not_(f.pressed[player]))


def pass_(ctx: Ctx, player: int) -> Term:
    """``player`` passes (or presses resolve); the chain closes when both have. Returns when
    both have passed in an open game state (the caller closes it: :mod:`verifier.rules.windows`)."""
    L, f = ctx.L, ctx.f
    if _alternating(ctx):
        closes = f.passes == 1
        f.passes = L.ite(closes, 0, f.passes + 1)
        f.right = 1 - player
    else:
        f.pressed[player] = True
        closes = f.pressed[1 - player]
    building = f.mode == int(Mode.BUILD)
    chain_closes = L.and_(closes, building)
    open_closes = L.and_(closes, L.not_(building))
    # A closed chain starts to resolve, and the Summon response window closes with it.
    f.mode = L.ite(chain_closes, int(Mode.RESOLVE), f.mode)
    answering = L.or_(
        timing.responding(ctx),
        f.window == int(Window.ATTACK),
        f.window == int(Window.EVENT_RESPONSE),
    )
    f.window = L.ite(L.and_(chain_closes, answering), int(Window.NONE), f.window)
    ctx.note("close", detail="chain") if chain_closes is True else None
    return open_closes


def may_time_out(ctx: Ctx) -> Iterator[Check]:
    f = ctx.f
    yield Check("chain.auto-resolve", ctx.w.model.auto_resolve_seconds is not None)
    yield Check("chain.building", f.mode == int(Mode.BUILD))


def time_out(ctx: Ctx) -> None:
    """No change for ``auto_resolve_seconds``: the stack resolves by itself."""
    ctx.f.mode = int(Mode.RESOLVE)
