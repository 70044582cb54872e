"""Trigger effects: what triggers them, missing the timing, and SEGOC (or APNAP) ordering.

Seed 001: "After each and every last change in gamestate ... the game checks for all Trigger
Effects whose triggers have been triggered." A trigger that cannot activate at once waits
(mandatory) or may miss the timing (optional); waiting triggers go on a new chain in groups.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from verifier.core.logic import Term
from verifier.core.state import Capacity, Mode
from verifier.rules import events, protocol, speed, timing
from verifier.rules.context import Check, Ctx, matches, present, turn_player
from verifier.spec.cards import Ability, Zone
from verifier.spec.rulesystem import HandSelfSummons, MissingTiming, RightToRespond, Simultaneous

__all__ = [
    "after_placing",
    "collect",
    "fire",
    "fire_step",
    "group",
    "may_place",
    "remaining",
    "targeted",
]


def fire(
    ctx: Ctx,
    event: str,
    hit: Sequence[Term],
    before: Sequence[Term],
    controllers: Sequence[Term] | None = None,
) -> None:
    """Record the triggers of ``event`` happening to the cards in ``hit``.

    ``before`` holds each card's zone before the event, for "sent from the field" triggers,
    and ``controllers`` each card's controller then (by default, now): the player who
    controlled a card when its trigger triggered activates it, even once the card has gone
    back to its owner (a stolen Sangan destroyed searches for the player who stole it).
    The event's number is the current ``seq``: callers bump it once per simultaneous change.
    """
    L, f, w = ctx.L, ctx.f, ctx.w
    then = list(f.ctrl) if controllers is None else controllers
    for a in w.triggers:
        ability = w.abilities[a]
        spec = ability.trigger
        assert spec is not None
        if event not in spec.events:
            continue
        watcher = ability.card
        owner = then[watcher]
        cases: list[Term] = []
        for c in range(w.n):
            if spec.this_card and c != watcher:
                continue
            if L.is_false(hit[c]):
                continue
            parts = [hit[c]]
            if spec.from_zone is not None:
                parts.append(before[c] == int(spec.from_zone))
            if spec.filter is not None:
                parts.append(matches(ctx, c, spec.filter, owner, source=watcher))
            cases.append(L.and_(*parts))
        fired = L.or_(*cases)
        if not spec.this_card:
            # A card watching other cards must be face-up on the field to see them (or in
            # the hand or graveyard it triggers from: a hand trap's trigger).
            sees = (
                present(ctx, watcher)
                if ability.origin is Zone.FIELD
                else f.zone[watcher] == int(ability.origin)
            )
            fired = L.and_(fired, sees)
        if L.is_false(fired):
            continue
        cap = 1 if spec.optional else ctx.w.layout.pending_cap
        pend = f.pend[a]
        ctx.exceed(Capacity.PENDING, L.and_(fired, pend >= cap))
        f.pseq[a] = L.ite(L.and_(fired, pend == 0), f.seq, f.pseq[a])
        f.plast[a] = L.ite(fired, f.seq, f.plast[a])
        f.pctrl[a] = L.ite(fired, owner, f.pctrl[a])
        f.pend[a] = L.ite(L.and_(fired, pend < cap), pend + 1, pend)
        f.trig[watcher] = L.or_(f.trig[watcher], fired)
        if fired is True:
            ctx.note("trigger", [watcher], ability.label)
    if w.watchers:
        events.heard(ctx, event, hit, then)


def targeted(ctx: Ctx, target: int | None) -> None:
    """An activation targets ``target``: "when a card is targeted" conditions and triggers
    (a targeted player is no card: nothing watches for that)."""
    if target is None or target >= ctx.w.n:
        return
    f = ctx.f
    hit = [c == target for c in range(ctx.w.n)]
    fire(ctx, "targeted", hit, list(f.zone))


def fire_step(ctx: Ctx, step: str) -> None:
    """The step ``step`` begins: "at the beginning of" triggers trigger, of cards face-up on
    the field (Magic, CR 503.1a and 603.2: "at the beginning of your upkeep") or, for an
    effect activated in the graveyard, of cards there (Yu-Gi-Oh!'s Sinister Serpent: "During
    your Standby Phase, if this card is in your GY")."""
    L, f, w = ctx.L, ctx.f, ctx.w
    for a in w.triggers:
        ability = w.abilities[a]
        spec = ability.trigger
        assert spec is not None
        if spec.step != step:
            continue
        card = ability.card
        if ability.origin is Zone.FIELD:
            fired = present(ctx, card)
        else:
            fired = f.zone[card] == int(ability.origin)
        if spec.whose == "your":
            fired = L.and_(fired, f.ctrl[card] == turn_player(ctx))
        if L.is_false(fired):
            continue
        pend = f.pend[a]
        ctx.exceed(Capacity.PENDING, L.and_(fired, pend >= ctx.w.layout.pending_cap))
        f.pseq[a] = L.ite(L.and_(fired, pend == 0), f.seq, f.pseq[a])
        f.plast[a] = L.ite(fired, f.seq, f.plast[a])
        f.pctrl[a] = L.ite(fired, f.ctrl[card], f.pctrl[a])
        f.pend[a] = L.ite(L.and_(fired, pend < ctx.w.layout.pending_cap), pend + 1, pend)
        f.trig[card] = L.or_(f.trig[card], fired)
        if fired is True:
            ctx.note("trigger", [card], ability.label)


def _keeps(ctx: Ctx, a: int, after_chain: bool) -> Term:
    """Whether a waiting trigger may still activate now (it has not missed the timing)."""
    spec = ctx.w.abilities[a].trigger
    assert spec is not None
    f = ctx.f
    if not spec.optional or ctx.w.model.missing_timing == MissingTiming.NEVER:
        return True  # mandatory triggers wait for the first legal moment
    last = f.plast[a] == f.seq
    if ctx.w.model.missing_timing == MissingTiming.ALL_OPTIONAL:
        # Seed 001: an optional trigger that cannot activate the moment it triggers is lost;
        # only triggers of an event outside a chain (a summon) can activate at once.
        return False if after_chain else last
    # Current rules: "When ... you can" misses unless its event was the last thing to happen;
    # "If ... you can" does not miss.
    return last if spec.wording == "when" else True


def collect(ctx: Ctx, after_chain: bool, when: Term = True) -> Term:
    """At a legal moment to activate triggers: drop those that missed; are any left?"""
    L, f, w = ctx.L, ctx.f, ctx.w
    waiting: list[Term] = []
    if L.is_false(when):
        return False
    for a in w.triggers:
        pend = f.pend[a]
        if L.is_false(pend > 0):
            continue
        keep = _keeps(ctx, a, after_chain)
        missed = L.and_(when, pend > 0, L.not_(keep))
        card = w.abilities[a].card
        f.miss[card] = L.or_(f.miss[card], missed)
        f.pend[a] = L.ite(missed, 0, pend)
        if missed is True:
            ctx.note("miss", [card], w.abilities[a].label)
        waiting.append(f.pend[a] > 0)
    return L.and_(when, L.or_(*waiting))


def group(ctx: Ctx, a: int) -> Term:
    """The SEGOC group of a waiting trigger: 0 mandatory turn player ... 3 optional opponent."""
    w, L = ctx.w, ctx.L
    ability = w.abilities[a]
    spec = ability.trigger
    assert spec is not None
    is_turn_player = ctx.f.pctrl[a] == turn_player(ctx)
    if w.model.simultaneous == Simultaneous.APNAP:
        return L.ite(is_turn_player, 0, 1)
    base = 2 if spec.optional else 0
    return L.ite(is_turn_player, base, base + 1)


def may_place(ctx: Ctx, a: int) -> Iterator[Check]:
    """The rules that let trigger ``a`` be the next link placed on the new chain."""
    L, f, w = ctx.L, ctx.f, ctx.w
    yield Check("triggers.mode", f.mode == int(Mode.TRIGGERS))
    yield Check("triggers.waiting", f.pend[a] > 0)
    mine = group(ctx, a)
    earlier = w.model.earlier_triggered_first
    before: list[Term] = []
    for b in w.triggers:
        if b == a:
            continue
        theirs = group(ctx, b)
        if earlier:
            # Seed 001: a trigger triggered earlier goes on the chain before later ones.
            first = L.or_(f.pseq[a] < f.pseq[b], L.and_(f.pseq[a] == f.pseq[b], mine <= theirs))
        else:
            first = mine <= theirs
        before.append(L.or_(f.pend[b] == 0, first))
    rule = "triggers.earlier-first" if earlier else f"triggers.{w.model.simultaneous}"
    yield Check(rule, L.and_(*before))


def summons_itself_from_hand(ability: Ability) -> bool:
    """Whether ``ability`` is a trigger effect, activated in the hand, that Special Summons
    its own monster (Battle Fader)."""
    return (
        ability.trigger is not None
        and ability.origin is Zone.HAND
        and any(e.verb == "special-summon" and e.obj == "this-card" for e in ability.parts())
    )


def one_from_hand(ctx: Ctx, a: int, player: Term) -> Iterator[Check]:
    """Under ``hand_self_summons: one-per-chain``, each player activates at most one trigger
    effect of a monster that Special Summons itself from the hand per chain (the rule judges
    call the "Green Baboon" rule; Konami's ruling on two Battle Faders answering one attack
    declaration)."""
    w = ctx.w
    if w.model.hand_self_summons != HandSelfSummons.ONE_PER_CHAIN or not summons_itself_from_hand(
        w.abilities[a]
    ):
        return
    L, f = ctx.L, ctx.f
    others = [b.index for b in w.abilities if summons_itself_from_hand(b)]
    placed = [
        L.and_(f.clen > i, f.lpl[i] == player, L.or_(*(f.lab[i] == b for b in others)))
        for i in range(w.layout.slots)
    ]
    yield Check("triggers.one-from-hand", L.not_(L.or_(*placed)))


def remaining(ctx: Ctx) -> Term:
    """Whether any trigger is still waiting to be placed."""
    L, f = ctx.L, ctx.f
    return L.or_(*(f.pend[a] > 0 for a in ctx.w.triggers))


def after_placing(ctx: Ctx) -> None:
    """Once every waiting trigger is placed or declined, the chain is built as usual."""
    L, f = ctx.L, ctx.f
    last_player = L.select(speed.top_slot(ctx), f.lpl, turn_player(ctx))
    more = remaining(ctx)
    has_chain = f.clen > 0
    f.mode = L.ite(
        more,
        int(Mode.TRIGGERS),
        L.ite(
            has_chain,
            int(Mode.BUILD),
            L.ite(timing.responding(ctx), int(Mode.OPEN), timing.settled(ctx)),
        ),
    )
    built = L.and_(L.not_(more), has_chain)
    if ctx.w.model.right_to_respond == RightToRespond.CASTER_KEEPS:
        # Magic (CR 117.3b-c, 117.5): triggers are put on the stack before a player receives
        # priority, then the player who would have received it does (who holds it meanwhile:
        # the active player after a resolution or as a step begins, a spell's caster).
        f.passes = L.ite(more, f.passes, 0)
        return
    protocol.open_responses(ctx, built, last_player)
    protocol.open_state(ctx, L.and_(L.not_(more), L.not_(has_chain)))
