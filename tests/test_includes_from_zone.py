"""``includes: [VERB from ZONE]`` is met by a part acting on a card in that zone, whether
the card is chosen as the effect resolves or targeted as it is activated (Ghost Belle &
Haunted Mansion negates Monster Reborn). The golden examples are
``examples/yugioh/ghost-belle-targets-in-the-graveyard.yaml`` and
``ghost-belle-not-pot-of-greed.yaml``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
cards:
  Revive:
    kind: normal-spell
    controller: A
    zone: hand
    target: {{card: monster, zone: {zone}}}
    effect: {{{verb}: target}}
  Dragon: {{kind: normal-monster, controller: A, zone: {zone}, level: 4}}
  Belle:
    kind: effect-monster
    controller: B
    zone: hand
    ability:
      type: quick
      from: hand
      when: {{activates: spell, includes: [special-summon from graveyard, banish from graveyard]}}
      cost: {{discard: this}}
      effect: {{negate: activation}}
history:
  - A activates Revive targeting Dragon
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("zone", "verb", "answered"),
    [
        ("graveyard", "special-summon", "holds"),  # Monster Reborn
        ("graveyard", "banish", "holds"),
        ("graveyard", "return-to-hand", "fails"),  # a verb Belle does not list
        ("field", "banish", "fails"),  # banished from the field, not from the GY
    ],
)
def test_a_target_in_the_zone_meets_includes(
    decide: Decide, engine: str, zone: str, verb: str, answered: str
) -> None:
    board = BOARD.format(zone=zone, verb=verb)
    assert decide(board, 'can_activate(B, "Belle")', engine) == answered
