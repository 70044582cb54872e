"""Scenarios loaded from memory: designer tools and programs need no temporary files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import GOOD
from verifier.errors import ScenarioError
from verifier.io.scenario import InMemory, load_scenario
from verifier.run.check import check_scenario


def test_a_scenario_in_memory_is_checked_with_its_variants() -> None:
    text = GOOD + "  - claim: can_respond(B)\n    expect: holds\n    rules: yugioh-trigger-first\n"
    scenario = load_scenario(InMemory("mine.yaml", text))
    assert scenario.path == "mine.yaml"
    results, prepared = check_scenario(scenario)
    assert [r.verdict.value for r in results] == ["holds", "holds"]
    assert len(prepared) == 2  # the scenario, and its variant under another rule system


def test_an_error_names_the_scenario_by_its_name() -> None:
    with pytest.raises(ScenarioError) as raised:
        load_scenario(InMemory("mine.yaml", GOOD.replace("turn: A", "turn: C")))
    assert raised.value.span.path == "mine.yaml"
    assert raised.value.span.line == 2


def test_relative_references_resolve_from_its_folder(tmp_path: Path) -> None:
    models = Path(__file__).resolve().parent.parent / "models"
    (tmp_path / "mine-model.yaml").write_text(
        (models / "yugioh.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    text = GOOD.replace("rules: yugioh", "rules: mine-model.yaml")
    scenario = load_scenario(InMemory("mine.yaml", text, tmp_path))
    assert scenario.model.name == "yugioh"


def test_designer_tools_write_no_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from verifier.designer.lint import lint

    monkeypatch.chdir(tmp_path)
    models = Path(__file__).resolve().parent.parent / "models"
    report = lint(str(models / "cmc.yaml"), [])
    assert report.proofs
    assert list(tmp_path.iterdir()) == []


def test_its_folder_confines_the_library_not_its_name(tmp_path: Path) -> None:
    # The name is only what messages call the scenario: a name under another folder must not
    # let the scenario open that folder's files.
    elsewhere, own = tmp_path / "elsewhere", tmp_path / "own"
    elsewhere.mkdir()
    own.mkdir()
    (elsewhere / "lib.cards.yaml").write_text(
        "cards:\n  Pot: {kind: normal-spell, effect: {draw: 2}}\n", encoding="utf-8"
    )
    text = (
        "rules: yugioh\nturn: A\nlibrary: lib.cards.yaml\n"
        "cards:\n  Pot: {controller: A, zone: hand}\n"
    )
    with pytest.raises(ScenarioError) as raised:
        load_scenario(InMemory(str(elsewhere / "mine.yaml"), text, own))
    assert "no card library 'lib.cards.yaml'" in raised.value.message
    # From its own folder the same library is found.
    (own / "lib.cards.yaml").write_text(
        (elsewhere / "lib.cards.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    scenario = load_scenario(InMemory(str(elsewhere / "mine.yaml"), text, own))
    assert [c.name for c in scenario.cards] == ["Pot"]
