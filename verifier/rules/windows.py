"""Timing windows around a summon (seed 001).

The Summon negation window is a chain of its own whose Chain Link 1 must negate the summon;
only one such chain per summon. Then the monster is summoned and the Summon response window
opens: "when a monster is summoned" cards may be activated at any link of the chain that
answers the summon, until both players pass. If nobody activates anything, it closes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from verifier.core.logic import Term
from verifier.core.state import Mode, Window, declare, scalar
from verifier.rules import protocol, timing, triggers
from verifier.rules.conditions import ConditionKind, Loading
from verifier.rules.context import Check, Ctx, matches, turn_player
from verifier.rules.moves import tribute
from verifier.spec.cards import Ability, Condition, Zone

__all__ = [
    "CONDITIONS",
    "close_open_state",
    "condition_met",
    "effect_summon_last",
    "negation_window_checks",
    "open_after_effect_summon",
    "summon",
    "summon_checks",
    "summon_succeeds",
    "tributes_needed",
]

# How the latest summon by a card effect was done (:data:`HOW`).
declare(scalar("ehow", 2))

HOW = {"normal": 0, "tribute": 1, "special": 2, "flip": 3}


def negation_window_checks(ctx: Ctx, ability: Ability) -> Iterator[Check]:
    """Chain Link 1 of the Summon negation window must negate the summon, and only it may."""
    if not ctx.w.model.summon_negation:
        return
    L, f = ctx.L, ctx.f
    first_of_window = L.and_(f.window == int(Window.SUMMON_NEGATION), f.clen == 0)
    negates = ability.condition is not None and ability.condition.kind == "would-be-summoned"
    if negates:
        yield Check("window.summon-negation", first_of_window)
    else:
        yield Check("window.summon-negation", L.not_(first_of_window))


def condition_met(ctx: Ctx, condition: Condition, player: Term) -> Term:
    """Whether an activation condition ("When ...") holds now for ``player``."""
    L, f, w = ctx.L, ctx.f, ctx.w
    if condition.kind == "activates":
        # It answers the link on top of the chain.
        cases = []
        for slot in range(w.layout.slots):
            top = f.clen == slot + 1
            kinds = [
                f.lab[slot] == a.index
                for a in w.abilities
                if w.cards[a.card].type in condition.types
                # "includes any of these effects" (Ash Blossom & Joyous Spring).
                and (not condition.includes or any(a.uses(v) for v in condition.includes))
                # "When a monster on the field activates its effect, or when a Spell/Trap
                # that is already face-up on the field activates its effect" (Ghost Ogre).
                and (not condition.on_field or on_field(a))
            ]
            by = _by(ctx, condition.by, f.lpl[slot], player)
            cases.append(L.and_(top, L.or_(*kinds), by))
        return L.or_(*cases)
    flt = condition.filter
    assert flt is not None
    how_ok: Term = True
    if condition.how != "any":
        how_ok = f.how == HOW[condition.how]
    monsters = []
    for c in range(w.n):
        if not w.static_match(c, flt):
            continue
        monsters.append(
            L.and_(
                f.summoned[c],
                f.zone[c] == int(Zone.FIELD),
                f.up[c],
                matches(ctx, c, flt, player),
                _by(ctx, condition.by, f.ctrl[c], player),
            )
        )
    if condition.kind == "would-be-summoned":
        window = L.and_(f.window == int(Window.SUMMON_NEGATION), f.clen == 0, f.summoning >= 0)
    else:
        window = timing.responding(ctx)
    return L.and_(window, how_ok, L.or_(*monsters))


def on_field(ability: Ability) -> bool:
    """Whether ``ability`` is an effect activated on the field: a monster's effect while it
    is there, or an effect of a Spell/Trap already face-up there (not a card's activation)."""
    return ability.origin is Zone.FIELD and not ability.card_activation


def _by(ctx: Ctx, by: str, actor: Term, player: Term) -> Term:
    if by == "opponent":
        return actor != player
    if by == "you":
        return actor == player
    return True


def tributes_needed(level: int) -> int:
    """Tributes a Normal or Tribute Summon of a monster of ``level`` needs (Official
    Rulebook: Level 4 or lower none, Level 5 or 6 one, Level 7 or higher two)."""
    return 0 if level <= 4 else 1 if level <= 6 else 2


def summon_checks(
    ctx: Ctx, card: int, player: int, tributes: tuple[int, ...], how: str = "normal"
) -> Iterator[Check]:
    """A summon from the hand, by the turn player, in an open game state."""
    L, f, w = ctx.L, ctx.f, ctx.w
    level = w.cards[card].level
    if level is not None and how in {"normal", "tribute", "set"}:
        yield Check("summon.tributes", len(tributes) == tributes_needed(level))
    yield Check("summon.open-state", L.and_(f.mode == int(Mode.OPEN), f.window == int(Window.NONE)))
    yield Check("summon.turn-player", L.and_(player == turn_player(ctx), f.right == player))
    # A Magic creature is cast, never summoned: a face-down one is turned face up instead.
    summoned = w.cards[card].type == "monster" and not w.model.kinds[w.cards[card].kind].cast
    yield Check("summon.monster", summoned)
    if w.progresses:
        yield from timing.main_phase_checks(ctx, normal=how in {"normal", "tribute", "set"})
    if how == "flip":
        # A Flip Summon turns a monster Set in an earlier turn face-up in Attack Position.
        yield Check("summon.tributes", not tributes)
        set_down = L.and_(f.zone[card] == int(Zone.FIELD), L.not_(f.up[card]))
        yield Check("summon.face-down", L.and_(set_down, f.ctrl[card] == player))
        if w.layout.has("fixed"):
            yield Check("summon.set-this-turn", L.not_(f.fixed[card]))
        return
    yield Check("summon.from-hand", L.and_(f.zone[card] == int(Zone.HAND), f.ctrl[card] == player))
    zones = w.model.monster_zones
    if zones is not None:
        # The tributes leave the field first, freeing their zones.
        occupied = [
            L.and_(f.zone[c] == int(Zone.FIELD), f.ctrl[c] == player)
            for c in range(w.n)
            if w.cards[c].type == "monster" and c != card and c not in tributes
        ]
        yield Check("summon.monster-zones", L.count(occupied) < zones)
    for t in tributes:
        yield Check(
            "summon.tribute",
            L.and_(
                t != card,
                w.cards[t].type == "monster",
                f.zone[t] == int(Zone.FIELD),
                f.ctrl[t] == player,
            ),
        )


def summon(ctx: Ctx, card: int, player: int, how: str, tributes: tuple[int, ...]) -> None:
    """Start a summon: tributes first, then the monster is being summoned."""
    f, w = ctx.f, ctx.w
    ctx.note("summon", [card], how, player)
    tribute(ctx, tributes)
    ctx.event()
    f.zone[card] = int(Zone.FIELD)
    f.up[card] = True
    f.ctrl[card] = player
    for c in range(w.n):
        f.summoned[c] = c == card
    f.summoning = card
    f.how = HOW[how]
    if w.model.summon_negation:
        f.window = int(Window.SUMMON_NEGATION)
        f.mode = int(Mode.OPEN)
        protocol.open_state(ctx, True)
    else:
        summon_succeeds(ctx, True)


def summon_succeeds(ctx: Ctx, when: Term) -> None:
    """The summon was not negated: the monster is summoned; triggers and the response window."""
    L, f, w = ctx.L, ctx.f, ctx.w
    if L.is_false(when):
        return
    hit = [L.and_(when, f.summoning == c, f.zone[c] == int(Zone.FIELD)) for c in range(w.n)]
    before = list(f.zone)
    ctx.event(when)
    ctx.note("summoned", hit)
    triggers.fire(ctx, "summoned", hit, before)
    triggers.fire(ctx, "normal-summoned", [L.and_(h, f.how <= 1) for h in hit], before)
    triggers.fire(ctx, "tribute-summoned", [L.and_(h, f.how == 1) for h in hit], before)
    triggers.fire(ctx, "special-summoned", [L.and_(h, f.how == 2) for h in hit], before)
    triggers.fire(ctx, "flipped", [L.and_(h, f.how == 3) for h in hit], before)
    f.summoning = L.ite(when, -1, f.summoning)
    f.window = L.ite(when, int(Window.SUMMON_RESPONSE), f.window)
    waiting = triggers.collect(ctx, after_chain=False, when=when)
    f.mode = L.ite(when, L.ite(waiting, int(Mode.TRIGGERS), int(Mode.OPEN)), f.mode)
    protocol.open_state(ctx, when)


def close_open_state(ctx: Ctx, when: Term) -> None:
    """Both players passed without starting a chain."""
    L, f = ctx.L, ctx.f
    if L.is_false(when):
        return
    negation = L.and_(when, f.window == int(Window.SUMMON_NEGATION))
    response = L.and_(when, f.window == int(Window.SUMMON_RESPONSE))
    # After an effect's summon nobody answered, or nobody answered an attack declaration:
    # the turn moves on (or, for a scenario that stays where it starts, it is done).
    effect_summon = f.window == int(Window.EFFECT_SUMMON_RESPONSE)
    finished = L.and_(
        when,
        L.or_(
            f.window == int(Window.NONE),
            f.window == int(Window.ATTACK),
            f.window == int(Window.EVENT_RESPONSE),
            False if ctx.w.progresses else effect_summon,
        ),
    )
    if ctx.w.progresses:
        # In a turn that goes on, the game state stays open after an effect's summon that
        # nobody answered, as after any summon.
        response = L.or_(response, L.and_(when, effect_summon))
    summon_succeeds(ctx, negation)
    # Nobody answered the summon: the response window closes and the game state is open
    # again; the turn player may still start a chain, now answering nothing.
    f.window = L.ite(response, int(Window.NONE), f.window)
    protocol.open_state(ctx, response)
    f.window = L.ite(finished, int(Window.NONE), f.window)
    f.mode = L.ite(finished, timing.closed(ctx), f.mode)
    for c in range(ctx.w.n):
        f.summoned[c] = L.and_(f.summoned[c], L.not_(L.or_(finished, response)))


def effect_summon_last(ctx: Ctx) -> list[Term]:
    """The monsters a card effect Special Summoned as the last thing to happen in the chain
    that just resolved (Call of the Haunted as Chain Link 1): "when a monster is summoned"
    cards may answer them. If anything happened after the summon, they may not."""
    L, f, w = ctx.L, ctx.f, ctx.w
    no_window = f.window == int(Window.NONE)
    return [
        L.and_(no_window, f.sseq[c] == f.seq, f.zone[c] == int(Zone.FIELD))
        if w.cards[c].type == "monster"
        else False
        for c in range(w.n)
    ]


def open_after_effect_summon(ctx: Ctx, summoned: list[Term], when: Term) -> None:
    """After the chain: the Summon response window opens for monsters an effect summoned last."""
    L, f = ctx.L, ctx.f
    if all(L.is_false(s) for s in summoned):
        return
    opens = L.and_(when, L.or_(*summoned))
    for c, s in enumerate(summoned):
        f.summoned[c] = L.or_(f.summoned[c], L.and_(opens, s))
    # How the monsters were summoned: by an effect's Special Summon, or its Normal Summon.
    how = f.ehow if ctx.w.layout.has("ehow") else HOW["special"]
    f.how = L.ite(opens, how, f.how)
    f.window = L.ite(opens, int(Window.EFFECT_SUMMON_RESPONSE), f.window)
    f.mode = L.ite(L.and_(opens, f.mode == int(Mode.DONE)), int(Mode.OPEN), f.mode)


def end_of_chain(ctx: Ctx) -> Term:
    """After a chain's cleanup: does a summon the chain was answering now succeed?"""
    L, f = ctx.L, ctx.f
    negation = f.window == int(Window.SUMMON_NEGATION)
    succeeds = L.and_(negation, f.summoning >= 0)
    failed = L.and_(negation, f.summoning < 0)
    # A negated summon opens no response window.
    f.window = L.ite(failed, int(Window.NONE), f.window)
    for c in range(ctx.w.n):
        f.summoned[c] = L.and_(f.summoned[c], succeeds)
    return succeeds


# -- the conditions answered here ---------------------------------------------------------------


def _load_activates(value: Any, spec: Any, loading: Loading) -> Condition:
    would = spec.would_destroy
    return Condition(
        "activates",
        loading.types(value),
        None,
        spec.by,
        spec.how,
        includes=loading.includes(spec.includes),
        on_field=spec.on_field,
        would_destroy=None if would is None else loading.cards(would),
        at_least=spec.at_least,
    )


def _load_summoned(kind: str) -> Callable[[Any, Any, Loading], Condition]:
    def load(value: Any, spec: Any, loading: Loading) -> Condition:
        if kind == "would-be-summoned" and not loading.model.summon_negation:
            raise loading.fail(f"{loading.model.name} has no Summon negation window")
        return Condition(kind, frozenset({"monster"}), loading.cards(value), spec.by, spec.how)

    return load


def _met(ctx: Ctx, ability: Ability, condition: Condition, player: Term) -> Term:
    return condition_met(ctx, condition, player)


CONDITIONS = (
    ConditionKind(
        "activates",
        ("types",),
        "when a card or effect of these types is activated (the link on top of the chain): "
        "monster, spell, trap, spell-trap, card, monster-effect",
        _load_activates,
        _met,
    ),
    ConditionKind(
        "summoned",
        ("filter", "monster"),
        "when a monster that fits is summoned (the Summon response window)",
        _load_summoned("summoned"),
        _met,
    ),
    ConditionKind(
        "would-be-summoned",
        ("filter", "monster"),
        "when a monster that fits would be summoned (the Summon negation window: Chain Link 1)",
        _load_summoned("would-be-summoned"),
        _met,
    ),
)
"""The conditions that answer an activation or a summon."""
