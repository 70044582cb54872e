"""Verbs that move cards: destroy, banish, send to the graveyard, return to the hand, Special
Summon; the one simultaneous move they share, and the binding continuous effects that follow
a move (seed 001: Call of the Haunted destroys itself the moment its monster is destroyed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from verifier.core.logic import Term
from verifier.effects.verb import (
    MASS,
    Chooser,
    Link,
    Moved,
    Names,
    Narrator,
    Object,
    Place,
    Told,
    Verb,
    are,
    object_part,
    takes_object,
    verb,
)
from verifier.rules.moves import binding, move
from verifier.spec.cards import Ability, ContinuousKind, Effect, Filter, Zone

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = [
    "BANISH",
    "DESTROY",
    "RETURN_TO_HAND",
    "SEND_TO_GRAVEYARD",
    "SPECIAL_SUMMON",
    "SUMMONED_HOW",
    "binding",
    "choosable",
    "monster_zones_used",
    "move",
    "objects",
    "target_fits",
    "would_act",
    "would_destroy",
]


SUMMONED_HOW = "ehow"
"""The optional state field of how the latest effect's summon was done (``windows.HOW``):
the Normal Summon by an effect (:mod:`verifier.effects.summon`) declares it, and the Special
Summon sets it too where the scenario has it."""


def target_fits(ctx: Ctx, ability: Ability, target: Term, me: Term, second: bool = False) -> Term:
    """Whether the chosen target (the ``second`` one) still fits the ability's target
    description (that target's own, for an ability with a filter per target)."""
    from verifier.rules.context import matches

    flt = ability.filter_of(second)
    assert flt is not None
    L, n = ctx.L, ctx.w.n
    if type(target) is int:  # a known card: only it can be the one that fits
        if target >= n:  # a player (CR 115.1)
            return matches(ctx, target, flt, me) if flt.players is not None else False
        fits = 0 <= target < n and ctx.w.static_match(target, flt)
        return matches(ctx, target, flt, me, source=ability.card) if fits else False
    players = (n, n + 1) if flt.players is not None else ()
    return L.or_(
        *(
            L.and_(target == c, matches(ctx, c, flt, me, source=ability.card))
            for c in range(n)
            if ctx.w.static_match(c, flt)
        ),
        *(L.and_(target == p, matches(ctx, p, flt, me)) for p in players),
    )


def _legal(ctx: Ctx, link: Link, card: int, which: int) -> Term:
    """Whether ``card``, the link's first (``which`` 0) or second target, is a legal one:
    as the link began to resolve, or now for a link not resolving."""
    if link.legal is not None:
        return link.legal[which]
    return target_fits(ctx, link.ability, card, link.me, second=which == 1)


def objects(ctx: Ctx, link: Link, effect: Effect) -> list[Term]:
    """Which cards an effect part acts on, as a mask over the cards: the one place where
    every verb family chooses its cards, so protections ("unaffected") apply here."""
    from verifier.rules.context import matches, on_field
    from verifier.rules.locks import shielded

    L, f, w = ctx.L, ctx.f, ctx.w
    ability = link.ability
    obj = effect.obj
    out: list[Term] = []
    for c in range(w.n):
        if effect.filter is not None and not w.static_match(c, effect.filter):
            out.append(False)
            continue
        extra: Term = (
            True if effect.filter is None else matches(ctx, c, effect.filter, link.me, ability.card)
        )
        if obj == "target":
            # Each of its targets that was still legal as the link began to resolve (CR
            # 608.2b: not the illegal ones).
            chosen = link.target == c
            sel = L.and_(chosen, _legal(ctx, link, c, 0)) if chosen is not False else False
            if ability.targets > 1:
                again = link.target2 == c
                if again is not False:
                    sel = L.or_(sel, L.and_(again, _legal(ctx, link, c, 1)))
        elif obj == "chosen":
            sel = link.chosen == c  # its filter (below) still has to fit as it applies
        elif obj == "that-card":
            sel = L.select(link.below, f.lcard, -1) == c
        elif obj == "this-card":
            sel = c == ability.card
        elif obj == "summoned":
            sel = L.and_(f.summoned[c], on_field(ctx, c), f.up[c], w.cards[c].type == "monster")
        elif obj == "bound":
            sel = f.bound[ability.card] == c
        else:
            types = {
                "all-monsters": {"monster"},
                "all-spells-traps": {"spell", "trap"},
                "all-cards": {"monster", "spell", "trap"},
            }[obj or "all-cards"]
            side: Term = True
            if effect.of == "you":
                side = f.ctrl[c] == link.me
            elif effect.of == "opponent":
                side = f.ctrl[c] != link.me
            sel = L.and_(w.cards[c].type in types, on_field(ctx, c), side)
        # A card unaffected by this effect's card is not acted on (it stays a valid target).
        out.append(L.and_(sel, extra, L.not_(shielded(ctx, c, ability.card, link.me))))
    return out


def would_act(ctx: Ctx, ability: Ability, me: Term) -> Term:
    """Whether the effect of ``ability``, activated by ``me`` now, would do anything: False
    only when every part of it acts on all cards of a kind (:data:`MASS`, narrowed by
    ``of`` and ``filter``) and none of them is there (Raigeki when the opponent controls no
    monster). A part that acts on anything else (its target, a draw, Life Points) is taken
    to do something."""
    L = ctx.L
    if not ability.effects:
        return True
    unchained = [False] * ctx.w.layout.slots
    link = Link(ability, me, -1, unchained, unchained, None)
    acting: list[Term] = []
    for part in ability.effects:
        does: Term = True
        if part.obj in MASS:
            does = L.or_(*objects(ctx, link, part))
        elif part.obj == "chosen" and part.filter is not None:
            # "Special Summon 1 monster from your Deck": a card there to choose.
            does = L.or_(*choosable(ctx, ability, part, me))
        if part.verb in ("special-summon", "normal-summon"):
            # It summons to the activating player's field: it needs a free Monster Zone.
            used = monster_zones_used(ctx, me)
            zones = ctx.w.model.monster_zones
            does = does if used is None or zones is None else L.and_(does, used < zones)
        acting.append(does)
    return L.or_(*acting)


def choosable(ctx: Ctx, ability: Ability, part: Effect, me: Term) -> list[Term]:
    """Which cards ``me`` may choose now for ``part`` of ``ability``, a part that acts on a
    card chosen as it resolves (``chosen``), as a mask over the cards: those its filter fits
    and its verb may act on."""
    from verifier.rules.context import matches

    L, w = ctx.L, ctx.w
    flt = part.filter
    assert flt is not None, "a part on a chosen card has a filter"
    narrow = verb(part.verb).chooses
    mask: list[Term] = []
    for c in range(w.n):
        if not w.static_match(c, flt):
            mask.append(False)
            continue
        fits = matches(ctx, c, flt, me, ability.card)
        mask.append(fits if narrow is None else L.and_(fits, narrow(ctx, c, me)))
    return mask


def would_destroy(ctx: Ctx, flt: Filter, at_least: int, me: Term) -> Term:
    """Whether the link on top of the chain would destroy at least ``at_least`` cards on the
    field that fit ``flt`` (seen from ``me``) if it resolved now: its target, or the cards
    its mass destruction hits ("When a card or effect is activated that would destroy 2 or
    more cards you control": Starlight Road)."""
    from verifier.rules.context import matches, on_field

    L, f, w = ctx.L, ctx.f, ctx.w
    slots = w.layout.slots
    cases: list[Term] = []
    for ability in w.abilities:
        parts = [e for e in ability.parts() if e.verb == "destroy"]
        if not parts:
            continue
        for slot in range(slots):
            on_top = L.and_(f.clen == slot + 1, f.lab[slot] == ability.index)
            if L.is_false(on_top):
                continue
            link = Link(
                ability,
                f.lpl[slot],
                f.ltg[slot],
                [i == slot for i in range(slots)],
                [i == slot - 1 for i in range(slots)],
                None,
            )
            hits: list[Term] = [False] * w.n
            for part in parts:
                for c, h in enumerate(objects(ctx, link, part)):
                    hits[c] = L.or_(hits[c], h)
            doomed = [
                L.and_(h, on_field(ctx, c), matches(ctx, c, flt, me))
                for c, h in enumerate(hits)
                if not L.is_false(h) and w.static_match(c, flt)
            ]
            cases.append(L.and_(on_top, L.count(doomed) >= at_least))
    return L.or_(*cases)


# -- the verbs ------------------------------------------------------------------------------


def _hit(ctx: Ctx, link: Link, effect: Effect, go: Term) -> list[Term]:
    return [ctx.L.and_(go, h) for h in objects(ctx, link, effect)]


def _destroy(ctx: Ctx, link: Link, effect: Effect, go: Term) -> Moved:
    from verifier.rules import regeneration
    from verifier.rules.context import on_field

    hit = [ctx.L.and_(h, on_field(ctx, c)) for c, h in enumerate(_hit(ctx, link, effect, go))]
    if not effect.no_regen:
        hit = regeneration.replaced(ctx, hit)
    events = ("destroyed", "destroyed-by-effect")
    return move(ctx, hit, effect.to or Zone.GRAVEYARD, events, destroyed=True)


def _away(dest: Zone, events: tuple[str, ...]) -> Any:
    """Apply a move to ``dest`` of the cards not there already."""

    def apply(ctx: Ctx, link: Link, effect: Effect, go: Term) -> Moved:
        f = ctx.f
        hit = [
            ctx.L.and_(h, f.zone[c] != int(dest)) for c, h in enumerate(_hit(ctx, link, effect, go))
        ]
        return move(ctx, hit, dest, events)

    return apply


def monster_zones_used(ctx: Ctx, player: Term) -> Term | None:
    """How many of ``player``'s Monster Zones hold a monster (None: the rule system counts
    no zones)."""
    from verifier.rules.context import on_field

    L, f, w = ctx.L, ctx.f, ctx.w
    zones = w.model.monster_zones
    if zones is None:
        return None
    used = [
        L.and_(on_field(ctx, c), f.ctrl[c] == player)
        for c in range(w.n)
        if w.cards[c].type == "monster"
    ]
    return L.count(used)


def _special_summon(ctx: Ctx, link: Link, effect: Effect, go: Term) -> Moved:
    from verifier.rules.windows import HOW

    L, f, w = ctx.L, ctx.f, ctx.w
    hit = [
        L.and_(h, f.zone[c] != int(Zone.FIELD), w.cards[c].type == "monster")
        for c, h in enumerate(_hit(ctx, link, effect, go))
    ]
    used = monster_zones_used(ctx, link.me)
    if used is not None and w.model.monster_zones is not None:
        # Each summoned monster needs a Monster Zone of its own: without room for all of
        # them, none is summoned (an effect summons its one monster, or a group at once).
        room = L.count(hit) + used <= w.model.monster_zones
        hit = [L.and_(h, room) for h in hit]
    moved = move(ctx, hit, Zone.FIELD, ("summoned", "special-summoned"), controller=link.me)
    for c, h in enumerate(moved.hit):
        if h is not False:
            f.sseq[c] = L.ite(h, f.seq, f.sseq[c])
    if w.layout.has(SUMMONED_HOW) and not all(L.is_false(h) for h in moved.hit):
        f.ehow = L.ite(L.or_(*moved.hit), HOW["special"], f.ehow)
    card = w.cards[link.ability.card]
    if any(k.kind == ContinuousKind.BIND for k in card.continuous):
        chosen = L.select(hit, list(range(w.n)), -1)
        f.bound[card.index] = L.ite(L.or_(*hit), chosen, f.bound[card.index])
    return moved


# -- telling --------------------------------------------------------------------------------


def _moved_as(words: str) -> Narrator:
    def tell(note: Note, names: Names) -> list[Told]:
        if not note.cards:
            return []
        verb = "banished" if note.detail == "banished" else words.format(zone=note.detail)
        return [
            Told("effect", f"{names.listed(note)} {are(note.cards)} {verb}", None, note.cards[0])
        ]

    return tell


def _destroyed(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    verb = "destroyed"
    if note.detail not in {"graveyard", ""}:
        verb = f"destroyed and {note.detail}"
    return [Told("effect", f"{names.listed(note)} {are(note.cards)} {verb}", None, note.cards[0])]


def _special_summoned(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    text = f"{names.listed(note)} {are(note.cards)} special summoned"
    return [Told("effect", text, None, note.cards[0])]


def _continuous(note: Note, names: Names) -> list[Told]:
    if not note.cards:
        return []
    text = (
        f"continuous effect: {names.listed(note)} {are(note.cards)} destroyed (bound to a card "
        "that left or was destroyed)"
    )
    return [Told("continuous", text, None, note.cards[0])]


_MOVED = _moved_as("moved to the {zone}")
_SENT = _moved_as("sent to the graveyard")


# -- generating -----------------------------------------------------------------------------


def _generate(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        part = object_part(c, place, name)
        if name == "destroy" and c.integer(0, 3) == 0:
            part["to"] = c.pick(["banished", "graveyard"])
        return [part]

    return generate


DESTROY = Verb(
    "destroy",
    Object,
    lambda value, spec, loading: {"obj": value, "no_regen": spec.cannot_be_regenerated},
    _destroy,
    {"destroyed": _destroyed, "continuous": _continuous},
    _generate("destroy"),
    schema={
        "description": "destroy what it acts on (sent to the graveyard, or banished with 'to: "
        "banished')"
    },
)
BANISH = Verb(
    "banish",
    Object,
    takes_object,
    _away(Zone.BANISHED, ()),
    {"move": _MOVED, "continuous": _continuous},
    _generate("banish"),
    schema={"description": "banish what it acts on"},
)
SPECIAL_SUMMON = Verb(
    "special-summon",
    Object,
    takes_object,
    _special_summon,
    {"special-summoned": _special_summoned, "continuous": _continuous},
    _generate("special-summon"),
    schema={
        "description": "Special Summon what it acts on (a monster not on the field), under the "
        "effect's controller"
    },
)
SEND_TO_GRAVEYARD = Verb(
    "send-to-graveyard",
    Object,
    takes_object,
    _away(Zone.GRAVEYARD, ("sent-to-graveyard",)),
    {"sent-to-graveyard": _SENT, "continuous": _continuous},
    _generate("send-to-graveyard"),
    schema={"description": "send what it acts on to the graveyard (not destroyed)"},
)
RETURN_TO_HAND = Verb(
    "return-to-hand",
    Object,
    takes_object,
    _away(Zone.HAND, ()),
    {"move": _MOVED, "continuous": _continuous},
    _generate("return-to-hand"),
    schema={"description": "return what it acts on to its owner's hand"},
)
