"""The SMT engine's inductive invariants: a "no" proved without unrolling every continuation.

The candidates come from claim slicing; z3 checks them (initiation, consecution, safety) on
the engine's own relation. A candidate z3 does not confirm is never a proof: the engine
then decides on its bounded unrolling, with the same verdict. Every answer names the
argument that decided it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Run
from tests.test_differential import load
from verifier.claims.ast import Formula, Quantified
from verifier.core.state import READ, Mode
from verifier.designer.generate import RandomChooser, scenario
from verifier.engines.explore import ExplorerEngine
from verifier.engines.slicing import Slicer
from verifier.engines.smt.engine import SmtEngine
from verifier.errors import VerifierError
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare
from verifier.run.verdict import Verdict, decide

ROOT = Path(__file__).resolve().parent.parent
LIMITS = ROOT / "examples" / "yugioh" / "battle-damage-step-limits.yaml"


def _asked(run: Callable[..., Run], claim: str, *extra: str) -> dict[str, Any]:
    result = run("ask", "--json", "--engine", "smt", *extra, str(LIMITS), claim)
    assert result.code == 0, result.err
    [found] = json.loads(result.out)["claims"]
    return dict(found)


def test_a_refusal_in_the_damage_step_is_proved_by_induction(run: Callable[..., Run]) -> None:
    found = _asked(run, 'exists activates("Book of Moon")')
    assert (found["verdict"], found["stats"]["argument"]) == ("fails", "inductive invariant")
    assert "checked by z3 (initiation within" in found["detail"]
    assert "damage-calculation" in found["stats"]["invariant"]
    assert "battle-step" not in found["stats"]["invariant"]


def test_without_reductions_the_bounded_search_decides_the_same(run: Callable[..., Run]) -> None:
    found = _asked(run, 'exists activates("Book of Moon")', "--no-reduce")
    assert found["verdict"] == "fails"
    assert found["stats"]["argument"].startswith("bounded: complete at ")


def test_every_refusal_of_the_example_is_proved_by_induction() -> None:
    engine, _ = _engine()
    for ident in ("book-of-moon-refused", "typhoon-refused"):
        formula = _formula(ident)
        decision = decide(engine, formula)
        assert decision.verdict == Verdict.FAILS
        assert decision.stats["argument"] == "inductive invariant"


def _formula(ident: str) -> Formula:
    return next(c.formula for c in load_scenario(LIMITS).claims if c.id == ident)


def _engine(ident: str = "book-of-moon-refused") -> tuple[SmtEngine, Formula]:
    prepared = prepare(load_scenario(LIMITS))
    history = prepared.history
    engine = SmtEngine(prepared.system, history.state, history.activations)
    return engine, _formula(ident)


def test_a_witness_names_its_depth() -> None:
    """The witness is the shortest continuation, and its depth is its number of actions."""
    engine, formula = _engine("atk-change-allowed")
    assert isinstance(formula, Quantified)
    found = engine.search(formula.body, True)
    assert found.found is not None and found.complete
    assert found.stats["argument"] == f"witness at depth {len(found.found)}"
    assert found.stats["shortest_trace"] == "yes"


@pytest.mark.parametrize(
    "name", ["yugioh/raigeki-imperial-order-dark-bribe.yaml", "cmc/resolve-presses.yaml"]
)
def test_later_claims_at_a_complete_bound_answer_as_a_fresh_engine(name: str) -> None:
    """Once a claim proved a bound complete, the scenario's later claims are asked there at
    once: the same verdicts, and witnesses as short, as an engine asked each claim alone."""
    sc = load_scenario(ROOT / "examples" / name)
    prepared = prepare(sc)
    system, state = prepared.system, prepared.history.state
    start = READ.an(state)
    shared = SmtEngine(system, state, start, induction=False)
    texts = ["always chain_length <= 99"]  # every continuation: proves a bound complete
    for card in sc.cards:
        texts += [f'exists activates("{card.name}")', f'always not resolves("{card.name}")']
    reused = 0
    for text in texts:
        formula = parse_for(sc, text)
        assert isinstance(formula, Quantified)
        want = formula.kind == "exists"
        known = shared._known_complete()
        together = shared.search(formula.body, want)
        alone = SmtEngine(system, state, start, induction=False).search(formula.body, want)
        assert (together.found is None) == (alone.found is None), text
        assert together.complete and alone.complete, text
        if together.found is not None and alone.found is not None:
            assert len(together.found) == len(alone.found), text
            assert together.stats["shortest_trace"] == "yes"
        if known is not None:
            reused += 1
            assert together.stats["bound"] == known, text
    assert reused >= 2


@pytest.mark.parametrize("wrong", ["not closed", "not safe"])
def test_a_candidate_z3_does_not_confirm_is_no_proof(
    monkeypatch: pytest.MonkeyPatch, wrong: str
) -> None:
    """A candidate that is not inductive (the Battle Step's key alone: its actions lead to
    the Damage Step) or not safe (with the Battle Step, where Book of Moon can be activated)
    is refused by z3: no proof (the bounded search decides instead)."""
    honest = Slicer.slices

    def wrong_slices(self: Slicer, body: object, want: bool) -> object:
        found = honest(self, body, want)  # type: ignore[arg-type]
        assert found
        start = (int(self.start[self.system.layout.position("step")]), int(Mode.OPEN))
        battle = {(start[0], m) for m in range(len(Mode))}
        return {
            card: replace(s, keys=frozenset({start}) if wrong == "not closed" else s.keys | battle)
            for card, s in found.items()
        }

    monkeypatch.setattr(Slicer, "slices", wrong_slices)
    engine, formula = _engine()
    assert engine.induction is not None and isinstance(formula, Quantified)
    assert engine.induction.prove(formula.body, True, None) is None


def test_a_card_no_action_can_activate_needs_no_invariant(
    write: Callable[[str, str], Path], run: Callable[..., Run]
) -> None:
    """Effect Veiler with no Effect Monster on the board: no action of the relation
    activates it, and the invariant is ``true``."""
    text = LIMITS.read_text(encoding="utf-8").replace(
        "  Mystical Space Typhoon: {controller: B, zone: hand}\n",
        "  Mystical Space Typhoon: {controller: B, zone: hand}\n"
        "  Effect Veiler: {controller: B, zone: hand}\n",
    )
    library = LIMITS.parent / "yugioh.cards.yaml"
    text = text[: text.index("claims:")].replace(
        "library: yugioh.cards.yaml", f"library: {library.as_posix()}"
    )
    path = write("veiler.yaml", text)
    result = run(
        "ask",
        "--json",
        "--engine",
        "smt",
        "--allow-outside",
        str(path),
        'exists activates("Effect Veiler")',
    )
    assert result.code == 0, result.err
    [claim] = json.loads(result.out)["claims"]
    assert claim["verdict"] == "fails"
    assert claim["stats"]["invariant"] == "true (no action of the relation activates it)"


def _induction_agrees_on_generated(game: str, seeds: range, size: int) -> tuple[int, int]:
    """Generated scenarios: every ``can_activate`` of every card by each player (and a
    resolution and a negation of it), tried by induction; each one proved is decided again
    by the explorer without its reductions (every state), which must give the verdict the
    proof stands for. How many claims were tried, and how many of them were proved."""
    tried = proved = 0
    for seed in seeds:
        try:
            sc = load(scenario(RandomChooser(seed), game, size=size))
        except VerifierError:
            continue
        prepared = prepare(sc)
        system, state = prepared.system, prepared.history.state
        start = READ.an(state)
        smt = SmtEngine(system, state, start, timeout=60)
        plain = ExplorerEngine(system, state, start, 40_000, reduce=False)
        assert smt.induction is not None
        for card in sc.cards:
            asked = [f'can_activate({player}, "{card.name}")' for player in sc.players]
            asked += [f'exists resolves("{card.name}")', f'always not negated("{card.name}")']
            for text in asked:
                formula = parse_for(sc, text)
                assert isinstance(formula, Quantified)
                want = formula.kind == "exists"
                tried += 1
                if smt.induction.prove(formula.body, want, None) is None:
                    continue
                proved += 1
                searched = decide(plain, formula).verdict
                stands_for = Verdict.FAILS if want else Verdict.HOLDS
                assert searched in (stands_for, Verdict.UNKNOWN), (game, seed, text)
    return tried, proved


@pytest.mark.parametrize(("game", "seeds"), [("yugioh", range(40)), ("mtg", range(15))])
def test_what_induction_proves_every_state_confirms(game: str, seeds: range) -> None:
    tried, proved = _induction_agrees_on_generated(game, seeds, 2)
    assert tried >= 40 and proved >= 5, (tried, proved)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_what_induction_proves_every_state_confirms_on_many_scenarios(game: str) -> None:
    """``DIFF_EXAMPLES`` seeds (default 300) of each game, bigger pools."""
    count = int(os.environ.get("DIFF_EXAMPLES", "300"))
    tried, proved = _induction_agrees_on_generated(game, range(2000, 2000 + count), 3)
    print(f"{game}: {tried} claims tried, {proved} proved by induction, 0 disagreements")
    assert tried > 0
