"""Magic's mana as the files write it: symbols (``{1}{U}{U}``, ``1UU``) and their counts."""

from __future__ import annotations

import re

__all__ = ["COLOURS", "parse", "spelled"]

COLOURS = "WUBRGC"
"""The types of mana (CR 106.1): white, blue, black, red, green, and colourless."""

_BRACED = re.compile(r"(?:\{(?:[0-9]{1,2}|[WUBRGC])\})+")
_SHORT = re.compile(r"[0-9]{0,2}[WUBRGC]*")


def parse(text: str) -> tuple[int, tuple[int, ...]] | None:
    """A mana cost or an amount of mana (``{1}{U}{U}``, ``1UU``, ``{G}``, ``G``): the
    generic part and the count of each type (in :data:`COLOURS`' order); None when it is
    not one."""
    text = text.strip().upper()
    if not text:
        return None
    if _BRACED.fullmatch(text):
        symbols = re.findall(r"\{([^}]*)\}", text)
    elif _SHORT.fullmatch(text):
        digits = re.match(r"[0-9]*", text)
        assert digits is not None
        symbols = ([digits.group()] if digits.group() else []) + list(text[digits.end() :])
    else:
        return None
    generic = sum(int(s) for s in symbols if s.isdigit())
    counts = tuple(symbols.count(c) for c in COLOURS)
    return generic, counts


def spelled(generic: int, counts: tuple[int, ...]) -> str:
    """Mana in the game's symbols: ``{1}{U}{U}``."""
    out = f"{{{generic}}}" if generic or not any(counts) else ""
    return out + "".join(f"{{{c}}}" * n for c, n in zip(COLOURS, counts, strict=True))
