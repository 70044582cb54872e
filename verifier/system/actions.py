"""The actions of a scenario's transition system: every label a step may carry (activate
an ability with a target and Tributes, pass, resolve, a Main Phase move, an attack...),
enumerated once from the cards, and the targets and Tributes each ability may name."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from verifier.core.state import Layout
from verifier.core.world import World
from verifier.effects import verb
from verifier.rules import (
    combat,
    mana,
    morph,
    strike,
    windows,
)
from verifier.spec.cards import HIDDEN, Ability, Zone
from verifier.spec.rulesystem import Unactivatable
from verifier.spec.scenario import Scenario


class ActionKind(StrEnum):
    """What an action does (:class:`Action`)."""

    ACTIVATE = "activate"
    """Activate an ability (its target, the cards that pay its costs)."""
    TRIGGER = "trigger"
    """A waiting trigger goes on the chain."""
    DECLINE = "decline"
    """An optional trigger is not activated."""
    PASS = "pass"
    TIMER = "timer"
    """The timer to resolve runs out (both players have pressed resolve)."""
    RESOLVE = "resolve"
    """The next link resolves (a coin toss's outcome, a card chosen as it resolves)."""
    CLEANUP = "cleanup"
    """The chain has resolved: what it leaves is cleaned up."""
    SUMMON = "summon"
    REOPEN = "reopen"
    """A finished chain gives way to an open game state in which a history goes on."""
    ADVANCE = "advance"
    """The turn moves on to another step."""
    ATTACK = "attack"
    POSITION = "position"
    """A monster's battle position changes."""
    LAND = "land"
    """A land is played (Magic's special action)."""
    UNMORPH = "unmorph"
    """A face-down creature is turned face up (Magic's special action)."""
    DECLARE = "declare"
    """Attackers are declared (Magic)."""
    BLOCK = "block"
    """Blockers are declared (Magic)."""


@dataclass(frozen=True, slots=True)
class Action:
    """A label of the transition relation.

    ``activate`` (ability, target, tributes), ``trigger`` (a waiting trigger goes on the chain),
    ``decline`` (an optional trigger is not activated), ``pass`` (player), ``timer``,
    ``resolve`` (ability, heads for coin tosses), ``cleanup``; ``summon`` and ``reopen`` (a
    finished chain gives way to an open game state in which the history goes on) are only
    taken by histories.
    """

    kind: ActionKind
    ability: int = -1
    target: int = -1
    tributes: tuple[int, ...] = ()
    player: int = -1
    heads: bool | None = None
    card: int = -1
    how: str = "normal"
    target2: int = -1
    """The second target of an ability that targets two cards (always above ``target``)."""
    mana: tuple[int, ...] = ()
    """How much of each type of mana pays the generic part of its mana cost (Magic; see
    :func:`verifier.rules.mana.payments`)."""


class IllegalTrace(Exception):
    """An action of a trace is not legal where it is taken (a bug in an engine)."""


class ActionSet:
    """The actions a system offers (its fields are set by :class:`~verifier.system.System`)."""

    scenario: Scenario
    layout: Layout
    stop: tuple[int, int] | None
    world: World
    quiet: frozenset[int]
    actions: tuple[Action, ...]
    _by_mode: dict[int, tuple[Action, ...]]
    _placements: dict[int, list[Action]]
    _mandatory: dict[int, list[Action]]
    _choosing: dict[int, tuple[Any, ...]]
    _copies: bool
    _resolving: dict[int, tuple[Action, ...]]

    # -- the actions ------------------------------------------------------------------------

    def _targets(self, ability: Ability, second: bool = False) -> list[int | None]:
        flt = ability.filter_of(second)
        if flt is None:
            return [None]
        # The players follow the cards (CR 115.1: "target player", "any target").
        players = range(self.world.n, self.world.n + 2) if flt.players else ()
        cards: list[int | None] = [
            c
            for c in range(self.world.n)
            if self.world.static_match(c, flt)
            and not (
                (ability.card_activation or any(cost.this for cost in ability.costs))
                and c == ability.card
            )
        ]
        return cards + list(players)

    def never_offered(self, ability: Ability) -> tuple[str, ...]:
        """The rules that leave ``ability`` no action at all in this scenario: no card can
        ever be its target (``target.valid``), or pay its cost (``cost.KIND``)."""
        reasons = []
        if not self._target_sets(ability):
            reasons.append("target.valid")
        if not self._tributes(ability):
            reasons.append(f"cost.{next(c.kind for c in ability.costs if c.chooses)}")
        return tuple(reasons)

    def _target_sets(self, ability: Ability) -> list[tuple[int, ...]]:
        """The ways to choose an ability's targets: as many different cards as it targets
        (in the order of the cards, as a choice of two is a set)."""
        single = [c for c in self._targets(ability) if c is not None]
        if ability.target is None:
            return [()]
        if ability.target2 is not None:
            # A filter per target (CR 115.1): the first fits the first, the second the
            # second, and they are different.
            others = [c for c in self._targets(ability, second=True) if c is not None]
            return [(a, b) for a in single for b in others if a != b]
        return list(itertools.combinations(single, ability.targets))

    def _tributes(self, ability: Ability) -> list[tuple[int, ...]]:
        """The ways to choose the card that pays the cost that chooses one (at most one cost
        does): a card that may fit, or an unlisted card of the hand."""
        wanted = [cost for cost in ability.costs if cost.chooses]
        if not wanted:
            return [()]
        flt = wanted[0].filter
        assert flt is not None
        itself = ability.may_pay_with_itself(wanted[0])
        options: list[tuple[int, ...]] = [
            (c,)
            for c in range(self.world.n)
            if (c != ability.card or itself) and self.world.static_match(c, flt)
        ]
        if wanted[0].hidden and self.layout.has("hand"):
            options.append((HIDDEN,))
        return options

    def _enumerate(self) -> Iterator[Action]:
        w = self.world
        for ability in w.abilities:
            # A copy of a spell is never cast: the effect that copies it makes it wait, and
            # its controller puts it on the stack as a trigger is (CR 707.10).
            copy = w.cards[ability.card].copy_of >= 0
            kind = w.model.kinds[
                w.cards[ability.card].kind if ability.card_activation else ability.kind
            ]
            pairs = itertools.product(
                self._target_sets(ability),
                self._tributes(ability),
                mana.payments(w.scenario, ability),
            )
            for chosen, tributes, spend in pairs:
                if any(c in tributes for c in chosen):
                    continue
                t = chosen[0] if chosen else -1
                t2 = chosen[1] if len(chosen) > 1 else -1
                how = ActionKind.TRIGGER if kind.trigger or copy else ActionKind.ACTIVATE
                yield Action(how, ability.index, t, tributes, target2=t2, mana=spend)
            if ability.trigger is not None and (
                ability.trigger.optional or w.model.unactivatable == Unactivatable.DROP
            ):
                yield Action(ActionKind.DECLINE, ability.index)
        for hidden in morph.turnable(w.scenario):
            # Magic's special action of turning a face-down creature face up (CR 116.2b).
            for spend in mana.cost_payments(w.scenario, hidden.morph):
                yield Action(
                    ActionKind.UNMORPH, card=hidden.index, player=hidden.controller, mana=spend
                )
        for land in mana.playable_lands(w.scenario):
            # Magic's land drop: a land its owner holds, or one that may return there.
            yield Action(ActionKind.LAND, card=land, player=w.cards[land].owner)
        if self.layout.has("declaring"):
            # Magic's declarations of attackers and of blockers, one move each (CR 508.1, 509.1)
            turns = (0, 1) if w.scenario.limits.get("turns", 1) > 1 else (w.turn,)
            for active in turns:
                for chosen in combat.attack_sets(w.cards, active):
                    yield Action(ActionKind.DECLARE, tributes=chosen, player=active)
                for chosen in combat.block_sets(w.cards, active):
                    yield Action(ActionKind.BLOCK, tributes=chosen, player=1 - active)
        for p in (0, 1):
            yield Action(ActionKind.PASS, player=p)
        if w.model.auto_resolve_seconds is not None:
            yield Action(ActionKind.TIMER)
        for ability in w.abilities:
            branched = any(verb(e.verb).branches for e in ability.parts())
            # A part that branches (a coin toss) resolves one way or the other: two actions.
            outcomes: tuple[bool | None, ...] = (True, False) if branched else (None,)
            # A part that acts on a card chosen as it resolves: one action per card that
            # may ever be chosen, and one that chooses none (nothing fits then).
            filters = ability.choices()
            picks = [-1] + [c for c in range(w.n) if any(w.static_match(c, f) for f in filters)]
            for heads in outcomes:
                for card in picks if filters else [-1]:
                    yield Action(ActionKind.RESOLVE, ability.index, heads=heads, card=card)
        yield Action(ActionKind.CLEANUP)
        if w.progresses:
            yield from self._turn_moves()

    def _turn_moves(self) -> Iterator[Action]:
        """The moves of a turn the scenario goes through: moving on to each step, the Main
        Phase's summons, Sets and position changes, and attacks.

        Moves that can never be legal in this scenario are left out, so that the SMT
        encoding carries no dead actions: a summon or Set of a monster that cannot reach
        its player's hand, a Flip Summon of one that can never be face-down, an attack by
        a monster the turn player can never control, a step the turn cannot move on to.
        """
        w = self.world
        turns = w.scenario.limits.get("turns", 1)
        start = w.step_index(w.scenario.step)
        # Each attack goes through the Battle Step and the Damage Step again: from a start
        # inside that loop, its earlier steps come again too.
        attacks = range(0)
        if "battle-step" in w.steps and "damage-end" in w.steps:
            first, last = w.step_index("battle-step"), w.step_index("damage-end")
            attacks = range(first, last + 1) if start <= last else range(first, first + 1)
        for dest in range(len(w.steps)):
            if w.steps[dest] == strike.FIRST and not strike.has_strikers(w):
                continue  # no creature has first strike: the turn never goes there
            if dest >= start or turns > 1 or dest in attacks:
                yield Action(ActionKind.ADVANCE, card=dest)
        used = {e.verb for a in w.abilities for e in a.parts()}
        monsters = [c for c in range(w.n) if w.cards[c].type == "monster"]
        players = (0, 1) if turns > 1 else (w.turn,)
        anyone = turns > 1 or bool(used & {"take-control", "special-summon"})

        def hand_of(c: int, p: int) -> bool:
            card = w.cards[c]
            starts = card.zone is Zone.HAND and card.controller == p
            return starts or ("return-to-hand" in used and card.owner == p)

        def controls(c: int, p: int) -> bool:
            return anyone or w.cards[c].controller == p or hand_of(c, p)

        for c in monsters:
            card = w.cards[c]
            if w.model.kinds[card.kind].cast:
                continue  # it enters by being cast (a Magic creature spell): no summon, no Set
            level = card.level or 0
            need = windows.tributes_needed(level)
            others = [m for m in monsters if m != c]
            for p in players:
                if hand_of(c, p):
                    for tributes in itertools.combinations(others, need):
                        how = "normal" if need == 0 else "tribute"
                        yield Action(
                            ActionKind.SUMMON, card=c, player=p, tributes=tributes, how=how
                        )
                        yield Action(
                            ActionKind.SUMMON, card=c, player=p, tributes=tributes, how="set"
                        )
                down = card.zone is Zone.FIELD and not card.face_up
                if hand_of(c, p) or down or "flip-face-down" in used:
                    yield Action(ActionKind.SUMMON, card=c, player=p, how="flip")
            yield Action(ActionKind.POSITION, card=c)
        if w.model.battle and "battle-step" in w.steps:
            for c in monsters:
                if not any(controls(c, p) for p in players):
                    continue
                for t in [-1, *(m for m in monsters if m != c)]:
                    yield Action(ActionKind.ATTACK, card=c, target=t)
