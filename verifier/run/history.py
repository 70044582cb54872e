"""Replay a scenario's history through the transition relation, so that it must be legal."""

from __future__ import annotations

from dataclasses import dataclass, replace

from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Mode, State
from verifier.errors import ScenarioError
from verifier.rules import turn
from verifier.rules.context import Note
from verifier.rules.rulebook import describe
from verifier.spec.rulesystem import ClosesOn
from verifier.spec.scenario import TOP, Step
from verifier.system import Action, ActionKind, System
from verifier.trace.narrate import TraceStep, narrate, targeting

__all__ = ["Replayed", "replay_history"]


@dataclass(frozen=True, slots=True)
class Replayed:
    """The state after the history, the steps it took, and the actions (with implied passes)."""

    state: State
    steps: tuple[TraceStep, ...]
    actions: tuple[Action, ...]
    activations: int


def replay_history(system: System) -> Replayed:
    """Apply every history step; passes the history leaves out are implied when needed."""
    state = system.initial()
    steps: list[TraceStep] = []
    actions: list[Action] = []
    for written in system.scenario.history:
        step = _mode_chosen(system, state, written)
        if step.verb == "resolve":
            taken = len(actions)
            state = _resolve_chain(system, state, step, steps, actions)
            if step.card is not None and not any(
                a.kind == ActionKind.RESOLVE and a.card == step.card for a in actions[taken:]
            ):
                name = system.world.cards[step.card].name
                raise ScenarioError(
                    f"'{step.text}': no effect chose {name} as it resolved", step.span
                )
            continue
        if step.verb == "advance":
            state = _move_to(system, state, step, steps, actions)
            continue
        action = _action(system, state, step)
        plan = _plan(system, state, action)
        if plan is None:
            raise _illegal(system, state, step, action)
        for implied in plan[:-1]:
            state = _apply(system, state, implied, steps, actions, implied=True)
        state = _apply(system, state, plan[-1], steps, actions, implied=False)
    return Replayed(state, tuple(steps), tuple(actions), READ.an(state))


def _resolve_chain(
    system: System, state: State, step: Step, steps: list[TraceStep], actions: list[Action]
) -> State:
    """'the chain resolves': close it, resolve it, and reopen the game state after it.
    'Chain Link N resolves': close it and resolve it until link N has resolved.

    Every step must be forced; a coin toss is settled by the step's "(coins succeed)".
    """
    if READ.mode(state) == Mode.OPEN and READ.clen(state) == 0:
        raise ScenarioError(f"'{step.text}': there is no chain to resolve", step.span)
    if step.link == TOP:
        state = _place_forced(system, state, steps, actions)
        if READ.clen(state) == 0:
            raise ScenarioError(f"'{step.text}': there is no chain to resolve", step.span)
        step = replace(step, link=READ.clen(state))
    if step.link is not None:
        links = READ.clen(state)
        if step.link > links:
            raise ScenarioError(
                f"'{step.text}': the chain has {links} link(s), no Chain Link {step.link}",
                step.span,
            )
        if system.layout.frame(state).ldone[step.link - 1]:
            raise ScenarioError(f"'{step.text}': that link has resolved already", step.span)
    for count in range(10_000):
        if READ.mode(state) == Mode.DONE:
            return _apply(system, state, Action(ActionKind.REOPEN), steps, actions, implied=True)
        if count and READ.mode(state) == Mode.OPEN and READ.clen(state) == 0:
            return state  # a scenario that goes through its turn: the game state is open
        choices = [
            a
            for a in system.actions
            if a.kind != ActionKind.ACTIVATE
            and system.enabled(state, a)
            and (a.heads is None or step.how == "" or a.heads == (step.how == "heads"))
            and (a.kind != ActionKind.RESOLVE or a.card < 0 or step.card in (None, a.card))
        ]
        if READ.mode(state) in (Mode.OPEN, Mode.BUILD):
            choices = [a for a in choices if a.kind == ActionKind.PASS]
        if len(choices) != 1:
            what = _not_one(system, state, step, choices)
            raise ScenarioError(f"'{step.text}': {what}", step.span)
        chosen = choices[0]
        last = step.link is not None and chosen.kind == ActionKind.RESOLVE
        last = last and system.selected_slot(state, chosen.ability) == (step.link or 0) - 1
        state = _apply(system, state, chosen, steps, actions, implied=not last)
        if last:
            return state  # the history stops with that link resolved
    raise ScenarioError(f"'{step.text}': the chain does not finish", step.span)


def _place_forced(
    system: System, state: State, steps: list[TraceStep], actions: list[Action]
) -> State:
    """Put the waiting triggers that go on the chain without a choice there: the top object
    is the one on top when a player would next receive priority (CR 117.5, 603.3)."""
    while True:
        moves = [
            a for a in system.actions if a.kind != ActionKind.ACTIVATE and system.enabled(state, a)
        ]
        if len(moves) != 1 or moves[0].kind != ActionKind.TRIGGER:
            return state
        state = _apply(system, state, moves[0], steps, actions, implied=True)


def _not_one(system: System, state: State, step: Step, choices: list[Action]) -> str:
    """Why a resolution step of a history does not say one next action."""
    if any(a.heads is not None for a in choices):
        return "a coin toss decides; write 'the chain resolves (coins succeed)' or '(coins fail)'"
    chooses = [a for a in choices if a.kind == ActionKind.RESOLVE and a.card >= 0]
    if chooses:
        cards = ", ".join(system.world.cards[a.card].name for a in chooses)
        return (
            "its effect chooses a card as it resolves; write 'the chain resolves (choosing "
            f"CARD)', one of: {cards}"
        )
    if step.card is not None and not choices:
        could = (a for a in system.actions if a.kind == ActionKind.RESOLVE and a.card >= 0)
        if any(system.enabled(state, a) for a in could):
            name = system.world.cards[step.card].name
            return f"{name} cannot be chosen: it does not fit the effect as it resolves"
    placed = [a for a in choices if a.kind == ActionKind.TRIGGER]
    if placed and len(placed) == len(choices):
        # Waiting triggers, or copies of a spell, that go on the chain in an order of their
        # controller's choosing: the history says which goes first.
        w = system.world
        names = [card.name for card in w.cards]
        players = system.scenario.players
        pctrl = READ.pctrl(state)
        said = [
            f"'{players[pctrl[a.ability]]} activates {w.abilities[a.ability].label}"
            f"{targeting(a, names, players)}'"
            for a in placed
        ]
        return (
            "it comes to a choice of what goes on the chain first, which the history makes "
            "as a step of its own (after 'the top object resolves' where the choice comes as "
            f"a link resolves): one of {', '.join(said)}"
        )
    if choices:
        return "the history must say each choice (which trigger goes first, ...)"
    return "there is no chain to resolve"


def _move_to(
    system: System, state: State, step: Step, steps: list[TraceStep], actions: list[Action]
) -> State:
    """'the turn moves to STEP': both players pass, step after step, until it begins."""
    w = system.world
    if not w.progresses:
        raise ScenarioError(
            f"'{step.text}': the scenario stays where it starts; say how far its turn goes "
            "with 'until:'",
            step.span,
        )
    if step.how not in w.steps:
        raise ScenarioError(
            f"'{step.text}': unknown step '{step.how}' (steps: {', '.join(w.steps)})", step.span
        )
    dest = w.step_index(step.how)
    for _ in range(200):
        mode = READ.mode(state)
        if mode == Mode.OPEN and system.layout.frame(state).step == dest and READ.clen(state) == 0:
            return state
        if mode == Mode.ADVANCE:
            moves = [
                a
                for a in system.actions
                if a.kind == ActionKind.ADVANCE and system.enabled(state, a)
            ]
            # The step itself if the turn may move straight to it, else the usual next one.
            chosen = next((a for a in moves if a.card == dest), None) or min(
                moves, key=lambda a: a.card
            )
            state = _apply(system, state, chosen, steps, actions, implied=True)
            if dest in turn.through(w, chosen.card, system.quiet):
                return state  # it began (a step nobody can act in is gone through at once)
            continue
        passing = [
            a for a in system.actions if a.kind == ActionKind.PASS and system.enabled(state, a)
        ]
        if mode not in (Mode.OPEN,) or len(passing) != 1:
            raise ScenarioError(
                f"'{step.text}': the turn cannot move on now (a chain or a trigger is waiting)",
                step.span,
            )
        state = _apply(system, state, passing[0], steps, actions, implied=True)
        if READ.mode(state) == Mode.DONE:
            break
    raise ScenarioError(
        f"'{step.text}': the turn does not reach {step.how} (past the scenario's 'until', or "
        "already gone by)",
        step.span,
    )


def _mode_chosen(system: System, state: State, step: Step) -> Step:
    """A step that activates a card with modes without naming one: the mode that can be
    activated there (the first, to say why none can); two that can is an error."""
    if not step.modes:
        return step
    legal = []
    for mode in step.modes:
        try:
            action = _action(system, state, replace(step, ability=mode, modes=()))
        except ScenarioError:
            continue  # this mode does not fit the step (a target it does not take)
        if _plan(system, state, action) is not None:
            legal.append(mode)
    if len(legal) > 1:
        labels = ", ".join(system.world.abilities[m].label for m in legal)
        raise ScenarioError(
            f"history step '{step.text}': which mode? more than one can be activated here; "
            f"write it with 'choosing MODE' (one of: {labels})",
            step.span,
        )
    return replace(step, ability=legal[0] if legal else step.modes[0], modes=())


def _action(system: System, state: State, step: Step) -> Action:
    if step.verb == "pass":
        assert step.player is not None
        return Action(ActionKind.PASS, player=step.player)
    if step.verb == "press":
        if system.world.model.closes_on != ClosesOn.BOTH_PRESS_RESOLVE:
            raise ScenarioError(
                f"{system.world.model.name} has no resolve button; write 'A passes'", step.span
            )
        assert step.player is not None
        return Action(ActionKind.PASS, player=step.player)
    if step.verb == "timer":
        return Action(ActionKind.TIMER)
    if step.verb == "attack":
        assert step.card is not None
        if not system.world.progresses:
            raise ScenarioError(
                f"'{step.text}': attacks are declared in a turn that goes on; say how far it "
                "goes with 'until:'",
                step.span,
            )
        target = -1 if step.target is None else step.target
        return Action(ActionKind.ATTACK, card=step.card, target=target)
    if step.verb == "summon":
        assert step.card is not None and step.player is not None
        return Action(
            ActionKind.SUMMON,
            card=step.card,
            player=step.player,
            how=step.how,
            tributes=step.tributes,
        )
    if step.verb == "land":
        assert step.card is not None and step.player is not None
        return Action(ActionKind.LAND, card=step.card, player=step.player)
    if step.verb == "unmorph":
        assert step.card is not None and step.player is not None
        return _paid(system, state, Action(ActionKind.UNMORPH, card=step.card, player=step.player))
    if step.verb in ("declare", "block"):
        assert step.player is not None
        return Action(ActionKind(step.verb), tributes=step.tributes, player=step.player)
    assert step.ability is not None and step.player is not None
    ability = system.world.abilities[step.ability]
    # A waiting trigger is activated by whoever controlled its card when it triggered.
    waiting = ability.trigger is not None and READ.pend(state)[ability.index] > 0
    owner = READ.pctrl(state)[ability.index] if waiting else READ.ctrl(state)[ability.card]
    if owner != step.player:
        players = system.scenario.players
        raise ScenarioError(
            f"history step '{step.text}' is not legal: {players[owner]} controls "
            f"{system.world.cards[ability.card].name}, not {players[step.player]}",
            step.span,
        )
    if step.target is not None and ability.target is None:
        raise ScenarioError(
            f"history step '{step.text}' names a target, but "
            f"{system.world.cards[ability.card].name}'s effect does not target",
            step.span,
        )
    if step.verb == "decline":
        return Action(ActionKind.DECLINE, step.ability)
    name = system.world.cards[ability.card].name
    n = system.world.n
    for index, chosen_target in enumerate((step.target, step.target2)):
        aim = ability.filter_of(second=index == 1)
        if chosen_target is not None and chosen_target >= n and aim is not None:
            who = system.scenario.players[chosen_target - n]
            if aim.players is None:
                raise ScenarioError(
                    f"history step '{step.text}' targets the player {who}, but {name} "
                    "targets a card, not a player",
                    step.span,
                )
        wants_player = aim is not None and not aim.cards
        if chosen_target is not None and chosen_target < n and wants_player:
            card = system.world.cards[chosen_target].name
            raise ScenarioError(
                f"history step '{step.text}' targets the card {card}, but {name} targets a player",
                step.span,
            )
    named = 1 if step.target2 is None else 2
    if step.target is not None and named != ability.targets:
        raise ScenarioError(
            f"history step '{step.text}' names {named} target{'s' * (named > 1)}, but "
            f"{name} targets {ability.targets}",
            step.span,
        )
    kind = ActionKind.TRIGGER if ability.trigger is not None else ActionKind.ACTIVATE
    chosen = [c for c in (step.target, step.target2) if c is not None] or [-1]
    if ability.target2 is None:  # one filter for both: a choice of two is a set
        chosen.sort()
    second = chosen[1] if len(chosen) > 1 else -1
    action = Action(kind, step.ability, chosen[0], step.tributes, target2=second)
    return _paid(system, state, action)


def _paid(system: System, state: State, action: Action) -> Action:
    """``action`` with a way to pay the generic part of its mana cost that the pool allows
    now (the first, in the order of the types of mana; a history does not say which mana
    pays it), or with the first way when none does (its legality check then says why)."""
    ways = [a for a in system.actions if replace(a, mana=()) == action]
    for way in ways:
        if "cost.mana" not in system.illegal(state, way):
            return way
    return ways[0] if ways else action


def _plan(system: System, state: State, action: Action) -> list[Action] | None:
    """The action, after the fewest forced steps that make it legal: passes by whoever holds
    the right, the turn moving on to its next step once both players passed, and what then
    happens without a choice (combat damage put onto the stack, a waiting trigger put on the
    chain)."""
    plan: list[Action] = []
    current = state
    # Two steps of passes and moving on (main phase, beginning of combat, then the
    # declaration of attackers) take six; a few more leave room for a quiet step between.
    for _ in range(12):
        if system.enabled(current, action):
            return [*plan, action]
        forced = _forced(system, current)
        if forced is None:
            return None
        if action.kind == ActionKind.PASS and forced.kind != ActionKind.TRIGGER:
            # Only a waiting trigger put on the chain without a choice comes before a pass
            # (CR 117.5: before the player receives priority); another pass never does.
            return None
        plan.append(forced)
        current = system.step(CONCRETE, current, forced)
    return None


def _forced(system: System, state: State) -> Action | None:
    """The one step a history leaves out here, if there is one: the only pass, the turn
    moving on to the next step, or the only thing that can happen (no player's choice)."""
    enabled = [a for a in system.actions if system.enabled(state, a)]
    if READ.mode(state) == Mode.ADVANCE:
        moves = [a for a in enabled if a.kind == ActionKind.ADVANCE]
        return min(moves, key=lambda a: a.card) if moves else None
    passing = [a for a in enabled if a.kind == ActionKind.PASS]
    if len(passing) == 1:
        return passing[0]
    if len(enabled) == 1 and enabled[0].kind not in (
        ActionKind.ACTIVATE,
        ActionKind.DECLINE,
        ActionKind.PASS,
    ):
        return enabled[0]
    return None


def _apply(
    system: System,
    state: State,
    action: Action,
    steps: list[TraceStep],
    actions: list[Action],
    implied: bool,
) -> State:
    notes: list[Note] = []
    after = system.step(CONCRETE, state, action, notes)
    steps.extend(narrate(system, state, action, notes, history=True, implied=implied))
    actions.append(action)
    return after


def _illegal(system: System, state: State, step: Step, action: Action) -> ScenarioError:
    failed = [c.rule for c in system.checks(CONCRETE, state, action) if not c.ok]
    if len(failed) > 1 and "chain.right-to-respond" in failed:
        # The passes the history leaves out are implied; the other rules are the real reason.
        failed.remove("chain.right-to-respond")
    untargeted = (
        action.kind in {ActionKind.ACTIVATE, ActionKind.TRIGGER}
        and action.target < 0
        and system.world.abilities[action.ability].target is not None
    )
    if untargeted and failed == ["target.valid"]:
        return ScenarioError(
            f"history step '{step.text}' needs a target: write '... targeting CARD'", step.span
        )
    if untargeted and len(failed) > 1:
        failed.remove("target.valid")
    game = system.world.model.game
    reason = "; ".join(f"{describe(r, game)} ({r})" for r in failed) or "not legal here"
    return ScenarioError(f"history step '{step.text}' is not legal: {reason}", step.span)
