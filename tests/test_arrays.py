"""The array step visits exactly the explorer's states, and the engine decides alike with it.

:mod:`verifier.engines.arrays` evaluates the rules' relation (a program written by running
them on the nodes of :mod:`verifier.engines.nodes`) over a level of states at a time. It is held to the
interpreted explorer on every example (in the full run) and on random scenarios of all three
games: the same states, the same final states at the same distance from the start, the same
dead ends and capacities passed; and, through the explorer engine, the same verdicts with
witnesses of the same length that replay through the rules, with the reductions over rows
(interchangeable cards, log entries no claim reads) against the interpreted reductions.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bench.pools import write_pool
from bench.reductions import BOARD
from tests.conftest import sampled_scenarios
from tests.test_differential import Case, cases, load, walked
from tests.test_symmetry import _with_copies
from verifier.core.state import READ, Capacity, Mode, State
from verifier.engines import array_index
from verifier.engines import arrays as arrays_module
from verifier.engines.array_records import RowQuotient
from verifier.engines.array_symmetry import RowSymmetry
from verifier.engines.arrays import Levels, evaluate
from verifier.engines.explore import Exploration, ExplorerEngine, reporter
from verifier.engines.program import Column, Op, Program
from verifier.engines.records import Quotient, view
from verifier.engines.relation import compile_relation
from verifier.engines.resident import resident_bytes
from verifier.engines.symmetry import Symmetry, interchangeable
from verifier.errors import VerifierError
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare
from verifier.run.verdict import Verdict, decide
from verifier.system import System


def same_graph(system: System, start: State, most: int) -> int:
    """Explore from ``start`` with the interpreted step and with the array step, up to
    ``most`` states: the same graph. The number of states compared."""
    plain = Exploration(system, start, most, max_bytes=None).run()
    program = compile_relation(system, start)
    arrays = Levels(system, start, program, most, max_bytes=None).run()
    split = arrays_module.SPLIT
    try:  # every chunk stepped by mode, however few its states
        arrays_module.SPLIT = 0
        by_mode = Levels(system, start, program, most, max_bytes=None).run()
    finally:
        arrays_module.SPLIT = split
    assert by_mode.reached() == arrays.reached()
    assert by_mode.terminals == arrays.terminals
    # Small chunks: levels of many, stepped with the helper process where one can start.
    helped = Levels(system, start, program, most, max_bytes=None, chunk=8).run()
    assert helped.reached() == arrays.reached()
    assert helped.terminals == arrays.terminals
    assert helped.deadlocks == arrays.deadlocks
    assert [helped.path(s) for s in helped.terminals[:20]] == [
        arrays.path(s) for s in arrays.terminals[:20]
    ]
    assert arrays.states == plain.states
    assert arrays.stopped_by == plain.stopped_by
    if plain.stopped_by:
        return plain.states  # where a level stops may differ within the level: no more
    assert set(arrays.reached()) == set(plain.parent)
    assert set(arrays.terminals) == set(plain.terminals)
    assert len(arrays.terminals) == len(plain.terminals)
    assert {s: arrays.depth(s) for s in arrays.terminals} == {
        s: plain.depth(s) for s in plain.terminals
    }
    assert set(arrays.deadlocks) == set(plain.deadlocks)
    assert arrays.overflowed == plain.overflowed
    assert arrays.capacities == plain.capacities
    for final in arrays.terminals[:20]:
        assert system.run(start, arrays.path(final)) == final
    return plain.states


@pytest.mark.parametrize("path", sampled_scenarios())
def test_the_array_step_explores_the_examples_as_the_explorer_does(path: Path) -> None:
    prepared = prepare(load_scenario(path))
    assert same_graph(prepared.system, prepared.history.state, 3_000) > 0


def test_the_array_step_keeps_the_explorers_order_on_the_pools(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    system, start = prepared.system, prepared.history.state
    plain = Exploration(system, start).run()
    arrays = Levels(system, start, compile_relation(system, start)).run()
    assert arrays.states == plain.states == 2_669
    assert arrays.terminals == plain.terminals  # in the order the explorer reaches them
    assert [arrays.path(s) for s in arrays.terminals[:50]] == [
        plain.path(s) for s in plain.terminals[:50]
    ]


def test_the_array_step_stops_at_its_limits(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    system, start = prepared.system, prepared.history.state
    program = compile_relation(system, start)
    capped = Levels(system, start, program, max_states=500).run()
    assert capped.stopped_by == "states" and capped.states == 501
    assert not capped.faithful
    # The state past the limit is counted, not filed: the explorer's final states, at
    # every limit (a limit that ends on a final state once let a witness through).
    for most in range(60, 2_669, 41):
        plain = Exploration(system, start, most, max_bytes=None).run()
        arrays = Levels(system, start, program, most, max_bytes=None).run()
        assert arrays.states == plain.states == most + 1
        assert arrays.terminals == plain.terminals, most
    timed = Levels(system, start, program, seconds=0.0).run()
    assert timed.stopped_by == "time" and not timed.faithful
    if resident_bytes() is not None:
        full = Levels(system, start, program, max_bytes=0).run()
        assert full.stopped_by == "memory" and not full.faithful
    told: list[dict[str, float]] = []
    progress = reporter(told.append)
    assert progress is not None
    Levels(system, start, program, progress=progress).run()  # type: ignore[arg-type]
    assert told and told[-1]["states"] == 2_669
    assert [t["depth"] for t in told] == sorted(t["depth"] for t in told)


def _program(code: list[tuple[Op, tuple[int, ...], int]], bits: int = 8) -> Program:
    columns = (Column(0, None, False), Column(1, None, False))
    return Program(bits, columns, tuple(code), (), (), None, None)


@pytest.mark.parametrize(
    ("op", "a", "b", "want"),
    [
        (Op.ADD, 100, 100, -56),  # wraps at 8 bits, as a bit-vector sum
        (Op.SUB, -100, 100, 56),
        (Op.SHR, -6, 1, -3),  # arithmetic
        (Op.SHR, -6, 9, -1),  # past the width: only the sign is left
        (Op.SHR, 6, -1, 0),  # a negative amount is read unsigned: past the width
        (Op.SHL, 3, 6, -64),
        (Op.SHL, 3, 8, 0),
        (Op.LT, -1, 0, True),
        (Op.EQ, 4, 4, True),
        (Op.NE, 4, 4, False),
    ],
)
def test_each_instruction_computes_what_the_bit_vector_does(
    op: Op, a: int, b: int, want: int
) -> None:
    program = _program([(Op.COLUMN, (), 0), (Op.COLUMN, (), 1), (op, (0, 1), 0)])
    rows = np.array([[a, b]], dtype=np.int8)
    value = np.broadcast_to(evaluate(program, rows)[2], (1,))
    assert value.tolist() == [want]


def test_the_connectives_fold_any_number_of_arguments() -> None:
    code = [(Op.COLUMN, (), 0), (Op.COLUMN, (), 1), (Op.CONST, (), 5)]
    code += [(Op.EQ, (0, 2), 0), (Op.EQ, (1, 2), 0), (Op.CONST, (), 1)]
    code += [(Op.AND, (3, 4, 5), 0), (Op.OR, (3, 4), 0), (Op.IMPLIES, (3, 4), 0)]
    code += [(Op.NOT, (3,), 0), (Op.ITE, (3, 0, 1), 0), (Op.NEG, (1,), 0)]
    code += [(Op.ADD, (0, 1, 2), 0)]
    rows = np.array([[5, 5], [5, 7], [2, 5]], dtype=np.int8)
    values = evaluate(_program(code), rows)
    assert values[6].tolist() == [True, False, False]
    assert values[7].tolist() == [True, True, True]
    assert values[8].tolist() == [True, False, True]
    assert values[9].tolist() == [False, False, True]
    assert values[10].tolist() == [5, 5, 5]
    assert values[11].tolist() == [-5, -7, -5]
    assert values[12].tolist() == [15, 17, 12]


def test_the_engine_hands_off_to_the_array_step_and_decides_alike(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    system, start = prepared.system, prepared.history.state
    scenario = system.world.scenario
    claims = {
        "always chain_length <= 6": Verdict.HOLDS,
        "exists chain_length == 6": Verdict.HOLDS,
        'always not (resolves("Trap 2") and resolves("Trap 5"))': Verdict.FAILS,
        'exists (activates(B, "Trap 2") and chain_length == 2)': Verdict.HOLDS,
    }
    handed = ExplorerEngine(system, start, 0, reduce=False, arrays_after=100)
    plain = ExplorerEngine(system, start, 0, reduce=False, arrays_after=None)
    for text, verdict in claims.items():
        formula = parse_for(scenario, text)
        one, other = decide(handed, formula), decide(plain, formula)
        assert one.verdict is other.verdict is verdict, text
        assert (one.trace is None) == (other.trace is None), text
        if one.trace is not None and other.trace is not None:
            assert one.trace == other.trace, text  # the explorer's order, so its witness
    assert handed.arrays and not plain.arrays
    assert handed.stats()["step"] == "arrays"
    limited = ExplorerEngine(system, start, 0, max_states=1_000, reduce=False, arrays_after=100)
    decision = decide(limited, parse_for(scenario, "always chain_length <= 6"))
    assert decision.verdict is Verdict.UNKNOWN
    assert "state limit (1000" in decision.detail


def test_the_row_symmetry_reduces_as_the_interpreted_one(tmp_path: Path) -> None:
    # Four kinds of interchangeable traps; the claim reads the logs in order but not the
    # targets, which the row quotient forgets.
    prepared = prepare(load_scenario(write_pool(tmp_path, 8)))
    system, start = prepared.system, prepared.history.state
    scenario = system.world.scenario
    claims = {
        "always chain_length <= 8": Verdict.HOLDS,
        "exists chain_length == 8": Verdict.HOLDS,
        'always not (resolves("Trap 4") and chain_length == 8)': Verdict.FAILS,
    }
    for text, verdict in claims.items():
        formula = parse_for(scenario, text)
        handed = ExplorerEngine(system, start, 0, arrays_after=100)
        plain = ExplorerEngine(system, start, 0, arrays_after=None)
        one, other = decide(handed, formula), decide(plain, formula)
        assert one.verdict is other.verdict is verdict, text
        assert handed.arrays, text
        if plain.exploration.complete:  # a witness found stops each at its own point
            assert handed.exploration.states == plain.exploration.states, text
        if one.trace is not None and other.trace is not None:
            assert len(one.trace) == len(other.trace), text
    # The canonical row of every renaming of a state is the same row.
    program = compile_relation(system, start)
    symmetry = RowSymmetry(system.world, interchangeable(system.world), program, start)
    reached = Levels(system, start, program, max_states=3_000).run().reached()
    levels = Levels(system, start, program)
    classes = interchangeable(system.world)
    for state in reached[::97]:
        for members in classes:
            renamed = Symmetry(system.world, classes)._renamed(
                state, {members[0]: members[1], members[1]: members[0]}
            )
            rows = levels.rows([state, renamed])
            canonical = symmetry(rows)
            assert canonical[0].tolist() == canonical[1].tolist()


def test_a_claim_that_reads_entries_as_a_set_is_reduced_over_rows(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 8)))
    system, start = prepared.system, prepared.history.state
    scenario = system.world.scenario
    claims = {
        'always not (activates(A, "Trap 1") and activates(B, "Trap 1"))': Verdict.HOLDS,
        'exists (responds(B) and resolves("Trap 2"))': Verdict.HOLDS,
        'always not (activates(A, "Trap 3") and activates(A, "Trap 5") and activates(A, "Trap 7")'
        ' and activates(B, "Trap 2") and activates(B, "Trap 4"))': Verdict.FAILS,
    }
    for text, verdict in claims.items():
        formula = parse_for(scenario, text)
        handed = ExplorerEngine(system, start, 0, arrays_after=100)
        plain = ExplorerEngine(system, start, 0, arrays_after=None)
        one, other = decide(handed, formula), decide(plain, formula)
        assert one.verdict is other.verdict is verdict, text
        assert handed.arrays, text
        if plain.exploration.complete:  # a witness found stops each at its own point
            # The pool's traps are interchangeable: the logs are kept in order (6,398
            # states; 5,841 as sets, which the symmetry cannot keep).
            assert handed.exploration.states == plain.exploration.states == 6_398, text
        if one.trace is not None and other.trace is not None:
            assert len(one.trace) == len(other.trace), text
    # Without interchangeable cards, the set itself: the Damage Step board.
    board = prepare(load_scenario(BOARD, allow_outside=True))
    system, start = board.system, board.history.state
    text = 'exists (activates(A, "Rush Recklessly") and activates(B, "Dark Bribe"))'
    formula = parse_for(system.world.scenario, text)
    handed = ExplorerEngine(system, start, READ.an(start), arrays_after=100)
    plain = ExplorerEngine(system, start, READ.an(start), arrays_after=None)
    one, other = decide(handed, formula), decide(plain, formula)
    assert one.verdict is other.verdict is Verdict.HOLDS
    assert handed.arrays and not handed.classes and handed.exploration.program is not None
    assert one.trace is not None and other.trace is not None and len(one.trace) == len(other.trace)
    # Without the symmetry, a state's row reduces to its interpreted representative's row.
    system, start = prepared.system, prepared.history.state
    formula = parse_for(scenario, 'exists (responds(B) and resolves("Trap 2"))')
    wanted = view(system.world, formula.body)
    program = compile_relation(system, start)
    forget = RowQuotient(system.layout, start, wanted, program)
    quotient = Quotient(system.layout, start, wanted)
    levels = Levels(system, start, program)
    reached = list(Exploration(system, start, max_states=3_000).run().parent)
    assert len(reached) > 1_000
    reduced = forget(levels.rows(reached))
    assert reduced.tolist() == levels.rows([quotient(s) for s in reached]).tolist()
    assert (reduced != levels.rows(reached)).any()  # entries forgotten and sorted


@pytest.mark.parametrize(
    "claim",
    [
        'always zone("Trap 1") != banished',  # no entry read: every log forgotten
        'exists resolves("Trap 2")',  # the activations forgotten, resolutions a set
        'exists (activates(B, "Trap 1") and not activates(A, "Trap 3"))',
    ],
)
def test_a_program_that_leaves_forgotten_columns_unwritten_reaches_the_same_states(
    tmp_path: Path, claim: str
) -> None:
    scenario = load_scenario(write_pool(tmp_path, 6))
    prepared = prepare(scenario)
    system, start = prepared.system, prepared.history.state
    wanted = view(system.world, parse_for(scenario, claim).body)
    program = compile_relation(system, start)
    forget = RowQuotient(system.layout, start, wanted, program)
    stepped, left = forget.leaving_unwritten(program)
    assert sum(map(len, stepped.changes)) < sum(map(len, program.changes))
    blanking = Levels(system, start, program, symmetry=forget).run()
    unwritten = Levels(system, start, stepped, symmetry=left, canonical=forget).run()
    assert unwritten.states == blanking.states
    assert unwritten.reached() == blanking.reached()
    assert unwritten.terminals == blanking.terminals
    for final in unwritten.terminals[:30]:
        replayed = system.run(start, unwritten.path(final))
        assert unwritten._canonical_state(replayed) == final


def test_beside_the_fewest_moves_order_the_array_step_settles_every_no(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 8)))
    system, start = prepared.system, prepared.history.state
    scenario = system.world.scenario
    claims = {
        "always chain_length <= 8": Verdict.HOLDS,
        "exists chain_length == 8": Verdict.HOLDS,
        "exists chain_length == 9": Verdict.FAILS,
        'always not (resolves("Trap 4") and chain_length == 8)': Verdict.FAILS,
        # Reads the logs as sets: a new exploration, and a new decider when it pauses.
        'always not activates(A, "Trap 1")': Verdict.FAILS,
        'always not (activates(A, "Trap 1") and activates(B, "Trap 1"))': Verdict.HOLDS,
    }
    beside = ExplorerEngine(
        system, start, 0, order="fewest-moves", arrays_after=0, decider_after=100
    )
    plain = ExplorerEngine(system, start, 0, order="fewest-moves", arrays_after=None)
    for text, verdict in claims.items():
        formula = parse_for(scenario, text)
        one, other = decide(beside, formula), decide(plain, formula)
        assert one.verdict is other.verdict is verdict, text
        assert one.trace == other.trace, text  # the witness of the fewest-moves order
        if verdict is (Verdict.HOLDS if text.startswith("always") else Verdict.FAILS):
            assert one.stats["step"] == "arrays", text  # every continuation: the decider's
            assert one.stats["states"] == other.stats["states"], text  # the same graph
    assert beside.decider is not None and beside.decider.complete
    assert isinstance(beside.exploration, Exploration)  # the search itself goes on in its order


def _agree(case: Case, picks: list[int]) -> None:
    data, claims, walk = case
    prepared = prepare(load(data))
    system = prepared.system
    state = walked(system, prepared.history.state, walk)
    same_graph(system, state, 1_500)
    texts = [c for c in claims if isinstance(c, str)]
    _decide_alike(system, state, texts, reduce=False)
    try:  # with copies of some cards, interchangeable: the row symmetry
        prepared = prepare(load(_with_copies(data, picks)))
    except VerifierError:
        return  # the copies overfill a row of zones: no such scenario
    state = walked(prepared.system, prepared.history.state, walk)
    _decide_alike(prepared.system, state, texts, reduce=True)


def _decide_alike(system: System, state: State, texts: list[str], reduce: bool) -> None:
    start = READ.an(state)
    plain = ExplorerEngine(system, state, start, 20_000, reduce=reduce, arrays_after=None)
    # From the start, and from where the interpreted search paused (its states taken over).
    for after in (0, 40):
        handed = ExplorerEngine(system, state, start, 20_000, reduce=reduce, arrays_after=after)
        _alike(system, state, texts, handed, plain)
    # In the fewest-moves order, with the array step beside it as the decider.
    fewest = {"order": "fewest-moves", "reduce": reduce}
    plain = ExplorerEngine(system, state, start, 20_000, arrays_after=None, **fewest)  # type: ignore[arg-type]
    beside = ExplorerEngine(
        system,
        state,
        start,
        20_000,
        arrays_after=0,
        decider_after=40,
        **fewest,  # type: ignore[arg-type]
    )
    _alike(system, state, texts, beside, plain)


def _alike(
    system: System, state: State, texts: list[str], handed: ExplorerEngine, plain: ExplorerEngine
) -> None:
    for text in texts:
        formula = parse_for(system.world.scenario, text)
        one, other = decide(handed, formula), decide(plain, formula)
        if Verdict.UNKNOWN in (one.verdict, other.verdict):
            assert one.verdict is other.verdict, text  # the same limits stop both
            continue
        assert one.verdict is other.verdict, text
        assert (one.trace is None) == (other.trace is None), text
        if one.trace is not None and other.trace is not None:
            assert len(one.trace) == len(other.trace), text
            assert READ.mode(system.run(state, list(one.trace))) == Mode.DONE


def _random(game: str, count: int, large: bool = False) -> None:
    @settings(
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=True,
        max_examples=count,
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )
    @given(cases(game, large=large), st.lists(st.integers(0, 9), min_size=1, max_size=2))
    def check(case: Case, picks: list[int]) -> None:
        _agree(case, picks)

    check()


@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_the_array_step_agrees_on_random_scenarios(game: str) -> None:
    _random(game, 5)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_the_array_step_agrees_on_many_random_scenarios(game: str) -> None:
    _random(game, int(os.environ.get("DIFF_EXAMPLES", "300")), large=True)


def test_a_later_claim_that_reads_more_of_the_logs_explores_again(tmp_path: Path) -> None:
    # The first claim reads no log, so the array step forgets every entry written; the next
    # one reads the activations: it needs an exploration that kept them.
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    system, start = prepared.system, prepared.history.state
    scenario = system.world.scenario
    texts = ['always zone("Trap 1") != banished', 'exists activates(B, "Trap 2")']
    handed = ExplorerEngine(system, start, 0, arrays_after=0)
    plain = ExplorerEngine(system, start, 0, arrays_after=None)
    verdicts = []
    for text in texts:
        formula = parse_for(scenario, text)
        one, other = decide(handed, formula), decide(plain, formula)
        assert one.verdict is other.verdict, text
        verdicts.append(one.verdict)
    assert verdicts == [Verdict.HOLDS, Verdict.HOLDS]


def test_a_start_past_a_capacity_is_filed_as_the_explorer_files_it(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    system, start = prepared.system, prepared.history.state
    position = system.layout.position("overflow")
    past = (*start[:position], int(Capacity.CHAIN), *start[position + 1 :])
    plain = Exploration(system, past).run()
    arrays = Levels(system, past, compile_relation(system, past)).run()
    assert arrays.overflowed == plain.overflowed == 1
    assert arrays.capacities == plain.capacities == {Capacity.CHAIN}
    assert arrays.states == plain.states == 1 and not arrays.faithful


def test_a_row_is_kept_in_a_byte_an_element_where_its_values_fit(tmp_path: Path) -> None:
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    system, start = prepared.system, prepared.history.state
    levels = Levels(system, start, compile_relation(system, start))
    index = levels._index_of(levels._filed.wide)
    rows = levels.rows([start, start])
    rows[1, 0] = 300  # one value past a byte: that row is keyed by its elements whole
    keyed = index.keys(rows)
    assert keyed[1].tolist() == [False, True]
    assert index.file(keyed, rows, 2).tolist() == [0, 1]
    assert index.rows([0, 1]).tolist() == rows.tolist()
    assert index.file(index.keys(rows[::-1]), rows[::-1], 2).tolist() == []  # both known


def test_the_columns_that_start_wide_are_kept_whole_in_a_compact_key() -> None:
    prepared = prepare(load_scenario(BOARD, allow_outside=True))
    system, start = prepared.system, prepared.history.state
    levels = Levels(system, start, compile_relation(system, start))
    index = levels._index_of(levels._filed.wide)
    width, wide = len(levels.program.columns), index.wide.tolist()
    assert wide  # the life totals
    rows = levels.rows([start, start, start])
    rows[1, wide[0]] -= 2_500  # a life total changes: still compact
    narrow = next(c for c in range(width) if c not in wide)
    rows[2, narrow] = 300  # any other value past a byte: that row is kept whole
    keyed = index.keys(rows)
    assert keyed[1].tolist() == [False, False, True]
    assert len(set(keyed[2].tolist())) == 3
    assert index.file(keyed, rows, 3).tolist() == [0, 1, 2]
    assert index.rows([2, 0, 1]).tolist() == rows[[2, 0, 1]].tolist()


def test_rows_of_one_hash_are_told_apart_by_their_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every row with one hash: each is compared with the rows filed before it, and those
    # that differ are filed by their bytes; an exploration reaches the same states.
    prepared = prepare(load_scenario(write_pool(tmp_path, 6)))
    system, start = prepared.system, prepared.history.state
    program = compile_relation(system, start)
    plain = Levels(system, start, program).run()
    monkeypatch.setattr(array_index, "row_hashes", lambda m: np.zeros(len(m), dtype=np.uint64))
    colliding = Levels(system, start, program).run()
    assert colliding.states == plain.states == 2_669
    assert colliding.reached() == plain.reached()
    assert colliding.terminals == plain.terminals
    assert [colliding.path(s) for s in colliding.terminals[:20]] == [
        plain.path(s) for s in plain.terminals[:20]
    ]
    index = colliding._filed
    rows = index.rows(range(index.count))
    assert index.file(index.keys(rows), rows, len(rows)).tolist() == []  # all known
    # A limit within a chunk of colliding rows: the states past it are not filed.
    limited = Levels(system, start, program, max_states=100).run()
    assert limited.states == 101 and limited.stopped_by == "states"


def test_a_spells_copy_slots_are_not_interchangeable() -> None:
    # Found by the random differential run: each copy of a spell brings copy slots of its
    # own (Magic), which name it and which an effect uses in the order of their slots.
    # Renaming two copies without their slots gave two states of one class futures that
    # are not renamings of each other, and the interpreted and the row explorations, each
    # with its own representatives, reached different states.
    copier = {"kind": "instant", "controller": "B", "zone": "hand"}
    copier |= {"target": {"zone": "stack", "kind": ["instant", "sorcery"]}}
    copier |= {"effect": {"copy-spell": "target"}}
    shock = {"kind": "instant", "controller": "A", "zone": "hand", "effect": {"lose-lp": 2}}
    land = {"kind": "land", "controller": "B", "ability": {"type": "mana-ability"}}
    land["ability"] |= {"cost": {"tap": "this"}, "effect": {"add-mana": "C"}}
    data = {"rules": "mtg", "turn": "A", "claims": []}
    data["cards"] = {"Copier": copier, "Shock": shock, "Land": land}
    prepared = prepare(load(_with_copies(data, [0, 2])))  # and of the land: a class left
    system, start = prepared.system, prepared.history.state
    slots = {c.index for c in system.world.cards if c.copy_of >= 0}
    slots |= {system.world.cards[c].copy_of for c in slots}  # and the spells they copy
    classes = interchangeable(system.world)
    assert slots and classes and not any(set(members) & slots for members in classes)
    formula = parse_for(system.world.scenario, "not can_respond(B)")
    handed = ExplorerEngine(system, start, 0, 3_000, arrays_after=0)
    plain = ExplorerEngine(system, start, 0, 3_000, arrays_after=None)
    one, other = decide(handed, formula), decide(plain, formula)
    assert one.verdict is other.verdict and one.stats["states"] == other.stats["states"]
