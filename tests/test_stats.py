"""ATK and DEF: the change-atk and change-def verbs, the atk() and def() claims, and filters
that read a monster's ATK now, in both engines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

BASE = """\
rules: yugioh
turn: A
cards:
  Elf: {kind: normal-monster, controller: A, atk: 1900, def: 900}
  Ogre: {kind: normal-monster, controller: B, atk: 1200}
  Boost:
    kind: quick-play-spell
    controller: A
    zone: hand
    effect: EFFECT
history:
  - A activates Boost
claims:
  - claim: CLAIM
    expect: holds
"""


def scenario(effect: str, claim: str) -> str:
    return BASE.replace("EFFECT", effect).replace("CLAIM", claim)


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("effect", "claim"),
    [
        # every monster of a side, by how much, both ways
        (
            "{change-atk: {on: all-monsters, by: 500}, of: you}",
            'always (atk("Elf") == 2400 and atk("Ogre") == 1200)',
        ),
        ("{change-def: {on: all-monsters, by: -300}}", 'always def("Elf") == 600'),
        # never below 0
        (
            "{change-atk: {on: all-monsters, by: -5000}}",
            'always (atk("Elf") == 0 and atk("Ogre") == 0)',
        ),
        # a card without ATK reads 0; a change to it does nothing
        (
            "{change-atk: {on: all-cards, by: 100}}",
            'always (atk("Boost") == 0 and atk("Elf") == 2000)',
        ),
        # two parts add up
        (
            "[{change-atk: {on: all-monsters, by: 100}, of: you}, {change-atk: {on: all-monsters, by: 200}, of: you}]",
            'always atk("Elf") == 2200',
        ),
        # a monster that leaves the field loses its changes
        (
            "[{change-atk: {on: all-monsters, by: 700}}, {return-to-hand: all-monsters, of: opponent}]",
            'always (atk("Ogre") == 1200 and atk("Elf") == 2600)',
        ),
        # a filter reads the ATK it has now
        (
            "[{change-atk: {on: all-monsters, by: 1000}, of: opponent}, {destroy: all-monsters, filter: {atk-at-least: 2000}}]",
            'always (zone("Ogre") == graveyard and zone("Elf") == field)',
        ),
    ],
)
def test_stat_changes(
    run: Callable[..., Run], write: Callable[[str, str], Path], effect: str, claim: str, engine: str
) -> None:
    result = run("check", "--engine", engine, str(write("s.yaml", scenario(effect, claim))))
    assert result.code == 0, result.out + result.err


def test_printed_stats_are_read_without_any_change(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = scenario(
        "{draw: 1}", 'always (atk("Elf") == 1900 and def("Elf") == 900 and def("Ogre") == 0)'
    )
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 0, result.out + result.err


def test_the_trace_tells_the_change(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = scenario(
        "{change-atk: {on: all-monsters, by: -400}, of: opponent}", 'atk("Ogre") == 800'
    )
    result = run("explain", str(write("s.yaml", text)))
    assert "Ogre loses 400 ATK" in result.out


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        ("{change-atk: {on: target, by: 0}}", "a change of 0 changes nothing"),
        ("{change-atk: {on: target}}", "by"),
        ("{change-def: {on: target, by: 2000000000}}", "'by' must be at most 1000000000"),
    ],
)
def test_bad_changes_are_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path], effect: str, message: str
) -> None:
    text = scenario(effect, "chain_length == 1").replace(
        "    effect:", "    target: {card: monster}\n    effect:"
    )
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 2
    assert message in result.err
    assert "s.yaml:" in result.err
