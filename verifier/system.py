"""The one semantics: every legal action from a state, and what each action does.

A :class:`System` is assembled from a scenario's rule system (which selects the primitives in
:mod:`verifier.rules`) and its cards (which select the effects in :mod:`verifier.effects`).
Both engines use it unchanged: the explorer with :data:`verifier.core.logic.CONCRETE`, the SMT
engine with z3 terms. Actions are concrete labels; only the state may be symbolic.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from verifier.core.logic import CONCRETE, Logic, Term
from verifier.core.state import Capacity, Layout, Mode, Outcome, State
from verifier.core.world import World, build_world
from verifier.effects import Link, apply_effects, target_fits, verb
from verifier.effects.movement import choosable, would_act, would_destroy
from verifier.effects.resources import enough_in_deck
from verifier.effects.veil import activated_negated
from verifier.games import game
from verifier.rules import (
    activation,
    battle,
    cleanup,
    colors,
    combat,
    events,
    locks,
    mana,
    morph,
    protocol,
    resolution,
    sba,
    speed,
    storm,
    strike,
    triggers,
    turn,
    windows,
)
from verifier.rules.context import (
    Check,
    Ctx,
    Note,
    append,
    first_only,
    matches,
    on_field,
    turn_player,
)
from verifier.spec.cards import HIDDEN, Ability, Zone
from verifier.spec.scenario import Scenario

__all__ = ["Action", "IllegalTrace", "System", "build_system"]


@dataclass(frozen=True, slots=True)
class Action:
    """A label of the transition relation.

    ``activate`` (ability, target, tributes), ``trigger`` (a waiting trigger goes on the chain),
    ``decline`` (an optional trigger is not activated), ``pass`` (player), ``timer``,
    ``resolve`` (ability, heads for coin tosses), ``cleanup``; ``summon`` and ``reopen`` (a
    finished chain gives way to an open game state in which the history goes on) are only
    taken by histories.
    """

    kind: str
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


class System:
    """The transition relation of one scenario."""

    def __init__(
        self, scenario: Scenario, layout: Layout, stop: tuple[int, int] | None = None
    ) -> None:
        self.scenario = scenario
        self.layout = layout
        # (chain, link): continuations end where Chain Link `link` of chain number `chain`
        # has just resolved (a claim's after_link); None: at their natural end.
        self.stop = stop
        self.world: World = build_world(scenario, layout)
        self.quiet = turn.quiet_steps(self.world) if self.world.progresses else frozenset()
        self.actions: tuple[Action, ...] = tuple(self._enumerate())
        # Each action kind's guard starts by requiring a mode: index the candidates by mode.
        self._by_mode: dict[int, tuple[Action, ...]] = {
            int(mode): tuple(a for a in self.actions if mode in _MODES.get(a.kind, ()))
            for mode in Mode
        }
        self._placements: dict[int, list[Action]] = {}
        for action in self.actions:
            if action.kind == "trigger":
                self._placements.setdefault(action.ability, []).append(action)
        # The activations of mandatory Quick Effects: while one can be made, it must be.
        self._mandatory: dict[int, list[Action]] = {}
        for action in self.actions:
            if action.kind == "activate" and self.world.abilities[action.ability].mandatory:
                self._mandatory.setdefault(action.ability, []).append(action)
        # The abilities with a part that acts on a card chosen as it resolves: their filters.
        self._choosing = {
            a.index: tuple(a.choosing()) for a in self.world.abilities if a.choosing()
        }
        # Copies of spells (Magic): an effect may put one on the stack above itself.
        self._copies = any(c.copy_of >= 0 for c in self.world.cards)
        self._resolving: dict[int, tuple[Action, ...]] = {}
        for action in self.actions:
            if action.kind == "resolve":
                self._resolving.setdefault(action.ability, ())
                self._resolving[action.ability] += (action,)

    def stopping_after(self, chain: int, link: int) -> System:
        """The same relation, whose continuations end where Chain Link ``link`` of chain
        number ``chain`` has just resolved (before the next link, or the cleanup)."""
        return System(self.scenario, self.layout, (chain, link))

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
                how = "trigger" if kind.trigger or copy else "activate"
                yield Action(how, ability.index, t, tributes, target2=t2, mana=spend)
            if ability.trigger is not None and (
                ability.trigger.optional or w.model.unactivatable == "drop"
            ):
                yield Action("decline", ability.index)
        for hidden in morph.turnable(w.scenario):
            # Magic's special action of turning a face-down creature face up (CR 116.2b).
            for spend in mana.cost_payments(w.scenario, hidden.morph):
                yield Action("unmorph", card=hidden.index, player=hidden.controller, mana=spend)
        for land in mana.playable_lands(w.scenario):
            # Magic's land drop: a land its owner holds, or one that may return there.
            yield Action("land", card=land, player=w.cards[land].owner)
        if self.layout.has("declaring"):
            # Magic's declarations of attackers and of blockers, one move each (CR 508.1, 509.1)
            turns = (0, 1) if w.scenario.limits.get("turns", 1) > 1 else (w.turn,)
            for active in turns:
                for chosen in combat.attack_sets(w.cards, active):
                    yield Action("declare", tributes=chosen, player=active)
                for chosen in combat.block_sets(w.cards, active):
                    yield Action("block", tributes=chosen, player=1 - active)
        for p in (0, 1):
            yield Action("pass", player=p)
        if w.model.auto_resolve_seconds is not None:
            yield Action("timer")
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
                    yield Action("resolve", ability.index, heads=heads, card=card)
        yield Action("cleanup")
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
                yield Action("advance", card=dest)
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
                        yield Action("summon", card=c, player=p, tributes=tributes, how=how)
                        yield Action("summon", card=c, player=p, tributes=tributes, how="set")
                down = card.zone is Zone.FIELD and not card.face_up
                if hand_of(c, p) or down or "flip-face-down" in used:
                    yield Action("summon", card=c, player=p, how="flip")
            yield Action("position", card=c)
        if w.model.battle and "battle-step" in w.steps:
            for c in monsters:
                if not any(controls(c, p) for p in players):
                    continue
                for t in [-1, *(m for m in monsters if m != c)]:
                    yield Action("attack", card=c, target=t)

    # -- guards and steps -------------------------------------------------------------------

    def checks(self, L: Logic, state: State, action: Action) -> Iterator[Check]:
        """The named conditions under which ``action`` is legal in ``state``."""
        ctx = Ctx(L, self.layout.frame(state), self.world)
        return self._checks(ctx, action)

    def enabled_actions(
        self, state: State, may: Callable[[Action], bool] | None = None
    ) -> Iterator[Action]:
        """The legal actions in the concrete ``state`` (one frame for all their guards).

        ``may``, when given, is asked first of each candidate: False when it knows the
        action is not legal there (:mod:`verifier.engines.screen`), so its checks are not
        run; it must never say False of a legal action."""
        return self.legal(Ctx(CONCRETE, self.layout.frame(state), self.world), may)

    def legal(self, ctx: Ctx, may: Callable[[Action], bool] | None = None) -> Iterator[Action]:
        """The legal actions in the concrete state ``ctx`` reads (every field it reads is
        read through ``ctx.f``: :mod:`verifier.engines.recall` memoises on them)."""
        mode: int = ctx.f.mode  # type: ignore[assignment]  # a concrete state
        if mode == Mode.RESOLVE:
            nxt = ctx.memo["next"] = resolution.next_links(ctx)
            labs: tuple[int, ...] = ctx.f.lab  # type: ignore[assignment]
            candidates: tuple[Action, ...] = ()
            for slot, ready in enumerate(nxt):
                if ready:
                    candidates += self._resolving.get(labs[slot], ())
        else:
            candidates = self._by_mode[mode]
        for action in candidates:
            if may is not None and not may(action):
                continue
            if all(check.ok for check in self._checks(ctx, action)):
                yield action

    def _checks(self, ctx: Ctx, action: Action) -> Iterator[Check]:
        w = self.world
        kind = action.kind
        # A state past a fixed capacity is not faithful: nothing is followed from it.
        yield Check("capacity", ctx.f.overflow == int(Capacity.NONE))
        if self._mandatory and kind in WAIT_FOR_MANDATORY:
            yield from self._mandatory_checks(ctx, action)
        if kind == "activate":
            if not w.abilities[action.ability].mandatory:
                yield from self._activation_checks(ctx, action)
            else:
                # A mandatory Quick Effect does not wait for the right to respond.
                for check in self._activation_checks(ctx, action):
                    if check.rule != "chain.right-to-respond":
                        yield check
        elif kind == "pass":
            yield from protocol.may_pass(ctx, action.player)
        elif kind == "resolve":
            yield Check("resolve.mode", ctx.f.mode == int(Mode.RESOLVE))
            yield Check("resolve.next", ctx.L.or_(*self._selected(ctx, action.ability)))
            if action.ability in self._choosing:
                yield Check("resolve.choice", self._choice(ctx, action))
        elif kind == "cleanup":
            yield Check("cleanup.mode", ctx.f.mode == int(Mode.CLEANUP))
        elif kind == "trigger":
            yield from triggers.may_place(ctx, action.ability)
            yield from self._placement_checks(ctx, action)
        elif kind == "decline":
            yield from triggers.may_place(ctx, action.ability)
            spec = w.abilities[action.ability].trigger
            assert spec is not None
            if not spec.optional:
                # A mandatory trigger that cannot be activated (no legal target, no way to
                # pay) is not activated at all.
                placeable = [
                    ctx.L.and_(*(c.ok for c in self._placement_checks(ctx, placing)))
                    for placing in self._placements.get(action.ability, [])
                ]
                yield Check("triggers.mandatory", ctx.L.not_(ctx.L.or_(*placeable)))
        elif kind == "timer":
            yield from protocol.may_time_out(ctx)
        elif kind == "summon":
            yield from windows.summon_checks(
                ctx, action.card, action.player, action.tributes, action.how
            )
        elif kind == "advance":
            yield from turn.advance_checks(ctx, action.card)
        elif kind == "attack":
            yield from battle.attack_checks(ctx, action.card, action.target)
        elif kind == "position":
            yield from turn.position_checks(ctx, action.card)
        elif kind == "land":
            yield from turn.land_checks(ctx, action.card, action.player)
        elif kind == "unmorph":
            yield from morph.checks(ctx, action.card, action.player, action.mana)
        elif kind in ("declare", "block"):
            yield from combat.declaration_checks(ctx, kind, action.tributes, action.player)
        elif kind == "reopen":
            yield Check("history.reopen", ctx.f.mode == int(Mode.DONE))
        else:
            raise ValueError(f"unknown action kind {kind!r}")

    def _activation_checks(self, ctx: Ctx, action: Action) -> Iterator[Check]:
        """Every rule an activation must satisfy (but the mandatory Quick Effects')."""
        target = None if action.target < 0 else action.target
        ability = self.world.abilities[action.ability]
        player = ctx.f.ctrl[ability.card]
        yield from activation.activation_checks(ctx, ability, target, action.tributes)
        yield from self._second_target(ctx, action, player)
        yield from self._effect_checks(ctx, ability, player)
        yield from mana.mana_checks(ctx, ability, player, action.mana)
        condition = ability.condition
        if condition is not None and condition.would_destroy is not None:
            threat = would_destroy(ctx, condition.would_destroy, condition.at_least, player)
            yield Check("card.condition", threat)

    def _mandatory_checks(self, ctx: Ctx, action: Action) -> Iterator[Check]:
        """Mandatory Quick Effects (Yugipedia, "Mandatory effect": one whose activation
        condition is met must be activated; such effects go on the chain as SEGOC orders
        simultaneous triggers): while one can be activated, nobody passes or does anything
        else, and the turn player's go first."""
        L = ctx.L
        if action.kind == "activate" and self.world.abilities[action.ability].mandatory:
            tp = turn_player(ctx)
            me = ctx.f.ctrl[self.world.abilities[action.ability].card]
            yield Check("quick.mandatory-first", L.or_(me == tp, L.not_(self._pending(ctx, tp))))
        else:
            yield Check("quick.mandatory", L.not_(self._pending(ctx)))

    def _pending(self, ctx: Ctx, player: Term | None = None) -> Term:
        """Whether a mandatory Quick Effect (of ``player``'s, when given) can be activated
        now, whoever holds the right to respond."""
        L, w = ctx.L, self.world
        cases = []
        for index, actions in self._mandatory.items():
            mine = True if player is None else ctx.f.ctrl[w.abilities[index].card] == player
            for action in actions:
                checks = self._activation_checks(ctx, action)
                oks = [c.ok for c in checks if c.rule != "chain.right-to-respond"]
                cases.append(L.and_(mine, *oks))
        return L.or_(*cases)

    def _choice(self, ctx: Ctx, action: Action) -> Term:
        """Whether the card a resolution chooses (``action.card``; -1: none) may be chosen:
        one its effect's filter fits now, when the effect applies; none only when it does
        not apply or no card fits."""
        L, f = ctx.L, ctx.f
        ability = self.world.abilities[action.ability]
        slot = self._selected(ctx, action.ability)
        me = L.select(slot, f.lpl, 0)
        outcome = self._outcome(
            ctx,
            ability,
            me,
            L.select(slot, f.ltg, -1),
            L.select(slot, f.ltg2, -1) if self.layout.has("ltg2") else -1,
            L.select(slot, f.lneg, False),
            L.select(slot, f.leneg, False),
        )
        applies = outcome == int(Outcome.RESOLVED)
        masks = [choosable(ctx, ability, part, me) for part in self._choosing[ability.index]]
        if action.card >= 0:
            return L.and_(applies, L.or_(*(mask[action.card] for mask in masks)))
        return L.or_(L.not_(applies), L.not_(L.or_(*(m for mask in masks for m in mask))))

    def _placement_checks(self, ctx: Ctx, action: Action) -> Iterator[Check]:
        """Target and cost of a trigger going on the chain."""
        ability = self.world.abilities[action.ability]
        player = ctx.f.pctrl[ability.index]
        target = None if action.target < 0 else action.target
        if ability.target is not None:
            fits = target is not None and matches(ctx, target, ability.target, player, ability.card)
            yield Check("target.valid", fits)
        yield from locks.activation_locks(ctx, ability, player)
        yield from locks.target_locks(ctx, ability, target, player)
        yield from activation.cost_checks(ctx, ability, player, target, action.tributes)
        yield from mana.mana_checks(ctx, ability, player, action.mana)
        yield from self._second_target(ctx, action, player)
        yield from self._effect_checks(ctx, ability, player)
        yield from activation.once_checks(ctx, ability, player)
        yield from triggers.one_from_hand(ctx, ability.index, player)

    def _effect_checks(self, ctx: Ctx, ability: Ability, player: Term) -> Iterator[Check]:
        """Under ``activation_needs_effect``: an effect that would do nothing now (every
        part acts on all cards of a kind, and none is there) is not activated."""
        if self.world.model.needs_effect:
            yield Check("card.no-effect", would_act(ctx, ability, player))
            yield Check("deck.too-few", enough_in_deck(ctx, ability, player))

    def _second_target(self, ctx: Ctx, action: Action, player: Term) -> Iterator[Check]:
        """The second target of an ability that targets two cards fits too (CR 601.2c), and
        no continuous effect protects it from this activation (no card pays a cost and is
        targeted at once: :meth:`_enumerate` leaves such choices out)."""
        if action.target2 < 0:
            return
        ability = self.world.abilities[action.ability]
        flt = ability.filter_of(second=True)
        assert flt is not None
        second = action.target2
        yield Check("target.valid", matches(ctx, second, flt, player, ability.card))
        yield from locks.target_locks(ctx, ability, second, player)

    def turn_actions(self) -> int:
        """At most how many actions a continuation spends on its turn besides its chains:
        each step it goes through (both pass, it moves on), each Battle and Damage Step
        again for every attack, each summon, Set, position change, attack and replay."""
        w = self.world
        if not w.progresses:
            return 0
        monsters = sum(c.type == "monster" for c in w.cards)
        visits = len(w.steps) + 2 * monsters * 7
        turns = w.scenario.limits.get("turns", 1)
        return turns * (3 * visits + 3 * 6 * monsters)

    def illegal(self, state: State, action: Action) -> list[str]:
        """The rules that forbid ``action`` in the concrete ``state`` (none: it is legal)."""
        return [c.rule for c in self.checks(CONCRETE, state, action) if not c.ok]

    def run(self, start: State, actions: Sequence[Action]) -> State:
        """The concrete state after ``actions`` from ``start``; raise :class:`IllegalTrace`
        at an action that is not legal where it is taken."""
        state = start
        for action in actions:
            failed = self.illegal(state, action)
            if failed:
                raise IllegalTrace(f"{action} is not legal: {', '.join(failed)}")
            state = self.step(CONCRETE, state, action)
        return state

    def enabled(self, state: State, action: Action) -> bool:
        """Whether ``action`` is legal in the concrete ``state``."""
        return all(check.ok for check in self.checks(CONCRETE, state, action))

    def step(
        self, L: Logic, state: State, action: Action, notes: list[Note] | None = None
    ) -> State:
        """The state after ``action`` (assumed legal)."""
        ctx = Ctx(L, self.layout.frame(state, writable=True), self.world, notes)
        self.apply(ctx, action)
        return ctx.f.dump()

    def apply(self, ctx: Ctx, action: Action) -> None:
        """Change the state ``ctx`` writes (a writable frame) by ``action`` (assumed legal),
        reading it only through ``ctx.f``."""
        kind = action.kind
        if kind == "activate":
            self._activate(ctx, action)
        elif kind == "pass":
            ctx.note("pass", (), "", action.player)
            if self.world.progresses and self.world.model.battle:
                battle.on_pass(ctx, action.player)
            windows.close_open_state(ctx, protocol.pass_(ctx, action.player))
        elif kind == "resolve":
            self._resolve(ctx, action)
        elif kind == "cleanup":
            cleanup.cleanup(ctx)
        elif kind == "trigger":
            self._place_trigger(ctx, action)
        elif kind == "decline":
            ability = self.world.abilities[action.ability]
            ctx.f.pend[action.ability] = 0
            ctx.note("decline", [ability.card], ability.label)
            triggers.after_placing(ctx)
        elif kind == "timer":
            ctx.note("timer")
            protocol.time_out(ctx)
        elif kind == "summon":
            self._summon(ctx, action)
        elif kind == "advance":
            turn.advance(ctx, action.card, self.quiet)
        elif kind == "attack":
            battle.attack(ctx, action.card, action.target)
        elif kind == "position":
            turn.change_position(ctx, action.card)
        elif kind == "land":
            turn.play_land(ctx, action.card, action.player)
        elif kind == "unmorph":
            morph.turn_face_up(ctx, action.card, action.player, action.mana)
        elif kind in ("declare", "block"):
            combat.declare(ctx, kind, action.tributes)
        elif kind == "reopen":
            ctx.f.mode = int(Mode.OPEN)
            protocol.open_state(ctx, True)
        else:
            raise ValueError(f"unknown action kind {kind!r}")

    def _summon(self, ctx: Ctx, action: Action) -> None:
        """A Normal, Tribute, Flip or Special Summon, or a Set, by the turn player."""
        f, w = ctx.f, self.world
        if action.how == "set":
            turn.set_monster(ctx, action.card, action.tributes)
            return
        if w.layout.has("nsum"):
            # It is summoned in face-up Attack Position, and its position stays this turn.
            f.dpos[action.card] = False
            f.fixed[action.card] = True
            if action.how in ("normal", "tribute"):
                f.nsum = f.nsum + 1
        windows.summon(ctx, action.card, action.player, action.how, action.tributes)

    # -- activation ---------------------------------------------------------------------------

    def _activate(self, ctx: Ctx, action: Action) -> None:
        L, f = ctx.L, ctx.f
        ability = self.world.abilities[action.ability]
        card = ability.card
        player = f.ctrl[card]
        target = None if action.target < 0 else action.target
        spd = speed.activation_speed(ctx, ability)
        at_once = activation.instant(ctx, spd)
        events.chain_begins(ctx)
        ctx.event()
        ctx.note("activate", [card], ability.label, player, spd)
        veiled = activated_negated(ctx, ability)  # before a cost moves the card
        activation.pay_costs(ctx, ability, player, action.tributes)
        mana.pay(ctx, ability, player, action.mana)
        triggers.targeted(ctx, target)
        triggers.targeted(ctx, self._second(action))
        if ability.card_activation:
            # Yu-Gi-Oh!: an activated card stays face-up in its zone; Magic: a spell is cast
            # onto the stack (CR 601.2a).
            on_stack = self.world.model.card_zone == "stack"
            f.zone[card] = int(Zone.STACK if on_stack else Zone.FIELD)
            f.up[card] = True
            storm.cast(ctx, ability)
        activation.count_use(ctx, ability.index, player)
        stacked = L.not_(at_once)
        activation.record(
            ctx,
            ability,
            player,
            L.ite(stacked, f.clen + 1, 0),
            segoc=False,
            targets=(target, self._second(action)),
        )
        activation.push_link(
            ctx, ability, player, target, spd, stacked, veiled, self._second_slot(action)
        )
        protocol.after_add(ctx, player, stacked)
        if not L.is_false(at_once):
            self._resolve_at_once(ctx, ability, player, target, spd, at_once, action)
        if self.world.model.triggers_at_priority:
            # CR 117.5, 603.3: what triggered while the spell was cast (a creature sacrificed
            # to pay for it) goes on the stack before its caster receives priority.
            waiting = triggers.collect(ctx, after_chain=False)
            f.mode = L.ite(waiting, int(Mode.TRIGGERS), f.mode)

    @staticmethod
    def _second(action: Action) -> int | None:
        return None if action.target2 < 0 else action.target2

    def _second_slot(self, action: Action) -> int | None:
        """What the link's second-target slot gets: None when the state keeps no such slot."""
        return action.target2 if self.layout.has("ltg2") else None

    def _resolve_at_once(
        self,
        ctx: Ctx,
        ability: Ability,
        player: Term,
        target: int | None,
        spd: Term,
        when: Term,
        action: Action,
    ) -> None:
        """Speeds that never stack (CMC's S; every speed before the speed system)."""
        L, f = ctx.L, ctx.f
        slots: list[Term] = [False] * self.layout.slots
        tg = -1 if target is None else target
        self._resolve_link(
            ctx, ability, player, tg, slots, slots, None, False, False, spd, when, action.target2
        )
        card = self.world.cards[ability.card]
        if card.type == "spell":
            gone = L.and_(
                when, on_field(ctx, card.index), L.not_(L.and_(card.stays, f.active[card.index]))
            )
            f.zone[card.index] = L.ite(gone, int(Zone.GRAVEYARD), f.zone[card.index])
            f.ctrl[card.index] = L.ite(gone, card.owner, f.ctrl[card.index])

    # -- triggers -----------------------------------------------------------------------------

    def _place_trigger(self, ctx: Ctx, action: Action) -> None:
        L, f = ctx.L, ctx.f
        ability = self.world.abilities[action.ability]
        player = f.pctrl[ability.index]
        target = None if action.target < 0 else action.target
        events.chain_begins(ctx)
        ctx.event()
        ctx.note("activate", [ability.card], ability.label, player)
        veiled = activated_negated(ctx, ability)
        activation.pay_costs(ctx, ability, player, action.tributes)
        mana.pay(ctx, ability, player, action.mana)
        triggers.targeted(ctx, target)
        triggers.targeted(ctx, self._second(action))
        spd = speed.activation_speed(ctx, ability)
        card = self.world.cards[ability.card]
        copy = card.copy_of >= 0
        # A copy is logged with its link and targets; being put on the stack, not cast, it
        # is never "activated" (claims::evaluate leaves it out of activates and responds).
        activation.record(
            ctx,
            ability,
            player,
            f.clen + 1,
            segoc=not copy,
            targets=(target, self._second(action)),
        )
        if copy:
            f.zone[card.index] = int(Zone.STACK)
            f.ctrl[card.index] = player
        activation.push_link(
            ctx, ability, player, target, spd, True, veiled, self._second_slot(action)
        )
        f.mode = int(Mode.TRIGGERS)
        a = ability.index
        f.pend[a] = f.pend[a] - 1
        f.pseq[a] = L.ite(f.pend[a] > 0, f.plast[a], f.pseq[a])
        activation.count_use(ctx, a, player)
        triggers.after_placing(ctx)

    # -- resolution ---------------------------------------------------------------------------

    def _selected(self, ctx: Ctx, ability: int) -> list[Term]:
        """The slot of the link of ``ability`` that resolves next, as a mask (maybe empty)."""
        L, f = ctx.L, ctx.f
        nxt = ctx.memo.get("next")
        if nxt is None:
            nxt = ctx.memo["next"] = resolution.next_links(ctx)
        return first_only(ctx, [L.and_(n, f.lab[i] == ability) for i, n in enumerate(nxt)])

    def selected_slot(self, state: State, ability: int) -> int | None:
        """The slot whose link of ``ability`` resolves next in the concrete ``state``."""
        ctx = Ctx(CONCRETE, self.layout.frame(state), self.world)
        mask = self._selected(ctx, ability)
        return next((i for i, m in enumerate(mask) if m), None)

    def _resolve(self, ctx: Ctx, action: Action) -> None:
        L, f = ctx.L, ctx.f
        ability = self.world.abilities[action.ability]
        slot = self._selected(ctx, action.ability)
        below = [*slot[1:], False]
        me = L.select(slot, f.lpl, 0)
        target = L.select(slot, f.ltg, -1)
        target2 = L.select(slot, f.ltg2, -1) if self.layout.has("ltg2") else -1
        spd = L.select(slot, f.lspd, 0)
        negated = L.select(slot, f.lneg, False)
        effect_negated = L.select(slot, f.leneg, False)
        outcome = self._resolve_link(
            ctx,
            ability,
            me,
            target,
            slot,
            below,
            action.heads,
            negated,
            effect_negated,
            spd,
            True,
            target2,
            action.card,
        )
        if self.world.model.one_at_a_time:
            self._after_one(ctx, ability, slot, outcome)
            return
        for i, here in enumerate(slot):
            f.ldone[i] = L.or_(f.ldone[i], here)
        f.rcnt = f.rcnt + 1
        f.mode = L.ite(f.rcnt == f.clen, int(Mode.CLEANUP), int(Mode.RESOLVE))
        # Yu-Gi-Oh!: a player whose Life Points reach 0 loses at once, mid-chain too (the
        # links below do not resolve).
        sba.apply(ctx)
        f.mode = L.ite(sba.lost(ctx), int(Mode.DONE), f.mode)
        if self.stop is not None and self.stop[1] <= len(slot):
            chain, link = self.stop
            f.mode = L.ite(L.and_(f.cno == chain, slot[link - 1]), int(Mode.DONE), f.mode)

    def _after_one(self, ctx: Ctx, ability: Ability, slot: list[Term], outcome: Term) -> None:
        """Magic's stack (CR 405.5, 608.2n, 117.3b): the object that resolved leaves the
        stack; then the state-based actions, the triggers that waited, and the active player
        receives priority with what is left. An empty stack ends as a whole chain does."""
        L, f, w = ctx.L, ctx.f, self.world
        card = w.cards[ability.card]
        stopping: Term | None = None
        if self.stop is not None and self.stop[1] <= len(slot):
            stopping = L.and_(f.cno == self.stop[0], slot[self.stop[1] - 1])
        if w.model.cleanup == "on-resolution" and ability.card_activation:
            # A permanent spell enters the battlefield; an instant or sorcery, or any spell
            # countered or without a legal target, goes to its owner's graveyard.
            c = card.index
            waiting = f.zone[c] == int(Zone.STACK)
            enters = L.and_(waiting, card.stays, outcome == int(Outcome.RESOLVED))
            leaves = L.and_(waiting, L.not_(enters))
            # A copy of a spell ceases to exist as it leaves the stack (CR 704.5e).
            gone = int(Zone.NONE if card.copy_of >= 0 else Zone.GRAVEYARD)
            f.zone[c] = L.ite(enters, int(Zone.FIELD), L.ite(leaves, gone, f.zone[c]))
            f.ctrl[c] = L.ite(leaves, card.owner, f.ctrl[c])
            if self.layout.has("fresh"):  # it came this turn (CR 302.6)
                f.fresh[c] = L.or_(f.fresh[c], enters)
            if ctx.notes is not None and leaves is True:
                ctx.note("copy-ceases" if card.copy_of >= 0 else "to-graveyard", [c])
            if ctx.notes is not None and enters is True:
                ctx.note("enters", [c])
        if self._copies:
            # A copy its effect put on the stack above it moves down into its place.
            self._shift_down(ctx, slot)
        else:
            for i, here in enumerate(slot):
                if L.is_false(here):
                    continue
                f.lab[i] = L.ite(here, -1, f.lab[i])
                f.lcard[i] = L.ite(here, -1, f.lcard[i])
                f.lpl[i] = L.ite(here, 0, f.lpl[i])
                f.ltg[i] = L.ite(here, -1, f.ltg[i])
                f.lspd[i] = L.ite(here, 0, f.lspd[i])
                f.lneg[i] = L.and_(f.lneg[i], L.not_(here))
                f.leneg[i] = L.and_(f.leneg[i], L.not_(here))
            f.clen = f.clen - 1
        self._remove_countered(ctx)
        sba.apply(ctx)
        over = sba.lost(ctx)
        empty = f.clen == 0
        waiting = triggers.collect(ctx, after_chain=False, when=L.not_(L.or_(empty, over)))
        goes_on = L.and_(L.not_(empty), L.not_(over))
        f.mode = L.ite(
            over,
            int(Mode.DONE),
            L.ite(empty, int(Mode.CLEANUP), L.ite(waiting, int(Mode.TRIGGERS), int(Mode.BUILD))),
        )
        priority = L.and_(goes_on, L.not_(waiting))
        # The turn player would receive priority: after the triggers are put on the stack.
        protocol.open_state(ctx, goes_on)
        if priority is True:
            ctx.note("priority", (), "", turn_player(ctx))
        if stopping is not None and self.stop is not None:
            # The claim's point: the link stays marked as resolved for after_link to read.
            f.mode = L.ite(stopping, int(Mode.DONE), f.mode)
            f.ldone[self.stop[1] - 1] = L.or_(f.ldone[self.stop[1] - 1], stopping)

    def _remove_countered(self, ctx: Ctx) -> None:
        """A countered spell leaves the stack at once, for its owner's graveyard (CR 701.5a):
        the links above it move down one slot. A counter names one spell, so at most one
        link goes."""
        L, f, w = ctx.L, ctx.f, self.world
        slots = w.layout.slots
        gone = [L.and_(i < f.clen, f.lneg[i]) for i in range(slots)]
        if all(L.is_false(g) for g in gone):
            return
        cast = {a.card for a in w.abilities if a.card_activation}
        for c in sorted(cast):
            hit = L.and_(
                L.or_(*(L.and_(gone[i], f.lcard[i] == c) for i in range(slots))),
                f.zone[c] == int(Zone.STACK),
            )
            if L.is_false(hit):
                continue
            copy = w.cards[c].copy_of >= 0  # a copy ceases to exist (CR 704.5e)
            f.zone[c] = L.ite(hit, int(Zone.NONE if copy else Zone.GRAVEYARD), f.zone[c])
            f.ctrl[c] = L.ite(hit, w.cards[c].owner, f.ctrl[c])
            if ctx.notes is not None and hit is True:
                ctx.note("copy-ceases" if copy else "to-graveyard", [c])
        # The countered link is written in the resolution log as one whose activation was
        # negated (the claims 'countered' and 'negated' read it).
        entry = {
            "r_ab": L.select(gone, f.lab, -1),
            "r_cno": f.cno,
            "r_out": int(Outcome.ACTIVATION_NEGATED),
            "r_spd": L.select(gone, f.lspd, 0),
        }
        append(ctx, "rn", entry, self.layout.rlog, L.or_(*gone))
        self._shift_down(ctx, gone)

    def _shift_down(self, ctx: Ctx, gone: list[Term]) -> None:
        """Take the link of the slot ``gone`` marks (at most one) off the stack: the links
        above it move down one slot."""
        L, f = ctx.L, ctx.f
        slots = self.layout.slots
        columns = [f.lab, f.lcard, f.lpl, f.ltg, f.lspd, f.lneg, f.leneg]
        empty: list[Term] = [-1, -1, 0, -1, 0, False, False]
        if self.layout.has("ltg2"):
            columns.append(f.ltg2)
            empty.append(-1)
        shift: Term = False
        for j in range(slots):
            shift = L.or_(shift, gone[j])
            for column, blank in zip(columns, empty, strict=True):
                above = column[j + 1] if j + 1 < slots else blank
                column[j] = L.ite(shift, above, column[j])
        f.clen = L.ite(shift, f.clen - 1, f.clen)

    def _resolve_link(
        self,
        ctx: Ctx,
        ability: Ability,
        me: Term,
        target: Term,
        slot: list[Term],
        below: list[Term],
        heads: bool | None,
        negated: Term,
        effect_negated: Term,
        spd: Term,
        when: Term,
        target2: Term = -1,
        chosen: int = -1,
    ) -> Term:
        """Resolve one link: negated, without effect, or with its effect. Returns the outcome."""
        L, f, w = ctx.L, ctx.f, self.world
        card = w.cards[ability.card]
        # A link whose activation was negated does not resolve: nothing happens at it, so
        # it is no event, and a trigger of the link before it may still be "the last thing
        # to happen" (missing the timing).
        ctx.event(L.and_(when, L.not_(negated)))
        outcome = self._outcome(ctx, ability, me, target, target2, negated, effect_negated)
        if ctx.notes is not None and when is True:
            ctx.note("resolve", [card.index], f"{outcome}", me)
        go = L.and_(when, outcome == int(Outcome.RESOLVED))
        legal: tuple[Term, Term] = (False, False)
        if ability.target is not None:
            # Checked once, as it begins to resolve: a later part acts on a target an
            # earlier part has moved (Debris Dragon: "Special Summon it ... but negate its
            # effects").
            second = target_fits(ctx, ability, target2, me, True) if ability.targets > 1 else False
            legal = (target_fits(ctx, ability, target, me), second)
        link = Link(ability, me, target, slot, below, heads, target2, chosen, legal)
        apply_effects(ctx, link, ability.effects, go)
        if card.stays:
            stays = L.and_(
                when, L.or_(outcome == int(Outcome.RESOLVED), outcome == int(Outcome.NO_EFFECT))
            )
            f.active[card.index] = L.or_(
                f.active[card.index], L.and_(stays, on_field(ctx, card.index))
            )
        self._record_resolution(ctx, ability, outcome, spd, when)
        return outcome

    def _outcome(
        self,
        ctx: Ctx,
        ability: Ability,
        me: Term,
        target: Term,
        target2: Term,
        negated: Term,
        effect_negated: Term,
    ) -> Term:
        """How a link of ``ability`` would resolve now: its activation negated, its effect
        negated, without effect (what it needs is gone) or with its effect."""
        L, f, w = ctx.L, ctx.f, self.world
        card = w.cards[ability.card]
        # A continuous negation (Imperial Order, Royal Decree, Skill Drain) reaches effects on
        # the field: a card's activation resolves there, other effects only while their card
        # is face-up there (a trigger in the graveyard is not negated).
        reached = (
            True if ability.card_activation else L.and_(on_field(ctx, card.index), f.up[card.index])
        )
        continuous = L.and_(reached, locks.negated_continuously(ctx, card.index))
        if ability.cannot_be_negated:
            continuous = False
        valid = self._valid(ctx, ability, me, target, target2)
        return L.ite(
            negated,
            int(Outcome.ACTIVATION_NEGATED),
            L.ite(
                L.or_(effect_negated, continuous),
                int(Outcome.EFFECT_NEGATED),
                L.ite(valid, int(Outcome.RESOLVED), int(Outcome.NO_EFFECT)),
            ),
        )

    def _valid(
        self, ctx: Ctx, ability: Ability, me: Term, target: Term, target2: Term = -1
    ) -> Term:
        """Whether the link still has what it needs: its target, its summoned monsters...
        A link with two targets resolves while one is still legal (CR 608.2b)."""
        L, f, w = ctx.L, ctx.f, self.world
        parts: list[Term] = []
        if ability.target is not None:
            fits = target_fits(ctx, ability, target, me)
            if ability.targets > 1:
                fits = L.or_(fits, target_fits(ctx, ability, target2, me, second=True))
            parts.append(fits)
        if ability.acts_on("summoned"):
            parts.append(
                L.or_(
                    *(
                        L.and_(f.summoned[c], on_field(ctx, c), f.up[c])
                        for c in range(w.n)
                        if w.cards[c].type == "monster"
                    )
                )
            )
        card = w.cards[ability.card]
        if ability.card_activation and card.stays:
            if w.model.card_zone == "stack":
                # A permanent spell resolves from the stack (CR 608.3); one that left it
                # (returned to its owner's hand, say) is no longer there to resolve.
                parts.append(f.zone[card.index] == int(Zone.STACK))
            else:
                # A Continuous, Equip or Field card that left the field before its
                # activation resolves has nothing to apply from (Call of the Haunted
                # destroyed in response).
                parts.append(L.and_(on_field(ctx, card.index), f.up[card.index]))
        if w.model.failure == "target-or-source" and not ability.card_activation:
            # Seed 000: an ability fails when its monster is gone before it is cast.
            parts.append(L.and_(on_field(ctx, ability.card), f.ctrl[ability.card] == me))
        return L.and_(*parts)

    def _record_resolution(
        self, ctx: Ctx, ability: Ability, outcome: Term, spd: Term, when: Term
    ) -> None:
        """Write a resolution into the resolution log (for claims)."""
        entry = {"r_ab": ability.index, "r_cno": ctx.f.cno, "r_out": outcome, "r_spd": spd}
        append(ctx, "rn", entry, self.layout.rlog, when)

    # -- the start --------------------------------------------------------------------------

    def initial(self) -> State:
        """The scenario's situation before its history."""
        sc = self.scenario
        layout = self.layout
        fields = layout.empty()
        zone, up, ctrl, active, aspd, lp = (
            layout.column(fields, name) for name in ("zone", "up", "ctrl", "active", "aspd", "lp")
        )
        for card in sc.cards:
            c = card.index
            zone[c] = int(card.zone)
            up[c] = card.face_up
            ctrl[c] = card.controller
            active[c] = card.stays and card.face_up and card.zone is Zone.FIELD
        if layout.has("dizzy"):
            dizzy = layout.column(fields, "dizzy")
            for card in sc.cards:
                dizzy[card.index] = card.dizzy
        for name, printed in (("atk", "atk"), ("defense", "defense")):
            if layout.has(name):
                column = layout.column(fields, name)
                for card in sc.cards:
                    stat = getattr(card, printed) or 0
                    column[card.index] = morph.FACE_DOWN if card.hidden else stat
        if layout.has("colors"):
            painted = layout.column(fields, "colors")
            for card in sc.cards:
                painted[card.index] = colors.initial(card)
        for ability in sc.abilities:
            if ability.speed is not None:
                card = sc.cards[ability.card]
                aspd[ability.index] = speed.base_speed(sc.model, card, ability)
        if layout.has("casts"):
            layout.set(fields, "casts", sc.spells_cast)
        if layout.has("atkg"):
            atkg, blk = layout.column(fields, "atkg"), layout.column(fields, "blk")
            blkd = layout.column(fields, "blkd")
            for card in sc.cards:
                atkg[card.index] = card.attacking
                blk[card.index] = card.blocking
                if card.blocking >= 0:
                    blkd[card.blocking] = True
        # A scenario that starts in the declare attackers step with none declared starts
        # with the declaration (CR 508.1: before anyone receives priority).
        undeclared = not any(card.attacking for card in sc.cards)
        if layout.has("declaring") and sc.step == combat.ATTACKERS and undeclared:
            layout.set(fields, "declaring", 1)
        if layout.has("dpos"):
            dpos = layout.column(fields, "dpos")
            for card in sc.cards:
                dpos[card.index] = card.defense_position
        if layout.has("tp"):
            layout.set(fields, "tp", sc.turn)
        if layout.has("step"):
            layout.set(fields, "step", self.world.step_index(sc.step))
            fixed, atkd = layout.column(fields, "fixed"), layout.column(fields, "atkd")
            for card in sc.cards:
                # A monster Set this turn may not be Flip Summoned nor change position.
                fixed[card.index] = card.set_this_turn or card.attacked
                atkd[card.index] = card.attacked
        lp[0] = lp[1] = sc.life_points
        if layout.has("hand"):
            hand = layout.column(fields, "hand")
            hand[0], hand[1] = sc.hands
        if layout.has("deck"):
            deck = layout.column(fields, "deck")
            deck[0], deck[1] = sc.decks
        layout.set(fields, "right", sc.turn)
        return layout.freeze(fields)


WAIT_FOR_MANDATORY = frozenset(
    {
        "activate",
        "pass",
        "timer",
        "summon",
        "position",
        "attack",
        "land",
        "unmorph",
        "declare",
        "block",
    }
)
"""What a player may not do while a mandatory Quick Effect can be activated."""

_MODES = {
    "activate": (Mode.OPEN, Mode.BUILD),
    "pass": (Mode.OPEN, Mode.BUILD),
    "timer": (Mode.BUILD,),
    "resolve": (Mode.RESOLVE,),
    "cleanup": (Mode.CLEANUP,),
    "trigger": (Mode.TRIGGERS,),
    "decline": (Mode.TRIGGERS,),
    "advance": (Mode.ADVANCE,),
    "summon": (Mode.OPEN,),
    "position": (Mode.OPEN,),
    "attack": (Mode.OPEN,),
    "land": (Mode.OPEN,),
    "unmorph": (Mode.OPEN, Mode.BUILD),
    "declare": (Mode.OPEN,),
    "block": (Mode.OPEN,),
}


def _refreshes(ability: Ability, cost: str) -> bool:
    """Whether some part of the ability's effect undoes ``cost`` (undizzy, for dizzy)."""
    return any(verb(e.verb).refreshes == cost for e in ability.parts())


def build_system(scenario: Scenario) -> System:
    """Size the state for ``scenario`` and assemble its transition relation."""
    return System(scenario, derive_layout(scenario))


def derive_layout(scenario: Scenario) -> Layout:
    """Capacities large enough for every continuation we can foresee.

    A run that would exceed one sets ``overflow``; the engines then answer ``unknown`` rather
    than trust a truncated state.
    """
    # A card's activation uses the card; the history's activations of other effects may
    # repeat, so they are counted on top of what those effects may still do.
    activations = len(
        [
            s
            for s in scenario.history
            if s.verb == "activate"
            and s.ability is not None
            and not scenario.abilities[s.ability].card_activation
        ]
    )
    cap = scenario.limits.get("pending_triggers", 2)
    for ability in scenario.abilities:
        if scenario.cards[ability.card].copy_of >= 0:
            activations += 1  # a copy slot goes on the stack once (CR 400.7)
        elif ability.trigger is not None:
            activations += cap * 2
        elif ability.card_activation:
            activations += 1
        elif ability.once is not None or any(c.kind == "dizzy" for c in ability.costs):
            activations += 1 + sum(_refreshes(a, "dizzy") for a in scenario.abilities)
        else:
            activations += 2
    size = max(activations, 1)
    model = scenario.model
    used = {e.verb for a in scenario.abilities for e in a.parts()}
    wanted = [f for name in sorted(used) for f in verb(name).fields]
    extra = dict.fromkeys(
        [
            *game(model.game).fields,
            *protocol.fields(model),
            *sba.fields(model),
            *combat.fields(scenario),
            *wanted,
            *turn.fields(scenario),
            *events.fields(scenario),
            *activation.fields(scenario),
            *mana.fields(scenario),
            *morph.fields(scenario),
            *storm.fields(scenario),
        ]
    )
    return Layout(
        cards=len(scenario.cards),
        abilities=len(scenario.abilities),
        slots=size,
        alog=size,
        rlog=size,
        pending_cap=cap,
        bits=integer_bits(scenario, size),
        extra=tuple(extra),
    )


MIN_BITS = 16


def integer_bits(scenario: Scenario, resolutions: int) -> int:
    """A width that holds every integer a continuation of ``scenario`` can reach.

    Life Points start at ``life_points`` and each resolution gains at most what one effect
    gains; cards drawn grow by at most one effect's draws per resolution; an intermediate
    difference goes below 0 by at most the largest amount before it is clamped. ATK and DEF
    start at most at the largest printed value and change by at most one effect's changes per
    resolution. Two bits spare cover the sign and that intermediate. Anything past it (an
    event count, say) is still caught, as :attr:`~verifier.core.state.Capacity.INTEGER`,
    never wrapped.
    """
    gain = draw = amount = stat = 0
    for ability in scenario.abilities:
        parts = [(e, verb(e.verb).amount) for e in ability.parts()]
        stat = max(stat, sum(abs(e.amount or 0) for e, adds in parts if adds == "stat"))
        gain = max(gain, sum(e.amount or 0 for e, adds in parts if adds == "gain"))
        draw = max(draw, sum(e.amount or 0 for e, adds in parts if adds == "draw"))
        amounts = [e.amount or 0 for e, adds in parts if adds == "loss"]
        amounts += [c.amount or 0 for c in ability.costs if c.kind == "pay-lp"]
        amount = max(amount, *amounts, 0)
    life = scenario.life_points + resolutions * gain
    printed = max([c.atk or 0 for c in scenario.cards] + [c.defense or 0 for c in scenario.cards])
    if scenario.until is not None:
        # Battle damage is at most an ATK or DEF; every attack adds to a player's record.
        attacks = sum(c.type == "monster" for c in scenario.cards)
        amount = max(amount, (printed + (resolutions + 1) * stat) * (attacks + 1))
    turns = scenario.limits.get("turns", 1)
    magnitude = max(life + amount, resolutions * draw + turns, printed + (resolutions + 1) * stat)
    return max(MIN_BITS, magnitude.bit_length() + 2)
