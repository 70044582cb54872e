"""Cards on the field: the vocabulary of kinds, zones and events, filters, targets, effect
parts, conditions, costs, locks, Spells and Traps, triggers and monsters."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from verifier.designer.generate.chooser import COUNTS, LP_BOUND, Chooser, _amount
from verifier.effects.verb import Object, verbs
from verifier.games import Drafting, game
from verifier.games import game as _game
from verifier.io.model import bundled_models, load_model
from verifier.rules.conditions import condition_kinds
from verifier.rules.costs import cost_kind

# -- vocabulary -----------------------------------------------------------------------------

YUGIOH_SPELLS_TRAPS = (
    "normal-spell",
    "quick-play-spell",
    "continuous-spell",
    "normal-trap",
    "continuous-trap",
    "counter-trap",
    "equip-spell",
    "field-spell",
    "ritual-spell",
)
STAYS = ("continuous-spell", "continuous-trap", "equip-spell", "field-spell")
LATE_VERBS = ("normal-summon",)
"""Verbs written only by a pass of their own (``scenarios._effect_summons``), never picked
among the others: adding them left the scenarios of the earlier seeds as they were."""

#: The verbs that act on a card in every game (``{verb: bound}`` after Call of the Haunted).
MOVES = tuple(v.name for v in verbs() if v.value is Object and not v.needs)
MASS = ("all-monsters", "all-spells-traps", "all-cards")
TRIGGER_EVENTS = (
    "sent-to-graveyard",
    "destroyed",
    "summoned",
    "normal-summoned",
    "tribute-summoned",
    "special-summoned",
    "leaves-field",
)
#: Trigger events of the Battle Phase (a game whose drafting has ``battle_phase``).
BATTLE_EVENTS = ("flipped", "destroyed-by-battle", "attack-declared")
#: Activation conditions of the Battle Phase (a game whose drafting has ``battle_phase``).
ZONES = ("hand", "field", "graveyard", "banished", "deck")
#: Trigger events of cards that watch the hand and the graveyard (Yu-Gi-Oh!).
HAND_EVENTS = ("destroyed-by-effect", "banished", "targeted", "discarded")
#: Effect verbs an "activates" condition may ask an activation to include (Ash Blossom).
INCLUDED = ("add-from-deck", "draw", "special-summon", "send-to-graveyard", "destroy", "banish")
PLAYER_NAMES = (("A", "B"), ("A", "B"), ("A", "B"), ("Yugi", "Kaiba"))


def battle_conditions() -> tuple[str, ...]:
    """The Battle Phase's activation conditions (an attack declaration, the Damage Step,
    damage calculation), as the registry lists them."""
    return tuple(k.name for k in condition_kinds() if k.battle and not k.event)


def event_conditions() -> tuple[str, ...]:
    """The activation conditions met by an event that happened to a card, as the registry
    lists them."""
    return tuple(k.name for k in condition_kinds() if k.event)


def drafting(game_name: str) -> Drafting:
    """What the generator writes for the game called ``game_name``."""
    return _game(game_name).drafting


def step_names(game_name: str) -> tuple[str, ...]:
    """The steps of the game's turn, in order."""
    return tuple(name for name, _ in _game(game_name).steps)


class _Ctx:
    """What an effect being generated may refer to (a :class:`~verifier.effects.verb.Place`)."""

    def __init__(
        self,
        game: str,
        target: bool = False,
        answers: bool = False,
        summon: bool = False,
        would_be: bool = False,
        bound: bool = False,
        depth: int = 1,
        player_target: bool = False,
    ) -> None:
        self.game = game
        self.target = target
        self.player_target = player_target  # it may target a player (CR 115.1)
        self.answers = answers  # a link below it (that-card)
        self.summon = summon  # a summoned monster (summoned)
        self.would_be = would_be  # a summon it may negate
        self.bound = bound
        self.depth = depth  # how many more levels of parts may nest (coin-toss branches)

    def filter(self, c: Chooser) -> dict[str, Any]:
        return _filter(c, self.game)

    def lp_amount(self, c: Chooser) -> int:
        return _amount(c)

    def count(self, c: Chooser) -> int:
        return c.pick(COUNTS)

    def parts(self, c: Chooser) -> dict[str, Any] | list[dict[str, Any]]:
        deeper = _Ctx(
            self.game,
            self.target,
            self.answers,
            self.summon,
            self.would_be,
            self.bound,
            self.depth - 1,
            self.player_target,
        )
        return _parts(c, deeper)


def _filter(c: Chooser, game: str, zone: str | None = None) -> dict[str, Any]:
    flt: dict[str, Any] = {"card": c.pick(["monster", "spell", "trap", "spell-trap", "card"])}
    if zone is not None:
        flt["zone"] = zone
    own = _game(game).filter_keys  # the game's own filter keys (dizzy, battle position)
    extra = c.integer(0, 7)
    if extra == 0:
        flt["controller"] = c.pick(["you", "opponent", "any"])
    elif extra == 1:
        flt[c.pick(["atk-at-least", "atk-at-most"])] = c.pick([0, 1000, 1500, 2000])
    elif extra == 2:
        flt["face"] = c.pick(["up", "down", "any"])
    elif extra == 3 and "dizzy" in own:
        flt["dizzy"] = c.pick([True, False])
    elif extra == 3:
        flt["archetype"] = "Fiend"
    elif extra == 4:
        flt["other"] = True
    elif extra == 6 and "position" in own:
        flt["position"] = c.pick(["attack", "defense"])
    elif extra == 7 and "attacking" in own:
        flt["attacking"] = c.pick([True, False])
    elif extra == 5 and c.integer(0, 1) == 0 and _card_kinds(game):
        kinds = _card_kinds(game)
        flt["kind"] = c.pick(kinds) if c.integer(0, 2) else sorted({c.pick(kinds), c.pick(kinds)})
    elif extra == 5:
        flt[c.pick(["level-at-least", "level-at-most"])] = c.pick([0, 1, 4, 5, 12])
    return flt


@functools.cache
def _card_kinds(game_name: str) -> tuple[str, ...]:
    """The card kinds a filter's ``kind`` may name: those of the bundled rule system named
    after the game (its variants have the same kinds)."""
    folder = bundled_models()
    path = None if folder is None else folder / f"{game_name}.yaml"
    if path is None or not path.is_file():
        return ()
    return tuple(sorted(k for k, v in load_model(path).kinds.items() if v.card is not None))


TARGETS = (
    {"card": "monster", "zone": "field", "face": "up"},
    {"card": "spell-trap", "zone": "field"},
    {"card": "monster", "zone": "graveyard"},
    {"card": "card", "zone": "field", "other": True},
    {"card": "monster", "zone": "field", "controller": "opponent"},
    {"card": "monster", "zone": "graveyard", "controller": "you"},
)


def _target(c: Chooser, game: str) -> dict[str, Any]:
    if c.integer(0, 5) == 0:
        return _filter(c, game, c.pick(["field", "graveyard", "hand"]))
    return dict(c.pick(TARGETS))


def _part(c: Chooser, ctx: _Ctx) -> list[dict[str, Any]]:
    """One effect part (or a pair a verb writes together): each verb writes its own."""
    typical = game(ctx.game).verbs
    offered = [
        v for v in verbs() if (typical is None or v.name in typical) and v.name not in LATE_VERBS
    ]
    while True:
        chosen = c.pick(offered)
        written = chosen.generate(c, ctx)
        if written:
            return written
        offered.remove(chosen)  # no place for it here; some verb always has one


def _parts(c: Chooser, ctx: _Ctx) -> dict[str, Any] | list[dict[str, Any]]:
    count = c.pick([1, 1, 1, 2])
    parts = [part for _ in range(count) for part in _part(c, ctx)]
    for part in parts[1:]:
        if c.integer(0, 2) == 0:
            part["simultaneous"] = True  # "and": at the same time as the part before it
    return parts[0] if len(parts) == 1 else parts


def _condition(c: Chooser, game: str) -> dict[str, Any]:
    shape = c.integer(0, 5) if drafting(game).battle_phase else 0
    cond: dict[str, Any]
    if shape >= 4:
        # The Battle Phase: an attack declaration, the Damage Step, damage calculation.
        key = c.pick(battle_conditions())
        cond = {key: "monster" if c.integer(0, 1) == 0 else _filter(c, game)}
    elif shape <= 1:
        activated = ["spell", "trap", "monster", "spell-trap", "card", "monster-effect"]
        if c.integer(0, 1) == 0:
            cond = {"activates": c.pick(activated)}
        else:
            cond = {"activates": [c.pick(activated), c.pick(activated)]}
    else:
        key = "summoned" if shape == 2 else "would-be-summoned"
        cond = {key: "monster" if c.integer(0, 1) == 0 else _filter(c, game)}
        if c.integer(0, 2) == 0:
            cond["how"] = c.pick(["normal", "tribute", "special", "any"])
    if c.integer(0, 2) > 0:
        cond["by"] = c.pick(["you", "opponent", "any"])
    return cond


def _timing(c: Chooser) -> dict[str, Any]:
    """A condition on the phase, the turn, or both ("During your opponent's Main Phase")."""
    shape = c.integer(0, 2)
    cond: dict[str, Any] = {}
    if shape != 1:
        cond["during"] = c.pick(["main-phase", "main-phase", "main1", "main2", "battle", "end"])
    if shape != 0:
        cond["turn"] = c.pick(["opponent", "yours"])
    return cond


def _cost(c: Chooser, game: str, monster: bool) -> dict[str, Any] | list[dict[str, Any]]:
    dizzy = drafting(game).dizzy_costs and monster
    options = ["tribute", "pay-lp", "half"] + (["dizzy"] * 3 if dizzy else [])
    which = c.pick(options)
    if which == "half":
        cost: dict[str, Any] = {"pay-lp": "half"}
    else:  # the kind writes its own value
        drafted = cost_kind(which).generate
        assert drafted is not None
        cost = {which: drafted(c, _Ctx(game))}
    if c.integer(0, 5) == 0:
        return [cost, {"pay-lp": _amount(c)}]
    return cost


def _activation(c: Chooser, card: dict[str, Any], game: str, monster: bool = False) -> None:
    """Fill in a condition, target, cost, effect and limits on an activation."""
    ctx = _Ctx(game)
    if c.integer(0, 3) == 0:
        card["when"] = _condition(c, game)
        ctx.answers = "activates" in card["when"]
        ctx.summon = "summoned" in card["when"] or "would-be-summoned" in card["when"]
        ctx.would_be = "would-be-summoned" in card["when"]
    if c.integer(0, 2) == 0:
        card["target"] = _target(c, game)
        ctx.target = True
    if c.integer(0, 4) == 0:
        card["cost"] = _cost(c, game, monster)
    card["effect"] = _parts(c, ctx)
    if c.integer(0, 5) == 0:
        card["once"] = c.pick(["turn", "chain", "name", "name-effect"])
    if c.integer(0, 7) == 0:
        card["no-response"] = True
    if c.integer(0, 7) == 0:
        card["cannot-be-negated"] = True


LOCK_KINDS = ("spell", "trap", "monster-effect", "spell-trap", "card")
PROTECTIONS = ("spells", "traps", "monsters", "other-cards")


def _lock(c: Chooser, game: str) -> dict[str, Any]:
    """A lock or a protection: cannot-activate, unaffected or untargetable."""
    which = c.integer(0, 2)
    effect: dict[str, Any]
    if which == 0:
        kinds = c.pick(LOCK_KINDS)
        effect = {"cannot-activate": kinds if c.integer(0, 2) > 0 else [kinds, c.pick(LOCK_KINDS)]}
        sides = ["you", "opponent", "any"]
    elif which == 1:
        what = c.pick(PROTECTIONS)
        effect = {"unaffected": what if c.integer(0, 2) > 0 else [what, c.pick(PROTECTIONS)]}
        sides = ["opponent", "any"]
    else:
        effect = {"untargetable": "this" if c.integer(0, 1) == 0 else _filter(c, game)}
        sides = ["opponent", "any"]
    if c.integer(0, 2) > 0:
        effect["by"] = c.pick(sides)
    return effect


def _locker(c: Chooser, players: Sequence[str], game: str) -> dict[str, Any]:
    """A card with a lock or a protection: a Continuous Spell or Trap, face-up or Set, or a
    monster (Jinzo, Silent Magician LV8, Obelisk), maybe one that cannot be negated."""
    card: dict[str, Any]
    if c.integer(0, 1) == 0:
        card = {"kind": "effect-monster", "controller": c.pick(players), "atk": 2400}
        if c.integer(0, 4) == 0:
            card["zone"] = c.pick(["hand", "graveyard"])
    else:
        card = {
            "kind": c.pick(["continuous-trap", "continuous-spell"]),
            "controller": c.pick(players),
        }
        if c.integer(0, 3) == 0:
            card["set"] = "earlier-turn"
        else:
            card.update({"zone": "field", "face": "up"})
    card["continuous"] = _lock(c, game)
    if c.integer(0, 3) == 0:
        card["continuous"] = [card["continuous"], _lock(c, game)]
    if c.integer(0, 5) == 0:
        card["cannot-be-negated"] = True
    return card


def _spell_trap(c: Chooser, player: str, game: str) -> dict[str, Any]:
    kind = c.pick(YUGIOH_SPELLS_TRAPS)
    card: dict[str, Any] = {"kind": kind, "controller": player}
    face_up = kind in STAYS and c.integer(0, 3) == 0
    if face_up:
        card.update({"zone": "field", "face": "up"})
    elif "trap" in kind or c.integer(0, 2) == 0:
        card["set"] = c.pick(["earlier-turn", "earlier-turn", "this-turn"])
    else:
        card["zone"] = c.pick(["hand", "hand", "hand", "graveyard", "deck"])
    if kind in ("continuous-trap", "continuous-spell") and c.integer(0, 1) == 0:
        # Call of the Haunted: summon the target and stay bound to it.
        card["target"] = {"card": "monster", "zone": "graveyard"}
        if c.integer(0, 1) == 0:
            card["target"]["controller"] = "you"
        card["effect"] = {"special-summon": "target"}
        if c.integer(0, 1) == 0:
            # ... and then acts on the monster it is bound to.
            after = [{c.pick(MOVES): "bound"}]
            if c.integer(0, 2) == 0:
                after = _part(c, _Ctx(game, target=True, bound=True))
            card["effect"] = [card["effect"], *after]
        card["continuous"] = {"bind": "target"}
        if c.integer(0, 2) == 0:
            card["continuous"] = [{"bind": "target"}, {"negate-effects": "monsters"}]
        return card
    _activation(c, card, game)
    if kind in STAYS and c.integer(0, 2) == 0:
        card["continuous"] = {"negate-effects": c.pick(["spells", "traps", "monsters"])}
        if c.integer(0, 2) == 0:
            card["continuous"] = _lock(c, game)
    if kind in STAYS and c.integer(0, 3) == 0:
        # An effect of the face-up card besides its activation (Ultimate Offering).
        effect: dict[str, Any] = {
            "type": c.pick(["quick", "ignition"]),
            "effect": _parts(c, _Ctx(game)),
        }
        if c.integer(0, 1) == 0:
            effect["once"] = "turn"
        card["abilities"] = [effect]
    return card


def _trigger(c: Chooser, game: str, events: Sequence[str] | None = None) -> dict[str, Any]:
    if events is None:
        events = TRIGGER_EVENTS + (BATTLE_EVENTS if drafting(game).battle_phase else ())
    event = c.pick(events)
    spec: dict[str, Any] = {"event": event}
    if c.integer(0, 5) == 0:
        spec["event"] = [event, c.pick(events)]
    if c.integer(0, 3) == 0:
        spec["card"] = _filter(c, game)
    if c.integer(0, 1) == 0:
        spec["from"] = c.pick([*ZONES, "any"])
    ability: dict[str, Any] = {"type": "trigger", "trigger": spec}
    if c.integer(0, 1) == 0:
        ability["optional"] = c.pick([True, False])
    if c.integer(0, 1) == 0:
        ability["wording"] = c.pick(["when", "if"])
    ctx = _Ctx(game, summon="summoned" in event)
    if c.integer(0, 3) == 0:
        ability["target"] = _target(c, game)
        ctx.target = True
    if c.integer(0, 6) == 0:
        ability["cost"] = _cost(c, game, True)
    ability["effect"] = _parts(c, ctx)
    return ability


def _monster(c: Chooser, player: str, game: str) -> dict[str, Any]:
    monster: dict[str, Any] = {
        "kind": "effect-monster",
        "controller": player,
        "atk": c.pick([0, 1000, 1500, 2000, 3000]),
    }
    if c.integer(0, 2) == 0:
        monster["def"] = c.pick([0, 500, 1200, 2500, LP_BOUND])
    place = c.integer(0, 7)
    if place <= 3:
        # On the field, face-up (the default): in either battle position, perhaps having
        # attacked this turn.
        if drafting(game).battle_phase and c.integer(0, 3) == 0:
            monster["position"] = c.pick(["attack", "defense"])
        if drafting(game).battle_phase and c.integer(0, 5) == 0:
            monster["attacked"] = True
    elif place == 4:
        monster["set"] = c.pick(["earlier-turn", "this-turn"])
    elif place == 5 and c.integer(0, 1) == 0:
        monster.update({"zone": "field", "face": "down"})
        if c.integer(0, 2) == 0:
            monster["position"] = "defense"
    else:
        monster["zone"] = c.pick(["hand", "graveyard", "banished", "deck", "field"])
    if c.integer(0, 3) == 0:
        monster["level"] = c.pick([0, 1, 4, 5, 6, 7, 8, 12, 13])
    if c.integer(0, 4) == 0:
        monster["archetype"] = c.pick(["Fiend", ["Fiend", "Blackwing"]])
    if c.integer(0, 5) == 0 and "owner" not in monster:
        monster["owner"] = c.pick(["A", "B"]) if player in ("A", "B") else player
    shape = c.integer(0, 4)
    if shape == 0:
        monster["kind"] = "normal-monster"
        return monster
    abilities: list[dict[str, Any]] = []
    for _ in range(c.pick([1, 1, 1, 2])):
        if (shape <= 2 and not abilities) or c.integer(0, 1) == 0:
            abilities.append(_trigger(c, game))
            continue
        ability: dict[str, Any] = {"type": c.pick(["quick", "ignition"])}
        _activation(c, ability, game, monster=True)
        ability.pop("no-response", None)
        if c.integer(0, 2) > 0:
            ability["once"] = "turn"
        abilities.append(ability)
    if drafting(game).continuous_locks and c.integer(0, 5) == 0:
        monster["continuous"] = _lock(c, game)
    if len(abilities) == 1:
        monster["ability"] = abilities[0]
    else:
        for i, ability in enumerate(abilities):
            if c.integer(0, 1) == 0:
                ability["label"] = f"effect {i + 1}"
        monster["abilities"] = abilities
    return monster
