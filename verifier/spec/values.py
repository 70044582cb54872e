"""The bounded numbers the file formats share, so that the integer width of the encoding can
be derived from the scenario (Life Points into the millions are legal input)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

__all__ = ["MAX_POINTS", "Cards", "Points"]

MAX_POINTS = 1_000_000_000
Points = Annotated[int, Field(ge=1, le=MAX_POINTS, description="Life Points, 1 to 10^9")]
Cards = Annotated[int, Field(ge=1, le=100, description="a number of cards, 1 to 100")]
