"""Legality: the named checks under which each action is legal in a state, and the legal
actions of a state (both engines ask them: concrete states and z3 terms alike)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from verifier.core.logic import CONCRETE, Logic, Term
from verifier.core.state import Capacity, Mode, Outcome, State
from verifier.effects.movement import choosable, would_act, would_destroy
from verifier.effects.resources import enough_in_deck
from verifier.rules import (
    activation,
    battle,
    combat,
    locks,
    mana,
    morph,
    protocol,
    resolution,
    triggers,
    turn,
    windows,
)
from verifier.rules.context import (
    Check,
    Ctx,
    matches,
    turn_player,
)
from verifier.spec.cards import Ability
from verifier.system.actions import Action, ActionKind
from verifier.system.resolving import Resolving


class Legality(Resolving):
    """The guards of the actions."""

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
        if kind == ActionKind.ACTIVATE:
            if not w.abilities[action.ability].mandatory:
                yield from self._activation_checks(ctx, action)
            else:
                # A mandatory Quick Effect does not wait for the right to respond.
                for check in self._activation_checks(ctx, action):
                    if check.rule != "chain.right-to-respond":
                        yield check
        elif kind == ActionKind.PASS:
            yield from protocol.may_pass(ctx, action.player)
        elif kind == ActionKind.RESOLVE:
            yield Check("resolve.mode", ctx.f.mode == int(Mode.RESOLVE))
            yield Check("resolve.next", ctx.L.or_(*self._selected(ctx, action.ability)))
            if action.ability in self._choosing:
                yield Check("resolve.choice", self._choice(ctx, action))
        elif kind == ActionKind.CLEANUP:
            yield Check("cleanup.mode", ctx.f.mode == int(Mode.CLEANUP))
        elif kind == ActionKind.TRIGGER:
            yield from triggers.may_place(ctx, action.ability)
            yield from self._placement_checks(ctx, action)
        elif kind == ActionKind.DECLINE:
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
        elif kind == ActionKind.TIMER:
            yield from protocol.may_time_out(ctx)
        elif kind == ActionKind.SUMMON:
            yield from windows.summon_checks(
                ctx, action.card, action.player, action.tributes, action.how
            )
        elif kind == ActionKind.ADVANCE:
            yield from turn.advance_checks(ctx, action.card)
        elif kind == ActionKind.ATTACK:
            yield from battle.attack_checks(ctx, action.card, action.target)
        elif kind == ActionKind.POSITION:
            yield from turn.position_checks(ctx, action.card)
        elif kind == ActionKind.LAND:
            yield from turn.land_checks(ctx, action.card, action.player)
        elif kind == ActionKind.UNMORPH:
            yield from morph.checks(ctx, action.card, action.player, action.mana)
        elif kind in (ActionKind.DECLARE, ActionKind.BLOCK):
            yield from combat.declaration_checks(ctx, kind, action.tributes, action.player)
        elif kind == ActionKind.REOPEN:
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
        if action.kind == ActionKind.ACTIVATE and self.world.abilities[action.ability].mandatory:
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

    def enabled(self, state: State, action: Action) -> bool:
        """Whether ``action`` is legal in the concrete ``state``."""
        return all(check.ok for check in self.checks(CONCRETE, state, action))


WAIT_FOR_MANDATORY = frozenset(
    {
        ActionKind.ACTIVATE,
        ActionKind.PASS,
        ActionKind.TIMER,
        ActionKind.SUMMON,
        ActionKind.POSITION,
        ActionKind.ATTACK,
        ActionKind.LAND,
        ActionKind.UNMORPH,
        ActionKind.DECLARE,
        ActionKind.BLOCK,
    }
)
"""What a player may not do while a mandatory Quick Effect can be activated."""
