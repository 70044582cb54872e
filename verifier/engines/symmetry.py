"""Symmetry reduction: interchangeable cards are explored in one order only.

Two cards are *interchangeable* when everything the rules know of them is the same except
their names: the same definition (kind, controller, zone, face, statistics, continuous
effects) and the same abilities, in order, and no claim names either. Renaming one into the
other maps every continuation onto a continuation (the rules read a card's definition, never
its name or its position in the list), so two states that differ only by such a renaming
have the same futures, up to that renaming, and the same claim values. The explorer keeps one
state of each such class, its *canonical form*: the interchangeable cards sorted by what the
state says of them. N copies of a card then cost one, not N! orders.

A canonical form is always a renaming of the state it stands for, so a continuation through
canonical forms is turned back into a continuation of real actions by replaying it
(:func:`concrete_path`); traces are never told in renamed cards.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from verifier.claims import ast
from verifier.core.logic import CONCRETE
from verifier.core.state import State
from verifier.core.world import World
from verifier.spec.cards import Ability, Card
from verifier.system import Action, System

__all__ = ["Symmetry", "concrete_path", "interchangeable", "named_cards"]

Canon = Callable[[State], State]

_NOWHERE: list[int] = []  # where a card no array names is named (read, never changed)


def named_cards(formula: ast.Formula) -> frozenset[int]:
    """The cards a claim names (``"X"`` in any atom): they are never renamed."""
    named: set[int] = set()
    stack: list[Any] = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
            continue
        if not dataclasses.is_dataclass(node):
            continue
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if f.name in ("card", "first", "second") and isinstance(value, int):
                named.add(value)
            elif f.name == "cards" and isinstance(value, tuple):
                named.update(v for v in value if isinstance(v, int))
            elif f.name in ("arg", "args", "body"):
                stack.append(value)
    return frozenset(named)


def _card_key(card: Card, world: World) -> tuple[Any, ...]:
    """Everything the rules know of a card, but its name and its place in the list (and its
    printed name, which only a "once per turn" by name reads)."""
    fields = dataclasses.fields(card)
    skip = {"index", "name", "span", "abilities"}
    if not world.once_shared:
        skip.add("printed")
    own = tuple(getattr(card, f.name) for f in fields if f.name not in skip)
    abilities = tuple(_ability_key(world.abilities[a]) for a in card.abilities)
    return own, abilities


def _ability_key(ability: Ability) -> tuple[Any, ...]:
    skip = {"index", "card", "span", "label"}  # a label only words notes ("Trap 1's effect")
    return tuple(
        getattr(ability, f.name) for f in dataclasses.fields(ability) if f.name not in skip
    )


def interchangeable(world: World, named: Iterable[int] = ()) -> tuple[tuple[int, ...], ...]:
    """The classes (two cards or more) of interchangeable cards not in ``named``.

    A card another card's definition points to (a Magic blocker's attacker) stays alone, as
    does a token slot or a spell's copy slot (used in the order of their slots), and the card
    whose slots they are.
    """
    kept = set(named)
    for card in world.cards:
        if card.blocking >= 0:
            kept.update((card.index, card.blocking))
        # An effect creates its tokens, and its copies of a spell, in the order of their
        # slots (the first unused first), and a slot names the card it belongs to: neither
        # the slots nor that card can be renamed without the other.
        if card.token:
            kept.add(card.index)
            if card.maker >= 0:
                kept.add(world.abilities[card.maker].card)
        if card.copy_of >= 0:
            kept.update((card.index, card.copy_of))
    classes: dict[tuple[Any, ...], list[int]] = {}
    for card in world.cards:
        if card.index not in kept:
            classes.setdefault(_card_key(card, world), []).append(card.index)
    return tuple(tuple(members) for members in classes.values() if len(members) > 1)


class Symmetry:
    """The canonical form of states under renamings of interchangeable cards."""

    __slots__ = ("_abilities", "_by_ability", "_by_card", "_classes", "_refs", "_scalars")

    def __init__(self, world: World, classes: Sequence[Sequence[int]]) -> None:
        layout = world.layout
        self._classes = tuple(tuple(c) for c in classes)
        self._abilities = tuple(world.cards[c].abilities for c in range(world.n))
        self._by_card: list[int] = []  # positions of per-card arrays
        self._by_ability: list[int] = []  # positions of per-ability arrays
        # positions of arrays whose values name a card or an ability, and of such scalars
        self._refs: list[tuple[int, str]] = []
        self._scalars: list[tuple[int, str]] = []
        for position, f in enumerate(layout.fields):
            if f.over == "card":
                self._by_card.append(position)
            elif f.over == "ability":
                self._by_ability.append(position)
            if f.refers is not None:
                target = self._refs if f.over is not None else self._scalars
                target.append((position, f.refers))

    @property
    def classes(self) -> tuple[tuple[int, ...], ...]:
        return self._classes

    def __bool__(self) -> bool:
        return bool(self._classes)

    def _named_at(self, state: State) -> list[tuple[dict[int, list[int]], str]]:
        """For each array that names cards or abilities: where each one is named."""
        out: list[tuple[dict[int, list[int]], str]] = []
        for position, refers in self._refs:
            where: dict[int, list[int]] = {}
            for i, value in enumerate(state[position]):
                if value >= 0:
                    where.setdefault(value, []).append(i)
            out.append((where, refers))
        return out

    def canonical(self, state: State) -> State:
        """The representative of ``state``'s class: a renaming of it (itself when no
        renaming sorts the interchangeable cards differently).

        The interchangeable cards of each class are sorted by what ``state`` says of them:
        their entries, their abilities' entries, and where they and their abilities are
        named (which chain link, which log entry).
        """
        own = list(zip(*[state[p] for p in self._by_card], strict=True))
        per_ability = list(zip(*[state[p] for p in self._by_ability], strict=True))
        named_at = self._named_at(state)
        scalars = [(state[p], refers) for p, refers in self._scalars]
        cards: dict[int, int] = {}
        for members in self._classes:
            keyed = []
            for card in members:
                abilities = self._abilities[card]
                named: list[Any] = []
                for where, refers in named_at:
                    if refers == "card":
                        named.append(where.get(card, _NOWHERE))
                    elif len(abilities) == 1:
                        named.append(where.get(abilities[0], _NOWHERE))
                    else:
                        named.append(sorted(i for a in abilities for i in where.get(a, ())))
                for value, refers in scalars:
                    named.append(value == card if refers == "card" else value in abilities)
                key = (own[card], [per_ability[a] for a in abilities], named)
                keyed.append((key, card))
            keyed.sort()
            for new, (_, old) in zip(members, keyed, strict=True):
                if new != old:
                    cards[old] = new
        if not cards:
            return state
        return self._renamed(state, cards)

    def _renamed(self, state: State, cards: dict[int, int]) -> State:
        """``state`` with card ``old`` called ``cards[old]`` (and its abilities likewise)."""
        abilities: dict[int, int] = {}
        for old, new in cards.items():
            abilities.update(zip(self._abilities[old], self._abilities[new], strict=True))
        out = list(state)
        for position in self._by_card:
            column = list(state[position])
            for old, new in cards.items():
                column[new] = state[position][old]
            out[position] = tuple(column)
        for position in self._by_ability:
            column = list(state[position])
            for old, new in abilities.items():
                column[new] = state[position][old]
            out[position] = tuple(column)
        for position, refers in self._refs:
            mapping = cards if refers == "card" else abilities
            out[position] = tuple(mapping.get(v, v) for v in out[position])
        for position, refers in self._scalars:
            mapping = cards if refers == "card" else abilities
            out[position] = mapping.get(out[position], out[position])
        return tuple(out)


def concrete_path(
    system: System, start: State, canonical: Canon, targets: Sequence[State]
) -> list[Action]:
    """Real actions from ``start`` through states whose canonical forms are ``targets``
    (the states of a continuation found among canonical forms), in order.

    Each target is a renaming of a successor of the state reached so far, so some enabled
    action reaches it; the first such action (in the system's order) is taken.
    """
    actions: list[Action] = []
    state = start
    for target in targets:
        for action in system.enabled_actions(state):
            successor = system.step(CONCRETE, state, action)
            if canonical(successor) == target:
                actions.append(action)
                state = successor
                break
        else:
            raise AssertionError("a canonical continuation that no real one follows")
    return actions
