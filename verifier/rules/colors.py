"""Magic's colours as they are now (CR 105): a card's printed colours, unless an effect
changed them (105.3, the verb ``become-color``).

A scenario in which some effect can change a colour keeps each card's colours in the state
(the optional field ``colors``: a bit per colour, :data:`BITS`); any other scenario keeps
none, and a colour filter reads the printed colours (:meth:`verifier.core.world.World.
static_match`). A colour filter reads the field through :func:`fits`: the field holds one of
a few values only (the card's printed colours, none, or a colour some effect gives), so
whether the card fits is a disjunction over the values that fit, written with the logic's
equalities alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from verifier.core.logic import Term
from verifier.core.state import array, declare
from verifier.core.world import colored
from verifier.spec.cards import COLOR_BITS, Card, Zone

if TYPE_CHECKING:
    from verifier.rules.context import Ctx

__all__ = ["BITS", "FIELD", "base", "fits", "initial", "mask", "named", "printed"]

FIELD = "colors"
"""The optional state field of the colours now."""

BITS = COLOR_BITS
"""Each colour's bit in the field (CR 105.1: white, blue, black, red, green)."""


def mask(colors: Iterable[str]) -> int:
    """The field's value for these colours (0: colourless)."""
    return sum(BITS[c] for c in set(colors))


def named(value: int) -> frozenset[str]:
    """The colours of a value of the field."""
    return frozenset(c for c, bit in BITS.items() if value & bit)


def printed(card: Card) -> int:
    """The field's value for ``card``'s printed colours."""
    return mask(card.colors)


def initial(card: Card) -> int:
    """The field's value for ``card`` at the scenario's point: none while face-down (CR
    708.2), else its printed colours."""
    return 0 if card.hidden else printed(card)


def base(ctx: Ctx, card: int) -> Term:
    """The colours ``card`` has without effects: its printed ones, none while face-down."""
    c = ctx.w.cards[card]
    if not c.hidden:
        return printed(c)
    L, f = ctx.L, ctx.f
    down = L.and_(f.zone[card] == int(Zone.FIELD), L.not_(f.up[card]))
    return L.ite(down, 0, printed(c))


def fits(ctx: Ctx, card: int, wanted: str) -> Term:
    """Whether ``card``'s colours now fit the colour filter ``wanted`` (``blue``,
    ``non-black``, ``colorless``)."""
    L, w = ctx.L, ctx.w
    values = {mask(w.cards[card].colors), 0, *w.colorings}
    good = sorted(v for v in values if colored(named(v), wanted))
    if len(good) == len(values):
        return True
    now = ctx.f.colors[card]
    return L.or_(*(now == v for v in good))


# Magic's colours now, a bit per colour (W 1, U 2, B 4, R 8, G 16).
declare(array(FIELD, "card"))
