"""Magic's players as targets (CR 115.1, 115.4: "target player", "target opponent", "any
target") and creature tokens (CR 111: created under their creator's control, ceasing to exist
away from the battlefield, 704.5d), in both engines; their traces and their errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, bad_input
from verifier.io.scenario import load_scenario
from verifier.system import build_system

BOLT = """rules: mtg
turn: A
life-points: 20
cards:
  Grizzly Bears: {kind: creature, controller: B, power: 2, toughness: 2}
  Lightning Bolt:
    kind: instant
    controller: A
    target: {card: creature, zone: battlefield, player: any}
    effect: {damage: {amount: 3, to: target}}
  Sign in Blood:
    kind: sorcery
    controller: B
    target: {player: any}
    effect: [{draw: 2, player: target}, {lose-lp: 2, player: target, simultaneous: true}]
  Bump in the Night:
    kind: sorcery
    controller: A
    target: {player: opponent}
    effect: {lose-lp: 3, player: target}
history:
  - A casts Lightning Bolt targeting B
claims:
  - claim: life_points(B) == 17
    expect: holds
"""

TOKENS = """rules: mtg
turn: A
step: main1
life-points: 20
cards:
  Pyroclasm:
    kind: sorcery
    controller: A
    effect: {damage: {amount: 2, to: all-monsters}}
  Raise the Alarm:
    kind: instant
    controller: A
    effect: {create-token: {name: Soldier, count: 2, power: 1, toughness: 1, color: white}}
  Lightning Bolt:
    kind: instant
    controller: B
    target: {card: creature, zone: battlefield}
    effect: {damage: {amount: 3, to: target}}
history:
  - A casts Pyroclasm
  - A casts Raise the Alarm
claims:
  - claim: zone("Soldier Token 1") == none
    expect: holds
"""

ENGINES = ["explore", "smt"]


def _error(run: Callable[..., Run], path: Path) -> str:
    return bad_input(run, path)[0]


@pytest.mark.parametrize("engine", ENGINES)
def test_damage_to_a_targeted_player_lowers_life(decide: Callable[..., str], engine: str) -> None:
    assert decide(BOLT, "always life_points(B) == 17", engine) == "holds"
    assert decide(BOLT, "life_points(A) == 20", engine) == "holds"
    assert decide(BOLT, 'always zone("Grizzly Bears") == battlefield', engine) == "holds"
    assert decide(BOLT, 'exists no_effect("Lightning Bolt")', engine) == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_player_brought_to_zero_life_loses(decide: Callable[..., str], engine: str) -> None:
    text = BOLT.replace("life-points: 20", "life-points: 3")
    assert decide(text, "always life_points(B) == 0", engine) == "holds"


@pytest.mark.parametrize("engine", ENGINES)
def test_any_target_may_be_a_creature_or_either_player(
    decide: Callable[..., str], engine: str
) -> None:
    text = BOLT.replace("history:\n  - A casts Lightning Bolt targeting B\n", "")
    assert decide(text, "exists life_points(B) == 17", engine) == "holds"
    assert decide(text, "exists life_points(A) == 17", engine) == "holds"  # its caster too
    assert decide(text, 'exists zone("Grizzly Bears") == graveyard', engine) == "holds"


@pytest.mark.parametrize("engine", ENGINES)
def test_target_player_and_target_opponent(decide: Callable[..., str], engine: str) -> None:
    # Sign in Blood on B's turn: B may target themself or A; Bump in the Night only B's
    # opponent (CR 102.3), here on A's turn.
    theirs = BOLT.replace("turn: A", "turn: B").replace(
        "history:\n  - A casts Lightning Bolt targeting B\n", "history: []\nstep: main1\n"
    )
    assert decide(theirs, "exists cards_drawn(B) == 2 and life_points(B) == 18", engine) == "holds"
    assert decide(theirs, "exists cards_drawn(A) == 2 and life_points(A) == 18", engine) == "holds"
    mine = BOLT.replace(
        "history:\n  - A casts Lightning Bolt targeting B\n", "history: []\nstep: main1\n"
    )
    assert decide(mine, "exists life_points(B) == 17 and cards_drawn(B) == 0", engine) == "holds"
    assert decide(mine, "exists life_points(A) == 17 and cards_drawn(A) == 0", engine) == "holds"
    bump_on_a = (
        'exists activates(A, "Bump in the Night") and life_points(A) == 17 '
        'and not activates(A, "Lightning Bolt")'
    )
    assert decide(mine, bump_on_a, engine) == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_two_targets_a_creature_and_a_player(decide: Callable[..., str], engine: str) -> None:
    text = BOLT.replace(
        "    target: {card: creature", "    targets: 2\n    target: {card: creature"
    )
    text = text.replace("amount: 3", "amount: 1").replace(
        "targeting B", "targeting Grizzly Bears and B"
    )
    assert decide(text, "always life_points(B) == 19", engine) == "holds"
    assert decide(text, 'always zone("Grizzly Bears") == battlefield', engine) == "holds"


def test_traces_name_the_targeted_player(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", BOLT + "  - claim: exists life_points(B) == 17\n")
    out = run("check", str(path)).out
    assert "A casts Lightning Bolt targeting B (onto the stack)" in out
    assert "Lightning Bolt deals 3 damage to B" in out


def test_a_player_target_is_the_index_after_the_cards(write: Callable[[str, str], Path]) -> None:
    system = build_system(load_scenario(write("s.yaml", BOLT)))
    cards = system.world.n
    bolt = next(a for a in system.world.abilities if a.label == "Lightning Bolt")
    targets = {a.target for a in system.actions if a.kind == "activate" and a.ability == bolt.index}
    assert targets == {0, cards, cards + 1}  # the Bears, A and B


@pytest.mark.parametrize("engine", ENGINES)
def test_tokens_enter_under_their_creators_control_and_cease_to_exist(
    decide: Callable[..., str], engine: str
) -> None:
    assert decide(TOKENS, 'zone("Soldier Token 1") == none', engine) == "holds"
    assert decide(TOKENS, 'exists zone("Soldier Token 2") == graveyard', engine) == "fails"
    after = 'always after_link(2) zone("Soldier Token 1") == battlefield'
    assert decide(TOKENS, after, engine) == "holds"
    owner = 'always after_link(2) controller("Soldier Token 2") == A'
    assert decide(TOKENS, owner, engine) == "holds"
    # B may Bolt a Soldier between the two resolutions: it still ends nowhere.
    bolted = 'exists activates(B, "Lightning Bolt") and zone("Soldier Token 1") == none'
    assert decide(TOKENS, bolted, engine) == "holds"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_token_not_created_yet_is_nowhere(decide: Callable[..., str], engine: str) -> None:
    text = TOKENS.replace("  - A casts Raise the Alarm\n", "")
    assert decide(text, 'always zone("Soldier Token 1") == none', engine) == "holds"
    # A may still answer Pyroclasm with Raise the Alarm: the Soldiers exist for a while.
    made = 'exists after_link(2) zone("Soldier Token 1") == battlefield'
    assert decide(text, made, engine) == "holds"


def test_token_traces(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    out = run("explain", str(write("s.yaml", TOKENS))).out
    assert (
        "Soldier Token 1, Soldier Token 2 are created on the battlefield under A's control "
        "(tokens, CR 111.2)" in out
    )
    assert "Soldier Token 1, Soldier Token 2 cease to exist (tokens, CR 704.5d)" in out


def test_token_slots_are_numbered_per_name(write: Callable[[str, str], Path]) -> None:
    text = TOKENS.replace(
        "  Lightning Bolt:",
        "  Raise the Alarm 2: {card: Raise the Alarm, controller: B}\n  Lightning Bolt:",
    )
    scenario = load_scenario(write("s.yaml", text))
    tokens = [(c.name, c.controller, c.atk, c.defense) for c in scenario.cards if c.token]
    assert tokens == [
        ("Soldier Token 1", 0, 1, 1),
        ("Soldier Token 2", 0, 1, 1),
        ("Soldier Token 3", 1, 1, 1),
        ("Soldier Token 4", 1, 1, 1),
    ]


def test_more_tokens_than_slots_is_unknown(decide: Callable[..., str]) -> None:
    # An ability that makes one Soldier each time, with one slot: a second Soldier while the
    # first is there is past the scenario's slots, and a claim that needs it is unknown.
    text = """rules: mtg
turn: A
life-points: 20
cards:
  Barracks:
    kind: creature
    controller: A
    power: 0
    toughness: 1
    ability:
      type: activated
      effect: {create-token: {name: Soldier, power: 1, toughness: 1}}
claims: []
"""
    assert decide(text, 'exists zone("Soldier Token 1") == battlefield') == "holds"
    assert decide(text, 'always zone("Soldier Token 1") == none') == "fails"
    assert decide(text, "always chain_length <= 1") == "unknown"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "  - A casts Lightning Bolt targeting B\n",
            "  - A casts Lightning Bolt targeting B\n  - B casts Sign in Blood targeting Grizzly "
            "Bears\n",
            "error: history step 'B casts Sign in Blood targeting Grizzly Bears' targets the "
            "card Grizzly Bears, but Sign in Blood targets a player",
        ),
        (
            "    target: {card: creature, zone: battlefield, player: any}",
            "    target: {card: creature, zone: battlefield}",
            "error: history step 'A casts Lightning Bolt targeting B' targets the player B, but "
            "Lightning Bolt targets a card, not a player",
        ),
        (
            "    effect: {lose-lp: 3, player: target}",
            "    effect: {lose-lp: 3, player: target}\n    cost: {tribute: {player: any}}",
            "error: 'player' says which players a spell or ability may target; only a 'target' "
            "filter takes it",
        ),
        (
            "    target: {player: opponent}",
            "    target: {card: creature, zone: battlefield}",
            "error: Bump in the Night's effect acts on its target player ('player: target'), but "
            "it targets no player",
        ),
        (
            "    target: {player: opponent}",
            "    target: {player: everyone}",
            "error: unknown value 'everyone' for 'player'",
        ),
    ],
    ids=["card-not-player", "player-not-card", "player-in-cost", "no-player-target", "bad-side"],
)
def test_player_target_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path], old: str, new: str, message: str
) -> None:
    assert old in BOLT
    lines = bad_input(run, write("s.yaml", BOLT.replace(old, new, 1)))
    assert message in lines[0], lines
    assert lines[0].split(":")[1].isdigit()  # path:line:col: error: ...


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("name: Soldier, ", "", "error: missing key 'name'"),
        ("name: Soldier", 'name: ""', "error: wrong type for 'name'"),
        ("count: 2, ", "count: 2, slots: 1, ", "error: 'slots: 1' is fewer than the 2 tokens"),
        ("count: 2", "count: 9", "count"),
        (
            "  Lightning Bolt:",
            "  Soldier Token 2: {kind: creature, controller: B, power: 1, toughness: 1}\n"
            "  Lightning Bolt:",
            "error: Raise the Alarm creates 'Soldier Token 2', and the scenario has a card of "
            "that name",
        ),
        (
            "rules: mtg",
            "rules: yugioh",
            "needs the state-based action 'token-ceases'",
        ),
    ],
    ids=["no-name", "empty-name", "few-slots", "too-many", "name-taken", "no-sba"],
)
def test_token_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path], old: str, new: str, message: str
) -> None:
    assert old in TOKENS
    text = TOKENS.replace(old, new, 1)
    if new == "rules: yugioh":
        text = text.replace("step: main1\n", "").replace("history:\n  - A casts Pyroclasm\n", "")
        text = text.replace("  - A casts Raise the Alarm\n", "")
        text = text.replace("kind: sorcery", "kind: normal-spell")
        text = text.replace("kind: instant", "kind: quick-play-spell")
        text = text.replace("creature", "monster").replace("battlefield", "field")
    lines = bad_input(run, write("s.yaml", text))
    assert message in lines[0], lines
    assert lines[0].split(":")[1].isdigit()  # path:line:col: error: ...


def test_zone_none_is_only_for_scenarios_with_tokens(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", BOLT.replace("life_points(B) == 17", 'zone("Grizzly Bears") == none'))
    assert "unknown zone 'none'" in _error(run, path)


SPLIT = """rules: mtg
turn: A
life-points: 20
cards:
  Grizzly Bears: {kind: creature, controller: B, power: 2, toughness: 2}
  Hill Giant: {kind: creature, controller: A, power: 3, toughness: 3}
  Twin Shot:
    kind: instant
    controller: A
    target: [{card: creature, zone: battlefield, controller: opponent}, {player: any}]
    effect: {damage: {amount: 2, to: target}}
history:
  - A casts Twin Shot targeting Grizzly Bears and B
claims:
  - claim: life_points(B) == 18
    expect: holds
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_filter_per_target(decide: Callable[..., str], engine: str) -> None:
    # "Target creature an opponent controls and target player": each target fits its own
    # filter, in the order named, and each is dealt the damage.
    assert decide(SPLIT, "always life_points(B) == 18", engine) == "holds"
    assert decide(SPLIT, 'always zone("Grizzly Bears") == graveyard', engine) == "holds"
    free = SPLIT.replace("history:\n  - A casts Twin Shot targeting Grizzly Bears and B\n", "")
    assert decide(free, 'exists zone("Hill Giant") == graveyard', engine) == "fails"
    assert decide(free, "exists life_points(A) == 18", engine) == "holds"
    assert decide(free, "exists life_points(B) == 16", engine) == "fails"  # two players: no


def test_a_filter_per_target_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    swapped = SPLIT.replace("targeting Grizzly Bears and B", "targeting B and Grizzly Bears")
    line = _error(run, write("s.yaml", swapped))
    assert "targets the player B, but Twin Shot targets a card, not a player" in line
    both = SPLIT.replace("    target: [", "    targets: 2\n    target: [")
    assert "a list of two target filters is two targets already" in _error(
        run, write("t.yaml", both)
    )
    three = SPLIT.replace("{player: any}]", "{player: any}, {player: any}]")
    assert "target" in _error(run, write("u.yaml", three))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_player_of_a_second_filter_is_the_target_player(
    decide: Callable[..., str], engine: str
) -> None:
    # Only the second filter names players: "player: target" is that player.
    text = SPLIT.replace("{damage: {amount: 2, to: target}}", "{lose-lp: 3, player: target}")
    assert decide(text, "always life_points(B) == 17", engine) == "holds"
    assert decide(text, 'zone("Grizzly Bears") == battlefield', engine) == "holds"
