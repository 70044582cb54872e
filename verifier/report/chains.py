"""Chains as pictures: a continuation's links, stacked as they are built, then resolving one
by one with what each did, laid out as boxes for the HTML report's SVG figures.

The grouping reads the trace steps the narration gives (their kinds, chain numbers, link
numbers and outcomes); the layout only places boxes and wraps text, and the template draws
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from verifier.trace.narrate import TraceStep

__all__ = ["Box", "Chain", "Figure", "Link", "chains", "figure", "width_of"]


@dataclass(slots=True)
class Link:
    """One activation of a chain: what it was, and how it resolved (if it did)."""

    number: int | None  # its Chain Link number; None for an activation that resolves at once
    card: str
    player: str | None
    text: str
    history: bool
    paid: list[str] = field(default_factory=list)  # what happened as it was activated
    resolution: str | None = None
    outcome: str | None = None
    did: list[str] = field(default_factory=list)  # what happened as it resolved
    order: int | None = None  # its place in the resolution order, from 1


@dataclass(slots=True)
class Chain:
    """The links of one chain in the order they were built, and how it ended."""

    number: int
    links: list[Link] = field(default_factory=list)
    resolved: list[Link] = field(default_factory=list)  # in the order they resolved
    cleanup: str | None = None


def chains(steps: Sequence[TraceStep]) -> list[Chain]:
    """The chains of a continuation that have at least one link, in the order they started."""
    found: dict[int, Chain] = {}
    current: list[str] | None = None  # where the effect steps that follow are told
    for step in steps:
        number = step.chain if step.chain is not None else 0
        chain = found.setdefault(number, Chain(number))
        if step.kind == "activation" and step.card is not None:
            link = Link(step.link, step.card, step.player, step.text, step.history)
            chain.links.append(link)
            current = link.paid
        elif step.kind == "resolution":
            link = _unresolved(chain, step)
            link.resolution = step.text
            link.outcome = step.outcome
            link.order = len(chain.resolved) + 1
            chain.resolved.append(link)
            current = link.did
        elif step.kind in {"effect", "continuous", "trigger"} and current is not None:
            current.append(step.text)
        elif step.kind == "cleanup":
            chain.cleanup = step.text
            current = None
        else:
            current = None
    return [c for c in found.values() if c.links]


def _unresolved(chain: Chain, step: TraceStep) -> Link:
    """The link a resolution step resolves: the latest unresolved one of its number and card
    (a link the trace does not show, its history cut short, is added)."""
    for link in reversed(chain.links):
        if link.order is None and link.number == step.link and link.card == step.card:
            return link
    link = Link(step.link, step.card or "", step.player, "", False)
    chain.links.append(link)
    return link


# -- layout ------------------------------------------------------------------------------------

WIDTH = 760
STACK_X, STACK_W = 12, 290
RESOLVE_X, RESOLVE_W = 340, 408
TOP = 34
LINE = 17
PAD = 9
GAP = 8
SIZE = 12.5  # the font size of the figure's text, in pixels

# Advance widths in ems of DejaVu Sans, the widest of the usual sans-serif fonts (what
# Debian's browsers fall back to): text wrapped to these fits in any narrower font too.
_EMS = {
    **dict.fromkeys("ijl'|", 0.28),
    **dict.fromkeys(" .,:;!", 0.33),
    **dict.fromkeys("ftI()[]-", 0.4),
    **dict.fromkeys("r", 0.42),
    **dict.fromkeys("sczJ", 0.53),
    **dict.fromkeys("mM", 0.98),
    **dict.fromkeys("wW", 0.99),
    **dict.fromkeys("ABCDGHKNOQRUVXYZ&", 0.79),
    **dict.fromkeys("EFLPST", 0.64),
    **dict.fromkeys('"', 0.46),
}
_DEFAULT_EM = 0.64  # the other lowercase letters, the digits, and anything else
_BOLD = 1.1  # DejaVu Sans Bold is about this much wider


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle with lines of text: ``head`` in bold, then ``lines``."""

    x: float
    y: float
    width: float
    height: float
    head: tuple[str, ...]
    lines: tuple[str, ...]
    style: str  # a CSS class: the player (stack) or the outcome (resolution)
    number: str = ""  # the badge: the Chain Link number, or the resolution order


@dataclass(frozen=True, slots=True)
class Figure:
    """One chain's picture: the stack on the left, the resolutions on the right."""

    chain: Chain
    title: str
    width: int
    height: int
    stack: tuple[Box, ...]
    resolved: tuple[Box, ...]
    cleanup: tuple[str, ...]
    cleanup_y: float
    arrow: tuple[float, float, float, float] | None  # from the first link to resolve to its box


def width_of(text: str, bold: bool = False) -> float:
    """The width in pixels ``text`` takes at most in the figure's font (see ``_EMS``)."""
    ems = sum(_EMS.get(c, 0.84 if c.isupper() else _DEFAULT_EM) for c in text)
    return ems * SIZE * (_BOLD if bold else 1.0)


def _wrap(text: str, width: float, bold: bool = False) -> tuple[str, ...]:
    """``text`` in lines no wider than ``width`` pixels, broken between words (inside a word
    only when the word alone is too wide)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        joined = f"{line} {word}" if line else word
        if width_of(joined, bold) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        for c in word:
            if line and width_of(line + c, bold) > width:
                lines.append(line)
                line = ""
            line += c
    return (*lines, line) if line or not lines else tuple(lines)


def _activation(link: Link) -> str:
    """The activation in words without where it went ("A uses X targeting Y", without
    "(speed E, added to the resolve stack)"), or who activated which card."""
    text = link.text
    if text.endswith(")") and " (" in text:
        text = text.rsplit(" (", 1)[0]
    if not text:
        return f"{link.player} · {link.card}" if link.player else link.card
    return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def figure(chain: Chain, noun: str, players: Sequence[str]) -> Figure:
    """Lay ``chain`` out: Chain Link 1 at the bottom of the stack, each link above the one it
    answers; on the right the resolutions in order, each with what it did."""
    inner = STACK_W - 2 * PAD - 26
    stack_boxes: list[tuple[tuple[str, ...], tuple[str, ...], str, str]] = []
    for link in chain.links:
        head = _wrap(_activation(link), inner, bold=True)
        if link.order is None:
            fate = "not resolved in this continuation"
        elif link.number is None:
            fate = "at once: it resolves right away"
        else:
            fate = f"resolves {_ordinal(link.order)}"
        if link.history:
            fate += " (history)"
        lines = tuple(line for text in [*link.paid, fate] for line in _wrap(text, inner))
        player = players.index(link.player) if link.player in players else 0
        badge = "" if link.number is None else str(link.number)
        stack_boxes.append((head, lines, f"player{min(player, 1)}", badge))
    heights = [PAD * 2 + LINE * (len(h) + len(ls)) for h, ls, _, _ in stack_boxes]
    stack_height = sum(heights) + GAP * max(0, len(heights) - 1)

    inner_r = RESOLVE_W - 2 * PAD - 26
    resolve_boxes: list[tuple[tuple[str, ...], tuple[str, ...], str, str]] = []
    for link in chain.resolved:
        head = _wrap(link.resolution or link.card, inner_r, bold=True)
        did = link.did or ["(nothing else happens)"]
        lines = tuple(line for text in did for line in _wrap("→ " + text, inner_r))
        resolve_boxes.append((head, lines, f"outcome-{link.outcome or 'resolved'}", ""))
    r_heights = [PAD * 2 + LINE * (len(h) + len(ls)) for h, ls, _, _ in resolve_boxes]
    resolve_height = sum(r_heights) + GAP * max(0, len(r_heights) - 1)
    cleanup = _wrap(chain.cleanup, RESOLVE_W) if chain.cleanup else ()

    body = max(stack_height, resolve_height + LINE * len(cleanup) + (GAP if cleanup else 0))
    stack: list[Box] = []
    y = TOP + body  # the stack grows upwards from the bottom of the figure
    for (head, lines, style, badge), height in zip(stack_boxes, heights, strict=True):
        y -= height
        stack.append(Box(STACK_X, y, STACK_W, height, head, lines, style, badge))
        y -= GAP
    resolved: list[Box] = []
    y = TOP
    for index, ((head, lines, style, _), height) in enumerate(
        zip(resolve_boxes, r_heights, strict=True), start=1
    ):
        resolved.append(Box(RESOLVE_X, y, RESOLVE_W, height, head, lines, style, str(index)))
        y += height + GAP
    arrow = None
    if stack and resolved:
        source = next(stack[i] for i, link in enumerate(chain.links) if link is chain.resolved[0])
        first = resolved[0]
        arrow = (
            source.x + source.width,
            source.y + source.height / 2,
            first.x,
            first.y + first.height / 2,
        )
    return Figure(
        chain,
        f"{noun.capitalize()} {chain.number}",
        WIDTH,
        int(TOP + body + PAD),
        tuple(stack),
        tuple(resolved),
        cleanup,
        y + LINE - 4,
        arrow,
    )
