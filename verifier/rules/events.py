"""Event conditions: a card activated "when" something happened to a card (destroyed, sent
to the graveyard, banished, targeted, ...), and the chain an activation begins.

Such a condition, like a "When ... you can" trigger effect, looks at the last thing to have
happened: the card may be activated right after the event, as Chain Link 1 of the next
chain or as a link of the chain that begins right after it (after the trigger effects the
event caused, or answering the cost or the activation that caused it), and never once
something else has happened (Konami, "Missing the Timing"; the Official Rulebook's "When"
conditions). The events are told to the watching abilities where trigger effects hear them
(:func:`verifier.rules.triggers.fire`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from verifier.core.logic import Term
from verifier.core.state import Mode, Window, declare, scalar
from verifier.rules.conditions import ConditionKind, Loading
from verifier.rules.context import Ctx, matches
from verifier.spec.cards import Ability, Condition
from verifier.spec.scenario import Scenario

__all__ = [
    "CONDITIONS",
    "chain_begins",
    "condition_met",
    "fields",
    "heard",
    "open_after_chain",
]

declare(scalar("cseq"))  # the last event's number when the current chain began


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The optional state field event conditions need: the last event before the chain."""
    watching = any(a.condition is not None and a.condition.event for a in scenario.abilities)
    return ("cseq",) if watching else ()


def chain_begins(ctx: Ctx) -> None:
    """Before a link is activated: if it begins a chain, remember the last event before it."""
    if ctx.w.layout.has("cseq"):
        f = ctx.f
        f.cseq = ctx.L.ite(f.clen == 0, f.seq, f.cseq)


def heard(ctx: Ctx, event: str, hit: Sequence[Term], controllers: Sequence[Term]) -> None:
    """Record ``event`` happening to the cards in ``hit`` for every ability whose condition
    is that event (its number is the current ``seq``); ``controllers`` are the cards'
    controllers before it, whose side the condition's filter is seen from."""
    L, f, w = ctx.L, ctx.f, ctx.w
    for a in w.watchers:
        ability = w.abilities[a]
        condition = ability.condition
        assert condition is not None and condition.filter is not None
        if condition.kind != event:
            continue
        watcher = ability.card
        me = controllers[watcher]
        cases = [
            L.and_(hit[c], matches(ctx, c, condition.filter, me, source=watcher))
            for c in range(w.n)
            if not L.is_false(hit[c]) and w.static_match(c, condition.filter)
        ]
        fired = L.or_(*cases)
        if not L.is_false(fired):
            f.plast[a] = L.ite(fired, f.seq, f.plast[a])


def open_after_chain(ctx: Ctx, when: Term) -> None:
    """After a chain (and no trigger waits): if an event some card's condition names was the
    last thing to happen in it, the game state opens so that card may answer it, as after a
    chain whose last event was a summon; a continuation would otherwise end here."""
    w = ctx.w
    if not w.watchers:
        return
    L, f = ctx.L, ctx.f
    last = L.or_(*(f.plast[a] == f.seq for a in w.watchers))
    opens = L.and_(when, f.mode == int(Mode.DONE), f.seq > 0, last)
    f.window = L.ite(opens, int(Window.EVENT_RESPONSE), f.window)
    f.mode = L.ite(opens, int(Mode.OPEN), f.mode)


def condition_met(ctx: Ctx, index: int, condition: Condition) -> Term:
    """Whether the event of ``condition`` (the condition of ability ``index``) is the last
    thing to have happened, or happened just before the chain being built began."""
    L, f = ctx.L, ctx.f
    assert condition.event
    when = f.plast[index]
    building = L.and_(f.clen > 0, when == f.cseq)
    return L.and_(when > 0, L.or_(when == f.seq, building))


# -- the conditions met by an event -------------------------------------------------------------


def _load(kind: str) -> Callable[[Any, Any, Loading], Condition]:
    def load(value: Any, spec: Any, loading: Loading) -> Condition:
        for given in ("by", "how"):
            if getattr(spec, given) != "any":
                raise loading.fail(
                    f"'{given}' does not go with '{kind}' (a filter's 'controller' says whose "
                    "card)",
                    given,
                )
        if kind == "destroyed-by-battle" and not loading.model.battle:
            raise loading.fail(f"{loading.model.name} has no Battle Phase")
        cards = loading.cards(value)
        return Condition(kind, cards.types, cards, event=True)

    return load


def _met(ctx: Ctx, ability: Ability, condition: Condition, player: Term) -> Term:
    return condition_met(ctx, ability.index, condition)


CONDITIONS = tuple(
    ConditionKind(
        kind,
        ("filter", "card", "monster", "spell-trap"),
        said,
        _load(kind),
        _met,
        event=True,
        battle=kind == "destroyed-by-battle",
    )
    for kind, said in (
        ("destroyed", "when a card that fits is destroyed"),
        ("destroyed-by-effect", "when a card that fits is destroyed by a card effect"),
        ("destroyed-by-battle", "when a monster that fits is destroyed by battle"),
        ("sent-to-graveyard", "when a card that fits is sent to the graveyard (from anywhere)"),
        ("leaves-field", "when a card that fits leaves the field"),
        ("banished", "when a card that fits is banished"),
        ("targeted", "when a card that fits is targeted by an activation"),
    )
)
"""The conditions met while an event that happened to a card is the last thing to have
happened ("When a monster you control is destroyed and sent to the GY")."""
