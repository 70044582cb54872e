"""The coin toss: toss coins, then one branch of effect parts or the other.

Which branch happens is chosen by the resolve action (``Link.heads``), so both engines see
both outcomes as continuations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from verifier.core.logic import Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Place, Told, Verb
from verifier.spec.cards import Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["COIN_TOSS"]


def _toss(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.effects.parts import apply_effects

    least = effect.heads_at_least
    assert link.heads is not None and least is not None and effect.amount is not None
    if go is True:
        result = f"at least {least}" if link.heads else f"fewer than {least}"
        ctx.note("coin", (), f"{effect.amount} coin(s): {result} heads", link.me)
    ctx.event(go)
    apply_effects(ctx, link, effect.then if link.heads else effect.otherwise, go)


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    if spec.heads_at_least is None:
        raise loading.fail("coin-toss needs heads-at-least")
    if spec.heads_at_least > value:
        raise loading.fail("heads-at-least is more than the coins tossed")
    if spec.then is None:
        raise loading.fail("coin-toss needs 'then' (what happens on success)")
    return {"amount": value}


def _tossed(note: Note, names: Names) -> list[Told]:
    return [Told("effect", f"{names.who(note)} tosses {note.detail}", note.player)]


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    if place.depth <= 0:
        return []
    coins = c.integer(1, 2)
    toss: dict[str, Any] = {
        "coin-toss": coins,
        "heads-at-least": c.integer(0, coins),
        "then": place.parts(c),
    }
    if c.integer(0, 1) == 0:
        toss["otherwise"] = place.parts(c)
    return [toss]


COIN_TOSS = Verb(
    "coin-toss",
    int,
    _load,
    _toss,
    {"coin": _tossed},
    _generate,
    branches=True,
    schema={
        "description": "toss this many coins (1 to 8): 'then' if at least 'heads-at-least' "
        "are heads, else 'otherwise'",
        "ge": 1,
        "le": 8,
    },
)
