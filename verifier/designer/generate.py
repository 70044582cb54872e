"""Small random scenarios and claims, for cross-checking the engines and comparing models.

Generation is driven by a :class:`Chooser`, so the same code serves hypothesis (which can
shrink a failing case) and a seeded ``random.Random`` (for ``verifier diff``'s search).
Scenarios come out as plain data, written as JSON, which every YAML loader reads.

The generator reaches every key and value range the formats accept: Life Points from 1 to
the schema's bound (odd values, values next to powers of two), every effect verb on every
object, every cost, condition, trigger event and continuous effect, speed modifiers, other
players' names, phases, and histories of several steps. Histories are built by walking legal
actions (each step is checked by loading the scenario with it), so they are always legal.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import random
import re
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from ruamel.yaml import YAML

from verifier.effects.verb import Object, verb, verbs
from verifier.games import game
from verifier.games import game as _game
from verifier.io.model import bundled_models, load_model
from verifier.spec.cards import EVENT_CONDITIONS

__all__ = [
    "CLAIM_CONSTANTS",
    "COMPARISONS",
    "COUNTS",
    "LP_AMOUNTS",
    "LP_VALUES",
    "Chooser",
    "Claim",
    "RandomChooser",
    "claim",
    "claim_text",
    "claims_for",
    "scenario",
    "to_text",
]

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


# -- numbers --------------------------------------------------------------------------------

#: The schema's bound for Life Points and Life Point amounts.
LP_BOUND = 1_000_000_000
#: The schema's bound for ``draw`` and ``add-from-deck``.
COUNT_BOUND = 100

#: Starting Life Points: small, odd, the default, next to powers of two, huge.
LP_VALUES = (
    1,
    2,
    7,
    999,
    4001,
    8000,
    8001,
    16383,
    32767,
    32768,
    32769,
    40000,
    65535,
    65536,
    65537,
    100_000,
    131_071,
    1_000_001,
    16_777_217,
    536_870_911,
    LP_BOUND - 1,
    LP_BOUND,
)
#: Life Point amounts of costs and effects (``pay-lp``, ``lose-lp``, ``gain-lp``).
LP_AMOUNTS = (
    1,
    7,
    500,
    999,
    1000,
    4000,
    8000,
    8001,
    30000,
    32767,
    32768,
    65535,
    65536,
    65537,
    100_000,
    1_000_001,
    LP_BOUND,
)
#: Cards drawn or added (``draw``, ``add-from-deck``).
COUNTS = (1, 1, 2, 3, 7, 64, 99, COUNT_BOUND)
#: Constants of ``life_points`` and ``cards_drawn`` claims, negative to past the bound.
CLAIM_CONSTANTS = (
    -65536,
    -32769,
    -1,
    0,
    1,
    2,
    999,
    4000,
    7000,
    8000,
    8001,
    30000,
    32767,
    32768,
    32769,
    40000,
    65535,
    65536,
    65537,
    100_000,
    1_000_000,
    LP_BOUND,
    LP_BOUND + 1,
)
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
#: Chain numbers, link numbers and chain lengths past every integer width (a claim compares
#: them as the numbers they are, never wrapped to the state's width).
BIG_INDICES = (32767, 32768, 65535, 65536, 65537, 131_073, 4_294_967_297, 10**17 + 1)


def _lp(c: Chooser) -> int:
    return c.pick(LP_VALUES)


def _amount(c: Chooser) -> int:
    return c.pick(LP_AMOUNTS)


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
#: Trigger events of the Battle Phase (Yu-Gi-Oh!).
BATTLE_EVENTS = ("flipped", "destroyed-by-battle", "attack-declared")
#: Activation conditions of the Battle Phase (Yu-Gi-Oh!).
BATTLE_CONDITIONS = ("attack-declared", "damage-step", "damage-calculation")
ZONES = ("hand", "field", "graveyard", "banished", "deck")
#: Trigger events of cards that watch the hand and the graveyard (Yu-Gi-Oh!).
HAND_EVENTS = ("destroyed-by-effect", "banished", "targeted", "discarded")
#: Effect verbs an "activates" condition may ask an activation to include (Ash Blossom).
INCLUDED = ("add-from-deck", "draw", "special-summon", "send-to-graveyard", "destroy", "banish")
CMC_SPEEDS = ("S", "A", "B", "C", "D", "E")
YUGIOH_PHASES = ("draw", "standby", "main1", "battle", "main2", "end")
_PHASES = {"yugioh": YUGIOH_PHASES, "mtg": ("main1", "main2")}
MTG_SPEEDS = ("sorcery", "instant", "mana")
#: The steps of a Yu-Gi-Oh! turn, each with its phase.
YUGIOH_STEPS = game("yugioh").steps
STEP_NAMES = tuple(name for name, _ in YUGIOH_STEPS)
PLAYER_NAMES = (("A", "B"), ("A", "B"), ("A", "B"), ("Yugi", "Kaiba"))


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
    if game == "cmc":
        target: dict[str, Any] = {"card": "monster", "zone": "field"}
        if c.integer(0, 3) == 0:
            target["controller"] = c.pick(["you", "opponent"])
        if c.integer(0, 4) == 0:
            target = {"card": c.pick(["spell", "card"]), "zone": c.pick(["field", "hand"])}
        return target
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
    shape = c.integer(0, 5) if game == "yugioh" else 0
    cond: dict[str, Any]
    if shape >= 4:
        # The Battle Phase: an attack declaration, the Damage Step, damage calculation.
        key = c.pick(BATTLE_CONDITIONS)
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
    options = ["tribute", "pay-lp", "half"] + (["dizzy"] * 3 if game == "cmc" and monster else [])
    which = c.pick(options)
    if which == "tribute":
        cost: dict[str, Any] = {
            "tribute": "monster"
            if c.integer(0, 1) == 0
            else {"card": "monster", "zone": "field", "controller": "you"}
        }
    elif which == "pay-lp":
        cost = {"pay-lp": _amount(c)}
    elif which == "half":
        cost = {"pay-lp": "half"}
    else:
        cost = {"dizzy": "this"}
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
        events = TRIGGER_EVENTS + (BATTLE_EVENTS if game == "yugioh" else ())
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
        if game == "yugioh" and c.integer(0, 3) == 0:
            monster["position"] = c.pick(["attack", "defense"])
        if game == "yugioh" and c.integer(0, 5) == 0:
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
    if game == "yugioh" and c.integer(0, 5) == 0:
        monster["continuous"] = _lock(c, game)
    if len(abilities) == 1:
        monster["ability"] = abilities[0]
    else:
        for i, ability in enumerate(abilities):
            if c.integer(0, 1) == 0:
                ability["label"] = f"effect {i + 1}"
        monster["abilities"] = abilities
    return monster


# -- hands, graveyards, costs paid with cards, modes, event conditions (Yu-Gi-Oh!) ----------


def _event_condition(c: Chooser, game: str) -> dict[str, Any]:
    """A condition on an event: when a card that fits is destroyed, sent to the graveyard,
    banished, targeted, ..."""
    key = c.pick(EVENT_CONDITIONS)
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
            elif game == "yugioh" and c.integer(0, 1) == 0:
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


def _cmc_card(c: Chooser, player: str) -> dict[str, Any]:
    speed = c.pick(CMC_SPEEDS)
    card: dict[str, Any]
    if c.integer(0, 1) == 0:
        ability: dict[str, Any] = {"type": "ability", "speed": speed}
        if c.integer(0, 3) > 0:
            ability["cost"] = {"dizzy": "this"} if c.integer(0, 4) > 0 else _cost(c, "cmc", True)
        ctx = _Ctx("cmc")
        if c.integer(0, 3) > 0:
            ability["target"] = _target(c, "cmc")
            ctx.target = True
        ability["effect"] = _parts(c, ctx)
        card = {"kind": "monster", "controller": player, "ability": ability}
        if c.integer(0, 2) == 0:
            card["dizzy"] = True
        if c.integer(0, 5) == 0:
            card["zone"] = c.pick(["hand", "graveyard"])
    else:
        ctx = _Ctx("cmc")
        card = {"kind": "spell", "controller": player, "zone": "hand", "speed": speed}
        if c.integer(0, 3) > 0:
            card["target"] = _target(c, "cmc")
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


def _mtg_card(c: Chooser, player: str) -> dict[str, Any]:
    """A Magic card: a creature (perhaps with an activated or a "dies" triggered ability), a
    counterspell, or an instant or sorcery (perhaps with split second, perhaps with two
    targets)."""
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
            ctx = _Ctx("mtg")
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
    ctx = _Ctx("mtg")
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
                "effect": _parts(c, _Ctx("yugioh", summon=True)),
            },
        }
        # The summon succeeds: its trigger waits, for the history to activate or decline.
        history.extend([f"{turn} summons Newcomer", f"{turn} passes", f"{other} passes"])
        return
    spell: dict[str, Any] = {"kind": "normal-spell", "controller": turn, "zone": "hand"}
    if shape == 1:
        spell["effect"] = _parts(c, _Ctx("yugioh"))
        answer: dict[str, Any] = {"kind": "counter-trap", "controller": other}
        answer["set"] = "earlier-turn"
        negate = [{"negate": "activation"}, {"destroy": "that-card"}]
        if c.integer(0, 1) == 0:
            answer.update({"when": {"activates": "spell"}, "cost": _card_cost(c, "yugioh")})
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
        answer["when"] = _event_condition(c, "yugioh")
        answer["effect"] = _parts(c, _Ctx("yugioh"))
        cards["Answer"] = answer
    cards["Spell"] = spell
    history.append(f"{turn} activates Spell")


# -- shapes that tell rule variants apart ---------------------------------------------------


def _summon_shapes(
    c: Chooser, cards: dict[str, Any], history: list[str], turn: str, other: str
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
                "effect": _parts(c, _Ctx("yugioh")),
            },
        }
        monarch: dict[str, Any] = {
            "type": "trigger",
            "trigger": {"event": c.pick(["tribute-summoned", "summoned"])},
            "optional": c.pick([False, False, True]),
            "effect": _parts(c, _Ctx("yugioh")),
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
            "ability": {"type": "ignition", "once": "turn", "effect": _parts(c, _Ctx("yugioh"))},
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


def _span(c: Chooser, small: bool) -> tuple[str, str]:
    """The step a scenario that goes through its turn starts in, and its ``until`` (a step
    or a phase). Mostly within the Battle Phase; sometimes a Main Phase alone, Main Phase 1
    into the Battle Phase (for ``small`` pools only: it is long), or the end of the turn."""
    shape = c.integer(0, 11)
    if shape <= 7:
        start = c.pick(BATTLE_STARTS)
        later = [n for n, p in YUGIOH_STEPS[STEP_NAMES.index(start) :] if p == "battle"]
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
    later = [n for n, _ in YUGIOH_STEPS[STEP_NAMES.index(start) :]]
    until = c.pick([*later, "end"])
    if start in ("draw", "standby"):
        until = c.pick([start, "standby", "main1"])
    return start, until


def _battle_cards(c: Chooser, cards: dict[str, Any], turn: str, other: str, main: bool) -> None:
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
        key = c.pick(BATTLE_CONDITIONS)
        trap["when"] = {key: "monster" if c.integer(0, 1) == 0 else _filter(c, "yugioh")}
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


# -- scenarios ------------------------------------------------------------------------------


def scenario(
    c: Chooser,
    game: str = "yugioh",
    size: int | None = None,
    summons: bool = False,
    steps: int | None = None,
    rules: str | None = None,
    hand_cards: bool = False,
    decks: bool = False,
    mana: bool = False,
    mandatory: bool = False,
    traits: bool = False,
    chosen: bool = False,
    copies: bool = False,
    effect_summons: bool = False,
    step_triggers: bool = False,
) -> dict[str, Any]:
    """A random scenario: a few cards on both sides, and a legal history.

    With ``summons`` (Yu-Gi-Oh!), the turn player also summons a monster in one of the shapes
    that tell rule variants apart (a Tribute Summon with two triggers, a summon answered by a
    trap, triggers that wait for a chain). ``steps`` bounds the history walk (default:
    random, up to 6). ``rules`` (a model's name or path) is the rule system the scenario
    names and its history is legal under; by default the game's.

    With ``hand_cards`` (Yu-Gi-Oh!), the pool also holds cards of the hand and the graveyard
    (hand traps, hand triggers, graveyard effects banishing themselves, costs paid with
    cards, modes, event conditions), the hands may hold unlisted cards (``hands``), and the
    history may choose a mode or decline an optional trigger. It is off by default, so that
    the scenarios of a seed stay what they were without it.

    With ``decks``, the scenario may count the Decks (``deck``), small ones, so that a draw
    cannot be activated or runs a Deck out; its claims may then ask ``deck_size`` and
    ``loses``. Off by default for the same reason.

    With ``mandatory``, some Quick Effects with an activation condition are mandatory (they
    must be activated when they can be). Off by default for the same reason.

    With ``traits`` (Yu-Gi-Oh!), monsters may have an Attribute and a Type, and filters may
    ask for them or bound DEF. Off by default for the same reason.

    With ``chosen``, some effects act on one card chosen as they resolve (``chosen``, among
    those a filter fits: the Deck's, the field's...) instead of every card of a kind; not
    for rule systems where effects resolve as they are activated. Off by default for the
    same reason.

    With ``effect_summons`` (Yu-Gi-Oh!), some effects Normal Summon a monster of the hand
    (``normal-summon: chosen``: Ultimate Offering), and a hand may hold a monster for them.
    Off by default for the same reason.

    With ``step_triggers`` (Yu-Gi-Oh!), a monster in the GY or face-up on the field may have a
    trigger effect activated as a step begins (``event: step-begins``: Sinister Serpent's
    "During your Standby Phase, if this card is in your GY"). Off by default for the same
    reason.

    With ``copies`` (for a game whose stack resolves one object at a time: Magic), a hand may
    hold a spell that copies another, or a spell with storm (added after the history). Off
    by default for the same reason.

    With ``mana`` (for Magic only), the spells of the hands may have mana costs, and the players
    lands (some in the hand, some tapped) whose mana abilities pay them. Off by default for
    the same reason.
    """
    players = c.pick(PLAYER_NAMES)
    count = size if size is not None else c.integer(2, 4)
    # A scenario that goes through its turn (``until``) fights a battle: its continuations
    # are long, so its pool is a card smaller.
    battle = game == "yugioh" and not summons and c.integer(0, 2) == 0
    # A Magic scenario fights a combat one time in three: from its declared blockers to the
    # end of combat (a card smaller pool: the combat's creatures come on top).
    combat = game == "mtg" and c.integer(0, 2) == 0
    if combat:
        count = max(1, count - 1)
    going: tuple[str, str] | None = None
    if battle:
        going = _span(c, small=count <= 2)
        # A Main Phase (its summons, Sets and position changes) or a whole phase to go
        # through: one pool card.
        count = max(1, count - 1) if dict(YUGIOH_STEPS)[going[0]] == "battle" else 1
    cards: dict[str, Any] = {}
    for i in range(count):
        player = c.pick(players)
        name = f"Card {i + 1}"
        if game == "yugioh":
            if c.integer(0, 2) == 0:
                cards[name] = _monster(c, player, game)
            else:
                cards[name] = _spell_trap(c, player, game)
        elif game == "mtg":
            cards[name] = _mtg_card(c, player)
        else:
            cards[name] = _cmc_card(c, player)
    if c.integer(0, 5) == 0:
        # A card that copies another card of the scenario (``card: NAME``), for the other
        # player or the same one.
        cards["Copy"] = {"card": c.pick(sorted(cards)), "controller": c.pick(players)}
    if game == "yugioh":
        for i in range(c.pick([0, 0, 0, 0, 1] if battle else [0, 0, 0, 1, 2])):
            cards[f"Negator {i + 1}"] = _negator(c, players)
        if c.integer(0, 3 if battle else 2) == 0:
            cards["Lock"] = _locker(c, players, game)
    elif game == "cmc" and c.integer(0, 3) == 0:
        cards["Modifier"] = _cmc_modifier(c, c.pick(players))
    turn = c.pick(players)
    other = players[1] if turn == players[0] else players[0]
    if hand_cards and game == "yugioh":
        for i in range(1 if battle or count <= 2 else c.pick([1, 2, 2])):
            cards[f"Hand {i + 1}"] = _hand_card(c, c.pick([turn, turn, other]), game)
    if going:
        _battle_cards(c, cards, turn, other, main=going[0] == "main1")
        _one_attacker(cards, turn)
    if combat:
        _mtg_combat(c, cards, turn, other)
        _mtg_strikes(c, cards)
    declared = combat and mana and c.integer(0, 1) == 0
    if declared:
        # The same combat declared on the way: from the declare attackers step, attackers
        # and blockers chosen as moves (CR 508.1, 509.1).
        for card in cards.values():
            card.pop("attacking", None)
            card.pop("blocking", None)
    if mana:
        _mtg_mana(c, cards, turn, other)
        _mtg_face_down(c, cards)
    _own(cards, players)
    data: dict[str, Any] = {
        "rules": game if game != "cmc" else c.pick(["cmc", "cmc", "cmc-instant"])
    }
    if rules is not None:
        data["rules"] = rules
    if players != ("A", "B") or c.integer(0, 7) == 0:
        data["players"] = list(players)
    data["turn"] = turn
    phase = c.integer(0, 7)
    if going:
        step, until = going
        data["step"] = step
        if c.integer(0, 3) == 0:
            data["phase"] = dict(YUGIOH_STEPS)[step]
        data["until"] = until
    elif combat:
        start = "declare-attackers" if declared else "declare-blockers"
        data["step"], data["until"] = start, "end-of-combat"
    elif phase == 0 and not summons:
        data["phase"] = c.pick(_PHASES.get(game, ("main",)))
    if c.integer(0, 3) > 0:
        data["life-points"] = _lp(c)
    if c.integer(0, 7) == 0:
        data["description"] = "A generated scenario."
    if c.integer(0, 7) == 0:
        data["limits"] = {"pending_triggers": c.integer(1, 3)}
    if hand_cards and game == "yugioh" and c.integer(0, 2) > 0:
        # Unlisted cards in the hands: costs may discard them, draws add to them.
        holder = cards.get("Hand 1", {}).get("controller", turn)
        if holder not in players or c.integer(0, 3) == 0:
            holder = c.pick(players)
        data["hands"] = {holder: c.pick([0, 1, 1, 1, 2, 3, 60])}
        if c.integer(0, 2) == 0:
            data["hands"][c.pick(players)] = c.pick([0, 1, 2])
    if decks and c.integer(0, 2) > 0:
        # Counted Decks, small: draws and searches run them out.
        data["deck"] = {c.pick(players): c.pick([0, 1, 1, 2, 2, 3, 60])}
        if c.integer(0, 2) == 0:
            data["deck"][c.pick(players)] = c.pick([0, 1, 2])
    if mandatory:
        _mandatory_quick_effects(c, cards)
    if traits:
        _traits(c, cards)
    if chosen:
        _chosen_parts(c, cards)
    if effect_summons:
        _effect_summons(c, cards, players)
    if step_triggers and game == "yugioh":
        still = not summons and not {"step", "phase", "until"} & data.keys()
        _step_triggers(c, data, cards, players, still)
    history: list[str] = []
    if summons and game == "yugioh":
        _summon_shapes(c, cards, history, turn, other)
    elif hand_cards and game == "yugioh" and not going and c.integer(0, 1) == 0:
        _hand_shapes(c, data, cards, history, turn, other)
    data.update({"cards": cards, "history": history, "claims": []})
    _fit_zones(data)
    lengths = [1, 2, 3, 4, 6] if hand_cards else [0, 0, 1, 2, 3, 4, 6]
    walk = steps if steps is not None else c.pick(lengths)
    if going and steps is None and walk == 0 and c.integer(0, 1) == 0:
        walk = c.pick([1, 2])  # an attack, or the turn moving on, to start from
    if walk > 0:
        data["history"] = _walk(c, data, walk, extended=hand_cards)
    if copies and "stack" in _game(game).zones and c.integer(0, 1) == 0:
        # After the history, which it leaves as it was: a spell that copies one. Storm on a
        # spell the history casts changes what that history does (a trigger to put on the
        # stack, copies to order), so a change that makes the history illegal is undone.
        before = copy.deepcopy(data)
        _copy_spell(c, data)
        if _load(data) is None:
            data.clear()
            data.update(before)
    return data


def _copy_spell(c: Chooser, data: dict[str, Any]) -> None:
    """A hand's "Copy target instant or sorcery spell" (Twincast, CR 707.10), or storm on an
    instant or sorcery of a hand (CR 702.40), with spells cast before the scenario."""
    spells = [
        card
        for card in data["cards"].values()
        if card.get("zone") == "hand"
        and card.get("kind") in ("instant", "sorcery")
        and "modes" not in card
    ]
    if spells and c.integer(0, 1) == 0:
        c.pick(spells)["storm"] = True
        data["spells-cast"] = c.integer(0, 2)
        return
    data["cards"]["Copier"] = {
        "kind": "instant",
        "controller": c.pick(data.get("players", ["A", "B"])),
        "zone": "hand",
        "target": {"zone": "stack", "kind": ["instant", "sorcery"]},
        "effect": {"copy-spell": "target"},
    }


def _mandatory_quick_effects(c: Chooser, cards: dict[str, Any]) -> None:
    """Make some Quick Effects with an activation condition mandatory (Doomcaliber Knight)."""
    for card in cards.values():
        listed = [card["ability"]] if "ability" in card else card.get("abilities", [])
        for ability in listed:
            if ability.get("type") == "quick" and "when" in ability and c.integer(0, 1) == 0:
                ability["mandatory"] = True


ATTRIBUTES = ("dark", "light", "earth", "water", "fire", "wind", "divine")
MONSTER_TYPES = ("fiend", "spellcaster", "zombie", "fairy", "winged-beast", "warrior")
_CARD_TYPES = frozenset({"monster", "spell", "trap", "spell-trap", "card", "creature", "land"})


def _traits(c: Chooser, cards: dict[str, Any]) -> None:
    """Give some monsters an Attribute and a Type, and make some filters ask for one of
    them, bound DEF or ask for a direct attack (the rest of the scenario stays as drawn)."""
    for card in cards.values():
        if "card" in card or not str(card.get("kind", "")).endswith("monster"):
            continue
        if c.integer(0, 2) > 0:
            card["attribute"] = c.pick(ATTRIBUTES[:3] if c.integer(0, 3) else ATTRIBUTES)
        if c.integer(0, 2) > 0:
            card["monster-type"] = c.pick(MONSTER_TYPES)
    for card in cards.values():
        _trait_filters(c, card)


def _trait_filters(c: Chooser, node: Any) -> None:
    if isinstance(node, list):
        for item in node:
            _trait_filters(c, item)
        return
    if not isinstance(node, dict):
        return
    types = node.get("card")  # a filter names card types (a card of the scenario a library's)
    is_filter = isinstance(types, list) or (isinstance(types, str) and types in _CARD_TYPES)
    if is_filter and c.integer(0, 2) == 0:
        key = c.pick(["attribute", "monster-type", "def-at-least", "def-at-most", "direct"])
        if key == "direct":
            node[key] = c.pick([True, False])
        elif key == "attribute":
            node[key] = c.pick(ATTRIBUTES[:3]) if c.integer(0, 2) else list(ATTRIBUTES[:2])
        elif key == "monster-type":
            node[key] = c.pick(MONSTER_TYPES) if c.integer(0, 2) else list(MONSTER_TYPES[:2])
        else:
            node[key] = c.pick([0, 1000, 1500, 2000])
    for value in list(node.values()):
        _trait_filters(c, value)


_OBJECT_VERBS = frozenset(v.name for v in verbs() if v.value is Object)


def _chosen_parts(c: Chooser, node: Any) -> None:
    """Make some effect parts that act on every card of a kind act on one card chosen as
    they resolve, among those a filter fits ("Special Summon 1 monster from your Deck")."""
    if isinstance(node, list):
        for item in node:
            _chosen_parts(c, item)
        return
    if not isinstance(node, dict):
        return
    for key, value in list(node.items()):
        verb_part = key in _OBJECT_VERBS  # "destroy: all-monsters", not change-atk's "on"
        if verb_part and isinstance(value, str) and value in MASS and c.integer(0, 1) == 0:
            node[key] = "chosen"
            node.pop("of", None)
            flt = node.setdefault("filter", {"card": c.pick(["monster", "card"])})
            flt.setdefault("zone", c.pick(["deck", "deck", "field", "graveyard", "hand"]))
            if c.integer(0, 1) == 0:
                flt.setdefault("controller", c.pick(["you", "opponent"]))
        else:
            _chosen_parts(c, value)


LATE_VERBS = ("normal-summon",)
"""Verbs written only by a pass of their own (:func:`_effect_summons`), never picked among
the others: adding them left the scenarios of the earlier seeds as they were."""

_REPLACED = ("draw", "add-from-deck", "special-summon")
"""The parts an effect that Normal Summons may stand in for."""


def _effect_summons(c: Chooser, node: Any, players: Sequence[str]) -> None:
    """Make some effect parts Normal Summon a monster of the hand instead (Ultimate Offering's
    "Normal Summon 1 monster"), and put a monster that needs no Tribute in a hand."""
    cards = node
    summoner = verb("normal-summon")
    place = _Ctx("yugioh")

    def visit(part: Any) -> None:
        if isinstance(part, list):
            for item in part:
                visit(item)
            return
        if not isinstance(part, dict):
            return
        if any(key in part for key in _REPLACED) and c.integer(0, 1) == 0:
            part.clear()
            part.update(summoner.generate(c, place)[0])
            return
        for value in list(part.values()):
            visit(value)

    for card in list(cards.values()):
        visit(card)
    if c.integer(0, 2) > 0:
        name = f"Summonable {len(cards) + 1}"
        cards[name] = {
            "kind": "normal-monster",
            "controller": c.pick(list(players)),
            "zone": "hand",
            "level": c.integer(1, 4),
            "atk": c.pick([500, 1500, 1900]),
        }


def _step_triggers(
    c: Chooser, data: dict[str, Any], cards: dict[str, Any], players: Sequence[str], still: bool
) -> None:
    """A monster whose trigger effect is activated as a step begins, in the GY (Sinister
    Serpent) or face-up on the field; most often a step the scenario's turn goes through
    (a scenario that stays in its step, ``still``, may go from the start of the turn into
    Main Phase 1 instead)."""
    steps = list(STEP_NAMES)
    if still and c.integer(0, 1) == 0:
        data["step"], data["until"] = c.pick(["draw", "standby"]), "main1"
    start, until = data.get("step"), data.get("until")
    if start in STEP_NAMES and until in STEP_NAMES and c.integer(0, 3) > 0:
        ahead = steps[STEP_NAMES.index(start) + 1 : STEP_NAMES.index(until) + 1]
        steps = ahead or steps
    where = c.pick(["graveyard", "field"])
    ability: dict[str, Any] = {
        "type": "trigger",
        "trigger": {
            "event": "step-begins",
            "step": c.pick(steps),
            "whose": c.pick(["your", "each"]),
        },
        "effect": _parts(c, _Ctx("yugioh")),
    }
    if where == "graveyard" or c.integer(0, 3) == 0:
        ability["from"] = where
    if c.integer(0, 1) == 0:
        ability["optional"] = True
    if c.integer(0, 2) == 0:
        ability["once"] = c.pick(["turn", "name-effect"])
    number = len(cards) + 1
    while f"Card {number}" in cards:
        number += 1
    cards[f"Card {number}"] = {
        "kind": "effect-monster",
        "controller": c.pick(list(players)),
        "zone": where,
        "level": c.integer(1, 4),
        "ability": ability,
    }


def _fit_zones(data: dict[str, Any]) -> None:
    """Leave out pool cards until the scenario loads: a field holds only its zones' worth of
    cards, and the summon shapes need a free Monster Zone. The pool's own cards go first
    (the latest first, with any copy of them); the summon shapes' cards stay."""
    cards: dict[str, Any] = data["cards"]
    while _load(data) is None:
        pool = [n for n in cards if n.startswith(("Card ", "Copy", "Negator ", "Lock", "Hand "))]
        if not pool:
            data["history"] = []
            return
        gone = pool[-1]
        del cards[gone]
        for name in [n for n, card in cards.items() if card.get("card") == gone]:
            del cards[name]


def _own(cards: dict[str, Any], players: Sequence[str]) -> None:
    """Name owners by the scenario's players."""
    for card in cards.values():
        if "owner" in card and card["owner"] not in players:
            card["owner"] = players[0] if card["owner"] == "A" else players[1]


# -- legal histories ------------------------------------------------------------------------


def _load(data: dict[str, Any]) -> Any:
    """The prepared scenario, or None when it does not load (a history step is not legal)."""
    from verifier.errors import VerifierError
    from verifier.io.scenario import InMemory, load_scenario
    from verifier.run.check import prepare

    try:
        # JSON is YAML too, and written and read ten times as fast as the block style of
        # to_text: the walk loads a scenario for every step it tries, and nobody reads these.
        text = json.dumps(data, ensure_ascii=False)
        return prepare(load_scenario(InMemory("walk.yaml", text, built=True)))
    except VerifierError:
        return None


def _walk(c: Chooser, data: dict[str, Any], steps: int, extended: bool = False) -> list[str]:
    """Extend the history by up to ``steps`` legal steps, chosen among the legal actions.

    Each candidate step is checked by loading the scenario with it; a step the loader refuses
    is not taken (and the walk ends), so the history returned is always legal. ``extended``
    also offers the sentences of part 4 (see :func:`_options`).
    """
    history = list(data["history"])
    prepared = _load(data)
    if prepared is None:
        return history
    for _ in range(steps):
        options = _options(prepared, extended)
        if not options:
            break
        # Attacks, when there are any, mostly: else passes and answers crowd them out.
        attacks = [o for o in options if " attacks " in o]
        # Two targets, or a player as the target (CR 601.2c, 115.1), often when offered.
        who = "|".join(re.escape(p) for p in prepared.system.scenario.players)
        aimed = [o for o in options if re.search(rf" targeting \S.* and | targeting ({who})$", o)]
        # Turning a face-down creature face up (a special action, CR 116.2b), often.
        faces = [o for o in options if o.endswith(" face up")]
        if faces and c.integer(0, 1) == 0:
            options = faces
        elif attacks and c.integer(0, 2) > 0:
            options = attacks
        elif aimed and c.integer(0, 1) == 0:
            options = aimed
        elif extended:
            # The sentences of part 4, when there are any, mostly (and summoning a card of
            # the hand, whose optional trigger the history may then decline).
            words = (" discarding ", " banishing ", " choosing ", " declines ", " summons Hand ")
            fresh = [o for o in options if any(w in o for w in words)]
            if fresh and c.integer(0, 2) > 0:
                options = fresh
        step = c.pick(options)
        candidate = _load({**data, "history": [*history, step]})
        if candidate is None and "resolves (choosing " in step:
            # Which cards a resolution may choose shows only as it resolves: the others.
            for other in (o for o in options if "resolves (choosing " in o and o != step):
                candidate = _load({**data, "history": [*history, other]})
                if candidate is not None:
                    step = other
                    break
        if candidate is None:
            break
        history.append(step)
        prepared = candidate
    return history


def _options(prepared: Any, extended: bool = False) -> list[str]:
    """History sentences for the legal actions after the history so far. ``extended``: a
    mode is chosen with "choosing LABEL", and an optional trigger may be declined."""
    from verifier.core.state import READ, Mode, view
    from verifier.spec.cards import Zone
    from verifier.system import Action
    from verifier.trace.narrate import describe_action, paying, targeting

    system = prepared.system
    state = prepared.history.state
    world = system.world
    players = system.scenario.players
    names = [card.name for card in world.cards]
    at = view(state)
    ctrl, pctrl, pend, zone, mode, clen = at.ctrl, at.pctrl, at.pend, at.zone, at.mode, at.clen
    out: list[str] = []
    for action in system.enabled_actions(state):
        if action.kind in ("activate", "trigger"):
            ability = world.abilities[action.ability]
            waiting = ability.trigger is not None and pend[ability.index] > 0
            who = players[pctrl[ability.index] if waiting else ctrl[ability.card]]
            text = f"{who} activates {ability.label}"
            if extended and ability.mode is not None:
                text = f"{who} activates {names[ability.card]} choosing {ability.mode}"
            text += targeting(action, names, players)
            text += paying(ability, action.tributes, names)
            out.append(text)
        elif action.kind == "pass":
            out.append(f"{players[action.player]} passes")
        elif action.kind in ("land", "unmorph", "declare", "block"):
            out.append(describe_action(system, state, action))
        elif action.kind == "decline" and extended:
            ability = world.abilities[action.ability]
            out.append(f"{players[pctrl[ability.index]]} declines {ability.label}")
    if mode == Mode.OPEN and clen == 0:
        for card in world.cards:
            if card.type != "monster" or zone[card.index] != Zone.HAND:
                continue
            who = ctrl[card.index]
            summon = Action("summon", card=card.index, player=who, how="normal")
            if system.enabled(state, summon):
                out.append(f"{players[who]} summons {card.name}")
            for other in world.cards:
                if other.type == "monster" and other.index != card.index:
                    tribute = Action(
                        "summon",
                        card=card.index,
                        player=who,
                        how="tribute",
                        tributes=(other.index,),
                    )
                    if system.enabled(state, tribute):
                        out.append(
                            f"{players[who]} tribute summons {card.name} tributing {other.name}"
                        )
        out.extend(_sets_and_flips(prepared))
    elif clen > 0 or (mode != Mode.OPEN and not (world.progresses and mode == Mode.ADVANCE)):
        out.append("the chain resolves")
        out.append("the chain resolves (coins succeed)")
        # A link on the chain that chooses a card as it resolves: the history names it.
        linked = set(READ.lab(state)[: READ.clen(state)])
        chosen = {
            a.card
            for a in system.actions
            if a.kind == "resolve" and a.card >= 0 and a.ability in linked
        }
        out.extend(f"the chain resolves (choosing {names[card]})" for card in sorted(chosen))
    if world.progresses:
        out.extend(_turn_options(prepared))
    return out


def _sets_and_flips(prepared: Any) -> list[str]:
    """Monster Sets (with their tributes) and Flip Summons that are legal now."""
    from verifier.core.state import view
    from verifier.spec.cards import Zone
    from verifier.system import Action

    system = prepared.system
    state = prepared.history.state
    world = system.world
    players = system.scenario.players
    at = view(state)
    out: list[str] = []
    monsters = [card for card in world.cards if card.type == "monster"]
    for card in monsters:
        who = at.ctrl[card.index]
        if at.zone[card.index] == Zone.HAND:
            for tributes in [(), *((m.index,) for m in monsters if m.index != card.index)]:
                action = Action("summon", card=card.index, player=who, how="set", tributes=tributes)
                if system.enabled(state, action):
                    tributing = "".join(f" tributing {world.cards[t].name}" for t in tributes)
                    out.append(f"{players[who]} sets {card.name}{tributing}")
        elif at.zone[card.index] == Zone.FIELD and not at.up[card.index]:
            action = Action("summon", card=card.index, player=who, how="flip")
            if system.enabled(state, action):
                out.append(f"{players[who]} flip summons {card.name}")
    return out


def _turn_options(prepared: Any) -> list[str]:
    """Attack declarations, and the next steps the turn may move on to (by both players
    passing), in a scenario that goes through its turn."""
    from verifier.errors import VerifierError
    from verifier.run.history import _move_to
    from verifier.spec.scenario import Step

    system = prepared.system
    state = prepared.history.state
    world = system.world
    players = system.scenario.players
    names = [card.name for card in world.cards]
    out: list[str] = []
    for action in system.actions:
        if action.kind == "attack" and system.enabled(state, action):
            who = players[world.turn]
            if action.target < 0:
                out.append(f"{who} attacks directly with {names[action.card]}")
            else:
                out.append(f"{who} attacks {names[action.target]} with {names[action.card]}")
    here = system.layout.frame(state).step
    order = [*range(here + 1, len(world.steps)), *range(0, here)]
    reached = 0
    for dest in order:
        if reached == 2:
            break
        name = world.steps[dest]
        step = Step("advance", None, how=name, text=f"the turn moves to {name}")
        try:
            _move_to(system, state, step, [], [])
        except VerifierError:
            continue
        out.append(step.text)
        reached += 1
    return out


# -- claims ---------------------------------------------------------------------------------


Claim = str | dict[str, str]
"""A claim: its text, or ``{claim: TEXT, until: STEP}`` (decided at the end of a step)."""


def claim_text(entry: Claim) -> str:
    """The text of a generated claim."""
    return entry if isinstance(entry, str) else entry["claim"]


def claims_for(c: Chooser, data: dict[str, Any], count: int = 3) -> list[Claim]:
    """``count`` random claims over a generated scenario's cards, players and numbers.

    A Yu-Gi-Oh! claim is sometimes decided at the end of a step of the turn (its own
    ``until``): a step from where the scenario starts to where it ends (the step it starts
    in, for a scenario that stays where it starts), when the scenario loads so.
    """
    texts = _claim_texts(c, data, count)
    if str(data["rules"]).startswith(("cmc", "mtg")):
        return list(texts)
    out: list[Claim] = []
    for text in texts:
        if c.integer(0, 4) > 0:
            out.append(text)
            continue
        until = _claim_until(c, data)
        out.append({"claim": text, "until": until} if until is not None else text)
    return out


def _claim_until(c: Chooser, data: dict[str, Any]) -> str | None:
    """A step (or phase) to decide a claim at the end of, if the scenario loads with it."""
    phase = data.get("phase") or "main1"
    start = data.get("step") or next(n for n, p in YUGIOH_STEPS if p == phase)
    first = STEP_NAMES.index(start)
    last = first
    if "until" in data:
        last = max(i for i, (n, p) in enumerate(YUGIOH_STEPS) if data["until"] in (n, p))
    until = c.pick(STEP_NAMES[first : last + 1])
    phase = dict(YUGIOH_STEPS)[until]
    ends = max(i for i, (_, p) in enumerate(YUGIOH_STEPS) if p == phase)
    if c.integer(0, 3) == 0 and ends <= last:
        until = phase  # a phase: its last step
    if _load({**data, "until": until}) is None:
        return None
    return until


def _claim_texts(c: Chooser, data: dict[str, Any], count: int) -> list[str]:
    rules = str(data["rules"])
    game = "cmc" if rules.startswith("cmc") else "mtg" if rules.startswith("mtg") else "yugioh"
    players = tuple(data.get("players", ("A", "B")))
    speeds = {"cmc": CMC_SPEEDS, "mtg": MTG_SPEEDS}.get(game, ("1", "2", "3"))
    lp = int(data.get("life-points", 8000))
    amounts = _amounts(data["cards"])
    numbers = sorted(
        {lp, lp // 2, (lp + 1) // 2} | {lp - a for a in amounts} | {lp + a for a in amounts}
    )
    if game == "mtg":
        atoms = MTG_ATOMS
    elif game == "cmc":
        atoms = ATOMS
    else:
        atoms = tuple(a for a in ATOMS if a != "dizzy") + BATTLE_ATOMS
    tokens = token_names(data)
    texts = [
        claim(
            c,
            [*data["cards"], *tokens],
            players=players,
            speeds=speeds,
            numbers=numbers,
            atoms=atoms,
        )
        for _ in range(count)
    ]
    counted = sorted(data.get("deck", {}))
    if counted and texts and c.integer(0, 2) > 0:
        # What is left of a counted Deck, and who lost for a draw it could not give.
        quantifier = c.pick(["exists ", "always ", ""])
        if c.integer(0, 1) == 0:
            atom = f"deck_size({c.pick(counted)}) {c.pick(COMPARISONS)} {c.pick([0, 1, 2, 3])}"
        else:
            atom = f"loses({c.pick(players)})"
        texts[-1] = f"{quantifier}{atom}" if c.integer(0, 2) > 0 else f"{quantifier}not {atom}"
    if tokens and texts and c.integer(0, 1) == 0:
        # Where a token is: on the battlefield, or nowhere (not created yet, or gone).
        where = c.pick(["none", "none", "field", "graveyard"])
        quantifier = c.pick(["exists ", "always ", ""])
        texts[0] = f"{quantifier}zone({json.dumps(c.pick(tokens))}) == {where}"
    return texts


_TOKEN = re.compile(r" Token \d+$")


def token_names(data: dict[str, Any]) -> list[str]:
    """The token slots the loader keeps for the scenario (:mod:`verifier.io.tokens`), in its
    order: asked of the loaded scenario, so the numbering is the loader's own."""
    prepared = _load(data)
    if prepared is None:
        return []
    return [card.name for card in prepared.scenario.cards if card.token]


def _amounts(node: Any) -> set[int]:
    """Every Life Point amount written in the cards."""
    found: set[int] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("lose-lp", "gain-lp", "pay-lp") and isinstance(value, int):
                found.add(value)
            else:
                found |= _amounts(value)
    elif isinstance(node, list):
        for value in node:
            found |= _amounts(value)
    return found


def claim(
    c: Chooser,
    cards: Sequence[str],
    depth: int = 2,
    players: Sequence[str] = ("A", "B"),
    speeds: Sequence[str] = ("1", "2", "3"),
    numbers: Sequence[int] = (),
    atoms: Sequence[str] = (),
) -> str:
    """A random claim over the scenario's cards, with a quantifier.

    ``numbers`` are constants worth comparing Life Points with (the scenario's, after its
    amounts); the others come from :data:`CLAIM_CONSTANTS`. ``atoms`` are the kinds of atom
    the game has (all of :data:`ATOMS` by default).
    """
    if c.integer(0, 7) == 0:
        # can_respond / can_activate carry their own quantifier: never under another one.
        return _possibility(c, cards, players, depth)
    quantifier = c.pick(["exists", "always", "always", ""])
    if c.integer(0, 5) == 0:
        if c.integer(0, 2) == 0:
            # Read where the history stops, beside what the continuation's end says.
            point = _formula(c, cards, max(depth - 1, 0), players, speeds, numbers, atoms or ATOMS)
            end = _formula(c, cards, max(depth - 1, 0), players, speeds, numbers, atoms or ATOMS)
            return f"{quantifier} now ({point}) {c.pick(['and', 'or'])} {end}".strip()
        # Decided where Chain Link N has just resolved; priority is a fact of the scenario's
        # point, not of a link, so it is left out there.
        kinds = [a for a in atoms or ATOMS if a != "priority"]
        body = _formula(c, cards, depth, players, speeds, numbers, kinds)
        return f"{quantifier} after_link({_index(c)}) {body}".strip()
    body = _formula(c, cards, depth, players, speeds, numbers, atoms or ATOMS)
    return f"{quantifier} {body}".strip()


def _index(c: Chooser, low: int = 1) -> int:
    """A chain or link number (or a chain length from ``low``): mostly small, now and then
    past every integer width."""
    small = c.integer(low, 3)
    return c.pick(BIG_INDICES) if c.integer(0, 7) == 0 else small


def _possibility(c: Chooser, cards: Sequence[str], players: Sequence[str], depth: int) -> str:
    player = c.pick(players)
    if c.integer(0, 1) == 0:
        atom = f"can_respond({player})"
    else:
        atom = f"can_activate({player}, {json.dumps(c.pick(cards))})"
    if depth > 0 and c.integer(0, 2) == 0:
        return f"not {atom}"
    if depth > 0 and c.integer(0, 2) == 0:
        return f"({atom} {c.pick(['and', 'or'])} {_possibility(c, cards, players, depth - 1)})"
    return atom


def _formula(
    c: Chooser,
    cards: Sequence[str],
    depth: int,
    players: Sequence[str],
    speeds: Sequence[str],
    numbers: Sequence[int],
    atoms: Sequence[str],
) -> str:
    if depth > 0 and c.integer(0, 2) == 0:
        op = c.pick(["and", "or"])
        left = _formula(c, cards, depth - 1, players, speeds, numbers, atoms)
        right = _formula(c, cards, depth - 1, players, speeds, numbers, atoms)
        return f"({left} {op} {right})"
    if depth > 0 and c.integer(0, 4) == 0:
        return f"not {_formula(c, cards, depth - 1, players, speeds, numbers, atoms)}"
    return _atom(c, cards, players, speeds, numbers, atoms)


ATOMS = (
    "activates",
    "responds",
    "resolves",
    "negated",
    "no_effect",
    "before",
    "triggers",
    "misses_timing",
    "cleanup_sends",
    "dizzy",
    "resolution_order",
    "chain_order",
    "segoc_order",
    "chain(N).order",
    "chain(N).resolution_order",
    "chain_length",
    "zone",
    "controller",
    "position",
    "face",
    "speed",
    "life_points",
    "life_points",
    "targets",  # in a third life-points slot: the other atoms keep their draws
    "cards_drawn",
    "atk",
    "def",
    "priority",
)
#: Magic's atoms: no dizzy, missing the timing nor cleanup; whether a spell is countered.
MTG_ATOMS = (
    *(a for a in ATOMS if a not in ("dizzy", "misses_timing", "cleanup_sends", "segoc_order")),
    "countered",
    "countered",
)
#: Atoms of the turn and the Battle Phase (Yu-Gi-Oh!).
BATTLE_ATOMS = ("attacks", "destroyed_by_battle", "battle_damage", "step", "phase")


def _atom(
    c: Chooser,
    cards: Sequence[str],
    players: Sequence[str] = ("A", "B"),
    speeds: Sequence[str] = ("1", "2", "3"),
    numbers: Sequence[int] = (),
    atoms: Sequence[str] = ATOMS,
) -> str:
    card = json.dumps(c.pick(cards))
    other = json.dumps(c.pick(cards))
    player = c.pick(players)
    kind = c.pick(atoms)
    eq = c.pick(["==", "==", "!="])
    if kind in ("activates",):
        return f"activates({player}, {card})"
    if kind == "responds":
        return f"responds({player})"
    if kind == "priority":
        return f"priority {eq} {player}"
    if kind in ("attacks", "destroyed_by_battle"):
        return f"{kind}({card})"
    if kind == "step":
        return f"step {eq} {c.pick(STEP_NAMES)}"
    if kind == "phase":
        return f"phase {eq} {c.pick(YUGIOH_PHASES)}"
    if kind in ("resolves", "negated", "countered", "no_effect", "triggers", "misses_timing"):
        return f"{kind}({card})"
    if kind in ("cleanup_sends", "dizzy"):
        return f"{kind}({card})"
    if kind == "before":
        return f"before({card}, {other})"
    if kind == "targets":
        # A card or a player as the target, told by the draw the comparisons use.
        return f"targets({card}, {other if eq == '==' else player})"
    if kind in ("resolution_order", "chain_order", "segoc_order"):
        listed = [json.dumps(c.pick(cards)) for _ in range(c.integer(0, 2))]
        return f"{kind} {eq} [{', '.join(listed)}]"
    if kind.startswith("chain(N)"):
        member = kind.split(".")[1]
        listed = [json.dumps(c.pick(cards)) for _ in range(c.integer(0, 2))]
        return f"chain({_index(c)}).{member} {eq} [{', '.join(listed)}]"
    if kind == "chain_length":
        return f"chain_length {c.pick(COMPARISONS)} {_index(c, 0)}"
    if kind == "zone":
        # A token slot may be in no zone: not created yet, or ceased to exist (CR 704.5d).
        if _TOKEN.search(json.loads(card)) and c.integer(0, 1) == 0:
            return f"zone({card}) {eq} none"
        return f"zone({card}) {eq} {c.pick(ZONES)}"
    if kind == "controller":
        return f"controller({card}) {eq} {player}"
    if kind == "position":
        return f"position({card}) {eq} {c.pick(['attack', 'defense'])}"
    if kind == "face":
        return f"face({card}) {eq} {c.pick(['up', 'down'])}"
    if kind == "speed":
        return f"speed({card}) {eq} {c.pick(speeds)}"
    op = c.pick(COMPARISONS)
    if kind in ("atk", "def"):
        value = c.pick([0, 500, 1000, 1500, 2000, 2500, 3000, c.pick(CLAIM_CONSTANTS)])
        return f"{kind}({card}) {op} {value}"
    if kind == "battle_damage":
        value = c.pick([0, 100, 300, 500, 1000, 1400, 1900, 2500, 3000, c.pick(CLAIM_CONSTANTS)])
        return f"battle_damage({player}) {op} {value}"
    if kind == "cards_drawn":
        value = c.pick([0, 1, 2, 3, 99, 100, 101, 200, c.pick(CLAIM_CONSTANTS)])
        return f"cards_drawn({player}) {op} {value}"
    value = c.pick(numbers) if numbers and c.integer(0, 1) == 0 else c.pick(CLAIM_CONSTANTS)
    return f"life_points({player}) {op} {value}"


def to_text(data: dict[str, Any]) -> str:
    """The scenario as the text of a YAML file, mappings of plain values on one line."""
    stream = io.StringIO()
    writer = YAML(typ="rt", pure=True)
    writer.default_flow_style = None
    writer.width = 100
    writer.dump(data, stream)
    return stream.getvalue()
