"""Each rule of CMC's speed system on a scenario built to show it, in both engines."""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

HEAD = """\
rules: {rules}
turn: A
cards:
  Ogre: {{kind: monster, controller: B}}
  Imp: {{kind: monster, controller: A}}
"""


def spell(name: str, owner: str, speed: str, effect: str, target: bool = True) -> str:
    aim = "target: {card: monster, zone: field}, " if target else ""
    return f"  {name}: {{kind: spell, controller: {owner}, zone: hand, speed: {speed}, {aim}effect: {effect}}}\n"


ENGINES = pytest.mark.parametrize("engine", ["explore", "smt"])


@ENGINES
def test_a_slowing_effect_changes_the_speed_of_later_abilities(decide: Decide, engine: str) -> None:
    text = (
        HEAD.format(rules="cmc")
        + spell("Molasses", "A", "S", "{slow: target}")
        + "  Runner: {kind: monster, controller: B, ability: {type: ability, speed: B, cost: {dizzy: this}, effect: {draw: 1}}}\n"
        + "history:\n  - A casts Molasses targeting Runner\n  - B uses Runner\n"
    )
    assert decide(text, 'speed("Runner") == C', engine) == "holds"


@ENGINES
def test_speed_up_of_an_item_on_the_stack(decide: Decide, engine: str) -> None:
    text = (
        HEAD.format(rules="cmc")
        + spell("Haste", "A", "S", "{speed-up: target}")
        + "  Runner: {kind: monster, controller: B, ability: {type: ability, speed: E, cost: {dizzy: this}, effect: {draw: 1}}}\n"
        + spell("Bolt", "A", "D", "{destroy: target}")
        + "history:\n  - B uses Runner\n  - A casts Bolt targeting Runner\n  - A casts Haste targeting Runner\n"
    )
    # Sped up from E to D on the stack, Runner's ability still comes after the turn
    # player's Bolt (same speed, current player first), and fails: its monster is gone.
    assert (
        decide(
            text, 'resolution_order == ["Haste", "Bolt", "Runner"] and no_effect("Runner")', engine
        )
        == "holds"
    )


@ENGINES
def test_a_spell_fails_when_its_target_is_gone(decide: Decide, engine: str) -> None:
    text = (
        HEAD.format(rules="cmc")
        + spell("Bolt", "A", "B", "{destroy: target}")
        + spell("Rally", "B", "C", "{undizzy: target}")
        + "history:\n  - B casts Rally targeting Ogre\n  - A casts Bolt targeting Ogre\n"
    )
    assert decide(text, 'resolves("Bolt") and no_effect("Rally")', engine) == "holds"


@ENGINES
def test_either_player_may_add_at_any_time(decide: Decide, engine: str) -> None:
    text = (
        HEAD.format(rules="cmc")
        + spell("Bolt", "A", "B", "{destroy: target}")
        + spell("Rally", "B", "C", "{undizzy: target}")
        + spell("Spark", "A", "D", "{dizzy: target}")
        + "history:\n  - A casts Bolt targeting Ogre\n"
    )
    assert decide(text, 'exists chain_order == ["Bolt", "Spark", "Rally"]', engine) == "holds"


@ENGINES
def test_instant_variant_resolves_in_click_order(decide: Decide, engine: str) -> None:
    text = (
        HEAD.format(rules="cmc-instant")
        + spell("Bolt", "A", "B", "{destroy: target}")
        + spell("Rally", "B", "E", "{undizzy: target}")
        + "history:\n  - B casts Rally targeting Ogre\n  - A casts Bolt targeting Ogre\n"
    )
    assert decide(text, 'resolution_order == ["Rally", "Bolt"]', engine) == "holds"


def test_press_and_timer_steps_need_the_right_model(tmp_path: object, decide: Decide) -> None:
    from verifier.errors import ScenarioError

    text = (
        HEAD.format(rules="yugioh").replace("kind: monster", "kind: normal-monster")
        + "history:\n  - A presses resolve\n"
    )
    with pytest.raises(ScenarioError, match="has no resolve button"):
        decide(text, 'zone("Ogre") == field')
