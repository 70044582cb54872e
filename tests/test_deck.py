"""The Deck's size (``deck: {A: N}``): draws and "add from the Deck" take from it, a card
that would take more than it holds cannot be activated (under ``activation_needs_effect``),
and a player who must draw more than it holds loses (``state_based: [deck-out]``). The
golden examples are ``examples/yugioh/deck-size-pot-of-greed.yaml`` and
``deck-out-mid-chain.yaml``; these tests vary them, in both engines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run

Decide = Callable[..., str]

DRAWS = """\
rules: {rules}
turn: A
deck: {{A: {deck}}}
cards:
  Pot of Greed: {{kind: normal-spell, controller: A, zone: hand, effect: {{draw: 2}}}}
  Jar of Greed: {{kind: normal-trap, controller: A, set: earlier-turn, effect: {{draw: 1}}}}
  Reinforcement: {{kind: normal-spell, controller: A, zone: hand, effect: {{add-from-deck: 1}}}}
"""


def _model(tmp_path: Path, old: str, new: str, name: str) -> str:
    """A copy of the yugioh rule system with one line changed, beside the scenarios."""
    model = (ROOT / "models" / "yugioh.yaml").read_text(encoding="utf-8")
    assert old in model
    changed = model.replace(old, new).replace("name: yugioh\n", f"name: {name}\n", 1)
    (tmp_path / f"{name}.yaml").write_text(changed, encoding="utf-8")
    return f"{name}.yaml"


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("deck", "claim", "verdict"),
    [
        (1, 'can_activate(A, "Pot of Greed")', "fails"),
        (2, 'can_activate(A, "Pot of Greed")', "holds"),
        (0, 'can_activate(A, "Jar of Greed")', "fails"),
        (0, 'can_activate(A, "Reinforcement")', "fails"),
        (
            1,
            'exists (activates(A, "Reinforcement") and deck_size(A) == 0 and hand_size(A) == 2)',
            "holds",
        ),
        # Pot of Greed with 2, Jar of Greed chained: Jar draws 1 first, Pot of Greed cannot
        # draw 2 from the 1 left: A loses, and nothing more is drawn.
        (2, 'exists (activates(A, "Jar of Greed") and loses(A) and cards_drawn(A) == 1)', "holds"),
        (2, "always (not loses(A) or deck_size(A) == 1)", "holds"),
        (3, "exists loses(A)", "fails"),
        (9, "always (deck_size(A) >= 6 and not loses(B))", "holds"),
    ],
)
def test_draws_take_from_the_deck(
    decide: Decide, engine: str, deck: int, claim: str, verdict: str
) -> None:
    assert decide(DRAWS.format(rules="yugioh", deck=deck), claim, engine) == verdict


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_without_needing_an_effect_a_short_draw_can_be_activated(
    decide: Decide, tmp_path: Path, engine: str
) -> None:
    rules = _model(
        tmp_path, "activation_needs_effect: true", "activation_needs_effect: false", "any"
    )
    text = DRAWS.format(rules=rules, deck=1)
    # Activated with 1 card, Pot of Greed resolves into a draw the Deck cannot give.
    claim = 'exists (activates(A, "Pot of Greed") and loses(A) and deck_size(A) == 1)'
    assert decide(text, claim, engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_without_deck_out_a_short_draw_takes_what_is_left(
    decide: Decide, tmp_path: Path, engine: str
) -> None:
    rules = _model(
        tmp_path, "state_based: [zero-life, deck-out]", "state_based: [zero-life]", "no-out"
    )
    text = DRAWS.format(rules=rules, deck=2)
    claim = 'exists (activates(A, "Jar of Greed") and cards_drawn(A) == 2 and deck_size(A) == 0)'
    assert decide(text, claim, engine) == "holds"
    assert decide(text, "exists loses(A)", engine) == "fails"


@pytest.mark.full
def test_a_deck_out_is_told_and_why_names_the_deck(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", DRAWS.format(rules="yugioh", deck=2))
    asked = run("ask", str(path), 'exists (activates(A, "Jar of Greed") and loses(A))')
    assert asked.code == 0, asked
    assert "A must draw more cards than the Deck holds and loses the Duel" in asked.out
    assert "A draws 2 card(s)" not in asked.out
    one = write("one.yaml", DRAWS.format(rules="yugioh", deck=1))
    why = run("why", str(one), "A activates Pot of Greed")
    assert "(deck.too-few)" in why.out


def test_deck_size_of_a_deck_not_counted_is_an_error(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", DRAWS.format(rules="yugioh", deck=2))
    asked = run("ask", str(path), "deck_size(B) == 0")
    assert asked.code == 2
    assert asked.err.splitlines()[0] == (
        "<claim>:1:11: error: deck_size(B): the scenario does not count that player's Deck "
        "(deck: {B: N})"
    )


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("{C: 3}", "unknown player 'C'"),
        ("{A: 61}", "61"),
        ("{A: -1}", "-1"),
        ("{A: two}", "two"),
    ],
)
def test_a_bad_deck_is_a_located_error(
    run: Callable[..., Run], write: Callable[[str, str], Path], deck: str, message: str
) -> None:
    text = DRAWS.format(rules="yugioh", deck=0).replace("deck: {A: 0}", f"deck: {deck}")
    path = write("s.yaml", text)
    result = run("check", str(path))
    assert result.code == 2, result
    first = result.err.splitlines()[0]
    assert first.startswith(f"{path}:3:"), first
    assert "error:" in first and message in first, first
    assert "Traceback" not in result.err
