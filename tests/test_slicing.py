"""Claim slicing: a "no" proved from the turn's steps, and the abstract logic it rests on.

The abstract logic must over-approximate the concrete one (every concrete result is among
the abstract results), operation by operation; the slicer must decide only what the whole
search decides, and must not decide where the card can be activated later in the turn.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_differential import load
from verifier.core.abstract import ABSTRACT, ANY, Undecided, Values, possible
from verifier.core.logic import CONCRETE
from verifier.core.state import READ
from verifier.designer.generate import RandomChooser, scenario
from verifier.engines.explore import ExplorerEngine
from verifier.errors import VerifierError
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare
from verifier.run.verdict import Verdict, decide

ROOT = Path(__file__).resolve().parent.parent
LIMITS = ROOT / "examples" / "yugioh" / "battle-damage-step-limits.yaml"
BOARD = ROOT / "bench" / "boards" / "damage-step.yaml"

small = st.integers(-40, 40)
sets = st.frozensets(small, min_size=1, max_size=5)


def _term(value: int, others: frozenset[int], unknown: bool) -> Any:
    """A term that stands for ``value`` (and maybe others): the value, a set, or ANY."""
    if unknown:
        return ANY
    options = others | {value}
    return value if len(options) == 1 else Values(frozenset(options))


def _covers(term: Any, value: Any) -> bool:
    options = possible(term)
    return options is None or value in options


OPERATORS: list[Callable[[Any, Any], Any]] = [
    operator.eq,
    operator.ne,
    operator.lt,
    operator.le,
    operator.gt,
    operator.ge,
    operator.add,
    operator.sub,
]


@settings(max_examples=300, deadline=None)
@given(small, small, sets, sets, st.booleans(), st.booleans(), st.sampled_from(OPERATORS))
def test_abstract_operators_cover_the_concrete_result(
    a: int,
    b: int,
    more_a: frozenset[int],
    more_b: frozenset[int],
    any_a: bool,
    any_b: bool,
    op: Any,
) -> None:
    x, y = _term(a, more_a, any_a), _term(b, more_b, any_b)
    assert _covers(op(x, y), op(a, b))
    assert _covers(op(a, y), op(a, b))
    assert _covers(op(x, b), op(a, b))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.booleans(), min_size=1, max_size=4),
    st.lists(st.booleans(), min_size=4, max_size=4),
    small,
    small,
    st.integers(-2, 5),
    st.sampled_from([4, 8, 16]),
)
def test_abstract_connectives_cover_the_concrete_result(
    truths: list[bool], unknown: list[bool], a: int, b: int, index: int, bits: int
) -> None:
    terms = [ANY if u else t for t, u in zip(truths, unknown, strict=False)]
    values = [a, b, a + b]
    for name in ("and_", "or_"):
        assert _covers(getattr(ABSTRACT, name)(*terms), getattr(CONCRETE, name)(*truths))
    assert _covers(ABSTRACT.not_(terms[0]), CONCRETE.not_(truths[0]))
    assert _covers(ABSTRACT.ite(terms[0], a, b), CONCRETE.ite(truths[0], a, b))
    index_term = ANY if unknown[0] else index
    concrete_pick = CONCRETE.pick(values, index, -1)
    assert _covers(ABSTRACT.pick(values, index_term, -1), concrete_pick)
    mask, concrete_mask = terms[:3] + [False] * (3 - len(terms[:3])), truths[:3]
    concrete_mask += [False] * (3 - len(concrete_mask))
    assert _covers(ABSTRACT.select(mask, values, 0), CONCRETE.select(concrete_mask, values, 0))
    assert _covers(ABSTRACT.count(terms), CONCRETE.count(truths))
    for name in ("add", "sub"):
        total, fits = getattr(ABSTRACT, name)(Values(frozenset({a, b})), b, bits)
        concrete_total, concrete_fits = getattr(CONCRETE, name)(a, b, bits)
        assert _covers(total, concrete_total) and _covers(fits, concrete_fits)
    assert _covers(ABSTRACT.half(Values(frozenset({a, b}))), CONCRETE.half(a))
    assert ABSTRACT.is_false(False) and not ABSTRACT.is_false(ANY)


def test_a_rule_that_branches_on_an_unknown_value_is_refused() -> None:
    with pytest.raises(Undecided):
        bool(ANY == 3)


def _engine(path: Path, reduce: bool = True) -> tuple[Any, ExplorerEngine]:
    sc = load_scenario(path, allow_outside=True)
    prepared = prepare(sc)
    history = prepared.history
    return sc, ExplorerEngine(
        prepared.system, history.state, history.activations, 200_000, reduce=reduce
    )


@pytest.mark.parametrize("card", ["Book of Moon", "Mystical Space Typhoon"])
def test_the_damage_step_forbids_a_card_without_a_search(card: str) -> None:
    sc, engine = _engine(LIMITS)
    decision = decide(engine, parse_for(sc, f'can_activate(B, "{card}")'))
    assert decision.verdict is Verdict.FAILS
    assert decision.stats["argument"] == "claim slicing"
    assert decision.stats["states"] == 1  # the Battle Step, both players having passed
    assert f"no continuation activates {card}" in decision.detail
    assert "damage-start" in decision.detail and "damage-end" in decision.detail
    assert "damage-step.before-calculation" in decision.detail
    # The same answer from the whole search.
    sc, plain = _engine(LIMITS, reduce=False)
    searched = decide(plain, parse_for(sc, f'can_activate(B, "{card}")'))
    assert searched.verdict is Verdict.FAILS and "argument" not in searched.stats


def test_slicing_decides_the_negations_and_leaves_the_rest_to_the_search() -> None:
    sc, engine = _engine(LIMITS)
    cases = {
        'always not activates("Book of Moon")': (Verdict.HOLDS, True),
        'exists (activates("Book of Moon") and resolves("Rush Recklessly"))': (Verdict.FAILS, True),
        'exists (activates("Book of Moon") or resolves("Rush Recklessly"))': (Verdict.HOLDS, False),
        'can_activate(A, "Rush Recklessly")': (Verdict.HOLDS, False),
    }
    for text, (verdict, sliced) in cases.items():
        decision = decide(engine, parse_for(sc, text))
        assert decision.verdict is verdict, text
        assert (decision.stats.get("argument") == "claim slicing") is sliced, text


def test_no_slicing_where_the_turn_comes_back_to_a_step_that_allows_the_card(
    tmp_path: Path,
) -> None:
    # Two attackers and the whole Battle Phase: after the first Damage Step the turn comes
    # back to the Battle Step, where Book of Moon may be activated.
    text = LIMITS.read_text(encoding="utf-8").replace("until: damage-end", "until: battle")
    text = text.replace(
        "  Battle Ox: {controller: B}",
        "  Battle Ox: {controller: B}\n  Gemini Elf: {controller: A}",
    )
    text = text.replace(
        "library: yugioh.cards.yaml", f"library: {LIMITS.parent / 'yugioh.cards.yaml'}"
    )
    path = tmp_path / "two-attacks.yaml"
    path.write_text(text, encoding="utf-8")
    sc = load_scenario(path, allow_outside=True)
    prepared = prepare(sc)
    history = prepared.history
    engine = ExplorerEngine(prepared.system, history.state, history.activations, 200_000)
    decision = decide(engine, parse_for(sc, 'can_activate(B, "Book of Moon")'))
    assert decision.verdict is Verdict.HOLDS
    assert decision.trace is not None


def _agree_on_generated(game: str, seeds: range, size: int, going: bool = True) -> tuple[int, int]:
    """Generated scenarios (with ``going``, only those that go through their turn): every
    ``can_activate`` of every card by each player, decided with slicing and by the whole
    search; how many were compared, and how many of those slicing decided."""
    sliced = compared = 0
    for seed in seeds:
        try:
            data = scenario(RandomChooser(seed), game, size=size)
            if going and "until" not in data:
                continue
            sc = load(data)
        except VerifierError:
            continue
        prepared = prepare(sc)
        system, state = prepared.system, prepared.history.state
        start = READ.an(state)
        fast = ExplorerEngine(system, state, start, 40_000)
        slow = ExplorerEngine(system, state, start, 40_000, reduce=False)
        for card in sc.cards:
            asked = [f'can_activate({player}, "{card.name}")' for player in sc.players]
            asked += [f'exists resolves("{card.name}")', f'always not negated("{card.name}")']
            for text in asked:
                formula = parse_for(sc, text)
                one, other = decide(fast, formula), decide(slow, formula)
                if Verdict.UNKNOWN in (one.verdict, other.verdict):
                    continue
                assert one.verdict is other.verdict, (game, seed, text)
                compared += 1
                sliced += one.stats.get("argument") == "claim slicing"
    return compared, sliced


@pytest.mark.full
def test_a_card_nothing_can_be_the_target_of_is_never_activated() -> None:
    # Effect Veiler targets an Effect Monster; the Damage Step board has none: not one
    # action activates it, which decides the claim before any state is visited.
    sc, engine = _engine(BOARD)
    decision = decide(engine, parse_for(sc, 'can_activate(B, "Effect Veiler")'))
    assert decision.verdict is Verdict.FAILS
    assert decision.stats["argument"] == "claim slicing" and decision.stats["states"] == 0
    assert "no card of the scenario can ever be its target or pay its cost (target.valid)" in (
        decision.detail
    )
    sc, plain = _engine(BOARD, reduce=False)
    assert decide(plain, parse_for(sc, 'can_activate(B, "Effect Veiler")')).verdict is (
        Verdict.FAILS
    )


@pytest.mark.parametrize(
    "game",
    [pytest.param("cmc", marks=pytest.mark.full), "mtg"],  # CMC's: ten seconds
)
def test_sliced_and_searched_verdicts_agree_on_generated_scenarios_that_stay(game: str) -> None:
    # Outside a turn that goes on, slicing decides only cards with no action at all.
    compared, _ = _agree_on_generated(game, range(30), 2, going=False)
    assert compared >= 40


def test_sliced_and_searched_verdicts_agree_on_generated_battles() -> None:
    compared, sliced = _agree_on_generated("yugioh", range(60), 2)
    assert compared >= 40 and sliced >= 5, (compared, sliced)


@pytest.mark.slow
def test_sliced_and_searched_verdicts_agree_on_many_generated_scenarios() -> None:
    """``DIFF_EXAMPLES`` seeds (default 600), bigger pools. Only Yu-Gi-Oh!: the other games'
    generators write no scenario that goes through its turn, where slicing applies."""
    count = int(os.environ.get("DIFF_EXAMPLES", "600"))
    compared, sliced = _agree_on_generated("yugioh", range(1000, 1000 + count), 3)
    print(f"yugioh: {compared} claims compared, {sliced} decided by slicing, 0 disagreements")
    assert sliced > 0
