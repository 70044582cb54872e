"""Once per turn by name ("hard once per turn") against once per turn per copy.

The golden example is ``examples/yugioh/hard-once-per-turn.yaml``; here the same limit
written each way on one board, the two by-name scopes (this effect, or any effect of the
name), trigger effects (whose limit is checked as they go on the chain), and symmetry
reduction, which may rename copies of one name but not cards of two names.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from verifier.core.world import build_world
from verifier.engines.symmetry import interchangeable
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare

Decide = Callable[..., str]

HAND_TRAPS = """\
rules: yugioh
turn: A
step: main1
until: main1
cards:
  Search: {{kind: normal-spell, controller: A, zone: hand, effect: {{add-from-deck: 1}}}}
  Search Again: {{card: Search, controller: A}}
  Ash:
    kind: effect-monster
    controller: B
    zone: hand
    ability:
      type: quick
      from: hand
      once: {once}
      when: {{activates: card, includes: [add-from-deck]}}
      cost: {{discard: this}}
      effect: {{negate: effect}}
  Ash 2: {{card: Ash, controller: B, zone: hand}}
"""

BOTH = 'exists (activates("Ash") and activates("Ash 2"))'


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("once", "both"), [("turn", "holds"), ("name-effect", "fails"), ("name", "fails")]
)
def test_copies_share_a_limit_by_name(decide: Decide, engine: str, once: str, both: str) -> None:
    text = HAND_TRAPS.format(once=once)
    assert decide(text, BOTH, engine) == both
    assert decide(text, 'exists activates("Ash 2")', engine) == "holds"


TWO_EFFECTS = """\
rules: yugioh
turn: A
step: main1
until: main1
cards:
  Lancer:
    kind: effect-monster
    controller: A
    abilities:
      - {{type: quick, once: {once}, effect: {{draw: 1}}}}
      - {{type: quick, once: {once}, effect: {{gain-lp: 500}}}}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_name_counts_every_effect_and_name_effect_only_the_same_one(
    decide: Decide, engine: str
) -> None:
    # "You can only activate 1 'Lancer' per turn" against "You can only use this effect of
    # 'Lancer' once per turn": after the draw, the Life Point gain is still open only under
    # the second.
    claim = "exists (cards_drawn(A) == 1 and life_points(A) == 8500)"
    assert decide(TWO_EFFECTS.format(once="name"), claim, engine) == "fails"
    assert decide(TWO_EFFECTS.format(once="name-effect"), claim, engine) == "holds"
    assert decide(TWO_EFFECTS.format(once="name-effect"), "exists cards_drawn(A) == 2", engine) == (
        "fails"
    )


WITCHES = """\
rules: yugioh
turn: A
cards:
  Witch:
    kind: effect-monster
    controller: B
    atk: 1100
    ability:
      type: trigger
      trigger: {{event: sent-to-graveyard, from: field}}
      once: {once}
      effect: {{draw: 1}}
  Witch 2: {{card: Witch, controller: B}}
  Dark Hole: {{kind: normal-spell, controller: A, zone: hand, effect: {{destroy: all-monsters}}}}
history:
  - A activates Dark Hole
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_trigger_limited_by_name_goes_on_the_chain_once(decide: Decide, engine: str) -> None:
    # Dark Hole sends both Witches to the graveyard at once: both triggers wait; by name,
    # only the first placed may be activated (the other is not, mandatory as it is).
    assert decide(WITCHES.format(once="turn"), "exists cards_drawn(B) == 2", engine) == "holds"
    named = WITCHES.format(once="name-effect")
    assert decide(named, "exists cards_drawn(B) == 2", engine) == "fails"
    assert decide(named, "always cards_drawn(B) == 1", engine) == "holds"


def test_symmetry_renames_copies_of_one_name_only(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("once")
    copies = folder / "copies.yaml"
    copies.write_text(HAND_TRAPS.format(once="name-effect"), encoding="utf-8")
    twins = folder / "twins.yaml"
    # Two cards written out alike but named apart: by name, their limits are their own.
    text = HAND_TRAPS.format(once="name-effect")
    written = text[text.index("  Ash:\n") : text.index("  Ash 2:")]
    twins.write_text(
        text.replace(
            "  Ash 2: {card: Ash, controller: B, zone: hand}\n", written.replace("Ash", "Ash 2")
        ),
        encoding="utf-8",
    )
    for path, renamed in ((copies, True), (twins, False)):
        prepared = prepare(load_scenario(path))
        world = build_world(prepared.scenario, prepared.system.layout)
        names = [c.name for c in world.cards]
        classes = [sorted(names[i] for i in members) for members in interchangeable(world)]
        assert (["Ash", "Ash 2"] in classes) is renamed, classes
