"""The Python API: ``verifier.check`` and ``verifier.ask`` on files, mappings and YAML text,
frozen results, and bad input as exceptions that carry their place."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from ruamel.yaml import YAML

import verifier
from tests.conftest import EXAMPLES, GOOD, Run
from verifier import (
    ClaimError,
    InMemory,
    InputError,
    Result,
    ScenarioError,
    TraceStep,
    Verdict,
    VerifierError,
)

RAIGEKI = EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"


def _data() -> dict[str, object]:
    data = YAML(typ="safe").load(GOOD)
    assert isinstance(data, dict)
    return data


def test_the_package_exports_the_api() -> None:
    for name in verifier.__all__:
        assert getattr(verifier, name) is not None
    assert {"check", "ask", "Result", "Verdict", "VerifierError", "InMemory"} <= set(
        verifier.__all__
    )


def test_check_a_file_gives_frozen_results_in_the_files_order() -> None:
    results = verifier.check(RAIGEKI)
    assert [r.id for r in results] == [f"claim-{n}" for n in range(1, 8)]
    first = results[0]
    assert isinstance(first, Result)
    assert first.file == str(RAIGEKI)
    assert first.claim == 'resolution_order == ["Dark Bribe", "Imperial Order", "Raigeki"]'
    assert first.verdict is Verdict.HOLDS
    assert first.expected == "holds"
    assert first.engine == "auto: explore"
    assert isinstance(first.seconds, float) and first.seconds >= 0
    assert first.as_expected and not first.differs
    assert results[4].verdict is Verdict.FAILS  # can_respond(B): only Spell Speed 3 answers
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.verdict = Verdict.FAILS  # type: ignore[misc]
    assert not hasattr(first, "__dict__")  # a slotted dataclass, not a dict in disguise


def test_check_agrees_with_the_command_line(run: Callable[..., Run]) -> None:
    cli = json.loads(run("check", "--json", str(RAIGEKI)).out)["claims"]
    api = verifier.check(str(RAIGEKI))
    assert [(c["id"], c["verdict"], c["engine"]) for c in cli] == [
        (r.id, r.verdict.value, r.engine) for r in api
    ]


def test_a_mapping_and_yaml_text_are_checked_like_a_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(GOOD, encoding="utf-8")
    from_file = verifier.check(path)
    from_mapping = verifier.check(_data())
    from_text = verifier.check(InMemory("mine.yaml", GOOD))
    for results in (from_file, from_mapping, from_text):
        [result] = results
        assert result.verdict is Verdict.HOLDS
        assert result.role == "witness"
        assert [s.card for s in result.trace if s.kind == "activation"] == [
            "Raigeki",
            "Mirror Force",
        ]
    assert from_mapping[0].file == "<memory>.yaml"
    assert from_text[0].file == "mine.yaml"
    assert from_file[0].trace == from_text[0].trace


def test_ask_decides_one_claim_with_its_trace() -> None:
    result = verifier.ask(RAIGEKI, 'exists resolves("Raigeki")')
    assert result.id == "ask"
    assert result.claim == 'exists resolves("Raigeki")'
    assert result.verdict is Verdict.HOLDS
    assert result.expected is None
    assert result.role == "witness"
    assert all(isinstance(s, TraceStep) for s in result.trace)
    assert any(s.kind == "resolution" and s.card == "Raigeki" for s in result.trace)
    refuted = verifier.ask(_data(), 'always zone("Mirror Force") == field')
    assert refuted.verdict is Verdict.FAILS
    assert refuted.role == "counterexample"
    assert "B activates Mirror Force (Chain Link 2)" in [s.text for s in refuted.trace]


def test_a_limit_gives_unknown_not_a_guess() -> None:
    result = verifier.ask(RAIGEKI, "can_respond(B)", engine="explore", max_states=1)
    assert result.verdict is Verdict.UNKNOWN
    assert "state limit" in result.detail


def test_bad_input_raises_an_error_with_its_place() -> None:
    data = _data()
    data["turn"] = "C"
    with pytest.raises(ScenarioError) as raised:
        verifier.check(data)
    error = raised.value
    assert isinstance(error, VerifierError)
    assert (error.path, error.line, error.col) == ("<memory>.yaml", 2, 7)
    assert error.message == "unknown player 'C' (players: A, B)"

    with pytest.raises(ClaimError) as bad_claim:
        verifier.ask(RAIGEKI, 'resolves("Nope")')
    assert (bad_claim.value.path, bad_claim.value.line, bad_claim.value.col) == ("<claim>", 1, 10)
    assert bad_claim.value.message.startswith("unknown card 'Nope'")


def test_errors_without_a_place_and_other_mistakes(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(InputError) as no_file:
        verifier.check(missing)
    assert no_file.value.message == f"no such file: {missing}"
    with pytest.raises(InputError) as not_plain:
        verifier.check({"rules": "yugioh", "cards": object()})
    assert not_plain.value.path is None and not_plain.value.line is None
    assert not_plain.value.message.startswith("a scenario given as a mapping holds only plain data")
    with pytest.raises(InputError, match="unknown engine 'fast'"):
        verifier.check(RAIGEKI, engine="fast")


def test_a_mapping_keeps_its_key_order_for_positions() -> None:
    data = _data()
    data["claims"] = ["nonsense("]
    with pytest.raises(ClaimError) as raised:
        verifier.check(data)
    assert raised.value.path == "<memory>.yaml"
    # rules, turn, cards and its 15 lines, history and its step, claims, then the claim
    assert raised.value.line == 22
    assert raised.value.span is not None and raised.value.span.text == "- nonsense("


@pytest.mark.parametrize("engine", ["auto", "explore", "smt"])
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timeout": float("nan")}, "timeout must be a finite number of seconds"),
        ({"timeout": float("inf")}, "timeout must be a finite number of seconds"),
        ({"timeout": -1}, "more than 0 and at most 604800 (got -1)"),
        ({"timeout": 0}, "more than 0 and at most 604800 (got 0)"),
        ({"timeout": 10**9}, "(got 1000000000)"),
        ({"timeout": "3"}, "(got '3')"),
        ({"max_states": 0}, "max_states must be a whole number from 1 to 10,000,000 (got 0)"),
        ({"max_states": -5}, "(got -5)"),
        ({"max_states": 2.5}, "(got 2.5)"),
        ({"max_states": True}, "(got True)"),
        ({"max_states": 10**8}, "(got 100000000)"),
    ],
)
def test_the_api_checks_its_limits_as_the_command_line_does(
    engine: str, options: dict[str, object], message: str
) -> None:
    for call in (
        lambda: verifier.check(RAIGEKI, engine=engine, **options),  # type: ignore[arg-type]
        lambda: verifier.ask(RAIGEKI, "can_respond(B)", engine=engine, **options),  # type: ignore[arg-type]
    ):
        with pytest.raises(InputError) as raised:
            call()
        assert message in str(raised.value)
