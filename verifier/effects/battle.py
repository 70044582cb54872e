"""Verbs of the Battle Phase: ``negate-attack`` and ``end-battle-phase``.

Negate Attack: "negate the attack, then end the Battle Phase". A negated attack ends: there
is no Damage Step for it, and the monster has still declared its attack this turn (official
rulings on Magic Cylinder and Negate Attack). Ending the Battle Phase moves the turn on to
its End Step (Perfect Rulebook: an effect applied "at the end of the Battle Phase" begins
the End Step). Outside a Battle Phase both do nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from verifier.core.logic import Term
from verifier.effects.verb import Chooser, Link, Loading, Names, Need, Place, Told, Verb
from verifier.spec.cards import Effect

if TYPE_CHECKING:
    from verifier.rules.context import Ctx, Note

__all__ = ["END_BATTLE_PHASE", "NEGATE_ATTACK"]

BATTLE = Need(lambda model: model.battle, "'{verb}' needs a Battle Phase; {model} has none")


def _negate_attack(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f = ctx.L, ctx.f
    if not ctx.w.layout.has("attacker"):
        return  # the continuation stays where it starts: no attack is ever under way
    stops = L.and_(go, f.attacker >= 0)
    if L.is_false(stops):
        return
    f.attacker = L.ite(stops, -1, f.attacker)
    f.atarget = L.ite(stops, -1, f.atarget)
    f.replay = L.and_(f.replay, L.not_(stops))
    ctx.event(stops)
    if stops is True:
        ctx.note("negate-attack")


def _end_battle_phase(ctx: Ctx, link: Link, effect: Effect, go: Term) -> None:
    L, f, w = ctx.L, ctx.f, ctx.w
    if not w.progresses or "end-step" not in w.steps:
        return
    battle = [i for i, phase in enumerate(w.phases) if phase == "battle"]
    ends = L.and_(go, L.or_(*(f.step == i for i in battle)), f.step != w.step_index("end-step"))
    if L.is_false(ends):
        return
    f.step = L.ite(ends, w.step_index("end-step"), f.step)
    f.attacker = L.ite(ends, -1, f.attacker)
    f.atarget = L.ite(ends, -1, f.atarget)
    f.replay = L.and_(f.replay, L.not_(ends))
    if ends is True:
        ctx.note("end-battle-phase")


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    return {}


def _tell(text: str) -> Any:
    def tell(note: Note, names: Names) -> list[Told]:
        return [Told("battle", text)]

    return tell


def _generate(name: str) -> Any:
    def generate(c: Chooser, place: Place) -> list[dict[str, Any]]:
        return [{name: True}]

    return generate


NEGATE_ATTACK = Verb(
    "negate-attack",
    Literal[True],
    _load,
    _negate_attack,
    {"negate-attack": _tell("the attack is negated: it ends (the monster has still attacked)")},
    _generate("negate-attack"),
    needs=(BATTLE,),
    schema={"description": "negate the attack under way (true)"},
)
END_BATTLE_PHASE = Verb(
    "end-battle-phase",
    Literal[True],
    _load,
    _end_battle_phase,
    {"end-battle-phase": _tell("the Battle Phase ends: the turn moves on to its End Step")},
    _generate("end-battle-phase"),
    needs=(BATTLE,),
    schema={"description": "end the Battle Phase (true): the turn moves on to its End Step"},
)
