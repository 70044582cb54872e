"""No module of the package outside ``verifier/games/`` names a bundled game in its code.

What is particular to a game is the game's own (:class:`verifier.games.Game`): the rules,
the loader, the generator and the web page ask the game, never test its name. A string in
the code equal to a bundled game's name (``"cmc"``) or starting with it and a hyphen (a
rule system named after it: ``"cmc-instant"``) is such a test; documentation is not (a
module's, a class's or a function's docstring, and any other string standing alone as a
statement, as attributes are documented).

So a fourth game, defined only here, is written by the scenario generator from what it
says of itself (its :class:`~verifier.games.Drafting`).
"""

from __future__ import annotations

import ast
import importlib
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import verifier
from verifier.designer.generate import RandomChooser, claim_text, claims_for, scenario
from verifier.games import Drafting, Game, register, unregister
from verifier.io.scenario import InMemory, load_scenario, parse_for

PACKAGE = Path(verifier.__file__).resolve().parent
ROOT = PACKAGE.parent
GAMES = PACKAGE / "games"


def _bundled() -> tuple[str, ...]:
    """The names of the games bundled with the package: one subpackage of ``games/`` each."""
    names = []
    for folder in sorted(GAMES.iterdir()):
        if (folder / "__init__.py").is_file():
            module = importlib.import_module(f"verifier.games.{folder.name}")
            names.append(module.GAME.name)
    return tuple(names)


BUNDLED = _bundled()


def names_a_game(value: str) -> bool:
    """Whether ``value`` is a bundled game's name, or starts with one and a hyphen."""
    return value in BUNDLED or value.startswith(tuple(f"{name}-" for name in BUNDLED))


def _documentation(tree: ast.AST) -> set[int]:
    """The ids of the string constants that stand alone as statements (docstrings)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def game_names(source: str, filename: str = "<source>") -> list[tuple[int, int, str]]:
    """The strings of ``source``'s code that name a bundled game, with their lines and
    columns."""
    tree = ast.parse(source, filename)
    skipped = _documentation(tree)
    return sorted(
        (node.lineno, node.col_offset, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and names_a_game(node.value)
    )


def _modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if GAMES not in path.parents)


def _found() -> dict[str, list[tuple[int, int, str]]]:
    found = {}
    for path in _modules():
        names = game_names(path.read_text(encoding="utf-8"), str(path))
        if names:
            found[path.relative_to(ROOT).as_posix()] = names
    return found


def test_the_bundled_games_are_known() -> None:
    assert {"yugioh", "cmc", "mtg"} <= set(BUNDLED)


def test_the_check_finds_a_game_name_in_code_and_not_in_documentation() -> None:
    source = '''
"""A module about yugioh."""
def f(game, rules):
    """cmc"""
    if game == "cmc" or rules.startswith(("mtg", "x")):
        return {"yugioh": 1}
    "mtg"
    return f"mtg-{rules}", "cmc-instant", "yugiohs", "cmcx", "a yugioh"
'''
    assert [(line, value) for line, _, value in game_names(source)] == [
        (5, "cmc"),
        (5, "mtg"),
        (6, "yugioh"),
        (8, "mtg-"),
        (8, "cmc-instant"),
    ]


def test_no_game_name_outside_the_games() -> None:
    found = _found()
    assert not found, "\n".join(
        f"{path}:{line}:{col + 1}: {value!r}"
        for path, names in found.items()
        for line, col, value in names
    )


# -- a fourth game, written by the generator from its drafting --------------------------------

TIDE = Game(
    name="tide",
    title="Tide",
    card_types=frozenset({"monster", "spell"}),
    zones=frozenset({"deck", "hand", "field", "graveyard", "banished"}),
    phases=("main",),
    fields=("dizzy",),
    filter_keys=frozenset({"dizzy"}),
    verbs=frozenset({"destroy", "draw", "gain-lp", "lose-lp", "dizzy", "undizzy"}),
    drafting=Drafting(
        cards="speed-stack", speeds=("S", "A", "B"), speed_modifiers=True, dizzy_costs=True
    ),
)
"""A toy game of three speeds: monsters' abilities and spells on a resolve stack."""

UNDRAFTED = Game(
    name="undrafted",
    title="Undrafted",
    card_types=frozenset({"monster"}),
    zones=frozenset({"hand", "field"}),
    phases=("main",),
)
"""A toy game that says nothing of how to write its scenarios."""


@pytest.fixture
def tide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Game]:
    """Tide registered, and its rule system (the speed system's, on three speeds) found by
    name."""
    text = (ROOT / "models" / "cmc.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^name: cmc$", "name: tide", text)
    text = re.sub(r"(?m)^game: cmc$", "game: tide", text)
    text = text.replace("speeds: [S, A, B, C, D, E]", "speeds: [S, A, B]")
    text = text.replace("slow_limit: E ", "slow_limit: B ")
    (tmp_path / "tide.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("VERIFIER_MODELS", str(tmp_path))
    register(TIDE)
    yield TIDE
    unregister(TIDE.name)


def _speeds(node: object) -> set[str]:
    if isinstance(node, dict):
        found = {node["speed"]} if isinstance(node.get("speed"), str) else set()
        return found.union(*(_speeds(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_speeds(value) for value in node))
    return set()


@pytest.mark.usefixtures("tide")
def test_the_generator_writes_a_fourth_game_from_its_drafting() -> None:
    speeds: set[str] = set()
    kinds: set[str] = set()
    walked = claims = 0
    for seed in range(12):
        chooser = RandomChooser(seed)
        data = scenario(chooser, "tide", decks=True)
        assert data["rules"] == "tide"
        loaded = load_scenario(InMemory("tide.yaml", json.dumps(data)))
        assert loaded.model.game == "tide"
        for entry in claims_for(chooser, data, 3):
            parse_for(loaded, claim_text(entry))  # in the game's words (no Battle Phase's)
            claims += 1
        walked += bool(data["history"])
        speeds |= _speeds(data["cards"])
        kinds |= {card.get("kind", "") for card in data["cards"].values()}
    # Its cards are of its style, at its speeds, with legal histories; its claims parse.
    assert speeds == {"S", "A", "B"}
    assert kinds <= {"monster", "spell", ""} and "monster" in kinds
    assert walked >= 6
    assert claims == 36


def test_a_game_without_drafting_is_refused_plainly() -> None:
    register(UNDRAFTED)
    try:
        with pytest.raises(ValueError, match="Undrafted's drafting names no card style"):
            scenario(RandomChooser(0), "undrafted")
    finally:
        unregister(UNDRAFTED.name)
