"""State-based actions (Magic, CR 704), checked whenever a player would receive priority.

- ``zero-life`` (704.5a): a player with 0 or less life loses the game; the continuation ends.
- ``deck-out``: a player who must draw more cards than the Deck holds loses (the draw itself
  marks it: :func:`verifier.effects.resources.deck_out`); the continuation ends likewise.
- ``lethal-damage`` (704.5g): a creature with damage marked on it at least its toughness
  (greater than 0) is destroyed.
- ``zero-toughness`` (704.5f): a creature with toughness 0 or less is put into its owner's
  graveyard (not destroyed).
- ``token-ceases`` (704.5d): a token in a zone other than the battlefield ceases to exist
  (it goes to no zone; a creature token put into the graveyard by the others "dies" first,
  704.3 checks again).

All of them happen at once, as one event (704.3); the creatures that go are "dies" events
(sent from the battlefield to the graveyard) whose triggers wait for the next priority.
"""

from __future__ import annotations

from verifier.core.logic import Term
from verifier.core.state import array, declare
from verifier.rules import regeneration
from verifier.rules.context import Ctx, on_field
from verifier.rules.moves import move
from verifier.spec.cards import Zone
from verifier.spec.rulesystem import RuleSystem

__all__ = ["apply", "fields", "lost"]

declare(array("lost", "player", False))  # a player who lost the game


def fields(model: RuleSystem) -> tuple[str, ...]:
    """The optional state fields the state-based actions read."""
    wanted: list[str] = []
    if model.state_based & {"lethal-damage", "zero-toughness"}:
        wanted += ["defense", "dmg"]
    if model.state_based & {"zero-life", "deck-out"}:
        wanted.append("lost")
    return tuple(wanted)


def apply(ctx: Ctx, when: Term = True) -> None:
    """Perform every state-based action that applies now (when ``when`` holds)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    rules = w.model.state_based
    if not rules or L.is_false(when):
        return
    if "zero-life" in rules:
        for p in (0, 1):
            losing = L.and_(when, L.not_(f.lost[p]), f.lp[p] <= 0)
            f.lost[p] = L.or_(f.lost[p], losing)
            if losing is True:
                ctx.note("lost", (), "", p)
    destroyed: list[Term] = [False] * w.n
    zero: list[Term] = [False] * w.n
    for c in range(w.n):
        if w.cards[c].type != "monster":
            continue
        there = L.and_(when, on_field(ctx, c))
        if "zero-toughness" in rules:
            zero[c] = L.and_(there, f.defense[c] <= 0)
        if "lethal-damage" in rules:
            destroyed[c] = L.and_(there, f.defense[c] > 0, f.dmg[c] >= f.defense[c])
    # Lethal damage destroys, and a regeneration shield replaces a destruction (701.19);
    # 0 toughness puts the creature into the graveyard, which no shield replaces.
    destroyed = regeneration.replaced(ctx, destroyed)
    dies = [L.or_(z, d) for z, d in zip(zero, destroyed, strict=True)]
    if not all(L.is_false(d) for d in dies):
        ctx.note("state-based", dies)
        gone = all(L.is_false(d) for d in destroyed)
        events = ("sent-to-graveyard",) if gone else ("destroyed",)
        move(ctx, dies, Zone.GRAVEYARD, events, destroyed=True, quiet=True)
    if "token-ceases" in rules:
        _tokens_cease(ctx, when)


def _tokens_cease(ctx: Ctx, when: Term) -> None:
    """704.5d: every token that is neither on the battlefield nor already nowhere."""
    L, f, w = ctx.L, ctx.f, ctx.w
    ceasing: list[Term] = [False] * w.n
    for c in range(w.n):
        if w.cards[c].token:
            away = L.and_(f.zone[c] != int(Zone.FIELD), f.zone[c] != int(Zone.NONE))
            ceasing[c] = L.and_(when, away)
    if all(L.is_false(c) for c in ceasing):
        return
    ctx.note("token-ceases", ceasing)
    move(ctx, ceasing, Zone.NONE, (), quiet=True)


def lost(ctx: Ctx) -> Term:
    """Whether a player has lost the game (the game is over)."""
    if not ctx.w.model.state_based & {"zero-life", "deck-out"}:
        return False
    return ctx.L.or_(ctx.f.lost[0], ctx.f.lost[1])
