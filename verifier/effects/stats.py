"""Verbs that change a monster's ATK or DEF: ``change-atk``, ``change-def``.

A change applies to a face-up monster on the field, never takes the value below 0 (it
becomes 0), and is lost when the monster leaves the field or is flipped face-down
(:mod:`verifier.rules.moves`; the official rulebook). Continuations never leave their turn,
so a change "until the end of this turn" lasts for the rest of the continuation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from verifier.core.logic import Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Object, Place, Told, Verb
from verifier.spec.cards import Effect
from verifier.spec.values import MAX_POINTS

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["CHANGE_ATK", "CHANGE_DEF", "STAT_FIELDS"]

STAT_FIELDS = {"change-atk": "atk", "change-def": "defense"}
"""The state field each verb changes (a monster's current ATK, DEF)."""


class StatChange(BaseModel):
    """``{on: target, by: -500}``: which monsters, and by how much (a loss is negative)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    on: Object = Field("this-card", description="which monsters: an effect object")
    by: int = Field(ge=-MAX_POINTS, le=MAX_POINTS, description="the change, -10^9 to 10^9")


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    if value.by == 0:
        raise loading.fail("a change of 0 changes nothing")
    return {"obj": value.on, "amount": value.by}


def _change(verb: str) -> Any:
    def apply(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
        from verifier.effects.movement import objects
        from verifier.rules.context import on_field

        assert effect.amount is not None
        L, f, w = ctx.L, ctx.f, ctx.w
        column = getattr(f, STAT_FIELDS[verb])
        hit = objects(ctx, link, effect)
        for c, h in enumerate(hit):
            change = L.and_(go, h, on_field(ctx, c), f.up[c], w.cards[c].type == "monster")
            if L.is_false(change):
                hit[c] = False
                continue
            value = ctx.add(column[c], effect.amount, change)
            column[c] = L.ite(change, L.ite(value < 0, 0, value), column[c])
            hit[c] = change
        if all(L.is_false(h) for h in hit):
            return
        ctx.event(L.or_(*hit))
        ctx.note(verb, hit, str(effect.amount))

    return apply


def _told(stat_name: str) -> Any:
    def tell(note: Note, names: Names) -> list[Told]:
        if not note.cards:
            return []
        stat = names.term(stat_name)
        amount = int(note.detail) if note.detail.lstrip("-").isdigit() else 0
        one = len(note.cards) == 1
        if amount == 0:
            text = f"{names.listed(note)} {'has its' if one else 'have their'} {stat} changed"
        else:
            verb = ("gains" if one else "gain") if amount > 0 else ("loses" if one else "lose")
            text = f"{names.listed(note)} {verb} {abs(amount)} {stat}"
        return [Told("effect", text, None, note.cards[0])]

    return tell


def _generate(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        objects: list[str] = ["this-card", "all-monsters"]
        if place.target:
            objects += ["target"] * 4
        if place.summon:
            objects += ["summoned"] * 2
        amount = c.pick([100, 300, 500, 1000, 2000, MAX_POINTS])
        change = {"on": c.pick(objects), "by": amount if c.integer(0, 2) > 0 else -amount}
        part: dict[str, Any] = {name: change}
        if change["on"] == "all-monsters" and c.integer(0, 1) == 0:
            part["of"] = c.pick(["you", "opponent"])
        return [part]

    return generate


CHANGE_ATK = Verb(
    "change-atk",
    StatChange,
    _load,
    _change("change-atk"),
    {"change-atk": _told("ATK")},
    _generate("change-atk"),
    fields=("atk",),
    amount="stat",
    schema={
        "description": "change the ATK of a face-up monster by an amount (never below 0), until"
        " it leaves the field or is flipped face-down"
    },
)
CHANGE_DEF = Verb(
    "change-def",
    StatChange,
    _load,
    _change("change-def"),
    {"change-def": _told("DEF")},
    _generate("change-def"),
    fields=("defense",),
    amount="stat",
    schema={
        "description": "change the DEF of a face-up monster by an amount (never below 0), until"
        " it leaves the field or is flipped face-down"
    },
)
