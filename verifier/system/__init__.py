"""The one semantics: every legal action from a state, and what each action does.

A :class:`System` is assembled from a scenario's rule system (which selects the primitives in
:mod:`verifier.rules`) and its cards (which select the effects in :mod:`verifier.effects`).
Both engines use it unchanged: the explorer with :data:`verifier.core.logic.CONCRETE`, the SMT
engine with z3 terms. Actions are concrete labels; only the state may be symbolic.
"""

from __future__ import annotations

from verifier.core.state import Layout, Mode, State
from verifier.core.world import World, build_world
from verifier.effects import verb
from verifier.games import game
from verifier.rules import (
    activation,
    colors,
    combat,
    events,
    mana,
    morph,
    protocol,
    sba,
    speed,
    storm,
    turn,
)
from verifier.spec.cards import Ability, Zone
from verifier.spec.scenario import Scenario
from verifier.system.actions import Action, ActionKind, IllegalTrace
from verifier.system.stepping import Stepping

__all__ = [
    "Action",
    "ActionKind",
    "IllegalTrace",
    "System",
    "build_system",
    "derive_layout",
    "integer_bits",
]


class System(Stepping):
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
            if action.kind == ActionKind.TRIGGER:
                self._placements.setdefault(action.ability, []).append(action)
        # The activations of mandatory Quick Effects: while one can be made, it must be.
        self._mandatory: dict[int, list[Action]] = {}
        for action in self.actions:
            if (
                action.kind == ActionKind.ACTIVATE
                and self.world.abilities[action.ability].mandatory
            ):
                self._mandatory.setdefault(action.ability, []).append(action)
        # The abilities with a part that acts on a card chosen as it resolves: their filters.
        self._choosing = {
            a.index: tuple(a.choosing()) for a in self.world.abilities if a.choosing()
        }
        # Copies of spells (Magic): an effect may put one on the stack above itself.
        self._copies = any(c.copy_of >= 0 for c in self.world.cards)
        self._resolving: dict[int, tuple[Action, ...]] = {}
        for action in self.actions:
            if action.kind == ActionKind.RESOLVE:
                self._resolving.setdefault(action.ability, ())
                self._resolving[action.ability] += (action,)

    def stopping_after(self, chain: int, link: int) -> System:
        """The same relation, whose continuations end where Chain Link ``link`` of chain
        number ``chain`` has just resolved (before the next link, or the cleanup)."""
        return System(self.scenario, self.layout, (chain, link))

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


_MODES = {
    ActionKind.ACTIVATE: (Mode.OPEN, Mode.BUILD),
    ActionKind.PASS: (Mode.OPEN, Mode.BUILD),
    ActionKind.TIMER: (Mode.BUILD,),
    ActionKind.RESOLVE: (Mode.RESOLVE,),
    ActionKind.CLEANUP: (Mode.CLEANUP,),
    ActionKind.TRIGGER: (Mode.TRIGGERS,),
    ActionKind.DECLINE: (Mode.TRIGGERS,),
    ActionKind.ADVANCE: (Mode.ADVANCE,),
    ActionKind.SUMMON: (Mode.OPEN,),
    ActionKind.POSITION: (Mode.OPEN,),
    ActionKind.ATTACK: (Mode.OPEN,),
    ActionKind.LAND: (Mode.OPEN,),
    ActionKind.UNMORPH: (Mode.OPEN, Mode.BUILD),
    ActionKind.DECLARE: (Mode.OPEN,),
    ActionKind.BLOCK: (Mode.OPEN,),
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
