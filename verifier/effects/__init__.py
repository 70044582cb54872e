"""The effect vocabulary: what each verb does to the state, and when its object is gone.

Every effect is written against :class:`verifier.core.logic.Logic`, so the explorer and the SMT
engine apply the same effects. Each part of an effect is a change of game state: an event
with its own number, after which triggers are checked and continuous effects apply at once
(seed 001: Call of the Haunted destroys itself the moment its monster is destroyed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from verifier.core.logic import Term
from verifier.core.state import Window
from verifier.rules import speed, triggers
from verifier.rules.context import Ctx, matches, on_field
from verifier.spec.cards import Ability, Effect, Zone

__all__ = ["Link", "Moved", "apply_effects", "move", "objects", "target_fits"]


@dataclass(frozen=True, slots=True)
class Link:
    """The link being resolved: whose it is, what it targets, where it is on the chain."""

    ability: Ability
    me: Term
    target: Term
    slot: Sequence[Term]
    below: Sequence[Term]
    heads: bool | None


@dataclass(frozen=True, slots=True)
class Moved:
    """What one simultaneous move did: which cards moved, were destroyed, left the field."""

    hit: list[Term]
    destroyed: list[Term]
    left_field: list[Term]
    bound_before: list[Term]


def target_fits(ctx: Ctx, ability: Ability, target: Term, me: Term) -> Term:
    """Whether the chosen target still fits the ability's target description."""
    assert ability.target is not None
    L = ctx.L
    return L.or_(
        *(
            L.and_(target == c, matches(ctx, c, ability.target, me, source=ability.card))
            for c in range(ctx.w.n)
            if ctx.w.static_match(c, ability.target)
        )
    )


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
) -> Moved:
    """Move the cards in ``hit`` to ``dest`` at once: one event, then its triggers."""
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
    dizzies = w.layout.has("dizzy")  # a card that moves is no longer dizzy
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
        if dizzies:
            f.dizzy[c] = L.and_(f.dizzy[c], L.not_(h))
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
    kind = "tribute" if tributed else events[0] if events else "move"
    if not quiet:
        ctx.note("special-summoned" if kind == "summoned" else kind, hits, dest.label)
    for event in events:
        triggers.fire(ctx, event, hits, before, controllers)
    if dest is Zone.GRAVEYARD and "sent-to-graveyard" not in events:
        triggers.fire(ctx, "sent-to-graveyard", hits, before, controllers)
    triggers.fire(ctx, "leaves-field", left, before, controllers)
    return Moved(hits, hits if destroyed else [False] * w.n, left, bound_before)


def objects(ctx: Ctx, link: Link, effect: Effect) -> list[Term]:
    """Which cards an effect part acts on, as a mask over the cards."""
    L, f, w = ctx.L, ctx.f, ctx.w
    ability = link.ability
    obj = effect.obj
    out: list[Term] = []
    for c in range(w.n):
        if effect.filter is not None and not w.static_match(c, effect.filter):
            out.append(False)
            continue
        extra: Term = (
            True if effect.filter is None else matches(ctx, c, effect.filter, link.me, ability.card)
        )
        if obj == "target":
            sel = L.and_(link.target == c, target_fits(ctx, ability, c, link.me))
        elif obj == "that-card":
            sel = L.select(link.below, f.lcard, -1) == c
        elif obj == "this-card":
            sel = c == ability.card
        elif obj == "summoned":
            sel = L.and_(f.summoned[c], on_field(ctx, c), f.up[c], w.cards[c].type == "monster")
        elif obj == "bound":
            sel = f.bound[ability.card] == c
        else:
            types = {
                "all-monsters": {"monster"},
                "all-spells-traps": {"spell", "trap"},
                "all-cards": {"monster", "spell", "trap"},
            }[obj or "all-cards"]
            side: Term = True
            if effect.of == "you":
                side = f.ctrl[c] == link.me
            elif effect.of == "opponent":
                side = f.ctrl[c] != link.me
            sel = L.and_(w.cards[c].type in types, on_field(ctx, c), side)
        out.append(L.and_(sel, extra))
    return out


def _player(link: Link, who: str) -> Term:
    return link.me if who == "you" else 1 - link.me


def _each_player(ctx: Ctx, link: Link, who: str) -> list[Term]:
    target = _player(link, who)
    return [target == p for p in (0, 1)]


def apply_effects(ctx: Ctx, link: Link, parts: Sequence[Effect], go: Term) -> None:
    """Apply the parts of an effect one after another, each only when ``go`` holds."""
    for part in parts:
        if ctx.L.is_false(go):
            return
        moved = _apply(ctx, link, part, go)
        if moved is not None:
            _continuous(ctx, moved)


def _apply(ctx: Ctx, link: Link, e: Effect, go: Term) -> Moved | None:
    L, f, w = ctx.L, ctx.f, ctx.w
    verb = e.verb
    if verb in {"destroy", "banish", "send-to-graveyard", "return-to-hand", "special-summon"}:
        hit = [L.and_(go, h) for h in objects(ctx, link, e)]
        if verb == "destroy":
            hit = [L.and_(h, on_field(ctx, c)) for c, h in enumerate(hit)]
            dest = e.to or Zone.GRAVEYARD
            return move(ctx, hit, dest, ("destroyed",), destroyed=True)
        if verb == "banish":
            hit = [L.and_(h, f.zone[c] != int(Zone.BANISHED)) for c, h in enumerate(hit)]
            return move(ctx, hit, Zone.BANISHED, ())
        if verb == "send-to-graveyard":
            hit = [L.and_(h, f.zone[c] != int(Zone.GRAVEYARD)) for c, h in enumerate(hit)]
            return move(ctx, hit, Zone.GRAVEYARD, ("sent-to-graveyard",))
        if verb == "return-to-hand":
            hit = [L.and_(h, f.zone[c] != int(Zone.HAND)) for c, h in enumerate(hit)]
            return move(ctx, hit, Zone.HAND, ())
        hit = [
            L.and_(h, f.zone[c] != int(Zone.FIELD), w.cards[c].type == "monster")
            for c, h in enumerate(hit)
        ]
        moved = move(ctx, hit, Zone.FIELD, ("summoned", "special-summoned"), controller=link.me)
        for c, h in enumerate(moved.hit):
            if h is not False:
                f.sseq[c] = L.ite(h, f.seq, f.sseq[c])
        card = w.cards[link.ability.card]
        if any(k.kind == "bind" for k in card.continuous):
            chosen = L.select(hit, list(range(w.n)), -1)
            f.bound[card.index] = L.ite(L.or_(*hit), chosen, f.bound[card.index])
        return moved
    if verb == "flip-face-down":
        hit = objects(ctx, link, e)
        for c, h in enumerate(hit):
            flip = L.and_(go, h, on_field(ctx, c), f.up[c], w.cards[c].type == "monster")
            f.up[c] = L.ite(flip, False, f.up[c])
            hit[c] = flip
        _event(ctx, hit, "flip-face-down")
        return None
    if verb == "take-control":
        hit = objects(ctx, link, e)
        for c, h in enumerate(hit):
            take = L.and_(go, h, on_field(ctx, c), f.ctrl[c] != link.me)
            f.ctrl[c] = L.ite(take, link.me, f.ctrl[c])
            hit[c] = take
        _event(ctx, hit, "take-control")
        return None
    if verb in {"dizzy", "undizzy"}:
        value = verb == "dizzy"
        hit = objects(ctx, link, e)
        for c, h in enumerate(hit):
            change = L.and_(go, h, on_field(ctx, c), f.dizzy[c] != value)
            f.dizzy[c] = L.ite(change, value, f.dizzy[c])
            hit[c] = change
        _event(ctx, hit, verb)
        return None
    if verb in {"slow", "speed-up"}:
        step = 1 if verb == "slow" else -1
        hit = objects(ctx, link, e)
        for c, h in enumerate(hit):
            change = L.and_(go, h)
            for a in w.cards[c].abilities:
                now = f.aspd[a]
                modified = speed.slowed(ctx, now) if step > 0 else speed.sped_up(ctx, now)
                f.aspd[a] = L.ite(change, modified, now)
            hit[c] = change
            for i in range(w.layout.slots):
                waiting = L.and_(change, f.lcard[i] == c, L.not_(f.ldone[i]), i < f.clen)
                changed = (
                    speed.slowed(ctx, f.lspd[i]) if step > 0 else speed.sped_up(ctx, f.lspd[i])
                )
                f.lspd[i] = L.ite(waiting, changed, f.lspd[i])
        _event(ctx, hit, verb)
        return None
    if verb == "negate":
        if e.obj == "summon":
            f.summoning = L.ite(go, -1, f.summoning)
            ctx.event(go)
            ctx.note("negate-summon") if go is True else None
            return None
        field_name = "lneg" if e.obj == "activation" else "leneg"
        column = getattr(f, field_name)
        for i, below in enumerate(link.below):
            column[i] = L.or_(column[i], L.and_(go, below))
        ctx.event(go)
        if go is True:
            ctx.note(f"negate-{e.obj}", [L.select(link.below, f.lcard, -1)])
        return None
    if verb == "counterspell":
        # Seed 000: a counterspell counters everything after it in the resolve order.
        countered = []
        for i in range(w.layout.slots):
            after = L.and_(go, i < f.clen, L.not_(f.ldone[i]), L.not_(link.slot[i]))
            f.lneg[i] = L.or_(f.lneg[i], after)
            countered.append(after)
        ctx.event(go)
        if go is True:
            ctx.note("counter", [f.lcard[i] for i, c in enumerate(countered) if c is True])
        return None
    if verb in {"draw", "add-from-deck"}:
        assert e.amount is not None
        for p, is_p in enumerate(_each_player(ctx, link, e.player)):
            drawing = L.and_(go, is_p)
            f.drawn[p] = L.ite(drawing, ctx.add(f.drawn[p], e.amount, drawing), f.drawn[p])
        ctx.event(go)
        if go is True:
            ctx.note(verb, (), str(e.amount), _player(link, e.player))
        return None
    if verb in {"lose-lp", "gain-lp"}:
        for p, is_p in enumerate(_each_player(ctx, link, e.player)):
            changing = L.and_(go, is_p)
            # "Lose half": the Life Points left are rounded up (see Logic.half).
            amount = L.half(f.lp[p]) if e.amount is None else e.amount
            if verb == "lose-lp":
                # Life Points never go below 0 (they become 0).
                left = ctx.sub(f.lp[p], amount, changing)
                new = L.ite(left < 0, 0, left)
            else:
                new = ctx.add(f.lp[p], amount, changing)
            f.lp[p] = L.ite(changing, new, f.lp[p])
        ctx.event(go)
        if go is True:
            ctx.note(
                verb, (), "half" if e.amount is None else str(e.amount), _player(link, e.player)
            )
        return None
    if verb == "coin-toss":
        assert link.heads is not None and e.heads_at_least is not None and e.amount is not None
        if go is True:
            result = (
                f"at least {e.heads_at_least}" if link.heads else f"fewer than {e.heads_at_least}"
            )
            ctx.note("coin", (), f"{e.amount} coin(s): {result} heads", link.me)
        ctx.event(go)
        apply_effects(ctx, link, e.then if link.heads else e.otherwise, go)
        return None
    raise ValueError(f"unknown effect verb {verb!r}")


def _event(ctx: Ctx, hit: Sequence[Term], kind: str) -> None:
    L = ctx.L
    if all(L.is_false(h) for h in hit):
        return
    ctx.event(L.or_(*hit))
    ctx.note(kind, list(hit))


def _continuous(ctx: Ctx, moved: Moved) -> None:
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
        moved = move(ctx, doomed, Zone.GRAVEYARD, ("destroyed",), destroyed=True, quiet=True)
