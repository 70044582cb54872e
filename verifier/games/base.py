"""What a game is to the verifier, and the registry of games."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = [
    "Drafting",
    "Game",
    "Wording",
    "game",
    "game_named",
    "games",
    "register",
    "unregister",
]

OUTCOMES = ("resolved", "no-effect", "effect-negated", "activation-negated")
"""The ways a link resolves (:class:`verifier.core.state.Outcome`), by name."""


@dataclass(frozen=True, slots=True)
class Wording:
    """How a trace words the chain of a game.

    Templates use ``{head}`` (the link's name, with its number when ``numbered``),
    ``{label}`` (the ability's name) and ``{n}`` (a Chain Link's number).
    """

    chain: str = "chain"
    """What the pile of links is called: "chain", "stack"."""
    activate_card: str = "activates"
    """The verb for activating a card (a Spell, a Trap): "activates", "casts"."""
    activate_effect: str = "activates"
    """The verb for activating an effect of a card: "activates", "uses"."""
    shows_speed: bool = False
    """Whether an activation states its speed ("speed C")."""
    link: str = "Chain Link {n}"
    """The name of the link numbered ``{n}``."""
    added: str = "Chain Link {n}"
    """Where a new link goes, in brackets after its activation."""
    numbered: bool = True
    """Whether a resolving link is named with its number ("Chain Link 2: Mirror Force")."""
    trigger_effect: str = "'s trigger effect"
    """What follows a card's name when its trigger goes on the chain ("'s triggered
    ability")."""
    triggered: str = "{label}'s trigger effect triggers (it waits for the chain)"
    """What a trace says when a trigger triggers."""
    puts_triggers: bool = False
    """Whether a trigger is "put onto" the chain by its controller (Magic) rather than
    activated."""
    tributed: str = "tributed"
    """The word for a card paid as a cost by sending it from the field ("sacrificed")."""
    terms: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """The game's own words for the verifier's, in narratives (``Life Points``: ``life``)."""
    enters: str = "is put onto the field"
    """What a trace says of a permanent card whose link resolved and which stays."""
    countered: str = "has its activation negated"
    """How an alternative ending says a link's activation was negated ("is countered")."""
    loses: str = "{who} has 0 Life Points and loses the Duel: it is over"
    """What a trace says when a player loses for having no life left."""
    decks_out: str = "{who} must draw more cards than the Deck holds and loses the Duel: it is over"
    """What a trace says when a player loses for a draw the Deck cannot give."""
    closes: str = ""
    """What a trace says when the players' passes let the chain resolve (default: how the
    rule system's order resolves it)."""
    outcomes: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType(
            {
                "resolved": "{head} resolves",
                "no-effect": "{head} resolves without effect (its target is gone or "
                "no longer fits)",
                "effect-negated": "{head}: its effect is negated",
                "activation-negated": "{head}: its activation was negated; nothing happens",
            }
        )
    )
    """What a trace says as a link resolves, for each way it can (see :data:`OUTCOMES`)."""
    steps: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """What a trace calls each step of the turn as it begins (default: the step's name)."""


@dataclass(frozen=True, slots=True)
class Drafting:
    """What the scenario generator (:mod:`verifier.designer.generate`) writes for a game: the
    shapes of its cards, its situations and its claims, as features of the game.

    The generator writes each shape in the words of the game's card style (:attr:`cards`);
    a feature turned on writes cards of that style's kinds. The default writes nothing: the
    generator refuses a game whose drafting names no card style.
    """

    cards: str = ""
    """The style of the cards the generator draws a scenario's pool from, named by how their
    links are added and resolved: ``spell-speed-chain`` (Monsters, Spells and Traps of Spell
    Speed 1 to 3 on a chain), ``speed-stack`` (monsters' abilities and spells of a speed
    from S to E on a resolve stack, monsters that are dizzy), ``priority-stack`` (creatures,
    instants and sorceries cast while their player has priority). Empty: none."""
    rules: tuple[str, ...] = ()
    """The bundled rule systems a scenario names in ``rules:``, drawn with these weights (a
    name twice is drawn twice as often); empty: the rule system named after the game, with
    no draw."""
    phases: tuple[str, ...] | None = None
    """The phases a scenario may be set in (``phase:``); None: every phase of the game."""
    speeds: tuple[str, ...] = ("1", "2", "3")
    """The speeds its cards have and its claims compare (``speed(CARD) == S``)."""
    battle_phase: bool = False
    """Whether its turn has a Battle Phase of the Yu-Gi-Oh! steps (start-step, battle-step,
    the Damage Step's timings, end-step): a scenario may go through its turn into a battle,
    cards answer attacks (battle conditions and trigger events, battle positions, monsters
    that attacked, conditions on the phase), and claims ask about attacks, battle damage,
    the step and the phase."""
    combats: bool = False
    """Whether a scenario may fight a combat of the Magic steps: attackers and blockers,
    from the declared blockers (or attackers) to the end of combat, with first strike."""
    continuous_locks: bool = False
    """Whether cards with continuous negations and locks are written: a pool's face-up
    negations (Imperial Order, Skill Drain), locks and protections (Jinzo, on a monster
    too)."""
    speed_modifiers: bool = False
    """Whether a pool may hold a spell that slows or speeds up another card."""
    dizzy_costs: bool = False
    """Whether a monster's ability may cost dizzying it (``dizzy: this``)."""
    hand_cards: bool = False
    """Whether, when asked (``hand_cards``), cards of the hand and the graveyard are written
    (hand traps and triggers, costs paid with cards, modes, event conditions), hands of
    unlisted cards, and the situations they answer."""
    summon_shapes: bool = False
    """Whether, when asked (``summons``), the turn player summons a monster in one of the
    shapes that tell rule variants apart (a Tribute Summon with two triggers, a summon
    answered by a trap, triggers that wait for a chain)."""
    step_triggers: bool = False
    """Whether, when asked (``step_triggers``), a monster's trigger effect is activated as a
    step of the turn begins (Sinister Serpent)."""
    step_claims: bool = False
    """Whether a claim may be decided at the end of a step of the turn (its own ``until``)."""
    claim_atoms_left_out: tuple[str, ...] = ()
    """The generator's claim atoms its claims never ask (``dizzy``, ``misses_timing``)."""
    claim_atoms_added: tuple[str, ...] = ()
    """Atoms its claims ask besides the generator's own, with their weights (a name twice is
    drawn twice as often: Magic's ``countered``)."""


@dataclass(frozen=True, slots=True)
class Game:
    """A card game: its vocabulary, state, wording and format checks."""

    name: str
    title: str
    card_types: frozenset[str]
    """The card types of its cards (a rule system's kinds name one of them in ``card``)."""
    zones: frozenset[str]
    """The zones its scenarios may name (each one of :class:`verifier.spec.cards.Zone`)."""
    phases: tuple[str, ...]
    """The phases of its turn, in order (a rule system lists those it models)."""
    steps: tuple[tuple[str, str], ...] = ()
    """The steps of its turn, in order, each with the phase it belongs to (a phase without
    steps is one step of its own name). A scenario that goes on through its turn moves
    along them (see :mod:`verifier.rules.turn`); a game without steps stays where it is."""
    words: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Its own names for the verifier's zones and card types, which its scenarios and
    claims may use (Magic: ``battlefield`` for the field, ``creature`` for a monster)."""
    places: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """How its traces say where a card is, by zone, where not "in the ZONE" ("on the
    battlefield")."""
    filter_keys: frozenset[str] = frozenset()
    """The card-filter keys of its own that generated scenarios use (Yu-Gi-Oh!'s battle
    ``position`` and ``attacking``, CMC's ``dizzy``)."""
    no_priority: frozenset[str] = frozenset()
    """The steps in which no player receives priority: nothing is activated there with an
    empty chain, and the turn moves on through them (Magic's untap step, CR 502.4; its
    cleanup step, 514.3, unless something triggers there and is put onto the stack)."""
    fields: tuple[str, ...] = ()
    """Optional state fields its cards need, by name (each declared by the module that owns
    it: see :func:`verifier.core.state.declare`)."""
    summoning_sickness: bool = False
    """Whether a creature that came under its controller's control this turn may neither
    attack nor pay a {T} cost (Magic's "summoning sickness", CR 302.6)."""
    untaps: bool = False
    """Whether the active player's permanents untap (are no longer dizzy) as their turn
    begins (Magic's untap step, CR 502.3)."""
    face_down_creatures: bool = False
    """Whether a creature may be face-down on the field as a 2/2 with no colour, which its
    controller turns face up as a special action by paying its morph cost (Magic: CR 702.37,
    708, 116.2b)."""
    verbs: frozenset[str] | None = None
    """The effect verbs its cards typically use, which the scenario generator of the
    differential tests draws from (None: every registered verb)."""
    wording: Wording = Wording()
    rulebook: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    """Its sentences for named rules, where the game's own words say it better."""
    drafting: Drafting = Drafting()
    """What the scenario generator writes for it."""
    short_title: str = ""
    """Its name where room is short, as the web page's menus show it (default: the title)."""
    blank: str = ""
    """The text of a small scenario to start from, which the web page offers (with its
    bundled examples) for a game that has one."""

    def has_field(self, name: str) -> bool:
        return name in self.fields

    def steps_under(self, phases: tuple[str, ...], battle: bool) -> tuple[tuple[str, str], ...]:
        """The steps of a turn, each with its phase, under a rule system with these
        ``phases`` (the Battle Phase's only when it describes a ``battle``)."""
        return tuple(
            (name, phase)
            for name, phase in self.steps
            if phase in phases and (phase != "battle" or battle)
        )

    def place(self, zone: str) -> str:
        """Where a card in ``zone`` (the verifier's name) is, in the game's words."""
        if zone in self.places:
            return self.places[zone]
        return f"on the {zone}" if zone in ("field", "stack") else f"in the {zone}"

    def phase_of(self, step: str) -> str | None:
        """The phase ``step`` belongs to, or None if the game has no such step."""
        return next((phase for name, phase in self.steps if name == step), None)


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Make ``game`` available to rule systems by its name."""
    if game.name in _GAMES and _GAMES[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Forget the game called ``name`` (for tests that register their own)."""
    _GAMES.pop(name, None)


def games() -> list[Game]:
    """Every registered game, in the order they were registered."""
    return list(_GAMES.values())


def game_named(name: str) -> Game | None:
    """The registered game called ``name``, if there is one."""
    return _GAMES.get(name)


def game(name: str) -> Game:
    """The registered game called ``name`` (a loaded rule system's game always is)."""
    found = _GAMES.get(name)
    if found is None:
        raise LookupError(f"no game named {name!r} is registered")
    return found
