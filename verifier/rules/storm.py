"""Magic's storm (CR 702.40): counting the spells cast this turn.

"Storm" means "When you cast this spell, copy it for each other spell that was cast before
it this turn." The state counts the spells cast this turn (``casts``: the scenario's
``spells-cast`` before it starts, then one per spell cast, whoever casts it; a copy is put
on the stack, not cast, so it is not counted, 707.10) and keeps, for each card, how many
had been cast when it was last cast (``stormc``). Casting a spell with storm triggers its
storm ability (the event ``cast``); when that ability resolves, its effect ``copy-spell:
storm`` makes that many copies (:mod:`verifier.effects.copies`), even if the spell has left
the stack by then. The count starts over as a turn begins.
"""

from __future__ import annotations

from verifier.core.state import array, declare, scalar
from verifier.rules import triggers
from verifier.rules.context import Ctx
from verifier.spec.cards import Ability
from verifier.spec.scenario import Scenario

__all__ = ["CAST", "cast", "fields", "new_turn", "storms"]

declare(
    scalar("casts"),  # spells cast this turn
    array("stormc", "card"),  # each card's storm count
)

CAST = "cast"
"""The event of a spell being cast: what a storm ability triggers on."""


def storms(ability: Ability) -> bool:
    """Whether ``ability`` is a storm ability (it triggers as its spell is cast)."""
    return ability.trigger is not None and CAST in ability.trigger.events


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The spells cast this turn, and each card's storm count, for a scenario with storm."""
    return ("casts", "stormc") if any(storms(a) for a in scenario.abilities) else ()


def cast(ctx: Ctx, ability: Ability) -> None:
    """``ability``'s card is cast (its activation as a card; a copy is never cast): it
    counts the spells cast before it this turn, and its storm ability triggers."""
    if not ctx.w.layout.has("casts") or not ability.card_activation:
        return
    f, card = ctx.f, ability.card
    f.stormc[card] = f.casts
    f.casts = ctx.add(f.casts, 1)
    hit = [c == card for c in range(ctx.w.n)]
    triggers.fire(ctx, CAST, hit, list(f.zone))


def new_turn(ctx: Ctx) -> None:
    """A turn begins: no spell has been cast in it yet."""
    if ctx.w.layout.has("casts"):
        ctx.f.casts = 0
