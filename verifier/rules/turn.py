"""The turn as states: its steps one after another, and the moves of a Main Phase.

Official rulebook: a turn is the Draw, Standby, Main 1, Battle, Main 2 and End Phases; the
Battle Phase has a Start Step, a Battle Step, a Damage Step and an End Step. The turn player
moves on when the chain is empty and both players have passed in a row; each step and phase
opens its own game state, in which the turn player may act first. In a Main Phase the turn
player may Normal Summon or Set a monster once per turn, Flip Summon a monster Set in an
earlier turn, and change the battle position of a monster once per turn (not one summoned,
or that attacked, this turn). Magic's active player plays a land once a turn in a main phase
(a special action, CR 305), and each player's mana pool empties as a step ends (500.4).

A scenario goes through its turn only when it says how far (``until``); otherwise its
continuations end with its chains and the chains they cause, where it starts.
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Mode, Window
from verifier.core.world import World
from verifier.games import game
from verifier.rules import (
    battle,
    colors,
    combat,
    mana,
    morph,
    protocol,
    sba,
    storm,
    strike,
    triggers,
)
from verifier.rules.conditions import DURING, condition_kind
from verifier.rules.context import Check, Ctx, on_field, reset_turn, turn_player
from verifier.rules.moves import tribute
from verifier.rules.timing import (
    main_phase,
    main_phase_checks,
    open_for_turn_player,
    turns_of,
)
from verifier.spec.cards import Ability, Zone
from verifier.spec.rulesystem import Respond
from verifier.spec.scenario import Scenario

__all__ = [
    "FIELDS",
    "advance",
    "advance_checks",
    "change_position",
    "fields",
    "land_checks",
    "play_land",
    "position_checks",
    "quiet_steps",
    "set_monster",
    "through",
]

FIELDS = ("step", "nsum", "dpos", "fixed", "atkd", "attacker", "atarget", "acount", "replay")
BATTLE_FIELDS = ("bflip", "bdes", "bwait", "bdmg", "atk", "defense")


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The optional state fields a scenario's turn needs: all of them when it goes through
    its turn. A scenario that stays where it starts changes no battle position (a monster
    face-down is in Defense Position, one summoned in Attack Position): it needs a field
    for them only when one of its monsters starts face-up in Defense Position."""
    if scenario.until is not None:
        turns = ("tp", "tno") if turns_of(scenario) > 1 else ()
        return FIELDS + turns + (BATTLE_FIELDS if scenario.model.battle else ())
    positions = any(c.defense_position and c.face_up for c in scenario.cards)
    return ("dpos",) if positions else ()


# -- moving on ---------------------------------------------------------------------------------


def _next(ctx: Ctx) -> Term:
    """The step that follows the current one (the Battle Step's depends on the attack)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    nxt: Term = f.step
    for i, name in enumerate(w.steps):
        if name == "battle-step":
            follows = battle.after_battle_step(ctx)
        elif name == combat.ATTACKERS and w.layout.has("declaring"):
            follows = combat.after_attackers(ctx)
        elif name == combat.BLOCKERS and strike.FIRST in w.steps:
            follows = strike.after_blockers(ctx)
        elif i + 1 < len(w.steps):
            follows = _linear_next(w.steps, i)
        elif turns_of(w.scenario) > 1:
            follows = 0  # the End Phase is over: the next turn begins
        else:
            continue
        nxt = L.ite(f.step == i, follows, nxt)
    return nxt


def _linear_next(steps: tuple[str, ...], index: int) -> int:
    """The step after a step whose successor never depends on the game (not the Battle
    Step's)."""
    if steps[index] == "damage-end":
        return steps.index("battle-step")
    return strike.linear_next(steps, index)


ENTRY_EVENTS = {
    "after-damage": frozenset({"flipped"}),
    "damage-end": frozenset(
        {"destroyed", "destroyed-by-battle", "sent-to-graveyard", "leaves-field"}
    ),
}
"""The trigger events that happen as a step begins."""


def quiet_steps(world: World) -> frozenset[int]:
    """The steps in which no player can do anything but pass, whatever the state: not a
    Main Phase nor the Battle Step (the turn player's moves), no trigger of the scenario
    watches what happens as the step begins, and no card's activation could be legal
    there (Spell Speed 1 only in a Main Phase, the Damage Step's limits, conditions that
    name another timing). A card that answers an activation, or a summon, is taken to be
    activatable anywhere."""

    model = world.model
    mains = set(model.main_phases)
    quiet: set[int] = set()
    watched: set[str] = set()
    for ability in world.abilities:
        if ability.trigger is not None:
            watched |= ability.trigger.events
    for index, (name, phase) in enumerate(zip(world.steps, world.phases, strict=True)):
        if phase in mains or name in ("battle-step", "end"):
            continue
        if name in (combat.STEP, strike.FIRST) and model.combat_damage is not None:
            continue  # combat damage is dealt, or put on the stack, as it begins
        if name == combat.BLOCKERS and strike.has_strikers(world):
            continue  # the next step depends on the creatures in combat (CR 510.4)
        if name in (combat.ATTACKERS, combat.BLOCKERS) and world.layout.has("declaring"):
            continue  # attackers and blockers are declared as it begins
        if name == "after-damage" and "zero-life" in model.state_based:
            continue  # battle damage is dealt as it begins: the Duel may end there
        if any(a.trigger is not None and a.trigger.step == name for a in world.abilities):
            continue  # an "at the beginning of" trigger watches it
        if watched & ENTRY_EVENTS.get(name, frozenset()):
            continue
        if index in world.silent or not any(
            _could_activate(world, a, name) for a in world.abilities
        ):
            quiet.add(index)
    return frozenset(quiet)


def _could_activate(world: World, ability: Ability, step: str) -> bool:
    model = world.model
    kind = model.kinds[world.cards[ability.card].kind if ability.card_activation else ability.kind]
    if kind.trigger:
        return False
    slow = (
        ability.speed is not None
        and model.min_response is not None
        and model.respond != Respond.ANY
        and ability.speed < model.min_response
    )
    if slow:
        return False  # Spell Speed 1: only in a Main Phase
    if not battle.may_activate_in(world, ability, step):
        return False
    condition = ability.condition
    if condition is None or condition.kind == DURING:
        return True
    return condition_kind(condition.kind).steps(step)


def _next_turn(ctx: Ctx) -> None:
    """The End Phase is over: the other player's turn begins. What lasts "this turn" ends
    (ATK and DEF changes, once-per-turn counts, the Normal Summon, positions and attacks);
    cards Set in an earlier turn may now be activated; the new turn player draws a card in
    the Draw Phase."""
    L, f, w = ctx.L, ctx.f, ctx.w
    f.tp = 1 - f.tp
    f.tno = ctx.add(f.tno, 1)
    reset_turn(ctx)
    storm.new_turn(ctx)
    for a in range(len(w.abilities)):
        f.uses[a] = 0
    untaps = game(w.model.game).untaps and w.layout.has("dizzy")
    for c, card in enumerate(w.cards):
        if untaps:  # CR 502.3: the active player's permanents untap
            mine = L.and_(on_field(ctx, c), f.ctrl[c] == f.tp)
            f.dizzy[c] = L.and_(f.dizzy[c], L.not_(mine))
        if w.layout.has("colors"):  # colour changes "until end of turn" end (CR 514.2)
            f.colors[c] = colors.base(ctx, c)
        if w.layout.has("atk"):
            f.atk[c] = L.ite(on_field(ctx, c), morph.base_stat(ctx, c, card.atk), f.atk[c])
        if w.layout.has("defense"):
            base = morph.base_stat(ctx, c, card.defense)
            f.defense[c] = L.ite(on_field(ctx, c), base, f.defense[c])
    for p in (0, 1):
        draws = f.tp == p
        f.drawn[p] = L.ite(draws, ctx.add(f.drawn[p], 1, draws), f.drawn[p])
    ctx.note("turn", (), "", f.tp)


def through(world: World, dest: int, quiet: frozenset[int]) -> list[int]:
    """The steps the turn goes through when it moves on to ``dest``: ``dest``, and after a
    quiet one the steps that follow, up to the first that is not quiet (or the last step
    of the scenario)."""
    steps = [dest]
    while steps[-1] in quiet and steps[-1] != world.until:
        steps.append(_linear_next(world.steps, steps[-1]))
    return steps


def advance_checks(ctx: Ctx, dest: int) -> Iterator[Check]:
    """Where the turn may move on to: the next step; from Main Phase 1, also the End Phase
    (the turn player need not enter the Battle Phase)."""
    L, f, w = ctx.L, ctx.f, ctx.w
    yield Check("turn.moving-on", f.mode == int(Mode.ADVANCE))
    allowed: Term = dest == _next(ctx)
    if "main1" in w.steps and "end" in w.steps and dest == w.step_index("end"):
        allowed = L.or_(allowed, f.step == w.step_index("main1"))
    yield Check("turn.next-step", allowed)


def advance(ctx: Ctx, dest: int, quiet: frozenset[int] = frozenset()) -> None:
    """The turn moves on to step ``dest``: what happens as it begins, then its game state.

    A step in ``quiet`` is one in which nothing can be activated, no move made and no
    trigger triggered (see :func:`quiet_steps`): both players can only pass, so the turn
    moves on through it at once (the same continuations, fewer actions).
    """
    L, f, w = ctx.L, ctx.f, ctx.w
    assert w.until is not None
    if dest > w.until:
        # The turn goes past the scenario's last step without ending it (Main Phase 1 to
        # the End Phase with no Battle Phase; no Damage Step): the continuation ends where
        # it was. (Over several turns the last step is the End Phase: nothing is past it.)
        ctx.note("step", (), w.steps[dest])
        f.mode = int(Mode.DONE)
        return
    if dest == 0 and turns_of(w.scenario) > 1:
        _next_turn(ctx)
    for step in through(w, dest, quiet):
        mana.pool_empties(ctx)  # CR 500.4: mana empties from each pool as a step ends
        for a in w.watchers:
            # A card waiting for an event ("when a monster is destroyed") may answer it only
            # in the step where it happened: once the turn moves on, its timing is gone.
            f.plast[a] = 0
        ctx.note("step", (), w.steps[step])
        f.step = step
        f.window = int(Window.NONE)
        if "battle-step" in w.steps:
            battle.enter(ctx, step)
        combat.enter(ctx, step)
        triggers.fire_step(ctx, w.steps[step])
    over = sba.lost(ctx)
    waiting = triggers.collect(ctx, after_chain=False, when=L.not_(over))
    f.mode = L.ite(over, int(Mode.DONE), L.ite(waiting, int(Mode.TRIGGERS), int(Mode.OPEN)))
    protocol.open_state(ctx, L.not_(over))


# -- the moves of a Main Phase -----------------------------------------------------------------


def set_monster(ctx: Ctx, card: int, tributes: tuple[int, ...]) -> None:
    """Set a monster from the hand: face-down Defense Position. A Set is not a Summon."""
    f, w = ctx.f, ctx.w
    ctx.note("set", [card], "", turn_player(ctx))
    tribute(ctx, tributes)
    ctx.event()
    f.zone[card] = int(Zone.FIELD)
    f.up[card] = False
    f.ctrl[card] = turn_player(ctx)
    # Face-down, it is in Defense Position whether or not the state records positions;
    # once per turn and the fixed position only count in a scenario that goes through its
    # turn (the state has those fields only then).
    if w.layout.has("dpos"):
        f.dpos[card] = True
    if w.layout.has("nsum"):
        f.fixed[card] = True
        f.nsum = f.nsum + 1


def position_checks(ctx: Ctx, card: int) -> Iterator[Check]:
    """Changing a face-up monster's battle position: once per turn, not the turn it was
    summoned, nor after it attacked."""
    L, f, w = ctx.L, ctx.f, ctx.w
    yield from main_phase_checks(ctx, normal=False)
    yield Check("position.monster", w.cards[card].type == "monster")
    yield Check(
        "position.face-up",
        L.and_(on_field(ctx, card), f.up[card], f.ctrl[card] == turn_player(ctx)),
    )
    yield Check("position.once-per-turn", L.and_(L.not_(f.fixed[card]), L.not_(f.atkd[card])))


def change_position(ctx: Ctx, card: int) -> None:
    f = ctx.f
    ctx.event()
    f.dpos[card] = ctx.L.not_(f.dpos[card])
    f.fixed[card] = True
    ctx.note("position", [card], "", turn_player(ctx), f.dpos[card])


def land_checks(ctx: Ctx, card: int, player: int) -> Iterator[Check]:
    """Whether ``player`` may play the land ``card`` now: a special action (Magic, CR 116.2a)
    of their own main phase, with an empty stack, while they have priority (305.1); once a
    turn (305.2). It does not use the stack, so nothing can respond to it."""
    L, f = ctx.L, ctx.f
    yield Check("card.location", L.and_(f.zone[card] == int(Zone.HAND), f.ctrl[card] == player))
    mine = player == turn_player(ctx)
    yield Check("land.timing", L.and_(mine, main_phase(ctx), open_for_turn_player(ctx)))
    if ctx.w.layout.has("lands"):
        yield Check("land.one-per-turn", f.lands == 0)


def play_land(ctx: Ctx, card: int, player: int) -> None:
    """Put the land onto the battlefield; its player receives priority again (CR 116.3c)."""
    f = ctx.f
    ctx.note("land", [card], "", player)
    ctx.event()
    f.zone[card] = int(Zone.FIELD)
    f.up[card] = True
    if ctx.w.layout.has("lands"):
        f.lands = f.lands + 1
