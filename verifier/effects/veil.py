"""The verb that negates a monster's effects until the end of the turn: ``negate-card-effects``
(Effect Veiler, Infinite Impermanence, Breakthrough Skill).

Its mark (the optional ``veiled`` state field) is set on a face-up monster on the field and
lasts until the end of the turn (:mod:`verifier.rules.turn`) or until the card leaves the field
(:mod:`verifier.rules.moves`): a card that leaves and comes back is a new card. While it is set:

- the monster's continuous effects do not apply (:func:`verifier.rules.locks.live`);
- an effect of the monster that resolves while it is face-up on the field is negated, which
  covers an effect activated on the field before the negation and still on the chain (Effect
  Veiler chained to it);
- an effect the monster activates on the field while marked is negated when it resolves, even
  if the monster has left the field by then (a cost that Tributes or banishes it): the
  negation follows where the effect was activated (:func:`activated_negated`). Effects
  activated in the hand or the graveyard are not touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from verifier.core.logic import Term
from verifier.core.state import Reset, array, declare
from verifier.effects.verb import (
    Chooser,
    Link,
    Object,
    Place,
    Verb,
    object_part,
    takes_object,
    told_of_cards,
)
from verifier.spec.cards import Ability, Effect, Zone

if TYPE_CHECKING:
    from verifier.rules.context import Ctx

__all__ = ["FIELD", "NEGATE_CARD_EFFECTS", "activated_negated", "veiled"]

FIELD = "veiled"
"""The optional state field the verb writes."""


def _negate_card_effects(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.effects.movement import objects
    from verifier.rules.context import on_field

    L, f, w = ctx.L, ctx.f, ctx.w
    hit = objects(ctx, link, effect)
    for c, h in enumerate(hit):
        if w.cards[c].type != "monster" or w.cards[c].cannot_be_negated:
            hit[c] = False
            continue
        change = L.and_(go, h, on_field(ctx, c), f.up[c])
        f.veiled[c] = L.or_(f.veiled[c], change)
        hit[c] = change
    if all(L.is_false(h) for h in hit):
        return
    ctx.event(L.or_(*hit))
    ctx.note("negate-card-effects", hit)


def veiled(ctx: Ctx, card: int) -> Term:
    """Whether ``card``'s effects are negated until the end of the turn (False in a scenario
    without the verb)."""
    if not ctx.w.layout.has(FIELD):
        return False
    negated: Term = ctx.f.veiled[card]
    return negated


def activated_negated(ctx: Ctx, ability: Ability) -> Term:
    """Whether an activation of ``ability`` now is an effect activated on the field by a
    monster whose effects are negated: its effect is negated when it resolves (read before the
    costs are paid, since a cost may take the monster off the field)."""
    if ability.card_activation or ability.origin is not Zone.FIELD or ability.cannot_be_negated:
        return False
    return veiled(ctx, ability.card)


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    return [object_part(c, place, "negate-card-effects")]


NEGATE_CARD_EFFECTS = Verb(
    "negate-card-effects",
    Object,
    takes_object,
    _negate_card_effects,
    {"negate-card-effects": told_of_cards("has its effects negated until the end of the turn")},
    _generate,
    fields=(FIELD,),
    schema={
        "description": "negate the effects of a face-up monster on the field until the end of "
        "the turn or until it leaves the field (Effect Veiler): its continuous effects stop, "
        "its effects that resolve while it is face-up there are negated, and so are those it "
        "activates on the field meanwhile"
    },
)

# Its effects are negated until the end of the turn, or until it moves or is turned
# face-down: a new card then.
declare(array(FIELD, "card", False, resets=frozenset({Reset.TURN, Reset.MOVES, Reset.FLIPPED})))
