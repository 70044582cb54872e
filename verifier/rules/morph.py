"""Magic's face-down creatures and morph (CR 702.37, 708, 116.2b).

A creature may start face-down on the battlefield (``face: down``) under a game with
face-down creatures (``Game.face_down_creatures``). While face-down it is a 2/2 with no
name, text, colour or mana cost (708.2): its power and toughness are 2 and it fits colour
filters as a colourless permanent (``non-black``, ``colorless``). Its controller, any time
they have priority (the rule ``morph.priority``), may pay its morph cost (``morph:``, a mana
cost paid from the mana pool, :mod:`verifier.rules.mana`) and turn it face up: a special
action (116.2b) that does not use the stack, so nothing can respond to it, after which the
same player has priority again (116.3c: the players' passes in a row start over). Face up,
it has its printed power, toughness and colours; changes made to it while it was face-down
(a toughness loss, a colour change) still apply (708.8). What is not modelled: casting a
card face-down for {3} (702.37c), abilities "when turned face up", and a colour change to
colourless made while it was face-down (face up, it shows its printed colours).
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Mode
from verifier.games import game
from verifier.rules import colors, mana, protocol
from verifier.rules.context import Check, Ctx, on_field
from verifier.spec.cards import Card
from verifier.spec.scenario import Scenario

__all__ = ["FACE_DOWN", "base_stat", "checks", "fields", "turn_face_up", "turnable"]

FACE_DOWN = 2
"""A face-down creature's power and toughness (CR 708.2a)."""


def turnable(scenario: Scenario) -> list[Card]:
    """The cards that start face-down and may be turned face up (they have a morph cost)."""
    return [c for c in scenario.cards if c.hidden and c.morph is not None]


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The optional state fields face-down creatures need: their power, toughness and
    colours change as they turn face up."""
    if not game(scenario.model.game).face_down_creatures or not any(
        c.hidden for c in scenario.cards
    ):
        return ()
    return ("atk", "defense", colors.FIELD)


def face_down(ctx: Ctx, card: int) -> Term:
    """Whether ``card`` is a face-down creature on the battlefield now."""
    if not ctx.w.cards[card].hidden:
        return False
    return ctx.L.and_(on_field(ctx, card), ctx.L.not_(ctx.f.up[card]))


def base_stat(ctx: Ctx, card: int, printed: int | None) -> Term:
    """A creature's power or toughness without effects: 2 while face-down."""
    return ctx.L.ite(face_down(ctx, card), FACE_DOWN, printed or 0)


def checks(ctx: Ctx, card: int, player: int, spend: tuple[int, ...]) -> Iterator[Check]:
    """Whether ``player`` may turn ``card`` face up now, paying its morph cost this way."""
    L, f = ctx.L, ctx.f
    yield Check("morph.face-down", L.and_(face_down(ctx, card), f.ctrl[card] == player))
    building = L.or_(f.mode == int(Mode.OPEN), f.mode == int(Mode.BUILD))
    yield from protocol.acting(ctx)
    yield Check("morph.priority", L.and_(building, f.right == player))
    yield from mana.cost_checks(ctx, ctx.w.cards[card].morph, player, spend)


def turn_face_up(ctx: Ctx, card: int, player: int, spend: tuple[int, ...]) -> None:
    """Pay the morph cost and turn ``card`` face up; ``player`` keeps priority."""
    L, f, w = ctx.L, ctx.f, ctx.w
    printed = w.cards[card]
    ctx.note("turn-face-up", [card], "", player)
    mana.pay_cost(ctx, printed.morph, player, spend)
    ctx.event()
    f.up[card] = True
    # Its printed values replace the face-down 2/2's; changes since still apply (708.8).
    f.atk[card] = ctx.add(f.atk[card], (printed.atk or 0) - FACE_DOWN)
    f.defense[card] = ctx.add(f.defense[card], (printed.defense or 0) - FACE_DOWN)
    f.colors[card] = L.ite(f.colors[card] == 0, colors.printed(printed), f.colors[card])
    f.passes = 0
