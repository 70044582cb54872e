"""Magic's storm (CR 702.40) as the loader reads it: ``storm: true`` on an instant or sorcery.

Storm is a triggered ability of the spell itself, which functions on the stack: "When you
cast this spell, copy it for each other spell that was cast before it this turn. If the
spell has any targets, you may choose new targets for any of the copies." The loader gives
the card that ability (``NAME (storm)``: it triggers as the card is cast, the event
:data:`verifier.rules.storm.CAST`; its effect is ``copy-spell: storm``) and sizes the copy
slots the scenario keeps of the spell (:mod:`verifier.io.copies`): as many as its storm
count may reach when each card of a hand is cast at most once, up to :data:`MOST`. A count
beyond the slots marks the continuation past a capacity (``unknown``).
"""

from __future__ import annotations

from collections.abc import Sequence

from verifier.rules.storm import CAST
from verifier.spec.cards import Ability, Card, Effect, TriggerSpec, Zone

__all__ = ["MOST", "storm_ability", "storm_copies"]

MOST = 6
"""At most this many copy slots for one spell with storm."""


def storm_ability(index: int, card: int, name: str, kind: str, speed: int | None) -> Ability:
    """The storm ability of card ``card`` (named ``name``): a mandatory triggered ability of
    kind ``kind`` that triggers as the card is cast, from the stack."""
    return Ability(
        index=index,
        card=card,
        label=f"{name} (storm)",
        kind=kind,
        speed=speed,
        condition=None,
        trigger=TriggerSpec(frozenset({CAST}), True, None, None, False, "when"),
        costs=(),
        target=None,
        effects=(Effect("copy-spell", obj="storm"),),
        once=None,
        no_response=False,
        card_activation=False,
        origin=Zone.STACK,
    )


def storm_copies(cards: Sequence[Card], abilities: Sequence[Ability], spells_cast: int) -> int:
    """How many copies one storm ability of the scenario may make: the spells cast before
    the scenario and every other card of a hand, up to :data:`MOST` (a card cast twice, or
    one that comes back to a hand, may make more: past the slots, the verdict is unknown)."""
    castable = {a.card for a in abilities if a.card_activation and cards[a.card].zone is Zone.HAND}
    return max(1, min(MOST, spells_cast + len(castable) - 1))
