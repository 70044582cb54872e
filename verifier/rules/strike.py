"""Magic's first strike and double strike (CR 702.7, 702.4): two combat damage steps (510.4).

If at least one attacking or blocking creature has first strike or double strike as the
combat damage step begins, the turn goes through a first-strike combat damage step, in
which only those creatures assign combat damage; then players receive priority, and a
second (the regular) combat damage step follows, in which the remaining creatures without
first strike, and those with double strike, deal theirs. Otherwise there is one combat
damage step, in which every creature deals its damage. A creature destroyed by first-strike
damage is gone by the regular step and deals none. The keywords are static (a card's, never
gained or lost): a creature with first strike deals no damage in the regular step, one with
neither deals none in the first-strike step, whichever steps the turn goes through.

A scenario without either keyword has the step in its list but never reaches it: the turn
moves from the declare blockers step straight to the combat damage step, as before.
"""

from __future__ import annotations

from verifier.core.logic import Term
from verifier.core.world import World
from verifier.rules.context import Ctx, on_field
from verifier.spec.cards import Card

__all__ = ["FIRST", "REGULAR", "after_blockers", "deals_in", "has_strikers", "linear_next"]

FIRST = "first-strike-damage"
REGULAR = "combat-damage"


def _striker(card: Card) -> bool:
    return card.type == "monster" and (card.first_strike or card.double_strike)


def has_strikers(world: World) -> bool:
    """Whether a creature of the scenario has first strike or double strike (whether the
    turn may go through a first-strike combat damage step at all)."""
    return FIRST in world.steps and any(_striker(c) for c in world.cards)


def deals_in(card: Card, step: str) -> bool:
    """Whether ``card`` deals combat damage in the combat damage step ``step`` (CR 510.4):
    in the first-strike step, a creature with first strike or double strike; in the regular
    one, a creature without first strike, or with double strike."""
    if step == FIRST:
        return card.first_strike or card.double_strike
    return not card.first_strike or card.double_strike


def after_blockers(ctx: Ctx) -> Term:
    """The step after the declare blockers step: the first-strike combat damage step if an
    attacking or blocking creature has first strike or double strike, else the combat
    damage step (CR 510.4)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    regular = w.step_index(REGULAR)
    if not has_strikers(w) or not w.layout.has("atkg"):
        return regular
    fighting = [
        L.and_(on_field(ctx, c), L.or_(f.atkg[c], f.blk[c] >= 0))
        for c, card in enumerate(w.cards)
        if _striker(card)
    ]
    return L.ite(L.or_(*fighting), w.step_index(FIRST), regular)


def linear_next(steps: tuple[str, ...], index: int) -> int:
    """The step after ``index`` when the turn goes on step after step: past the declare
    blockers step, the combat damage step (the first-strike one is reached only as
    :func:`after_blockers` decides)."""
    if index + 1 < len(steps) and steps[index + 1] == FIRST:
        return index + 2
    return index + 1
