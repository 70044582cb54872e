"""The copy slots of a scenario (Magic, CR 707.10): one card per copy of a spell its effects
may put on the stack.

A copy of a spell is a spell with the copied spell's characteristics (707.2) and its
choices (707.10); it is put on the stack, not cast (so it has no cost to pay), its controller
may choose new targets for it as it is (707.10c), and it ceases to exist once it leaves the
stack (704.5e). The state keeps such objects as cards the scenario does
not list, like token slots (:mod:`verifier.io.tokens`): "Lightning Bolt (copy 1)" is in no
zone until an effect puts it on the stack, with the abilities of the spell it copies under
its own numbers, so that claims and counterspells tell it from the spell it copies.

Each instant or sorcery of the scenario that a ``copy-spell`` part may target gets one slot
per ability that copies, and a spell with storm (702.40) as many as its storm count may
reach (``counts``); a copy of a copy is a copy of the same spell (707.10, 707.2) and takes
one of its slots. A copy's abilities wait to be put on the stack the way a trigger waits
(:data:`PUT`): its controller puts it there, choosing its targets, before anyone receives
priority. A slot is one object (400.7): once its copy is gone it stays used,
like a token's. A copy made once every slot of its spell is used marks the continuation
past a capacity (``unknown``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from verifier.errors import ScenarioError
from verifier.spec.cards import Ability, Card, TriggerSpec, Zone

__all__ = ["PUT", "copy_cards", "copy_name"]

PUT = TriggerSpec(frozenset(), True, None, None, False, "if")
"""How a copy's ability waits to go on the stack: as a mandatory trigger that no event
triggers (the effect that copies makes it wait), put there by its controller."""


def copy_name(spell: str, number: int) -> str:
    """The name of the ``number``-th copy slot of ``spell``."""
    return f"{spell} (copy {number})"


def copy_cards(
    cards: Sequence[Card],
    abilities: list[Ability],
    fits: Sequence[set[int]],
    counts: Sequence[int] = (),
) -> tuple[Card, ...]:
    """The copy slots of the scenario, after ``cards``; their abilities are appended to
    ``abilities``. ``fits[a]`` are the cards the ``copy-spell`` parts of ability ``a`` may copy
    (empty for an ability that copies nothing); ``counts[a]`` how many copies one resolution
    of it may make (1 when not given: storm makes several)."""
    copiers = [a for a in abilities if fits[a.index]]
    if not copiers:
        return ()
    taken = {c.name for c in cards}
    copied = sorted({c for a in copiers for c in fits[a.index]})
    out: list[Card] = []
    for spell in copied:
        card = cards[spell]
        if card.stays or card.type != "spell":
            copier = next(a for a in copiers if spell in fits[a.index])
            raise ScenarioError(
                f"{copier.label} may copy {card.name}, which is not an instant or a "
                "sorcery: copying a permanent spell (it would enter as a token, CR 707.10f) "
                "is not supported; narrow its target to kind: [instant, sorcery]",
                copier.span,
            )
        own = [abilities[a] for a in card.abilities if abilities[a].card_activation]
        many = sum(counts[a.index] if counts else 1 for a in copiers if spell in fits[a.index])
        for number in range(1, many + 1):
            name = copy_name(card.name, number)
            if name in taken:
                raise ScenarioError(
                    f"{copiers[0].label} may copy {card.name} as '{name}', and the scenario "
                    "has a card of that name: rename the card",
                    copiers[0].span,
                )
            taken.add(name)
            index = len(cards) + len(out)
            first = len(abilities)
            for ability in own:
                label = ability.label.replace(card.name, name, 1)
                # Put on the stack, not cast: no cost, no limit per turn (CR 707.10).
                put = replace(
                    ability,
                    index=len(abilities),
                    card=index,
                    label=label,
                    costs=(),
                    once=None,
                    trigger=PUT,
                    card_activation=True,
                )
                abilities.append(put)
            out.append(
                replace(
                    card,
                    index=index,
                    name=name,
                    zone=Zone.NONE,
                    face_up=False,
                    abilities=tuple(range(first, len(abilities))),
                    printed=card.printed_name,
                    copy_of=spell,
                )
            )
    return tuple(out)
