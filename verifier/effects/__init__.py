"""The effect vocabulary: what each verb does to the state, and when its object is gone.

Every effect is written against :class:`verifier.core.logic.Logic`, so the explorer and the SMT
engine apply the same effects. Each part of an effect is a change of game state: an event
with its own number, after which triggers are checked and continuous effects apply at once
(seed 001: Call of the Haunted destroys itself the moment its monster is destroyed).

Each verb is one :class:`~verifier.effects.verb.Verb` in a module of its family; the list
below registers them in the order the files list them.
"""

from __future__ import annotations

from verifier.effects import (
    battle,
    coin,
    color,
    copies,
    damage,
    mana,
    movement,
    negation,
    position,
    regeneration,
    resources,
    speed,
    stats,
    summon,
    tokens,
    veil,
)
from verifier.effects.movement import move, objects, target_fits
from verifier.effects.parts import apply_effects
from verifier.effects.verb import Link, Moved, Verb, register, verb, verbs

__all__ = [
    "Link",
    "Moved",
    "Verb",
    "apply_effects",
    "move",
    "objects",
    "target_fits",
    "verb",
    "verbs",
]

for _verb in (
    movement.DESTROY,
    movement.BANISH,
    negation.NEGATE,
    position.FLIP_FACE_DOWN,
    position.TAKE_CONTROL,
    movement.SPECIAL_SUMMON,
    movement.SEND_TO_GRAVEYARD,
    movement.RETURN_TO_HAND,
    resources.DRAW,
    resources.ADD_FROM_DECK,
    resources.LOSE_LP,
    resources.GAIN_LP,
    coin.COIN_TOSS,
    speed.DIZZY,
    speed.UNDIZZY,
    negation.COUNTERSPELL,
    speed.SLOW,
    speed.SPEED_UP,
    stats.CHANGE_ATK,
    stats.CHANGE_DEF,
    battle.NEGATE_ATTACK,
    battle.END_BATTLE_PHASE,
    damage.DAMAGE,
    veil.NEGATE_CARD_EFFECTS,
    damage.COMBAT_DAMAGE,
    tokens.CREATE_TOKEN,
    mana.ADD_MANA,
    regeneration.REGENERATE,
    copies.COPY,
    color.BECOME_COLOR,
    summon.NORMAL_SUMMON,
):
    register(_verb)
