"""A Normal Summon performed by an effect (``normal-summon: chosen``): Ultimate Offering, The Duke
of Demise ("Immediately after this effect resolves, Normal Summon 1 monster").

The golden examples are ``examples/yugioh/ultimate-offering-*.yaml``; here, in both engines:
the monster is chosen as the link resolves among those in its controller's hand that need no
Tribute; it is summoned while the chain resolves (no Summon negation window, and "when a
monster is Normal Summoned" cards may answer it only when it was the last thing to happen);
it needs a free Monster Zone; with nothing to summon the effect cannot be activated; the
turn's own Normal Summon stays; and the verb's located error.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, bad_input

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
step: main1
until: main1
life-points: 800
cards:
  Offering:
    kind: quick-play-spell
    controller: A
    zone: hand
    effect: {normal-summon: chosen, filter: {card: monster, zone: hand, controller: you}}
  Small: {kind: normal-monster, controller: A, zone: hand, level: 4, atk: 1900}
  Big: {kind: normal-monster, controller: A, zone: hand, level: 7, atk: 2500}
  Foe Small: {kind: normal-monster, controller: B, zone: hand, level: 3, atk: 1000}
  Forbid:
    kind: counter-trap
    controller: B
    set: earlier-turn
    when: {would-be-summoned: monster}
    effect: [{negate: summon}, {destroy: summoned}]
  Hole:
    kind: normal-trap
    controller: B
    set: earlier-turn
    when: {summoned: monster, by: opponent, how: normal}
    effect: {destroy: summoned}
EXTRA
history:
  - A activates Offering
"""


def board(extra: str = "") -> str:
    return BOARD.replace("EXTRA\n", extra)


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_it_summons_a_monster_of_the_hand_that_needs_no_tribute(
    decide: Decide, engine: str
) -> None:
    text = board()
    # Resolved, it summons Small: never Big (two Tributes), never the opponent's monster.
    resolved = 'always (not resolves("Offering") or zone("Small") != hand)'
    assert decide(text, resolved, engine) == "holds"
    assert decide(text, 'always zone("Big") == hand', engine) == "holds"
    assert decide(text, 'always zone("Foe Small") == hand', engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_no_summon_negation_window_but_an_answer_after_the_chain(
    decide: Decide, engine: str
) -> None:
    text = board()
    # A summon made while the chain resolves cannot be negated (nobody can act before it
    # succeeds); Forbid would answer only a monster that "would be Summoned".
    assert decide(text, 'always not activates("Forbid")', engine) == "holds"
    # As the last thing to happen, it is a Normal Summon that "when ... Normal Summoned"
    # cards may answer after the chain.
    answered = 'exists (activates("Hole") and zone("Small") == graveyard)'
    assert decide(text, answered, engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_not_the_last_thing_to_happen_no_answer(decide: Decide, engine: str) -> None:
    # A draw after the summon in the same effect: the summon is not the last thing to happen.
    text = board().replace(
        "effect: {normal-summon: chosen, filter: {card: monster, zone: hand, controller: you}}",
        "effect: [{normal-summon: chosen, filter: {card: monster, zone: hand, controller: you}}, "
        "{draw: 1}]",
    )
    assert decide(text, 'always not activates("Hole")', engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_turns_own_normal_summon_stays(decide: Decide, engine: str) -> None:
    text = board("  Other: {kind: normal-monster, controller: A, zone: hand, level: 2}\n")
    both = 'exists (zone("Small") == field and zone("Other") == field)'
    assert decide(text, both, engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_nothing_to_summon_nothing_to_activate(decide: Decide, engine: str) -> None:
    text = board().replace("level: 4, atk: 1900", "level: 5, atk: 1900")
    # Under "a card cannot be activated if its effect would do nothing": no monster of A's
    # hand needs no Tribute, so Offering cannot be activated (the history is refused).
    text = text.replace("history:\n  - A activates Offering\n", "")
    assert decide(text, 'can_activate(A, "Offering")', engine) == "fails"
    assert (
        decide(
            board().replace("history:\n  - A activates Offering\n", ""),
            'can_activate(A, "Offering")',
            engine,
        )
        == "holds"
    )


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_it_needs_a_free_monster_zone(decide: Decide, engine: str) -> None:
    fielded = "".join(
        f"  Body {i}: {{kind: normal-monster, controller: A, zone: field, level: 1}}\n"
        for i in range(5)
    )
    text = board(fielded).replace("history:\n  - A activates Offering\n", "")
    # Big is left out: a Tribute Set of Big would free two zones first.
    text = text.replace(
        "  Big: {kind: normal-monster, controller: A, zone: hand, level: 7, atk: 2500}\n", ""
    )
    assert decide(text, 'can_activate(A, "Offering")', engine) == "fails"
    freed = text.replace(
        "  Body 4: {kind: normal-monster, controller: A, zone: field, level: 1}\n", ""
    )
    assert decide(freed, 'can_activate(A, "Offering")', engine) == "holds"


def test_the_trace_says_it_is_normal_summoned(decide: Decide, tmp_path: Path) -> None:
    from verifier.api import check

    path = tmp_path / "s.yaml"
    path.write_text(board() + 'claims:\n  - claim: exists zone("Small") == field\n')
    [result] = check(path)
    assert any(step.text == "Small is Normal Summoned" for step in result.trace), result.trace


def test_only_chosen(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        "  Offering: {kind: normal-spell, controller: A, zone: hand, "
        "effect: {normal-summon: this-card}}\n"
        "claims:\n  - claim: can_respond(B)\n"
    )
    path = write("s.yaml", text)
    lines = bad_input(run, path)
    line = text.splitlines()[3]
    column = line.index("this-card") + 1
    assert lines[0] == (
        f"{path}:4:{column}: error: unknown value 'this-card' for 'normal-summon' "
        "(expected 'chosen')"
    )
    assert lines[2] == " " * (column + 3) + "^"
