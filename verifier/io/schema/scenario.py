"""The scenario and library formats: the situation, the cards, the history, the claims and
the limits of a scenario; a library's cards and the cards it leaves out."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from verifier.io.schema.base import Strict
from verifier.io.schema.cards import CardFile
from verifier.spec.values import Points


class ClaimFile(Strict):
    """A claim, its expected verdict, and optionally a variant of the scenario it is about."""

    claim: str = Field(
        description="the claim, in the claim language ('can_respond(B)', 'always zone(\"X\") == "
        "graveyard', ...)"
    )
    expect: Literal["holds", "fails"] | None = Field(
        None, description="the verdict it should have: holds or fails (a golden test)"
    )
    id: str | None = Field(None, description="its name in reports (default: claim-N)")
    rules: str | None = Field(None, description="decide it under this rule system instead")
    turn: str | None = Field(None, description="decide it with this turn player instead")
    history: list[str] | None = Field(None, description="decide it after this history instead")
    until: str | None = Field(
        None,
        description="decide it at the end of this step or phase of the turn (the "
        "continuation goes on through the turn until then)",
    )


HistoryStep = Annotated[
    str, Field(description="'A activates X targeting Y', 'B passes', 'A summons X', ...")
]


PENDING_TRIGGERS_MAX = 8
MAX_TURNS = 3


class LimitsFile(Strict):
    """Bounds a scenario sets on its own state; every one of them acts (none is ignored)."""

    pending_triggers: int | None = Field(
        None,
        alias="pending_triggers",
        strict=True,
        ge=1,
        le=PENDING_TRIGGERS_MAX,
        description="how many times one mandatory trigger may wait to be activated "
        f"(1 to {PENDING_TRIGGERS_MAX}; default 2); a run that needs more is unknown",
    )
    turns: int | None = Field(
        None,
        strict=True,
        ge=1,
        le=MAX_TURNS,
        description=f"how many turns a continuation may span (1 to {MAX_TURNS}; default 1): "
        "past 1, it goes on through the other player's turns to the End Phase of the last",
    )


class ScenarioFile(Strict):
    """A scenario: the rule system, the situation, what has happened, and the claims."""

    rules: str = Field(description="a rule system's name, or a path to its file")
    description: str | None = Field(None, description="what the scenario is, in a sentence")
    players: list[str] = Field(
        default_factory=lambda: ["A", "B"],
        min_length=2,
        max_length=2,
        description="the two players' names (default: A and B)",
    )
    turn: str = Field(description="the turn player")
    phase: str | None = Field(
        None, description="the phase of the turn (default: the first Main Phase)"
    )
    step: str | None = Field(
        None, description="the step of the turn the scenario starts in (names its phase too)"
    )
    until: str | None = Field(
        None,
        description="a step or phase of the turn: continuations go on through the turn, "
        "phase by phase, until it ends (without it, they end with the scenario's chains)",
    )
    life_points: Points = 8000
    hands: dict[str, Annotated[int, Field(strict=True, ge=0, le=60)]] = Field(
        default_factory=dict,
        description="how many cards each player holds besides the listed ones (unknown "
        "cards, 0 to 60): costs may discard them, draws add to them",
    )
    spells_cast: Annotated[int, Field(strict=True, ge=0, le=20)] = Field(
        0,
        description="Magic: how many spells were cast earlier this turn, before the scenario "
        "(0 to 20; storm counts them, CR 702.40a)",
    )
    deck: dict[str, Annotated[int, Field(strict=True, ge=0, le=60)]] = Field(
        default_factory=dict,
        description="how many cards each player's Deck holds besides the listed ones (0 to "
        "60): draws and 'add from the Deck' take from them, a card cannot be activated to "
        "draw more than it holds (under activation_needs_effect), and a player who must draw "
        "more loses (deck-out); a player not listed has a Deck that is not counted",
    )
    library: str | list[str] | None = Field(
        None, description="card library files (*.cards.yaml) whose cards the scenario names"
    )
    cards: dict[str, CardFile] = Field(
        description="the cards, by name: where each is, who has it, and what it does"
    )
    history: list[HistoryStep] = Field(
        default_factory=list,
        description="what has happened, in sentences; the claims are about the continuations from "
        "there",
    )
    claims: list[ClaimFile | str] = Field(
        default_factory=list,
        description="the claims to decide: a claim, or an entry with its expected verdict",
    )
    limits: LimitsFile = Field(
        default_factory=lambda: LimitsFile.model_validate({}),
        description="bounds on the scenario's own state",
    )


class LibraryFile(Strict):
    """A card library shared between scenarios."""

    description: str | None = Field(None, description="what the library holds")
    cards: dict[str, CardFile] = Field(description="the cards, by their official names")
    left_out: dict[str, str] = Field(
        default_factory=dict,
        description="cards the format cannot encode faithfully, each with the reason",
    )
