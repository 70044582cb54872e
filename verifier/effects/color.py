"""The verb that changes a permanent's colours until end of turn: ``become-color`` (Magic,
CR 105.3; Cerulean Wisps: "Target creature becomes blue until end of turn").

The new colours replace all the permanent's colours (105.3: "becomes blue" is blue only;
``colorless`` takes every colour away). The change lasts until the turn ends
(:mod:`verifier.rules.turn`, as 514.2 ends "until end of turn" effects in the cleanup step)
or until the permanent leaves the battlefield (:mod:`verifier.rules.moves`: it is a new
object, 400.7). A scenario with the verb keeps each card's colours in the state (the
optional field ``colors``, :mod:`verifier.rules.colors`), and the colour filters of targets
(Terror's ``non-black``) read them as the targets are chosen and again as the spell resolves
(608.2b).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from verifier.core.logic import Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Object, Place, Told, Verb
from verifier.spec.cards import COLOR_BITS, Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["BECOME_COLOR", "FIELD"]

FIELD = "colors"
"""The optional state field the verb writes (:data:`verifier.rules.colors.FIELD`)."""

_Color = Literal["white", "blue", "black", "red", "green", "colorless"]


class ColorChange(BaseModel):
    """``{color: blue, on: target}``: the new colours, and which permanents get them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    color: _Color | list[_Color] = Field(
        description="the new colour or colours (white, blue, black, red, green), or colorless"
    )
    on: Object = Field("this-card", description="which permanents: an effect object")


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    assert isinstance(value, ColorChange)
    listed = [value.color] if isinstance(value.color, str) else list(value.color)
    if not listed:
        raise loading.fail("'color' names at least one colour, or colorless")
    if "colorless" in listed and len(listed) > 1:
        raise loading.fail("'colorless' is no colour: it goes alone (CR 105.2c)")
    if len(set(listed)) < len(listed):
        raise loading.fail("'color' names a colour twice")
    return {"obj": value.on, "colors": frozenset(c for c in listed if c in COLOR_BITS)}


def _become_color(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.effects.movement import objects
    from verifier.rules import colors
    from verifier.rules.context import on_field

    assert effect.colors is not None
    L, f = ctx.L, ctx.f
    value = colors.mask(effect.colors)
    hit = objects(ctx, link, effect)
    for c, h in enumerate(hit):
        change = L.and_(go, h, on_field(ctx, c))
        if L.is_false(change):
            hit[c] = False
            continue
        f.colors[c] = L.ite(change, value, f.colors[c])
        hit[c] = change
    if all(L.is_false(h) for h in hit):
        return
    ctx.event(L.or_(*hit))
    ctx.note("become-color", hit, _spelled(effect.colors))


def _spelled(colors: frozenset[str]) -> str:
    """``blue``, ``white and blue``, ``colorless``: in the order of CR 105.1."""
    listed = [c for c in COLOR_BITS if c in colors]
    if not listed:
        return "colorless"
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def _told(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    verb = "becomes" if len(note.cards) == 1 else "become"
    text = f"{names.listed(note)} {verb} {note.detail} until end of turn (CR 105.3)"
    return [Told("effect", text, None, note.cards[0])]


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    objects: list[str] = ["this-card", "all-monsters"]
    if place.target:
        objects += ["target"] * 4
    change: dict[str, Any] = {"color": c.pick(["blue", "black", "red", "colorless"])}
    on = c.pick(objects)
    if on != "this-card":
        change["on"] = on
    return [{"become-color": change}]


BECOME_COLOR = Verb(
    "become-color",
    ColorChange,
    _load,
    _become_color,
    {"become-color": _told},
    _generate,
    fields=(FIELD,),
    schema={
        "description": "Magic: a permanent on the battlefield becomes the colour or colours "
        "named (or colorless) until end of turn, in place of its others (CR 105.3); colour "
        "filters read its colours now"
    },
)
