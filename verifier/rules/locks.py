"""Continuous locks and protections, and when a card's continuous effects apply.

A continuous effect applies only while its card is face-up on the field with its effects
live: a monster whose Summon can still be negated is not on the field yet (so Jinzo's lock
does not stop the Counter Trap that negates its Summon); a Continuous Spell or Trap applies
once its activation resolved; a card whose effects are negated applies none.

- ``cannot-activate``: "Trap Cards cannot be activated" (Jinzo), "Neither player can
  activate Spell Cards" (Spell Canceller): checked when a card or effect is activated.
- ``untargetable``: "cannot be targeted by card effects": checked when a target is chosen on
  activation, not again on resolution (Official Rulebook v10, "Targeting").
- ``unaffected``: "unaffected by Spell effects": the effects of those cards do not act on the
  card (:func:`shielded`, read where an effect chooses the cards it acts on). Negating an
  activation or an effect on the chain acts on the chain link, not on the card, so a
  protected card's activation can still be negated.
- ``cannot-be-negated`` (an ability's or card's key): negations of its activation or effect
  do nothing to its link (:func:`unnegatable`), nor do continuous negations to its effects.
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.rules.context import Check, Ctx, matches, present
from verifier.spec.cards import Ability, Continuous, ContinuousKind

__all__ = [
    "activation_locks",
    "live",
    "negated_continuously",
    "negation_applies",
    "shielded",
    "target_locks",
    "unnegatable",
]


def _on(ctx: Ctx, card: int) -> Term:
    """Face-up on the field, and for a Spell or Trap, its activation resolved."""
    L, f, w = ctx.L, ctx.f, ctx.w
    return L.and_(present(ctx, card), f.active[card] if w.cards[card].type != "monster" else True)


def _exempt(ctx: Ctx, card: int, source: int) -> Term:
    """Whether ``card`` (with its protections switched on) is unaffected by ``source``'s
    effects, whoever controls them, as a continuous negation's card."""
    w, L, f = ctx.w, ctx.L, ctx.f
    cases: list[Term] = []
    for k, lock in w.locks:
        if k != card or lock.kind != ContinuousKind.UNAFFECTED or k == source:
            continue
        if w.cards[source].type not in lock.types:
            continue
        side: Term = True if lock.by == "any" else f.ctrl[source] != f.ctrl[card]
        cases.append(side)
    if not cases:
        return False
    return L.and_(_on(ctx, card), L.or_(*cases))


def negation_applies(ctx: Ctx, k: int) -> Term:
    """Whether the continuous negation of card ``k`` applies now: it is face-up on the field
    (a Spell or Trap after its activation resolved), and no other continuous negation of its
    own card type applies (Royal Decree switches off Skill Drain; two that negate each
    other's type both stop), nor did an effect negate its card's effects for the turn."""
    L, w = ctx.L, ctx.w
    if w.cards[k].cannot_be_negated:
        return _on(ctx, k)
    kind = w.cards[k].type
    off: list[Term] = [w.layout.has("veiled") and ctx.f.veiled[k]]
    off += [
        L.and_(_on(ctx, j), L.not_(_exempt(ctx, k, j)))
        for j, what in w.negators
        if j != k and what.rstrip("s") == kind
    ]
    return L.and_(_on(ctx, k), L.not_(L.or_(*off)))


def negated_continuously(ctx: Ctx, card: int) -> Term:
    """Whether a continuous negation of another card reaches ``card``'s effects now (not a
    card that cannot be negated, nor one unaffected by the negating card), or an effect
    negated them until the end of the turn (``negate-card-effects``)."""
    L, w = ctx.L, ctx.w
    if w.cards[card].cannot_be_negated:
        return False
    kind = w.cards[card].type
    return L.or_(
        w.layout.has("veiled") and ctx.f.veiled[card],  # negated until the end of the turn
        *(
            L.and_(negation_applies(ctx, k), L.not_(_exempt(ctx, card, k)))
            for k, what in w.negators
            if k != card and what.rstrip("s") == kind
        ),
    )


def live(ctx: Ctx, card: int) -> Term:
    """Whether ``card``'s continuous effects apply now: face-up on the field, its
    activation resolved (a Spell or Trap), and not negated."""
    return ctx.L.and_(_on(ctx, card), ctx.L.not_(negated_continuously(ctx, card)))


def _side(ctx: Ctx, by: str, player: Term, card: int) -> Term:
    """Whether ``player`` is whom ``by`` names, relative to ``card``'s controller."""
    f = ctx.f
    if by == "you":
        return player == f.ctrl[card]
    if by == "opponent":
        return player != f.ctrl[card]
    return True


def shielded(ctx: Ctx, card: int, source: int, me: Term) -> Term:
    """Whether ``card`` is unaffected by an effect of ``source`` that ``me`` controls."""
    L, w = ctx.L, ctx.w
    cases = [
        _side(ctx, lock.by, me, card)
        for k, lock in w.locks
        if k == card
        and lock.kind == ContinuousKind.UNAFFECTED
        and card != source
        and w.cards[source].type in lock.types
    ]
    if not cases:
        return False
    return L.and_(live(ctx, card), L.or_(*cases))


def _stopping(ctx: Ctx, lock: Continuous, ability: Ability) -> bool:
    return (
        lock.kind == ContinuousKind.CANNOT_ACTIVATE and ctx.w.cards[ability.card].type in lock.types
    )


def activation_locks(ctx: Ctx, ability: Ability, player: Term) -> Iterator[Check]:
    """A continuous "cannot be activated" / "cannot activate" that stops this activation."""
    L = ctx.L
    stops = [
        L.and_(live(ctx, k), _side(ctx, lock.by, player, k))
        for k, lock in ctx.w.locks
        if _stopping(ctx, lock, ability)
    ]
    if stops:
        yield Check("lock.cannot-activate", L.not_(L.or_(*stops)))


def target_locks(ctx: Ctx, ability: Ability, target: int | None, player: Term) -> Iterator[Check]:
    """A continuous "cannot be targeted" that protects the chosen target from this
    activation (checked as the target is chosen, not again on resolution). No lock
    protects a player (hexproof for players is not modelled)."""
    L, w = ctx.L, ctx.w
    if target is None or target >= w.n:
        return
    stops: list[Term] = []
    for k, lock in w.locks:
        if lock.kind != ContinuousKind.UNTARGETABLE:
            continue
        if lock.filter is None:
            if target != k:
                continue
            protects: Term = True
        else:
            if not w.static_match(target, lock.filter):
                continue
            protects = matches(ctx, target, lock.filter, ctx.f.ctrl[k], k)
        stops.append(L.and_(live(ctx, k), protects, _side(ctx, lock.by, player, k)))
    if stops:
        yield Check("lock.untargetable", L.not_(L.or_(*stops)))


def unnegatable(ctx: Ctx, ability: Term) -> Term:
    """Whether the link of ``ability`` (an ability index) cannot be negated."""
    L, w = ctx.L, ctx.w
    return L.or_(
        *(
            ability == a.index
            for a in w.abilities
            if a.cannot_be_negated or w.cards[a.card].cannot_be_negated
        )
    )
