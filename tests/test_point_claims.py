"""Claims about a point: who holds priority at the scenario's point (``priority == P``), any
claim read there (``now F``), and the state where Chain Link N has just resolved
(``after_link(N) F``), in both engines."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run
from verifier.claims import ast
from verifier.claims.evaluate import holds_priority
from verifier.core.state import READ, Mode
from verifier.engines.explore import explore
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import ClaimResult, at_point, check, prepare
from verifier.spec.cards import Zone
from verifier.system import Action

ENGINES = ("explore", "smt")

SEED = EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"

RAIGEKI = """\
rules: yugioh
turn: A
cards:
  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters, of: opponent}}
  Typhoon:
    kind: quick-play-spell
    controller: A
    zone: hand
    target: {card: spell-trap, zone: field, controller: opponent}
    effect: {destroy: target}
  Ambush:
    kind: normal-trap
    controller: B
    set: earlier-turn
    target: {card: monster, zone: field}
    effect: {destroy: target}
  Ogre: {kind: normal-monster, controller: B, atk: 1000}
  Knight: {kind: normal-monster, controller: A, atk: 1200}
history:
  - A activates Raigeki
"""
"""A's Raigeki; B may answer with Ambush (destroying A's Knight), A with Typhoon on Ambush."""

CMC = """\
rules: cmc
turn: A
cards:
  Ogre: {kind: monster, controller: B}
  Spark: {kind: spell, controller: A, zone: hand, speed: C, target: {card: monster, zone: field}, effect: {dizzy: target}}
  Gust: {kind: spell, controller: B, zone: hand, speed: D, target: {card: monster, zone: field}, effect: {undizzy: target}}
history:
  - A casts Spark targeting Ogre
"""


def _scenario(tmp_path: Path, text: str, history: list[str] | None = None) -> Path:
    if history is not None:
        head = text.split("history:", maxsplit=1)[0]
        text = head + "history:\n" + "".join(f"  - {h}\n" for h in history)
        if not history:
            text = head + "history: []\n"
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _decide(path: Path, claim: str, engine: str) -> ClaimResult:
    [result] = _decide_all(path, [claim], engine)
    return result


def _decide_all(path: Path, claims: list[str], engine: str) -> list[ClaimResult]:
    """Each claim's result, by one engine (built once for all of them)."""
    scenario = load_scenario(path)
    prepared = prepare(scenario)
    listed = [(c, c, parse_for(scenario, c), None) for c in claims]
    return check(prepared, listed, engine)


def _texts(result: ClaimResult) -> list[str]:
    return [step.text for step in result.trace if not step.history]


# -- parsing ------------------------------------------------------------------------------------


def test_priority_and_after_link_parse_to_their_nodes(tmp_path: Path) -> None:
    scenario = load_scenario(_scenario(tmp_path, RAIGEKI))
    assert parse_for(scenario, "priority == B") == ast.Priority(1)
    assert parse_for(scenario, "priority != A") == ast.Not(ast.Priority(0))
    text = 'always after_link(2) zone("Ogre") == graveyard and resolves("Raigeki")'
    formula = parse_for(scenario, text)
    body = ast.And((ast.ZoneIs(3, int(Zone.GRAVEYARD)), ast.Resolves(0)))
    assert formula == ast.Quantified("always", ast.AfterLink(2, body))
    assert ast.point_of(formula) == 2
    assert ast.point_of(parse_for(scenario, 'after_link(3) resolves("Raigeki")')) == 3
    assert ast.point_of(parse_for(scenario, 'exists resolves("Raigeki")')) is None


# -- priority -----------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("history", "a", "b"),
    [
        pytest.param([], True, False, id="open-game-state: the turn player"),
        pytest.param(["A activates Raigeki"], False, True, id="after an activation: the other"),
        pytest.param(["A activates Raigeki", "B passes"], True, False, id="after a pass"),
        pytest.param(
            ["A activates Raigeki", "B activates Ambush targeting Knight"],
            True,
            False,
            id="after a response",
        ),
        pytest.param(["A activates Raigeki", "B passes", "A passes"], False, False, id="resolving"),
        pytest.param(
            ["A activates Raigeki", "the chain resolves"], True, False, id="after the chain"
        ),
    ],
)
def test_priority_at_the_scenarios_point(
    tmp_path: Path, engine: str, history: list[str], a: bool, b: bool
) -> None:
    path = _scenario(tmp_path, RAIGEKI, history)
    expected = {}
    for player, holds in (("A", a), ("B", b)):
        for quantifier in ("", "exists ", "always "):
            expected[f"{quantifier}priority == {player}"] = "holds" if holds else "fails"
        expected[f"priority != {player}"] = "fails" if holds else "holds"
    results = _decide_all(path, list(expected), engine)
    assert {r.claim: r.verdict.value for r in results} == expected


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("history", "a", "b"),
    [
        pytest.param([], True, True, id="no stack: both"),
        pytest.param(["A casts Spark targeting Ogre"], True, True, id="nobody pressed: both"),
        pytest.param(
            ["A casts Spark targeting Ogre", "A presses resolve"], False, True, id="A pressed"
        ),
        pytest.param(
            ["A casts Spark targeting Ogre", "A presses resolve", "B casts Gust targeting Ogre"],
            True,
            True,
            id="an addition clears the presses",
        ),
        pytest.param(
            ["A casts Spark targeting Ogre", "A presses resolve", "B presses resolve"],
            False,
            False,
            id="both pressed: the stack resolves",
        ),
    ],
)
def test_priority_under_cmc_is_each_player_who_has_not_pressed(
    tmp_path: Path, engine: str, history: list[str], a: bool, b: bool
) -> None:
    path = _scenario(tmp_path, CMC, history)
    results = _decide_all(path, ["priority == A", "priority == B"], engine)
    assert [r.verdict.value for r in results] == [
        "holds" if a else "fails",
        "holds" if b else "fails",
    ]


@pytest.mark.parametrize("text", [RAIGEKI, CMC])
def test_priority_is_the_right_to_pass_in_every_reachable_state(tmp_path: Path, text: str) -> None:
    """The claim's meaning is the protocol's: a player holds priority exactly where passing
    is legal for them."""
    scenario = load_scenario(_scenario(tmp_path, text, []))
    prepared = prepare(scenario)
    system = prepared.system
    exploration = explore(system, prepared.history.state)
    modes = set()
    for state in exploration.parent:
        modes.add(READ.mode(state))
        for player in (0, 1):
            frame = system.layout.frame(state)
            assert holds_priority(system.world, frame, player) == system.enabled(
                state, Action("pass", player=player)
            )
    assert {Mode.OPEN, Mode.BUILD, Mode.RESOLVE, Mode.DONE} <= modes


def test_a_claim_only_about_priority_shows_the_point_not_a_continuation(tmp_path: Path) -> None:
    path = _scenario(tmp_path, RAIGEKI)
    for engine in ENGINES:
        result = _decide(path, "priority == A", engine)
        assert result.verdict.value == "fails"
        assert result.role == "at the scenario's point"
        assert [s.text for s in result.trace] == ["A activates Raigeki (Chain Link 1)"]


# -- now -----------------------------------------------------------------------------------------


AT_THE_POINT = {
    # After Raigeki and B's Ambush targeting Knight: both on the chain, A holds the right.
    'now zone("Ambush") == field and now chain_length == 2': "holds",
    'now stack == ["Raigeki", "Ambush"]': "holds",
    'now stack == ["Raigeki"]': "fails",
    "now priority == A": "holds",
    'now zone("Knight") == graveyard': "fails",
    # The point is fixed and the end is not: Knight is on the field now, gone at every end.
    'always now zone("Knight") == field and zone("Knight") == graveyard': "holds",
    'exists zone("Knight") == field and now zone("Knight") == field': "fails",
    # Nothing is activated at the point itself: activations come after it.
    'now activates(B, "Ambush")': "fails",
    'not now resolves("Ambush")': "holds",
}
"""Claims read at the scenario's point, with their verdicts."""


@pytest.mark.parametrize("engine", ENGINES)
def test_now_reads_the_scenarios_point(tmp_path: Path, engine: str) -> None:
    history = ["A activates Raigeki", "B activates Ambush targeting Knight"]
    path = _scenario(tmp_path, RAIGEKI, history)
    results = _decide_all(path, list(AT_THE_POINT), engine)
    assert {r.claim: r.verdict.value for r in results} == AT_THE_POINT


def test_now_parses_to_its_node_and_shows_the_point(tmp_path: Path) -> None:
    scenario = load_scenario(_scenario(tmp_path, RAIGEKI))
    formula = parse_for(scenario, 'now zone("Ogre") == field and resolves("Raigeki")')
    assert formula == ast.And((ast.Now(ast.ZoneIs(3, int(Zone.FIELD))), ast.Resolves(0)))
    assert parse_for(scenario, "not now priority == B") == ast.Not(ast.Now(ast.Priority(1)))
    path = _scenario(tmp_path, RAIGEKI)
    for engine in ENGINES:
        result = _decide(path, 'now zone("Raigeki") == graveyard', engine)
        assert result.verdict.value == "fails"
        assert result.role == "at the scenario's point"
        assert [s.text for s in result.trace] == ["A activates Raigeki (Chain Link 1)"]


def test_now_in_the_middle_of_a_history(tmp_path: Path) -> None:
    # The history stops after one link has resolved: the point is there, not at the start.
    history = [
        "A activates Raigeki",
        "B activates Ambush targeting Knight",
        "Chain Link 2 resolves",
    ]
    path = _scenario(tmp_path, RAIGEKI, history)
    claims = {
        'now zone("Knight") == graveyard': "holds",
        'now zone("Ogre") == field': "holds",
        'now stack == ["Raigeki"]': "holds",
        "now priority == A": "fails",  # nobody acts while the chain resolves
    }
    for engine in ENGINES:
        results = _decide_all(path, list(claims), engine)
        assert {r.claim: r.verdict.value for r in results} == claims


# -- after_link ----------------------------------------------------------------------------------


AT_LINKS = {
    # Chain Link 2 (Ambush) has resolved, Raigeki has not: Knight is gone, Ogre is not.
    'always after_link(2) (zone("Knight") == graveyard and zone("Ogre") == field)': "holds",
    'always after_link(2) (resolves("Ambush") and not resolves("Raigeki"))': "holds",
    'exists after_link(2) (zone("Raigeki") == field and zone("Ambush") == field)': "holds",
    # Chain Link 1 has resolved; the cleanup has not happened yet.
    'always after_link(1) (zone("Ogre") == graveyard and zone("Raigeki") == field)': "holds",
    'exists after_link(1) cleanup_sends("Raigeki")': "fails",
    # A chains Typhoon on Ambush (Chain Link 3): Ambush is destroyed before it resolves.
    'exists after_link(3) zone("Ambush") == graveyard': "holds",
    'exists after_link(2) (no_effect("Ambush") and zone("Knight") == field)': "fails",
    # ... but only if A chains it: without Chain Link 3 there is no such point.
    'always after_link(3) zone("Ambush") == graveyard': "fails",
    'always after_link(4) zone("Ogre") == graveyard': "fails",
    'exists after_link(4) zone("Ogre") == graveyard': "fails",
    'after_link(1) zone("Knight") == field': "fails",
    'after_link(1) zone("Ogre") == graveyard': "holds",
    'after_link(1) zone("Ogre") != graveyard': "fails",
}
"""Claims after Raigeki and B's Ambush targeting Knight, with their verdicts."""


@pytest.mark.parametrize("engine", ENGINES)
def test_after_link_decides_where_the_link_has_just_resolved(tmp_path: Path, engine: str) -> None:
    history = ["A activates Raigeki", "B activates Ambush targeting Knight"]
    path = _scenario(tmp_path, RAIGEKI, history)
    results = _decide_all(path, list(AT_LINKS), engine)
    assert {r.claim: r.verdict.value for r in results} == AT_LINKS


NUMBERS = """\
rules: yugioh
turn: A
cards:
  Burn: {kind: normal-spell, controller: A, zone: hand, effect: {lose-lp: 1000, player: opponent}}
  Rally:
    kind: quick-play-spell
    controller: A
    zone: hand
    target: {card: monster, zone: field}
    effect: {change-atk: {on: target, by: 700}}
  Theft:
    kind: normal-trap
    controller: B
    set: earlier-turn
    target: {card: monster, zone: field, controller: opponent}
    effect: {take-control: target}
  Knight: {kind: normal-monster, controller: A, atk: 1200}
history:
  - A activates Burn
  - B activates Theft targeting Knight
  - A activates Rally targeting Knight
"""

POINTS = {
    # Chain Link 3 (Rally) has resolved: Knight has 1900 ATK, still A's; no damage yet.
    'always after_link(3) (atk("Knight") == 1900 and controller("Knight") == A and life_points(B) == 8000)': "holds",
    # Chain Link 2 (Theft): B controls Knight now.
    'always after_link(2) (controller("Knight") == B and atk("Knight") == 1900 and life_points(B) == 8000)': "holds",
    # Chain Link 1 (Burn): B has lost 1000.
    'always after_link(1) (life_points(B) == 7000 and life_points(A) == 8000 and resolves("Burn"))': "holds",
    "exists after_link(1) life_points(B) == 8000": "fails",
    'always after_link(3) (resolves("Rally") and not resolves("Theft") and not negated("Theft"))': "holds",
}
"""Numbers, controllers and outcomes at each point of a three-link chain."""


@pytest.mark.parametrize("engine", ENGINES)
def test_every_atom_reads_the_state_at_the_point(tmp_path: Path, engine: str) -> None:
    path = _scenario(tmp_path, NUMBERS)
    results = _decide_all(path, list(POINTS), engine)
    assert {r.claim: r.verdict.value for r in results} == POINTS


@pytest.mark.parametrize("engine", ENGINES)
def test_a_link_that_never_resolves_makes_the_body_false(tmp_path: Path, engine: str) -> None:
    """Chain Link 2 exists only if B answers: `always after_link(2) F` fails on the
    continuation where B does not, whatever F says; `exists` needs B's answer."""
    path = _scenario(tmp_path, RAIGEKI)
    claims = [
        'always after_link(2) zone("Raigeki") == field',
        'exists after_link(2) zone("Raigeki") == field',
        'exists after_link(2) zone("Raigeki") != field',
    ]
    always, exists, never = _decide_all(path, claims, engine)
    assert always.verdict.value == "fails"
    assert always.role == "counterexample"
    assert not any("Ambush" in t for t in _texts(always))
    # The continuation is not stopped: it goes on to the cleanup.
    assert _texts(always)[-3:-1] == ["Chain Link 1: Raigeki resolves", "Ogre is destroyed"]
    assert _texts(always)[-1].startswith("the chain has resolved")
    assert all(step.kind != "point" for step in always.trace)
    assert exists.verdict.value == "holds"
    assert _texts(exists)[0].startswith("B activates Ambush targeting")
    assert never.verdict.value == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_the_witness_ends_where_the_link_has_resolved(tmp_path: Path, engine: str) -> None:
    path = _scenario(tmp_path, RAIGEKI)
    result = _decide(path, 'exists after_link(2) zone("Knight") == graveyard', engine)
    assert result.verdict.value == "holds"
    assert result.role == "witness"
    texts = _texts(result)
    assert texts[0] == "B activates Ambush targeting Knight (Chain Link 2)"
    assert texts[-3:] == [
        "Chain Link 2: Ambush resolves",
        "Knight is destroyed",
        "Chain Link 2 has resolved: the claim is decided here",
    ]
    assert result.trace[-1].kind == "point"
    assert not any("Raigeki resolves" in t for t in texts)


@pytest.mark.parametrize("engine", ENGINES)
def test_after_link_counts_links_of_the_chain_at_the_point(tmp_path: Path, engine: str) -> None:
    """After a resolved chain, the scenario's chain is the next one: its Chain Link 1 is the
    first activation of the continuation."""
    path = _scenario(tmp_path, RAIGEKI, ["A activates Raigeki", "the chain resolves"])
    assert READ.cno(prepare(load_scenario(path)).history.state) == 2
    result = _decide(path, 'exists after_link(1) zone("Knight") == graveyard', engine)
    assert result.verdict.value == "holds"
    assert _texts(result)[-3:-1] == ["Chain Link 1: Ambush resolves", "Knight is destroyed"]
    assert _texts(result)[-1] == "Chain Link 1 has resolved: the claim is decided here"
    result = _decide(path, 'always after_link(1) zone("Knight") == graveyard', engine)
    assert result.verdict.value == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_after_link_under_cmc_follows_the_casting_order(tmp_path: Path, engine: str) -> None:
    """Chain Link N is the N-th spell added; C is cast before D whatever was added first."""
    path = _scenario(tmp_path, CMC, ["B casts Gust targeting Ogre", "A casts Spark targeting Ogre"])
    assert (
        _decide(
            path, 'always after_link(1) (resolves("Spark") and resolves("Gust"))', engine
        ).verdict.value
        == "holds"
    )
    assert (
        _decide(
            path,
            'always after_link(2) (resolves("Spark") and not resolves("Gust") and dizzy("Ogre"))',
            engine,
        ).verdict.value
        == "holds"
    )


def test_the_stop_is_a_system_with_a_stop(tmp_path: Path) -> None:
    path = _scenario(tmp_path, RAIGEKI)
    prepared = prepare(load_scenario(path))
    assert at_point(prepared, None) is prepared
    stopped = at_point(prepared, 2)
    assert stopped.system.stop == (1, 2)
    assert stopped.history == prepared.history
    assert prepared.system.stop is None


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("claim", "message", "column"),
    [
        (
            'not after_link(1) zone("Ogre") == field',
            "after_link(N) must begin the claim or follow its quantifier, once "
            '(such as: always after_link(2) zone("X") == graveyard)',
            5,
        ),
        (
            'resolves("Raigeki") and after_link(1) zone("Ogre") == field',
            "after_link(N) must begin the claim or follow its quantifier, once "
            '(such as: always after_link(2) zone("X") == graveyard)',
            25,
        ),
        (
            'always after_link(1) after_link(2) zone("Ogre") == field',
            "after_link(N) must begin the claim or follow its quantifier, once "
            '(such as: always after_link(2) zone("X") == graveyard)',
            22,
        ),
        (
            'after_link(1) exists zone("Ogre") == field',
            "a quantifier goes before after_link(N), not after it",
            15,
        ),
        (
            "always after_link(1) priority == A",
            "priority is decided at the scenario's point, not after a chain link",
            22,
        ),
        ('always after_link(0) zone("Ogre") == field', "chain links are numbered from 1", 19),
        ("priority == C", "unknown player 'C' (players: A, B)", 13),
        (
            'now exists zone("Ogre") == field',
            "a quantifier goes before now, not after it: now F is the same on every continuation",
            5,
        ),
        (
            'now (zone("Ogre") == field and can_respond(B))',
            "can_respond(...) speaks of the continuations, not of the scenario's point: write "
            "it without now",
            32,
        ),
        (
            'always after_link(1) now zone("Ogre") == field',
            "now F is decided at the scenario's point, not after a chain link",
            22,
        ),
        (
            'now after_link(1) zone("Ogre") == field',
            "after_link(N) cannot go inside now: now F is read at one point",
            5,
        ),
        (
            'now not now zone("Ogre") == field',
            "now is written once: now F is already at the scenario's point",
            9,
        ),
        ("priority < A", "'<' does not compare these; use == or !=", 10),
    ],
)
def test_misplaced_point_claims_are_located_errors(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    claim: str,
    message: str,
    column: int,
) -> None:
    text = RAIGEKI + f"claims:\n  - claim: '{claim}'\n"
    path = write("s.yaml", text)
    result = run("check", str(path))
    assert result.code == 2
    lines = result.err.splitlines()
    line = text.splitlines().index(f"  - claim: '{claim}'") + 1
    assert lines[0] == f"{path}:{line}:{12 + column}: error: {message}"
    assert lines[2] == " " * (4 + 11 + column) + "^"


def test_a_possibility_inside_after_link_is_refused_at_its_place(run: Callable[..., Run]) -> None:
    # can_activate carries its own quantifier, which goes before after_link(N) (found by the
    # fuzzer: an internal error before).
    claim = '(after_link(2) (can_activate(B, "Dark Bribe")))'
    result = run("ask", str(SEED), claim)
    assert result.code == 2
    assert result.err.startswith(
        "<claim>:1:17: error: can_activate(...) carries its own quantifier, which goes before "
        "after_link(N)"
    )
