"""Small random scenarios and claims, for cross-checking the engines and comparing models.

Generation is driven by a :class:`Chooser`, so the same code serves hypothesis (which can
shrink a failing case) and a seeded ``random.Random`` (for ``verifier diff``'s search).
Scenarios come out as plain data, written as JSON, which every YAML loader reads.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from ruamel.yaml import YAML

__all__ = ["Chooser", "RandomChooser", "claim", "scenario", "to_text"]

T = TypeVar("T")


class Chooser(Protocol):
    """Where the choices come from."""

    def pick(self, options: Sequence[T]) -> T: ...

    def integer(self, low: int, high: int) -> int: ...


class RandomChooser:
    """Choices from a seeded random generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


YUGIOH_SPELLS_TRAPS = (
    "normal-spell",
    "quick-play-spell",
    "continuous-spell",
    "normal-trap",
    "continuous-trap",
    "counter-trap",
)
TARGETS = (
    {"card": "monster", "zone": "field", "face": "up"},
    {"card": "spell-trap", "zone": "field"},
    {"card": "monster", "zone": "graveyard"},
    {"card": "card", "zone": "field", "other": True},
)
TARGETED_EFFECTS = {
    0: ["destroy", "banish", "flip-face-down", "take-control", "return-to-hand"],
    1: ["destroy", "banish", "send-to-graveyard"],
    2: ["special-summon", "banish"],
    3: ["destroy", "send-to-graveyard"],
}
UNTARGETED_EFFECTS = (
    {"draw": 1},
    {"destroy": "all-monsters", "of": "opponent"},
    {"destroy": "all-monsters"},
    {"negate": "activation"},
    {"negate": "effect"},
    {"lose-lp": 1000, "player": "opponent"},
    {"destroy": "that-card"},
)


def _effect_card(c: Chooser, name: str, player: str, kind: str, game: str) -> dict[str, Any]:
    card: dict[str, Any] = {"kind": kind, "controller": player}
    if kind.endswith("trap") or c.integer(0, 2) == 0:
        card["set"] = c.pick(["earlier-turn", "earlier-turn", "this-turn"])
    else:
        card["zone"] = "hand"
    _activation(c, card, game)
    return card


def _activation(c: Chooser, card: dict[str, Any], game: str) -> None:
    """Fill in a condition, target, cost, effect and limits on an activation."""
    targeted = c.integer(0, 2) == 0
    if targeted:
        which = c.integer(0, len(TARGETS) - 1)
        card["target"] = dict(TARGETS[which])
        verb = c.pick(TARGETED_EFFECTS[which])
        effect: dict[str, Any] = {verb: "target"}
        if c.integer(0, 5) == 0 and game == "yugioh":
            effect = {"coin-toss": 1, "heads-at-least": 1, "then": effect}
        card["effect"] = effect
    else:
        card["effect"] = dict(c.pick(UNTARGETED_EFFECTS))
    if c.integer(0, 3) == 0:
        card["when"] = {
            "activates": c.pick([["spell", "trap"], "spell", "trap", "monster-effect"]),
            "by": c.pick(["opponent", "any"]),
        }
    if c.integer(0, 5) == 0:
        card["cost"] = {"pay-lp": 1000}
    if c.integer(0, 5) == 0:
        card["once"] = c.pick(["turn", "chain"])
    if c.integer(0, 7) == 0:
        card["no-response"] = True


def _monster(c: Chooser, player: str, game: str) -> dict[str, Any]:
    monster: dict[str, Any] = {
        "kind": "effect-monster",
        "controller": player,
        "atk": c.pick([1000, 1500, 2000]),
        "zone": c.pick(["field", "field", "graveyard"]),
    }
    shape = c.integer(0, 3)
    if shape == 0:
        monster["kind"] = "normal-monster"
        return monster
    if shape == 1:
        monster["ability"] = {
            "type": "trigger",
            "trigger": {"event": c.pick(["sent-to-graveyard", "destroyed"]), "from": "field"},
            "optional": c.pick([True, False]),
            "wording": c.pick(["when", "if"]),
            "effect": {"draw": 1},
        }
        return monster
    ability: dict[str, Any] = {"type": c.pick(["quick", "ignition"]), "once": "turn"}
    _activation(c, ability, game)
    ability.pop("no-response", None)
    if ability.get("once") is None:
        ability["once"] = "turn"
    monster["ability"] = ability
    return monster


def _negator(c: Chooser) -> dict[str, Any]:
    """A face-up continuous negation (Imperial Order, Royal Decree, Skill Drain), or one
    still set (not active)."""
    card: dict[str, Any] = {
        "kind": c.pick(["continuous-trap", "continuous-spell"]),
        "controller": c.pick(["A", "B"]),
        "continuous": {"negate-effects": c.pick(["spells", "traps", "monsters"])},
    }
    if c.integer(0, 3) == 0:
        card["set"] = "earlier-turn"
    else:
        card.update({"zone": "field", "face": "up"})
    return card


def scenario(
    c: Chooser, game: str = "yugioh", size: int | None = None, summons: bool = False
) -> dict[str, Any]:
    """A random scenario: a few cards on both sides, in an open game state.

    With ``summons`` (Yu-Gi-Oh!), the turn player may also just have summoned a monster
    with an Ignition effect, and the opponent may hold a card that answers summons.
    """
    count = size if size is not None else c.integer(2, 4)
    cards: dict[str, Any] = {}
    for i in range(count):
        player = c.pick(["A", "B"])
        name = f"Card {i + 1}"
        if game == "yugioh":
            if c.integer(0, 2) == 0:
                cards[name] = _monster(c, player, game)
            else:
                cards[name] = _effect_card(c, name, player, c.pick(YUGIOH_SPELLS_TRAPS), game)
        else:
            cards[name] = _cmc_card(c, player)
    if game == "yugioh":
        for i in range(c.pick([0, 0, 1, 2])):
            cards[f"Negator {i + 1}"] = _negator(c)
    turn = c.pick(["A", "B"])
    history: list[str] = []
    if summons and game == "yugioh" and c.integer(0, 1) == 0:
        other = "B" if turn == "A" else "A"
        cards["Summoned"] = {
            "kind": "effect-monster",
            "controller": turn,
            "zone": "hand",
            "atk": 2000,
            "ability": {"type": "ignition", "once": "turn", "effect": {"draw": 1}},
        }
        cards["Trap Hole"] = {
            "kind": "normal-trap",
            "controller": other,
            "set": "earlier-turn",
            "when": {"summoned": "monster", "by": "opponent"},
            "effect": {"destroy": "summoned"},
        }
        history.append(f"{turn} summons Summoned")
    return {
        "rules": game if game != "cmc" else c.pick(["cmc", "cmc", "cmc-instant"]),
        "turn": turn,
        "cards": cards,
        "history": history,
        "claims": [],
    }


def _cmc_card(c: Chooser, player: str) -> dict[str, Any]:
    speed = c.pick(["S", "A", "B", "C", "D", "E"])
    if c.integer(0, 1) == 0:
        return {
            "kind": "monster",
            "controller": player,
            "dizzy": c.pick([False, False, True]),
            "ability": {
                "type": "ability",
                "speed": speed,
                "cost": {"dizzy": "this"},
                "target": {"card": "monster", "zone": "field"},
                "effect": {c.pick(["destroy", "dizzy", "undizzy", "take-control"]): "target"},
            },
        }
    return {
        "kind": "spell",
        "controller": player,
        "zone": "hand",
        "speed": speed,
        "target": {"card": "monster", "zone": "field"},
        "effect": {c.pick(["destroy", "dizzy", "undizzy", "take-control"]): "target"},
    }


def claim(c: Chooser, cards: Sequence[str], depth: int = 2) -> str:
    """A random claim over the scenario's cards, with a quantifier."""
    quantifier = c.pick(["exists", "always"])
    return f"{quantifier} {_formula(c, cards, depth)}"


def _formula(c: Chooser, cards: Sequence[str], depth: int) -> str:
    if depth > 0 and c.integer(0, 2) == 0:
        op = c.pick(["and", "or"])
        left = _formula(c, cards, depth - 1)
        right = _formula(c, cards, depth - 1)
        return f"({left} {op} {right})"
    if depth > 0 and c.integer(0, 4) == 0:
        return f"not {_formula(c, cards, depth - 1)}"
    return _atom(c, cards)


def _atom(c: Chooser, cards: Sequence[str]) -> str:
    card = json.dumps(c.pick(cards))
    other = json.dumps(c.pick(cards))
    player = c.pick(["A", "B"])
    kind = c.integer(0, 11)
    if kind == 0:
        return f"activates({player}, {card})"
    if kind == 1:
        return f"resolves({card})"
    if kind == 2:
        return f"negated({card})"
    if kind == 3:
        return f"no_effect({card})"
    if kind == 4:
        zone = c.pick(["field", "graveyard", "hand", "banished"])
        return f"zone({card}) == {zone}"
    if kind == 5:
        return f"controller({card}) == {player}"
    if kind == 6:
        return f"chain_length {c.pick(['==', '>=', '<='])} {c.integer(0, 3)}"
    if kind == 7:
        return f"before({card}, {other})"
    if kind == 8:
        return f"responds({player})"
    if kind == 9:
        return f"triggers({card})"
    if kind == 10:
        return f"resolution_order == [{card}, {other}]"
    return f"life_points({player}) {c.pick(['==', '<'])} 8000"


def to_text(data: dict[str, Any]) -> str:
    """The scenario as the text of a YAML file, mappings of plain values on one line."""
    stream = io.StringIO()
    writer = YAML(typ="rt", pure=True)
    writer.default_flow_style = None
    writer.width = 100
    writer.dump(data, stream)
    return stream.getvalue()
