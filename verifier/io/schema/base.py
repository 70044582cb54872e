"""What every file format shares: strict models (no unknown key, keys written with dashes),
the closed vocabularies they name, and the rule that a choice takes exactly one key."""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from verifier.spec.values import MAX_POINTS

M = TypeVar("M", bound=BaseModel)


def alias(name: str) -> str:
    return name.replace("_", "-")


class Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", alias_generator=alias, populate_by_name=True, frozen=True
    )


ZoneName = Literal[
    "hand", "field", "graveyard", "banished", "deck", "stack", "battlefield", "exile", "library"
]
"""The zones; ``battlefield``, ``exile`` and ``library`` are Magic's words for three of them."""
CardType = Literal["monster", "spell", "trap", "spell-trap", "card", "creature", "land"]
"""The card types; ``creature`` is Magic's word for a monster."""
Activated = Literal["monster", "spell", "trap", "spell-trap", "card", "monster-effect"]
Side = Literal["you", "opponent", "any"]
Speed = Annotated[str | int, Field(description="a speed named by the rule system")]
Color = Literal["white", "blue", "black", "red", "green"]
Attribute = Literal["dark", "light", "earth", "water", "fire", "wind", "divine"]
"""Yu-Gi-Oh!: a monster's Attribute."""
MonsterType = Literal[
    "aqua",
    "beast",
    "beast-warrior",
    "creator-god",
    "cyberse",
    "dinosaur",
    "divine-beast",
    "dragon",
    "fairy",
    "fiend",
    "fish",
    "illusion",
    "insect",
    "machine",
    "plant",
    "psychic",
    "pyro",
    "reptile",
    "rock",
    "sea-serpent",
    "spellcaster",
    "thunder",
    "warrior",
    "winged-beast",
    "wyrm",
    "zombie",
]
"""Yu-Gi-Oh!: a monster's Type (its race: Fiend, Spellcaster, Winged Beast...)."""
ColorFilter = Literal[
    "white",
    "blue",
    "black",
    "red",
    "green",
    "colorless",
    "non-white",
    "non-blue",
    "non-black",
    "non-red",
    "non-green",
]

# Every number the formats accept is bounded (see verifier.spec.values).
Stat = Annotated[int, Field(ge=0, le=MAX_POINTS, description="ATK or DEF, 0 to 10^9")]
ManaText = Annotated[str, Field(min_length=1, max_length=40)]
"""Magic mana symbols: ``{1}{U}{U}`` or ``1UU`` (read by :func:`verifier.rules.mana.parse`)."""
Zones = Annotated[int, Field(ge=1, le=10, description="a number of zones, 1 to 10")]
Names = Annotated[str | list[str], Field(description="one name or a list of names")]


def exactly_one(model: BaseModel, names: tuple[str, ...], what: str) -> None:
    given = [n for n in names if getattr(model, n) is not None]
    if len(given) != 1:
        choices = ", ".join(alias(n) for n in names)
        if not given:
            raise ValueError(f"{what} needs one of: {choices}")
        both = " and ".join(alias(n) for n in given)
        raise ValueError(f"{what} takes exactly one of {choices}; got {both}")
