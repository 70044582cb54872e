"""A Yu-Gi-Oh! Duel ends when a player's Life Points reach 0: after a battle's damage as
after a Chain Link (the golden example is ``examples/yugioh/life-points-zero-ends-the-duel.yaml``).
A rule system without ``state_based: [zero-life]`` plays on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import check, prepare

Decide = Callable[..., str]

ATTACK = """\
rules: {rules}
turn: A
step: main1
until: end
life-points: 1900
cards:
  Vorse Raider: {{kind: normal-monster, controller: A, atk: 1900}}
  Hinotama: {{kind: normal-spell, controller: A, zone: hand, effect: {{lose-lp: 500, player: opponent}}}}
history:
  - the turn moves to battle-step
  - A attacks directly with Vorse Raider
"""


@pytest.fixture
def without(tmp_path: Path) -> str:
    model = (ROOT / "models" / "yugioh.yaml").read_text(encoding="utf-8")
    assert "state_based: [zero-life, deck-out]" in model
    changed = model.replace("state_based: [zero-life, deck-out]", "state_based: []")
    changed = changed.replace("name: yugioh\n", "name: yugioh-plays-on\n", 1)
    path = tmp_path / "plays-on.yaml"
    path.write_text(changed, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_battle_damage_to_zero_ends_the_duel(decide: Decide, without: str, engine: str) -> None:
    ends = ATTACK.format(rules="yugioh")
    assert decide(ends, "always (life_points(B) == 0 and step == after-damage)", engine) == "holds"
    assert decide(ends, 'exists activates("Hinotama")', engine) == "fails"
    # Without the rule, A goes on to Main Phase 2 and may activate Hinotama.
    assert decide(ATTACK.format(rules=without), 'exists activates("Hinotama")', engine) == "holds"


def test_the_trace_says_who_lost(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(ATTACK.format(rules="yugioh"), encoding="utf-8")
    scenario = load_scenario(path)
    claim = "exists life_points(B) == 0"
    [result] = check(prepare(scenario), [("t", claim, parse_for(scenario, claim), None)], "explore")
    told = [step.text for step in result.trace]
    damage = told.index("B takes 1900 battle damage")
    assert told[damage + 1] == "B has 0 Life Points and loses the Duel: it is over"
    assert told[-1] == told[damage + 1]
