"""Damage (Magic, CR 120): to a player it is lost life; to a creature it is marked on it,
and the state-based actions (:mod:`verifier.rules.sba`) destroy a creature whose damage
reaches its toughness.

A creature's power and toughness are the ATK and DEF columns of the state (``power`` and
``toughness`` in a scenario); the damage marked on it is ``dmg``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from verifier.core.logic import Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Object, Place, Told, Verb
from verifier.spec.cards import Effect
from verifier.spec.values import MAX_POINTS, Points

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["COMBAT_DAMAGE", "DAMAGE"]


class Dealt(BaseModel):
    """``{amount: 3, to: target}``: how much, and to which creatures."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    amount: int = Field(ge=1, le=MAX_POINTS, description="the damage dealt, 1 to 10^9")
    to: Object = Field(description="the creatures dealt damage (an effect object)")


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    if isinstance(value, Dealt):
        return {"amount": value.amount, "obj": value.to}
    return {"amount": value}  # to the player 'player' names


def _deal(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.effects.movement import objects
    from verifier.effects.resources import each_player, player
    from verifier.rules.context import on_field

    L, f, w = ctx.L, ctx.f, ctx.w
    assert effect.amount is not None
    if effect.obj is None:
        # 120.3a: damage dealt to a player causes that player to lose that much life.
        hurts = []
        for p, is_p in enumerate(each_player(link, effect.player, w.n, L)):
            hurt = L.and_(go, is_p)
            hurts.append(hurt)
            f.lp[p] = L.ite(hurt, ctx.life_left(f.lp[p], effect.amount, hurt), f.lp[p])
        ctx.event(go)
        if effect.player == "target":  # "deals 3 damage to target player"
            for p, hurt in enumerate(hurts):
                if hurt is True:
                    ctx.note("damage-target-player", [link.ability.card], str(effect.amount), p)
        elif go is True:
            ctx.note("damage-player", (), str(effect.amount), player(link, effect.player))
        return
    struck = _to_player_target(ctx, link, effect, go)
    # 120.3e: damage dealt to a creature is marked on it.
    hit = objects(ctx, link, effect)
    for c, h in enumerate(hit):
        marked = L.and_(go, h, on_field(ctx, c), w.cards[c].type == "monster")
        hit[c] = marked
        if not L.is_false(marked):
            f.dmg[c] = L.ite(marked, ctx.add(f.dmg[c], effect.amount, marked), f.dmg[c])
    if all(L.is_false(h) for h in [*hit, *struck]):
        return
    ctx.event(L.or_(*hit, *struck))  # dealt at once, one event (CR 120.3)
    if not all(L.is_false(h) for h in hit):
        ctx.note("damage-marked", hit, str(effect.amount))
    for p, hurt in enumerate(struck):
        if hurt is True:
            ctx.note("damage-target-player", [link.ability.card], str(effect.amount), p)


def _to_player_target(ctx: Ctx, link: Link, effect: Effect, go: Term) -> list[Term]:
    """Damage to a targeted player (CR 115.1, 120.3a: "any target"): that player loses
    that much life; a player stays a legal target (CR 115.10). For each player, whether
    they were dealt it."""
    from verifier.effects.movement import target_fits

    L, f, w = ctx.L, ctx.f, ctx.w
    ability = link.ability
    aims = [ability.target] + ([ability.filter_of(True)] if ability.targets > 1 else [])
    if effect.obj != "target" or not any(f is not None and f.players for f in aims):
        return []
    assert effect.amount is not None
    struck: list[Term] = []
    for p in (0, 1):
        at = w.n + p
        aimed = L.and_(link.target == at, target_fits(ctx, ability, at, link.me))
        if ability.targets > 1:
            again = L.and_(link.target2 == at, target_fits(ctx, ability, at, link.me, True))
            aimed = L.or_(aimed, again)
        hurt = L.and_(go, aimed)
        struck.append(hurt)
        if not L.is_false(hurt):
            f.lp[p] = L.ite(hurt, ctx.life_left(f.lp[p], effect.amount, hurt), f.lp[p])
    return struck


def _told_target_player(note: Note, names: Names) -> list[Told]:
    source = names.cards[note.cards[0]]
    text = f"{source} deals {note.detail} damage to {names.who(note)}"
    return [Told("effect", text, note.player)]


def _told_player(note: Note, names: Names) -> list[Told]:
    return [Told("effect", f"{names.who(note)} is dealt {note.detail} damage", note.player)]


def _told_creature(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    verb = "is" if len(note.cards) == 1 else "are"
    text = f"{names.listed(note)} {verb} dealt {note.detail} damage"
    return [Told("effect", text, None, note.cards[0])]


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    amount = c.pick([1, 2, 3, 5])
    if place.target and c.integer(0, 1) == 0:
        return [{"damage": {"amount": amount, "to": "target"}}]
    if place.player_target and c.integer(0, 1) == 0:
        return [{"damage": amount, "player": "target"}]
    return [{"damage": amount, "player": c.pick(["you", "opponent"])}]


DAMAGE = Verb(
    "damage",
    Points | Dealt,
    _load,
    _deal,
    {
        "damage-player": _told_player,
        "damage-marked": _told_creature,
        "damage-target-player": _told_target_player,
    },
    _generate,
    fields=("dmg", "defense"),
    amount="loss",
    schema={
        "description": "Magic: deal this much damage to the player 'player' names (who loses "
        "that much life), or {amount, to} to creatures (marked on them; lethal damage "
        "destroys them as a state-based action)"
    },
)


def _deal_combat(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.rules import combat

    combat.deal(ctx, go)


def _told_combat(note: Note, names: Names) -> list[Told]:
    hurt = f"{names.listed(note)} {'is' if len(note.cards) == 1 else 'are'} dealt combat damage"
    text = f"combat damage is dealt: {hurt}" if note.cards else "combat damage is dealt"
    if note.detail not in ("", "0"):
        text += f"; {names.who(note)} is dealt {note.detail}"
    return [Told("effect", text, note.player)]


COMBAT_DAMAGE = Verb(
    "combat-damage",
    Literal["assigned"],
    lambda value, spec, loading: {},
    _deal_combat,
    {"combat-damage": _told_combat},
    lambda c, place: [],
    fields=("atkg", "blk", "asg", "dmg", "defense", "atk", "blkd", "atgt"),
    schema={
        "description": "Magic: deal the combat damage assigned as the combat damage step "
        "began (the object combat damage on the stack puts there)"
    },
)
