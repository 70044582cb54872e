"""Magic: The Gathering (the Comprehensive Rules: priority 117, the stack 405, casting 601,
triggered abilities 603, resolving 608, first strike and double strike 702.7, 702.4, split
second 702.61, state-based actions 704).

Its creatures are the verifier's ``monster`` cards and its instants, sorceries and other
spells its ``spell`` cards; the battlefield is the ``field``, exile is ``banished`` and the
library the ``deck``. A creature's power and toughness are the ATK and DEF of the state.
"""

from __future__ import annotations

from types import MappingProxyType

from verifier.games.base import Drafting, Game, Wording

__all__ = ["BLANK", "GAME"]

BLANK = """\
# A Magic: The Gathering scenario: the stack, priority and state-based actions.
rules: mtg
library: mtg
turn: A
life-points: 20
cards:
  Grizzly Bears: {controller: B}
  Lightning Bolt: {controller: A, zone: hand}
  Giant Growth: {controller: B, zone: hand}
history:
  - A casts Lightning Bolt targeting Grizzly Bears
claims:
  - claim: can_activate(B, "Giant Growth")
    expect: holds
"""
"""A small scenario to start from, on the web page."""

GAME = Game(
    name="mtg",
    title="Magic: The Gathering",
    card_types=frozenset({"monster", "spell", "land"}),
    zones=frozenset({"deck", "hand", "field", "graveyard", "banished", "stack"}),
    phases=("beginning", "main1", "combat", "main2", "end"),
    # CR 500.1, 501-514: the five phases and their steps.
    steps=(
        ("untap", "beginning"),
        ("upkeep", "beginning"),
        ("draw", "beginning"),
        ("main1", "main1"),
        ("beginning-of-combat", "combat"),
        ("declare-attackers", "combat"),
        ("declare-blockers", "combat"),
        # 510.4: only when an attacking or blocking creature has first strike or double
        # strike (verifier.rules.strike); otherwise the turn goes straight to combat damage.
        ("first-strike-damage", "combat"),
        ("combat-damage", "combat"),
        ("end-of-combat", "combat"),
        ("main2", "main2"),
        ("end-step", "end"),
        ("cleanup", "end"),
    ),
    words=MappingProxyType(
        {"battlefield": "field", "exile": "banished", "library": "deck", "creature": "monster"}
    ),
    places=MappingProxyType(
        {"field": "on the battlefield", "banished": "in exile", "deck": "in the library"}
    ),
    no_priority=frozenset({"untap", "cleanup"}),  # CR 502.4, 514.3
    untaps=True,  # CR 502.3
    summoning_sickness=True,  # CR 302.6
    face_down_creatures=True,  # CR 702.37, 708
    verbs=frozenset(
        {
            "destroy",
            "banish",
            "take-control",
            "return-to-hand",
            "send-to-graveyard",
            "draw",
            "lose-lp",
            "gain-lp",
            "counterspell",
            "damage",
            "change-atk",
            "change-def",
            "create-token",
            "add-mana",
            "regenerate",
            "copy-spell",
            "become-color",
        }
    ),
    wording=Wording(
        chain="stack",
        activate_card="casts",
        activate_effect="activates",
        added="onto the stack",
        numbered=False,
        link="stack object {n}",
        trigger_effect="'s triggered ability",
        triggered="{label}'s triggered ability triggers (it goes on the stack the next time a "
        "player would receive priority)",
        tributed="sacrificed",
        countered="is countered",
        enters="enters the battlefield (CR 608.3)",
        terms=MappingProxyType(
            {
                "Life Points": "life",
                "ATK": "power",
                "DEF": "toughness",
                "is dizzied": "becomes tapped",
                "is undizzied": "untaps",
            }
        ),
        loses="{who} has 0 or less life and loses the game (CR 704.5a)",
        puts_triggers=True,
        closes="all players passed in succession: the top object of the stack resolves",
        outcomes=MappingProxyType(
            {
                "resolved": "{label} resolves",
                "no-effect": "{label} does not resolve: its target is illegal (CR 608.2b); it "
                "is removed from the stack",
                "effect-negated": "{label} resolves, but its effect is negated",
                "activation-negated": "{label} is countered",
            }
        ),
        steps=MappingProxyType(
            {
                "untap": "the untap step",
                "upkeep": "the upkeep step",
                "draw": "the draw step",
                "main1": "the precombat main phase",
                "beginning-of-combat": "the beginning of combat step",
                "declare-attackers": "the declare attackers step",
                "declare-blockers": "the declare blockers step",
                "first-strike-damage": "the first-strike combat damage step",
                "combat-damage": "the combat damage step",
                "end-of-combat": "the end of combat step",
                "main2": "the postcombat main phase",
                "end-step": "the end step",
                "cleanup": "the cleanup step",
            }
        ),
    ),
    rulebook=MappingProxyType(
        {
            "timing.speed-1": (
                "a sorcery (or a sorcery-speed ability) is cast only in its controller's main "
                "phase, with an empty stack, while they have priority (CR 307.1)"
            ),
            "chain.min-response": "only instants and abilities may be cast with a spell on the "
            "stack (CR 117.1a)",
            "chain.right-to-respond": "that player does not hold priority (CR 117.3)",
            "timing.no-priority": "no player receives priority in the untap step (CR 502.4), "
            "nor in the cleanup step unless something triggers there (514.3)",
            "lock.split-second": "a spell with split second is on the stack: no spell may be "
            "cast and no ability but a mana ability activated (CR 702.61a)",
            "cost.mana": "the mana in its controller's mana pool cannot pay its mana cost (CR "
            "601.2g-h: mana abilities are activated before a spell is cast; the pool empties "
            "at the end of each step, 500.4)",
            "cost.dizzy": "it is tapped, and {T} in its cost taps it (CR 107.5, 602.5a)",
            "land.timing": "a land is played only by the active player, in their main phase, "
            "with an empty stack, while they have priority (CR 305.1, 116.2a)",
            "land.one-per-turn": "a player plays one land a turn (CR 305.2)",
            "morph.priority": "a face-down permanent is turned face up by its controller, any "
            "time they have priority (CR 702.37e, 116.2b)",
            "morph.face-down": "only a face-down permanent its player controls, with a morph "
            "cost, is turned face up (CR 702.37e)",
            "combat.summoning-sickness": "the creature came under its controller's control "
            "this turn: it cannot attack, nor pay {T} (CR 302.6)",
            "combat.declaration": "attackers are declared as the declare attackers step "
            "begins, blockers as the declare blockers step begins (CR 508.1, 509.1)",
            "combat.declaring": "no player has priority while attackers or blockers are being "
            "declared (CR 508.2, 509.2)",
            "combat.declaring-player": "the active player declares attackers, the defending "
            "player blockers (CR 508.1, 509.1)",
            "combat.untapped-creature": "only an untapped creature its player controls attacks "
            "or blocks (CR 508.1a, 509.1a)",
            "combat.blocks-an-attacker": "a creature blocks an attacking creature (CR 509.1a)",
        }
    ),
    drafting=Drafting(
        cards="priority-stack",
        phases=("main1", "main2"),
        speeds=("sorcery", "instant", "mana"),
        combats=True,
        claim_atoms_left_out=("dizzy", "misses_timing", "cleanup_sends", "segoc_order"),
        claim_atoms_added=("countered", "countered"),
    ),
    blank=BLANK,
)
