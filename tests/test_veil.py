"""Effect Veiler's pieces: the verb negate-card-effects (until the end of the turn, until the
monster leaves the field), the cost send-to-graveyard: this (not a discard), the conditions on
the phase and the turn, and their errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run

VEILER = """\
rules: yugioh
turn: A
cards:
  Sorcerer:
    kind: effect-monster
    controller: A
    ability: {type: quick, once: turn, effect: {draw: 1}}
  Veiler:
    kind: effect-monster
    controller: B
    zone: hand
    abilities:
      - type: quick
        from: hand
        when: {during: main-phase, turn: opponent}
        cost: {send-to-graveyard: this}
        target: {card: monster, zone: field, face: up, controller: opponent}
        effect: {negate-card-effects: target}
      - type: trigger
        from: graveyard
        trigger: {event: discarded}
        effect: {draw: 1}
claims:
  - claim: can_activate(B, "Veiler")
    expect: holds
"""


def _check(run: Callable[..., Run], path: Path, *extra: str) -> Run:
    return run("check", "--engine", "both", "--brief", str(path), *extra)


def _claims(text: str, claims: str) -> str:
    return text[: text.index("claims:")] + claims


@pytest.mark.full
def test_the_cost_is_not_a_discard(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    claims = """claims:
  - claim: always (zone("Veiler") == graveyard and not triggers("Veiler"))
    history: [A activates Sorcerer, B activates Veiler (1) targeting Sorcerer]
    expect: holds
"""
    sent = write("sent.yaml", _claims(VEILER, claims))
    assert _check(run, sent).code == 0
    # The same card discarding itself: its "if this card is discarded" trigger triggers.
    discarded = write(
        "discarded.yaml", _claims(VEILER, claims).replace("send-to-graveyard", "discard")
    )
    result = _check(run, discarded)
    assert result.code == 1
    assert "EXPECTED HOLDS" in result.out


def test_the_negation_lasts_until_the_end_of_the_turn(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    # Negated in A's Main Phase 2, Sorcerer's Quick Effect resolves with no effect for the
    # rest of A's turn, and with its effect again in B's turn.
    veiled = "[A passes, B activates Veiler (1) targeting Sorcerer, A passes, B passes, the chain resolves"
    claims = f"""claims:
  - claim: always (negated("Sorcerer") and cards_drawn(A) == 0)
    history: {veiled}, A activates Sorcerer]
    expect: holds
  - claim: exists (resolves("Sorcerer") and not negated("Sorcerer"))
    history: {veiled}]
    expect: holds
"""
    one = _claims(VEILER, claims).replace("turn: A\n", "turn: A\nstep: main2\nuntil: end\n")
    result = run("check", "--engine", "explore", str(write("one.yaml", one)))
    assert result.code == 1
    assert "2 claim(s) in 1 file(s): 1 as expected, 1 not" in result.out
    assert "EXPECTED HOLDS   claim-2" in result.out
    two = one.replace("until: end\n", "until: end\nlimits: {turns: 2}\n")
    result = run("check", "--engine", "explore", "--brief", str(write("two.yaml", two)))
    assert "holds    ok               claim-2" in result.out
    assert "EXPECTED HOLDS   claim-1" in result.out  # in B's turn it draws again


@pytest.mark.full
def test_the_turn_condition_is_named(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("own.yaml", VEILER.replace("turn: A", "turn: B"))
    result = run("why", str(path), "B activates Veiler (1) targeting Sorcerer")
    assert "card.turn" in result.out, result.out


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            ("during: main-phase", "during: main3"),
            [
                "s.yaml:15:24: error: unknown phase 'main3' in 'during'; did you mean 'main2'?",
                "            when: {during: main3, turn: opponent}",
                "                           ^",
            ],
            id="unknown-phase",
        ),
        pytest.param(
            ("turn: opponent}", "turn: mine}"),
            [
                "s.yaml:15:42: error: unknown value 'mine' for 'turn' (expected 'yours' or "
                "'opponent')",
            ],
            id="unknown-turn",
        ),
        pytest.param(
            ("        from: hand\n        when", "        when"),
            [
                "s.yaml:15:15: error: 'send-to-graveyard: this' needs the effect to be "
                "activated from the hand ('from: hand')",
            ],
            id="sent-from-the-field",
        ),
        pytest.param(
            ("send-to-graveyard: this", "send-to-graveyard: 1"),
            ["s.yaml:16:35: error: unknown value 1 for 'send-to-graveyard' (expected 'this')"],
            id="send-what",
        ),
        pytest.param(
            ("negate-card-effects: target", "negate-card-effects: everything"),
            ["s.yaml:18:39: error: unknown value 'everything' for 'negate-card-effects'"],
            id="negate-what",
        ),
    ],
)
def test_bad_values_are_located_errors(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    change: tuple[str, str],
    expected: list[str],
) -> None:
    text = VEILER.replace(*change)
    assert text != VEILER
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 2
    assert "Traceback" not in result.err
    lines = result.err.splitlines()
    for i, want in enumerate(expected):
        assert lines[i].endswith(want) or want in lines[i], (lines, want)


def test_forbidden_chalice_gains_atk_and_negates(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    library = EXAMPLES / "yugioh" / "yugioh.cards.yaml"
    write(library.name, library.read_text(encoding="utf-8"))  # beside the scenario
    text = f"""\
rules: yugioh
turn: A
library: {library.name}
cards:
  Chaos Sorcerer: {{controller: A, zone: field}}
  Blue-Eyes White Dragon: {{controller: B, zone: field}}
  Forbidden Chalice: {{controller: B, set: earlier-turn}}
history:
  - A activates Chaos Sorcerer targeting Blue-Eyes White Dragon
  - B activates Forbidden Chalice targeting Chaos Sorcerer
claims:
  - claim: >-
      always (negated("Chaos Sorcerer") and atk("Chaos Sorcerer") == 2700 and
      zone("Blue-Eyes White Dragon") == field)
    expect: holds
"""
    assert _check(run, write("chalice.yaml", text)).code == 0


@pytest.mark.parametrize(("step", "answers"), [("start-step", "holds"), ("main1", "fails")])
def test_trap_jammer_answers_only_in_the_battle_phase(
    run: Callable[..., Run], write: Callable[[str, str], Path], step: str, answers: str
) -> None:
    # A phase condition with another condition: "When your opponent activates a Trap Card
    # during the Battle Phase".
    library = EXAMPLES / "yugioh" / "yugioh.cards.yaml"
    write(library.name, library.read_text(encoding="utf-8"))  # beside the scenario
    text = f"""\
rules: yugioh
turn: A
step: {step}
library: {library.name}
cards:
  Trap Jammer: {{controller: A, set: earlier-turn}}
  Trap Drawer: {{kind: normal-trap, controller: B, set: earlier-turn, effect: {{draw: 1}}}}
history: [A passes, B activates Trap Drawer]
claims:
  - claim: can_respond(A)
    expect: {answers}
"""
    assert _check(run, write("jammer.yaml", text)).code == 0
