"""Filters on a card's kind and Level: Effect Veiler targets an Effect Monster, a card that
targets "a Level 4 or lower monster" does not target a Level 7 one. The golden example is
``examples/yugioh/effect-veiler-effect-monsters-only.yaml``."""

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
  Shrink:
    kind: quick-play-spell
    controller: A
    zone: hand
    target: {{card: monster, zone: field, {filter}}}
    effect: {{destroy: target}}
  Gemini Elf: {{kind: normal-monster, controller: B, atk: 1900, level: 4}}
  Summoned Skull: {{kind: normal-monster, controller: B, atk: 2500, level: 6}}
  Sangan: {{kind: effect-monster, controller: B, atk: 1000, level: 3}}
  Token: {{kind: effect-monster, controller: B, atk: 0}}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("flt", "fits"),
    [
        ("kind: effect-monster", {"Sangan", "Token"}),
        ("kind: normal-monster", {"Gemini Elf", "Summoned Skull"}),
        (
            "kind: [normal-monster, effect-monster]",
            {"Gemini Elf", "Summoned Skull", "Sangan", "Token"},
        ),
        ("level-at-most: 4", {"Gemini Elf", "Sangan"}),  # the Token has no Level
        ("level-at-least: 4", {"Gemini Elf", "Summoned Skull"}),
        ("kind: effect-monster, level-at-least: 1", {"Sangan"}),
    ],
)
def test_a_target_fits_by_kind_and_level(
    decide: Decide, engine: str, flt: str, fits: set[str]
) -> None:
    text = BOARD.format(filter=flt)
    for name in ("Gemini Elf", "Summoned Skull", "Sangan", "Token"):
        claim = f'exists zone("{name}") == graveyard'
        assert decide(text, claim, engine) == ("holds" if name in fits else "fails"), name


def test_an_unknown_kind_in_a_filter_is_an_error_at_its_place(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(BOARD.format(filter="kind: effect-monstr"), encoding="utf-8")
    lines = bad_input(run, path)
    assert lines[0] == (
        f"{path}:8:48: error: unknown card kind 'effect-monstr' under yugioh; "
        "did you mean 'effect-monster'?"
    )
    assert lines[1] == "        target: {card: monster, zone: field, kind: effect-monstr}"
    assert lines[2] == " " * 51 + "^"


def test_a_level_bound_must_be_a_level(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(BOARD.format(filter="level-at-most: -1"), encoding="utf-8")
    lines = bad_input(run, path)
    assert lines[0] == f"{path}:8:57: error: 'level-at-most' must be at least 0, got -1"
