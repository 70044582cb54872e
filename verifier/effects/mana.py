"""Magic's ``add-mana``: a mana ability adds mana to its controller's pool (CR 605, 106.4).

The pool and the costs paid from it are :mod:`verifier.rules.mana`'s; the state keeps a pool
for each type of mana the scenario uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from verifier.core.logic import Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Place, Told, Verb
from verifier.spec.cards import Effect
from verifier.spec.mana import parse, spelled

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["ADD_MANA", "MANA_TEXT"]

MANA_TEXT = Annotated[str, Field(min_length=1, max_length=40)]
"""Mana as the files write it: ``{G}``, ``{1}{U}{U}``, ``GG``."""


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    parsed = parse(value)
    if parsed is None:
        raise loading.fail(
            f"'{value}' is not mana: write symbols such as {{G}}, {{U}}{{U}} or {{C}} "
            "(W, U, B, R, G, C)"
        )
    generic, counts = parsed
    if generic:
        raise loading.fail(
            f"'{value}': a mana ability adds mana of a type ({{C}} for colourless), not "
            "generic mana (CR 106.1)"
        )
    return {"mana": counts}


def _add(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.rules.mana import add

    add(ctx, link.me, effect.mana, go)
    if go is True and isinstance(link.me, int):
        ctx.note("mana", (), spelled(0, effect.mana), link.me)


def _told(note: Note, names: Names) -> list[Told]:
    who = names.who(note)
    text = f"{who} adds {note.detail} to their mana pool (CR 106.4)"
    return [Told("effect", text, note.player, None)]


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    # A spell that adds mana (Dark Ritual); lands and their mana abilities come with the
    # generator's Magic mana (designer/generate.py).
    return [{"add-mana": c.pick(["G", "U", "{C}{C}"])}]


ADD_MANA = Verb(
    "add-mana",
    MANA_TEXT,
    _load,
    _add,
    {"mana": _told},
    _generate,
    schema={
        "description": "Magic: add mana to your mana pool (a mana ability, CR 605): symbols "
        "such as '{G}', '{U}{U}' or '{C}'"
    },
)
