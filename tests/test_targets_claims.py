"""``targets("X", "Y")`` and ``targets("X", P)``: what an activation of X targeted.

The golden examples are ``examples/yugioh/book-of-moon-targets.yaml`` and the last claims of
``examples/mtg/player-as-target.yaml``; here, both engines on them, a target chosen in the
history (not the continuation's), and every error the atom can give.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import ROOT, Run
from verifier.api import ask, check
from verifier.run.verdict import Verdict

BOOK = ROOT / "examples/yugioh/book-of-moon-targets.yaml"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_which_cards_book_of_moon_may_target(engine: str) -> None:
    results = check(BOOK, engine=engine)
    assert [r.verdict for r in results] == [
        Verdict.HOLDS,
        Verdict.HOLDS,
        Verdict.FAILS,
        Verdict.FAILS,
        Verdict.HOLDS,
        Verdict.HOLDS,
        Verdict.HOLDS,
    ]
    assert results[0].trace  # a witness


def test_the_witness_tells_the_target(run: Callable[..., Run]) -> None:
    done = run("ask", str(BOOK), 'exists targets("Book of Moon", "Battle Ox")')
    assert done.code == 0
    assert "B activates Book of Moon targeting Battle Ox (Chain Link 1)" in done.out


def test_a_player_target_and_a_target_chosen_in_the_history() -> None:
    path = ROOT / "examples/mtg/player-as-target.yaml"
    by_claim = {r.claim: r.verdict for r in check(path, engine="explore")}
    assert by_claim['exists targets("Lightning Bolt", B)'] is Verdict.HOLDS
    assert by_claim['exists targets("Unsummon", A)'] is Verdict.FAILS
    # Cast in the history, before the scenario's point: not the continuation's activation.
    result = ask(path, 'exists targets("Lightning Bolt", B)', engine="explore")
    assert result.verdict is Verdict.FAILS


@pytest.mark.parametrize(
    ("claim", "message"),
    [
        ('exists targets("Book of Moon")', 'targets takes a card and its target: a card ("X")'),
        ('exists targets("Book of Moon", C)', "unknown player 'C' (players: A, B)"),
        ('exists targets("Book of Moon", "Celtic")', "unknown card 'Celtic'"),
        ('exists targets(A, "Celtic Guardian")', "expected a card name in quotes, got A"),
    ],
)
def test_a_wrong_targets_claim_is_an_error_at_its_place(
    run: Callable[..., Run], claim: str, message: str
) -> None:
    done = run("ask", str(BOOK), claim)
    assert done.code == 2
    first = done.err.splitlines()[0]
    assert first.startswith("<claim>:1:") and "error:" in first and message in first, first
    assert done.err.splitlines()[1].strip() == claim
