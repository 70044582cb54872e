"""An ``activates`` condition narrowed to effects activated on the field (Ghost Ogre).

The golden example is ``examples/yugioh/ghost-ogre-on-the-field.yaml``. Here, on one board
with each kind of activation: a monster's effect activated on the field is answered; a
card's own activation, a hand trap's effect and a graveyard effect are not.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
step: main1
until: main1
cards:
  Ogre:
    kind: effect-monster
    controller: B
    zone: hand
    ability:
      type: quick
      from: hand
      when: {{activates: card, on-field: true}}
      cost: {{send-to-graveyard: this}}
      effect: {{destroy: that-card}}
{card}history:
  - {history}
"""

SORCERER = """\
  Sorcerer:
    kind: effect-monster
    controller: A
    ability: {type: ignition, effect: {draw: 1}}
"""
SPELL = "  Spell: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 1}}\n"
HAND_TRAP = """\
  Trap Hand:
    kind: effect-monster
    controller: A
    zone: hand
    ability: {type: quick, from: hand, cost: {discard: this}, effect: {draw: 1}}
"""
GRAVE = """\
  Grave:
    kind: effect-monster
    controller: A
    zone: graveyard
    ability: {type: ignition, from: graveyard, cost: {banish: this}, effect: {draw: 1}}
"""

CASES = [
    pytest.param(SORCERER, "A activates Sorcerer", "holds", id="monster-on-the-field"),
    pytest.param(SPELL, "A activates Spell", "fails", id="spell-card-activation"),
    pytest.param(HAND_TRAP, "A activates Trap Hand", "fails", id="effect-in-the-hand"),
    pytest.param(GRAVE, "A activates Grave", "fails", id="effect-in-the-graveyard"),
]


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(("card", "history", "verdict"), CASES)
def test_only_effects_activated_on_the_field_are_answered(
    decide: Decide, engine: str, card: str, history: str, verdict: str
) -> None:
    text = BOARD.format(card=card, history=history)
    assert decide(text, 'exists activates("Ogre")', engine) == verdict
