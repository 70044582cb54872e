"""The rules by name, in words: what each named condition of a guard means to a player.

The sentences here speak of no particular game; a game says it in its own words where it
has them (``Game.rulebook``: "Spell Speed 2", "Spell & Trap Zone").
"""

from __future__ import annotations

from verifier.games import game_named

__all__ = ["RULES", "describe"]

RULES: dict[str, str] = {
    "capacity": "the state exceeded a fixed capacity (see the scenario's limits)",
    "chain.resolving": "nothing can be activated while a chain resolves",
    "triggers.placing": "nothing else can be activated while waiting triggers go on a chain",
    "turn.advancing": "nothing can be activated while the turn moves on to its next step",
    "scenario.ended": "the scenario's continuation has ended",
    "chain.right-to-respond": "the other player holds the right to respond first",
    "chain.already-pressed": "that player has already pressed resolve",
    "chain.speed": "a Chain Link 2 or higher needs a speed at least the previous link's",
    "chain.min-response": "a Chain Link 2 or higher needs at least the minimum response speed",
    "chain.locked": "the last link cannot be responded to",
    "chain.auto-resolve": "this rule system has no resolve timer",
    "chain.building": "the timer only runs while a stack is being built",
    "timing.speed-1": "the slowest speed only starts a chain, in the turn player's open Main Phase",
    "timing.no-priority": "no player receives priority in this step of the turn",
    "card.location": "the card is not where it can be activated from",
    "card.from-hand": "a card of this kind cannot be activated from the hand now",
    "card.set-this-turn": "a card of this kind cannot be activated in the turn it was set",
    "card.condition": "its activation condition is not met",
    "card.phase": "it can be activated only during another phase",
    "card.turn": "it can be activated only during one player's turn, and this is the other's",
    "card.trigger-only": "a trigger effect activates only when it is triggered",
    "card.no-effect": "it would have no effect: none of the cards its effect acts on is there",
    "deck.too-few": "its effect would draw or take more cards than the Deck holds",
    "zone.spell-trap-zones": "there is no free zone for the card",
    "window.summon-negation": (
        "Chain Link 1 of the Summon negation window must negate the summon, and only then"
    ),
    "limit.once-per-turn": "it can be activated only once per turn",
    "limit.once-per-chain": "it can be activated only once per chain",
    "limit.once-per-name": "a card of its name (this effect, or any) was already used this turn",
    "target.valid": "the target does not fit",
    "lock.cannot-activate": "a continuous effect on the field says it cannot be activated",
    "lock.split-second": "a link with split second is on the chain: only activations that never "
    "go on it may be made",
    "lock.untargetable": "a continuous effect on the field says that card cannot be targeted",
    "cost.tribute": "the tribute cannot be paid with that card",
    "cost.discard": "the discard cannot be paid with that card (or the hand has no card to "
    "discard)",
    "cost.banish": "the banishing cannot be paid with that card",
    "cost.life-points": "not enough Life Points to pay the cost",
    "cost.dizzy": "it is dizzy, and using it dizzies it",
    "cost.mana": "the mana in the player's mana pool cannot pay its mana cost",
    "land.timing": "a land is played in its controller's own main phase, with nothing on the "
    "chain, while they may act",
    "land.one-per-turn": "a player plays one land a turn",
    "morph.priority": "a face-down card is turned face up by its controller while they may act",
    "morph.face-down": "only a face-down card its player controls, with a morph cost, is turned "
    "face up",
    "combat.summoning-sickness": "the creature came under its controller's control this turn",
    "combat.declaration": "attackers and blockers are declared as their steps begin",
    "combat.declaring": "nobody acts while attackers or blockers are being declared",
    "combat.declaring-player": "the active player declares attackers, the other player blockers",
    "combat.untapped-creature": "only an untapped creature its player controls attacks or blocks",
    "combat.blocks-an-attacker": "a creature blocks an attacking creature",
    "resolve.mode": "links resolve only once the chain is closed",
    "resolve.next": "another link resolves first",
    "resolve.choice": "an effect that chooses a card as it resolves chooses one that fits its "
    "description there, if there is one (and none when its effect does not apply)",
    "cleanup.mode": "the chain has not finished resolving",
    "triggers.mode": "no triggers are waiting to go on a chain",
    "triggers.waiting": "this trigger is not waiting to activate",
    "triggers.segoc": "SEGOC: another group of triggers goes on the chain first",
    "triggers.apnap": "the turn player's triggers go on the chain first",
    "triggers.earlier-first": "a trigger that was triggered earlier goes on the chain first",
    "triggers.mandatory": "a mandatory trigger that can be activated must be",
    "triggers.one-from-hand": "each player activates only one trigger effect that Special "
    "Summons its monster from the hand per chain",
    "quick.mandatory": "a mandatory Quick Effect can be activated: it goes first",
    "quick.mandatory-first": "the turn player's mandatory Quick Effects go on the chain first",
    "summon.open-state": "a summon needs an open game state",
    "summon.turn-player": "only the turn player summons, in their open game state",
    "summon.from-hand": "the monster is not in that player's hand",
    "summon.monster": "only monsters are summoned",
    "summon.monster-zones": "there is no free Monster Zone",
    "summon.tributes": "the monster's Level asks for another number of tributes",
    "summon.tribute": "that card cannot be tributed",
    "history.reopen": "only a finished chain gives way to a new open game state",
    "summon.once-per-turn": "the turn player Normal Summons or Sets only once per turn",
    "summon.face-down": "only a face-down monster of that player is Flip Summoned",
    "summon.set-this-turn": "a monster is not Flip Summoned in the turn it was Set",
    "turn.main-phase": "this is a move of the turn player's open Main Phase",
    "turn.moving-on": "the turn moves on only when both players pass with nothing to answer",
    "turn.next-step": "the turn does not move on to that step from here",
    "position.monster": "only monsters have a battle position",
    "position.face-up": "only a face-up monster of the turn player changes position",
    "position.once-per-turn": (
        "a monster changes position once per turn, not in the turn it was summoned or "
        "after it attacked"
    ),
    "battle.battle-step": "attacks are declared in the Battle Step",
    "battle.open-state": "an attack is declared in the turn player's open game state",
    "battle.one-attack": "another attack is under way",
    "battle.attack-position": "only a face-up Attack Position monster of the turn player attacks",
    "battle.once-per-turn": "the monster has already declared an attack this turn",
    "battle.direct-attack": "a direct attack needs the opponent to control no monsters",
    "battle.attack-target": "the attack target is not a monster the opponent controls",
    "damage-step.before-calculation": (
        "until damage calculation, the Damage Step allows only Counter Traps, cards that "
        "directly change ATK or DEF, cards that negate an activation and cards for that timing"
    ),
    "damage-step.damage-calculation": (
        "during damage calculation only Counter Traps, cards that negate an activation and "
        "cards that say so may be activated"
    ),
    "damage-step.after-calculation": (
        "after damage calculation the Damage Step allows only Counter Traps and cards that "
        "negate an activation"
    ),
}


def describe(rule: str, game: str | None = None) -> str:
    """The rule's sentence in the words of ``game`` where it has its own, else the general
    one, else the rule's name."""
    played = None if game is None else game_named(game)
    if played is not None and rule in played.rulebook:
        return played.rulebook[rule]
    return RULES.get(rule, rule)
