"""The README's first five minutes work as written: its two set-up commands, and each first
scenario it shows decides as the file expects, from a folder of its own (the card libraries
named, not copied)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, Run

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.index("\n## ", start + 1)
    return README[start:end]


FIRST = re.findall(r"```yaml\n(.*?)```", _section("Your first five minutes"), re.DOTALL)


def test_the_quick_start_has_exactly_two_commands() -> None:
    commands = re.findall(r"```sh\n(.*?)```", _section("Quick start"), re.DOTALL)
    assert [c.strip() for c in commands] == [
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && "
        "verifier check --summary examples/",
        "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]' && pytest",
    ]


def test_there_is_a_first_scenario_for_each_game() -> None:
    rules = [re.search(r"^rules: (\S+)$", text, re.MULTILINE) for text in FIRST]
    assert [m.group(1) for m in rules if m] == ["yugioh", "mtg", "cmc"]


@pytest.mark.parametrize("text", FIRST, ids=["yugioh", "mtg", "cmc"])
def test_each_first_scenario_decides_as_it_expects(
    text: str, run: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "first.yaml").write_text(text, encoding="utf-8")
    result = run("check", "--summary", "first.yaml")
    assert result.code == 0, result.out + result.err
    claims = text.count("- claim:")
    assert result.out.splitlines()[0].endswith(f": {claims} claim(s), all as expected")
