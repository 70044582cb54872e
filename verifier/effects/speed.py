"""The CMC's verbs on a monster's state and speed: dizzy, undizzy, slow, speed up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from verifier.core.logic import Term
from verifier.effects.verb import (
    DIZZY_CARDS,
    SPEED_MODIFIERS,
    Chooser,
    Link,
    Object,
    Place,
    Verb,
    changed,
    object_part,
    takes_object,
    told_of_cards,
)
from verifier.spec.cards import Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx

__all__ = ["DIZZY", "SLOW", "SPEED_UP", "UNDIZZY"]


def _dizzy(value: bool) -> Any:
    def apply(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
        from verifier.effects.movement import objects
        from verifier.rules.context import on_field

        L, f = ctx.L, ctx.f
        hit = objects(ctx, link, effect)
        for c, h in enumerate(hit):
            change = L.and_(go, h, on_field(ctx, c), f.dizzy[c] != value)
            f.dizzy[c] = L.ite(change, value, f.dizzy[c])
            hit[c] = change
        changed(ctx, hit, effect.verb)

    return apply


def _modify(slower: bool) -> Any:
    def apply(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
        from verifier.effects.movement import objects
        from verifier.rules import speed

        L, f, w = ctx.L, ctx.f, ctx.w
        modified = speed.slowed if slower else speed.sped_up
        hit = objects(ctx, link, effect)
        for c, h in enumerate(hit):
            change = L.and_(go, h)
            for a in w.cards[c].abilities:
                now = f.aspd[a]
                f.aspd[a] = L.ite(change, modified(ctx, now), now)
            hit[c] = change
            for i in range(w.layout.slots):
                waiting = L.and_(change, f.lcard[i] == c, L.not_(f.ldone[i]), i < f.clen)
                f.lspd[i] = L.ite(waiting, modified(ctx, f.lspd[i]), f.lspd[i])
        changed(ctx, hit, effect.verb)

    return apply


def _generate_state(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        return [object_part(c, place, name)]

    return generate


def _generate_speed(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        shape = c.integer(0, 5)
        if shape == 0 and place.target:
            # Stacked modifiers: the same card slowed (or sped up) twice by one effect.
            return [{name: "target"}, {name: "target"}]
        if shape <= 2:
            return [{name: "target" if place.target else c.pick(["this-card", "all-cards"])}]
        return [object_part(c, place, name)]

    return generate


DIZZY = Verb(
    "dizzy",
    Object,
    takes_object,
    _dizzy(True),
    {"dizzy": told_of_cards("is dizzied")},  # also left by the cost ``dizzy: this``
    _generate_state("dizzy"),
    needs=(DIZZY_CARDS,),
    schema={"description": "CMC: dizzy what it acts on"},
)
UNDIZZY = Verb(
    "undizzy",
    Object,
    takes_object,
    _dizzy(False),
    {"undizzy": told_of_cards("is undizzied")},
    _generate_state("undizzy"),
    needs=(DIZZY_CARDS,),
    refreshes="dizzy",
    schema={"description": "CMC: undizzy what it acts on"},
)
SLOW = Verb(
    "slow",
    Object,
    takes_object,
    _modify(slower=True),
    {"slow": told_of_cards("is slowed")},
    _generate_speed("slow"),
    needs=(SPEED_MODIFIERS,),
    schema={"description": "CMC: slow what it acts on (its speed one step slower)"},
)
SPEED_UP = Verb(
    "speed-up",
    Object,
    takes_object,
    _modify(slower=False),
    {"speed-up": told_of_cards("is sped up")},
    _generate_speed("speed-up"),
    needs=(SPEED_MODIFIERS,),
    schema={"description": "CMC: speed up what it acts on (its speed one step faster)"},
)
