"""The commands: why, --explain, explain, explore --graph, ask, JSON output, exit codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest

from tests.conftest import EXAMPLES, GOOD, Run

RAIGEKI = str(EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml")
BASICS = str(EXAMPLES / "yugioh" / "spell-speed-basics.yaml")
SET_TURN = str(EXAMPLES / "yugioh" / "trap-set-this-turn.yaml")


@pytest.mark.full  # the SMT engine proves its bound complete for the core: seconds
def test_why_names_the_spell_speed_rule(run: Callable[..., Run]) -> None:
    result = run("why", BASICS, "B activates Card Destruction")
    assert result.code == 0
    assert "(timing.speed-1)" in result.out
    assert "a complete bound" in result.out


@pytest.mark.full
def test_why_names_the_set_turn_rule(run: Callable[..., Run]) -> None:
    result = run("why", SET_TURN, "A activates Fresh Mirror Force")
    lines = result.out.splitlines()
    assert (
        lines[1]
        .strip()
        .startswith("- a card of this kind cannot be activated in the turn it was set")
    )
    assert len(lines) == 2


@pytest.mark.full
def test_why_shows_a_continuation_when_it_is_possible(run: Callable[..., Run]) -> None:
    result = run("why", SET_TURN, "A activates Old Mirror Force")
    assert result.out.startswith("A can activate Old Mirror Force, for example:")
    assert "A activates Old Mirror Force (Chain Link 2)" in result.out


def test_why_rejects_what_is_not_an_activation(run: Callable[..., Run]) -> None:
    result = run("why", RAIGEKI, "B passes")
    assert result.code == 2
    assert result.err.startswith("<action>:1:1: error: why takes an activation")


@pytest.mark.full
def test_explain_flag_adds_the_rules_to_a_failing_claim(run: Callable[..., Run]) -> None:
    result = run("ask", "--explain", "--json", SET_TURN, 'can_activate(A, "Fresh Mirror Force")')
    [claim] = json.loads(result.out)["claims"]
    assert claim["verdict"] == "fails"
    assert any("card.set-this-turn" in line for line in claim["because"])


def test_check_json_has_the_documented_shape(run: Callable[..., Run]) -> None:
    result = run("check", "--json", "--engine", "both", RAIGEKI)
    data = json.loads(result.out)
    assert set(data) == {"claims", "errors"}
    assert data["errors"] == []
    first = data["claims"][0]
    assert {"id", "claim", "verdict", "expected", "engine", "trace", "seconds"} <= set(first)
    assert first["engine"] == "both"
    assert result.code == 0


def test_failing_always_claim_prints_a_counterexample_and_exits_1(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = (
        Path(RAIGEKI)
        .read_text(encoding="utf-8")
        .replace(
            "  - claim: can_respond(B)\n    expect: fails",
            "  - claim: can_respond(B)\n    expect: holds",
        )
    )
    result = run("check", "--json", str(write("s.yaml", text)))
    assert result.code == 1
    claims = json.loads(result.out)["claims"]
    bad = [c for c in claims if c["verdict"] != c["expected"]]
    assert [c["claim"] for c in bad] == ["can_respond(B)"]


def test_ask_prints_the_witness_of_an_exists_claim(run: Callable[..., Run]) -> None:
    result = run("ask", "--json", SET_TURN, 'can_activate(A, "Old Mirror Force")')
    [claim] = json.loads(result.out)["claims"]
    assert claim["verdict"] == "holds" and claim["role"] == "witness"
    kinds = [step["kind"] for step in claim["trace"]]
    assert kinds[0] == "activation" and "resolution" in kinds and kinds[-1] == "cleanup"
    activations = [s for s in claim["trace"] if s["kind"] == "activation"]
    assert [(s["player"], s["card"], s["link"]) for s in activations] == [
        ("B", "Pot of Greed", 1),
        ("A", "Old Mirror Force", 2),
    ]


def test_explain_narrates_the_resolution_in_order(run: Callable[..., Run]) -> None:
    result = run("explain", RAIGEKI)
    lines = [line.strip() for line in result.out.splitlines()]
    order = [line for line in lines if line.startswith("Chain Link")]
    assert order == [
        "Chain Link 3: Dark Bribe resolves",
        "Chain Link 2: Imperial Order: its activation was negated; nothing happens",
        "Chain Link 1: Raigeki resolves",
    ]
    assert lines[-2:] == [
        "the chain has resolved: Raigeki, Dark Bribe go to the graveyard",
        "No other continuation ends differently: this is how the scenario ends.",
    ]


def test_explore_writes_graphs(run: Callable[..., Run], tmp_path: Path) -> None:
    graphml = tmp_path / "g.graphml"
    result = run("explore", RAIGEKI, "--graph", str(graphml))
    assert result.code == 0
    graph = nx.read_graphml(graphml)
    assert graph.number_of_nodes() == 7
    labels = {data["label"] for _, data in graph.nodes(data=True)}
    assert "build: Raigeki > Imperial Order > Dark Bribe" in labels
    dot = tmp_path / "g.dot"
    run("explore", RAIGEKI, "--graph", str(dot))
    text = dot.read_text(encoding="utf-8")
    assert text.startswith("digraph chain {") and "-> n" in text


def test_explore_rejects_unknown_graph_formats(run: Callable[..., Run], tmp_path: Path) -> None:
    result = run("explore", RAIGEKI, "--graph", str(tmp_path / "g.png"))
    assert result.code == 2
    assert "unknown graph format" in result.err


def test_version_and_help(run: Callable[..., Run]) -> None:
    assert "verifier, version" in run("--version").out
    text = run("--help").out
    assert "Examples:" in text and "verifier check examples/" in text


def test_explain_narrates_blowback_dragon_in_the_seeds_order(run: Callable[..., Run]) -> None:
    """Seed 001's walkthrough: the links resolve 7..1, Call of the Haunted goes mid-chain,
    the cleanup sends four cards, then Sangan's two triggers make a new chain."""
    path = str(EXAMPLES / "yugioh" / "blowback-dragon-summon-chain.yaml")
    lines = [line.strip() for line in run("explain", path).out.splitlines()]
    events = [
        line
        for line in lines
        if line.startswith(
            ("Chain Link", "continuous", "the chain has resolved", "Sangan is special")
        )
        or "activates Sangan" in line
    ]
    assert events == [
        "Chain Link 7: Call of the Haunted resolves",
        "Sangan is special summoned",
        "Chain Link 6: Torrential Tribute resolves",
        "continuous effect: Call of the Haunted is destroyed (bound to a card that left or was destroyed)",
        "Chain Link 5: Book of Moon resolves without effect (its target is gone or no longer fits)",
        "Chain Link 4: Enemy Controller resolves without effect (its target is gone or no longer fits)",
        "Chain Link 3: Interdimensional Matter Transporter resolves without effect (its target is gone or no longer fits)",
        "Chain Link 2: Bottomless Trap Hole resolves without effect (its target is gone or no longer fits)",
        "Chain Link 1: Blowback Dragon resolves",
        "the chain has resolved: Interdimensional Matter Transporter, Book of Moon, Enemy Controller, Torrential Tribute go to the graveyard",
        "15. B activates Sangan's trigger effect (Chain Link 1)",
        "16. B activates Sangan's trigger effect (Chain Link 2)",
        "Chain Link 2: Sangan resolves",
        "Chain Link 1: Sangan resolves",
        "the chain has resolved: no card goes to the graveyard",
    ]


def test_a_disagreement_between_the_engines_is_loud(
    run: Callable[..., Run], monkeypatch: object
) -> None:
    """Feed the SMT engine a wrong answer: check --engine both must say so and exit 1."""
    import pytest

    from verifier.engines.base import Search
    from verifier.engines.smt.engine import SmtEngine

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    honest = SmtEngine.search

    def contrary(self: SmtEngine, body: object, want: bool) -> Search:
        found = honest(self, body, want)  # type: ignore[arg-type]
        return Search(None, True, "", found.stats) if found.found is not None else found

    monkeypatch.setattr(SmtEngine, "search", contrary)
    result = run("check", "--engine", "both", SET_TURN)
    assert result.code == 1
    assert "DISAGREE" in result.out
    assert "the engines disagree: explore says holds, smt says fails" in result.out
    assert "explore's witness:" in result.out


def _trap_pool(size: int) -> str:
    """``size`` set traps, half each side: many continuations, none longer than ``size`` links."""
    cards = "".join(
        f"  Trap {i}: {{kind: {'normal' if i % 4 < 2 else 'counter'}-trap, "
        f"controller: {'AB'[i % 2]}, set: earlier-turn, effect: {{draw: 1}}}}\n"
        for i in range(size)
    )
    return f"rules: yugioh\nturn: A\ncards:\n{cards}claims:\n  - claim: chain_length <= {size}\n"


def test_the_state_limit_gives_unknown_and_exit_3(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = str(write("pool.yaml", _trap_pool(4)))
    limited = run("check", "--engine", "explore", "--max-states", "20", path)
    assert limited.code == 3
    assert "unknown  undecided" in limited.out
    assert "the exploration reached its state limit (20; --max-states raises it" in limited.out
    assert "1 unknown" in limited.out.splitlines()[-1]
    assert run("check", path).code == 0


def test_the_time_limit_gives_unknown_under_either_engine(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = str(write("pool.yaml", _trap_pool(8)))
    explored = run("ask", "--json", "--timeout", "0.001", path, "chain_length <= 8")
    [claim] = json.loads(explored.out)["claims"]
    assert explored.code == 3
    assert claim["verdict"] == "unknown"
    assert claim["detail"].startswith("the exploration ran out of time after")
    proved = run("ask", "--engine", "smt", "--timeout", "0.5", path, "chain_length <= 8")
    assert proved.code == 3
    assert "unknown" in proved.out


def test_a_state_limit_below_one_is_a_usage_error(run: Callable[..., Run]) -> None:
    result = run("check", "--max-states", "0", BASICS)
    assert result.code == 2
    assert "--max-states" in result.err


def test_bare_verifier_shows_what_it_can_do(run: Callable[..., Run]) -> None:
    result = run()
    assert result.code == 0, result
    assert "Commands:" in result.out and "check" in result.out
    assert "Magic" in result.out


def test_summary_prints_a_line_per_file_and_only_the_claims_not_as_expected(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    good = write("good.yaml", GOOD)
    text = GOOD + '  - claim: resolves("Mirror Force")\n    expect: holds\n'
    text += '  - claim: exists resolves("Raigeki")\n'
    wrong = write("wrong.yaml", text)
    result = run("check", "--summary", "--quiet", str(good), str(wrong))
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0] == f"{good} (yugioh): 1 claim(s), all as expected"
    assert lines[1] == f"{wrong} (yugioh): 3 claim(s): 2 as expected, 1 not"
    assert lines[2].startswith("  holds    EXPECTED FAILS ") or lines[2].startswith(
        "  fails    EXPECTED HOLDS "
    )
    assert 'claim-2: resolves("Mirror Force")' in lines[2]
    assert "counterexample:" in result.out  # the claim not as expected, in full
    assert "claim-1" not in result.out and "claim-3" not in result.out
    assert lines[-1] == "4 claim(s) in 2 file(s): 3 as expected, 1 not"
