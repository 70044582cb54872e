"""A history that stops after one Chain Link resolves: "Chain Link N resolves" resolves the
chain backwards until link N has, and the continuations go on from there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, bad_input

Decide = Callable[..., str]

CHAIN = """\
rules: yugioh
turn: A
cards:
  Raigeki: {{kind: normal-spell, controller: A, zone: hand, effect: {{destroy: all-monsters, of: opponent}}}}
  Jar: {{kind: quick-play-spell, controller: B, set: earlier-turn, effect: {{draw: 1}}}}
  Bribe:
    kind: counter-trap
    controller: A
    set: earlier-turn
    when: {{activates: [spell, trap]}}
    effect: [{{negate: activation}}, {{destroy: that-card}}]
  Dragon: {{kind: normal-monster, controller: B, atk: 3000}}
history:
  - A activates Raigeki
  - B activates Jar
  - A activates Bribe
  - {stop}
claims:
  - claim: chain_length == 3
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_history_stops_after_the_link(decide: Decide, engine: str) -> None:
    # Bribe (Chain Link 3) negates Jar; Jar (2) does nothing; Raigeki (1) is still to resolve,
    # and no player acts between two links.
    after_3 = CHAIN.format(stop="Chain Link 3 resolves")
    assert decide(after_3, 'negated("Jar") and cards_drawn(B) == 0', engine) == "holds"
    assert decide(after_3, 'zone("Dragon") == graveyard and resolves("Raigeki")', engine) == "holds"
    after_2 = CHAIN.format(stop="Chain Link 2 resolves")
    assert (
        decide(after_2, 'always (zone("Dragon") == graveyard and cards_drawn(B) == 0)', engine)
        == "holds"
    )


def test_the_stopped_history_is_told_to_its_last_link(tmp_path: Path) -> None:
    from verifier.io.scenario import load_scenario
    from verifier.run.check import prepare

    path = tmp_path / "s.yaml"
    path.write_text(CHAIN.format(stop="Chain Link 2 resolves"), encoding="utf-8")
    told = [s.text for s in prepare(load_scenario(path)).history.steps]
    assert told[-4:] == [
        "Chain Link 3: Bribe resolves",
        "the activation of Jar is negated",
        "Jar is destroyed",
        "Chain Link 2: Jar: its activation was negated; nothing happens",
    ]
    assert not any(t.startswith("Chain Link 1:") for t in told)  # Raigeki is still to resolve


@pytest.mark.parametrize(
    ("stop", "message"),
    [
        (
            "Chain Link 4 resolves",
            "'Chain Link 4 resolves': the chain has 3 link(s), no Chain Link 4",
        ),
        ("Chain Link 0 resolves", "Chain Links are numbered from 1"),
    ],
)
def test_a_link_the_chain_does_not_have(
    run: Callable[..., Run], tmp_path: Path, stop: str, message: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(CHAIN.format(stop=stop), encoding="utf-8")
    lines = bad_input(run, path)
    assert lines[0].startswith(f"{path}:17:") and lines[0].endswith(f"error: {message}"), lines


def test_a_link_resolved_already(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        CHAIN.format(stop="Chain Link 3 resolves\n  - Chain Link 3 resolves"), encoding="utf-8"
    )
    lines = bad_input(run, path)
    assert lines[0].endswith("error: 'Chain Link 3 resolves': that link has resolved already")


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_top_link_resolves(decide: Decide, engine: str) -> None:
    # "the top object resolves" is the link on top then: Bribe (Chain Link 3) here.
    top = CHAIN.format(stop="the top object resolves")
    assert decide(top, 'negated("Jar") and cards_drawn(B) == 0', engine) == "holds"
    assert decide(top, "chain_length == 3", engine) == "holds"


def test_the_top_link_of_no_chain(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    text = CHAIN.format(stop="the top link of the chain resolves").replace(
        "  - A activates Raigeki\n  - B activates Jar\n  - A activates Bribe\n", ""
    )
    path.write_text(text, encoding="utf-8")
    lines = bad_input(run, path)
    assert lines[0].endswith(
        "error: 'the top link of the chain resolves': there is no chain to resolve"
    ), lines
