"""The chooser that drives generation (hypothesis, or a seeded random source), and the
numbers it picks from: Life Points, counts, claim constants."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Chooser(Protocol):
    """Where the choices come from."""

    def pick(self, options: Sequence[T]) -> T: ...

    def integer(self, low: int, high: int) -> int: ...


class RandomChooser:
    """Choices from a seeded random generator."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


# -- numbers --------------------------------------------------------------------------------

#: The schema's bound for Life Points and Life Point amounts.
LP_BOUND = 1_000_000_000
#: The schema's bound for ``draw`` and ``add-from-deck``.
COUNT_BOUND = 100

#: Starting Life Points: small, odd, the default, next to powers of two, huge.
LP_VALUES = (
    1,
    2,
    7,
    999,
    4001,
    8000,
    8001,
    16383,
    32767,
    32768,
    32769,
    40000,
    65535,
    65536,
    65537,
    100_000,
    131_071,
    1_000_001,
    16_777_217,
    536_870_911,
    LP_BOUND - 1,
    LP_BOUND,
)
#: Life Point amounts of costs and effects (``pay-lp``, ``lose-lp``, ``gain-lp``).
LP_AMOUNTS = (
    1,
    7,
    500,
    999,
    1000,
    4000,
    8000,
    8001,
    30000,
    32767,
    32768,
    65535,
    65536,
    65537,
    100_000,
    1_000_001,
    LP_BOUND,
)
#: Cards drawn or added (``draw``, ``add-from-deck``).
COUNTS = (1, 1, 2, 3, 7, 64, 99, COUNT_BOUND)
#: Constants of ``life_points`` and ``cards_drawn`` claims, negative to past the bound.
CLAIM_CONSTANTS = (
    -65536,
    -32769,
    -1,
    0,
    1,
    2,
    999,
    4000,
    7000,
    8000,
    8001,
    30000,
    32767,
    32768,
    32769,
    40000,
    65535,
    65536,
    65537,
    100_000,
    1_000_000,
    LP_BOUND,
    LP_BOUND + 1,
)
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
#: Chain numbers, link numbers and chain lengths past every integer width (a claim compares
#: them as the numbers they are, never wrapped to the state's width).
BIG_INDICES = (32767, 32768, 65535, 65536, 65537, 131_073, 4_294_967_297, 10**17 + 1)


def _lp(c: Chooser) -> int:
    return c.pick(LP_VALUES)


def _amount(c: Chooser) -> int:
    return c.pick(LP_AMOUNTS)
