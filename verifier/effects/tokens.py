"""Tokens (Magic, CR 111): ``create-token`` puts creature tokens onto the battlefield under
the control of the effect's controller (111.2).

A token is no card of the scenario's list: the scenario keeps a slot for each token it may
create, a card named after it ("Soldier Token 1", "Soldier Token 2", ...; loaded by
:mod:`verifier.io.tokens`) that is in no zone (``Zone.NONE``) until the effect creates it.
A token that leaves the battlefield ceases to exist (704.5d, the state-based action
``token-ceases`` of :mod:`verifier.rules.sba`): its slot is in no zone again and stays
used (``made``), for a token is one object (400.7): a spell that targeted it never reaches
a later token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from verifier.core.logic import Term
from verifier.core.state import Capacity, array, declare
from verifier.effects.verb import Chooser, Link, Loading, Names, Need, Place, Told, Verb, are
from verifier.spec.cards import Effect, TokenSpec, Zone
from verifier.spec.values import MAX_POINTS

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["CREATE_TOKEN", "MAX_TOKEN_SLOTS", "slots_of", "token_name"]

# The token of this slot was created: it is one object, and once gone (CR 704.5d) it never
# comes back.
declare(array("made", "card", False))

MAX_TOKEN_SLOTS = 8
"""The most token slots one ``create-token`` part may name (each is a card of the state)."""

_Color = Literal["white", "blue", "black", "red", "green"]
_Stat = Annotated[int, Field(ge=0, le=MAX_POINTS)]


class TokenFile(BaseModel):
    """The creature tokens an effect creates: {name: Soldier, count: 2, power: 1, toughness: 1}."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, Field(min_length=1, max_length=60, pattern=r"\S")] = Field(
        description="the token's name; its slots are called 'NAME Token 1', 'NAME Token 2', ..."
    )
    count: int = Field(1, ge=1, le=MAX_TOKEN_SLOTS, description="how many it creates at once")
    power: _Stat = Field(description="the token's power")
    toughness: _Stat = Field(description="the token's toughness")
    color: _Color | list[_Color] | None = Field(
        None, description="its colour or colours (none: colourless)"
    )
    slots: int | None = Field(
        None,
        ge=1,
        le=MAX_TOKEN_SLOTS,
        description="how many of its tokens the scenario names (default: count); one more "
        "created makes a verdict that needs it unknown",
    )


def token_name(name: str, number: int) -> str:
    """What a claim or a history calls token slot ``number`` of ``name``."""
    return f"{name} Token {number}"


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    assert isinstance(value, TokenFile)
    slots = value.count if value.slots is None else value.slots
    if slots < value.count:
        raise loading.fail(
            f"'slots: {slots}' is fewer than the {value.count} tokens it creates at once"
        )
    colors = [value.color] if isinstance(value.color, str) else value.color or []
    token = TokenSpec(value.name.strip(), value.power, value.toughness, frozenset(colors), slots)
    return {"amount": value.count, "token": token}


def slots_of(ctx: Ctx, ability: int, name: str) -> list[int]:
    """The cards that are the token slots of ``name`` for ``ability``."""
    return [c.index for c in ctx.w.cards if c.maker == ability and c.token == name]


def _create(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    from verifier.rules.moves import move

    L, f = ctx.L, ctx.f
    assert effect.token is not None and effect.amount is not None
    made: Term = 0
    hit: list[Term] = [False] * ctx.w.n
    for c in slots_of(ctx, link.ability.index, effect.token.name):
        # The first slots not used yet, in order.
        now = L.and_(go, L.not_(f.made[c]), made < effect.amount)
        hit[c] = now
        f.made[c] = L.or_(f.made[c], now)
        made = L.ite(now, made + 1, made)
    ctx.exceed(Capacity.TOKENS, L.and_(go, made < effect.amount))
    if all(L.is_false(h) for h in hit):
        return
    # 111.2: under the control of the player who created it; it is a new object (400.7).
    move(ctx, hit, Zone.FIELD, (), controller=link.me, quiet=True)
    ctx.note("token-created", hit, "", link.me)


def _told(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    noun = "a token" if len(note.cards) == 1 else "tokens"
    text = (
        f"{names.listed(note)} {are(note.cards)} created on the battlefield under "
        f"{names.who(note)}'s control ({noun}, CR 111.2)"
    )
    return [Told("effect", text, note.player, note.cards[0])]


def _generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
    token: dict[str, Any] = {
        "name": c.pick(["Soldier", "Goblin", "Spirit"]),
        "power": c.pick([0, 1, 2]),
        "toughness": c.pick([1, 1, 2]),
    }
    if c.integer(0, 1) == 0:
        token["count"] = 2
    return [{"create-token": token}]


TOKENS_CEASE = Need(
    lambda model: "token-ceases" in model.state_based,
    "'{verb}' needs the state-based action 'token-ceases' (CR 704.5d: a token that leaves "
    "the battlefield ceases to exist); {model} has none",
)

CREATE_TOKEN = Verb(
    "create-token",
    TokenFile,
    _load,
    _create,
    {"token-created": _told},
    _generate,
    needs=(TOKENS_CEASE,),
    fields=("made",),
    schema={
        "description": "Magic: create creature tokens under your control (CR 111): "
        "{name, count, power, toughness, color, slots}; claims and histories call them "
        "'NAME Token 1', 'NAME Token 2', ..."
    },
)
