"""Verbs that change a player's resources: draw, add from the deck, lose and gain Life Points."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from verifier.core.logic import Logic, Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Place, Told, Verb, takes_amount
from verifier.spec.cards import Ability, Effect
from verifier.spec.values import Cards, Points

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = [
    "ADD_FROM_DECK",
    "DRAW",
    "GAIN_LP",
    "LOSE_LP",
    "deck_out",
    "each_player",
    "enough_in_deck",
    "player",
]


def player(link: Link, who: str, cards: int = 0) -> Term:
    """The player ``you``, ``opponent`` or ``target`` (the link's target, a player after
    the ``cards``: CR 115.1) names, seen from the link's controller."""
    if who == "target":
        return link.target - cards
    return link.me if who == "you" else 1 - link.me


def each_player(link: Link, who: str, cards: int = 0, logic: Logic | None = None) -> list[Term]:
    """For each player, whether ``who`` names them (``target``: a player the link targets,
    its first target or, given the ``logic`` to join them, its second; no one when it
    targets only cards)."""
    if who == "target":
        named = [link.target == cards + p for p in (0, 1)]
        if logic is not None and link.ability.targets > 1:
            named = [logic.or_(n, link.target2 == cards + p) for p, n in enumerate(named)]
        return named
    target = player(link, who)
    return [target == p for p in (0, 1)]


def _told_players(ctx: Ctx, link: Link, effect: Effect, go: Term) -> list[int]:
    """The players a part that happened is told of (none for a target that is a card)."""
    if go is not True:
        return []
    named = each_player(link, effect.player, ctx.w.n, ctx.L)
    return [p for p, is_p in enumerate(named) if is_p is True]


def _draw(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f = ctx.L, ctx.f
    assert effect.amount is not None
    decked: list[int] = []
    for p, is_p in enumerate(each_player(link, effect.player, ctx.w.n, L)):
        drawing = L.and_(go, is_p)
        taken, losing = _from_deck(ctx, p, effect, drawing)
        if losing is True:
            decked.append(p)
        f.drawn[p] = L.ite(drawing, ctx.add(f.drawn[p], taken, drawing), f.drawn[p])
        if ctx.w.layout.has("hand"):
            # The cards drawn or added are in the hand, unlisted (a cost may discard them).
            f.hand[p] = L.ite(drawing, ctx.add(f.hand[p], taken, drawing), f.hand[p])
    ctx.event(go)
    for p in decked:
        ctx.note("lost", (), "deck-out", p)
    for p in [] if decked else _told_players(ctx, link, effect, go):
        ctx.note(effect.verb, (), str(effect.amount), p)


def _from_deck(ctx: Ctx, p: int, effect: Effect, taking: Term) -> tuple[Term, Term]:
    """The cards ``p`` takes from the Deck (when ``taking``): all that ``effect`` asks for,
    or, from a counted Deck that holds fewer, what it holds (an "add from the Deck") or,
    for a draw under ``deck-out``, none: the player loses instead (a player who must draw
    more cards than the Deck holds loses the Duel; Yugipedia, "Draw a card"); and whether
    the player loses so."""
    L, f = ctx.L, ctx.f
    amount = effect.amount
    assert amount is not None
    if not ctx.w.layout.has("deck"):
        return amount, False
    left = f.deck[p]
    short = L.and_(left >= 0, left < amount)
    taken = L.ite(short, left, amount)
    losing: Term = False
    if effect.verb == "draw" and deck_out(ctx):
        losing = L.and_(taking, short, L.not_(f.lost[p]))
        f.lost[p] = L.or_(f.lost[p], losing)
        taken = L.ite(short, 0, amount)
    f.deck[p] = L.ite(L.and_(taking, left >= 0), ctx.sub(left, taken, taking), left)
    return taken, losing


def deck_out(ctx: Ctx) -> bool:
    """Whether a player who must draw from a Deck too small for it loses (``deck-out``)."""
    return "deck-out" in ctx.w.model.state_based and ctx.w.layout.has("lost")


def enough_in_deck(ctx: Ctx, ability: Ability, me: Term) -> Term:
    """Whether, activated by ``me`` now, every draw and "add from the Deck" of ``ability``
    finds as many cards as it takes in the counted Deck of the player it names ("Pot of
    Greed" cannot be activated with 1 card in the Deck; True for a Deck not counted, and
    for a player it targets, known only once the target is chosen)."""
    L, f = ctx.L, ctx.f
    if not ctx.w.layout.has("deck"):
        return True
    unchained = [False] * ctx.w.layout.slots
    link = Link(ability, me, -1, unchained, unchained, None)
    needs: list[Term] = []
    for part in ability.effects:
        if part.verb not in ("draw", "add-from-deck") or part.player == "target":
            continue
        assert part.amount is not None
        for p, named in enumerate(each_player(link, part.player, ctx.w.n)):
            needs.append(L.or_(L.not_(named), f.deck[p] < 0, f.deck[p] >= part.amount))
    return L.and_(*needs)


def _life_points(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f = ctx.L, ctx.f
    for p, is_p in enumerate(each_player(link, effect.player, ctx.w.n, L)):
        changing = L.and_(go, is_p)
        # "Lose half": the Life Points left are rounded up (see Logic.half).
        amount = L.half(f.lp[p]) if effect.amount is None else effect.amount
        if effect.verb == "lose-lp":
            new = ctx.life_left(f.lp[p], amount, changing)
        else:
            new = ctx.add(f.lp[p], amount, changing)
        f.lp[p] = L.ite(changing, new, f.lp[p])
    ctx.event(go)
    for p in _told_players(ctx, link, effect, go):
        detail = "half" if effect.amount is None else str(effect.amount)
        ctx.note(effect.verb, (), detail, p)


def _load_lose(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    return {"amount": None if value == "half" else value}


def _told(words: str) -> Any:
    """A narrator of a note about a player: ``A {words} 2 card(s)``, ``B {words} 500 ...``."""

    def tell(note: Note, names: Names) -> list[Told]:
        said = words.format(note.detail).replace("Life Points", names.term("Life Points"))
        return [Told("effect", f"{names.who(note)} {said}", note.player)]

    return tell


def _with_player(
    c: Chooser, part: dict[str, Any], often: bool, place: Place
) -> list[dict[str, Any]]:
    if place.player_target and c.integer(0, 1) == 0:
        part["player"] = "target"  # the targeted player ("target player draws two cards")
    elif c.integer(0, 2) > 0 if often else c.integer(0, 2) == 0:
        part["player"] = c.pick(["you", "opponent"])
    return [part]


def _generate_count(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        return _with_player(c, {name: place.count(c)}, often=False, place=place)

    return generate


def _generate_lose(c: Chooser, place: Place) -> list[dict[str, Any]]:
    value: int | str = "half" if c.integer(0, 3) == 0 else place.lp_amount(c)
    return _with_player(c, {"lose-lp": value}, often=True, place=place)


def _generate_gain(c: Chooser, place: Place) -> list[dict[str, Any]]:
    return _with_player(c, {"gain-lp": place.lp_amount(c)}, often=True, place=place)


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
