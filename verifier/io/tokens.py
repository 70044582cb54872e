"""The token slots of a scenario (Magic, CR 111): one card per token its effects may create.

``create-token: {name: Soldier, count: 2, ...}`` on a card keeps slots "Soldier Token 1" and
"Soldier Token 2" after the scenario's cards; another card that creates Soldiers goes on
with "Soldier Token 3". A slot is a creature in no zone (``Zone.NONE``) until its effect
creates it, controlled by its card's controller, with no abilities of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from verifier.effects.tokens import token_name
from verifier.errors import ScenarioError
from verifier.spec.cards import Ability, Card, Zone
from verifier.spec.rulesystem import RuleSystem

__all__ = ["token_cards"]


def token_cards(
    cards: Sequence[Card], abilities: Sequence[Ability], model: RuleSystem
) -> tuple[Card, ...]:
    """The token slots the abilities' ``create-token`` parts keep, after ``cards``."""
    taken = {c.name for c in cards}
    numbers: dict[str, int] = {}
    out: list[Card] = []
    for ability in abilities:
        made: set[str] = set()
        for part in ability.parts():
            token = part.token
            if token is None or token.name in made:
                continue  # two parts of one ability that make the same token share slots
            made.add(token.name)
            kind = next((k for k, v in model.kinds.items() if v.card == "monster"), None)
            if kind is None:
                raise ScenarioError(
                    f"{model.name} has no creature kind for the tokens {ability.label} creates",
                    ability.span,
                )
            slots = max(p.token.slots for p in ability.parts() if p.token == token)
            maker = cards[ability.card]
            for _ in range(slots):
                numbers[token.name] = number = numbers.get(token.name, 0) + 1
                name = token_name(token.name, number)
                if name in taken:
                    raise ScenarioError(
                        f"{ability.label} creates '{name}', and the scenario has a card of "
                        "that name: rename the card or the token",
                        ability.span,
                    )
                taken.add(name)
                out.append(
                    Card(
                        index=len(cards) + len(out),
                        name=name,
                        kind=kind,
                        type="monster",
                        owner=maker.controller,
                        controller=maker.controller,
                        zone=Zone.NONE,
                        face_up=False,
                        set_this_turn=False,
                        dizzy=False,
                        atk=token.power,
                        defense=token.toughness,
                        defense_position=False,
                        attacked=False,
                        level=None,
                        archetypes=frozenset(),
                        speed_modifiers=(),
                        stays=True,
                        continuous=(),
                        abilities=(),
                        span=ability.span,
                        colors=token.colors,
                        token=token.name,
                        maker=ability.index,
                    )
                )
    return tuple(out)
