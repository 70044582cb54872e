"""Traces: a continuation as readable steps, obtained by replaying its actions concretely.

Both engines hand back a sequence of actions; replaying it through the one transition
function checks that it is legal and yields the narrative (the notes the effects leave).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Outcome, State
from verifier.effects.verb import Names, are, narrator
from verifier.errors import InternalError
from verifier.games import game
from verifier.rules.context import Note
from verifier.rules.costs import cost_kind
from verifier.spec.cards import HIDDEN, Ability
from verifier.spec.rulesystem import Cleanup, ClosesOn
from verifier.system import Action, ActionKind, IllegalTrace, System
from verifier.trace import turn

_OUTCOMES = {
    Outcome.RESOLVED: "resolved",
    Outcome.NO_EFFECT: "no-effect",
    Outcome.EFFECT_NEGATED: "effect-negated",
    Outcome.ACTIVATION_NEGATED: "activation-negated",
}
"""Each way a link resolves, by the name a game's wording gives it (``Wording.outcomes``)."""

_KEYS = {
    "speed": "fastest speed first",
    "turn-player-first": "the current player's first",
    "cast-order": "the one cast first",
}

__all__ = ["IllegalTrace", "TraceStep", "describe_action", "narrate", "paying", "replay"]


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step of a continuation, for people (``text``) and for programs (the rest)."""

    kind: str
    text: str
    player: str | None = None
    card: str | None = None
    link: int | None = None
    chain: int | None = None
    history: bool = False
    implied: bool = False
    outcome: str | None = None  # a resolution's: resolved, no-effect, effect-negated, ...

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        for key in ("player", "card", "link", "chain"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.history:
            out["history"] = True
        if self.implied:
            out["implied"] = True
        return out


def replay(
    system: System, start: State, actions: Sequence[Action]
) -> tuple[State, list[TraceStep]]:
    """Replay ``actions`` from ``start``; raise :class:`IllegalTrace` at an illegal one."""
    state = start
    steps: list[TraceStep] = []
    for action in actions:
        failed = system.illegal(state, action)
        if failed:
            raise IllegalTrace(f"{action} is not legal: {', '.join(failed)}")
        notes: list[Note] = []
        after = system.step(CONCRETE, state, action, notes)
        steps.extend(narrate(system, state, action, notes))
        state = after
    return state, steps


def narrate(
    system: System, before: State, action: Action, notes: Iterable[Note], **flags: bool
) -> list[TraceStep]:
    """The steps one action makes, from the notes its concrete application left."""
    w = system.world
    players = w.scenario.players
    names = [c.name for c in w.cards]
    chain = READ.cno(before)
    steps: list[TraceStep] = []

    def add(
        kind: str,
        text: str,
        player: int | None = None,
        card: int | None = None,
        link: int | None = None,
        outcome: str | None = None,
    ) -> None:
        steps.append(
            TraceStep(
                kind,
                text,
                None if player is None else players[player],
                None if card is None else names[card],
                link,
                chain,
                **flags,
                outcome=outcome,
            )
        )

    words = game(w.model.game).wording
    known = Names(names, players, words.terms)
    link_number = READ.clen(before) + 1
    noun = words.chain
    resolving: list[int] = []
    for note in notes:
        k = note.kind
        who = None if note.player is None else players[note.player]
        listed = ", ".join(names[c] for c in note.cards)
        if k == "activate":
            ability = w.abilities[action.ability]
            detail = ""
            detail += targeting(action, names, players)
            detail += paying(ability, action.tributes, names)
            verb = words.activate_card if ability.card_activation else words.activate_effect
            copy = w.cards[ability.card].copy_of >= 0
            if action.kind == ActionKind.TRIGGER and not copy:
                detail = f"{words.trigger_effect}{detail}"
            rank = note.value if note.value is not None else ability.speed
            at_once = rank is not None and (w.model.immediate or rank in w.model.instant)
            shown = words.shows_speed and rank is not None
            speed = f"speed {w.model.speeds[rank]}, " if shown and rank is not None else ""
            if at_once:
                where = f" ({speed}at once)"
            else:
                where = f" ({speed}{words.added.format(n=link_number)})"
            text = f"{who} {verb} {note.detail}{detail}{where}"
            if action.kind == ActionKind.TRIGGER and words.puts_triggers:
                text = f"{who} puts {note.detail}{detail} onto the {noun}"
            if copy:
                text = f"{who} puts {note.detail}{detail} onto the {noun} (a copy, not cast)"
            if ability.combat_damage:
                text = f"the combat damage goes on the {noun}"
            add(
                "activation",
                text,
                note.player,
                ability.card,
                None if at_once else link_number,
            )
        elif k == "pass":
            stacked = READ.clen(before) > 0
            if (
                action.kind == ActionKind.PASS
                and w.model.closes_on == ClosesOn.BOTH_PRESS_RESOLVE
                and stacked
            ):
                add("pass", f"{who} presses resolve", note.player)
            else:
                add("pass", f"{who} passes", note.player)
        elif k == "close":
            pressed = w.model.closes_on == ClosesOn.BOTH_PRESS_RESOLVE
            how = "both players pressed resolve" if pressed else "both players passed"
            add(
                "close",
                words.closes
                if words.closes
                else f"{how}: the {noun} closes and resolves backwards"
                if w.model.order == ("backwards",)
                else f"{how}: the {noun} resolves, "
                + ", then ".join(_KEYS.get(key, key) for key in w.model.order),
            )
        elif k == "timer":
            seconds = w.model.auto_resolve_seconds
            add("timer", f"{seconds} seconds pass without change: the {noun} resolves by itself")
        elif k == "resolve":
            card = note.cards[0]
            outcome = Outcome(int(note.detail))
            slot = system.selected_slot(before, action.ability)
            label = w.abilities[action.ability].label
            numbered = slot is not None and words.numbered
            link = words.link.format(n=slot + 1) if numbered and slot is not None else ""
            head = f"{link}: {label}" if link else label
            text = words.outcomes[_OUTCOMES[outcome]].format(head=head, label=label)
            if action.card >= 0 and outcome is Outcome.RESOLVED:
                text += f", choosing {w.cards[action.card].name}"
            resolving.append(card)
            at = None if slot is None else slot + 1
            add("resolution", text, note.player, card, at, _OUTCOMES[outcome])
        elif k in {"tribute", "discard", "banish", "send"}:
            if note.cards:
                done = {
                    "tribute": words.tributed,
                    "discard": "discarded",
                    "banish": "banished",
                    "send": "sent to the graveyard",
                }[k]
                add("effect", f"{listed} {are(note.cards)} {done}", card=note.cards[0])
        elif k == "discard-unlisted":
            add("effect", f"{who} discards a card from their hand", note.player)
        elif k in {"summoned", "summon"}:
            if not note.cards:
                continue
            text = (
                f"{listed} is summoned"
                if k == "summoned"
                else (
                    f"{who} {'summons' if note.detail == 'normal' else note.detail + ' summons'} "
                    f"{listed}; the Summon negation window opens"
                    if w.model.summon_negation
                    else f"{who} summons {listed}"
                )
            )
            add("summon", text, note.player, note.cards[0])
        elif k == "trigger":
            add("trigger", words.triggered.format(label=note.detail))
        elif k == "miss":
            add("trigger", f"{note.detail} misses the timing")
        elif k == "decline":
            add("trigger", f"{note.detail} is not activated (optional)", card=note.cards[0])
        elif k == "cleanup":
            if w.model.cleanup == Cleanup.ON_RESOLUTION:
                add("cleanup", f"the {noun} is empty")
            elif note.cards:
                add(
                    "cleanup",
                    f"the {noun} has resolved: {listed} "
                    f"{'goes' if len(note.cards) == 1 else 'go'} to the graveyard",
                )
            else:
                add("cleanup", f"the {noun} has resolved: no card goes to the graveyard")
        elif k == "to-graveyard":
            add("cleanup", f"{listed} goes to its owner's graveyard", card=note.cards[0])
        elif k == "enters":
            add("cleanup", f"{listed} {words.enters}", card=note.cards[0])
        elif k == "state-based":
            add("effect", f"state-based actions: {listed} {are(note.cards)} put into the graveyard")
        elif k == "token-ceases":
            text = f"state-based actions: {listed} ceases to exist (a token, CR 704.5d)"
            if len(note.cards) > 1:
                text = text.replace("ceases", "cease").replace("(a token", "(tokens")
            add("effect", text, card=note.cards[0])
        elif k == "combat-on-stack":
            add("effect", "combat damage is assigned")
        elif k == "priority":
            add("priority", f"{who} receives priority", note.player)
        elif k == "lost":
            said = words.decks_out if note.detail == "deck-out" else words.loses
            add("effect", said.format(who=who), note.player)
        elif k == "pay-lp":
            add("effect", f"{who} pays {note.detail} {known.term('Life Points')}", note.player)
        elif k == "pay-mana":
            add("effect", f"{who} pays {note.detail} from their mana pool", note.player)
        elif k == "attackers":
            text = (
                f"{who} declares attackers: {listed} (tapped; CR 508.1)"
                if note.cards
                else f"{who} declares no attackers (CR 508.8: no blockers, no combat damage)"
            )
            add("combat", text, note.player)
        elif k == "blockers":
            pairs = list(zip(note.cards[0::2], note.cards[1::2], strict=True))
            blocks = ", ".join(f"{known.cards[b]} blocks {known.cards[a]}" for b, a in pairs)
            text = f"{who} declares blockers: {blocks}" if pairs else f"{who} declares no blockers"
            add("combat", text + " (CR 509.1)", note.player)
        elif k == "land":
            text = (
                f"{who} plays {listed}: it is put onto the battlefield (a special action, "
                "which does not use the stack: CR 305.1, 116.2a)"
            )
            add("land", text, note.player, note.cards[0])
        elif k == "turn-face-up":
            text = (
                f"{who} turns {listed} face up (a special action, which does not use the "
                "stack: CR 702.37e, 116.2b)"
            )
            add("land", text, note.player, note.cards[0])
        elif k in turn.KINDS:
            for told_kind, text, told_player, told_card in turn.tell(note, names, players, words):
                add(told_kind, text, told_player, told_card)
        else:
            tell = narrator(k)
            if tell is None:
                raise InternalError(f"no narration for the note '{k}'")
            for told in tell(note, known):
                add(told.kind, told.text, told.player, told.card)
    return steps


def targeting(action: Action, names: list[str], players: Sequence[str] = ()) -> str:
    """ " targeting X" or " targeting X and Y" for an activation's targets (or nothing); a
    target past the cards is a player, by name ("targeting B", CR 115.1)."""
    if action.target < 0:
        return ""
    named = [*names, *players]
    text = f" targeting {named[action.target]}"
    if action.target2 >= 0:
        text += f" and {named[action.target2]}"
    return text


def paying(ability: Ability, chosen: tuple[int, ...], names: list[str]) -> str:
    """The words a history uses for the cards chosen to pay ``ability``'s costs: " tributing
    X", " discarding X" (" discarding a card": an unlisted card of the hand), " banishing X"."""
    costs = [cost for cost in ability.costs if cost.chooses]
    return "".join(
        f" {cost_kind(cost.kind).word} {'a card' if card == HIDDEN else names[card]}"
        for cost, card in zip(costs, chosen, strict=False)
    )


def describe_action(system: System, state: State, action: Action) -> str:
    """A short label for ``action`` taken in ``state`` (graph edges, diagnostics)."""
    w = system.world
    players = w.scenario.players
    names = [c.name for c in w.cards]
    if action.kind in {ActionKind.ACTIVATE, ActionKind.TRIGGER, ActionKind.DECLINE}:
        ability = w.abilities[action.ability]
        triggered = action.kind != ActionKind.ACTIVATE
        who = players[
            READ.pctrl(state)[ability.index] if triggered else READ.ctrl(state)[ability.card]
        ]
        wording = game(w.model.game).wording
        activates = wording.activate_card if ability.card_activation else wording.activate_effect
        verb = {"activate": activates, "trigger": "places", "decline": "declines"}[action.kind]
        text = f"{who} {verb} {ability.label}"
        text += targeting(action, names, players)
        return text + paying(ability, action.tributes, names)
    if action.kind == ActionKind.PASS:
        return f"{players[action.player]} passes"
    if action.kind == ActionKind.RESOLVE:
        label = w.abilities[action.ability].label
        coin = (
            ""
            if action.heads is None
            else (" (coins succeed)" if action.heads else " (coins fail)")
        )
        chose = ""
        if action.card >= 0:
            chose = f" choosing {names[action.card]}"
        return f"resolve {label}{coin}{chose}"
    if action.kind == ActionKind.SUMMON:
        verb = {"set": "Sets", "flip": "flip summons"}.get(action.how, "summons")
        return f"{players[action.player]} {verb} {names[action.card]}"
    if action.kind == ActionKind.ADVANCE:
        return f"the turn moves on to {w.steps[action.card]}"
    if action.kind == ActionKind.ATTACK:
        aim = "directly" if action.target < 0 else names[action.target]
        return f"{names[action.card]} attacks {aim}"
    if action.kind == ActionKind.POSITION:
        return f"{names[action.card]} changes position"
    if action.kind == ActionKind.LAND:
        return f"{players[action.player]} plays {names[action.card]}"
    if action.kind == ActionKind.UNMORPH:
        return f"{players[action.player]} turns {names[action.card]} face up"
    if action.kind == ActionKind.DECLARE:
        chosen = " and ".join(names[c] for c in action.tributes) or "nothing"
        return f"{players[action.player]} attacks with {chosen}"
    if action.kind == ActionKind.BLOCK:
        pairs = zip(action.tributes[0::2], action.tributes[1::2], strict=True)
        said = " and ".join(f"{names[a]} with {names[b]}" for b, a in pairs) or "nothing"
        return f"{players[action.player]} blocks {said}"
    return action.kind.value
