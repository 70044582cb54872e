"""Mandatory Quick Effects (Doomcaliber Knight): while one can be activated, it must be.

The golden example is ``examples/yugioh/mandatory-quick-effect.yaml`` (the turn player's own
Knight); here the opponent's Knight against the same card written as an optional Quick
Effect, both players' Knights at once (the turn player's goes first), a history that tries
to go on without it, and the keys' errors.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
cards:
  Cannon Soldier:
    kind: effect-monster
    controller: A
    zone: field
    ability: {{type: ignition, cost: {{tribute: monster}}, effect: {{lose-lp: 500, player: opponent}}}}
  Celtic Guardian: {{kind: normal-monster, controller: A, zone: field}}
  Trap: {{kind: normal-trap, controller: A, set: earlier-turn, effect: {{draw: 1}}}}
  Knight:
    kind: effect-monster
    controller: {owner}
    zone: field
    ability:
      type: quick
      mandatory: {mandatory}
      when: {{activates: monster-effect}}
      cost: {{tribute: this}}
      effect: [{{negate: activation}}, {{destroy: that-card, simultaneous: true}}]
  Mystical Space Typhoon:
    kind: quick-play-spell
    controller: B
    set: earlier-turn
    target: {{card: spell-trap, zone: field}}
    effect: {{destroy: target}}
history:
  - A activates Cannon Soldier tributing Celtic Guardian
"""


def board(owner: str = "B", mandatory: bool = True, extra: str = "") -> str:
    text = BOARD.format(owner=owner, mandatory=str(mandatory).lower())
    return text.replace("history:", extra + "history:") if extra else text


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(("mandatory", "forced"), [(True, "holds"), (False, "fails")])
def test_the_opponents_knight_must_answer(
    decide: Decide, engine: str, mandatory: bool, forced: str
) -> None:
    text = board("B", mandatory)
    unforced = "fails" if forced == "holds" else "holds"
    assert decide(text, 'always negated("Cannon Soldier")', engine) == forced
    assert decide(text, "always life_points(B) == 8000", engine) == forced
    # Optional, B may answer with Mystical Space Typhoon instead, or not at all.
    typhoon = 'exists chain(1).order == ["Cannon Soldier", "Mystical Space Typhoon"]'
    assert decide(text, typhoon, engine) == unforced
    assert decide(text, 'exists not activates("Knight")', engine) == unforced
    # After the Knight, B may still chain.
    after = 'exists chain(1).order == ["Cannon Soldier", "Knight", "Mystical Space Typhoon"]'
    assert decide(text, after, engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_turn_players_own_knight_goes_before_the_opponent_answers(
    decide: Decide, engine: str
) -> None:
    text = board("A")
    typhoon = 'exists chain(1).order == ["Cannon Soldier", "Mystical Space Typhoon"]'
    assert decide(text, typhoon, engine) == "fails"
    assert decide(text, 'always negated("Cannon Soldier")', engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_both_players_knights_the_turn_players_first(decide: Decide, engine: str) -> None:
    extra = "  Knight B: {card: Knight, controller: B, zone: field}\n"
    text = board("A", extra=extra)
    # A's Knight is Chain Link 2; it is a monster effect too, so B's must answer it.
    first = 'always (activates("Knight") and activates("Knight B"))'
    assert decide(text, first, engine) == "holds"
    second = 'exists chain(1).order == ["Cannon Soldier", "Knight B"]'
    assert decide(text, second, engine) == "fails"
    order = 'exists chain(1).order == ["Cannon Soldier", "Knight", "Knight B"]'
    assert decide(text, order, engine) == "holds"


def test_a_history_that_goes_on_without_it_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = board("B").replace(
        "  - A activates Cannon Soldier tributing Celtic Guardian\n",
        "  - A activates Cannon Soldier tributing Celtic Guardian\n"
        "  - B activates Mystical Space Typhoon targeting Trap\n",
    )
    result = run("check", str(write("s.yaml", text + "claims:\n  - claim: can_respond(A)\n")))
    assert result.code == 2, result
    assert "Traceback" not in result.err
    assert "mandatory Quick Effect" in result.err


@pytest.mark.parametrize(
    "ability",
    [
        "{type: ignition, mandatory: true, effect: {draw: 1}}",
        "{type: trigger, mandatory: true, trigger: {event: summoned}, effect: {draw: 1}}",
    ],
    ids=["without-a-condition", "a-trigger"],
)
def test_only_a_quick_effect_with_a_condition_is_mandatory(
    run: Callable[..., Run], write: Callable[[str, str], Path], ability: str
) -> None:
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        f"  Monster: {{kind: effect-monster, controller: A, ability: {ability}}}\n"
        "claims:\n  - claim: can_respond(B)\n"
    )
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 2, result
    lines = result.err.splitlines()
    assert (
        "error: only a Quick Effect with an activation condition ('when') is mandatory"
        in (lines[0])
    )
    line = text.splitlines()[3]
    column = line.index("mandatory") + 1
    assert lines[0].startswith(f"{write('s.yaml', text)}:4:{column}: error: "), lines
    assert lines[1].strip() == line.strip()
    assert lines[2] == " " * (column + 3) + "^"
