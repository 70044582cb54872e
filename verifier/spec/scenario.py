"""Scenarios as frozen records: the rule system, the situation, the history, the claims."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from verifier.errors import Span
from verifier.spec.cards import Ability, Card
from verifier.spec.rulesystem import RuleSystem

if TYPE_CHECKING:  # the claim language sits above the input records
    from verifier.claims.ast import Formula

__all__ = ["TOP", "ClaimEntry", "Scenario", "Step", "Variant"]


TOP = 0
"""A history step's ``link``: the link on top of the chain then ("the top object resolves")."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a scenario's history."""

    verb: str  # activate | decline | pass | summon | press | timer | resolve | attack | advance
    # | land | unmorph | declare | block (Magic: the land drop, turning a face-down creature
    # face up, the declarations of attackers, blockers)
    player: int | None
    card: int | None = None
    ability: int | None = None
    target: int | None = None
    tributes: tuple[int, ...] = ()
    how: str = "normal"
    text: str = ""
    span: Span | None = field(default=None, compare=False)
    target2: int | None = None  # the second target ("targeting X and Y")
    link: int | None = None
    """"Chain Link N resolves": the history stops once link ``N`` has resolved (:data:`TOP`:
    the link on top of the chain when the step is replayed, "the top object resolves")."""
    modes: tuple[int, ...] = ()
    """A card with modes activated without naming one: the modes, of which the history
    takes the one legal at that point (``ability`` is the first)."""


@dataclass(frozen=True, slots=True)
class ClaimEntry:
    """A claim of a scenario with its expected verdict."""

    id: str
    text: str
    formula: Formula
    expect: str | None
    span: Span | None = field(default=None, compare=False)
    rules: str | None = None
    turn: str | None = None
    history: int | None = None
    until: str | None = None

    @property
    def variant(self) -> Variant:
        """The scenario variant this claim is about: rule system, turn player, the claim
        whose own history replaces the scenario's (None for the scenario's own), and the
        step of the turn at whose end it is decided."""
        return (self.rules, self.turn, self.history, self.until)


@dataclass(frozen=True, slots=True)
class Scenario:
    """Everything a check needs: the rule system, the situation, the history, the claims."""

    path: str
    model: RuleSystem
    description: str
    players: tuple[str, str]
    turn: int
    phase: str
    life_points: int
    cards: tuple[Card, ...]
    abilities: tuple[Ability, ...]
    history: tuple[Step, ...]
    claims: tuple[ClaimEntry, ...]
    limits: dict[str, int]
    span: Span | None = field(default=None, compare=False)
    step: str = ""
    """The step of the turn it starts in ("" for a game whose turn has no steps)."""
    until: str | None = None
    """The last step of the turn its continuations go through (None: they end with the
    scenario's chains and the chains those cause, in the step where it starts)."""
    allow_outside: bool = False  # loaded with --allow-outside: its variants are too
    names_only: bool = False  # its references could only be names: its variants' too
    hands: tuple[int, int] = (0, 0)
    """Cards in each player's hand besides the listed ones, unknown to the scenario."""
    decks: tuple[int, int] = (-1, -1)
    """The cards in each player's Deck (-1: not counted, it never runs out)."""
    spells_cast: int = 0
    """Magic: the spells cast earlier in this turn, before the scenario starts (storm
    counts them, CR 702.40a)."""
    text: str | None = field(default=None, compare=False, repr=False)
    """The scenario's text when it was loaded from memory, not a file (its variants are
    loaded from it again)."""
    folder: str = ""
    """The folder its relative references are resolved from."""


Variant = tuple[str | None, str | None, int | None, str | None]
