"""How a trace tells the turn's own events: steps beginning, Sets, position changes, attacks,
replays and damage calculation."""

from __future__ import annotations

from verifier.effects.verb import are
from verifier.games.base import Wording
from verifier.rules.context import Note

__all__ = ["KINDS", "tell"]

KINDS = frozenset(
    {
        "step",
        "turn",
        "set",
        "position",
        "attack",
        "replay",
        "battle-flip",
        "damage",
        "destroyed-by-battle",
    }
)
"""The notes this module tells."""


def tell(
    note: Note, names: list[str], players: tuple[str, str], words: Wording
) -> list[tuple[str, str, int | None, int | None]]:
    """The trace steps (kind, text, player, card) of one turn note."""
    k = note.kind
    who = "" if note.player is None else players[note.player]
    cards = note.cards
    listed = ", ".join(names[c] for c in cards)
    first = cards[0] if cards else None
    if k == "step":
        return [
            ("step", f"the turn moves on: {words.steps.get(note.detail, note.detail)}", None, None)
        ]
    if k == "turn":
        return [
            (
                "step",
                f"{who}'s turn begins ({who} draws a card in the Draw Phase)",
                note.player,
                None,
            )
        ]
    if k == "set":
        return [("summon", f"{who} Sets {listed} (face-down Defense Position)", note.player, first)]
    if k == "position":
        where = "Defense" if note.value else "Attack"
        return [("position", f"{who} changes {listed} to {where} Position", note.player, first)]
    if k == "attack":
        attacker = names[cards[0]]
        aim = f"attacks {names[cards[1]]}" if len(cards) > 1 else "attacks directly"
        if note.value:
            return [
                (
                    "attack",
                    f"replay: {who}'s {attacker} {aim} (no new attack declaration)",
                    note.player,
                    first,
                )
            ]
        return [("attack", f"{who}'s {attacker} declares an attack: it {aim}", note.player, first)]
    if k == "replay":
        return [
            (
                "attack",
                "the number of monsters the attack could target changed: a replay "
                "(the attacking player attacks again or not)",
                None,
                None,
            )
        ]
    if k == "battle-flip":
        return [
            (
                "battle",
                f"{listed} is flipped face-up by the attack (its Flip effect waits "
                "until after damage calculation)",
                None,
                first,
            )
        ]
    if k == "damage":
        if not note.value:
            return []
        return [("battle", f"{who} takes {note.value} battle damage", note.player, None)]
    if k == "destroyed-by-battle":
        if not cards:
            return [("battle", "no monster is destroyed by battle", None, None)]
        return [
            (
                "battle",
                f"{listed} {are(cards)} destroyed by battle (sent to the graveyard "
                "at the end of the Damage Step)",
                None,
                first,
            )
        ]
    raise ValueError(f"not a turn note: {k!r}")
