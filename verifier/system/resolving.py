"""Resolving a chain: which link resolves next, whether its activation or effect is
negated or its target gone, applying its effect, and removing it from the chain."""

from __future__ import annotations

from verifier.core.logic import CONCRETE, Term
from verifier.core.state import Mode, Outcome, State
from verifier.effects import Link, apply_effects, target_fits
from verifier.rules import (
    locks,
    protocol,
    resolution,
    sba,
    triggers,
)
from verifier.rules.context import (
    Ctx,
    append,
    first_only,
    on_field,
    turn_player,
)
from verifier.spec.cards import Ability, Zone
from verifier.spec.rulesystem import CardZone, Cleanup, Failure
from verifier.system.actions import Action, ActionSet


class Resolving(ActionSet):
    """The resolution of the chain's links."""

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
        if w.model.cleanup == Cleanup.ON_RESOLUTION and ability.card_activation:
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
            if w.model.card_zone == CardZone.STACK:
                # A permanent spell resolves from the stack (CR 608.3); one that left it
                # (returned to its owner's hand, say) is no longer there to resolve.
                parts.append(f.zone[card.index] == int(Zone.STACK))
            else:
                # A Continuous, Equip or Field card that left the field before its
                # activation resolves has nothing to apply from (Call of the Haunted
                # destroyed in response).
                parts.append(L.and_(on_field(ctx, card.index), f.up[card.index]))
        if w.model.failure == Failure.TARGET_OR_SOURCE and not ability.card_activation:
            # Seed 000: an ability fails when its monster is gone before it is cast.
            parts.append(L.and_(on_field(ctx, ability.card), f.ctrl[ability.card] == me))
        return L.and_(*parts)

    def _record_resolution(
        self, ctx: Ctx, ability: Ability, outcome: Term, spd: Term, when: Term
    ) -> None:
        """Write a resolution into the resolution log (for claims)."""
        entry = {"r_ab": ability.index, "r_cno": ctx.f.cno, "r_out": outcome, "r_spd": spd}
        append(ctx, "rn", entry, self.layout.rlog, when)
