"""A third game, defined only here, goes through the seam: registered by name, its own
vocabulary, optional fields, wording and rulebook, decided by both engines."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import MappingProxyType

import pytest

from tests.conftest import Run
from verifier.games import Game, Wording, register, unregister

HERE = Path(__file__).resolve().parent / "relay"
MODEL = HERE / "relay.yaml"
SCENARIO = HERE / "handoff.yaml"

RELAY = Game(
    name="relay",
    title="Relay",
    card_types=frozenset({"monster", "spell"}),
    zones=frozenset({"deck", "hand", "field", "graveyard"}),
    phases=("lap",),
    wording=Wording(
        chain="queue",
        activate_card="plays",
        activate_effect="triggers",
        link="Slot {n}",
        added="queued in slot {n}",
        outcomes=MappingProxyType(
            {
                "resolved": "{head} takes effect",
                "no-effect": "{head} fizzles",
                "effect-negated": "{head} is cancelled",
                "activation-negated": "{head} was cancelled before it started",
            }
        ),
    ),
    rulebook=MappingProxyType(
        {"timing.speed-1": "a play only starts the queue, in its player's own lap"}
    ),
)


@pytest.fixture
def relay() -> Iterator[Game]:
    register(RELAY)
    yield RELAY
    unregister(RELAY.name)


def test_an_unregistered_game_is_refused_at_its_line(run: Callable[..., Run]) -> None:
    result = run("lint", str(MODEL))
    assert result.code == 2
    assert f"{MODEL}:4:7: error: unknown game 'relay' (known: yugioh, cmc, mtg)" in result.err


@pytest.mark.usefixtures("relay")
@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_both_engines_decide_the_third_game(run: Callable[..., Run], engine: str) -> None:
    result = run("check", "--json", "--engine", engine, str(SCENARIO))
    assert result.code == 0, result.out + result.err
    verdicts = [(c["claim"], c["verdict"]) for c in json.loads(result.out)["claims"]]
    assert verdicts == [
        ('resolution_order == ["Baton", "Dash"]', "holds"),
        ("life_points(B) == 7800", "holds"),
        ("can_respond(A)", "fails"),
    ]


@pytest.mark.usefixtures("relay")
def test_traces_speak_the_games_words(run: Callable[..., Run]) -> None:
    result = run("explain", str(SCENARIO))
    assert result.code == 0, result.err
    assert "A plays Baton (queued in slot 1)" in result.out
    assert "B plays Dash (queued in slot 2)" in result.out
    assert "Slot 1: Baton takes effect" in result.out
    assert "both players passed: the queue resolves, the one cast first" in result.out
    assert "the queue has resolved" in result.out
    order = result.out.index("Slot 1: Baton takes effect")
    assert order < result.out.index("Slot 2: Dash takes effect")


@pytest.mark.usefixtures("relay")
def test_the_rulebook_speaks_the_games_words(run: Callable[..., Run]) -> None:
    result = run("why", str(SCENARIO), "B activates Jog")
    assert "a play only starts the queue, in its player's own lap (timing.speed-1)" in result.out


@pytest.mark.usefixtures("relay")
def test_the_schema_lists_registered_games(run: Callable[..., Run]) -> None:
    schema = json.loads(run("schema", "model").out)
    assert schema["properties"]["game"]["enum"] == ["yugioh", "cmc", "mtg", "relay"]


@pytest.mark.usefixtures("relay")
@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("runner:  {card: monster}", "runner:  {card: trap}", "Relay has no 'trap' cards"),
        ("phases: [lap]", "phases: [lap, battle]", "Relay has no phase 'battle'"),
    ],
)
def test_a_models_vocabulary_is_the_games(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    old: str,
    new: str,
    message: str,
) -> None:
    model = write("relay.yaml", MODEL.read_text(encoding="utf-8").replace(old, new))
    result = run("lint", str(model))
    assert result.code == 2
    assert message in result.err


@pytest.mark.usefixtures("relay")
@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("controller: B}", "controller: B, zone: banished}", "Relay has no banished zone"),
        ("controller: B}", "controller: B, dizzy: true}", "'dizzy' is not a notion of Relay"),
        ("expect: fails", 'expect: fails\n  - dizzy("Runner")', "'dizzy' is not a notion"),
    ],
)
def test_a_scenarios_vocabulary_is_the_games(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    old: str,
    new: str,
    message: str,
) -> None:
    write("relay.yaml", MODEL.read_text(encoding="utf-8"))
    text = SCENARIO.read_text(encoding="utf-8").replace(old, new)
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 2
    assert message in result.err
