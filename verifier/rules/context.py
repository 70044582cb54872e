"""What every rule primitive receives: the logic, the frame of the state, the static world."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from verifier.core.logic import Logic, Term
from verifier.core.state import Capacity, Frame, Reset, Window, array, declare, scalar
from verifier.core.world import World
from verifier.rules import colors
from verifier.spec.cards import Filter, Zone

__all__ = [
    "Check",
    "Ctx",
    "Note",
    "append",
    "defense_position",
    "first_only",
    "matches",
    "on_field",
    "player_fits",
    "player_target",
    "present",
    "reset_card",
    "reset_turn",
    "turn_player",
]

declare(
    # A card is dizzy (used; Magic: tapped) until undizzied. A card that moves is no longer.
    array("dizzy", "card", False, resets=frozenset({Reset.MOVES})),
    # Its ATK and DEF now, after every change (0 for a card without): they go back to the
    # printed values as it moves or is flipped face-down, and as a turn ends.
    array("atk", "card"),
    array("defense", "card"),
    # Damage marked on a creature (Magic): gone when it moves (CR 400.7).
    array("dmg", "card", resets=frozenset({Reset.MOVES})),
    # Magic's combat: attacking (removed from combat as it moves, CR 506.4), the attacker it
    # blocks, and whether an attacker was blocked (it stays so, CR 509.1h); a combat is over
    # when the turn ends (CR 511.3).
    array("atkg", "card", False, resets=frozenset({Reset.MOVES, Reset.TURN})),
    array("blk", "card", -1, "card", resets=frozenset({Reset.MOVES, Reset.TURN})),
    array("blkd", "card", False, resets=frozenset({Reset.TURN})),
    # It came under its controller's control this turn (summoning sickness, CR 302.6).
    array("fresh", "card", False, resets=frozenset({Reset.TURN})),
    scalar("declaring"),  # attackers (1) or blockers (2) are being declared
    scalar("tp"),  # the turn player (when a continuation may go on to a next turn)
    array("dpos", "card", False),  # in Defense Position
    # Its battle position may not change this turn; it declared an attack this turn.
    array("fixed", "card", False, resets=frozenset({Reset.TURN})),
    array("atkd", "card", False, resets=frozenset({Reset.TURN})),
    scalar("attacker", -1, "card"),  # the monster whose attack is under way, or -1
    scalar("atarget", -1, "card"),  # the monster it attacks, or -1 (a direct attack)
    array("bwait", "card", False),  # destroyed by this battle, waiting for its end
)


@dataclass(frozen=True, slots=True)
class Check:
    """One named condition of a guard: ``rule`` is the rule's name, ``ok`` its truth."""

    rule: str
    ok: Term


@dataclass(frozen=True, slots=True)
class Note:
    """A narrative record of something that happened, kept only by the concrete engine."""

    kind: str
    cards: tuple[int, ...] = ()
    detail: str = ""
    player: int | None = None
    value: int | None = None


@dataclass(slots=True)
class Ctx:
    """One rule application: the logic, the state being read or changed, and the world."""

    L: Logic
    f: Frame
    w: World
    notes: list[Note] | None = None
    memo: dict[str, Any] = field(default_factory=dict)
    """Values computed once per state and shared by the guards of its actions."""
    moment: Any = None
    """While effect parts happen at the same time ("and if you do"): the event number
    before the first of them; their events share the number that follows it."""

    def note(
        self,
        kind: str,
        cards: Sequence[Any] = (),
        detail: str = "",
        player: Any = None,
        value: Any = None,
    ) -> None:
        """Record a narrative step; only meaningful when every value is concrete."""
        if self.notes is None:
            return
        chosen = (
            tuple(i for i, hit in enumerate(cards) if hit is True)
            if cards and isinstance(cards[0], bool)
            else tuple(int(c) for c in cards)
        )
        self.notes.append(
            Note(
                kind,
                chosen,
                detail,
                None if player is None else int(player),
                None if value is None else int(value),
            )
        )

    # -- integers and capacities ------------------------------------------------------------

    def exceed(self, capacity: Capacity, when: Term) -> None:
        """Mark the state at ``capacity`` when ``when`` holds (the first capacity reached
        is the one a verdict names)."""
        L, f = self.L, self.f
        if L.is_false(when):
            return
        first = L.and_(when, f.overflow == int(Capacity.NONE))
        f.overflow = L.ite(first, int(capacity), f.overflow)

    def add(self, a: Term, b: Term, when: Term = True) -> Term:
        """``a + b``; a sum that leaves the integer range marks the state at capacity."""
        value, ok = self.L.add(a, b, self.w.layout.bits)
        self.exceed(Capacity.INTEGER, self.L.and_(when, self.L.not_(ok)))
        return value

    def sub(self, a: Term, b: Term, when: Term = True) -> Term:
        """``a - b``; a difference that leaves the integer range marks the state at capacity."""
        value, ok = self.L.sub(a, b, self.w.layout.bits)
        self.exceed(Capacity.INTEGER, self.L.and_(when, self.L.not_(ok)))
        return value

    def life_left(self, life: Term, amount: Term, when: Term = True) -> Term:
        """A life total ``life`` after losing ``amount``: below 0 where the rule system
        allows it (Magic), else stopping at 0."""
        left = self.sub(life, amount, when)
        return left if self.w.model.life_below_zero else self.L.ite(left < 0, 0, left)

    def event(self, when: Term = True) -> None:
        """A change of game state happens (when ``when`` holds): it gets the next event
        number, which "the last thing to happen" compares (missing the timing)."""
        f, L = self.f, self.L
        if self.moment is not None:
            # Parts that happen at the same time: only the first event takes a new number.
            when = L.and_(when, f.seq == self.moment)
        f.seq = L.ite(when, self.add(f.seq, 1, when), f.seq)


def matches(ctx: Ctx, card: int, flt: Filter, me: Term, source: int | None = None) -> Term:
    """Whether ``card`` fits ``flt`` now, for the player ``me`` (who owns the effect).

    A target past the cards is a player (:func:`player_target`)."""
    w, f, L = ctx.w, ctx.f, ctx.L
    if card >= w.n:
        return player_fits(ctx, card - w.n, flt, me)
    if not w.static_match(card, flt):
        return False
    if flt.other and source is not None and card == source:
        return False
    parts: list[Term] = []
    if flt.zone is not None:
        parts.append(f.zone[card] == int(flt.zone))
    if flt.face == "up":
        parts.append(f.up[card])
    elif flt.face == "down":
        parts.append(L.not_(f.up[card]))
    if flt.controller == "you":
        parts.append(f.ctrl[card] == me)
    elif flt.controller == "opponent":
        parts.append(f.ctrl[card] != me)
    if flt.dizzy is not None:
        parts.append(f.dizzy[card] if flt.dizzy else L.not_(f.dizzy[card]))
    if flt.color is not None and w.layout.has("colors"):
        parts.append(colors.fits(ctx, card, flt.color))
    if flt.position is not None:
        defending = L.not_(f.up[card])
        if w.layout.has("dpos"):
            defending = L.or_(f.dpos[card], defending)
        parts.append(defending if flt.position == "defense" else L.not_(defending))
    if flt.attacking is not None:
        attacking: Term = False
        if w.layout.has("atkg"):  # Magic: every creature declared as an attacker
            attacking = L.and_(f.atkg[card], f.zone[card] == int(Zone.FIELD))
        elif w.layout.has("attacker"):  # Yu-Gi-Oh!: the one attack under way
            attacking = f.attacker == card
        parts.append(attacking if flt.attacking else L.not_(attacking))
    if flt.direct is not None:
        # A direct attack: the attack under way has no monster to attack (-1).
        direct: Term = False
        if w.layout.has("attacker") and w.layout.has("atarget"):
            direct = L.and_(f.attacker == card, f.atarget == -1)
        parts.append(direct if flt.direct else L.not_(direct))
    if w.layout.has("bwait"):
        # A monster destroyed by battle waits on the field for the end of the Damage Step;
        # nothing can single it out meanwhile (Konami's Damage Step rules).
        parts.append(L.not_(L.and_(f.bwait[card], f.zone[card] == int(Zone.FIELD))))
    bounds = (
        ("atk", flt.atk_at_least, flt.atk_at_most),
        ("defense", flt.def_at_least, flt.def_at_most),
    )
    for stat, low, high in bounds:
        if not w.layout.has(stat):
            continue  # it never changes: its printed value decided (World.static_match)
        # It can change: its value now decides. A faithful state's value lies in
        # 0..int_max: a bound outside it decides alone.
        top, now = w.layout.int_max, getattr(f, stat)[card]
        if low is not None and low > 0:
            parts.append(False if low > top else now >= low)
        if high is not None and high < top:
            parts.append(now <= high)
    return L.and_(*parts)


def player_target(ctx: Ctx, player: int) -> int:
    """How a target names ``player`` (0 or 1): the index after the cards' (CR 115.1: a
    spell or ability may target a player; ``-1`` stays "no target")."""
    return ctx.w.n + player


def player_fits(ctx: Ctx, player: int, flt: Filter, me: Term) -> Term:
    """Whether ``player`` fits a target filter's players, seen from ``me``. A player stays
    a legal target while the game goes on (CR 115.10 leaves only effects to say otherwise,
    and none is modelled)."""
    if flt.players is None or not 0 <= player <= 1:
        return False
    if flt.players == "you":
        return me == player
    if flt.players == "opponent":
        return me != player
    return True


def turn_player(ctx: Ctx) -> Term:
    """The turn player: the scenario's, or a term when the continuation may reach the next
    turn (``limits.turns``)."""
    return ctx.f.tp if ctx.w.layout.has("tp") else ctx.w.turn


def on_field(ctx: Ctx, card: int) -> Term:
    return ctx.f.zone[card] == int(Zone.FIELD)


def present(ctx: Ctx, card: int) -> Term:
    """Face-up on the field with its effects live.

    A monster whose Summon can still be negated (the Summon negation window) is not on the
    field yet: none of its continuous effects apply and it sees no events, so a Counter Trap
    negates its Summon even when it would negate Trap effects once summoned (Jinzo).
    """
    L, f, w = ctx.L, ctx.f, ctx.w
    live = L.and_(on_field(ctx, card), f.up[card])
    if w.cards[card].type != "monster" or not w.model.summon_negation:
        return live
    pending = L.and_(f.window == int(Window.SUMMON_NEGATION), f.summoned[card])
    return L.and_(live, L.not_(pending))


def append(ctx: Ctx, counter: str, entry: dict[str, Term], size: int, when: Term = True) -> None:
    """Write ``entry`` (a value per log column) at the end of a log of ``size`` entries,
    whose length is the field ``counter``; a log that is full marks the state overflowed."""
    L, f = ctx.L, ctx.f
    if size == 0 or L.is_false(when):
        return
    count = getattr(f, counter)
    log = Capacity.ACTIVATIONS if counter == "an" else Capacity.RESOLUTIONS
    ctx.exceed(log, L.and_(when, count >= size))
    for k in range(size):
        here = L.and_(when, count == k)
        if L.is_false(here):
            continue
        for name, value in entry.items():
            column = getattr(f, name)
            column[k] = L.ite(here, value, column[k])
    setattr(f, counter, L.ite(L.and_(when, count < size), count + 1, count))


def first_only(ctx: Ctx, mask: Sequence[Term]) -> list[Term]:
    """Keep only the first true position of ``mask``."""
    L = ctx.L
    out: list[Term] = []
    seen: Term = False
    for m in mask:
        out.append(L.and_(m, L.not_(seen)))
        seen = L.or_(seen, m)
    return out


def defense_position(ctx: Ctx, card: int) -> Term:
    """Whether ``card`` is in Defense Position (a face-down monster always is)."""
    f = ctx.f
    if ctx.w.layout.has("dpos"):
        return ctx.L.or_(f.dpos[card], ctx.L.not_(f.up[card]))
    return ctx.L.not_(f.up[card])


def reset_turn(ctx: Ctx) -> None:
    """A turn begins: what lasted "this turn" ends. Every field declared to go back to its
    first value then (:attr:`Reset.TURN`) does so."""
    f = ctx.f
    for _, declared in ctx.w.layout.resetting(Reset.TURN):
        if declared.over is None:
            setattr(f, declared.name, declared.fill)
        else:
            column = getattr(f, declared.name)
            for i in range(len(column)):
                column[i] = declared.fill


def reset_card(ctx: Ctx, reset: Reset, card: int, when: Term) -> None:
    """``card`` moves to another zone or is turned face-down (``reset``) where ``when``
    holds: its entry of every field declared to go back to its first value then does so."""
    L, f = ctx.L, ctx.f
    for _, declared in ctx.w.layout.resetting(reset):
        column = getattr(f, declared.name)
        if declared.fill is False:
            column[card] = L.and_(column[card], L.not_(when))
        else:
            column[card] = L.ite(when, declared.fill, column[card])
