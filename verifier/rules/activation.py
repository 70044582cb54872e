"""Whether a card or effect may be activated now, and what activating it does.

Seeds 001/002: a Trap Card cannot be activated in the turn it was set, nor from the hand; a
Quick-Play Spell from the hand only in its controller's turn; an activated card stays face-up
in its zone (it occupies a zone) until the chain has resolved; costs are paid on activation.
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.core.logic import Term
from verifier.core.state import Capacity, Mode, Reset, array, declare
from verifier.games import game
from verifier.rules import battle, events, locks, protocol, speed, windows
from verifier.rules.conditions import DURING, condition_kind, register
from verifier.rules.context import Check, Ctx, append, matches, on_field, turn_player
from verifier.rules.costs import cost_kind
from verifier.rules.during import during_checks
from verifier.spec.cards import HIDDEN, Ability, Zone
from verifier.spec.scenario import Scenario

__all__ = [
    "activation_checks",
    "cost_checks",
    "count_use",
    "fields",
    "instant",
    "once_checks",
    "pay_costs",
    "push_link",
    "record",
    "used_by",
]

declare(
    array("ltg2", "slot", -1, "card"),  # a link's second target, or -1 (Magic's Fire)
    # The players who used the ability this turn, for a "once per turn" by name (1: the
    # first player, 2: the second, 3: both).
    array("uby", "ability", resets=frozenset({Reset.TURN})),
    array("hand", "player"),  # the cards of the player's hand the scenario does not list
    array("deck", "player", -1),  # the cards left in the player's Deck (-1: not counted)
)


def fields(scenario: Scenario) -> tuple[str, ...]:
    """The optional state fields activations need: the unlisted cards of each hand, kept when
    the scenario gives hands or a cost may be paid with any card of the hand; a link's second
    target, when an ability targets two cards; the cards of each Deck, when the scenario
    counts them; whether a card is dizzy (tapped), when a cost dizzies (taps) it or a card
    starts so."""
    hidden = any(cost.hidden for a in scenario.abilities for cost in a.costs)
    hand = ("hand",) if hidden or any(scenario.hands) else ()
    two = ("ltg2",) if any(a.targets > 1 for a in scenario.abilities) else ()
    deck = ("deck",) if scenario.decks != (-1, -1) else ()
    taps = any(c.kind == "dizzy" for a in scenario.abilities for c in a.costs)
    dizzy = ("dizzy",) if taps or any(c.dizzy for c in scenario.cards) else ()
    # A creature with a {T} ability that may come onto the battlefield (a creature spell)
    # is "summoning sick" there (CR 302.6): the state says which creatures came this turn.
    sick = (
        any(
            cost.kind == "dizzy"
            and scenario.cards[a.card].type == "monster"
            and scenario.cards[a.card].zone is not Zone.FIELD
            for a in scenario.abilities
            for cost in a.costs
        )
        and game(scenario.model.game).summoning_sickness
    )
    # "Once per turn" by name counts each player's uses apart.
    byname = any(a.once in ("name", "name-effect") for a in scenario.abilities)
    return hand + two + deck + dizzy + (("fresh",) if sick else ()) + (("uby",) if byname else ())


def activation_checks(
    ctx: Ctx, ability: Ability, target: int | None, tributes: tuple[int, ...]
) -> Iterator[Check]:
    """Every rule an activation of ``ability`` must satisfy, each named."""
    L, f, w = ctx.L, ctx.f, ctx.w
    card = w.cards[ability.card]
    kind = w.model.kinds[card.kind if ability.card_activation else ability.kind]
    player = f.ctrl[card.index]
    yield from protocol.may_act(ctx, player)
    yield from _location_checks(ctx, ability, player)
    spd = speed.activation_speed(ctx, ability)
    yield from speed.timing_checks(ctx, spd, player)
    if w.silent and w.layout.has("step"):
        # Nobody holds priority there; something put onto the stack there gives it back.
        quiet = L.and_(*(f.step != s for s in sorted(w.silent)))
        yield Check("timing.no-priority", L.or_(quiet, f.clen > 0))
    yield from speed.chain_checks(ctx, spd)
    locked = [a.index for a in w.abilities if a.no_response]
    if locked:
        top = speed.top_slot(ctx)
        answered = L.or_(
            *(L.and_(top[i], f.lab[i] == a) for i in range(w.layout.slots) for a in locked)
        )
        yield Check("chain.locked", L.not_(answered))
    split = [a.index for a in w.abilities if a.split_second]
    if split:
        # CR 702.61a-b: with a split second spell on the stack, only mana abilities (which
        # never use the stack) and special actions may be made.
        held = L.or_(
            *(L.and_(i < f.clen, f.lab[i] == a) for i in range(w.layout.slots) for a in split)
        )
        yield Check("lock.split-second", L.or_(L.not_(held), instant(ctx, spd)))
    yield from windows.negation_window_checks(ctx, ability)
    yield from battle.limit_checks(ctx, ability)
    if ability.condition is not None:
        yield from during_checks(ctx, ability.condition, player)
    condition = ability.condition
    if condition is not None and condition.kind != DURING:
        met = condition_kind(condition.kind).met(ctx, ability, condition, player)
        yield Check("card.condition", met)
    yield from once_checks(ctx, ability, player)
    yield Check("card.trigger-only", not kind.trigger)
    if ability.target is not None:
        # A Spell or Trap Card being activated cannot target itself (Mystical Space Typhoon).
        # Nor can an effect whose cost moves its own card (Mezuki banishes itself, then
        # targets a monster in the graveyard).
        moves_itself = any(cost.this for cost in ability.costs)
        itself = (ability.card_activation or moves_itself) and target == ability.card
        fits = (
            target is not None
            and not itself
            and matches(ctx, target, ability.target, player, ability.card)
        )
        yield Check("target.valid", fits)
    yield from locks.activation_locks(ctx, ability, player)
    yield from locks.target_locks(ctx, ability, target, player)
    yield from cost_checks(ctx, ability, player, target, tributes)


def once_checks(ctx: Ctx, ability: Ability, player: Term) -> Iterator[Check]:
    """How often ``ability`` may be activated (``once``): once per turn or per chain, this
    card (a use of any mode of its effect counts); by name, once per turn for every card of
    its name (Yu-Gi-Oh!'s hard once per turn: a use of any of them, or of the same effect of
    any of them, counts), for each player apart: ``player``'s own uses count, the
    opponent's do not."""
    f, L = ctx.f, ctx.L
    # The modes of one effect are one effect: a use of any of them counts.
    together = ctx.w.once_modes.get(ability.index, (ability.index,))
    if ability.once == "turn":
        yield Check("limit.once-per-turn", L.and_(*(f.uses[a] == 0 for a in together)))
    elif ability.once == "chain":
        yield Check("limit.once-per-chain", L.and_(*(f.cuse[a] == 0 for a in together)))
    elif ability.once is not None:
        shared = ctx.w.once_shared[ability.index]
        unused = [ctx.L.not_(used_by(ctx, a, player)) for a in shared]
        yield Check("limit.once-per-name", ctx.L.and_(*unused))


def used_by(ctx: Ctx, ability: int, player: Term) -> Term:
    """Whether ``player`` used ``ability`` this turn (every use counts where the state does
    not tell the players apart: no ability of the scenario has a limit by name)."""
    L, f = ctx.L, ctx.f
    if not ctx.w.layout.has("uby"):
        return f.uses[ability] != 0
    by = f.uby[ability]
    return L.ite(player == 0, L.or_(by == 1, by == 3), by >= 2)


def count_use(ctx: Ctx, ability: int, player: Term) -> None:
    """``player`` activates ``ability`` (or puts its trigger on the chain): one more use this
    turn and this chain, and, where limits by name count them, whose."""
    L, f = ctx.L, ctx.f
    f.uses[ability] = ctx.add(f.uses[ability], 1)
    f.cuse[ability] = ctx.add(f.cuse[ability], 1)
    if ctx.w.layout.has("uby"):
        by = f.uby[ability]
        first = L.ite(L.or_(by == 1, by == 3), by, by + 1)
        second = L.ite(by >= 2, by, by + 2)
        f.uby[ability] = L.ite(player == 0, first, second)


def _location_checks(ctx: Ctx, ability: Ability, player: Term) -> Iterator[Check]:
    L, f, w = ctx.L, ctx.f, ctx.w
    card = w.cards[ability.card]
    c = card.index
    if not ability.card_activation:
        if ability.origin is Zone.FIELD:
            yield Check("card.location", L.and_(on_field(ctx, c), f.up[c]))
        else:
            # A monster's effect activated from the hand or the graveyard (a hand trap).
            yield Check("card.location", f.zone[c] == int(ability.origin))
        return
    kind = w.model.kinds[card.kind]
    in_hand = f.zone[c] == int(Zone.HAND)
    if card.type == "monster":  # a creature spell is cast from the hand only
        yield Check("card.location", in_hand)
        return
    face_down = L.and_(on_field(ctx, c), L.not_(f.up[c]))
    yield Check("card.location", L.or_(in_hand, face_down))
    if kind.hand == "never":
        yield Check("card.from-hand", L.not_(in_hand))
    elif kind.hand == "own-turn":
        yield Check("card.from-hand", L.or_(L.not_(in_hand), player == turn_player(ctx)))
    if kind.set_wait and card.set_this_turn:
        # Set in the scenario's turn: it may be activated from the next turn on.
        later = f.tno > 0 if w.layout.has("tno") else False
        yield Check("card.set-this-turn", L.or_(L.not_(face_down), later))
    zones = w.model.spell_trap_zones
    if zones is not None and card.type in {"spell", "trap"}:
        used = L.count(
            [
                L.and_(on_field(ctx, o.index), f.ctrl[o.index] == player)
                for o in w.cards
                if o.type in {"spell", "trap"}
            ]
        )
        yield Check("zone.spell-trap-zones", L.or_(L.not_(in_hand), used < zones))


def cost_checks(
    ctx: Ctx, ability: Ability, player: Term, target: int | None, tributes: tuple[int, ...]
) -> Iterator[Check]:
    """Whether the costs can be paid with the cards chosen for them (``tributes``: one card
    per cost that chooses, in their order; :data:`HIDDEN` for an unlisted card of the hand)."""
    L, f = ctx.L, ctx.f
    wanted = [cost for cost in ability.costs if cost.chooses]
    if len(wanted) != len(tributes):
        yield Check(f"cost.{wanted[0].kind if wanted else 'tribute'}", False)
    for cost, offered in zip(wanted, tributes, strict=False):
        rule = f"cost.{cost.kind}"
        if offered == HIDDEN:
            unlisted = ctx.w.layout.has("hand") and cost.hidden
            yield Check(rule, L.pick(f.hand, player, 0) > 0 if unlisted else False)
            continue
        assert cost.filter is not None
        fits = matches(ctx, offered, cost.filter, player, ability.card)
        itself = offered == ability.card and not ability.may_pay_with_itself(cost)
        yield Check(rule, L.and_(fits, offered != target, not itself))
    for cost in ability.costs:
        yield from cost_kind(cost.kind).checks(ctx, ability, cost, player)


def pay_costs(ctx: Ctx, ability: Ability, player: Term, tributes: tuple[int, ...]) -> None:
    """Pay the costs: they are events, and may trigger effects (tributing Sangan)."""
    chosen = iter(tributes)
    for cost in ability.costs:
        card = ability.card if cost.this else next(chosen) if cost.chooses else -1
        cost_kind(cost.kind).pay(ctx, ability, cost, player, card)


def instant(ctx: Ctx, spd: Term) -> Term:
    """Whether an activation at speed ``spd`` happens at once instead of going on the chain."""
    model = ctx.w.model
    if model.immediate:
        return True
    return ctx.L.or_(*(spd == r for r in sorted(model.instant)))


def push_link(
    ctx: Ctx,
    ability: Ability,
    player: Term,
    target: Term | None,
    spd: Term,
    when: Term,
    negated: Term = False,
    second: Term | None = None,
) -> None:
    """Add a link on top of the chain (when ``when`` holds); ``negated``: its effect is
    negated already (activated on the field by a monster whose effects are negated);
    ``second``: its second target (-1 for none), when the state keeps one."""
    L, f, w = ctx.L, ctx.f, ctx.w
    if L.is_false(when):
        return
    slots = w.layout.slots
    ctx.exceed(Capacity.CHAIN, L.and_(when, f.clen >= slots))
    for i in range(slots):
        here = L.and_(when, f.clen == i)
        if L.is_false(here):
            continue
        f.lab[i] = L.ite(here, ability.index, f.lab[i])
        f.lcard[i] = L.ite(here, ability.card, f.lcard[i])
        f.lpl[i] = L.ite(here, player, f.lpl[i])
        f.ltg[i] = L.ite(here, -1 if target is None else target, f.ltg[i])
        if second is not None:
            f.ltg2[i] = L.ite(here, second, f.ltg2[i])
        f.lspd[i] = L.ite(here, spd, f.lspd[i])
        f.lneg[i] = L.and_(f.lneg[i], L.not_(here))
        f.leneg[i] = L.ite(here, negated, f.leneg[i])
        f.ldone[i] = L.and_(f.ldone[i], L.not_(here))
    f.clen = L.ite(L.and_(when, f.clen < slots), f.clen + 1, f.clen)
    f.mode = L.ite(when, int(Mode.BUILD), f.mode)


def record(
    ctx: Ctx,
    ability: Ability,
    player: Term,
    link: Term,
    segoc: bool,
    targets: tuple[int | None, int | None] = (None, None),
) -> None:
    """Write an activation into the activation log (for claims), with its targets."""
    entry: dict[str, Term] = {
        "a_ab": ability.index,
        "a_pl": player,
        "a_cno": ctx.f.cno,
        "a_link": link,
        "a_segoc": segoc,
    }
    # An untargeted activation leaves the target columns as they were (-1): a scenario
    # without targets never changes them, and the SMT encoding keeps them as constants.
    for name, target in zip(("a_tg", "a_tg2"), targets, strict=True):
        if target is not None:
            entry[name] = target
    append(ctx, "an", entry, ctx.w.layout.alog)


# The bundled kinds of condition, in the files' order (each module that owns their rules
# defines them).
for _kind in (*windows.CONDITIONS, *battle.CONDITIONS, *events.CONDITIONS):
    register(_kind)
