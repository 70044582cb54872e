"""Magic's face-down creatures and morph (CR 702.37, 708, 116.2b): a face-down creature is a
2/2 with no colour; its controller turns it face up by paying its morph cost, any time they
have priority, without the stack. The golden examples are
``examples/mtg/morph-blocker-turned-face-up.yaml`` and
``examples/mtg/morph-face-down-has-no-color.yaml``; these tests vary them in both engines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, MTG_LIBRARY, Run, bad_input
from verifier.io.scenario import load_scenario
from verifier.system import build_system

Decide = Callable[..., str]
pytestmark = pytest.mark.usefixtures("mtg_library")

PLAINS = "".join(f"  Plains {i}: {{card: Plains, controller: B}}\n" for i in range(1, 5))
TAPS = "".join(f"B activates Plains {i}, " for i in range(1, 5))


def block(plains: str = PLAINS, history: str = "[]", face: str = "down") -> str:
    """A's 3/3 Centaur Courser blocked by B's Exalted Angel, face-down unless ``face``."""
    return f"""\
rules: mtg
library: {MTG_LIBRARY}
turn: A
step: declare-blockers
until: end-of-combat
life-points: 20
cards:
  Centaur Courser: {{controller: A, zone: field, attacking: true}}
  Exalted Angel: {{controller: B, zone: field, face: {face}, blocking: Centaur Courser}}
{plains}history: {history}
"""


ANGEL_LIVES = 'exists zone("Exalted Angel") == battlefield'
COURSER_DIES = 'exists zone("Centaur Courser") == graveyard'


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("plains", "history", "claim", "verdict"),
    [
        # Turned face up before damage: a 4/5 that survives and kills the 3/3.
        (PLAINS, "[]", ANGEL_LIVES, "holds"),
        (PLAINS, "[]", COURSER_DIES, "holds"),
        # Three Plains cannot pay {2}{W}{W}: it stays a 2/2 and dies.
        (PLAINS.rsplit("  Plains 4", 1)[0], "[]", ANGEL_LIVES, "fails"),
        (PLAINS.rsplit("  Plains 4", 1)[0], "[]", COURSER_DIES, "fails"),
        # Turned face up: its controller keeps priority, and it is face up.
        (
            PLAINS,
            f"[{TAPS}B turns Exalted Angel face up]",
            'always face("Exalted Angel") == up',
            "holds",
        ),
    ],
)
def test_a_face_down_blocker_turned_face_up(
    decide: Decide, engine: str, plains: str, history: str, claim: str, verdict: str
) -> None:
    assert decide(block(plains, history), claim, engine) == verdict


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_face_down_creature_is_colourless(decide: Decide, engine: str) -> None:
    # Terror (nonblack) can target the face-down Grinning Demon, never the face-up one.
    text = f"""\
rules: mtg
library: {MTG_LIBRARY}
turn: A
life-points: 20
cards:
  Grinning Demon: {{controller: B, zone: field, face: down}}
  Terror: {{controller: A, zone: hand}}
history: []
"""
    assert decide(text, 'exists zone("Grinning Demon") == graveyard', engine) == "holds"
    up = text.replace("face: down", "face: up")
    assert decide(up, 'exists zone("Grinning Demon") == graveyard', engine) == "fails"


def test_the_state_starts_a_face_down_creature_as_a_colourless_2_2() -> None:
    path = EXAMPLES / "mtg" / "morph-blocker-turned-face-up.yaml"
    system = build_system(load_scenario(path))
    start = system.initial()
    cards = {c.name: c.index for c in system.scenario.cards}
    angel = cards["Exalted Angel"]
    for field, value in (("atk", 2), ("defense", 2), ("colors", 0)):
        assert start[system.layout.position(field)][angel] == value
    # Without a face-down creature, the state keeps no colours.
    plain = build_system(load_scenario(EXAMPLES / "mtg" / "terror-colors.yaml"))
    assert not plain.layout.has("colors")


def test_the_trace_tells_the_special_action(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "angel.yaml"
    path.write_text(
        block() + f"claims:\n  - claim: {COURSER_DIES}\n    expect: holds\n", encoding="utf-8"
    )
    result = run("check", str(path))
    assert result.code == 0, result
    assert (
        "B turns Exalted Angel face up (a special action, which does not use the stack: "
        "CR 702.37e, 116.2b)" in result.out
    )
    assert "B pays {2}{W}{W} from their mana pool" in result.out


def _card_error(run: Callable[..., Run], tmp_path: Path, card: str, rules: str = "mtg") -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(
        f'rules: {rules}\nturn: A\ncards:\n{card}\nclaims:\n  - exists zone("X") == graveyard\n',
        encoding="utf-8",
    )
    return bad_input(run, path)[0]


def test_only_a_creature_has_a_morph_cost(run: Callable[..., Run], tmp_path: Path) -> None:
    line = _card_error(run, tmp_path, '  X: {kind: instant, controller: A, morph: "{1}"}')
    assert line.endswith("bad.yaml:4:44: error: only a creature has a morph cost (CR 702.37a)")
    line = _card_error(
        run, tmp_path, '  X: {kind: effect-monster, controller: A, morph: "{1}"}', "yugioh"
    )
    assert (
        "error: Yu-Gi-Oh! Trading Card Game has no face-down creatures, so no morph cost (CR"
        in line
    ), line


def test_a_morph_cost_is_a_mana_cost(run: Callable[..., Run], tmp_path: Path) -> None:
    card = '  X: {kind: creature, controller: A, power: 1, toughness: 1, morph: "{Q}"}'
    line = _card_error(run, tmp_path, card)
    assert ":4:69: error: '{Q}' is not a mana cost" in line, line


@pytest.mark.parametrize(
    ("face", "morph", "message"),
    [
        (
            "up",
            ', morph: "{1}"',
            "X is not face-down: only a face-down creature is turned face up (CR 702.37e)",
        ),
        ("down", "", "X has no morph cost to turn it face up (CR 702.37e)"),
    ],
)
def test_turning_face_up_needs_a_face_down_creature_with_morph(
    run: Callable[..., Run], tmp_path: Path, face: str, morph: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "rules: mtg\nturn: A\ncards:\n"
        f"  X: {{kind: creature, controller: A, power: 1, toughness: 1, face: {face}{morph}}}\n"
        "history:\n  - A turns X face up\n"
        'claims:\n  - exists zone("X") == graveyard\n',
        encoding="utf-8",
    )
    line = bad_input(run, path)[0]
    assert line.endswith(f"bad.yaml:6:13: error: {message}"), line
