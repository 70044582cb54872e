"""Triggers "at the beginning of" a step (``event: step-begins``): of a face-up card on the
field, or, with ``from: graveyard``, of a card in the GY (Sinister Serpent: "During your
Standby Phase, if this card is in your GY"). The golden example is
``examples/yugioh/sinister-serpent-standby-phase.yaml``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
step: draw
until: main1
cards:
  Serpent:
    kind: effect-monster
    controller: {controller}
    zone: {zone}
    level: 1
    ability:
      type: trigger
      from: {origin}
      trigger: {{event: step-begins, step: standby, whose: {whose}}}
      optional: true
      effect: {{draw: 1}}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("controller", "zone", "origin", "whose", "draws"),
    [
        ("A", "graveyard", "graveyard", "your", "holds"),
        ("B", "graveyard", "graveyard", "your", "fails"),  # not B's Standby Phase
        ("B", "graveyard", "graveyard", "each", "holds"),
        ("A", "field", "graveyard", "your", "fails"),  # not in the GY
        ("A", "field", "field", "your", "holds"),
        ("A", "graveyard", "field", "your", "fails"),  # not on the field
    ],
)
def test_a_step_trigger_watches_where_its_effect_is_activated(
    decide: Decide, engine: str, controller: str, zone: str, origin: str, whose: str, draws: str
) -> None:
    board = BOARD.format(controller=controller, zone=zone, origin=origin, whose=whose)
    drawn = f"cards_drawn({controller}) == 1"
    assert decide(board, f"exists {drawn}", engine) == draws
