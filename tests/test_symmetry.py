"""Symmetry reduction: interchangeable cards explored in one order, with the same verdicts.

The reduced explorer is held to the unreduced one: on the trap pools, on scenarios built to
name cards of a class, and on random scenarios of all three games with copies of their cards
added (each copy interchangeable with the other): the same verdicts, shortest traces of the
same length, and traces that are real continuations (replayed through the rules) showing
what they claim.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bench.pools import write_pool
from tests.conftest import Run
from tests.test_differential import Case, cases, load
from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Mode
from verifier.engines.explore import ExplorerEngine
from verifier.engines.symmetry import Symmetry, interchangeable, named_cards
from verifier.errors import VerifierError
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare
from verifier.run.verdict import Decision, Verdict, decide
from verifier.system import System

MAX_STATES = 40_000


def _pool(tmp_path: Path, size: int) -> Any:
    return prepare(load_scenario(write_pool(tmp_path, size)))


def test_a_claim_names_the_cards_it_mentions(tmp_path: Path) -> None:
    sc = load_scenario(write_pool(tmp_path, 6))
    formula = parse_for(
        sc,
        'exists (activates(A, "Trap 1") and not resolves("Trap 3")) or '
        'resolution_order == ["Trap 2", "Trap 5"] or chain_length >= 2',
    )
    assert named_cards(formula) == {0, 1, 2, 4}


def test_copies_of_a_card_are_interchangeable_unless_a_claim_names_one(tmp_path: Path) -> None:
    world = _pool(tmp_path, 8).system.world
    # Traps 1 and 5: A's normal traps; 2 and 6: B's; 3 and 7: A's counter traps; 4 and 8: B's.
    assert interchangeable(world) == ((0, 4), (1, 5), (2, 6), (3, 7))
    assert interchangeable(world, {0, 6}) == ((1, 5), (3, 7))


def test_the_canonical_form_is_a_renaming_shared_by_the_whole_class(tmp_path: Path) -> None:
    prepared = _pool(tmp_path, 8)
    system, start = prepared.system, prepared.history.state
    symmetry = Symmetry(system.world, interchangeable(system.world))
    # Trap 1 activated, and in another state Trap 5 (its copy) instead: one class.
    by_one = _after(system, start, "Trap 1")
    by_five = _after(system, start, "Trap 5")
    assert by_one != by_five
    assert symmetry.canonical(by_one) == symmetry.canonical(by_five)
    canonical = symmetry.canonical(by_five)
    assert symmetry.canonical(canonical) == canonical
    # A renaming keeps what the state says of the players and the chain.
    for name in ("clen", "an", "mode", "right"):
        assert getattr(READ, name)(canonical) == getattr(READ, name)(by_five)
    assert sorted(READ.zone(canonical)) == sorted(READ.zone(by_five))


def _after(system: System, state: Any, card: str) -> Any:
    for action in system.enabled_actions(state):
        if action.kind == "activate":
            ability = system.world.abilities[action.ability]
            if system.world.cards[ability.card].name == card:
                return system.step(CONCRETE, state, action)
    raise AssertionError(f"{card} cannot be activated")


def _decide(system: System, state: Any, text: str, reduce: bool, **kw: Any) -> Decision:
    sc = system.world.scenario
    engine = ExplorerEngine(system, state, READ.an(state), MAX_STATES, reduce=reduce, **kw)
    return decide(engine, parse_for(sc, text))


@pytest.mark.full
def test_the_pools_are_decided_alike_with_fewer_states(tmp_path: Path) -> None:
    prepared = _pool(tmp_path, 8)
    system, start = prepared.system, prepared.history.state
    claims = [
        "always chain_length <= 8",
        "exists chain_length == 8",
        'exists (activates(A, "Trap 1") and chain_length == 3)',
        'always not (resolves("Trap 4") and resolves("Trap 8"))',
    ]
    limit = 100_000
    reduced = ExplorerEngine(system, start, 0, limit)
    plain = ExplorerEngine(system, start, 0, limit, reduce=False)
    for text in claims:
        formula = parse_for(system.world.scenario, text)
        one, other = decide(reduced, formula), decide(plain, formula)
        assert one.verdict is other.verdict, text
        assert (one.trace is None) == (other.trace is None), text
        if one.trace is not None and other.trace is not None:
            assert len(one.trace) == len(other.trace), text
    assert [
        d.verdict for d in (decide(reduced, parse_for(system.world.scenario, c)) for c in claims)
    ] == [
        Verdict.HOLDS,
        Verdict.HOLDS,
        Verdict.HOLDS,
        Verdict.FAILS,
    ]
    # Naming Trap 1, then Trap 4 and Trap 8, took the reduction apart class by class.
    assert reduced.classes == ((1, 5), (2, 6))
    fresh = ExplorerEngine(system, start, 0, limit)
    decide(fresh, parse_for(system.world.scenario, "always chain_length <= 8"))
    assert fresh.exploration.states * 8 < plain.exploration.states


def test_a_reduced_witness_is_a_real_continuation(tmp_path: Path) -> None:
    prepared = _pool(tmp_path, 6)
    system, start = prepared.system, prepared.history.state
    text = "exists (chain_length == 6 and life_points(A) == 8000)"
    for order in ("breadth", "fewest-moves"):
        found = _decide(system, start, text, True, order=order)
        assert found.verdict is Verdict.HOLDS and found.trace is not None
        final = system.run(start, list(found.trace))
        assert READ.mode(final) == Mode.DONE
        formula = parse_for(system.world.scenario, text)
        assert isinstance(formula, ast.Quantified)
        assert truth(CONCRETE, system.world, final, formula.body, 0, start)
        plain = _decide(system, start, text, False, order=order)
        assert plain.trace is not None and len(plain.trace) == len(found.trace)


def _with_copies(data: dict[str, Any], picks: list[int]) -> dict[str, Any]:
    """``data`` with two copies of some of its cards (never a card a history or claim names:
    the copies' names are new)."""
    out = copy.deepcopy(data)
    cards = out["cards"]
    names = list(cards)
    for pick in picks:
        name = names[pick % len(names)]
        for n in (1, 2):
            cards[f"{name} copy {n}"] = copy.deepcopy(cards[name])
    return out


def _agree(case: Case, picks: list[int]) -> None:
    data, claims, walk = case
    texts = [c for c in claims if isinstance(c, str)]
    if not texts:
        return
    try:
        sc = load(_with_copies(data, picks))
        prepared = prepare(sc)  # the history is replayed here: the copies may make it illegal
    except VerifierError:
        return  # the copies overfill a row of zones: no such scenario
    system = prepared.system
    state = prepared.history.state
    for choice in walk:
        options = list(system.enabled_actions(state))
        if not options:
            break
        state = system.step(CONCRETE, state, options[choice % len(options)])
    start = READ.an(state)
    for order in ("breadth", "fewest-moves"):
        reduced = ExplorerEngine(system, state, start, MAX_STATES, order=order)
        plain = ExplorerEngine(system, state, start, MAX_STATES, order=order, reduce=False)
        for text in texts:
            formula = parse_for(sc, text)
            one, other = decide(reduced, formula), decide(plain, formula)
            if Verdict.UNKNOWN in (one.verdict, other.verdict):
                continue  # a limit: nothing to compare
            assert one.verdict is other.verdict, (text, order)
            assert (one.trace is None) == (other.trace is None), text
            if one.trace is not None and other.trace is not None:
                assert len(one.trace) == len(other.trace), (text, order)
                final = system.run(state, list(one.trace))
                assert READ.mode(final) == Mode.DONE


SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
    max_examples=12,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


@SETTINGS
@given(cases(), st.lists(st.integers(0, 9), min_size=1, max_size=2))
def test_reduced_and_unreduced_agree_on_random_yugioh_scenarios(
    case: Case, picks: list[int]
) -> None:
    _agree(case, picks)


@settings(SETTINGS, max_examples=3)  # unreduced, CMC's pools take seconds each
@given(cases("cmc"), st.lists(st.integers(0, 9), min_size=1, max_size=2))
def test_reduced_and_unreduced_agree_on_random_cmc_scenarios(case: Case, picks: list[int]) -> None:
    _agree(case, picks)


@settings(SETTINGS, max_examples=8)
@given(cases("mtg"), st.lists(st.integers(0, 9), min_size=1, max_size=2))
def test_reduced_and_unreduced_agree_on_random_magic_scenarios(
    case: Case, picks: list[int]
) -> None:
    _agree(case, picks)


def test_no_reduce_on_the_command_line_and_in_the_api(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    import verifier

    path = write_pool(tmp_path, 6)
    states = {}
    for flags in ((), ("--no-reduce",)):
        done = run("ask", "--json", "--engine", "explore", *flags, str(path), "can_respond(B)")
        assert done.code == 0
        [claim] = json.loads(done.out)["claims"]
        assert claim["verdict"] == "holds"
        done = run("check", "--json", "--engine", "explore", *flags, str(path))
        assert done.code == 0
        [claim] = json.loads(done.out)["claims"]
        assert claim["verdict"] == "holds"
        states[flags] = claim["stats"]["states"]
    assert states == {(): 753, ("--no-reduce",): 2_669}
    for reduce in (True, False):
        [result] = verifier.check(path, engine="explore", reduce=reduce)
        assert result.verdict is Verdict.HOLDS


@pytest.mark.slow
def test_reduced_and_unreduced_agree_on_many_scenarios() -> None:
    """The long run: ``DIFF_EXAMPLES`` scenarios per game (default 200), bigger pools."""
    count = int(os.environ.get("DIFF_EXAMPLES", "200"))
    for game in ("yugioh", "cmc", "mtg"):

        @settings(SETTINGS, max_examples=count, derandomize=False)
        @given(cases(game, large=True), st.lists(st.integers(0, 9), min_size=1, max_size=3))
        def many(case: Case, picks: list[int]) -> None:
            _agree(case, picks)

        many()
