"""Battle: attack declarations, replays, the Damage Step and damage calculation.

Official rulebook and Konami's Damage Step rules:

- In the Battle Step the turn player declares an attack with a face-up Attack Position
  monster that has not attacked this turn, on a monster the opponent controls, or directly
  when the opponent controls none. "When an opponent's monster declares an attack" cards may
  answer it, on the one chain that answers the declaration.
- If the number of monsters the opponent controls changes after the declaration (or the
  target is gone), the attacking player chooses again: a new target, or no attack; either
  way the monster has declared its attack this turn (a replay). Choosing the target again is
  not an attack declaration.
- The Damage Step: its start; before damage calculation (a face-down attack target is flipped
  face-up; its Flip effect waits); damage calculation (ATK against ATK or DEF, battle damage
  to Life Points, monsters destroyed by battle are determined but stay on the field); after
  damage calculation (Flip effects of the monster the attack flipped activate); the end of the
  Damage Step (monsters destroyed by battle are sent to the graveyard, and "destroyed by
  battle" triggers activate). Then the Battle Step comes again.
- What may be activated in the Damage Step is limited (the rule system's ``battle`` lists).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from verifier.core.logic import Term
from verifier.core.state import Mode, Window, array, declare, scalar
from verifier.core.world import World
from verifier.rules import protocol, sba, triggers
from verifier.rules.conditions import ConditionKind, Loading
from verifier.rules.context import Check, Ctx, defense_position, matches, on_field, turn_player
from verifier.rules.moves import binding, move
from verifier.rules.timing import step_is
from verifier.spec.cards import Ability, Condition, Zone

__all__ = [
    "CONDITIONS",
    "after_battle_step",
    "attack",
    "attack_checks",
    "battling",
    "check_replay",
    "condition_met",
    "enter",
    "limit_checks",
    "may_activate_in",
    "on_pass",
]

declare(
    scalar("acount"),  # the opponent's monsters when the attack was declared
    scalar("replay", False),  # a replay: the attacker may attack again or not
    scalar("bflip", -1, "card"),  # the attacked monster the attack flipped face-up, or -1
    array("bdes", "card", False),  # record: destroyed by battle
    array("bdmg", "player"),  # record: battle damage the player took
)

BEFORE_CALCULATION = ("damage-start", "before-damage")
AFTER_CALCULATION = ("after-damage", "damage-end")


def _monsters(ctx: Ctx) -> list[int]:
    return [c for c in range(ctx.w.n) if ctx.w.cards[c].type == "monster"]


def _opponents_monsters(ctx: Ctx) -> Term:
    """How many monsters the turn player's opponent controls on the field."""
    L, f = ctx.L, ctx.f
    return L.count(
        [L.and_(on_field(ctx, c), f.ctrl[c] != turn_player(ctx)) for c in _monsters(ctx)]
    )


def battling(ctx: Ctx, card: int) -> Term:
    """Whether ``card`` is the attacker or the attack target of the attack under way."""
    f = ctx.f
    return ctx.L.and_(f.attacker >= 0, ctx.L.or_(f.attacker == card, f.atarget == card))


def _able(ctx: Ctx, card: int) -> Term:
    """A face-up Attack Position monster of the turn player on the field."""
    L, f = ctx.L, ctx.f
    return L.and_(
        on_field(ctx, card),
        f.up[card],
        f.ctrl[card] == turn_player(ctx),
        L.not_(defense_position(ctx, card)),
    )


# -- declaring an attack -----------------------------------------------------------------------


def attack_checks(ctx: Ctx, attacker: int, target: int) -> Iterator[Check]:
    """The rules for declaring an attack (``target`` -1: a direct attack)."""
    L, f = ctx.L, ctx.f
    yield Check("battle.battle-step", step_is(ctx, "battle-step"))
    yield Check(
        "battle.open-state",
        L.and_(
            f.mode == int(Mode.OPEN),
            # An open game state: nothing to answer, or a summon nobody has answered yet
            # (an attack declaration is the turn player's action there too).
            L.or_(
                f.window == int(Window.NONE),
                f.window == int(Window.SUMMON_RESPONSE),
                f.window == int(Window.EFFECT_SUMMON_RESPONSE),
                f.window == int(Window.EVENT_RESPONSE),
            ),
            f.clen == 0,
            f.right == turn_player(ctx),
            f.passes == 0,
        ),
    )
    yield Check("battle.one-attack", L.or_(f.attacker < 0, f.replay))
    again = L.and_(f.replay, f.attacker == attacker)
    yield Check("battle.attack-position", _able(ctx, attacker))
    yield Check("battle.once-per-turn", L.or_(L.not_(f.atkd[attacker]), again))
    if target < 0:
        yield Check("battle.direct-attack", _opponents_monsters(ctx) == 0)
    else:
        yield Check(
            "battle.attack-target",
            L.and_(on_field(ctx, target), f.ctrl[target] != turn_player(ctx)),
        )


def attack(ctx: Ctx, attacker: int, target: int) -> None:
    """Declare an attack (or, in a replay, choose the target again)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    again = L.and_(f.replay, f.attacker == attacker)
    ctx.event()
    ctx.note(
        "attack", [attacker] if target < 0 else [attacker, target], "", turn_player(ctx), again
    )
    f.atkd[attacker] = True
    f.fixed[attacker] = True
    f.attacker = attacker
    f.atarget = target
    f.acount = _opponents_monsters(ctx)
    f.replay = False
    # Choosing the target again in a replay is not an attack declaration: nothing may
    # answer it as one.
    f.window = L.ite(again, int(Window.NONE), int(Window.ATTACK))
    triggers.fire(ctx, "attack-declared", [c == attacker for c in range(w.n)], list(f.zone))
    waiting = triggers.collect(ctx, after_chain=False)
    f.mode = L.ite(waiting, int(Mode.TRIGGERS), int(Mode.OPEN))
    protocol.open_state(ctx, L.not_(waiting))


def check_replay(ctx: Ctx, when: Term) -> None:
    """After a chain in the Battle Step: a replay if the opponent's monsters changed in
    number, or the attack target is gone; an attacker that cannot attack any more ends
    its attack."""
    L, f, w = ctx.L, ctx.f, ctx.w
    if not w.model.battle or "battle-step" not in w.steps:
        return
    pending = L.and_(when, step_is(ctx, "battle-step"), f.attacker >= 0, L.not_(f.replay))
    if L.is_false(pending):
        return
    target_gone = L.and_(
        f.atarget >= 0,
        L.not_(
            L.or_(
                *(
                    L.and_(f.atarget == c, on_field(ctx, c), f.ctrl[c] != turn_player(ctx))
                    for c in _monsters(ctx)
                )
            )
        ),
    )
    changed = L.or_(_opponents_monsters(ctx) != f.acount, target_gone)
    still = L.or_(*(L.and_(f.attacker == c, _able(ctx, c)) for c in _monsters(ctx)))
    replay = L.and_(pending, still, changed) if w.model.replay else False
    stopped = L.and_(pending, L.not_(still))
    f.replay = L.or_(f.replay, replay)
    f.attacker = L.ite(stopped, -1, f.attacker)
    f.atarget = L.ite(L.or_(stopped, replay), -1, f.atarget)
    if replay is True:
        ctx.note("replay", [])


def on_pass(ctx: Ctx, player: int) -> None:
    """The turn player passes in a replay: the monster does not attack (it has still
    declared its attack this turn)."""
    L, f = ctx.L, ctx.f
    cancel = L.and_(player == turn_player(ctx), f.replay, f.mode == int(Mode.OPEN))
    f.attacker = L.ite(cancel, -1, f.attacker)
    f.replay = L.and_(f.replay, L.not_(cancel))


def after_battle_step(ctx: Ctx) -> Term:
    """The step after the Battle Step: the Damage Step when an attack is under way and its
    attacker can still attack; the Battle Step again when the attack ended; else the End
    Step."""
    L, f, w = ctx.L, ctx.f, ctx.w
    pending = L.and_(f.attacker >= 0, L.not_(f.replay))
    still = L.or_(*(L.and_(f.attacker == c, _able(ctx, c)) for c in _monsters(ctx)))
    return L.ite(
        L.and_(pending, still),
        w.step_index("damage-start"),
        L.ite(pending, w.step_index("battle-step"), w.step_index("end-step")),
    )


# -- the Damage Step ---------------------------------------------------------------------------


def enter(ctx: Ctx, dest: int) -> None:
    """What happens as step ``dest`` begins."""
    L, f, w = ctx.L, ctx.f, ctx.w
    name = w.steps[dest]
    if name == "battle-step":
        f.attacker = -1
        f.atarget = -1
        f.replay = False
        f.bflip = -1
    elif name == "before-damage":
        _flip_target(ctx)
    elif name == "after-damage":
        _damage_calculation(ctx)
        flipped = [L.and_(f.bflip == c, on_field(ctx, c)) for c in range(w.n)]
        triggers.fire(ctx, "flipped", flipped, list(f.zone))
    elif name == "damage-end":
        # Only the monsters this battle destroyed: one destroyed in an earlier battle and
        # back on the field since is a new card.
        doomed = [L.and_(f.bwait[c], on_field(ctx, c)) for c in range(w.n)]
        for c in range(w.n):
            f.bwait[c] = False
        if not all(L.is_false(d) for d in doomed):
            moved = move(
                ctx,
                doomed,
                Zone.GRAVEYARD,
                ("destroyed", "destroyed-by-battle"),
                destroyed=True,
            )
            binding(ctx, moved)
    elif name in {"end-step", "main2"}:
        f.attacker = -1
        f.atarget = -1
        f.replay = False


def _flip_target(ctx: Ctx) -> None:
    """Before damage calculation, a face-down attack target is flipped face-up."""
    L, f = ctx.L, ctx.f
    hit = [L.and_(f.atarget == c, on_field(ctx, c), L.not_(f.up[c])) for c in _monsters(ctx)]
    if all(L.is_false(h) for h in hit):
        return
    flips = L.or_(*hit)
    ctx.event(flips)
    for c, h in zip(_monsters(ctx), hit, strict=True):
        f.up[c] = L.or_(f.up[c], h)
        f.dpos[c] = L.or_(f.dpos[c], h)
        f.bflip = L.ite(h, c, f.bflip)
    if flips is True:
        ctx.note("battle-flip", [L.select(hit, _monsters(ctx), -1)])


def _damage_calculation(ctx: Ctx) -> None:
    """ATK against ATK or DEF: battle damage, and the monsters destroyed by battle (they
    stay on the field until the end of the Damage Step)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    mons = _monsters(ctx)
    attacker_here = [L.and_(f.attacker == c, _able(ctx, c)) for c in mons]
    target_here = [
        L.and_(f.atarget == c, on_field(ctx, c), f.ctrl[c] != turn_player(ctx), f.up[c])
        for c in mons
    ]
    fights = L.or_(*attacker_here)
    direct = L.and_(fights, f.atarget < 0)
    versus = L.and_(fights, L.or_(*target_here))
    atk = L.select(attacker_here, [f.atk[c] for c in mons], 0)
    t_atk = L.select(target_here, [f.atk[c] for c in mons], 0)
    t_def = L.select(target_here, [f.defense[c] for c in mons], 0)
    t_defends = L.select(target_here, [defense_position(ctx, c) for c in mons], False)
    other = 1 - turn_player(ctx)
    # Attack Position against Attack Position: the lower ATK is destroyed (both when equal,
    # unless both are 0), its controller takes the difference.
    in_attack = L.and_(versus, L.not_(t_defends))
    in_defense = L.and_(versus, t_defends)
    wins = L.and_(in_attack, atk > t_atk)
    loses = L.and_(in_attack, atk < t_atk)
    ties = L.and_(in_attack, atk == t_atk, atk > 0)
    pierces = L.and_(in_defense, atk > t_def)
    bounces = L.and_(in_defense, atk < t_def)
    to_opponent = L.ite(direct, atk, L.ite(wins, ctx.sub(atk, t_atk, wins), 0))
    to_turn = L.ite(
        loses, ctx.sub(t_atk, atk, loses), L.ite(bounces, ctx.sub(t_def, atk, bounces), 0)
    )
    for p in (0, 1):
        damage = L.ite(turn_player(ctx) == p, to_turn, to_opponent)
        hurt = damage > 0
        f.lp[p] = L.ite(hurt, ctx.life_left(f.lp[p], damage, hurt), f.lp[p])
        f.bdmg[p] = L.ite(hurt, ctx.add(f.bdmg[p], damage, hurt), f.bdmg[p])
    for c, a_here, t_here in zip(mons, attacker_here, target_here, strict=True):
        dies = L.or_(
            L.and_(a_here, L.or_(loses, ties)),
            L.and_(t_here, L.or_(wins, ties, pierces)),
        )
        f.bdes[c] = L.or_(f.bdes[c], dies)
        f.bwait[c] = L.or_(f.bwait[c], dies)
    ctx.event(fights)
    if fights is True:
        ctx.note("damage", [], "", other, to_opponent)
        ctx.note("damage", [], "", turn_player(ctx), to_turn)
        if versus is True:
            ctx.note("destroyed-by-battle", [f.bdes[c] if c in mons else False for c in range(w.n)])
    sba.apply(ctx, fights)  # a player brought to 0 Life Points loses (the step then ends it)


# -- what may be activated when ----------------------------------------------------------------


def condition_met(ctx: Ctx, condition: Condition, player: Term) -> Term:
    """The Battle Phase's activation conditions."""
    L, f, w = ctx.L, ctx.f, ctx.w
    flt = condition.filter
    assert flt is not None
    if not w.layout.has("attacker"):
        return False  # the continuation stays where it starts: no attack is ever under way

    def by(actor: Term) -> Term:
        if condition.by == "opponent":
            return actor != player
        if condition.by == "you":
            return actor == player
        return True

    if condition.kind == "attack-declared":
        return L.and_(
            f.window == int(Window.ATTACK),
            L.or_(
                *(
                    L.and_(f.attacker == c, matches(ctx, c, flt, player), by(f.ctrl[c]))
                    for c in _monsters(ctx)
                    if w.static_match(c, flt)
                )
            ),
        )
    timing = BEFORE_CALCULATION if condition.kind == "damage-step" else ("damage-calculation",)
    return L.and_(
        step_is(ctx, *timing),
        L.or_(
            *(
                L.and_(
                    battling(ctx, c), on_field(ctx, c), matches(ctx, c, flt, player), by(f.ctrl[c])
                )
                for c in _monsters(ctx)
                if w.static_match(c, flt)
            )
        ),
    )


def _allowed(w: World, ability: Ability, allowances: frozenset[str]) -> bool:
    """Whether ``ability`` is one of the kinds of activation ``allowances`` lets through."""
    top = len(w.model.speeds) - 1
    kinds = {
        "spell-speed-3": ability.speed == top and top >= 2,
        "changes-atk-def": ability.uses("change-atk") or ability.uses("change-def"),
        "negates-activation": any(
            e.verb == "negate" and e.obj == "activation" for e in ability.parts()
        ),
        "damage-step-timing": ability.condition is not None
        and ability.condition.kind == "damage-step",
        "damage-calculation-timing": ability.condition is not None
        and ability.condition.kind == "damage-calculation",
    }
    return any(kinds[a] for a in allowances)


def may_activate_in(world: World, ability: Ability, step: str) -> bool:
    """Whether the Damage Step's limits let ``ability`` be activated in ``step``."""
    model = world.model
    if not model.battle:
        return True
    for timing, allowances in (
        (BEFORE_CALCULATION, model.damage_step),
        (("damage-calculation",), model.damage_calculation),
        (AFTER_CALCULATION, model.after_damage_calculation),
    ):
        if step in timing:
            return _allowed(world, ability, allowances)
    return True


def limit_checks(ctx: Ctx, ability: Ability) -> Iterator[Check]:
    """The Damage Step's activation limits (activations; trigger effects are not limited)."""
    w, L = ctx.w, ctx.L
    if not w.model.battle or "damage-start" not in w.steps:
        return
    for rule, timing, allowances in (
        ("damage-step.before-calculation", BEFORE_CALCULATION, w.model.damage_step),
        ("damage-step.damage-calculation", ("damage-calculation",), w.model.damage_calculation),
        ("damage-step.after-calculation", AFTER_CALCULATION, w.model.after_damage_calculation),
    ):
        if not _allowed(w, ability, allowances):
            yield Check(rule, L.not_(step_is(ctx, *timing)))


def _load_condition(kind: str) -> Callable[[Any, Any, Loading], Condition]:
    def load(value: Any, spec: Any, loading: Loading) -> Condition:
        if not loading.model.battle:
            raise loading.fail(f"{loading.model.name} has no Battle Phase")
        return Condition(kind, frozenset({"monster"}), loading.cards(value), spec.by, spec.how)

    return load


def _met(ctx: Ctx, ability: Ability, condition: Condition, player: Term) -> Term:
    return condition_met(ctx, condition, player)


def _in(*steps: str) -> Callable[[str], bool]:
    return lambda step: step in steps


CONDITIONS = (
    ConditionKind(
        "attack-declared",
        ("filter", "monster"),
        "when a monster (the attacker) declares an attack",
        _load_condition("attack-declared"),
        _met,
        steps=_in("battle-step"),
        battle=True,
    ),
    ConditionKind(
        "damage-step",
        ("filter", "monster"),
        "during the Damage Step, before damage calculation, when a monster battles",
        _load_condition("damage-step"),
        _met,
        steps=_in(*BEFORE_CALCULATION),
        battle=True,
    ),
    ConditionKind(
        "damage-calculation",
        ("filter", "monster"),
        "during damage calculation, when a monster battles",
        _load_condition("damage-calculation"),
        _met,
        steps=_in("damage-calculation"),
        battle=True,
    ),
)
"""The Battle Phase's activation conditions."""
