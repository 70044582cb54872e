"""Verbs that change a player's resources: draw, add from the deck, lose and gain Life Points."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from verifier.core.logic import Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Place, Told, Verb, takes_amount
from verifier.spec.cards import Effect
from verifier.spec.values import Cards, Points

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["ADD_FROM_DECK", "DRAW", "GAIN_LP", "LOSE_LP", "each_player", "player"]


def player(link: Link, who: str) -> Term:
    """The player ``you`` or ``opponent`` names, seen from the link's controller."""
    return link.me if who == "you" else 1 - link.me


def each_player(link: Link, who: str) -> list[Term]:
    """For each player, whether ``who`` names them."""
    target = player(link, who)
    return [target == p for p in (0, 1)]


def _draw(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f = ctx.L, ctx.f
    assert effect.amount is not None
    for p, is_p in enumerate(each_player(link, effect.player)):
        drawing = L.and_(go, is_p)
        f.drawn[p] = L.ite(drawing, ctx.add(f.drawn[p], effect.amount, drawing), f.drawn[p])
        if ctx.w.layout.has("hand"):
            # The cards drawn or added are in the hand, unlisted (a cost may discard them).
            f.hand[p] = L.ite(drawing, ctx.add(f.hand[p], effect.amount, drawing), f.hand[p])
    ctx.event(go)
    if go is True:
        ctx.note(effect.verb, (), str(effect.amount), player(link, effect.player))


def _life_points(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f = ctx.L, ctx.f
    for p, is_p in enumerate(each_player(link, effect.player)):
        changing = L.and_(go, is_p)
        # "Lose half": the Life Points left are rounded up (see Logic.half).
        amount = L.half(f.lp[p]) if effect.amount is None else effect.amount
        if effect.verb == "lose-lp":
            new = ctx.life_left(f.lp[p], amount, changing)
        else:
            new = ctx.add(f.lp[p], amount, changing)
        f.lp[p] = L.ite(changing, new, f.lp[p])
    ctx.event(go)
    if go is True:
        detail = "half" if effect.amount is None else str(effect.amount)
        ctx.note(effect.verb, (), detail, player(link, effect.player))


def _load_lose(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    return {"amount": None if value == "half" else value}


def _told(words: str) -> Any:
    """A narrator of a note about a player: ``A {words} 2 card(s)``, ``B {words} 500 ...``."""

    def tell(note: Note, names: Names) -> list[Told]:
        said = words.format(note.detail).replace("Life Points", names.term("Life Points"))
        return [Told("effect", f"{names.who(note)} {said}", note.player)]

    return tell


def _with_player(c: Chooser, part: dict[str, Any], often: bool) -> list[dict[str, Any]]:
    if c.integer(0, 2) > 0 if often else c.integer(0, 2) == 0:
        part["player"] = c.pick(["you", "opponent"])
    return [part]


def _generate_count(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        return _with_player(c, {name: place.count(c)}, often=False)

    return generate


def _generate_lose(c: Chooser, place: Place) -> list[dict[str, Any]]:
    value: int | str = "half" if c.integer(0, 3) == 0 else place.lp_amount(c)
    return _with_player(c, {"lose-lp": value}, often=True)


def _generate_gain(c: Chooser, place: Place) -> list[dict[str, Any]]:
    return _with_player(c, {"gain-lp": place.lp_amount(c)}, often=True)


DRAW = Verb(
    "draw",
    Cards,
    takes_amount,
    _draw,
    {"draw": _told("draws {} card(s)")},
    _generate_count("draw"),
    amount="draw",
    schema={"description": "the player ('player') draws this many cards"},
)
ADD_FROM_DECK = Verb(
    "add-from-deck",
    Cards,
    takes_amount,
    _draw,
    {"add-from-deck": _told("adds from the deck to the hand {} card(s)")},
    _generate_count("add-from-deck"),
    amount="draw",
    schema={"description": "the player ('player') adds this many cards from the deck to the hand"},
)
LOSE_LP = Verb(
    "lose-lp",
    Points | Literal["half"],
    _load_lose,
    _life_points,
    {"lose-lp": _told("loses {} Life Points")},
    _generate_lose,
    amount="loss",
    schema={"description": "the player ('player') loses this many Life Points, or half"},
)
GAIN_LP = Verb(
    "gain-lp",
    Points,
    takes_amount,
    _life_points,
    {"gain-lp": _told("gains {} Life Points")},
    _generate_gain,
    amount="gain",
    schema={"description": "the player ('player') gains this many Life Points"},
)
