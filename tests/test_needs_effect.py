"""A card or effect that would do nothing cannot be activated (``activation_needs_effect``).

The golden example is ``examples/yugioh/no-effect-no-activation.yaml``; here the same
board under a rule system without the rule, the rule on attack declarations (Dark Mirror
Force), on a trigger effect, and on cards protected from the effect.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run

Decide = Callable[..., str]

EXAMPLE = ROOT / "examples" / "yugioh" / "no-effect-no-activation.yaml"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "examples" / "yugioh" / "yugioh.cards.yaml", tmp_path)
    model = (ROOT / "models" / "yugioh.yaml").read_text(encoding="utf-8")
    assert "activation_needs_effect: true" in model
    without = model.replace("activation_needs_effect: true", "activation_needs_effect: false")
    without = without.replace("name: yugioh\n", "name: yugioh-without\n", 1)
    (tmp_path / "without.yaml").write_text(without, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    "engine",
    ["explore", pytest.param("smt", marks=pytest.mark.slow)],  # about 2 minutes
)
def test_without_the_rule_a_card_may_do_nothing(folder: Path, decide: Decide, engine: str) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    with_rule = text.replace("library: yugioh.cards.yaml", f"library: {folder}/yugioh.cards.yaml")
    without = with_rule.replace("rules: yugioh\n", f"rules: {folder}/without.yaml\n")
    cases = [
        ('can_activate(A, "Raigeki")', "fails", "holds"),
        ('can_activate(A, "Harpie\'s Feather Duster")', "fails", "holds"),
        ('can_activate(A, "Dark Hole")', "holds", "holds"),
        ('always not (activates("Heavy Storm") and activates("Giant Trunade"))', "holds", "fails"),
    ]
    for claim, ruled, free in cases:
        assert decide(with_rule, claim, engine) == ruled, claim
        assert decide(without, claim, engine) == free, claim


BATTLE = """\
rules: yugioh
library: {folder}/yugioh.cards.yaml
turn: B
step: main1
until: battle
cards:
  Vorse Raider: {{controller: B}}
  Giant Soldier of Stone: {{controller: B, {guard}}}
  Dark Mirror Force: {{controller: A, set: earlier-turn}}
history:
  - the turn moves to battle-step
  - B attacks directly with Vorse Raider
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_dark_mirror_force_needs_a_defense_position_monster(
    folder: Path, decide: Decide, engine: str
) -> None:
    # "Banish all Defense Position monsters your opponent controls": with the Giant Soldier
    # of Stone Set it has one; in Attack Position it has none, and cannot be activated.
    claim = 'can_activate(A, "Dark Mirror Force")'
    defending = BATTLE.format(folder=folder, guard="set: earlier-turn")
    attacking = BATTLE.format(folder=folder, guard="position: attack")
    assert decide(defending, claim, engine) == "holds"
    assert decide(attacking, claim, engine) == "fails"


TRIGGER = """\
rules: {rules}
turn: A
cards:
  Bomber:
    kind: effect-monster
    controller: B
    atk: 1000
    ability:
      type: trigger
      trigger: {{event: destroyed, from: field}}
      effect: {{destroy: all-monsters, of: opponent}}
  Raigeki: {{kind: normal-spell, controller: A, zone: hand, effect: {{destroy: all-monsters, of: opponent}}}}
{more}history:
  - A activates Raigeki
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_trigger_that_would_do_nothing_is_not_activated(
    folder: Path, decide: Decide, engine: str
) -> None:
    # Bomber's trigger destroys A's monsters: with none, it has nothing to do and is not
    # activated (mandatory or not); with A's Wall on the field, it is.
    claim = 'exists activates("Bomber")'
    wall = "  Wall: {kind: normal-monster, controller: A, atk: 0}\n"
    assert decide(TRIGGER.format(rules="yugioh", more=""), claim, engine) == "fails"
    assert decide(TRIGGER.format(rules="yugioh", more=wall), claim, engine) == "holds"
    without = f"{folder}/without.yaml"
    assert decide(TRIGGER.format(rules=without, more=""), claim, engine) == "holds"


@pytest.mark.full  # the SMT engine proves its bound complete for the core: seconds
def test_why_names_the_rule(run: Callable[..., Run]) -> None:
    done = run("why", str(EXAMPLE), "A activates Raigeki")
    assert done.code == 0, done
    assert "it would have no effect" in done.out and "(card.no-effect)" in done.out
