"""Probe scenarios: the smallest situations that put one kind of a rule system to work.

Lint and diff run the engines on these instead of on a designer's own scenarios when none
are given. Each probe is plain data (written as JSON, which is YAML) naming the rule system
by its name when that name finds its file, else by the file (variants under test need not
be installed).
"""

from __future__ import annotations

from typing import Any

from verifier.designer.generate import to_text
from verifier.io.model import model_reference
from verifier.spec.rulesystem import Kind, RuleSystem, SpeedFrom

__all__ = ["activatable_kinds", "answer_probe", "card", "probe_text", "start_probe"]


def activatable_kinds(model: RuleSystem) -> list[Kind]:
    """Kinds a player activates on their own (not triggers, not plain monsters)."""
    return [
        k
        for k in model.kinds.values()
        if not k.trigger and (k.effect or k.card in {"spell", "trap"})
    ]


def _speed(model: RuleSystem, kind: Kind) -> str | None:
    if model.speed_from == SpeedFrom.KIND:
        return None
    # A speed that goes on the stack, in the middle of the range.
    stacked = [s for i, s in enumerate(model.speeds) if i not in model.instant]
    return stacked[len(stacked) // 2] if stacked else model.speeds[0]


def card(model: RuleSystem, kind: Kind, player: str, opponent_turn: bool) -> dict[str, Any]:
    """A card of ``kind`` for ``player``, placed where it can be activated."""
    speed = _speed(model, kind)
    if kind.effect:
        monster = next(k.name for k in model.kinds.values() if k.card == "monster")
        ability: dict[str, Any] = {"type": kind.name, "effect": {"draw": 1}, "once": "turn"}
        if speed is not None:
            ability["speed"] = speed
        return {"kind": monster, "controller": player, "zone": "field", "ability": ability}
    out: dict[str, Any] = {"kind": kind.name, "controller": player, "effect": {"draw": 1}}
    if speed is not None:
        out["speed"] = speed
    from_hand = kind.hand == "any" or (kind.hand == "own-turn" and not opponent_turn)
    if from_hand:
        out["zone"] = "hand"
    else:
        out["set"] = "earlier-turn"
    return out


def probe_text(model: RuleSystem, data: dict[str, Any]) -> str:
    return to_text({"rules": model_reference(model), **data})


def start_probe(model: RuleSystem, kind: Kind) -> str:
    """Can the turn player activate a card of ``kind`` in an open game state?"""
    cards = {"Probe": card(model, kind, "A", opponent_turn=False)}
    claims = [{"claim": 'can_activate(A, "Probe")', "expect": "holds"}]
    return probe_text(model, {"turn": "A", "cards": cards, "claims": claims})


def answer_probe(model: RuleSystem, kind: Kind) -> str:
    """Can the opponent answer a card of ``kind``, with one card of every kind?"""
    cards: dict[str, Any] = {"Probe": card(model, kind, "A", opponent_turn=False)}
    for other in activatable_kinds(model):
        cards[f"Answer {other.name}"] = card(model, other, "B", opponent_turn=True)
    claims = [{"claim": "can_respond(B)", "expect": "holds"}]
    history = ["A activates Probe"]
    return probe_text(model, {"turn": "A", "cards": cards, "history": history, "claims": claims})
