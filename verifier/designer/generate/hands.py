"""Cards in the hand and the graveyard, costs paid with cards, modes and event conditions
(Yu-Gi-Oh!), and the cards of CMC and Magic (mana, morph, combat, first strike).

Each writer takes the name of the game it writes for, and asks the game what to write
(:attr:`verifier.games.Game.drafting`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verifier.designer.generate.cards import (
    BATTLE_EVENTS,
    HAND_EVENTS,
    INCLUDED,
    TRIGGER_EVENTS,
    _condition,
    _cost,
    _Ctx,
    _filter,
    _part,
    _parts,
    _target,
    _timing,
    drafting,
    event_conditions,
)
from verifier.designer.generate.chooser import Chooser, _amount

# -- hands, graveyards, costs paid with cards, modes, event conditions (Yu-Gi-Oh!) ----------


def _event_condition(c: Chooser, game: str) -> dict[str, Any]:
    """A condition on an event: when a card that fits is destroyed, sent to the graveyard,
    banished, targeted, ..."""
    key = c.pick(event_conditions())
    if c.integer(0, 1) == 0:
        return {key: c.pick(["monster", "card", "spell-trap"])}
    return {key: _filter(c, game, c.pick([None, None, "graveyard", "banished", "field"]))}


def _answering(c: Chooser, game: str) -> dict[str, Any]:
    """An ``activates`` condition narrowed to what the activation includes or would destroy."""
    cond: dict[str, Any] = {
        "activates": c.pick(["card", "spell", "trap", "monster-effect", ["spell", "trap"]])
    }
    if c.integer(0, 1) == 0:
        cond["includes"] = sorted({c.pick(INCLUDED) for _ in range(c.integer(1, 2))})
    else:
        would: Any = c.pick(["card", "monster", "spell-trap"])
        if c.integer(0, 1) == 0:
            would = {"card": would, "controller": c.pick(["you", "opponent", "any"])}
        cond["would-destroy"] = would
        if c.integer(0, 2) > 0:
            cond["at-least"] = c.pick([1, 2, 2, 3])
    if c.integer(0, 2) == 0:
        cond["by"] = c.pick(["you", "opponent", "any"])
    if c.integer(0, 3) == 0:
        cond["on-field"] = True  # Ghost Ogre: an effect activated on the field
    return cond


def _hand_condition(c: Chooser, game: str, ctx: _Ctx) -> dict[str, Any]:
    """A condition of the new kinds (or an older one), noting what its effect may answer."""
    shape = c.integer(0, 3)
    if shape <= 1:
        cond = _event_condition(c, game)
    elif shape == 2:
        cond = _answering(c, game)
    else:
        cond = _condition(c, game)
    ctx.answers = "activates" in cond
    ctx.summon = "summoned" in cond or "would-be-summoned" in cond
    ctx.would_be = "would-be-summoned" in cond
    return cond


def _card_cost(c: Chooser, game: str) -> dict[str, Any]:
    """A cost paid with one chosen card: discard 1 (any card of the hand, an unlisted one
    too), discard a card that fits, banish a card that fits."""
    shape = c.integer(0, 3)
    if shape <= 1:
        return {"discard": 1}
    if shape == 2:
        return {"discard": _filter(c, game, c.pick([None, "hand"]))}
    return {"banish": _filter(c, game, c.pick([None, "graveyard", "hand", "field"]))}


def _modes(c: Chooser, game: str) -> list[dict[str, Any]]:
    """Two or three modes, each with its own condition (and perhaps target, cost, effect)."""
    out: list[dict[str, Any]] = []
    for label in ("first", "second", "third")[: c.pick([2, 2, 3])]:
        ctx = _Ctx(game)
        mode: dict[str, Any] = {"label": label}
        if c.integer(0, 1) == 0:
            mode["when"] = _hand_condition(c, game, ctx)
        if c.integer(0, 3) == 0:
            mode["target"] = _target(c, game)
            ctx.target = True
        if c.integer(0, 5) == 0:
            mode["cost"] = {"pay-lp": _amount(c)}
        mode["effect"] = _parts(c, ctx)
        out.append(mode)
    return out


def _hand_monster(c: Chooser, player: str, game: str) -> dict[str, Any]:
    """A monster whose effect is activated from the hand (a hand trap, a hand trigger), from
    the graveyard (banishing itself), or on the field tributing itself."""
    card: dict[str, Any] = {
        "kind": "effect-monster",
        "controller": player,
        "atk": c.pick([0, 100, 1500]),
        "level": c.pick([1, 3, 4]),
    }
    where = c.pick(["hand", "hand", "graveyard", "field"])
    if where != "field":
        card["zone"] = where
    ability: dict[str, Any]
    ctx = _Ctx(game)
    if where == "hand" and c.integer(0, 2) == 0:
        # Summoned from the hand, an optional trigger of its own the history may decline.
        trigger = {"event": c.pick(["normal-summoned", "summoned"])}
        ability = {"type": "trigger", "trigger": trigger, "optional": True}
        ability["effect"] = _parts(c, _Ctx(game, summon=True))
    elif where == "hand" and c.integer(0, 2) > 0:
        # A trigger from the hand ("When an opponent's monster declares a direct attack: You
        # can Special Summon this card from your hand").
        events = (*TRIGGER_EVENTS, *BATTLE_EVENTS) if c.integer(0, 2) == 0 else HAND_EVENTS
        spec: dict[str, Any] = {"event": c.pick(events), "card": _filter(c, game)}
        ability = {"type": "trigger", "from": "hand", "trigger": spec}
        ability["optional"] = c.pick([True, True, False])
        if c.integer(0, 1) == 0:
            ability["wording"] = c.pick(["when", "if"])
        if c.integer(0, 1) == 0:
            ability["effect"] = [{"special-summon": "this-card"}, *_part(c, ctx)]
        else:
            ability["effect"] = _parts(c, ctx)
    else:
        kind = "ignition" if where == "graveyard" and c.integer(0, 1) == 0 else "quick"
        ability = {"type": kind}
        if where != "field":
            ability["from"] = where
        own = {"hand": "discard", "graveyard": "banish", "field": "tribute"}[where]
        paid = c.integer(0, 4)
        if paid > 0:
            # Effect Veiler sends itself from the hand to the graveyard (not a discard).
            ability["cost"] = {
                "send-to-graveyard" if where == "hand" and paid == 1 else own: "this"
            }
        elif where == "hand" and c.integer(0, 1) == 0:
            ability["cost"] = {"banish": "this"}
        if c.integer(0, 5) == 0:
            ability["modes"] = _modes(c, game)
        else:
            if c.integer(0, 1) == 0:
                ability["when"] = _hand_condition(c, game, ctx)
            elif drafting(game).battle_phase and c.integer(0, 1) == 0:
                ability["when"] = _timing(c)
            if c.integer(0, 2) == 0:
                ability["target"] = _target(c, game)
                ctx.target = True
            ability["effect"] = _parts(c, ctx)
        if c.integer(0, 1) == 0:
            ability["once"] = "turn"
    card["ability"] = ability
    return card


def _hand_spell_trap(c: Chooser, player: str, game: str) -> dict[str, Any]:
    """A Spell or Trap with a cost paid with a card, several modes, or a condition of the
    new kinds (an event, what the activation answered would do)."""
    kind = c.pick(["normal-trap", "counter-trap", "quick-play-spell", "normal-spell"])
    card: dict[str, Any] = {"kind": kind, "controller": player}
    if "trap" in kind or c.integer(0, 2) == 0:
        card["set"] = "earlier-turn"
    else:
        card["zone"] = "hand"
    shape = c.integer(0, 2)
    if shape == 0:
        card["modes"] = _modes(c, game)
        if c.integer(0, 1) == 0:
            card["cost"] = c.pick([{"pay-lp": "half"}, _card_cost(c, game)])
        return card
    ctx = _Ctx(game)
    if shape == 1 or c.integer(0, 2) == 0:
        card["when"] = _hand_condition(c, game, ctx)
    if c.integer(0, 2) == 0:
        card["target"] = _target(c, game)
        ctx.target = True
    card["cost"] = _card_cost(c, game)
    if c.integer(0, 3) == 0:
        card["cost"] = [card["cost"], {"pay-lp": _amount(c)}]
    card["effect"] = _parts(c, ctx)
    if c.integer(0, 4) == 0:
        card["text"] = "A generated card."
    return card


def _hand_card(c: Chooser, player: str, game: str) -> dict[str, Any]:
    if c.integer(0, 1) == 0:
        return _hand_monster(c, player, game)
    return _hand_spell_trap(c, player, game)


def _negator(c: Chooser, players: Sequence[str]) -> dict[str, Any]:
    """A face-up continuous negation (Imperial Order, Royal Decree, Skill Drain), or one
    still set (not active)."""
    card: dict[str, Any] = {
        "kind": c.pick(["continuous-trap", "continuous-spell"]),
        "controller": c.pick(players),
        "continuous": {"negate-effects": c.pick(["spells", "traps", "monsters"])},
    }
    if c.integer(0, 3) == 0:
        card["set"] = "earlier-turn"
    else:
        card.update({"zone": "field", "face": "up"})
    return card


def _speed_target(c: Chooser) -> dict[str, Any]:
    """What an ability or a spell of the speed style targets: a monster on the field, now
    and then a spell or any card, on the field or in the hand."""
    target: dict[str, Any] = {"card": "monster", "zone": "field"}
    if c.integer(0, 3) == 0:
        target["controller"] = c.pick(["you", "opponent"])
    if c.integer(0, 4) == 0:
        target = {"card": c.pick(["spell", "card"]), "zone": c.pick(["field", "hand"])}
    return target


def _cmc_card(c: Chooser, player: str, game: str) -> dict[str, Any]:
    """A card of the speed style (``speed-stack``): a monster with an ability of a speed,
    perhaps dizzy, or a spell of a speed; either perhaps slowed or sped up."""
    speed = c.pick(drafting(game).speeds)
    card: dict[str, Any]
    if c.integer(0, 1) == 0:
        ability: dict[str, Any] = {"type": "ability", "speed": speed}
        if c.integer(0, 3) > 0:
            ability["cost"] = {"dizzy": "this"} if c.integer(0, 4) > 0 else _cost(c, game, True)
        ctx = _Ctx(game)
        if c.integer(0, 3) > 0:
            ability["target"] = _speed_target(c)
            ctx.target = True
        ability["effect"] = _parts(c, ctx)
        card = {"kind": "monster", "controller": player, "ability": ability}
        if c.integer(0, 2) == 0:
            card["dizzy"] = True
        if c.integer(0, 5) == 0:
            card["zone"] = c.pick(["hand", "graveyard"])
    else:
        ctx = _Ctx(game)
        card = {"kind": "spell", "controller": player, "zone": "hand", "speed": speed}
        if c.integer(0, 3) > 0:
            card["target"] = _speed_target(c)
            ctx.target = True
        if c.integer(0, 6) == 0:
            card["cost"] = {"pay-lp": _amount(c)}
        card["effect"] = _parts(c, ctx)
    modifier = c.integer(0, 5)
    if modifier <= 1:
        card["speed-modifier"] = c.pick(["slow", "speed-up"])
    elif modifier == 2:
        # Stacked modifiers: applied in order, they add up (slowed twice is two steps).
        card["speed-modifier"] = [c.pick(["slow", "speed-up"]) for _ in range(c.integer(2, 3))]
    return card


def _mtg_card(c: Chooser, player: str, game: str) -> dict[str, Any]:
    """A card of the priority style (``priority-stack``, Magic's): a creature (perhaps with
    an activated or a "dies" triggered ability), a counterspell, or an instant or sorcery
    (perhaps with split second, perhaps with two targets)."""
    shape = c.integer(0, 5)
    creature_target: dict[str, Any] = {"card": "monster", "zone": "field"}
    if c.integer(0, 3) == 0:
        creature_target["color"] = c.pick(["black", "non-black", "red", "colorless"])
    if shape <= 1:
        card: dict[str, Any] = {
            "kind": "creature",
            "controller": player,
            # One in four is in the hand: a creature spell, cast at sorcery speed.
            "zone": "hand" if c.integer(0, 3) == 0 else "field",
            "power": c.pick([1, 2, 3]),
            "toughness": c.pick([1, 2, 3, 4]),
        }
        if c.integer(0, 2) > 0:
            card["color"] = c.pick(["black", "red", "green"])
        if c.integer(0, 1) == 0:
            ctx = _Ctx(game)
            ability: dict[str, Any] = {"type": c.pick(["activated", "triggered"])}
            if ability["type"] == "triggered":
                ability["trigger"] = {"event": "sent-to-graveyard", "from": "field"}
            else:
                ability["once"] = "turn"
                if c.integer(0, 1) == 0:
                    ability["target"] = dict(creature_target)
                    ctx.target = True
            ability["effect"] = _parts(c, ctx)
            card["ability"] = ability
        return card
    if shape == 2:
        return {
            "kind": "instant",
            "controller": player,
            "zone": "hand",
            # "Counter target spell": any spell, or only a noncreature one (Negate).
            "target": c.pick([{"zone": "stack"}, {"card": "spell", "zone": "stack"}]),
            "effect": {"counterspell": "target"},
        }
    ctx = _Ctx(game)
    card = {"kind": c.pick(["instant", "instant", "sorcery"]), "controller": player, "zone": "hand"}
    if c.integer(0, 1) == 0:
        card["color"] = c.pick(["black", "red", "blue"])
    aim = c.integer(0, 7)
    if aim <= 4:
        card["target"] = dict(creature_target)
        ctx.target = True
    elif aim <= 6:
        # A player as a target (CR 115.1): "target player", "target opponent", or "any
        # target" (a creature or a player).
        who = c.pick(["any", "any", "opponent", "you"])
        card["target"] = {"player": who} if aim == 5 else {**creature_target, "player": who}
        if c.integer(0, 3) == 0:  # "target creature and target player": a filter each
            card["target"] = [dict(creature_target), {"player": who}]
        ctx.target = ctx.player_target = True
    if c.integer(0, 4) == 0:
        card["split-second"] = True
    card["effect"] = _parts(c, ctx)
    if ctx.target and not isinstance(card["target"], list) and c.integer(0, 3) == 0:
        # Two different targets (Fire), each checked again on resolution.
        card["targets"] = 2
    return card


MANA_COSTS = ("{G}", "{U}", "{1}", "{1}{G}", "{U}{U}", "{1}{U}", "{2}")
"""The mana costs generated spells have: coloured, generic, both."""


def _mtg_mana(c: Chooser, cards: dict[str, Any], turn: str, other: str) -> None:
    """Mana costs for some spells of the hands, and lands that tap for mana: on the
    battlefield (perhaps tapped) and in the turn player's hand (a land drop)."""
    for card in cards.values():
        cast = card.get("kind") in ("instant", "sorcery") or (
            card.get("kind") == "creature" and card.get("zone") == "hand"
        )
        if cast and c.integer(0, 2) > 0:
            card["mana"] = c.pick(MANA_COSTS)
    for i in range(c.integer(1, 3)):
        player = c.pick([turn, other])
        land: dict[str, Any] = {
            "kind": "land",
            "controller": player,
            "ability": {
                "type": "mana-ability",
                "cost": {"tap": "this"},
                "effect": {"add-mana": c.pick(["G", "U", "C"])},
            },
        }
        place = c.integer(0, 3)
        if place == 0 and player == turn:
            land["zone"] = "hand"
        elif place == 1:
            land["tapped"] = True
        cards[f"Land {i + 1}"] = land


MORPH_COSTS = ("{0}", "{0}", "{G}", "{1}", "{1}{U}", "{2}")
"""The morph costs generated face-down creatures have ({0}: one turned face up at once)."""


def _mtg_face_down(c: Chooser, cards: dict[str, Any]) -> None:
    """Sometimes, one creature on the battlefield is face-down with a morph cost: a 2/2 with
    no colour that its controller may turn face up (CR 702.37, 708.2)."""
    creatures = [
        card
        for card in cards.values()
        if card.get("kind") == "creature" and card.get("zone", "field") == "field"
    ]
    if not creatures or c.integer(0, 1) > 0:
        return
    chosen = c.pick(creatures)
    chosen["face"] = "down"
    chosen["morph"] = c.pick(MORPH_COSTS)


def _mtg_combat(c: Chooser, cards: dict[str, Any], turn: str, other: str) -> None:
    """A Magic combat after blockers are declared: an attacking creature, perhaps blocked
    by one that can sacrifice itself to deal 1 damage (Mogg Fanatic), and perhaps a second
    attacker; the combat damage step is where the damage rules differ (CR 510.2, and the
    rules before Magic 2010 that put combat damage on the stack)."""
    cards["Attacker"] = {
        "kind": "creature",
        "controller": turn,
        "zone": "field",
        "power": c.pick([1, 2, 3]),
        "toughness": c.pick([1, 2, 3]),
        "attacking": True,
    }
    if c.integer(0, 2) > 0:
        blocker: dict[str, Any] = {
            "kind": "creature",
            "controller": other,
            "zone": "field",
            "power": c.pick([1, 2, 3]),
            "toughness": c.pick([1, 2]),
            "blocking": "Attacker",
        }
        if c.integer(0, 2) > 0:
            blocker["ability"] = {
                "type": "activated",
                "cost": {"tribute": "this"},
                "target": {"card": "monster", "zone": "field"},
                "effect": {"damage": {"amount": 1, "to": "target"}},
            }
        cards["Blocker"] = blocker
    if c.integer(0, 3) == 0:
        cards["Second Attacker"] = {
            "kind": "creature",
            "controller": turn,
            "zone": "field",
            "power": c.pick([1, 2]),
            "toughness": c.pick([1, 2]),
            "attacking": True,
        }


def _mtg_strikes(c: Chooser, cards: dict[str, Any]) -> None:
    """One Magic combat in three gives a creature in it first strike or double strike: the
    turn then goes through the first-strike combat damage step (CR 510.4, 702.7, 702.4)."""
    if c.integer(0, 2) > 0:
        return
    fighting = [name for name in ("Attacker", "Blocker", "Second Attacker") if name in cards]
    cards[c.pick(fighting)][c.pick(["first-strike", "double-strike"])] = True


def _cmc_modifier(c: Chooser, player: str) -> dict[str, Any]:
    """A spell that slows or speeds up another card, perhaps twice."""
    verb = c.pick(["slow", "speed-up"])
    effect: Any = {verb: "target"}
    if c.integer(0, 1) == 0:
        effect = [{verb: "target"}, {verb: "target"}]
    return {
        "kind": "spell",
        "controller": player,
        "zone": "hand",
        "speed": c.pick(["S", "A", "B"]),
        "target": {"card": "card", "zone": c.pick(["field", "hand"])},
        "effect": effect,
    }


def _hand_shapes(
    c: Chooser,
    game: str,
    data: dict[str, Any],
    cards: dict[str, Any],
    history: list[str],
    turn: str,
    other: str,
) -> None:
    """A situation for the cards of part 4 to answer: a monster summoned from the hand with
    an optional trigger of its own (the history may decline it), a Spell answered by a
    Counter Trap paid with a card of the hand or with two modes, a monster of the other
    player's destroyed by a Spell while a trap waits for its destruction."""
    shape = c.integer(0, 2)
    if shape == 0:
        cards["Newcomer"] = {
            "kind": "effect-monster",
            "controller": turn,
            "zone": "hand",
            "level": 4,
            "atk": 1000,
            "ability": {
                "type": "trigger",
                "trigger": {"event": "normal-summoned"},
                "optional": True,
                "effect": _parts(c, _Ctx(game, summon=True)),
            },
        }
        # The summon succeeds: its trigger waits, for the history to activate or decline.
        history.extend([f"{turn} summons Newcomer", f"{turn} passes", f"{other} passes"])
        return
    spell: dict[str, Any] = {"kind": "normal-spell", "controller": turn, "zone": "hand"}
    if shape == 1:
        spell["effect"] = _parts(c, _Ctx(game))
        answer: dict[str, Any] = {"kind": "counter-trap", "controller": other}
        answer["set"] = "earlier-turn"
        negate = [{"negate": "activation"}, {"destroy": "that-card"}]
        if c.integer(0, 1) == 0:
            answer.update({"when": {"activates": "spell"}, "cost": _card_cost(c, game)})
            answer["effect"] = negate
            data.setdefault("hands", {})[other] = c.pick([1, 1, 2])
        else:
            summon = [{"negate": "summon"}, {"destroy": "summoned"}]
            answer["cost"] = {"pay-lp": "half"}
            answer["modes"] = [
                {"label": "summon", "when": {"would-be-summoned": "monster"}, "effect": summon},
                {"label": "activation", "when": {"activates": ["spell", "trap"]}, "effect": negate},
            ]
        cards["Answer"] = answer
    else:
        spell["effect"] = {"destroy": "all-monsters", "of": "opponent"}
        cards["Victim"] = {"kind": "normal-monster", "controller": other, "atk": 1500}
        answer = {"kind": "normal-trap", "controller": other, "set": "earlier-turn"}
        answer["when"] = _event_condition(c, game)
        answer["effect"] = _parts(c, _Ctx(game))
        cards["Answer"] = answer
    cards["Spell"] = spell
    history.append(f"{turn} activates Spell")
