"""Magic's combat (CR 506-511): attackers and blockers declared as moves, and the combat
damage step.

A scenario may start with attackers and blockers declared (``attacking``, ``blocking``), or
go through the declare attackers step itself. There, as the step begins, the active player
declares which of their untapped creatures attack (508.1; one move for the whole choice,
none at all included); a creature that came under their control this turn cannot (its
"summoning sickness", 302.6), and an attacking creature taps (508.1f). No player receives
priority until the declaration is made (508.2). With no attacker the declare blockers and
combat damage steps are skipped (508.8); otherwise, as the declare blockers step begins, the
defending player declares which untapped creatures block which attacker (509.1), each
blocking one, and then the active player receives priority. An attacker is blocked from then
on, even once its blockers are gone (509.1h).

As the combat damage step begins each attacking or blocking creature on the battlefield
assigns combat damage equal to its power (510.1): an unblocked attacker to the defending
player, a blocked one to its blocker, a blocker to the attacker it blocks. A blocked
attacker stays blocked when its blocker leaves (509.1h) and then deals no damage. An
attacker with two or more blockers still there divides its damage among them as its
controller chooses (510.1c): that choice is not modelled, and such a continuation is past a
capacity (``unknown``), never given a division of the state's own. With first
strike or double strike in combat there are two combat damage steps, each of its own
creatures (510.4, :mod:`verifier.rules.strike`).

- ``combat.damage: dealt`` (the current rules, 510.2): the damage is dealt at once, then the
  state-based actions, before any player receives priority.
- ``combat.damage: stack`` (the rules from Sixth Edition until Magic 2010): the damage is put
  on the stack as one object; players may respond, and when it resolves the damage assigned
  is dealt, by a creature that left the battlefield too.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Capacity, Mode, array
from verifier.core.state import declare as declare_fields
from verifier.games import game
from verifier.rules import protocol, sba, strike
from verifier.rules.context import Check, Ctx, on_field, turn_player
from verifier.spec.cards import Card
from verifier.spec.rulesystem import CombatDamage, RuleSystem
from verifier.spec.scenario import Scenario

__all__ = [
    "ATTACKERS",
    "BLOCKERS",
    "MAX_CHOICES",
    "STEP",
    "after_attackers",
    "attack_sets",
    "block_sets",
    "choices_of",
    "deal",
    "declaration_checks",
    "declare",
    "declares",
    "enter",
    "fields",
    "goes_through",
]

declare_fields(
    array("asg", "card"),  # the combat damage a creature assigned
    array("atgt", "card", -2, "card"),  # whom its assigned damage goes to: -1 a player
)

STEP = "combat-damage"
ATTACKERS = "declare-attackers"
BLOCKERS = "declare-blockers"
MAX_CHOICES = 256
"""The most ways to declare attackers (or blockers) a scenario's combat enumerates, each a
move of its own; a scenario with more creatures than that allows is refused by the loader."""


def declares(scenario: Scenario) -> bool:
    """Whether the scenario's continuations declare attackers themselves: it has combat and
    goes through the declare attackers step (from before it, or from its start)."""
    return goes_through(scenario.model, scenario.step, scenario.until)


def goes_through(model: RuleSystem, step: str | None, until: str | None) -> bool:
    """Whether continuations from ``step`` to the end of ``until`` under ``model`` go
    through a combat's declare attackers step."""
    if model.combat_damage is None or until is None or step is None:
        return False
    steps = [name for name, _ in game(model.game).steps_under(model.phases, model.battle)]
    if ATTACKERS not in steps or step not in steps or until not in steps:
        return False
    return steps.index(step) <= steps.index(ATTACKERS) <= steps.index(until)


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The fields combat needs: who attacks and blocks now, and the damage each assigned;
    for a combat declared on the way, who is declaring, which attackers are blocked, whom
    each creature's damage is assigned to, and which creatures came this turn."""
    declared = declares(scenario)
    if scenario.model.combat_damage is None or not (
        declared or any(c.attacking for c in scenario.cards)
    ):
        return ()
    own = ("declaring", "fresh", "dizzy") if declared else ()
    return ("atkg", "blk", "asg", "atk", "defense", "dmg", "blkd", "atgt", *own)


def _creatures(cards: tuple[Card, ...], player: int) -> list[int]:
    """The creatures ``player`` may control on the battlefield this turn."""
    return [c.index for c in cards if c.type == "monster" and player in (c.controller, c.owner)]


def attack_sets(cards: tuple[Card, ...], turn: int) -> list[tuple[int, ...]]:
    """The ways the active player may declare attackers: every set of their creatures."""
    mine = _creatures(cards, turn)
    return [
        chosen for size in range(len(mine) + 1) for chosen in itertools.combinations(mine, size)
    ]


def block_sets(cards: tuple[Card, ...], turn: int) -> list[tuple[int, ...]]:
    """The ways the defending player may declare blockers: for each of their creatures, an
    attacker it blocks or none, flattened as (blocker, attacker) pairs."""
    theirs = _creatures(cards, 1 - turn)
    attackers = _creatures(cards, turn)
    out: list[tuple[int, ...]] = []
    for choice in itertools.product([-1, *attackers], repeat=len(theirs)):
        pairs = [(b, a) for b, a in zip(theirs, choice, strict=True) if a >= 0 and a != b]
        out.append(tuple(x for pair in pairs for x in pair))
    return sorted(set(out))


def choices_of(cards: tuple[Card, ...], turn: int) -> int:
    """How many declarations of attackers or of blockers a combat of these cards offers (the
    larger): each is a move of its own."""
    attackers = len(_creatures(cards, turn))
    blockers = len(_creatures(cards, 1 - turn))
    return max(1 << attackers, int((attackers + 1) ** blockers))


def declaration_checks(
    ctx: Ctx, kind: str, chosen: tuple[int, ...], player: int
) -> Iterator[Check]:
    """Whether the declaration ``chosen`` may be made now (CR 508.1, 509.1)."""
    L, f = ctx.L, ctx.f
    attacking = kind == "declare"
    yield Check("combat.declaration", f.declaring == (1 if attacking else 2))
    yield Check("scenario.ended", f.mode == int(Mode.OPEN))
    me = turn_player(ctx) if attacking else 1 - turn_player(ctx)
    yield Check("combat.declaring-player", me == player)
    who = list(chosen) if attacking else list(chosen[0::2])
    ready = [L.and_(on_field(ctx, c), f.ctrl[c] == me, L.not_(f.dizzy[c])) for c in who]
    yield Check("combat.untapped-creature", L.and_(*ready))
    if attacking:
        yield Check("combat.summoning-sickness", L.and_(*(L.not_(f.fresh[c]) for c in who)))
    else:
        yield Check(
            "combat.blocks-an-attacker",
            L.and_(*(L.and_(f.atkg[a], on_field(ctx, a)) for a in chosen[1::2])),
        )


def declare(ctx: Ctx, kind: str, chosen: tuple[int, ...]) -> None:
    """Make the declaration: attackers tap and attack; blockers block; then the active
    player receives priority (CR 508.2, 509.4)."""
    f = ctx.f
    if kind == "declare":
        for c in chosen:
            f.atkg[c] = True
            f.dizzy[c] = True  # 508.1f: attacking creatures tap
        ctx.note("attackers", list(chosen), "", turn_player(ctx))
    else:
        for b, a in zip(chosen[0::2], chosen[1::2], strict=True):
            f.blk[b] = a
            f.blkd[a] = True
        ctx.note("blockers", list(chosen), "", 1 - turn_player(ctx))
    ctx.event()
    f.declaring = 0
    protocol.open_state(ctx, True)


def after_attackers(ctx: Ctx) -> Term:
    """The step after the declare attackers step: with no attacker, the end of combat
    (the declare blockers and combat damage steps are skipped, CR 508.8)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    anyone = L.or_(*(L.and_(f.atkg[c], on_field(ctx, c)) for c in range(w.n)))
    return L.ite(anyone, w.step_index(BLOCKERS), w.step_index("end-of-combat"))


def enter(ctx: Ctx, step: int) -> None:
    """What happens as step ``step`` begins: in the combat damage step, combat damage is
    assigned, then dealt or put on the stack."""
    L, f, w = ctx.L, ctx.f, ctx.w
    if w.layout.has("declaring") and step in (w.step_index(ATTACKERS), w.step_index(BLOCKERS)):
        f.declaring = 1 if step == w.step_index(ATTACKERS) else 2
    if not w.layout.has("asg") or w.steps[step] not in (STEP, strike.FIRST):
        return
    for c in range(w.n):
        if not strike.deals_in(w.cards[c], w.steps[step]):
            f.asg[c] = 0  # 510.4: not in this combat damage step
            f.atgt[c] = -2
            continue
        attacks = L.and_(on_field(ctx, c), f.atkg[c])
        blocks = L.and_(on_field(ctx, c), f.blk[c] >= 0)
        f.asg[c] = L.ite(L.or_(attacks, blocks), f.atk[c], 0)
        # Whom it is assigned to (510.1): an unblocked attacker's the defending player (-1),
        # a blocked one's its first blocker still there (none, -2, when all are gone), a
        # blocker's the attacker it blocks.
        first: Term = -2
        for b in reversed(range(w.n)):
            if b != c:
                first = L.ite(L.and_(on_field(ctx, b), f.blk[b] == c), b, first)
        aimed = L.ite(f.blkd[c], first, -1)
        f.atgt[c] = L.ite(attacks, aimed, L.ite(blocks, f.blk[c], -2))
        # With two or more blockers still there, its controller divides its damage among
        # them (510.1c): a choice the state does not make, so the continuation is unknown.
        held = [L.and_(on_field(ctx, b), f.blk[b] == c) for b in range(w.n) if b != c]
        several = L.or_(*(L.and_(x, y) for x, y in itertools.combinations(held, 2)))
        ctx.exceed(Capacity.DIVIDED, L.and_(attacks, f.blkd[c], f.asg[c] > 0, several))
    if w.model.combat_damage == CombatDamage.DEALT:
        deal(ctx, True)
        sba.apply(ctx)
        return
    for ability in w.abilities:
        if ability.combat_damage:
            a = ability.index
            f.pend[a] = 1
            f.pseq[a] = f.seq
            f.plast[a] = f.seq
            f.pctrl[a] = turn_player(ctx)
            ctx.note("combat-on-stack")


def deal(ctx: Ctx, go: Term) -> None:
    """Deal the combat damage assigned (when ``go`` holds), all at once (510.2): to the
    creature it was assigned to if it is still on the battlefield; under the stack, even by
    a source that has left (its amount and recipient were fixed when it was assigned)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    defender = 1 - turn_player(ctx)
    to_player: Term = 0
    marked: list[Term] = [0] * w.n
    for c in range(w.n):
        if w.cards[c].type != "monster":
            continue
        to_player = L.ite(L.and_(go, f.atgt[c] == -1), f.asg[c], 0) + to_player
        for d in range(w.n):
            if d != c and w.cards[d].type == "monster":
                reaches = L.and_(go, f.atgt[c] == d, on_field(ctx, d))
                if not L.is_false(reaches):
                    marked[d] = L.ite(reaches, f.asg[c], 0) + marked[d]
    for c in range(w.n):
        if isinstance(marked[c], int) and marked[c] == 0:
            continue
        f.dmg[c] = ctx.add(f.dmg[c], marked[c], go)
    for p in (0, 1):
        hurt = L.and_(go, defender == p)
        f.lp[p] = L.ite(hurt, ctx.life_left(f.lp[p], to_player, hurt), f.lp[p])
    for c in range(w.n):
        f.asg[c] = L.ite(go, 0, f.asg[c])
        f.atgt[c] = L.ite(go, -2, f.atgt[c])
    ctx.event(go)
    if go is True and ctx.notes is not None:
        hit = [not (isinstance(m, int) and m == 0) for m in marked]
        ctx.note("combat-damage", [c for c in range(w.n) if hit[c]], str(to_player), defender)
