"""Integers mean the same in both engines: widths from the scenario, no wrap, LP at least 0.

An outside review found the SMT engine proving false claims once an integer passed 32767
(16-bit bit-vectors on one side, Python ints on the other). These tests hold each class of
that fault: large life points, large claim constants, ``half`` of odd values, the clamp at
0, and a value that leaves the range (which must give ``unknown``, naming it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Run
from verifier.core.logic import CONCRETE
from verifier.engines.smt.engine import SmtEngine
from verifier.engines.smt.logic import Z3Logic
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import Prepared, check, prepare
from verifier.run.history import replay_history
from verifier.system import System, derive_layout

ENGINES = ["explore", "smt"]

BURN = """\
rules: yugioh
turn: A
life-points: {lp}
cards:
  Burn:
    kind: normal-spell
    controller: A
    effect: {{lose-lp: {amount}, player: opponent}}
  Gift:
    kind: quick-play-spell
    controller: B
    set: earlier-turn
    effect: {{gain-lp: {gain}}}
history:
  - A activates Burn
"""


def _burn(lp: int, amount: int | str = 1000, gain: int = 1000) -> str:
    return BURN.format(lp=lp, amount=amount, gain=gain)


@pytest.mark.parametrize("engine", ENGINES)
def test_40000_life_points_are_refuted_by_both_engines(
    decide: Callable[..., str], engine: str
) -> None:
    # The review's wrong proof: 40000 - 1000 is not below 30000.
    assert decide(_burn(40000), "always life_points(B) < 30000", engine) == "fails"
    assert decide(_burn(40000), "exists life_points(B) == 39000", engine) == "holds"
    assert decide(_burn(40000), "exists life_points(B) == 40000", engine) == "holds"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("lp", [32767, 32768, 65536, 100_000, 1_000_000_000])
def test_large_life_points_mean_the_same_in_both_engines(
    decide: Callable[..., str], engine: str, lp: int
) -> None:
    text = _burn(lp, gain=999_999_999)
    assert decide(text, f"exists life_points(B) == {lp - 1000}", engine) == "holds"
    assert decide(text, f"always life_points(B) <= {lp}", engine) == "fails"
    assert decide(text, f"exists life_points(B) == {lp - 1000 + 999_999_999}", engine) == "holds"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ("chain_length >= 32768", "fails"),
        ("chain_length < 32768", "holds"),
        ("cards_drawn(B) >= 65536", "fails"),
        ("cards_drawn(B) != 65536", "holds"),
        ("life_points(B) > -100000000000", "holds"),
        ("life_points(B) == 100000000000", "fails"),
        ("exists life_points(B) < 100000000000", "holds"),
    ],
)
def test_claim_constants_outside_the_range_are_not_truncated(
    decide: Callable[..., str], engine: str, claim: str, verdict: str
) -> None:
    assert decide(_burn(8000), claim, engine) == verdict


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("chain", [65537, 10**17 + 1])
@pytest.mark.parametrize(
    ("claim", "verdict"),
    [
        ('exists chain({n}).order == ["Burn"]', "fails"),
        ('exists chain({n}).resolution_order == ["Burn"]', "fails"),
        ('exists chain({n}).segoc_order == ["Burn"]', "fails"),
        ("exists chain({n}).length >= 1", "fails"),
        ("always chain({n}).length == 0", "holds"),
        ('chain(1).resolution_order == ["Burn"] or chain({n}).length == 0', "holds"),
    ],
)
def test_chain_numbers_past_the_width_are_not_wrapped(
    decide: Callable[..., str], engine: str, chain: int, claim: str, verdict: str
) -> None:
    # The review's wrong proof: chain 65537 compared as chain 1 (65537 modulo 2^16), so the
    # SMT engine proved that the scenario's chain, Burn alone, was chain 65537.
    assert decide(_burn(8000), claim.format(n=chain), engine) == verdict


@pytest.mark.parametrize("engine", ENGINES)
def test_paying_half_leaves_the_life_points_rounded_up(
    decide: Callable[..., str], engine: str
) -> None:
    # Official Card Database FAQ ("Dinomorphia Intact"): half of 125 paid leaves 63.
    text = _burn(125, amount="half")
    assert decide(text, "exists life_points(B) == 63", engine) == "holds"
    assert decide(text, "always life_points(B) == 63 or life_points(B) == 563", engine) == ("holds")


@pytest.mark.parametrize("engine", ENGINES)
def test_life_points_never_go_below_zero(decide: Callable[..., str], engine: str) -> None:
    text = _burn(500, amount=1_000_000)
    assert decide(text, "always life_points(B) >= 0", engine) == "holds"
    assert decide(text, "exists life_points(B) == 0", engine) == "holds"


@settings(max_examples=300, deadline=None)
@given(st.integers(-(1 << 20), 1 << 20), st.integers(-(1 << 20), 1 << 20), st.integers(4, 22))
def test_sums_and_halves_mean_the_same_in_both_logics(a: int, b: int, bits: int) -> None:
    smt = Z3Logic(bits)
    limit = 1 << (bits - 1)
    if not (-limit <= a < limit and -limit <= b < limit):
        return
    x, y = smt.integer("x"), smt.integer("y")
    env = [(x, z3.BitVecVal(a, bits)), (y, z3.BitVecVal(b, bits))]

    def value(term: object) -> object:
        out = z3.simplify(z3.substitute(term, *env))
        return out.as_signed_long() if z3.is_bv_value(out) else z3.is_true(out)

    for name in ("add", "sub"):
        concrete, concrete_fits = getattr(CONCRETE, name)(a, b, bits)
        symbolic, symbolic_fits = getattr(smt, name)(x, y, bits)
        assert value(symbolic_fits) == concrete_fits, (name, a, b, bits)
        if concrete_fits:
            assert value(symbolic) == concrete, (name, a, b, bits)
    assert value(smt.half(x)) == CONCRETE.half(a)
    assert CONCRETE.half(a) == a // 2  # floor, also for negative odd values


def _prepared(path: Path, bits: int | None = None) -> Prepared:
    scenario = load_scenario(path)
    if bits is None:
        return prepare(scenario)
    system = System(scenario, replace(derive_layout(scenario), bits=bits))
    return Prepared(scenario, system, replay_history(system))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_value_past_the_width_gives_unknown_naming_it(
    write: Callable[[str, str], Path], engine: str
) -> None:
    # With 12-bit integers (at most 2047), gaining 1000 on 2000 Life Points leaves the range:
    # the continuation is not followed, and the verdict says why.
    path = write("gain.yaml", _burn(2000, amount=1, gain=1000))
    prepared = _prepared(path, bits=12)
    claim = "always life_points(B) <= 2000"
    formula = parse_for(prepared.scenario, claim)
    [result] = check(prepared, [("t", claim, formula, None)], engine)
    assert result.verdict.value == "unknown"
    assert "an integer (life points, cards drawn, an event count) leaves" in result.detail


def test_the_width_holds_the_scenario_s_numbers(write: Callable[[str, str], Path]) -> None:
    small = derive_layout(load_scenario(write("small.yaml", _burn(8000))))
    big = derive_layout(load_scenario(write("big.yaml", _burn(1_000_000_000, gain=10**9))))
    assert small.bits == 16
    assert big.int_max > 1_000_000_000 + big.rlog * 10**9


def test_smt_timeout_covers_building_the_encoding(write: Callable[[str, str], Path]) -> None:
    prepared = _prepared(write("burn.yaml", _burn(8000)))
    engine = SmtEngine(
        prepared.system, prepared.history.state, prepared.history.activations, timeout=1e-9
    )
    found = engine.search(parse_for(prepared.scenario, "life_points(B) >= 0"), False)
    assert found.found is None and not found.complete
    assert "--timeout" in found.detail


def test_life_points_beyond_the_bound_are_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("huge.yaml", _burn(2_000_000_000))
    result = run("check", str(path))
    assert result.code == 2
    assert f"{path}:3:" in result.err
    assert "life-points" in result.err or "less than or equal to 1000000000" in result.err


ZONES = """\
rules: yugioh
turn: A
cards:
{cards}
claims:
  - can_respond(B)
"""


def test_a_field_holds_no_more_spells_and_traps_than_its_zones(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    cards = "\n".join(
        f"  T{i}: {{kind: normal-trap, controller: B, set: earlier-turn, effect: {{draw: 1}}}}"
        for i in range(1, 7)
    )
    path = write("traps.yaml", ZONES.format(cards=cards))
    result = run("check", str(path))
    assert result.code == 2
    assert (
        f"{path}:9:3: error: 'T6' does not fit: B has 5 Spell & Trap Zones under yugioh, "
        "and this is card 6 there"
    ) in result.err


def test_a_field_holds_no_more_monsters_than_its_zones(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    cards = "\n".join(
        f"  M{i}: {{kind: normal-monster, controller: A, atk: 1000}}" for i in range(1, 7)
    )
    path = write("monsters.yaml", ZONES.format(cards=cards))
    result = run("check", str(path))
    assert result.code == 2
    assert "'M6' does not fit: A has 5 Monster Zones under yugioh" in result.err


def test_a_summon_needs_a_free_monster_zone(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    cards = "\n".join(
        f"  M{i}: {{kind: normal-monster, controller: A, atk: 1000}}" for i in range(1, 6)
    )
    cards += "\n  New: {kind: normal-monster, controller: A, zone: hand, atk: 1000}"
    text = ZONES.format(cards=cards).replace("claims:", "history:\n  - A summons New\nclaims:")
    result = run("check", str(write("full.yaml", text)))
    assert result.code == 2
    assert "there is no free Monster Zone (summon.monster-zones)" in result.err
    tribute = text.replace("A summons New", "A tribute summons New tributing M1")
    assert run("check", str(write("tribute.yaml", tribute))).code == 0


@pytest.mark.parametrize(
    ("level", "step", "legal"),
    [
        (4, "A summons New", True),
        (5, "A summons New", False),
        (5, "A tribute summons New tributing M1", True),
        (7, "A tribute summons New tributing M1", False),
        (7, "A tribute summons New tributing M1 and M2", True),
        (3, "A tribute summons New tributing M1", False),
    ],
)
def test_a_monster_s_level_sets_its_tributes(
    run: Callable[..., Run], write: Callable[[str, str], Path], level: int, step: str, legal: bool
) -> None:
    cards = "\n".join(
        f"  M{i}: {{kind: normal-monster, controller: A, atk: 1000}}" for i in range(1, 3)
    )
    cards += f"\n  New: {{kind: normal-monster, controller: A, zone: hand, level: {level}}}"
    text = ZONES.format(cards=cards).replace("claims:", f"history:\n  - {step}\nclaims:")
    result = run("check", str(write("level.yaml", text)))
    if legal:
        assert result.code == 0, result.err
    else:
        assert result.code == 2
        assert "(summon.tributes)" in result.err
