"""An attacker blocked by two or more creatures divides its combat damage among them as its
controller chooses (CR 510.1c). The state does not make that choice: a continuation where it
has to be made is past a capacity, so a verdict that needs it is ``unknown``, never decided
with a division the rules do not prescribe. With one blocker left, nothing is divided."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import MTG_LIBRARY

Decide = Callable[..., str]
pytestmark = pytest.mark.usefixtures("mtg_library")

ENGINES = ["explore", pytest.param("smt", marks=pytest.mark.full)]


def board(history: str, unsummon: bool = False) -> str:
    """A's Hill Giant (3/3) attacks; B's Grizzly Bears (2/2) and Llanowar Elves (1/1)."""
    hand = "  Unsummon: {controller: B, zone: hand}\n" if unsummon else ""
    return f"""\
rules: mtg
library: {MTG_LIBRARY}
turn: A
step: declare-attackers
until: end-of-combat
life-points: 20
cards:
  Hill Giant: {{controller: A}}
  Grizzly Bears: {{controller: B}}
  Llanowar Elves: {{controller: B}}
{hand}history: {history}
"""


DOUBLE = "[A attacks with Hill Giant, B blocks Hill Giant with Grizzly Bears and Hill Giant with Llanowar Elves]"
SINGLE = "[A attacks with Hill Giant, B blocks Hill Giant with Grizzly Bears]"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("history", "unsummon", "claim", "verdict"),
    [
        # Two blockers: 3 damage divided (2 and 1 kills both; 3 and 0 only the Bears).
        (DOUBLE, False, 'always zone("Llanowar Elves") == battlefield', "unknown"),
        (DOUBLE, False, 'exists zone("Llanowar Elves") == graveyard', "unknown"),
        # Whatever the division, the blockers deal 3 to the Giant (3/3): it dies.
        (DOUBLE, False, 'always zone("Hill Giant") == battlefield', "unknown"),
        # One blocker returned to its hand first: all 3 to the other, nothing to divide.
        (
            DOUBLE,
            True,
            'exists zone("Grizzly Bears") == hand and zone("Llanowar Elves") == graveyard',
            "holds",
        ),
        # One blocker: all its damage goes to it.
        (SINGLE, False, 'always zone("Grizzly Bears") == graveyard', "holds"),
        (SINGLE, False, "always life_points(B) == 20", "holds"),
    ],
)
def test_a_divided_attacker_is_not_decided(
    decide: Decide, engine: str, history: str, unsummon: bool, claim: str, verdict: str
) -> None:
    assert decide(board(history, unsummon), claim, engine) == verdict
