"""Magic's combat declared as moves (CR 508.1, 509.1): the active player's attackers as the
declare attackers step begins, the defending player's blockers as the declare blockers step
begins, summoning sickness (302.6), tapped attackers (508.1f), the skipped steps with no
attacker (508.8). The golden example is ``examples/mtg/declare-attackers-and-blockers.yaml``;
these tests vary it, in both engines, and check the errors of the new history steps."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import MTG_LIBRARY, Run, bad_input

Decide = Callable[..., str]
LIBRARY = MTG_LIBRARY
pytestmark = pytest.mark.usefixtures("mtg_library")


def combat(bears: str = "", history: str = "[]", step: str = "declare-attackers") -> str:
    return f"""\
rules: mtg
library: {LIBRARY}
turn: A
step: {step}
until: end-of-combat
life-points: 20
cards:
  Grizzly Bears: {{controller: A{bears}}}
  Hill Giant: {{controller: B}}
  Shock: {{controller: B, zone: hand}}
history: {history}
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("options", "claim", "verdict"),
    [
        ({}, "exists life_points(B) == 18", "holds"),
        ({}, 'exists zone("Grizzly Bears") == graveyard', "holds"),
        ({}, "always life_points(B) >= 18", "holds"),
        ({}, 'exists zone("Hill Giant") == graveyard and not resolves("Shock")', "fails"),
        # A tapped creature does not attack (CR 508.1a).
        ({"bears": ", tapped: true"}, "exists life_points(B) == 18", "fails"),
        # Blocked, the Bears deal no damage to B, even once the blocker is gone (509.1h).
        (
            {"history": "[A attacks with Grizzly Bears, B blocks Grizzly Bears with Hill Giant]"},
            "exists life_points(B) < 20",
            "fails",
        ),
        (
            {"history": "[A attacks with Grizzly Bears, B declares no blockers]"},
            'always life_points(B) == 18 or zone("Grizzly Bears") == graveyard',
            "holds",
        ),
    ],
)
def test_attackers_and_blockers_are_declared(
    decide: Decide, engine: str, options: dict[str, str], claim: str, verdict: str
) -> None:
    assert decide(combat(**options), claim, engine) == verdict


def test_a_creature_that_came_this_turn_does_not_attack(decide: Decide) -> None:
    text = f"""\
rules: mtg
library: {LIBRARY}
turn: A
step: main1
until: end-of-combat
life-points: 20
cards:
  Grizzly Bears: {{controller: A}}
  Hill Giant: {{controller: A, zone: hand, mana: "{{2}}{{G}}"}}
  Forest: {{controller: A}}
  Forest 2: {{card: Forest, controller: A}}
  Forest 3: {{card: Forest, controller: A}}
"""
    assert decide(text, 'exists zone("Hill Giant") == battlefield') == "holds"
    # Cast in the main phase, it cannot attack (CR 302.6): 2 damage at most, from the Bears.
    assert decide(text, "exists life_points(B) == 18") == "holds"
    assert decide(text, "exists life_points(B) < 18") == "fails"


def test_a_creature_that_came_this_turn_does_not_tap_for_mana(decide: Decide) -> None:
    text = f"""\
rules: mtg
library: {LIBRARY}
turn: A
step: main1
life-points: 20
cards:
  Forest: {{controller: A}}
  Llanowar Elves: {{controller: A, zone: hand, mana: "{{G}}"}}
  Giant Growth: {{controller: A, zone: hand, mana: "{{G}}"}}
  Hill Giant: {{controller: B}}
history: [A activates Forest, A casts Llanowar Elves]
"""
    # Its {T} waits for A's next turn (CR 302.6): no green mana for Giant Growth now.
    assert decide(text, 'exists zone("Giant Growth") == graveyard') == "fails"
    assert decide(text, 'exists zone("Llanowar Elves") == battlefield') == "holds"


def test_with_no_attacker_blockers_and_damage_are_skipped(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    path = tmp_path / "none.yaml"
    path.write_text(combat(history="[A declares no attackers]"), encoding="utf-8")
    result = run("ask", str(path), "exists life_points(B) == 20")
    assert result.code == 0, result
    assert "A declares no attackers" in result.out
    assert "the end of combat step" in result.out
    assert "the declare blockers step" not in result.out  # CR 508.8


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ("[A attacks with Hill Giant]", "only an untapped creature its player controls attacks"),
        ("[B attacks with Hill Giant]", "the active player declares attackers"),
        (
            "[A attacks with Grizzly Bears, B blocks Grizzly Bears with Grizzly Bears]",
            "only an untapped creature its player controls",
        ),
        (
            "[A attacks with Grizzly Bears, B blocks Grizzly Bears with Hill Giant and "
            "Grizzly Bears with Hill Giant]",
            "a creature blocks one attacker",
        ),
        ("[A attacks with Grizzly Bears at once]", "unexpected words after the declaration"),
        # Nobody has priority until the attackers are declared (CR 508.2).
        ("[B casts Shock targeting Grizzly Bears]", "no player has priority while attackers"),
        ("[A attacks with Grizzly Bears, B blocks Hill Giant]", "write 'B blocks ATTACKER with"),
    ],
)
def test_bad_declarations_are_located_errors(
    run: Callable[..., Run], tmp_path: Path, history: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    claims = "claims:\n  - claim: exists life_points(B) == 18\n"
    path.write_text(combat(history=history) + claims, encoding="utf-8")
    lines = bad_input(run, path)
    assert lines[0].startswith(f"{path}:") and "error:" in lines[0], lines
    assert message in lines[0], lines
    assert lines[-1].strip().endswith("^"), lines


def test_too_many_declarations_are_refused(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "crowd.yaml"
    lines = [
        f"  Bear {i}: {{card: Grizzly Bears, controller: {'A' if i < 4 else 'B'}}}"
        for i in range(9)
    ]
    text = combat().replace("  Grizzly Bears: {controller: A}\n", "\n".join(lines) + "\n")
    path.write_text(text, encoding="utf-8")
    lines_out = bad_input(run, path)
    assert "ways to declare attackers or blockers" in lines_out[0]


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_declared_combat_puts_its_damage_on_the_stack_under_the_old_rules(
    decide: Decide, engine: str
) -> None:
    # mtg-damage-on-the-stack: the Mogg Fanatic that blocks deals its combat damage and is
    # then sacrificed for 1 more - the trick Magic 2010 ended (its golden example starts with
    # the combat declared; here the players declare it).
    text = combat(
        history="[A attacks with Grizzly Bears, B blocks Grizzly Bears with Mogg Fanatic]"
    )
    text = text.replace("rules: mtg\n", "rules: mtg-damage-on-the-stack\n").replace(
        "  Hill Giant: {controller: B}\n  Shock: {controller: B, zone: hand}\n",
        "  Mogg Fanatic: {controller: B}\n",
    )
    assert decide(text, 'exists zone("Grizzly Bears") == graveyard', engine) == "holds"
    current = text.replace("rules: mtg-damage-on-the-stack\n", "rules: mtg\n")
    assert decide(current, 'exists zone("Grizzly Bears") == graveyard', engine) == "fails"
