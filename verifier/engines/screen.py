"""Screening: the activations the rules forbid, told from a few fields of a state.

On a board of a dozen cards nearly every state offers some forty activations, of which one
or two are legal; checking each in full is most of the explorer's time. Whether a card can
be activated mostly depends on little: the step of the turn, the mode (open game state,
chain building, resolving), where the card and the cards it names are (zone, face-up,
controller) and how often the ability was used. This module runs the activation's guard on
the *set* of states that agree on those few fields (:mod:`verifier.core.abstract`: every
other field unknown); when a check comes out plainly false there, no such state allows the
activation, and the explorer skips it without running its checks. Otherwise (and whenever
the abstract run cannot decide) the checks run on the concrete state as always, so the
legal actions are exactly the same; only their cost changes.

The answer for each (action, those fields) is computed once and kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from verifier.core.abstract import ANY
from verifier.core.state import State
from verifier.engines.slicing import forbidding
from verifier.system import Action, ActionKind, System

__all__ = ["Screen"]

SCALARS = ("step", "mode", "right", "clen")
"""The scalar fields a screen looks at (those the layout has): the step of the turn, the
mode, who may act next, how long the chain is."""

PER_CARD = ("zone", "up", "ctrl")
"""The fields of the card whose ability is activated (or that attacks, is summoned...)."""

PER_ABILITY = ("uses", "cuse")
"""The fields of the ability activated (uses this turn, this chain)."""

SCREENED = frozenset(
    {
        ActionKind.ACTIVATE,
        ActionKind.ATTACK,
        ActionKind.SUMMON,
        ActionKind.POSITION,
        ActionKind.ADVANCE,
        ActionKind.PASS,
    }
)
"""The kinds of action screened: those offered whatever the state's mode. (Resolving a
link, the candidates of the resolution mode, are picked from the chain already.)"""

MOVING = frozenset({ActionKind.ATTACK, ActionKind.SUMMON, ActionKind.POSITION})
"""The kinds whose ``card`` is the card that moves (``advance``'s is a step)."""


class Screen:
    """The legal actions of a system's states, with the activations the rules forbid on a
    state's few telling fields skipped before their checks run."""

    def __init__(self, system: System) -> None:
        self.system = system
        layout, world = system.layout, system.world
        self.scalars = tuple(layout.position(n) for n in SCALARS if layout.has(n))
        self.per_card = tuple(layout.position(n) for n in PER_CARD)
        self.per_ability = tuple(layout.position(n) for n in PER_ABILITY)
        # For each screened action (by identity: the system's own objects, kept here): the
        # card whose fields its key holds and the ability (-1: none).
        cards = len(world.cards)
        self._actions = system.actions
        self._named: dict[int, tuple[int, int]] = {}
        for action in system.actions:
            if action.kind not in SCREENED:
                continue
            if action.ability >= 0:
                card = world.abilities[action.ability].card
            else:
                card = action.card if action.kind in MOVING and action.card < cards else -1
            self._named[id(action)] = (card, action.ability)
        # By the scalar fields, then by action and its card's and ability's fields: whether
        # the action may be legal.
        self._open: dict[tuple[object, ...], dict[tuple[int, ...], bool]] = {}
        self.computed = 0  # abstract runs made (for the figures)
        # Every field unknown (arrays of unknowns): what each abstract run starts from,
        # shaped like the first state screened.
        self._unknown: tuple[object, ...] = ()

    @property
    def reads(self) -> tuple[int, ...]:
        """The positions of the fields a sieve reads (its answers depend on nothing else)."""
        return self.scalars + self.per_card + self.per_ability

    def enabled(self, state: State) -> Iterator[Action]:
        """The legal actions in ``state``, exactly those of
        :meth:`~verifier.system.System.enabled_actions`."""
        return self.system.enabled_actions(state, self.sieve(state))

    def sieve(self, state: State) -> Callable[[Action], bool]:
        """For ``state``: whether an action may be legal there (False: the rules forbid it in
        every state that agrees with ``state`` on the screened fields, so it is not)."""
        scalars = tuple([state[p] for p in self.scalars])
        known = self._open.get(scalars)
        if known is None:
            known = self._open[scalars] = {}
        zone, up, ctrl = (state[p] for p in self.per_card)
        uses, cuse = (state[p] for p in self.per_ability)
        named = self._named

        def may(action: Action) -> bool:
            found = named.get(id(action))
            if found is None:
                return True
            card, ability = found
            if card < 0:
                key: tuple[int, ...] = (id(action),)
            elif ability < 0:
                key = (id(action), zone[card], up[card], ctrl[card])
            else:
                key = (id(action), zone[card], up[card], ctrl[card], uses[ability], cuse[ability])
            answer = known.get(key)
            if answer is None:
                answer = known[key] = self._possible(state, action, card, ability)
            return answer

        return may

    def _possible(self, state: State, action: Action, card: int, ability: int) -> bool:
        """Run the guard of ``action`` on every state that agrees with ``state`` on the
        screened fields (its card's and ability's), every other field unknown."""
        self.computed += 1
        if not self._unknown:
            self._unknown = tuple(
                ANY if f.over is None else tuple(ANY for _ in value)
                for f, value in zip(self.system.layout.fields, state, strict=True)
            )
        fields = list(self._unknown)
        for p in self.scalars:
            fields[p] = state[p]
        known = [(p, card) for p in self.per_card] + [(p, ability) for p in self.per_ability]
        for p, i in known:
            if i >= 0:
                column = list(self._unknown[p])  # type: ignore[call-overload]
                column[i] = state[p][i]
                fields[p] = tuple(column)
        return forbidding(self.system, tuple(fields), action, first=True) is None
