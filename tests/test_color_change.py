"""Magic's colour changes (CR 105.3): ``become-color`` gives a permanent new colours until end
of turn, in place of its others, and colour filters read the colours now. The golden
examples are ``examples/mtg/color-change-lets-terror-target.yaml`` and
``examples/mtg/color-change-in-response.yaml``; these tests vary them in both engines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, MTG_LIBRARY, Run, bad_input
from verifier.io.scenario import load_scenario
from verifier.system import build_system

Decide = Callable[..., str]
pytestmark = pytest.mark.usefixtures("mtg_library")


def board(extra: str = "", history: str = "[]", turn: str = "A", more: str = "") -> str:
    """B's black Scathe Zombies and green Grizzly Bears, A's Terror, and ``extra``."""
    return f"""\
rules: mtg
library: {MTG_LIBRARY}
turn: {turn}
step: main1
until: main1
life-points: 20
{more}cards:
  Scathe Zombies: {{controller: B, zone: field}}
  Grizzly Bears: {{controller: B, zone: field}}
  Terror: {{controller: A, zone: hand}}
{extra}
history: {history}
"""


WISPS = "  Cerulean Wisps: {controller: A, zone: hand}"
TOUCH = "  Touch of Darkness: {controller: B, zone: hand}"
BLEACH = (
    "  Bleach:\n    kind: instant\n    controller: A\n    zone: hand\n"
    "    target: {card: monster, zone: field}\n"
    "    effect: {become-color: {color: colorless, on: target}}"
)
PAINT_ALL = (
    "  Paint:\n    kind: instant\n    controller: A\n    zone: hand\n"
    "    effect: {become-color: {color: [white, red], on: all-monsters}, of: opponent}"
)
ZOMBIES_GONE = 'exists zone("Scathe Zombies") == graveyard'
AFTER_WISPS = "[A casts Cerulean Wisps targeting Scathe Zombies, the chain resolves]"


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("extra", "history", "claim", "verdict"),
    [
        # Black: never a legal target for Terror (nonblack).
        ("", "[]", ZOMBIES_GONE, "fails"),
        # Made blue (its black replaced, 105.3): now it is.
        (WISPS, "[]", ZOMBIES_GONE, "holds"),
        (WISPS, AFTER_WISPS, 'can_activate(A, "Terror")', "holds"),
        # Colourless is nonblack too.
        (BLEACH, "[]", ZOMBIES_GONE, "holds"),
        # "all creatures your opponents control become white and red": none is black then.
        (PAINT_ALL, "[]", ZOMBIES_GONE, "holds"),
        (
            PAINT_ALL,
            "[A casts Paint, the chain resolves, A casts Terror targeting Scathe Zombies]",
            'exists zone("Scathe Zombies") == graveyard',
            "holds",
        ),
        # Turned black in response: Terror's target is illegal as it resolves (608.2b).
        (
            TOUCH,
            "[A casts Terror targeting Grizzly Bears, B casts Touch of Darkness targeting "
            "Grizzly Bears]",
            'no_effect("Terror") and zone("Grizzly Bears") == battlefield',
            "holds",
        ),
        # ... but blue again on top of that, it is legal again: the latest change wins.
        (
            TOUCH + "\n" + WISPS,
            "[A casts Terror targeting Grizzly Bears, B casts Touch of Darkness targeting "
            "Grizzly Bears]",
            'exists zone("Grizzly Bears") == graveyard',
            "holds",
        ),
    ],
)
def test_colour_filters_read_the_colours_now(
    decide: Decide, engine: str, extra: str, history: str, claim: str, verdict: str
) -> None:
    assert decide(board(extra, history), claim, engine) == verdict


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_colour_change_ends_with_the_turn(decide: Decide, engine: str) -> None:
    # B holds Terror for A's own black Zombies, made blue in A's main phase: B may cast it
    # this turn, and not once the next turn began (the change lasted until end of turn).
    text = f"""\
rules: mtg
library: {MTG_LIBRARY}
turn: A
step: main2
limits: {{turns: 2}}
life-points: 20
cards:
  Scathe Zombies: {{controller: A, zone: field}}
  Cerulean Wisps: {{controller: A, zone: hand}}
  Terror: {{controller: B, zone: hand}}
history: [A casts Cerulean Wisps targeting Scathe Zombies, the chain resolves]
"""
    assert decide(text, 'exists activates(B, "Terror")', engine) == "holds"
    later = text.replace("the chain resolves]", "the chain resolves, the turn moves to upkeep]")
    assert decide(later, 'exists activates(B, "Terror")', engine) == "fails"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_creature_that_leaves_and_returns_has_its_printed_colours(
    decide: Decide, engine: str
) -> None:
    # A new object (CR 400.7): returned to the hand and cast again, the Zombies are black.
    spells = (
        WISPS + "\n  Unsummon: {controller: A, zone: hand}\n"
        "  Scathe Zombies: {controller: A, zone: field}"
    )
    text = board(spells).replace("  Scathe Zombies: {controller: B, zone: field}\n", "", 1)
    history = (
        "[A casts Cerulean Wisps targeting Scathe Zombies, the chain resolves, "
        "A casts Unsummon targeting Scathe Zombies, the chain resolves, A casts Scathe Zombies,"
        " the chain resolves]"
    )
    text = text.replace("history: []", f"history: {history}")
    assert decide(text, ZOMBIES_GONE, engine) == "fails"
    before = text.replace(", A casts Scathe Zombies, the chain resolves", "")
    before = before.replace(", A casts Unsummon targeting Scathe Zombies, the chain resolves", "")
    assert decide(before, ZOMBIES_GONE, engine) == "holds"


def test_the_trace_says_the_creature_becomes_blue(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "wisps.yaml"
    path.write_text(
        board(WISPS) + f"claims:\n  - claim: {ZOMBIES_GONE}\n    expect: holds\n",
        encoding="utf-8",
    )
    result = run("check", str(path))
    assert result.code == 0, result
    assert "Scathe Zombies becomes blue until end of turn (CR 105.3)" in result.out
    assert "Scathe Zombies is destroyed" in result.out


def test_only_a_scenario_with_a_colour_change_keeps_colours(tmp_path: Path) -> None:
    # The state gains the field only where some effect can change a colour: Terror's own
    # example keeps the state it had.
    plain = build_system(load_scenario(EXAMPLES / "mtg" / "terror-colors.yaml"))
    assert not plain.layout.has("colors")
    changing = EXAMPLES / "mtg" / "color-change-lets-terror-target.yaml"
    system = build_system(load_scenario(changing))
    assert system.layout.has("colors")
    cards = {c.name: c.index for c in system.scenario.cards}
    colours = system.initial()[system.layout.position("colors")]
    assert colours[cards["Scathe Zombies"]] == 4  # black
    assert colours[cards["Cerulean Wisps"]] == 2  # blue


@pytest.mark.parametrize(
    ("change", "message", "column"),
    [
        (
            "{color: purple, on: target}",
            "unknown value 'purple' for 'color' (expected 'white', 'blue', 'black', 'red', "
            "'green' or 'colorless' or a list)",
            36,
        ),
        (
            "{color: [colorless, blue], on: target}",
            "'colorless' is no colour: it goes alone (CR 105.2c)",
            13,
        ),
        ("{color: [blue, blue], on: target}", "'color' names a colour twice", 13),
        ("{color: [], on: target}", "'color' names at least one colour, or colorless", 13),
        ("{on: target}", "'color'", 0),
    ],
)
def test_bad_colour_changes_are_located_errors(
    run: Callable[..., Run], tmp_path: Path, change: str, message: str, column: int
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "rules: mtg\nturn: A\ncards:\n"
        "  Bears: {kind: creature, controller: B, power: 2, toughness: 2}\n"
        "  Paint:\n    kind: instant\n    controller: A\n"
        "    target: {card: monster, zone: field}\n"
        f"    effect: {{become-color: {change}}}\n"
        'claims:\n  - exists zone("Bears") == graveyard\n',
        encoding="utf-8",
    )
    lines = bad_input(run, path)
    where = f"{path}:9:{column}: error: " if column else f"{path}:9:"
    assert lines[0].startswith(where), lines
    assert message in lines[0], lines
