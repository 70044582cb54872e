"""Magic's mana: a mana pool per player and the mana costs paid from it.

- A mana ability (CR 605) adds mana to its controller's pool (the verb ``add-mana``); it
  never uses the stack, and its controller keeps priority.
- A spell's mana cost (CR 202.1) or an activated ability's (602.1) is paid from the pool as
  it is cast or activated (601.2g-h): each coloured symbol by mana of its colour, the generic
  part by mana of any type. Which mana pays the generic part is the player's choice, so each
  way of paying is its own action (:func:`payments`). Mana abilities are activated before
  the spell is cast rather than during its casting: the same mana reaches the pool, and no
  player receives priority in between (605.3a, 117.3c).
- The pool empties at the end of each step and phase (500.4).

The land drop, a special action of the main phase, is :mod:`verifier.rules.turn`'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Reset, array, declare, scalar
from verifier.rules.context import Check, Ctx
from verifier.spec.cards import Ability, Cost, Zone
from verifier.spec.mana import COLOURS, spelled
from verifier.spec.scenario import Scenario

__all__ = [
    "MANA_FIELDS",
    "add",
    "cost_of",
    "fields",
    "mana_checks",
    "pay",
    "payments",
    "playable_lands",
    "pool_empties",
    "produced",
]

declare(
    # Each player's mana pool, one field per type of mana.
    *(array(f"mana_{kind}", "player") for kind in "wubrgc"),
    scalar("lands", resets=frozenset({Reset.TURN})),  # lands the turn player played this turn
)

MANA_FIELDS = tuple(f"mana_{c.lower()}" for c in COLOURS)
"""The state field of each type: the mana of that type in each player's pool."""


def cost_of(ability: Ability) -> Cost | None:
    """The mana cost ``ability`` pays, if any."""
    return next((c for c in ability.costs if c.kind == "mana"), None)


def produced(scenario: Scenario) -> tuple[int, ...]:
    """The types of mana some ability of the scenario adds (indices into :data:`COLOURS`)."""
    found: set[int] = set()
    for ability in scenario.abilities:
        for part in ability.parts():
            if part.verb == "add-mana":
                found |= {i for i, n in enumerate(part.mana) if n}
    return tuple(sorted(found))


def _used(scenario: Scenario) -> tuple[int, ...]:
    """The types of mana the scenario's pools may hold or its costs ask for."""
    found = set(produced(scenario))
    for ability in scenario.abilities:
        cost = cost_of(ability)
        if cost is not None:
            found |= {i for i, n in enumerate(cost.mana) if n}
    for card in scenario.cards:  # a morph cost (CR 702.37) is paid from the pool too
        if card.morph is not None:
            found |= {i for i, n in enumerate(card.morph.mana) if n}
    return tuple(sorted(found))


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The optional state fields mana needs: a pool for each type the scenario uses, and the
    count of lands played this turn when a land may be played (one in a hand, or one that
    may return there)."""
    pools = tuple(MANA_FIELDS[i] for i in _used(scenario))
    return pools + (("lands",) if playable_lands(scenario) else ())


def playable_lands(scenario: Scenario) -> list[int]:
    """The lands a player may play in the scenario: in a hand, or able to return there."""
    returns = any(a.uses("return-to-hand") for a in scenario.abilities)
    return [
        c.index for c in scenario.cards if c.type == "land" and (c.zone is Zone.HAND or returns)
    ]


def payments(scenario: Scenario, ability: Ability) -> list[tuple[int, ...]]:
    """The ways to pay the generic part of ``ability``'s mana cost: how much of each type of
    mana (in :data:`COLOURS`' order) it spends on it, from the types the scenario's mana
    abilities add (one way, spending nothing, for an ability without a mana cost; none when
    no mana of the scenario can pay it)."""
    return cost_payments(scenario, cost_of(ability))


def cost_payments(scenario: Scenario, cost: Cost | None) -> list[tuple[int, ...]]:
    """The ways to pay the generic part of the mana cost ``cost`` (as :func:`payments`)."""
    generic = 0 if cost is None or cost.amount is None else cost.amount
    if generic == 0:
        return [()]
    types = produced(scenario)
    out = []
    for split in itertools.combinations_with_replacement(types, generic):
        out.append(tuple(split.count(i) for i in range(len(COLOURS))))
    return out


def _pool(ctx: Ctx, colour: int) -> list[Term] | None:
    """The pool column of one type of mana, or None when the state keeps none of it."""
    name = MANA_FIELDS[colour]
    if not ctx.w.layout.has(name):
        return None
    column: list[Term] = getattr(ctx.f, name)
    return column


def _spent(cost: Cost, spend: tuple[int, ...]) -> list[int]:
    """How much of each type paying ``cost`` this way takes from the pool."""
    extra = spend or (0,) * len(COLOURS)
    return [need + more for need, more in zip(cost.mana, extra, strict=True)]


def mana_checks(
    ctx: Ctx, ability: Ability, player: Term, spend: tuple[int, ...]
) -> Iterator[Check]:
    """Whether ``player``'s pool holds the mana to pay ``ability``'s mana cost this way."""
    yield from cost_checks(ctx, cost_of(ability), player, spend)


def cost_checks(
    ctx: Ctx, cost: Cost | None, player: Term, spend: tuple[int, ...]
) -> Iterator[Check]:
    """Whether ``player``'s pool holds the mana to pay ``cost`` this way."""
    if cost is None:
        return
    L = ctx.L
    enough: list[Term] = []
    for colour, amount in enumerate(_spent(cost, spend)):
        if amount == 0:
            continue
        pool = _pool(ctx, colour)
        if pool is None:
            enough.append(False)
            continue
        enough.append(L.pick(pool, player, 0) >= amount)
    yield Check("cost.mana", L.and_(*enough))


def pay(ctx: Ctx, ability: Ability, player: Term, spend: tuple[int, ...]) -> None:
    """Take the mana cost of ``ability`` (paid this way) from ``player``'s pool."""
    pay_cost(ctx, cost_of(ability), player, spend)


def pay_cost(ctx: Ctx, cost: Cost | None, player: Term, spend: tuple[int, ...]) -> None:
    """Take the mana cost ``cost`` (paid this way) from ``player``'s pool."""
    if cost is None:
        return
    L = ctx.L
    for colour, amount in enumerate(_spent(cost, spend)):
        pool = _pool(ctx, colour)
        if amount == 0 or pool is None:
            continue
        for p in (0, 1):
            pool[p] = L.ite(player == p, pool[p] - amount, pool[p])
    generic = cost.amount or 0
    ctx.note("pay-mana", (), spelled(generic, cost.mana), player)


def add(ctx: Ctx, player: Term, counts: tuple[int, ...], go: Term) -> None:
    """Add mana to ``player``'s pool (when ``go`` holds)."""
    L = ctx.L
    for colour, amount in enumerate(counts):
        pool = _pool(ctx, colour)
        if amount == 0 or pool is None:
            continue
        for p in (0, 1):
            adding = L.and_(go, player == p)
            pool[p] = L.ite(adding, ctx.add(pool[p], amount, adding), pool[p])


def pool_empties(ctx: Ctx) -> None:
    """The mana pools empty (the end of a step or phase, CR 500.4)."""
    for colour in range(len(COLOURS)):
        pool = _pool(ctx, colour)
        if pool is not None:
            pool[0] = pool[1] = 0
