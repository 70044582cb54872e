"""What never changes during a continuation: the cards, their abilities, the rule system.

Rules read these facts as plain Python values, so everything static folds away before a
state is touched; only the state's fields can be symbolic.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from verifier.core.state import Layout
from verifier.games import game
from verifier.spec.cards import COLOR_BITS, Ability, Card, Continuous, ContinuousKind, Filter
from verifier.spec.rulesystem import RuleSystem
from verifier.spec.scenario import Scenario

__all__ = ["World", "build_world", "colored"]


@dataclass(frozen=True, slots=True)
class World:
    """Static facts about one scenario under one rule system."""

    scenario: Scenario
    model: RuleSystem
    layout: Layout
    turn: int
    main_phase: bool
    cards: tuple[Card, ...]
    abilities: tuple[Ability, ...]
    steps: tuple[str, ...] = field(default=())
    """The steps of the turn (the game's, in the rule system's phases)."""
    phases: tuple[str, ...] = field(default=())
    """The phase of each step."""
    until: int | None = None
    """The last step continuations go through (None: they end with the scenario's chains)."""
    silent: frozenset[int] = frozenset()
    """The steps in which no player receives priority (the game's ``no_priority``)."""
    triggers: tuple[int, ...] = field(default=())
    binders: tuple[int, ...] = field(default=())
    negators: tuple[tuple[int, str], ...] = field(default=())
    watchers: tuple[int, ...] = field(default=())
    """The abilities whose activation condition is an event ("when ... is destroyed")."""
    locks: tuple[tuple[int, Continuous], ...] = field(default=())
    """The locks and protections (cannot-activate, unaffected, untargetable), by card."""
    once_shared: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """For each ability limited by name (``once: name`` or ``name-effect``): the abilities
    whose uses this turn count against it (its own included)."""
    once_modes: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """For each mode of an effect with modes: the modes of that effect (its own included),
    whose uses count together against ``once: turn`` and ``once: chain``."""
    colorings: frozenset[int] = frozenset()
    """Magic: the colours effects may give a card (``become-color``), as values of the
    ``colors`` field (:mod:`verifier.rules.colors`)."""

    @property
    def n(self) -> int:
        return len(self.cards)

    @property
    def progresses(self) -> bool:
        """Whether continuations go on through the turn (the scenario's ``until``)."""
        return self.until is not None

    def step_index(self, name: str) -> int:
        return self.steps.index(name)

    def static_match(self, card: int, flt: Filter) -> bool:
        """Whether ``card`` passes the parts of ``flt`` that never change."""
        c = self.cards[card]
        if not flt.cards or c.type not in flt.types:
            return False
        bounded = flt.atk_at_least is not None or flt.atk_at_most is not None
        if bounded and c.atk is None:
            return False  # a card without ATK fits no bound on it
        if not self.layout.has("atk"):  # ATK never changes: its printed value decides
            if flt.atk_at_least is not None and c.atk is not None and c.atk < flt.atk_at_least:
                return False
            if flt.atk_at_most is not None and c.atk is not None and c.atk > flt.atk_at_most:
                return False
        changes = self.layout.has("colors")  # colours that change are read from the state
        if flt.color is not None and not changes and not colored(c.colors, flt.color):
            return False
        if flt.kinds is not None and c.kind not in flt.kinds:
            return False
        leveled = flt.level_at_least is not None or flt.level_at_most is not None
        if leveled and c.level is None:
            return False  # a card without a Level fits no bound on it
        if flt.level_at_least is not None and c.level is not None and c.level < flt.level_at_least:
            return False
        if flt.level_at_most is not None and c.level is not None and c.level > flt.level_at_most:
            return False
        if flt.attributes is not None and c.attribute not in flt.attributes:
            return False
        if flt.monster_types is not None and c.monster_type not in flt.monster_types:
            return False
        bounded = flt.def_at_least is not None or flt.def_at_most is not None
        if bounded and c.defense is None:
            return False  # a card without DEF fits no bound on it
        if not self.layout.has("defense"):  # DEF never changes: its printed value decides
            d = c.defense
            if flt.def_at_least is not None and d is not None and d < flt.def_at_least:
                return False
            if flt.def_at_most is not None and d is not None and d > flt.def_at_most:
                return False
        return flt.archetype is None or flt.archetype in c.archetypes


def build_world(scenario: Scenario, layout: Layout) -> World:
    model = scenario.model
    triggers = tuple(a.index for a in scenario.abilities if a.trigger is not None)
    binders = tuple(
        c.index for c in scenario.cards if any(k.kind == ContinuousKind.BIND for k in c.continuous)
    )
    negators = tuple(
        (c.index, k.what)
        for c in scenario.cards
        for k in c.continuous
        if k.kind == ContinuousKind.NEGATE_EFFECTS
    )
    watchers = tuple(
        a.index for a in scenario.abilities if a.condition is not None and a.condition.event
    )
    locks = tuple(
        (c.index, k)
        for c in scenario.cards
        for k in c.continuous
        if k.kind
        in (ContinuousKind.CANNOT_ACTIVATE, ContinuousKind.UNAFFECTED, ContinuousKind.UNTARGETABLE)
    )
    played = game(model.game)
    steps = played.steps_under(model.phases, model.battle)
    colorings = frozenset(
        sum(COLOR_BITS[c] for c in e.colors)
        for a in scenario.abilities
        for e in a.parts()
        if e.colors is not None
    )
    return World(
        once_shared=_once_shared(scenario),
        once_modes=_once_modes(scenario),
        colorings=colorings,
        scenario=scenario,
        model=model,
        layout=layout,
        turn=scenario.turn,
        main_phase=scenario.phase in model.main_phases,
        cards=scenario.cards,
        abilities=scenario.abilities,
        steps=tuple(name for name, _ in steps),
        phases=tuple(phase for _, phase in steps),
        until=None if scenario.until is None else [n for n, _ in steps].index(scenario.until),
        silent=frozenset(i for i, (n, _) in enumerate(steps) if n in played.no_priority),
        triggers=triggers,
        binders=binders,
        negators=negators,
        watchers=watchers,
        locks=locks,
    )


def _effects_of(scenario: Scenario, card: Card) -> list[tuple[int, ...]]:
    """The effects of a card, in order, each as its abilities: one, or the modes of an
    effect with modes."""
    effects: list[tuple[int, ...]] = []
    seen: dict[int, int] = {}  # an effect with modes: where it is in ``effects``
    for index in card.abilities:
        group = scenario.abilities[index].modes_of
        if group < 0:
            effects.append((index,))
        elif group in seen:
            effects[seen[group]] += (index,)
        else:
            seen[group] = len(effects)
            effects.append((index,))
    return effects


def _once_modes(scenario: Scenario) -> dict[int, tuple[int, ...]]:
    """For each mode: the modes of its effect (a "once per turn" counts them as one)."""
    return {
        index: effect
        for card in scenario.cards
        for effect in _effects_of(scenario, card)
        if scenario.abilities[effect[0]].modes_of >= 0
        for index in effect
    }


def _once_shared(scenario: Scenario) -> dict[int, tuple[int, ...]]:
    """The abilities a "once per turn" by name counts together: with ``once: name``, every
    ability of every card of the same printed name; with ``name-effect``, the effect at the
    same place on each of them (the same effect of every copy, all its modes)."""
    cards = scenario.cards
    out: dict[int, tuple[int, ...]] = {}
    for ability in scenario.abilities:
        if ability.once not in ("name", "name-effect"):
            continue
        own = cards[ability.card]
        copies = [c for c in cards if c.printed_name == own.printed_name]
        if ability.once == "name":
            out[ability.index] = tuple(a for c in copies for a in c.abilities)
            continue
        mine = _effects_of(scenario, own)
        place = next(i for i, effect in enumerate(mine) if ability.index in effect)
        shared: list[int] = []
        for copy in copies:
            theirs = _effects_of(scenario, copy)
            if place < len(theirs):
                shared += theirs[place]
        out[ability.index] = tuple(shared)
    return out


def colored(colors: frozenset[str], wanted: str) -> bool:
    """Whether a card of ``colors`` fits the colour filter ``wanted`` (Magic, CR 105)."""
    if wanted == "colorless":
        return not colors
    if wanted.startswith("non-"):
        return wanted[4:] not in colors
    return wanted in colors
