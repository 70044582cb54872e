"""A Tribute cost of an effect activated on the field may be paid with the monster whose
effect it is (Cannon Soldier); a card being activated, or an effect activated from the hand,
pays it with another monster. The golden example is
``examples/yugioh/cannon-soldier-tributes-itself.yaml``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

ALONE = """\
rules: yugioh
turn: A
cards:
  Soldier:
    kind: effect-monster
    controller: A
    zone: {zone}
    level: 4
    ability: {{type: {type}, {origin}cost: {{tribute: monster}}, effect: {{lose-lp: 500, player: opponent}}}}
  Offering: {{kind: normal-spell, controller: A, zone: hand, cost: {{tribute: monster}}, effect: {{draw: 1}}}}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("zone", "type", "origin", "burns"),
    [
        ("field", "ignition", "", "holds"),  # it Tributes itself
        ("field", "quick", "", "holds"),
        ("hand", "quick", "from: hand, ", "fails"),  # no monster on the field to Tribute
    ],
)
def test_an_effect_on_the_field_may_tribute_its_own_monster(
    decide: Decide, engine: str, zone: str, type: str, origin: str, burns: str
) -> None:
    board = ALONE.format(zone=zone, type=type, origin=origin)
    assert decide(board, "exists life_points(B) == 7500", engine) == burns


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_spell_tributes_a_monster_not_itself(decide: Decide, engine: str) -> None:
    board = ALONE.format(zone="field", type="ignition", origin="")
    # Offering Tributes the Soldier (the only monster): a draw, and then no burn.
    assert decide(board, "exists cards_drawn(A) == 1", engine) == "holds"
    assert decide(board, "exists (cards_drawn(A) == 1 and life_points(B) == 7500)", engine) == (
        "fails"
    )
