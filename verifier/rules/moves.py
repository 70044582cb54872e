"""Moving cards: one simultaneous move, its event and triggers, and the binding continuous
effects that follow it. Effects (destroy, banish, ...) and costs (tributes) both move cards
through here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from verifier.core.logic import Term
from verifier.core.state import Reset, Window
from verifier.rules import colors, speed, triggers
from verifier.rules.context import Ctx, on_field, reset_card
from verifier.spec.cards import Zone

__all__ = ["Moved", "binding", "move", "tribute"]


@dataclass(frozen=True, slots=True)
class Moved:
    """What one simultaneous move did: which cards moved, were destroyed, left the field."""

    hit: list[Term]
    destroyed: list[Term]
    left_field: list[Term]
    bound_before: list[Term]


def move(
    ctx: Ctx,
    hit: Sequence[Term],
    dest: Zone,
    events: tuple[str, ...],
    *,
    controller: Term | None = None,
    tributed: bool = False,
    destroyed: bool = False,
    quiet: bool = False,
    paid: str | None = None,
) -> Moved:
    """Move the cards in ``hit`` to ``dest`` at once: one event, then its triggers.

    ``paid`` names the cost the move pays (``discard``, ``banish``), for the narrative."""
    L, f, w = ctx.L, ctx.f, ctx.w
    # A monster whose summon has not succeeded yet (the summon-negation window) was never on
    # the field: if it is destroyed now, it is not sent from the field (Solemn Judgment).
    before = list(f.zone)
    controllers = list(f.ctrl)
    if w.model.summon_negation:
        pending = f.window == int(Window.SUMMON_NEGATION)
        for c in range(w.n):
            if w.cards[c].type == "monster":
                before[c] = L.ite(L.and_(pending, f.summoned[c]), int(Zone.HAND), before[c])
    bound_before = list(f.bound)
    has_atk, has_def = w.layout.has("atk"), w.layout.has("defense")
    painted = w.layout.has("colors")
    hits = [h if not L.is_false(h) else False for h in hit]
    left: list[Term] = []
    for c, h in enumerate(hits):
        if h is False:
            left.append(False)
            continue
        card = w.cards[c]
        left.append(L.and_(h, before[c] == int(Zone.FIELD)))
        f.zone[c] = L.ite(h, int(dest), f.zone[c])
        public = dest in (Zone.FIELD, Zone.GRAVEYARD, Zone.BANISHED)
        f.up[c] = L.ite(h, public, f.up[c])
        owner = card.owner if controller is None else controller
        f.ctrl[c] = L.ite(h, owner, f.ctrl[c])
        f.active[c] = L.and_(f.active[c], L.not_(h))
        # A card that moves is a new card (CR 400.7): what was marked on it is gone (the
        # fields declared to reset as it moves), and so are the changes to its ATK, DEF and
        # colours.
        reset_card(ctx, Reset.MOVES, c, h)
        if has_atk:
            f.atk[c] = L.ite(h, card.atk or 0, f.atk[c])
        if has_def:
            f.defense[c] = L.ite(h, card.defense or 0, f.defense[c])
        if painted:
            f.colors[c] = L.ite(h, colors.printed(card), f.colors[c])
        if w.layout.has("fresh") and card.type == "monster":  # a new object (CR 302.6)
            f.fresh[c] = L.ite(h, dest is Zone.FIELD, f.fresh[c])
        for a in card.abilities:
            # Modifiers applied by effects end when the card moves.
            base = speed.base_speed(w.model, card, w.abilities[a])
            f.aspd[a] = L.ite(h, base, f.aspd[a])
        f.bound[c] = L.ite(h, -1, f.bound[c])
        if dest is not Zone.FIELD:
            f.summoned[c] = L.and_(f.summoned[c], L.not_(h))
    if all(h is False for h in hits):
        return Moved(hits, [False] * w.n, left, bound_before)
    ctx.event(L.or_(*hits))
    kind = "tribute" if tributed else paid or (events[0] if events else "move")
    if not quiet:
        ctx.note("special-summoned" if kind == "summoned" else kind, hits, dest.label)
    for event in events:
        triggers.fire(ctx, event, hits, before, controllers)
    if dest is Zone.GRAVEYARD and "sent-to-graveyard" not in events:
        triggers.fire(ctx, "sent-to-graveyard", hits, before, controllers)
    if dest is Zone.BANISHED and "banished" not in events:
        triggers.fire(ctx, "banished", hits, before, controllers)
    triggers.fire(ctx, "leaves-field", left, before, controllers)
    return Moved(hits, hits if destroyed else [False] * w.n, left, bound_before)


def tribute(ctx: Ctx, cards: Sequence[int]) -> None:
    """Tribute ``cards`` (a summon's or a cost's): sent to the graveyard at once."""
    if cards:
        move(
            ctx,
            [c in cards for c in range(ctx.w.n)],
            Zone.GRAVEYARD,
            ("sent-to-graveyard",),
            tributed=True,
        )


def binding(ctx: Ctx, moved: Moved) -> None:
    """Binding continuous effects apply the moment their condition is met, mid-chain.

    "When this card leaves the field, destroy that monster. When that monster is destroyed,
    destroy this card." (Call of the Haunted; seed 001.)
    """
    L, f, w = ctx.L, ctx.f, ctx.w
    for _ in range(len(w.binders)):
        doomed: list[Term] = [False] * w.n
        for k in w.binders:
            monster = moved.bound_before[k]
            left = moved.left_field[k]
            lost = L.or_(*(L.and_(monster == m, moved.destroyed[m]) for m in range(w.n)))
            for m in range(w.n):
                if m != k:
                    doomed[m] = L.or_(doomed[m], L.and_(left, monster == m, on_field(ctx, m)))
            doomed[k] = L.or_(doomed[k], L.and_(lost, on_field(ctx, k)))
            f.bound[k] = L.ite(L.or_(left, lost), -1, f.bound[k])
        if all(L.is_false(d) for d in doomed):
            return
        ctx.note("continuous", doomed, "bound")
        events = ("destroyed", "destroyed-by-effect")
        moved = move(ctx, doomed, Zone.GRAVEYARD, events, destroyed=True, quiet=True)
