"""The continuations ``explain`` does not narrate: whether there are others, and how they end
differently from the one it narrates (the one in which nobody activates anything more)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Outcome, State
from verifier.engines.explore import explore
from verifier.games import game
from verifier.run.check import Prepared
from verifier.spec.cards import Zone
from verifier.system import Action, ActionKind, System
from verifier.trace.narrate import describe_action

__all__ = ["EXPLAIN_SECONDS", "EXPLAIN_STATES", "Other", "Others", "other_continuations"]

EXPLAIN_STATES = 100_000
"""How many states ``explain`` explores, by default, to find the other continuations."""

EXPLAIN_SECONDS = 10.0
"""How long, by default, ``explain`` looks for the other continuations."""

_CHOICES = frozenset(
    {
        ActionKind.ACTIVATE,
        ActionKind.TRIGGER,
        ActionKind.DECLINE,
        ActionKind.SUMMON,
        ActionKind.ATTACK,
        ActionKind.POSITION,
        ActionKind.ADVANCE,
    }
)
"""The actions that are a player's choice (the others follow from them, or are passes);
a trigger placed on a chain is one too, for the order of simultaneous triggers."""


@dataclass(frozen=True, slots=True)
class Other:
    """Another way the scenario can end: the choices that lead there (the shortest way) and
    how its end differs from the narrated one's."""

    choices: tuple[str, ...]
    differs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Others:
    """The ends other than the narrated one's: how many, the first few, and the limit that
    stopped the search early ("" when every continuation was seen)."""

    count: int
    shown: tuple[Other, ...]
    stopped: str = ""


def _end(state: State) -> tuple[object, ...]:
    """What a claim can see of a final state: where the cards are, face and controller, Life
    Points, draws, and what was activated and how each link resolved."""
    an, rn = READ.an(state), READ.rn(state)
    return (
        READ.zone(state),
        READ.up(state),
        READ.ctrl(state),
        READ.lp(state),
        READ.drawn(state),
        tuple(zip(READ.a_ab(state)[:an], READ.a_pl(state)[:an], strict=True)),
        tuple(zip(READ.r_ab(state)[:rn], READ.r_out(state)[:rn], strict=True)),
    )


def other_continuations(
    prepared: Prepared,
    narrated: State,
    max_states: int = EXPLAIN_STATES,
    seconds: float | None = None,
    shown: int = 5,
) -> Others:
    """The ends of the scenario's continuations other than ``narrated``'s (the final state of
    the narrated continuation), the nearest first; at most ``shown`` are described."""
    system = prepared.system
    ex = explore(system, prepared.history.state, max_states, seconds=seconds)
    mine = _end(narrated)
    seen: set[tuple[object, ...]] = {mine}
    others: list[Other] = []
    for final in ex.terminals:
        key = _end(final)
        if key in seen:
            continue
        seen.add(key)
        if len(others) < shown:
            choices = _choices(system, prepared.history.state, ex.path(final))
            other = Other(choices, _differs(system, narrated, final))
            if other in others:  # told apart only by the order its links resolved in
                other = Other(choices, _differs(system, narrated, final, orders=True))
            others.append(other)
    stopped = ex.stopped_by or ("" if ex.faithful else "capacity")
    return Others(len(seen) - 1, tuple(others), stopped)


def _choices(system: System, start: State, path: list[Action]) -> tuple[str, ...]:
    state = start
    out = []
    for action in path:
        chooses = (
            action.kind == ActionKind.RESOLVE and action.card >= 0
        )  # a card chosen as it resolves
        if action.kind in _CHOICES or action.heads is False or chooses:  # failed coin tosses too
            out.append(describe_action(system, state, action))
        state = system.step(CONCRETE, state, action)
    return tuple(out)


_RESOLVES = {
    Outcome.RESOLVED: "resolves",
    Outcome.NO_EFFECT: "resolves without effect",
    Outcome.EFFECT_NEGATED: "has its effect negated",
    Outcome.ACTIVATION_NEGATED: "has its activation negated",
}


def _outcomes(system: System, state: State) -> dict[str, str]:
    """How each ability that resolved did, in words (the last time, if several)."""
    labels = [a.label for a in system.world.abilities]
    return {
        labels[READ.r_ab(state)[k]]: (
            game(system.world.model.game).wording.countered
            if Outcome(READ.r_out(state)[k]) is Outcome.ACTIVATION_NEGATED
            else _RESOLVES.get(Outcome(READ.r_out(state)[k]), "resolves")
        )
        for k in range(READ.rn(state))
    }


def _order(
    system: System,
    state: State,
    read: Callable[[State], Sequence[int]],
    count: Callable[[State], int],
) -> list[str]:
    """The abilities of a log of ``state`` (what was activated, what resolved), in order."""
    labels = [a.label for a in system.world.abilities]
    return [labels[a] for a in read(state)[: count(state)]]


def _where(system: System, zone: int) -> str:
    return game(system.world.model.game).place(Zone(zone).label)


def _differs(
    system: System, narrated: State, other: State, orders: bool = False
) -> tuple[str, ...]:
    """How ``other`` ends differently from ``narrated``, in words; the order in which links
    resolved when it is all that differs, or with ``orders``."""
    out: list[str] = []
    mine, theirs = _outcomes(system, narrated), _outcomes(system, other)
    for label, outcome in theirs.items():
        if label not in mine:
            out.append(f"{label} {outcome}")
        elif mine[label] != outcome:
            out.append(f"{label} {outcome} (in the narrative it {mine[label]})")
    out.extend(f"{label} does not resolve" for label in mine if label not in theirs)
    activated = _order(system, other, READ.a_ab, READ.an)
    was_activated = _order(system, narrated, READ.a_ab, READ.an)
    if activated != was_activated and sorted(activated) == sorted(was_activated):
        out.append(
            f"activated in the order {', '.join(activated)}"
            f" (in the narrative {', '.join(was_activated)})"
        )
    resolved = _order(system, other, READ.r_ab, READ.rn)
    was_resolved = _order(system, narrated, READ.r_ab, READ.rn)
    reordered = sorted(resolved) == sorted(was_resolved)
    if resolved != was_resolved and len(resolved) > 1 and (orders or reordered):
        before = f" (in the narrative {', '.join(was_resolved)})" if len(was_resolved) > 1 else ""
        out.append(f"resolved in the order {', '.join(resolved)}{before}")
    for c, card in enumerate(system.world.cards):
        zone, was = READ.zone(other)[c], READ.zone(narrated)[c]
        if zone != was:
            out.append(f"{card.name} ends {_where(system, zone)}, not {_where(system, was)}")
        elif READ.ctrl(other)[c] != READ.ctrl(narrated)[c]:
            out.append(f"{card.name} changes hands")
        elif READ.up(other)[c] != READ.up(narrated)[c]:
            face = "face-up" if READ.up(other)[c] else "face-down"
            out.append(f"{card.name} ends {face}")
    for p, player in enumerate(system.world.scenario.players):
        lp, was = READ.lp(other)[p], READ.lp(narrated)[p]
        if lp != was:
            out.append(f"{player} ends with {lp} Life Points, not {was}")
        drawn, before = READ.drawn(other)[p], READ.drawn(narrated)[p]
        if drawn != before:
            out.append(f"{player} adds {drawn} card(s) from the Deck, not {before}")
    return tuple(out)
