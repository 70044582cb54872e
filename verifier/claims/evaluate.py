"""The meaning of a quantifier-free claim over one finished continuation.

A continuation's final state carries the activation and resolution logs (see
:mod:`verifier.core.state`), so every atom is a predicate over that state, written against
:class:`verifier.core.logic.Logic`: the explorer evaluates it on each final state, the SMT engine
asserts it (or its negation) on the last state of the unrolling.

Two claims speak of other points. ``priority == P`` and ``now F`` are facts of the
scenario's point (the engines' start state, concrete in both), so they are constants of the
claim. ``after_link(N) F``
is decided on a continuation that the System ends where Chain Link N has just resolved
(:class:`verifier.system.System` with a stop); ``F`` holds only where that point was reached.
"""

from __future__ import annotations

from verifier.claims import ast
from verifier.core.logic import Logic, Term
from verifier.core.state import Frame, Mode, Outcome, State
from verifier.core.world import World
from verifier.spec.cards import Zone
from verifier.spec.rulesystem import RightToRespond

__all__ = ["truth"]


def truth(
    L: Logic,
    world: World,
    state: State,
    formula: ast.Formula,
    start: int,
    origin: State | None = None,
) -> Term:
    """Whether ``formula`` holds of the continuation ending in ``state``.

    ``start`` is the number of activations the history already made: activation atoms speak
    of what happens after the scenario's point, orders and outcomes of whole chains.
    ``origin`` is the concrete state at the scenario's point (where the continuation began),
    which ``priority`` and ``after_link`` read.
    """
    point = None if origin is None else world.layout.frame(origin)
    return _Eval(L, world, world.layout.frame(state), start, point).value(formula)


def holds_priority(world: World, point: Frame, player: int) -> bool:
    """Whether ``player`` may act (activate or pass) in the concrete state ``point``.

    The same conditions as a pass (:func:`verifier.rules.protocol.may_pass`): nobody acts
    while a chain resolves, triggers are placed or the turn moves on; when the right to
    respond alternates (Yu-Gi-Oh!) the player holding it, otherwise (CMC) each player who
    has not pressed resolve.
    """
    if point.mode not in (int(Mode.OPEN), int(Mode.BUILD)):
        return False
    if world.model.right_to_respond != RightToRespond.ANYONE:
        return bool(point.right == player)
    return not point.pressed[player]


class _Eval:
    def __init__(
        self, L: Logic, world: World, f: Frame, start: int, point: Frame | None = None
    ) -> None:
        self.L = L
        self.w = world
        self.f = f
        self.start = start
        self.point = point
        self.alog = world.layout.alog
        self.rlog = world.layout.rlog

    @property
    def copies(self) -> list[int]:
        """The abilities of the copies of spells (put on the stack, never activated)."""
        return [a for c in self.w.cards if c.copy_of >= 0 for a in c.abilities]

    def of(self, card: int, column: Term) -> Term:
        """Whether an ability-valued entry belongs to ``card``."""
        return self.L.or_(*(column == a for a in self.w.cards[card].abilities))

    def value(self, formula: ast.Formula) -> Term:
        L, f = self.L, self.f
        if isinstance(formula, ast.Not):
            return L.not_(self.value(formula.arg))
        if isinstance(formula, ast.And):
            return L.and_(*(self.value(a) for a in formula.args))
        if isinstance(formula, ast.Or):
            return L.or_(*(self.value(a) for a in formula.args))
        if isinstance(formula, ast.Quantified):
            raise ValueError("quantifiers are decided by an engine, not evaluated")
        if isinstance(formula, ast.Priority):
            return holds_priority(self.w, self.origin(), formula.player)
        if isinstance(formula, ast.AfterLink):
            return L.and_(self.after_link(formula.link), self.value(formula.body))
        if isinstance(formula, ast.Now):
            point = self.origin()
            return _Eval(L, self.w, point, self.start, point).value(formula.body)
        if isinstance(formula, ast.Activates):
            if self.w.cards[formula.card].copy_of >= 0:
                return False  # a copy of a spell is put on the stack, never cast (CR 707.10)
            return L.or_(
                *(
                    L.and_(
                        k < f.an,
                        self.of(formula.card, f.a_ab[k]),
                        True if formula.player is None else f.a_pl[k] == formula.player,
                    )
                    for k in range(self.start, self.alog)
                )
            )
        if isinstance(formula, ast.Loses):
            return f.lost[formula.player] if self.w.layout.has("lost") else False
        if isinstance(formula, ast.Responds):
            return L.or_(
                *(
                    L.and_(
                        k < f.an,
                        f.a_pl[k] == formula.player,
                        f.a_cno[k] == 1,
                        f.a_link[k] >= 2,
                        *(f.a_ab[k] != a for a in self.copies),
                    )
                    for k in range(self.start, self.alog)
                )
            )
        if isinstance(formula, ast.Resolves):
            return self.outcome(formula.card, (Outcome.RESOLVED,))
        if isinstance(formula, ast.Negated):
            return self.outcome(formula.card, (Outcome.EFFECT_NEGATED, Outcome.ACTIVATION_NEGATED))
        if isinstance(formula, ast.Countered):
            return self.outcome(formula.card, (Outcome.ACTIVATION_NEGATED,))
        if isinstance(formula, ast.NoEffect):
            return self.outcome(formula.card, (Outcome.NO_EFFECT,))
        if isinstance(formula, ast.Targets):
            named = formula.second if formula.player is None else self.w.n + formula.player
            return L.or_(
                *(
                    L.and_(
                        k < f.an,
                        self.of(formula.card, f.a_ab[k]),
                        L.or_(f.a_tg[k] == named, f.a_tg2[k] == named),
                    )
                    for k in range(self.start, self.alog)
                )
            )
        if isinstance(formula, ast.Before):
            return L.or_(
                *(
                    L.and_(
                        j < f.rn,
                        self.of(formula.first, f.r_ab[i]),
                        self.of(formula.second, f.r_ab[j]),
                    )
                    for i in range(self.rlog)
                    for j in range(i + 1, self.rlog)
                )
            )
        if isinstance(formula, ast.Triggers):
            return f.trig[formula.card]
        if isinstance(formula, ast.MissesTiming):
            return f.miss[formula.card]
        if isinstance(formula, ast.SentByCleanup):
            return f.swept[formula.card]
        if isinstance(formula, ast.Dizzy):
            # Magic's tapped: false for every card of a scenario in which nothing taps.
            return f.dizzy[formula.card] if self.w.layout.has("dizzy") else False
        if isinstance(formula, ast.ZoneIs):
            return f.zone[formula.card] == formula.zone
        if isinstance(formula, ast.PositionIs):
            c = formula.card
            there = L.and_(f.zone[c] == int(Zone.FIELD), self.w.cards[c].type == "monster")
            defending = L.not_(f.up[c])
            if self.w.layout.has("dpos"):
                defending = L.or_(f.dpos[c], defending)
            return L.and_(there, defending if formula.defense else L.not_(defending))
        if isinstance(formula, ast.FaceIs):
            c = formula.card
            up = f.up[formula.card]
            return L.and_(f.zone[c] == int(Zone.FIELD), up if formula.up else L.not_(up))
        if isinstance(formula, ast.ControllerIs):
            return f.ctrl[formula.card] == formula.player
        if isinstance(formula, ast.SpeedIs):
            return self.speed(formula.card, formula.speed)
        if isinstance(formula, ast.ChainLength):
            return self.compare(
                self.L.count(self.links(max(formula.chain, 1))), formula.op, formula.value
            )
        if isinstance(formula, ast.CardStat):
            field = "atk" if formula.what == "atk" else "defense"
            card = self.w.cards[formula.card]
            printed = (card.atk if field == "atk" else card.defense) or 0
            # Without the field, nothing in the scenario changes it: the printed value holds.
            now = getattr(f, field)[formula.card] if self.w.layout.has(field) else printed
            return self.compare(now, formula.op, formula.value)
        if isinstance(formula, ast.PlayerCount):
            if formula.what == "battle_damage":
                # Without battle fields, the continuation has no battle: no damage.
                taken = f.bdmg[formula.player] if self.w.layout.has("bdmg") else 0
                return self.compare(taken, formula.op, formula.value)
            if formula.what == "hand_size":
                return self.compare(self.hand_size(formula.player), formula.op, formula.value)
            if formula.what == "deck_size":
                # The parser lets it name only a counted Deck: the field is there.
                size = self.listed_in(Zone.DECK, formula.player) + f.deck[formula.player]
                return self.compare(size, formula.op, formula.value)
            column = f.lp if formula.what == "life_points" else f.drawn
            return self.compare(column[formula.player], formula.op, formula.value)
        if isinstance(formula, ast.Attacks):
            if not self.w.layout.has("atkd"):
                return False  # the continuation stays where it starts: no attack
            return L.and_(f.atkd[formula.card], not self.w.cards[formula.card].attacked)
        if isinstance(formula, ast.DestroyedByBattle):
            return f.bdes[formula.card] if self.w.layout.has("bdes") else False
        if isinstance(formula, ast.StepIs):
            w = self.w
            if not w.progresses:
                where = w.scenario.phase if formula.what == "phase" else w.scenario.step
                return where in formula.steps
            return L.or_(*(f.step == w.step_index(s) for s in formula.steps if s in w.steps))
        if isinstance(formula, ast.OrderIs):
            if formula.which == "resolution":
                return self.resolution_order(max(formula.chain, 1), formula.cards)
            if formula.which == "stack":
                return self.stack_is(formula.cards)
            if formula.which == "activation":
                return self.link_order(max(formula.chain, 1), formula.cards, segoc=False)
            if formula.chain > 0:
                return self.link_order(formula.chain, formula.cards, segoc=True)
            return self.first_segoc_order(formula.cards)
        raise TypeError(f"not a claim atom: {formula!r}")

    def origin(self) -> Frame:
        if self.point is None:
            raise ValueError("this claim reads the scenario's point: pass the start state")
        return self.point

    def after_link(self, link: int) -> Term:
        """Whether the continuation stopped where Chain Link ``link`` of the scenario's chain
        (the one under way at its point, or the next one) had just resolved.

        Only the stop leaves a finished continuation with a resolved link on its chain (a
        chain that ends is cleared and the next one numbered), so the slot says it.
        """
        L, f = self.L, self.f
        if link > self.w.layout.slots:
            return False
        chain = self.origin().cno
        return L.and_(f.mode == int(Mode.DONE), f.cno == chain, f.ldone[link - 1])

    def compare(self, term: Term, op: str, value: int) -> Term:
        """``term op value`` for a claim's constant, which may lie outside the integer range:
        a faithful final state holds only values inside it, so such a comparison is decided
        by the constant alone, never by a wrapped copy of it."""
        layout = self.w.layout
        if value > layout.int_max or value < layout.int_min:
            above = value > layout.int_max
            return {
                "==": False,
                "!=": True,
                "<": above,
                "<=": above,
                ">": not above,
                ">=": not above,
            }[op]
        return _compare(term, op, value)

    def outcome(self, card: int, outcomes: tuple[Outcome, ...]) -> Term:
        L, f = self.L, self.f
        return L.or_(
            *(
                L.and_(
                    k < f.rn,
                    self.of(card, f.r_ab[k]),
                    L.or_(*(f.r_out[k] == int(o) for o in outcomes)),
                )
                for k in range(self.rlog)
            )
        )

    def speed(self, card: int, rank: int) -> Term:
        L, f = self.L, self.f
        cases = []
        for k in range(self.rlog):
            later = L.or_(
                *(L.and_(j < f.rn, self.of(card, f.r_ab[j])) for j in range(k + 1, self.rlog))
            )
            cases.append(
                L.and_(k < f.rn, self.of(card, f.r_ab[k]), L.not_(later), f.r_spd[k] == rank)
            )
        return L.or_(*cases)

    def links(self, chain: int) -> list[Term]:
        f = self.f
        return [
            self.L.and_(k < f.an, self.compare(f.a_cno[k], "==", chain), f.a_link[k] >= 1)
            for k in range(self.alog)
        ]

    def stack_is(self, cards: tuple[int, ...]) -> Term:
        """The chain (Magic's stack) holds exactly the links of ``cards`` that have not
        resolved yet, the first added (the bottom) first: with ``after_link(N)`` or at a
        point in the middle of a chain's resolution, what is left once the N-th has resolved
        (a resolved Yu-Gi-Oh! link keeps its slot until the chain is over); at a
        continuation's natural end it is empty."""
        L, f = self.L, self.f
        slots = self.w.layout.slots
        if len(cards) > slots:
            return False
        waiting = [L.and_(i < f.clen, L.not_(f.ldone[i])) for i in range(slots)]
        placed = []
        for i in range(slots):
            before = L.count(waiting[:i])  # the links still to resolve below this one
            here = [L.and_(before == j, self.of(c, f.lab[i])) for j, c in enumerate(cards)]
            placed.append(L.or_(L.not_(waiting[i]), *here))
        return L.and_(L.count(waiting) == len(cards), *placed)

    def link_order(self, chain: int, cards: tuple[int, ...], segoc: bool) -> Term:
        """The links of ``chain`` are exactly ``cards``, Chain Link 1 first.

        With ``segoc``, only the triggers placed together count: they are Chain Links 1..n,
        and the next link, if any, is not one of them.
        """
        L, f = self.L, self.f

        def link(number: int, card: int | None) -> Term:
            return L.or_(
                *(
                    L.and_(
                        k < f.an,
                        self.compare(f.a_cno[k], "==", chain),
                        f.a_link[k] == number,
                        f.a_segoc[k] if segoc else True,
                        True if card is None else self.of(card, f.a_ab[k]),
                    )
                    for k in range(self.alog)
                )
            )

        parts = [link(i + 1, card) for i, card in enumerate(cards)]
        if segoc:
            parts.append(L.not_(link(len(cards) + 1, None)))
        else:
            parts.append(L.count(self.links(chain)) == len(cards))
        return L.and_(*parts)

    def first_segoc_order(self, cards: tuple[int, ...]) -> Term:
        """The first chain built from simultaneous triggers has exactly the links ``cards``;
        ``[]``: no such chain was built."""
        L, f = self.L, self.f
        if not cards:
            return L.not_(L.or_(*(L.and_(k < f.an, f.a_segoc[k]) for k in range(self.alog))))
        cases = []
        for chain in range(1, self.rlog + 2):
            earlier = L.or_(
                *(L.and_(k < f.an, f.a_segoc[k], f.a_cno[k] < chain) for k in range(self.alog))
            )
            has = L.or_(
                *(L.and_(k < f.an, f.a_segoc[k], f.a_cno[k] == chain) for k in range(self.alog))
            )
            cases.append(L.and_(L.not_(earlier), has, self.link_order(chain, cards, segoc=True)))
        return L.or_(*cases)

    def listed_in(self, zone: Zone, player: int) -> Term:
        """How many of the scenario's cards are in ``player``'s ``zone``."""
        L, f = self.L, self.f
        return L.count(
            [L.and_(f.zone[c] == int(zone), f.ctrl[c] == player) for c in range(self.w.n)]
        )

    def hand_size(self, player: int) -> Term:
        """The cards in ``player``'s hand: the listed ones there, and the unlisted ones (the
        scenario's ``hands`` and what was drawn; without costs that discard them, every
        card drawn is still there)."""
        L, f, w = self.L, self.f, self.w
        listed = L.count(
            [L.and_(f.zone[c] == int(Zone.HAND), f.ctrl[c] == player) for c in range(w.n)]
        )
        unlisted = f.hand[player] if w.layout.has("hand") else f.drawn[player]
        return listed + unlisted

    def resolution_order(self, chain: int, cards: tuple[int, ...]) -> Term:
        """The links of ``chain`` resolved exactly in the order ``cards``."""
        L, f = self.L, self.f
        m = len(cards)
        cases = []
        for s in range(self.rlog - m + 1):
            parts: list[Term] = [s + m <= f.rn]
            if s > 0:
                parts.append(self.compare(f.r_cno[s - 1], "<", chain))
            for i, card in enumerate(cards):
                parts.append(self.compare(f.r_cno[s + i], "==", chain))
                parts.append(self.of(card, f.r_ab[s + i]))
            if s + m < self.rlog:
                parts.append(L.or_(f.rn <= s + m, self.compare(f.r_cno[s + m], "!=", chain)))
            cases.append(L.and_(*parts))
        if m == 0:
            cases.append(
                L.not_(
                    L.or_(
                        *(
                            L.and_(k < f.rn, self.compare(f.r_cno[k], "==", chain))
                            for k in range(self.rlog)
                        )
                    )
                )
            )
        return L.or_(*cases)


def _compare(term: Term, op: str, value: int) -> Term:
    if op == "==":
        return term == value
    if op == "!=":
        return term != value
    if op == "<":
        return term < value
    if op == "<=":
        return term <= value
    if op == ">":
        return term > value
    return term >= value
