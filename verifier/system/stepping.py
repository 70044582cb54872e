"""The step: what each action does to a state (activating, placing a trigger, summoning,
passing, moving the turn on), written once for both engines."""

from __future__ import annotations

from collections.abc import Sequence

from verifier.core.logic import CONCRETE, Logic, Term
from verifier.core.state import Mode, State
from verifier.effects.veil import activated_negated
from verifier.rules import (
    activation,
    battle,
    cleanup,
    combat,
    events,
    mana,
    morph,
    protocol,
    speed,
    storm,
    triggers,
    turn,
    windows,
)
from verifier.rules.context import (
    Ctx,
    Note,
    on_field,
)
from verifier.spec.cards import Ability, Zone
from verifier.spec.rulesystem import CardZone
from verifier.system.actions import Action, ActionKind, IllegalTrace
from verifier.system.legality import Legality


class Stepping(Legality):
    """The effects of the actions."""

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
        if kind == ActionKind.ACTIVATE:
            self._activate(ctx, action)
        elif kind == ActionKind.PASS:
            ctx.note("pass", (), "", action.player)
            if self.world.progresses and self.world.model.battle:
                battle.on_pass(ctx, action.player)
            windows.close_open_state(ctx, protocol.pass_(ctx, action.player))
        elif kind == ActionKind.RESOLVE:
            self._resolve(ctx, action)
        elif kind == ActionKind.CLEANUP:
            cleanup.cleanup(ctx)
        elif kind == ActionKind.TRIGGER:
            self._place_trigger(ctx, action)
        elif kind == ActionKind.DECLINE:
            ability = self.world.abilities[action.ability]
            ctx.f.pend[action.ability] = 0
            ctx.note("decline", [ability.card], ability.label)
            triggers.after_placing(ctx)
        elif kind == ActionKind.TIMER:
            ctx.note("timer")
            protocol.time_out(ctx)
        elif kind == ActionKind.SUMMON:
            self._summon(ctx, action)
        elif kind == ActionKind.ADVANCE:
            turn.advance(ctx, action.card, self.quiet)
        elif kind == ActionKind.ATTACK:
            battle.attack(ctx, action.card, action.target)
        elif kind == ActionKind.POSITION:
            turn.change_position(ctx, action.card)
        elif kind == ActionKind.LAND:
            turn.play_land(ctx, action.card, action.player)
        elif kind == ActionKind.UNMORPH:
            morph.turn_face_up(ctx, action.card, action.player, action.mana)
        elif kind in (ActionKind.DECLARE, ActionKind.BLOCK):
            combat.declare(ctx, kind, action.tributes)
        elif kind == ActionKind.REOPEN:
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
            on_stack = self.world.model.card_zone == CardZone.STACK
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
