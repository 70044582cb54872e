"""``verifier orders``: which permitted SEGOC orders lead to different final states."""

from __future__ import annotations

from dataclasses import dataclass

from verifier.core.state import READ, State
from verifier.engines.explore import explore
from verifier.run.check import Prepared
from verifier.spec.cards import Zone

__all__ = ["OrderClass", "Orders", "segoc_orders", "segoc_outcomes", "stopped_reason"]

DEFAULT_ORDERS_STATES = 500_000


@dataclass(frozen=True, slots=True)
class OrderClass:
    """One permitted order of simultaneous triggers and the outcome class it leads to."""

    order: tuple[str, ...]
    outcome: int
    differs: tuple[str, ...]


def _order(state: State, labels: list[str]) -> tuple[str, ...]:
    return tuple(
        f"{labels[READ.a_ab(state)[k]]} (chain {READ.a_cno(state)[k]})"
        for k in range(READ.an(state))
        if READ.a_segoc(state)[k]
    )


def _outcome(state: State) -> tuple[object, ...]:
    return (READ.zone(state), READ.ctrl(state), READ.lp(state), READ.drawn(state))


@dataclass(frozen=True, slots=True)
class Orders:
    """The order classes found, and why the exploration stopped early ("" if it did not)."""

    classes: list[OrderClass]
    stopped: str = ""


def stopped_reason(stopped_by: str) -> str:
    """Words for the limit that stopped an exploration (``Exploration.stopped_by``)."""
    if stopped_by == "states":
        return "the state limit was reached; --max-states"
    if stopped_by == "time":
        return "the time limit was reached; --timeout"
    return ""


def segoc_outcomes(
    prepared: Prepared, max_states: int = DEFAULT_ORDERS_STATES, seconds: float | None = None
) -> list[OrderClass]:
    """Every order in which simultaneous triggers went on chains, with its outcomes."""
    return segoc_orders(prepared, max_states, seconds).classes


def segoc_orders(
    prepared: Prepared, max_states: int = DEFAULT_ORDERS_STATES, seconds: float | None = None
) -> Orders:
    """Every order in which simultaneous triggers went on chains, with its outcomes.

    Outcomes are numbered by first appearance; continuations with the same trigger order
    but other choices elsewhere may reach several outcomes, each listed. ``max_states`` and
    ``seconds`` bound the exploration; when one stops it, :attr:`Orders.stopped` says which,
    and the classes are only those of the continuations explored.
    """
    system = prepared.system
    labels = [a.label for a in system.world.abilities]
    names = [c.name for c in system.world.cards]
    ex = explore(system, prepared.history.state, max_states, seconds=seconds)
    numbering: dict[tuple[object, ...], int] = {}
    reference: dict[int, State] = {}
    seen: dict[tuple[tuple[str, ...], int], None] = {}
    for state in ex.terminals:
        order = _order(state, labels)
        if len(order) < 2:
            continue
        outcome = numbering.setdefault(_outcome(state), len(numbering) + 1)
        reference.setdefault(outcome, state)
        seen[(order, outcome)] = None
    out = []
    first = reference.get(1)
    for order, outcome in seen:
        differs: list[str] = []
        state = reference[outcome]
        if first is not None and outcome != 1:
            for c, name in enumerate(names):
                if READ.zone(state)[c] != READ.zone(first)[c]:
                    differs.append(
                        f"{name} ends in the {Zone(READ.zone(state)[c]).label}, "
                        f"not the {Zone(READ.zone(first)[c]).label}"
                    )
                elif READ.ctrl(state)[c] != READ.ctrl(first)[c]:
                    differs.append(f"{name} changes hands")
        out.append(OrderClass(order, outcome, tuple(differs)))
    return Orders(out, stopped_reason(ex.stopped_by))
