"""Claims on a card's battle position and face: ``position("X") == attack|defense`` (a
monster on the field; a face-down one is in Defense Position) and ``face("X") == up|down`` (a
card on the field), in both engines, and their errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, bad_input

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
cards:
  Book of Moon:
    kind: quick-play-spell
    controller: A
    zone: hand
    target: {card: monster, zone: field, face: up}
    effect: {flip-face-down: target}
  Gemini Elf: {kind: normal-monster, controller: B, atk: 1900}
  Giant Soldier of Stone: {kind: normal-monster, controller: B, atk: 1300, set: earlier-turn}
  Wall: {kind: normal-monster, controller: B, atk: 0, position: defense}
  Hole: {kind: normal-trap, controller: B, set: earlier-turn, effect: {draw: 1}}
"""

CASES = [
    ('exists (position("Gemini Elf") == defense and face("Gemini Elf") == down)', "holds"),
    ('exists (position("Gemini Elf") == attack and face("Gemini Elf") == up)', "holds"),
    (
        'position("Giant Soldier of Stone") == defense and face("Giant Soldier of Stone") == down',
        "holds",
    ),
    ('always (position("Wall") == defense and face("Wall") == up)', "fails"),  # Book of Moon
    ('exists (position("Wall") == defense and face("Wall") == up)', "holds"),
    ('always position("Wall") != attack', "holds"),
    ('face("Book of Moon") == up or face("Book of Moon") == down', "fails"),  # in the graveyard
    ('always position("Hole") != defense and position("Hole") != attack', "holds"),  # no monster
    # Activated, it is face-up until the chain is over, then in the graveyard.
    ('always (face("Hole") == down or zone("Hole") == graveyard)', "holds"),
]


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(("claim", "verdict"), CASES)
def test_position_and_face(decide: Decide, engine: str, claim: str, verdict: str) -> None:
    assert decide(BOARD, claim, engine) == verdict


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        (
            'position("Wall") == sideways',
            "unknown battle position 'sideways' (one of: attack, defense)",
        ),
        ('face("Wall") == left', "unknown face 'left' (one of: up, down)"),
        ('position("Wall") < attack', "'<' does not compare these; use == or !="),
        ('position("Wall", "Hole") == attack', "position takes one card"),
    ],
)
def test_position_and_face_errors(
    run: Callable[..., Run], tmp_path: Path, claim: str, message: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(BOARD + f"claims:\n  - claim: {claim}\n", encoding="utf-8")
    lines = bad_input(run, path)
    assert lines[0].startswith(f"{path}:15:") and lines[0].endswith(f"error: {message}"), lines[0]
