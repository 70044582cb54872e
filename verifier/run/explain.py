"""Rules in context: why a named check fails for an action in a concrete state."""

from __future__ import annotations

from verifier.core.state import READ, Mode, State
from verifier.games import game
from verifier.rules.rulebook import describe
from verifier.spec.cards import Zone
from verifier.system import Action, System

__all__ = ["because"]


def because(system: System, state: State, action: Action, rule: str) -> str:
    """The rule's sentence, with the facts of ``state`` that make it fail for ``action``."""
    text = describe(rule, system.world.model.game)
    detail = _detail(system, state, action, rule)
    return f"{text} ({rule}){': ' + detail if detail else ''}"


def _where(system: System, zone: int) -> str:
    return game(system.world.model.game).place(Zone(zone).label)


def _placed(system: System, state: State, card: int) -> str:
    """Where ``card`` is: on the chain as a link (activated), or in its zone."""
    lcard = READ.lcard(state)
    links = [i + 1 for i in range(READ.clen(state)) if lcard[i] == card]
    if links:
        words = game(system.world.model.game).wording
        return f"on the {words.chain} ({words.link.format(n=links[-1])})"
    return _where(system, READ.zone(state)[card])


def _detail(system: System, state: State, action: Action, rule: str) -> str:
    w = system.world
    model = w.model
    players = w.scenario.players
    if action.ability < 0:
        return ""
    ability = w.abilities[action.ability]
    card = w.cards[ability.card]
    clen = READ.clen(state)
    top = clen - 1
    speed = model.speeds[ability.speed] if ability.speed is not None else "?"
    top_label = w.abilities[READ.lab(state)[top]].label if clen else ""
    if rule == "chain.speed" and clen:
        previous = model.speeds[READ.lspd(state)[top]]
        return (
            f"{ability.label} is speed {speed}, below the previous link's {previous} "
            f"({top_label}, Chain Link {clen})"
        )
    if rule == "chain.min-response" and clen and model.min_response is not None:
        return (
            f"{ability.label} is speed {speed}; a response needs {model.speeds[model.min_response]}"
        )
    if rule == "timing.speed-1":
        if clen:
            return f"{ability.label} is speed {speed} and the chain has already started"
        return f"{ability.label} is speed {speed}, and this is not its controller's open Main Phase"
    if rule == "chain.locked" and clen:
        return f"{top_label} forbids responses to its activation"
    if rule == "chain.right-to-respond":
        return f"{players[READ.right(state)]} holds the right to act"
    if rule == "chain.resolving" and READ.mode(state) != Mode.OPEN:
        return f"the game is in its {Mode(READ.mode(state)).name.lower()} step"
    if rule == "card.set-this-turn":
        return f"{card.name} was set this turn"
    if rule == "card.from-hand":
        return f"{card.name} is a {card.kind} in the hand"
    if rule == "card.location":
        return f"{card.name} is {_placed(system, state, card.index)}"
    if rule == "card.condition" and ability.condition is not None:
        condition = ability.condition
        if condition.kind == "activates":
            answered = f"the last link is {top_label}" if clen else "there is no chain to answer"
            by = f" by {'the opponent' if condition.by == 'opponent' else condition.by}"
            wanted = "/".join(sorted(condition.types))
            return (
                f"it answers a {wanted} activated{by if condition.by != 'any' else ''}; {answered}"
            )
        return f"it answers a summon ({condition.kind})"
    if rule == "target.valid" and 0 <= action.target < w.n:
        target = w.cards[action.target]
        return f"{target.name} is {_placed(system, state, target.index)}"
    if rule in ("limit.once-per-turn", "limit.once-per-chain"):
        per = "this turn" if rule == "limit.once-per-turn" else "on this chain"
        column = READ.uses(state) if rule == "limit.once-per-turn" else READ.cuse(state)
        used = [w.abilities[a] for a in w.once_modes.get(ability.index, ()) if column[a]]
        if used and not column[ability.index]:  # another mode of the same effect was
            return f"{used[0].label} was already activated {per} (one effect, two modes)"
        return f"{ability.label} was already activated {per}"
    return ""
