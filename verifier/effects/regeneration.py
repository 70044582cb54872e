"""Magic's ``regenerate``: a regeneration shield for what it acts on (CR 701.19).

The shield and the destruction it replaces are :mod:`verifier.rules.regeneration`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from verifier.core.logic import Term
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
from verifier.spec.cards import Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx

__all__ = ["REGENERATE"]


def _regenerate(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.effects.movement import objects
    from verifier.rules import regeneration
    from verifier.rules.context import on_field

    L = ctx.L
    hit = [L.and_(go, h, on_field(ctx, c)) for c, h in enumerate(objects(ctx, link, effect))]
    regeneration.shield(ctx, hit)


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    return [object_part(c, place, "regenerate")]


REGENERATE = Verb(
    "regenerate",
    Object,
    takes_object,
    _regenerate,
    {
        "shield": told_of_cards(
            "gets a regeneration shield: the next time it would be destroyed this turn, it is "
            "tapped, its damage is removed and it is removed from combat instead (CR 701.19a)"
        ),
        "regenerated": told_of_cards(
            "regenerates instead of being destroyed: it is tapped, its damage is removed and "
            "it is removed from combat (CR 701.19a)"
        ),
    },
    _generate,
    fields=("shield", "dizzy", "dmg"),
    schema={
        "description": "Magic: regenerate what it acts on (CR 701.19): the next time it would "
        "be destroyed this turn, it is tapped, its damage removed and it is removed from "
        "combat instead"
    },
)
