"""A limit on how often an effect is used counts the effect, whichever of its modes is
chosen: Dragon Ravine's "Once per turn: ... activate 1 of these effects" is used once a
turn, not once per mode. The golden example is
``examples/yugioh/once-per-turn-one-effect-two-modes.yaml``; here each limit (``turn``,
``chain``, ``name-effect``) on an effect with two modes, in both engines, against an effect
without modes beside it, which keeps its own count.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

Decide = Callable[..., str]

MODES = """\
rules: yugioh
turn: A
step: main1
until: main1
cards:
  Ravine:
    kind: effect-monster
    controller: A
    abilities:
      - type: quick
        once: {once}
        modes:
          - {{label: draw, effect: {{draw: 1}}}}
          - {{label: gain, effect: {{gain-lp: 500}}}}
      - {{type: quick, once: {once}, effect: {{gain-lp: 100}}}}
"""

BOTH_MODES = "exists (cards_drawn(A) == 1 and life_points(A) >= 8500)"
MODE_AND_OTHER = "exists (cards_drawn(A) == 1 and life_points(A) == 8100)"


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize("once", ["turn", "name-effect"])
def test_the_modes_of_one_effect_count_as_one(decide: Decide, engine: str, once: str) -> None:
    text = MODES.format(once=once)
    assert decide(text, BOTH_MODES, engine) == "fails"
    # Each mode alone can be used, and the card's other effect has its own count.
    assert decide(text, "exists life_points(A) == 8500", engine) == "holds"
    assert decide(text, MODE_AND_OTHER, engine) == "holds"


COPIES = """\
rules: yugioh
turn: A
step: main1
until: main1
cards:
  Ravine:
    kind: effect-monster
    controller: A
    ability:
      type: quick
      once: {once}
      modes:
        - {{label: draw, effect: {{draw: 1}}}}
        - {{label: gain, effect: {{gain-lp: 500}}}}
  Second Ravine: {{card: Ravine, controller: A}}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_copy_counts_apart_unless_limited_by_name(decide: Decide, engine: str) -> None:
    assert decide(COPIES.format(once="turn"), BOTH_MODES, engine) == "holds"
    assert decide(COPIES.format(once="name-effect"), BOTH_MODES, engine) == "fails"


ONCE_PER_CHAIN = """\
rules: yugioh
turn: A
step: main1
until: main1
hands: {A: 2}
cards:
  Ravine:
    kind: effect-monster
    controller: A
    ability:
      type: quick
      once: chain
      cost: {discard: 1}
      modes:
        - {label: small, effect: {gain-lp: 300}}
        - {label: large, effect: {gain-lp: 500}}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_once_per_chain_counts_the_modes_together(decide: Decide, engine: str) -> None:
    # Not both modes on one chain; one after the other, on two chains, they may be.
    assert decide(ONCE_PER_CHAIN, "exists chain_length == 2", engine) == "fails"
    assert decide(ONCE_PER_CHAIN, "exists life_points(A) == 8800", engine) == "holds"
