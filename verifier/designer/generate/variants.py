"""Shapes that tell rule variants apart (summons and their answers), and the turn and the
Battle Phase."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verifier.designer.generate.cards import (
    BATTLE_EVENTS,
    _Ctx,
    _filter,
    _parts,
    battle_conditions,
)
from verifier.designer.generate.chooser import Chooser

# -- shapes that tell rule variants apart ---------------------------------------------------


def _summon_shapes(
    c: Chooser, game: str, cards: dict[str, Any], history: list[str], turn: str, other: str
) -> None:
    """The turn player summons a monster; triggers and summon answers wait for it."""
    shape = c.integer(0, 3)
    if shape == 0:
        # Sangan and the Monarch: a tributed monster's "sent to the graveyard" trigger and
        # the summoned monster's "tribute-summoned" trigger, both the turn player's.
        cards["Tributed"] = {
            "kind": "effect-monster",
            "controller": turn,
            "atk": 1000,
            "ability": {
                "type": "trigger",
                "trigger": {
                    "event": c.pick(["sent-to-graveyard", "leaves-field"]),
                    "from": "field",
                },
                "optional": c.pick([False, False, True]),
                "wording": c.pick(["when", "if"]),
                "effect": _parts(c, _Ctx(game)),
            },
        }
        monarch: dict[str, Any] = {
            "type": "trigger",
            "trigger": {"event": c.pick(["tribute-summoned", "summoned"])},
            "optional": c.pick([False, False, True]),
            "effect": _parts(c, _Ctx(game)),
        }
        if c.integer(0, 1) == 0:
            monarch["target"] = {"card": "monster", "zone": "field"}
            monarch["effect"] = {"destroy": "target"}
        cards["Monarch"] = {
            "kind": "effect-monster",
            "controller": turn,
            "zone": "hand",
            "atk": 2400,
            "level": 5,
            "ability": monarch,
        }
        history.append(f"{turn} tribute summons Monarch tributing Tributed")
        return
    if shape == 1:
        # A summoned monster with an Ignition effect; the opponent answers summons.
        cards["Summoned"] = {
            "kind": "effect-monster",
            "controller": turn,
            "zone": "hand",
            "atk": 2000,
            "ability": {"type": "ignition", "once": "turn", "effect": _parts(c, _Ctx(game))},
        }
        cards["Trap Hole"] = {
            "kind": c.pick(["normal-trap", "normal-trap", "counter-trap"]),
            "controller": other,
            "set": "earlier-turn",
            "when": {"summoned": "monster", "by": "opponent"},
            "effect": {"destroy": "summoned"},
        }
        if cards["Trap Hole"]["kind"] == "counter-trap":
            cards["Trap Hole"]["when"] = {"would-be-summoned": "monster"}
            cards["Trap Hole"]["effect"] = [{"negate": "summon"}, {"destroy": "summoned"}]
        history.append(f"{turn} summons Summoned")
        return
    # Triggers that happen during a chain: optional "when" and "if" triggers wait for it.
    wording = c.pick(["when", "if"])
    for i in range(c.pick([1, 2])):
        cards[f"Clown {i + 1}"] = {
            "kind": "effect-monster",
            "controller": c.pick([turn, other]),
            "ability": {
                "type": "trigger",
                "trigger": {"event": c.pick(["destroyed", "sent-to-graveyard"]), "from": "field"},
                "optional": c.pick([True, True, False]),
                "wording": wording if i == 0 else c.pick(["when", "if"]),
                "effect": {"draw": 1},
            },
        }
    cards["Hole"] = {
        "kind": "normal-spell",
        "controller": turn,
        "zone": "hand",
        "effect": {"destroy": "all-monsters"},
    }
    cards["Answer"] = {
        "kind": c.pick(["quick-play-spell", "normal-trap"]),
        "controller": c.pick([turn, other]),
        "set": "earlier-turn",
        "effect": {"draw": 1},
    }
    history.append(f"{turn} activates Hole")


# -- the turn and the Battle Phase ----------------------------------------------------------

#: Where a scenario that goes through its turn starts, mostly near the battle: the
#: continuations through a whole turn are long, so most of them start in the Battle Phase
#: and end within it.
BATTLE_STARTS = (
    "battle-step",
    "battle-step",
    "battle-step",
    "battle-step",
    "battle-step",
    "battle-step",
    "battle-step",
    "start-step",
    "damage-start",
    "before-damage",
    "damage-calculation",
    "after-damage",
    "damage-end",
    "end-step",
)


def _span(c: Chooser, steps: Sequence[tuple[str, str]], small: bool) -> tuple[str, str]:
    """The step a scenario that goes through its turn starts in, and its ``until`` (a step
    or a phase), among the ``steps`` of its turn (each with its phase). Mostly within the
    Battle Phase; sometimes a Main Phase alone, Main Phase 1 into the Battle Phase (for
    ``small`` pools only: it is long), or the end of the turn."""
    names = [name for name, _ in steps]
    shape = c.integer(0, 11)
    if shape <= 7:
        start = c.pick(BATTLE_STARTS)
        later = [n for n, p in steps[names.index(start) :] if p == "battle"]
        if c.integer(0, 3) == 0:
            return start, c.pick([*later, "battle"])
        # Most end a few steps on: each step adds both players' passes to every
        # continuation, and the Battle Step after a Damage Step a whole attack.
        return start, c.pick(later[:3])
    if shape == 8 and small:
        return "main1", c.pick(["battle", "battle-step", "damage-end"])
    if shape <= 9:
        return "main1", c.pick(["main1", "main1", "start-step"])
    start = c.pick(["draw", "standby", "main2", "end", "end-step"])
    later = [n for n, _ in steps[names.index(start) :]]
    until = c.pick([*later, "end"])
    if start in ("draw", "standby"):
        until = c.pick([start, "standby", "main1"])
    return start, until


def _battle_cards(
    c: Chooser, game: str, cards: dict[str, Any], turn: str, other: str, main: bool
) -> None:
    """Monsters that may attack and be attacked, and answers to attacks: a battle to fight.
    In a Main Phase the attacker may still be in the hand (summoned, or Set, first)."""
    if c.integer(0, 3) > 0:
        attacker: dict[str, Any] = {
            "kind": "normal-monster",
            "controller": turn,
            "atk": c.pick([0, 1000, 1400, 1900, 2500, 3000]),
            "level": c.pick([3, 4, 4]),
        }
        if c.integer(0, 1) == 0:
            attacker["def"] = c.pick([0, 1200, 2000])
        if main and c.integer(0, 2) == 0:
            attacker["zone"] = "hand"
        elif c.integer(0, 4) == 0:
            attacker["set"] = "earlier-turn"  # Flip Summoned, perhaps, then it attacks
        cards["Attacker"] = attacker
    if c.integer(0, 1) == 0:
        defender: dict[str, Any] = {
            "kind": c.pick(["normal-monster", "effect-monster"]),
            "controller": other,
            "atk": c.pick([0, 1000, 1400, 2500]),
            "def": c.pick([0, 1000, 1500, 3000]),
        }
        where = c.integer(0, 3)
        if where == 0:
            defender["position"] = "defense"
        elif where == 1:
            defender["set"] = "earlier-turn"
        if defender["kind"] == "effect-monster":
            event = c.pick([*BATTLE_EVENTS, "destroyed"])
            defender["ability"] = {
                "type": "trigger",
                "trigger": {"event": event},
                "optional": c.pick([True, False]),
                "effect": c.pick(
                    [
                        {"draw": 1},
                        {"lose-lp": 500, "player": "opponent"},
                        {"negate-attack": True},
                        {"end-battle-phase": True},
                    ]
                ),
            }
        cards["Defender"] = defender
    if c.integer(0, 2) == 0:
        trap: dict[str, Any] = {
            "kind": c.pick(["normal-trap", "quick-play-spell", "counter-trap"]),
            "controller": c.pick([other, other, turn]),
            "set": "earlier-turn",
        }
        key = c.pick(battle_conditions())
        trap["when"] = {key: "monster" if c.integer(0, 1) == 0 else _filter(c, game)}
        if c.integer(0, 1) == 0:
            trap["when"]["by"] = c.pick(["opponent", "you", "any"])
        effect = c.integer(0, 3)
        if effect == 0:
            trap["effect"] = {"negate-attack": True}
        elif effect == 1:
            trap["effect"] = {"end-battle-phase": True}
        else:
            trap["target"] = {"card": "monster", "zone": "field", "face": "up"}
            if c.integer(0, 1) == 0:
                trap["target"]["attacking"] = True
            trap["effect"] = {"change-atk": {"on": "target", "by": c.pick([-1000, 700, 3000])}}
        cards["Battle Trap"] = trap


def _one_attacker(cards: dict[str, Any], turn: str) -> None:
    """Leave the turn player one monster that may attack (the others have attacked this
    turn): each attack adds a Damage Step's worth of steps to every continuation."""
    able = []
    for name, card in cards.items():
        base = cards.get(card["card"], {}) if "card" in card else card
        monster = str(base.get("kind", "")).endswith("monster")
        face_up = "set" not in base and base.get("face") != "down"
        on_field = base.get("zone", "field") == "field"
        if card.get("controller") != turn or not (monster and face_up and on_field):
            continue
        if card.get("position", base.get("position")) == "defense" or card.get("attacked"):
            continue
        able.append(name)
    for name in able[1:] if "Attacker" not in able else [n for n in able if n != "Attacker"]:
        cards[name]["attacked"] = True
