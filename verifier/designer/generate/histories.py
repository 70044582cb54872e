"""Legal histories: walks of legal actions, each step checked by loading the scenario with it."""

from __future__ import annotations

import json
import re
from typing import Any

from verifier.designer.generate.chooser import Chooser

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
    from verifier.system import Action, ActionKind
    from verifier.trace.narrate import describe_action, paying, targeting

    # Magic's special actions and declarations, told as the trace tells them.
    special = (ActionKind.LAND, ActionKind.UNMORPH, ActionKind.DECLARE, ActionKind.BLOCK)

    system = prepared.system
    state = prepared.history.state
    world = system.world
    players = system.scenario.players
    names = [card.name for card in world.cards]
    at = view(state)
    ctrl, pctrl, pend, zone, mode, clen = at.ctrl, at.pctrl, at.pend, at.zone, at.mode, at.clen
    out: list[str] = []
    for action in system.enabled_actions(state):
        if action.kind in (ActionKind.ACTIVATE, ActionKind.TRIGGER):
            ability = world.abilities[action.ability]
            waiting = ability.trigger is not None and pend[ability.index] > 0
            who = players[pctrl[ability.index] if waiting else ctrl[ability.card]]
            text = f"{who} activates {ability.label}"
            if extended and ability.mode is not None:
                text = f"{who} activates {names[ability.card]} choosing {ability.mode}"
            text += targeting(action, names, players)
            text += paying(ability, action.tributes, names)
            out.append(text)
        elif action.kind == ActionKind.PASS:
            out.append(f"{players[action.player]} passes")
        elif action.kind in special:
            out.append(describe_action(system, state, action))
        elif action.kind == ActionKind.DECLINE and extended:
            ability = world.abilities[action.ability]
            out.append(f"{players[pctrl[ability.index]]} declines {ability.label}")
    if mode == Mode.OPEN and clen == 0:
        for card in world.cards:
            if card.type != "monster" or zone[card.index] != Zone.HAND:
                continue
            who = ctrl[card.index]
            summon = Action(ActionKind.SUMMON, card=card.index, player=who, how="normal")
            if system.enabled(state, summon):
                out.append(f"{players[who]} summons {card.name}")
            for other in world.cards:
                if other.type == "monster" and other.index != card.index:
                    tribute = Action(
                        ActionKind.SUMMON,
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
            if a.kind == ActionKind.RESOLVE and a.card >= 0 and a.ability in linked
        }
        out.extend(f"the chain resolves (choosing {names[card]})" for card in sorted(chosen))
    if world.progresses:
        out.extend(_turn_options(prepared))
    return out


def _sets_and_flips(prepared: Any) -> list[str]:
    """Monster Sets (with their tributes) and Flip Summons that are legal now."""
    from verifier.core.state import view
    from verifier.spec.cards import Zone
    from verifier.system import Action, ActionKind

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
                action = Action(
                    ActionKind.SUMMON, card=card.index, player=who, how="set", tributes=tributes
                )
                if system.enabled(state, action):
                    tributing = "".join(f" tributing {world.cards[t].name}" for t in tributes)
                    out.append(f"{players[who]} sets {card.name}{tributing}")
        elif at.zone[card.index] == Zone.FIELD and not at.up[card.index]:
            action = Action(ActionKind.SUMMON, card=card.index, player=who, how="flip")
            if system.enabled(state, action):
                out.append(f"{players[who]} flip summons {card.name}")
    return out


def _turn_options(prepared: Any) -> list[str]:
    """Attack declarations, and the next steps the turn may move on to (by both players
    passing), in a scenario that goes through its turn."""
    from verifier.errors import VerifierError
    from verifier.run.history import _move_to
    from verifier.spec.scenario import Step
    from verifier.system import ActionKind

    system = prepared.system
    state = prepared.history.state
    world = system.world
    players = system.scenario.players
    names = [card.name for card in world.cards]
    out: list[str] = []
    for action in system.actions:
        if action.kind == ActionKind.ATTACK and system.enabled(state, action):
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
