"""Magic's combat damage step (CR 510), for scenarios that start with attackers and
blockers declared (``attacking``, ``blocking``) and go on through the turn.

As the combat damage step begins each attacking or blocking creature on the battlefield
assigns combat damage equal to its power (510.1): an unblocked attacker to the defending
player, a blocked one to its blocker, a blocker to the attacker it blocks. A blocked
attacker stays blocked when its blocker leaves (509.1h) and then deals no damage.

- ``combat.damage: dealt`` (the current rules, 510.2): the damage is dealt at once, then the
  state-based actions, before any player receives priority.
- ``combat.damage: stack`` (the rules from Sixth Edition until Magic 2010): the damage is put
  on the stack as one object; players may respond, and when it resolves the damage assigned
  is dealt, by a creature that left the battlefield too.
"""

from __future__ import annotations

from verifier.core.logic import Term
from verifier.rules.context import Ctx, on_field, turn_player
from verifier.spec.scenario import Scenario

__all__ = ["STEP", "deal", "enter", "fields"]

STEP = "combat-damage"


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The fields combat needs: who attacks and blocks now, and the damage each assigned."""
    if scenario.model.combat_damage is None or not any(c.attacking for c in scenario.cards):
        return ()
    return ("atkg", "blk", "asg", "atk", "defense", "dmg")


def enter(ctx: Ctx, step: int) -> None:
    """What happens as step ``step`` begins: in the combat damage step, combat damage is
    assigned, then dealt or put on the stack."""
    L, f, w = ctx.L, ctx.f, ctx.w
    if not w.layout.has("asg") or STEP not in w.steps or step != w.step_index(STEP):
        return
    for c in range(w.n):
        fighting = L.and_(on_field(ctx, c), L.or_(f.atkg[c], f.blk[c] >= 0))
        f.asg[c] = L.ite(fighting, f.atk[c], 0)
    if w.model.combat_damage == "dealt":
        deal(ctx, True)
        from verifier.rules import sba

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
    """Deal the combat damage assigned (when ``go`` holds), all at once (510.2)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    defender = 1 - turn_player(ctx)
    to_player: Term = 0
    marked: list[Term] = [0] * w.n
    for a, card in enumerate(w.cards):
        if not card.attacking:
            continue
        blockers = [b for b, other in enumerate(w.cards) if other.blocking == a]
        if not blockers:
            to_player = L.ite(go, f.asg[a], 0) + to_player
            continue
        # The damage assigned goes to a creature still on the battlefield; under the stack
        # it is dealt even by a source that has left (its amount was fixed when assigned).
        b = blockers[0]
        marked[b] = L.ite(L.and_(go, on_field(ctx, b)), f.asg[a], 0) + marked[b]
        for b in blockers:
            back = L.and_(go, on_field(ctx, a))
            marked[a] = L.ite(back, f.asg[b], 0) + marked[a]
    for c in range(w.n):
        if isinstance(marked[c], int) and marked[c] == 0:
            continue
        f.dmg[c] = ctx.add(f.dmg[c], marked[c], go)
    for p in (0, 1):
        hurt = L.and_(go, defender == p)
        f.lp[p] = L.ite(hurt, ctx.life_left(f.lp[p], to_player, hurt), f.lp[p])
    for c in range(w.n):
        f.asg[c] = L.ite(go, 0, f.asg[c])
    ctx.event(go)
    if go is True and ctx.notes is not None:
        hit = [not (isinstance(m, int) and m == 0) for m in marked]
        ctx.note("combat-damage", [c for c in range(w.n) if hit[c]], str(to_player), defender)
