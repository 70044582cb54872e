"""Whole scenarios: the cards of both players, the situation, and the passes that add the
rarer keys (copies, mandatory Quick Effects, traits, chosen parts, effect summons, step
triggers)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from verifier.designer.generate.cards import (
    MASS,
    PLAYER_NAMES,
    _Ctx,
    _locker,
    _monster,
    _parts,
    _spell_trap,
    drafting,
    step_names,
)
from verifier.designer.generate.chooser import Chooser, _lp
from verifier.designer.generate.hands import (
    _cmc_card,
    _cmc_modifier,
    _hand_card,
    _hand_shapes,
    _mtg_card,
    _mtg_combat,
    _mtg_face_down,
    _mtg_mana,
    _mtg_strikes,
    _negator,
)
from verifier.designer.generate.histories import _load, _walk
from verifier.designer.generate.variants import _battle_cards, _one_attacker, _span, _summon_shapes
from verifier.effects.verb import Object, verb, verbs
from verifier.games import game as _game
from verifier.games import games as _games

# -- scenarios ------------------------------------------------------------------------------


def _chain_card(c: Chooser, player: str, game: str) -> dict[str, Any]:
    """A card of the chain style (``spell-speed-chain``): a monster one time in three, else
    a Spell or a Trap."""
    if c.integer(0, 2) == 0:
        return _monster(c, player, game)
    return _spell_trap(c, player, game)


CARD_WRITERS: dict[str, Callable[[Chooser, str, str], dict[str, Any]]] = {
    "spell-speed-chain": _chain_card,
    "speed-stack": _cmc_card,
    "priority-stack": _mtg_card,
}
"""The writers of a pool's cards, by the card style a game's drafting names
(:attr:`verifier.games.Drafting.cards`)."""


def scenario(
    c: Chooser,
    game: str | None = None,
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
    """A random scenario of ``game`` (default: the first registered game): a few cards on
    both sides, and a legal history.

    What it writes is the game's :class:`~verifier.games.Drafting`: the style of its cards
    and the shapes its features allow. A flag below asks for a shape only a game with the
    feature writes (``summons``, ``hand_cards``, ``step_triggers``); the others are the
    caller's to ask for the games they fit.

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
    if game is None:
        game = _games()[0].name
    draft = drafting(game)
    writer = CARD_WRITERS.get(draft.cards)
    if writer is None:
        known = ", ".join(sorted(CARD_WRITERS))
        raise ValueError(
            f"{_game(game).title}'s drafting names no card style the scenario generator "
            f"writes ({draft.cards!r}; it writes {known})"
        )
    steps_of_turn = _game(game).steps
    players = c.pick(PLAYER_NAMES)
    count = size if size is not None else c.integer(2, 4)
    # A scenario that goes through its turn (``until``) fights a battle: its continuations
    # are long, so its pool is a card smaller.
    battle = draft.battle_phase and not summons and c.integer(0, 2) == 0
    # A game of combats fights a combat one time in three: from its declared blockers to the
    # end of combat (a card smaller pool: the combat's creatures come on top).
    combat = draft.combats and c.integer(0, 2) == 0
    if combat:
        count = max(1, count - 1)
    going: tuple[str, str] | None = None
    if battle:
        going = _span(c, steps_of_turn, small=count <= 2)
        # A Main Phase (its summons, Sets and position changes) or a whole phase to go
        # through: one pool card.
        count = max(1, count - 1) if dict(steps_of_turn)[going[0]] == "battle" else 1
    cards: dict[str, Any] = {}
    for i in range(count):
        player = c.pick(players)
        cards[f"Card {i + 1}"] = writer(c, player, game)
    if c.integer(0, 5) == 0:
        # A card that copies another card of the scenario (``card: NAME``), for the other
        # player or the same one.
        cards["Copy"] = {"card": c.pick(sorted(cards)), "controller": c.pick(players)}
    if draft.continuous_locks:
        for i in range(c.pick([0, 0, 0, 0, 1] if battle else [0, 0, 0, 1, 2])):
            cards[f"Negator {i + 1}"] = _negator(c, players)
        if c.integer(0, 3 if battle else 2) == 0:
            cards["Lock"] = _locker(c, players, game)
    if draft.speed_modifiers and c.integer(0, 3) == 0:
        cards["Modifier"] = _cmc_modifier(c, c.pick(players))
    turn = c.pick(players)
    other = players[1] if turn == players[0] else players[0]
    # The cards of the hand are written for a game with them; the walk takes the sentences
    # they answer (and is longer) whenever asked.
    hand = hand_cards and draft.hand_cards
    if hand:
        for i in range(1 if battle or count <= 2 else c.pick([1, 2, 2])):
            cards[f"Hand {i + 1}"] = _hand_card(c, c.pick([turn, turn, other]), game)
    if going:
        _battle_cards(c, game, cards, turn, other, main=going[0] == "main1")
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
    data: dict[str, Any] = {"rules": c.pick(draft.rules) if draft.rules else game}
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
            data["phase"] = dict(steps_of_turn)[step]
        data["until"] = until
    elif combat:
        start = "declare-attackers" if declared else "declare-blockers"
        data["step"], data["until"] = start, "end-of-combat"
    elif phase == 0 and not summons:
        data["phase"] = c.pick(draft.phases or _game(game).phases)
    if c.integer(0, 3) > 0:
        data["life-points"] = _lp(c)
    if c.integer(0, 7) == 0:
        data["description"] = "A generated scenario."
    if c.integer(0, 7) == 0:
        data["limits"] = {"pending_triggers": c.integer(1, 3)}
    if hand and c.integer(0, 2) > 0:
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
        _effect_summons(c, game, cards, players)
    if step_triggers and draft.step_triggers:
        still = not summons and not {"step", "phase", "until"} & data.keys()
        _step_triggers(c, game, data, cards, players, still)
    history: list[str] = []
    if summons and draft.summon_shapes:
        _summon_shapes(c, game, cards, history, turn, other)
    elif hand and not going and c.integer(0, 1) == 0:
        _hand_shapes(c, game, data, cards, history, turn, other)
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


_REPLACED = ("draw", "add-from-deck", "special-summon")
"""The parts an effect that Normal Summons may stand in for."""


def _effect_summons(c: Chooser, game: str, node: Any, players: Sequence[str]) -> None:
    """Make some effect parts Normal Summon a monster of the hand instead (Ultimate Offering's
    "Normal Summon 1 monster"), and put a monster that needs no Tribute in a hand."""
    cards = node
    summoner = verb("normal-summon")
    place = _Ctx(game)

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
    c: Chooser,
    game: str,
    data: dict[str, Any],
    cards: dict[str, Any],
    players: Sequence[str],
    still: bool,
) -> None:
    """A monster whose trigger effect is activated as a step begins, in the GY (Sinister
    Serpent) or face-up on the field; most often a step the scenario's turn goes through
    (a scenario that stays in its step, ``still``, may go from the start of the turn into
    Main Phase 1 instead)."""
    names = step_names(game)
    steps = list(names)
    if still and c.integer(0, 1) == 0:
        data["step"], data["until"] = c.pick(["draw", "standby"]), "main1"
    start, until = data.get("step"), data.get("until")
    if start in names and until in names and c.integer(0, 3) > 0:
        ahead = steps[names.index(start) + 1 : names.index(until) + 1]
        steps = ahead or steps
    where = c.pick(["graveyard", "field"])
    ability: dict[str, Any] = {
        "type": "trigger",
        "trigger": {
            "event": "step-begins",
            "step": c.pick(steps),
            "whose": c.pick(["your", "each"]),
        },
        "effect": _parts(c, _Ctx(game)),
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
