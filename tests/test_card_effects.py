"""Effects of a face-up Continuous Spell or Trap, besides the card's own activation.

The golden example is ``examples/yugioh/supply-squad-face-up-effect.yaml`` (a trigger effect
of a face-up Continuous Spell, answered by Ghost Ogre). Here a Quick Effect of a Continuous
Trap: it needs the card face-up on the field (activated first, or already face-up), the card
stays there, and a Normal Spell or Trap still has no effects of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from verifier.errors import ScenarioError
from verifier.io.scenario import load_scenario

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
step: main1
until: main1
life_points: 600
cards:
  Offering:
    kind: {kind}
    controller: A
    {where}
    abilities:
      - type: quick
        cost: {{pay-lp: 500}}
        effect: {{draw: 1}}
"""

SET = "set: earlier-turn"
FACE_UP = "zone: field"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_effect_needs_the_card_face_up(decide: Decide, engine: str) -> None:
    text = BOARD.format(kind="continuous-trap", where=SET)
    # Activated first (Chain Link 1), the face-up card's effect may be chained to it.
    assert decide(text, "exists cards_drawn(A) == 1", engine) == "holds"
    assert decide(text, 'always zone("Offering") == field', engine) == "holds"
    # The cost is paid once: 600 Life Points pay 500 once.
    assert decide(text, "exists cards_drawn(A) == 2", engine) == "fails"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_face_up_card_uses_its_effect_at_once(decide: Decide, engine: str) -> None:
    text = BOARD.format(kind="continuous-trap", where=FACE_UP)
    assert decide(text, "exists (chain(1).length == 1 and cards_drawn(A) == 1)", engine) == "holds"


def test_the_effect_is_named_apart_from_the_activation(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(BOARD.format(kind="continuous-trap", where=SET), encoding="utf-8")
    labels = [a.label for a in load_scenario(path).abilities]
    assert labels == ["Offering", "Offering (effect)"]


def test_a_normal_trap_has_no_effects_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(BOARD.format(kind="normal-trap", where=SET), encoding="utf-8")
    with pytest.raises(ScenarioError, match="a trap card is activated as a whole"):
        load_scenario(path)
