"""A kind of cost defined only here goes through the registry: the formats take its key, the
loader its value and its own checks, and both engines pay it, with nothing else to change.

``bounce: this`` returns the monster whose effect it is from the field to its owner's hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from verifier.effects.verb import told_of_cards
from verifier.errors import ScenarioError
from verifier.io import schema
from verifier.io.scenario import load_scenario
from verifier.rules.context import Check, Ctx
from verifier.rules.costs import CostKind, Loading, cost_kinds, register, unregister
from verifier.run.check import prepare
from verifier.spec.cards import Ability, Cost, Zone


def _load(value: Any, loading: Loading) -> Cost:
    return Cost("bounce", this=True)


def _checks(ctx: Ctx, ability: Ability, cost: Cost, player: Any) -> Iterator[Check]:
    yield Check("cost.bounce", ctx.f.zone[ability.card] == int(Zone.FIELD))


def _pay(ctx: Ctx, ability: Ability, cost: Cost, player: Any, card: int) -> None:
    from verifier.rules.moves import move

    move(ctx, [c == card for c in range(ctx.w.n)], Zone.HAND, (), paid="bounce")


BOUNCE = CostKind(
    "bounce",
    ("this",),
    "return this monster from the field to its owner's hand",
    _load,
    _checks,
    _pay,
    itself_from=Zone.FIELD,
    notes={"bounce": told_of_cards("returns to its owner's hand as a cost", "cost")},
)


@pytest.fixture
def bounce() -> Iterator[CostKind]:
    register(BOUNCE)
    schema.refresh_effects()
    try:
        yield BOUNCE
    finally:
        unregister(BOUNCE.name)
        schema.refresh_effects()


def _scenario(origin: str = "", history: str = "  - A activates Sprite\n") -> str:
    return f"""\
rules: yugioh
turn: A
cards:
  Sprite:
    kind: effect-monster
    controller: A
    atk: 1000
    ability:
      type: ignition
      once: turn{origin}
      cost: {{bounce: this}}
      effect: {{gain-lp: 500}}
history:
{history}"""


def _load_text(text: str, tmp_path: Path) -> Any:
    path = tmp_path / "bounce.yaml"
    path.write_text(text, encoding="utf-8")
    return prepare(load_scenario(path))


def test_a_cost_registered_here_is_paid(bounce: CostKind, tmp_path: Path) -> None:
    prepared = _load_text(_scenario(), tmp_path)
    [ability] = prepared.scenario.abilities
    assert ability.costs == (Cost("bounce", this=True),)
    frame = prepared.system.layout.frame(prepared.history.state)
    assert frame.zone[0] == int(Zone.HAND)
    texts = [step.text for step in prepared.history.steps]
    assert "Sprite returns to its owner's hand as a cost" in texts


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_both_engines_pay_it(bounce: CostKind, engine: str, decide: Callable[..., str]) -> None:
    text = _scenario(history="  - A activates Sprite\n  - B passes\n  - A passes\n")
    assert decide(text, 'always zone("Sprite") == hand', engine) == "holds"
    assert decide(text, "always life_points(A) == 8500", engine) == "holds"
    # Back in the hand, the monster cannot pay it again: the once per turn is not what stops it.
    start = _scenario(history="  []\n").replace("      once: turn\n", "")
    assert decide(start, 'exists activates(A, "Sprite")', engine) == "holds"
    assert decide(start, "always life_points(A) <= 8500", engine) == "holds"


def test_its_own_place_is_checked_as_it_loads(bounce: CostKind, tmp_path: Path) -> None:
    text = _scenario(origin="\n      from: hand", history="  []\n")
    with pytest.raises(ScenarioError, match="'bounce: this' needs the effect to be activated on"):
        _load_text(text, tmp_path)


def test_an_unregistered_cost_is_unknown_again(tmp_path: Path) -> None:
    assert "bounce" not in [kind.name for kind in cost_kinds()]
    with pytest.raises(ScenarioError, match="unknown key 'bounce'"):
        _load_text(_scenario(), tmp_path)


def test_a_cost_kind_is_registered_once(bounce: CostKind) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(BOUNCE)
    with pytest.raises(ValueError, match="no known shape"):
        register(CostKind("odd", ("word",), "", _load))  # type: ignore[arg-type]
