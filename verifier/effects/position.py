"""Verbs that change a card where it is: flip it face-down, take control of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from verifier.core.logic import Term
from verifier.core.state import Reset
from verifier.effects.verb import (
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

__all__ = ["FLIP_FACE_DOWN", "TAKE_CONTROL"]


def _flip_face_down(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.effects.movement import objects
    from verifier.rules.context import on_field, reset_card

    L, f, w = ctx.L, ctx.f, ctx.w
    hit = objects(ctx, link, effect)
    for c, h in enumerate(hit):
        flip = L.and_(go, h, on_field(ctx, c), f.up[c], w.cards[c].type == "monster")
        f.up[c] = L.ite(flip, False, f.up[c])
        # Flipped face-down, it loses the changes to its ATK and DEF.
        if w.layout.has("atk"):
            f.atk[c] = L.ite(flip, w.cards[c].atk or 0, f.atk[c])
        if w.layout.has("defense"):
            f.defense[c] = L.ite(flip, w.cards[c].defense or 0, f.defense[c])
        reset_card(ctx, Reset.FLIPPED, c, flip)  # and what was marked on it (a new card)
        hit[c] = flip
    changed(ctx, hit, "flip-face-down")


def _take_control(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.effects.movement import objects
    from verifier.rules.context import on_field

    L, f = ctx.L, ctx.f
    hit = objects(ctx, link, effect)
    for c, h in enumerate(hit):
        take = L.and_(go, h, on_field(ctx, c), f.ctrl[c] != link.me)
        f.ctrl[c] = L.ite(take, link.me, f.ctrl[c])
        hit[c] = take
    changed(ctx, hit, "take-control")


def _generate(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        return [object_part(c, place, name)]

    return generate


FLIP_FACE_DOWN = Verb(
    "flip-face-down",
    Object,
    takes_object,
    _flip_face_down,
    {"flip-face-down": told_of_cards("is flipped face-down")},
    _generate("flip-face-down"),
    schema={"description": "change what it acts on to face-down Defense Position"},
)
TAKE_CONTROL = Verb(
    "take-control",
    Object,
    takes_object,
    _take_control,
    {"take-control": told_of_cards("changes control")},
    _generate("take-control"),
    schema={"description": "take control of what it acts on"},
)
