"""Magic's regeneration (CR 701.19): a shield replaces the next destruction this turn, by an
effect or by lethal damage, but not one that "can't be regenerated" (Terror, Wrath of God),
nor a creature put into the graveyard without being destroyed (0 toughness, 704.5f). The
golden example is ``examples/mtg/regeneration.yaml``; these tests vary it in both engines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import MTG_LIBRARY, Run, bad_input

Decide = Callable[..., str]
LIBRARY = MTG_LIBRARY
pytestmark = pytest.mark.usefixtures("mtg_library")


def boa(spell: str, history: str = "[]") -> str:
    """B's River Boa ({G}: Regenerate), a Forest to pay for it, and A's ``spell`` aimed at
    it."""
    return f"""\
rules: mtg
library: {LIBRARY}
turn: A
step: main1
life-points: 20
cards:
  River Boa:
    kind: creature
    controller: B
    color: green
    power: 2
    toughness: 1
    ability: {{type: activated, cost: {{mana: "{{G}}"}}, effect: {{regenerate: this-card}}}}
  Forest: {{controller: B}}
  Forest 2: {{card: Forest, controller: B}}
{spell}
history: {history}
"""


BOLT = "  Lightning Bolt: {controller: A, zone: hand}"
TERROR = "  Terror: {controller: A, zone: hand}"
DOOM_BLADE = "  Doom Blade: {controller: A, zone: hand}"
WEAKEN = (
    "  Weaken:\n    kind: instant\n    controller: A\n    zone: hand\n"
    "    target: {card: monster, zone: field}\n    effect: {change-def: {on: target, by: -1}}"
)
TWO_BOLTS = BOLT + "\n  Lightning Bolt 2: {card: Lightning Bolt, controller: A, zone: hand}"
SURVIVES = 'exists zone("River Boa") == battlefield'


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("spell", "history", "claim", "verdict"),
    [
        # Lethal damage destroys (704.5g): the shield replaces it.
        (BOLT, "[A casts Lightning Bolt targeting River Boa]", SURVIVES, "holds"),
        (
            BOLT,
            "[A casts Lightning Bolt targeting River Boa]",
            'exists tapped("River Boa")',
            "holds",
        ),
        # Without the shield first, it dies: the state-based action leaves no window.
        (
            BOLT,
            "[A casts Lightning Bolt targeting River Boa]",
            'exists zone("River Boa") == battlefield and not resolves("River Boa")',
            "fails",
        ),
        # A destroy effect is replaced too; "can't be regenerated" is not.
        (DOOM_BLADE, "[A casts Doom Blade targeting River Boa]", SURVIVES, "holds"),
        (TERROR, "[A casts Terror targeting River Boa]", SURVIVES, "fails"),
        # 0 toughness is no destruction (704.5f).
        (WEAKEN, "[A casts Weaken targeting River Boa]", SURVIVES, "fails"),
        # One shield, one destruction: two Forests make two shields.
        (
            TWO_BOLTS,
            "[]",
            'exists resolves("Lightning Bolt") and resolves("Lightning Bolt 2")'
            ' and zone("River Boa") == battlefield',
            "holds",
        ),
    ],
)
def test_a_shield_replaces_the_next_destruction(
    decide: Decide, engine: str, spell: str, history: str, claim: str, verdict: str
) -> None:
    assert decide(boa(spell, history), claim, engine) == verdict


def test_only_a_destruction_cannot_be_regenerated(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    spell = (
        "  Unsummon:\n    controller: A\n    zone: hand\n"
        "    effect: {return-to-hand: target, cannot-be-regenerated: true}"
    )
    path.write_text(
        boa(spell) + 'claims:\n  - claim: exists tapped("River Boa")\n', encoding="utf-8"
    )
    lines = bad_input(run, path)
    assert "only what 'destroy' destroys 'cannot-be-regenerated'" in lines[0], lines


def test_tapped_is_a_magic_word(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "ygo.yaml"
    path.write_text(
        "rules: yugioh\nturn: A\ncards:\n  Kuriboh: {kind: effect-monster, controller: A}\n"
        'claims:\n  - claim: exists tapped("Kuriboh")\n',
        encoding="utf-8",
    )
    lines = bad_input(run, path)
    assert "'tapped' is a notion of Magic" in lines[0], lines
