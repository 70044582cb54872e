"""A kind of activation condition defined only here goes through the registry: the formats
take its key, the loader its value and its own checks, and both engines decide when it holds,
with nothing else to change.

``in-graveyard: monster`` holds while a card that fits is in a graveyard.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from verifier.errors import ScenarioError
from verifier.io import schema
from verifier.io.scenario import load_scenario
from verifier.rules.conditions import (
    ConditionKind,
    Loading,
    condition_kinds,
    register,
    unregister,
)
from verifier.rules.context import Ctx, matches
from verifier.spec.cards import Ability, Condition, Zone


def _load(value: Any, spec: Any, loading: Loading) -> Condition:
    if spec.by != "any":
        raise loading.fail("'by' does not go with 'in-graveyard'", "by")
    cards = loading.cards(value)
    return Condition("in-graveyard", cards.types, cards)


def _met(ctx: Ctx, ability: Ability, condition: Condition, player: Any) -> Any:
    L, f = ctx.L, ctx.f
    assert condition.filter is not None
    return L.or_(
        *(
            L.and_(f.zone[c] == int(Zone.GRAVEYARD), matches(ctx, c, condition.filter, player))
            for c in range(ctx.w.n)
        )
    )


IN_GRAVEYARD = ConditionKind(
    "in-graveyard",
    ("filter", "monster"),
    "while a card that fits is in a graveyard",
    _load,
    _met,
)


@pytest.fixture
def in_graveyard() -> Iterator[ConditionKind]:
    register(IN_GRAVEYARD)
    schema.refresh_effects()
    try:
        yield IN_GRAVEYARD
    finally:
        unregister(IN_GRAVEYARD.name)
        schema.refresh_effects()


def _scenario(zone: str, when: str = "{in-graveyard: monster}") -> str:
    return f"""\
rules: yugioh
turn: A
cards:
  Grave Call:
    kind: quick-play-spell
    controller: A
    zone: hand
    when: {when}
    effect: {{gain-lp: 500}}
  Kuriboh: {{kind: effect-monster, controller: B, zone: {zone}}}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_both_engines_decide_it(
    in_graveyard: ConditionKind, engine: str, decide: Callable[..., str]
) -> None:
    claim = 'exists activates(A, "Grave Call")'
    assert decide(_scenario("graveyard"), claim, engine) == "holds"
    assert decide(_scenario("field"), claim, engine) == "fails"


def test_it_loads_with_its_own_checks(in_graveyard: ConditionKind, tmp_path: Path) -> None:
    path = tmp_path / "grave.yaml"
    path.write_text(_scenario("graveyard"), encoding="utf-8")
    [ability, *_] = load_scenario(path).abilities
    assert ability.condition is not None
    assert ability.condition.kind == "in-graveyard"
    assert ability.condition.types == frozenset({"monster"})
    path.write_text(_scenario("graveyard", "{in-graveyard: monster, by: you}"), encoding="utf-8")
    with pytest.raises(ScenarioError, match="'by' does not go with 'in-graveyard'") as caught:
        load_scenario(path)
    # At the value of the "by" of the "when" (line 8: "    when: {in-graveyard: monster, by: you}").
    assert (caught.value.line, caught.value.col) == (8, 39)


def test_an_unregistered_condition_is_unknown_again(tmp_path: Path) -> None:
    assert "in-graveyard" not in [kind.name for kind in condition_kinds()]
    path = tmp_path / "grave.yaml"
    path.write_text(_scenario("graveyard"), encoding="utf-8")
    with pytest.raises(ScenarioError, match="unknown key 'in-graveyard'"):
        load_scenario(path)


def test_a_condition_kind_is_registered_once(in_graveyard: ConditionKind) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register(IN_GRAVEYARD)
    with pytest.raises(ValueError, match="already registered"):
        register(ConditionKind("during", ("filter",), "", _load, _met))
