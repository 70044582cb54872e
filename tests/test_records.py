"""The record quotient keeps what the rules and the claims read of the logs.

:mod:`verifier.engines.records` explores one state per class of states that differ only
in log entries no claim reads. That is sound when (1) the rules never read the logs (the
legal actions, every field a step sets and every entry it writes are the same whatever the
log held before) and (2) a claim has the same value on a state and on its representative.
Both are checked here on every state of every example and of random scenarios of all three
games; the differential tests of the reductions (``tests/test_symmetry.py``) compare the
verdicts and witness lengths of the reduced and unreduced explorer on random scenarios.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, sampled_scenarios
from tests.test_screen import on_random_states
from verifier.claims import ast
from verifier.claims.evaluate import truth
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Layout, State
from verifier.engines.explore import Exploration, ExplorerEngine
from verifier.engines.records import LOGS, WHOLE, Quotient, View, view
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import prepare
from verifier.run.verdict import Verdict, decide
from verifier.system import System


def _entries(layout: Layout, state: State, log: str, begin: int, end: int) -> list[tuple]:
    columns = [state[layout.position(n)] for n in LOGS[log]]
    return [tuple(c[k] for c in columns) for k in range(begin, end)]  # type: ignore[index]


def _scrambled(layout: Layout, state: State) -> State:
    """``state`` with each log's entries written in reverse order (its length kept)."""
    out = list(state)
    for counter, names in LOGS.items():
        count = state[layout.position(counter)]
        for name in names:
            column = list(state[layout.position(name)])  # type: ignore[call-overload]
            column[:count] = column[:count][::-1]
            out[layout.position(name)] = tuple(column)
    return tuple(out)


def rules_never_read_the_logs(system: System, start: State, most: int) -> int:
    """In every state of an exploration, and in the same state with its logs blanked and
    scrambled, the same actions are legal, and each sets the same fields outside the logs,
    the same log lengths and the same new entries."""
    layout = system.layout
    exploration = Exploration(system, start, most).run()
    logs = {layout.position(n) for names in LOGS.values() for n in names}
    blank = Quotient(layout, start, View())  # every entry since the start forgotten
    compared = 0
    for state in exploration.parent:
        actions = list(system.enabled_actions(state))
        for other in (blank(state), _scrambled(layout, state)):
            assert list(system.enabled_actions(other)) == actions
            for action in actions:
                mine, theirs = (
                    system.step(CONCRETE, state, action),
                    system.step(CONCRETE, other, action),
                )
                for at, (a, b) in enumerate(zip(mine, theirs, strict=True)):
                    if at not in logs:
                        assert a == b, (layout.fields[at].name, action)
                for counter in LOGS:
                    was = state[layout.position(counter)]
                    now = mine[layout.position(counter)]
                    assert _entries(layout, mine, counter, was, now) == _entries(  # type: ignore[arg-type]
                        layout,
                        theirs,
                        counter,
                        was,  # type: ignore[arg-type]
                        now,  # type: ignore[arg-type]
                    )
                compared += 1
    return compared


@pytest.mark.parametrize("path", sampled_scenarios())
def test_the_rules_never_read_the_logs_in_the_examples(path: Path) -> None:
    prepared = prepare(load_scenario(path))
    assert rules_never_read_the_logs(prepared.system, prepared.history.state, 600) > 0


@pytest.mark.parametrize("game", ["yugioh", "cmc", "mtg"])
def test_the_rules_never_read_the_logs_of_random_scenarios(game: str) -> None:
    on_random_states(rules_never_read_the_logs, game, 6)


def _bodies(formula: ast.Formula) -> list[ast.Formula]:
    return [formula.body] if isinstance(formula, ast.Quantified) else []


@pytest.mark.parametrize("path", sampled_scenarios())
def test_every_claim_has_the_same_value_on_a_state_and_its_representative(path: Path) -> None:
    scenario = load_scenario(path)
    prepared = prepare(scenario)
    system, start = prepared.system, prepared.history.state
    since = prepared.history.activations
    exploration = Exploration(system, start, 3_000).run()
    for claim in scenario.claims:
        for body in _bodies(claim.formula):
            wanted = view(system.world, body)
            if wanted.whole:
                continue
            quotient = Quotient(system.layout, start, wanted)
            for state in exploration.terminals:
                real = truth(CONCRETE, system.world, state, body, since, start)
                kept = truth(CONCRETE, system.world, quotient(state), body, since, start)
                assert real == kept, (claim.text, state)


def representatives_step_alike(system: System, start: State, wanted: View, most: int) -> int:
    """From every state of an exploration and from its representative, the same actions
    are legal, and each leads to states with one representative: the quotient is a
    congruence of the rules, so a continuation found among representatives is a real one.
    The number of steps compared."""
    quotient = Quotient(system.layout, start, wanted)
    compared = 0
    for state in Exploration(system, start, most).run().parent:
        chosen = quotient(state)
        actions = list(system.enabled_actions(state))
        assert list(system.enabled_actions(chosen)) == actions
        for action in actions:
            real = quotient(system.step(CONCRETE, state, action))
            assert quotient(system.step(CONCRETE, chosen, action)) == real, action
            compared += 1
    return compared


MANA_TWICE = """\
rules: mtg
turn: A
step: declare-blockers
cards:
  Shock: {kind: instant, controller: B, zone: hand, mana: "{2}",
    target: {player: opponent}, effect: {damage: 2}}
  Land 1: {kind: land, controller: B, ability: {type: mana-ability, cost: {tap: this},
    effect: {add-mana: C}}}
  Land 2: {kind: land, controller: B, ability: {type: mana-ability, cost: {tap: this},
    effect: {add-mana: C}}}
  Bear: {kind: creature, controller: A, zone: field, power: 2, toughness: 2, attacking: true}
  Ponder: {kind: instant, controller: A, zone: hand, effect: {draw: 1}}
deck: {A: 2, B: 2}
history:
  - A activates Ponder
claims:
  - claim: not can_respond(B)
"""


def test_a_log_read_as_a_set_keeps_one_representative_when_entries_repeat(
    tmp_path: Path,
) -> None:
    # B's two lands tap for mana at one point of the turn: two entries alike in all that
    # can_respond reads, kept once. The place the second leaves blank is no entry: a
    # representative once kept it as one, so the next activation's representative was not
    # the real state's, and a witness found among them could not be replayed.
    path = tmp_path / "mana-twice.yaml"
    path.write_text(MANA_TWICE, encoding="utf-8")
    scenario = load_scenario(path)
    prepared = prepare(scenario)
    system, start = prepared.system, prepared.history.state
    body = parse_for(scenario, "can_respond(B)")
    assert isinstance(body, ast.Quantified)
    wanted = view(system.world, body.body)
    assert not wanted.whole and not dict(wanted.keep)["an"].ordered
    assert representatives_step_alike(system, start, wanted, 2_000) > 10
    for order in ("breadth", "fewest-moves"):
        engine = ExplorerEngine(system, start, prepared.history.activations, order=order)
        answer = decide(engine, parse_for(scenario, "not can_respond(B)"))
        assert answer.verdict is Verdict.FAILS and answer.trace


def test_what_a_claim_reads_of_the_logs() -> None:
    scenario = load_scenario(ROOT / "examples/yugioh/raigeki-imperial-order-dark-bribe.yaml")
    world = prepare(scenario).system.world
    by_name = {c.name: c for c in world.cards}
    bribe = frozenset(by_name["Dark Bribe"].abilities)

    def read(text: str) -> View:
        formula = parse_for(scenario, text)
        assert isinstance(formula, ast.Quantified)
        return view(world, formula.body)

    activates = dict(read('can_activate(B, "Dark Bribe")').keep)["an"]
    assert activates.abilities == bribe and activates.columns == {"a_ab", "a_pl"}
    assert dict(read('exists resolves("Dark Bribe")').keep)["rn"].abilities == bribe
    responds = dict(read("can_respond(B)").keep)["an"]
    assert responds.abilities is None  # every entry, but only who, which chain, which link
    assert responds.columns == {"a_pl", "a_cno", "a_link"}
    # Where a spell is copied, which ability an entry is tells a copy from a response.
    storm = load_scenario(ROOT / "examples/mtg/storm-copies-for-each-spell-cast-before-it.yaml")
    formula = parse_for(storm, "can_respond(B)")
    assert isinstance(formula, ast.Quantified)
    copied = dict(view(prepare(storm).system.world, formula.body).keep)["an"]
    assert copied.columns == {"a_ab", "a_pl", "a_cno", "a_link"}
    assert read('always zone("Raigeki") == graveyard') == View()
    for ordered in (
        'exists resolution_order == ["Dark Bribe", "Raigeki"]',
        "always chain_length <= 2",
        'exists before("Dark Bribe", "Raigeki")',
        'exists activates(B, "Dark Bribe") and chain_length == 2',
    ):
        # Every entry where it is: an order or a count; only the targets are forgotten.
        seen = read(ordered)
        assert not seen.whole and seen.covers(read('can_activate(B, "Dark Bribe")'))
        for _, keep in seen.keep:
            assert keep.ordered and keep.abilities is None and "a_tg" not in keep.columns
    assert not read('exists resolution_order == ["Raigeki"]').covers(
        read('exists targets("Raigeki", "Dark Bribe")')
    )
    assert WHOLE.covers(read('exists resolution_order == ["Raigeki"]'))
    both = read('exists activates(B, "Dark Bribe") or resolves("Raigeki")')
    assert both.covers(read('can_activate(B, "Dark Bribe")'))
    assert not read('can_activate(B, "Dark Bribe")').covers(both)


@pytest.mark.full
def test_orders_that_end_on_one_board_are_explored_once(run: Callable[..., Run]) -> None:
    # Two Set Traps a side that draw: after every order of activations the board is the
    # same; only the logs tell the orders apart.
    path = ROOT / "bench/boards/damage-step.yaml"
    scenario = load_scenario(path, allow_outside=True)
    prepared = prepare(scenario)
    system, start = prepared.system, prepared.history.state
    states = {}
    for reduce in (True, False):
        engine = ExplorerEngine(system, start, prepared.history.activations, reduce=reduce)
        claim = next(c for c in scenario.claims if "Rush Recklessly" in c.text)
        decision = decide(engine, claim.formula)
        assert decision.verdict is Verdict.HOLDS
        assert decision.trace is not None
        final = system.run(start, list(decision.trace))
        assert truth(CONCRETE, system.world, final, claim.formula.body, 0, start)  # type: ignore[attr-defined]
        states[reduce] = (int(decision.stats["states"]), len(decision.trace))
    assert states[True][1] == states[False][1]  # the witness is as short
    assert states[True][0] < states[False][0] * 0.85
    done = run(
        "ask", "--json", "--allow-outside", "--engine", "explore", str(path), "can_respond(B)"
    )
    assert json.loads(done.out)["claims"][0]["verdict"] == "holds"
    assert READ.an(start) == prepared.history.activations


def test_every_log_column_is_one_the_quotient_knows() -> None:
    # A column added to a log must be added to LOGS too, or the quotient would keep it as
    # it is in some states of a class and not in others.
    from verifier.core.state import CORE, OPTIONAL

    for field in (*CORE, *OPTIONAL.values()):
        if field.over in ("alog", "rlog"):
            counter = "an" if field.over == "alog" else "rn"
            assert field.name in LOGS[counter], field.name
    assert sorted(n for names in LOGS.values() for n in names) == sorted(
        f.name for f in (*CORE, *OPTIONAL.values()) if f.over in ("alog", "rlog")
    )


def test_with_interchangeable_cards_a_log_read_as_a_set_is_kept_in_order() -> None:
    # Found by the array step's random differential run: three copies of a creature with a
    # trigger, and a claim that reads the activations as a set. Sorted, the entries would
    # come in an order that depends on the copies' names, so two renamings of one state got
    # two canonical forms, and the witness of a later claim could not be replayed.
    from tests.test_differential import load, walked
    from tests.test_symmetry import _with_copies

    creature = {"kind": "creature", "controller": "B", "zone": "field", "power": 3}
    creature |= {"toughness": 4, "ability": {"type": "triggered"}}
    creature["ability"] |= {"trigger": {"event": "sent-to-graveyard", "from": "field"}}
    creature["ability"] |= {"effect": {"lose-lp": 8000, "player": "opponent"}}
    wrath = {"kind": "creature", "controller": "A", "zone": "field", "power": 2}
    wrath |= {"toughness": 2, "color": "red", "ability": {"type": "activated", "once": "turn"}}
    wrath["ability"] |= {"effect": {"destroy": "all-monsters", "of": "opponent"}}
    wrath["ability"]["effect"] |= {"filter": {"card": "card", "other": True}}
    instant = {"kind": "instant", "controller": "B", "zone": "hand"}
    instant |= {"target": {"card": "monster", "zone": "field", "color": "red"}}
    instant |= {"effect": {"gain-lp": 1_000_000_000, "player": "opponent"}}
    bear = {"kind": "creature", "controller": "B", "zone": "hand", "power": 1, "toughness": 3}
    data = {"rules": "mtg", "players": ["A", "B"], "turn": "A", "claims": []}
    data |= {"history": ["A activates Card 4", "A passes"]}
    data["cards"] = {"Card 1": instant, "Card 2": bear | {"color": "green"}, "Card 3": creature}
    data["cards"]["Card 4"] = wrath
    prepared = prepare(load(_with_copies(data, [2])))
    system = prepared.system
    state = walked(system, prepared.history.state, [30, 2, 7, 42])
    texts = ["always after_link(2) cards_drawn(A) != -65536", "always not priority == A"]
    texts.append('(can_activate(B, "Card 3") or can_respond(A))')
    start = READ.an(state)
    reduced = ExplorerEngine(system, state, start, 20_000, arrays_after=None)
    plain = ExplorerEngine(system, state, start, 20_000, reduce=False, arrays_after=None)
    for text in texts * 2:
        formula = parse_for(system.world.scenario, text)
        one, other = decide(reduced, formula), decide(plain, formula)
        assert one.verdict is other.verdict, text
        assert (one.trace is None) == (other.trace is None), text
        if one.trace is not None and other.trace is not None:
            assert len(one.trace) == len(other.trace), text
            assert READ.mode(system.run(state, list(one.trace))) == READ.mode(
                system.run(state, list(other.trace))
            )
    assert reduced.classes and all(
        keep.ordered or not keep.abilities for _, keep in reduced.view.keep
    )
