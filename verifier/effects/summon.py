"""The verb that Normal Summons a monster by a card effect: ``normal-summon``.

Ultimate Offering ("You can pay 500 LP; immediately after this effect resolves, Normal
Summon/Set 1 monster") and The Duke of Demise ("Immediately after this effect resolves, Normal
Summon 1 monster"). Konami's ruling on The Duke of Demise (OCG Animation Chronicle 2024 rulings):
"Immediately after resolving the Chain Link made by this effect, Normal Summon 1 monster." So:

- the monster is one its controller chooses as the link resolves (``normal-summon: chosen``,
  among the monsters its ``filter`` fits): a monster in that player's hand that needs no
  Tribute (Level 4 or lower). A Tribute Summon by an effect is not modelled;
- it is summoned face-up in Attack Position at once, while the chain resolves: nobody can act
  between the link and the Summon, so no Summon negation window opens (Solemn Judgment and Horn
  of Heaven cannot negate it), and its position stays this turn;
- it is an additional Normal Summon: the turn's own Normal Summon is still there;
- "summoned" and "normal-summoned" trigger effects see it; when it is the last thing to happen
  in the chain, the Summon response window opens after the chain, as after an effect's Special
  Summon, and "when a monster is Normal Summoned" cards may answer it (the optional ``ehow``
  state field says the window is a Normal Summon's);
- it needs a free Monster Zone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from verifier.core.logic import Term
from verifier.effects.movement import SUMMONED_HOW, monster_zones_used, objects
from verifier.effects.verb import Chooser, Link, Moved, Place, Verb, takes_object
from verifier.effects.verb import told_of_cards as _told
from verifier.spec.cards import Effect, Zone

if TYPE_CHECKING:
    from verifier.rules.context import Ctx

__all__ = ["FIELD", "NORMAL_SUMMON", "summons_without_tribute"]

FIELD = SUMMONED_HOW
"""The optional state field of how the latest effect's summon was done (``windows.HOW``)."""


def summons_without_tribute(ctx: Ctx, card: int) -> bool:
    """Whether ``card`` is a monster that can be Normal Summoned without a Tribute."""
    from verifier.rules.windows import tributes_needed

    c = ctx.w.cards[card]
    if c.type != "monster" or ctx.w.model.kinds[c.kind].cast:
        return False
    return tributes_needed(c.level or 0) == 0


def summonable(ctx: Ctx, card: int, me: Term) -> Term:
    """Whether ``me`` could Normal Summon ``card`` by an effect now: a monster in that
    player's hand that needs no Tribute."""
    f = ctx.f
    if not summons_without_tribute(ctx, card):
        return False
    return ctx.L.and_(f.zone[card] == int(Zone.HAND), f.ctrl[card] == me)


def _normal_summon(ctx: Ctx, link: Link, effect: Effect, go: Term) -> Moved:
    from verifier.rules.moves import move
    from verifier.rules.windows import HOW

    L, f, w = ctx.L, ctx.f, ctx.w
    hit = [
        L.and_(go, h, summonable(ctx, c, link.me)) for c, h in enumerate(objects(ctx, link, effect))
    ]
    used = monster_zones_used(ctx, link.me)
    if used is not None and w.model.monster_zones is not None:
        room = L.count(hit) + used <= w.model.monster_zones
        hit = [L.and_(h, room) for h in hit]
    if not all(L.is_false(h) for h in hit):
        ctx.note("normal-summoned", hit)
    moved = move(
        ctx, hit, Zone.FIELD, ("summoned", "normal-summoned"), controller=link.me, quiet=True
    )
    layout = w.layout
    for c, h in enumerate(moved.hit):
        if h is False:
            continue
        f.sseq[c] = L.ite(h, f.seq, f.sseq[c])
        if layout.has("dpos"):
            f.dpos[c] = L.and_(f.dpos[c], L.not_(h))  # face-up Attack Position
        if layout.has("fixed"):
            f.fixed[c] = L.or_(f.fixed[c], h)
    if layout.has(FIELD) and not all(L.is_false(h) for h in moved.hit):
        f.ehow = L.ite(L.or_(*moved.hit), HOW["normal"], f.ehow)
    return moved


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    part: dict[str, Any] = {
        "normal-summon": "chosen",
        "filter": {"card": "monster", "zone": "hand", "controller": "you"},
    }
    if c.integer(0, 2) == 0:
        part["filter"]["level-at-most"] = c.integer(1, 4)
    return [part]


NORMAL_SUMMON = Verb(
    "normal-summon",
    Literal["chosen"],
    takes_object,
    _normal_summon,
    {"normal-summoned": _told("is Normal Summoned")},
    _generate,
    schema={
        "description": "Normal Summon the card chosen as it resolves ('chosen', with a filter): "
        "a monster in the effect's controller's hand that needs no Tribute, summoned face-up "
        "in Attack Position while the chain resolves (no Summon negation window), besides the "
        "turn's own Normal Summon"
    },
    fields=(FIELD,),
    chooses=summonable,
)
