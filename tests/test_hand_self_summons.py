"""One trigger effect that Special Summons its monster from the hand per player per chain.

The golden example is ``examples/yugioh/battle-fader-one-per-chain.yaml`` (two Battle Faders,
one direct attack). Here: the limit counts such triggers of any name, only the activating
player's, and no other trigger from the hand; the rule system's ``hand_self_summons: any``
lifts it; and ``--explain`` names the rule.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run

Decide = Callable[..., str]

MODELS = Path(__file__).resolve().parent.parent / "models"

FADER = """\
    kind: effect-monster
    controller: B
    zone: hand
    level: 1
    ability:
      type: trigger
      from: hand
      trigger: {{event: attack-declared, card: {{card: monster, controller: opponent}}}}
      optional: true
      wording: when
      effect: {effect}
"""

BOARD = """\
rules: {rules}
turn: A
step: battle-step
until: battle
cards:
  Gemini Elf: {{kind: normal-monster, controller: A, level: 4, atk: 1900, def: 900}}
  Fader:
{first}  Other:
{second}history:
  - A attacks directly with Gemini Elf
"""

SUMMON = "[{special-summon: this-card}, {end-battle-phase: true}]"
DRAW = "{draw: 1}"
BOTH = 'exists (activates("Fader") and activates("Other"))'


def board(second: str, rules: str = "yugioh") -> str:
    return BOARD.format(
        rules=rules, first=FADER.format(effect=SUMMON), second=FADER.format(effect=second)
    )


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_two_self_summons_of_different_names_share_the_limit(decide: Decide, engine: str) -> None:
    text = board(SUMMON)
    assert decide(text, BOTH, engine) == "fails"
    assert decide(text, 'exists activates("Other")', engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_hand_trigger_that_summons_nothing_is_not_limited(decide: Decide, engine: str) -> None:
    assert decide(board(DRAW), BOTH, engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_rule_system_may_lift_the_limit(decide: Decide, tmp_path: Path, engine: str) -> None:
    text = (MODELS / "yugioh.yaml").read_text(encoding="utf-8")
    lifted = text.replace("hand_self_summons: one-per-chain", "hand_self_summons: any")
    assert lifted != text
    lifted = lifted.replace("name: yugioh", "name: yugioh-any-hand-summons", 1)
    (tmp_path / "any.yaml").write_text(lifted, encoding="utf-8")
    assert decide(board(SUMMON, rules="any.yaml"), BOTH, engine) == "holds"


def test_explain_names_the_rule(run: Callable[..., Run], tmp_path: Path) -> None:
    example = (EXAMPLES / "yugioh" / "battle-fader-one-per-chain.yaml").read_text("utf-8")
    placed = example.replace(
        "  - A attacks directly with Gemini Elf\n",
        "  - A attacks directly with Gemini Elf\n  - B activates Battle Fader\n",
        1,
    )
    head, _, _ = placed.partition("claims:")
    path = tmp_path / "placed.yaml"
    path.write_text(head, encoding="utf-8")
    (tmp_path / "yugioh.cards.yaml").write_text(
        (EXAMPLES / "yugioh" / "yugioh.cards.yaml").read_text("utf-8"), encoding="utf-8"
    )
    claim = 'can_activate(B, "Second Battle Fader")'
    result = run("ask", "--explain", "--json", str(path), claim)
    [decided] = json.loads(result.out)["claims"]
    assert decided["verdict"] == "fails"
    assert any("triggers.one-from-hand" in line for line in decided["because"])
