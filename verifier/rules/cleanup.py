"""After the last link: activated cards go where they go, and the next chain may start.

Seeds 001/002: activated Spell and Trap Cards still on the field are sent to the graveyard
after the whole chain has resolved, except Continuous, Equip and Field cards (kinds that
``stay``); one of those whose activation was negated does not stay, one whose effect only
was negated does (its activation succeeded). This happens at the same time
as the last part of Chain Link 1, so it is not a new event for missing the timing.
"""

from __future__ import annotations

from verifier.core.logic import Term
from verifier.core.state import Mode
from verifier.rules import battle, events, protocol, timing, triggers, windows
from verifier.rules.context import Ctx, on_field
from verifier.spec.cards import Zone
from verifier.spec.rulesystem import Cleanup

__all__ = ["cleanup"]


def _leaving(ctx: Ctx, card: int) -> Term:
    """Whether ``card`` was activated on this chain and must now leave the field."""
    L, f, w = ctx.L, ctx.f, ctx.w
    c = w.cards[card]
    if w.model.cleanup == Cleanup.ON_RESOLUTION:
        return False  # each card left as its own link resolved
    if w.model.cleanup == Cleanup.SPELLS:
        if c.type != "spell":
            return False
    elif c.type not in {"spell", "trap"}:
        return False
    activations = [a.index for a in w.abilities if a.card == card and a.card_activation]
    goes = L.or_(
        *(
            L.and_(
                i < f.clen,
                L.or_(*(f.lab[i] == a for a in activations)),
                f.lneg[i] if c.stays else True,
            )
            for i in range(w.layout.slots)
        )
    )
    return L.and_(goes, on_field(ctx, card), f.up[card])


def cleanup(ctx: Ctx) -> None:
    """Send the chain's cards away, forget the chain, then triggers or the end."""
    L, f, w = ctx.L, ctx.f, ctx.w
    hit = [_leaving(ctx, c) for c in range(w.n)]
    before = list(f.zone)
    controllers = list(f.ctrl)
    for c, h in enumerate(hit):
        if L.is_false(h):
            continue
        f.zone[c] = L.ite(h, int(Zone.GRAVEYARD), f.zone[c])
        f.ctrl[c] = L.ite(h, w.cards[c].owner, f.ctrl[c])
        f.swept[c] = L.or_(f.swept[c], h)
    ctx.note("cleanup", hit)
    triggers.fire(ctx, "sent-to-graveyard", hit, before, controllers)
    triggers.fire(ctx, "leaves-field", hit, before, controllers)
    for i in range(w.layout.slots):
        f.lab[i] = -1
        f.lcard[i] = -1
        f.lpl[i] = 0
        f.ltg[i] = -1
        f.lspd[i] = 0
        f.lneg[i] = False
        f.leneg[i] = False
        f.ldone[i] = False
    for a in range(len(w.abilities)):
        f.cuse[a] = 0
    f.clen = 0
    f.rcnt = 0
    f.cno = ctx.add(f.cno, 1)
    effect_summon = windows.effect_summon_last(ctx)
    summon_goes_on = windows.end_of_chain(ctx)
    windows.summon_succeeds(ctx, summon_goes_on)
    done = L.not_(summon_goes_on)
    waiting = triggers.collect(ctx, after_chain=True, when=done)
    f.mode = L.ite(done, L.ite(waiting, int(Mode.TRIGGERS), timing.settled(ctx)), f.mode)
    protocol.open_state(ctx, done)
    if ctx.w.progresses:
        battle.check_replay(ctx, L.and_(done, L.not_(waiting)))
    windows.open_after_effect_summon(ctx, effect_summon, done)
    events.open_after_chain(ctx, done)
