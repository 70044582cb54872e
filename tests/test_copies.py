"""Copies of spells (Magic, CR 707.10): ``copy-spell: target`` puts a copy of the spell it
targets on the stack under the copier's control, its targets kept or chosen anew (707.10c);
the copy is not cast and ceases to exist once it leaves the stack (704.5e). The golden example is
``examples/mtg/twincast-copies-a-spell.yaml``; these tests vary it in both engines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import MTG_LIBRARY, Run, bad_input
from verifier.io.scenario import load_scenario
from verifier.run.check import check, prepare

Decide = Callable[..., str]
pytestmark = pytest.mark.usefixtures("mtg_library")

ENGINES = ["explore", pytest.param("smt", marks=pytest.mark.full)]


def board(extra: str = "", history: str = "[A casts Lightning Bolt targeting Juzam Djinn]") -> str:
    """A's Lightning Bolt at B's Juzam Djinn (5/5), A's Twincast, and ``extra`` cards."""
    return f"""\
rules: mtg
library: {MTG_LIBRARY}
turn: A
step: main1
life-points: 20
cards:
  Juzam Djinn: {{controller: B}}
  Lightning Bolt: {{controller: A, zone: hand}}
  Twincast: {{controller: A, zone: hand}}
{extra}
history: {history}
"""


COUNTER = "  Counterspell: {controller: B, zone: hand}"
HILL_GIANT = "  Hill Giant: {controller: B}"
B_TWINCAST = "  Twincast B: {card: Twincast, controller: B, zone: hand}"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("extra", "claim", "verdict"),
    [
        # Bolt and its copy: 6 damage to a 5/5; Bolt alone is not enough.
        ("", 'exists zone("Juzam Djinn") == graveyard', "holds"),
        ("", 'always zone("Juzam Djinn") == graveyard or not resolves("Twincast")', "holds"),
        # The copy keeps Bolt's target and resolves first; it is never cast.
        ("", 'exists before("Lightning Bolt (copy 1)", "Lightning Bolt")', "holds"),
        ("", 'exists activates(A, "Lightning Bolt (copy 1)")', "fails"),
        ("", 'always zone("Lightning Bolt (copy 1)") == none', "holds"),
        # Countering the original leaves the copy; countering Twincast leaves no copy.
        (
            COUNTER,
            'exists countered("Lightning Bolt") and resolves("Lightning Bolt (copy 1)")',
            "holds",
        ),
        (COUNTER, 'exists countered("Twincast") and resolves("Lightning Bolt (copy 1)")', "fails"),
        (
            COUNTER,
            'exists countered("Lightning Bolt (copy 1)") and resolves("Lightning Bolt")',
            "holds",
        ),
        # The copy may choose a new target (707.10c): Hill Giant (3/3) dies too, or lives.
        (HILL_GIANT, 'exists zone("Hill Giant") == graveyard', "holds"),
        (HILL_GIANT, 'exists targets("Lightning Bolt (copy 1)", "Hill Giant")', "holds"),
        (HILL_GIANT, 'exists zone("Hill Giant") == battlefield and resolves("Twincast")', "holds"),
        (
            HILL_GIANT,
            'exists zone("Juzam Djinn") == battlefield and zone("Hill Giant") == graveyard',
            "holds",
        ),
        (
            HILL_GIANT,
            'exists zone("Juzam Djinn") == graveyard and zone("Hill Giant") == graveyard',
            "fails",
        ),
        # Two copiers: two slots; B's copy of A's spell is B's (707.10: the copier controls it).
        (B_TWINCAST, 'exists resolves("Lightning Bolt (copy 2)")', "holds"),
        (
            B_TWINCAST,
            'exists resolves("Lightning Bolt (copy 1)") and resolves("Lightning Bolt (copy 2)")',
            "holds",
        ),
        # A copy of a copy is a copy of the same spell (707.10): Twincast B on the copy.
        (
            B_TWINCAST,
            'exists targets("Twincast B", "Lightning Bolt (copy 1)") and '
            'resolves("Lightning Bolt (copy 2)")',
            "holds",
        ),
        (
            B_TWINCAST,
            # B copies A's Twincast: its copy copies Bolt, then A's Twincast does (a slot is
            # one object, used once: CR 400.7): 3 + 3 + 3 damage.
            'exists targets("Twincast B", "Twincast") and resolves("Twincast (copy 1)") and '
            'resolves("Lightning Bolt (copy 1)") and resolves("Lightning Bolt (copy 2)")',
            "holds",
        ),
    ],
)
def test_a_copy_is_another_spell_with_the_same_target(
    decide: Decide, engine: str, extra: str, claim: str, verdict: str
) -> None:
    assert decide(board(extra), claim, engine) == verdict


def test_the_copy_is_told_and_its_controller_is_the_copier(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(board(B_TWINCAST), encoding="utf-8")
    scenario = load_scenario(path)
    claim = 'exists resolves("Lightning Bolt (copy 1)") and not activates(A, "Twincast")'
    from verifier.io.scenario import parse_for

    prepared = prepare(scenario)
    [result] = check(prepared, [("t", claim, parse_for(scenario, claim), None)], "explore")
    assert result.verdict.value == "holds"
    texts = [s.text for s in result.trace]
    assert any(
        t.startswith("Lightning Bolt (copy 1) is created under B's control") for t in texts
    ), texts
    assert any(
        t.startswith("B puts Lightning Bolt (copy 1) targeting ")
        and t.endswith("(a copy, not cast)")
        for t in texts
    ), texts
    assert "Lightning Bolt (copy 1) resolves" in texts
    assert (
        "Lightning Bolt (copy 1) leaves the stack and ceases to exist (a copy, CR 704.5e)" in texts
    )


def test_two_copiers_keep_two_slots_and_a_deeper_copy_chain_is_past_them(tmp_path: Path) -> None:
    # Twincast B may copy Twincast A, whose copy copies Bolt: with A's Twincast, two copies
    # of Bolt, one per slot. The copy of Twincast A may choose a new target (707.10c): A's
    # Twincast again, whose second copy has no slot: that continuation is past a capacity.
    from verifier.core.state import Capacity
    from verifier.engines.explore import explore

    path = tmp_path / "s.yaml"
    path.write_text(board(B_TWINCAST), encoding="utf-8")
    scenario = load_scenario(path)
    names = {c.name for c in scenario.cards}
    assert {"Lightning Bolt (copy 1)", "Lightning Bolt (copy 2)", "Twincast (copy 1)"} <= names
    prepared = prepare(scenario)
    ex = explore(prepared.system, prepared.history.state)
    assert ex.capacities == frozenset({Capacity.COPIES}), (ex.overflowed, ex.capacities)


def _error(run: Callable[..., Run], tmp_path: Path, text: str) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(text + 'claims:\n  - claim: exists resolves("Lightning Bolt")\n')
    lines = bad_input(run, path)
    assert lines[0].startswith(f"{path}:"), lines
    return lines[0]


def test_a_copy_needs_a_target_spell_on_the_stack(run: Callable[..., Run], tmp_path: Path) -> None:
    extra = (
        "  Fork:\n    kind: instant\n    controller: A\n    zone: hand\n"
        "    target: {card: monster, zone: field}\n    effect: {copy-spell: target}"
    )
    line = _error(run, tmp_path, board(extra))
    assert "copies the spell it targets: it needs one target on the stack" in line


def test_copying_a_permanent_spell_is_refused(run: Callable[..., Run], tmp_path: Path) -> None:
    extra = (
        "  Fork:\n    kind: instant\n    controller: A\n    zone: hand\n"
        "    target: {zone: stack}\n    effect: {copy-spell: target}\n"
        "  Hill Giant: {controller: A, zone: hand}"
    )
    line = _error(run, tmp_path, board(extra))
    assert "Fork may copy Juzam Djinn, which is not an instant or a sorcery" in line


def test_copies_need_a_stack_that_resolves_one_object_at_a_time(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        "  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters}}\n"
        "  Echo:\n    kind: quick-play-spell\n    controller: A\n    zone: hand\n"
        "    target: {zone: stack}\n    effect: {copy-spell: target}\n"
        "history: [A activates Raigeki]\n"
    )
    path = tmp_path / "ygo.yaml"
    path.write_text(text + 'claims:\n  - claim: exists resolves("Raigeki")\n')
    lines = bad_input(run, path)
    assert "copy-spell" in lines[0], lines
