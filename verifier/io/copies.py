"""The copy slots of a scenario (Magic, CR 707.10): one card per copy of a spell its effects
may put on the stack.

A copy of a spell is a spell with the copied spell's characteristics (707.2) and its
choices, targets included (707.10); it is put on the stack, not cast, and it ceases to exist
once it leaves the stack (704.5e). The state keeps such objects as cards the scenario does
not list, like token slots (:mod:`verifier.io.tokens`): "Lightning Bolt (copy 1)" is in no
zone until an effect puts it on the stack, with the abilities of the spell it copies under
its own numbers, so that claims and counterspells tell it from the spell it copies.

Each instant or sorcery of the scenario that a ``copy-spell`` part may target gets one slot
per ability that copies; a copy of a copy is a copy of the same spell (707.10, 707.2) and
takes one of its slots. A slot is one object (400.7): once its copy is gone it stays used,
like a token's. A copy made once every slot of its spell is used marks the continuation
past a capacity (``unknown``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from verifier.errors import ScenarioError
from verifier.spec.cards import Ability, Card, Zone

__all__ = ["copy_cards", "copy_name"]


def copy_name(spell: str, number: int) -> str:
    """The name of the ``number``-th copy slot of ``spell``."""
    return f"{spell} (copy {number})"


def copy_cards(
    cards: Sequence[Card], abilities: list[Ability], fits: Sequence[set[int]]
) -> tuple[Card, ...]:
    """The copy slots of the scenario, after ``cards``; their abilities are appended to
    ``abilities``. ``fits[a]`` are the cards the ``copy-spell`` parts of ability ``a`` may target
    (empty for an ability that copies nothing)."""
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
        for number in range(1, len(copiers) + 1):
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
                abilities.append(replace(ability, index=len(abilities), card=index, label=label))
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
