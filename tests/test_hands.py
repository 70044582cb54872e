"""Hands, costs paid with cards, effects activated from the hand or the graveyard, modes and
event conditions: verdicts and witness chains in both engines, the states histories reach,
and every new error kind with its exact message."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run
from verifier.effects.verb import verbs
from verifier.errors import ScenarioError
from verifier.io.scenario import load_scenario, parse_for
from verifier.run.check import Prepared, check, prepare

ENGINES = ("explore", "smt")

JAMMER = """\
rules: yugioh
turn: A
hands: {B: 1}
cards:
  Dark Hole: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters}}
  Magic Jammer:
    kind: counter-trap
    controller: B
    set: earlier-turn
    when: {activates: spell}
    cost: {discard: 1}
    effect: [{negate: activation}, {destroy: that-card}]
  Gemini Elf: {kind: normal-monster, controller: B, atk: 1900}
history:
  - A activates Dark Hole
claims: []
"""
"""Magic Jammer answering Dark Hole, its cost paid with B's one unlisted card."""

ASH = """\
rules: yugioh
turn: A
cards:
  Reinforcement of the Army: {kind: normal-spell, controller: A, zone: hand, effect: {add-from-deck: 1}}
  Ash Blossom & Joyous Spring:
    kind: effect-monster
    controller: B
    zone: hand
    ability:
      type: quick
      from: hand
      cost: {discard: this}
      when: {activates: card, includes: [add-from-deck]}
      effect: {negate: effect}
history:
  - A activates Reinforcement of the Army
claims: []
"""

SOLEMN = """\
rules: yugioh
turn: A
cards:
  Solemn Judgment:
    kind: counter-trap
    controller: B
    set: earlier-turn
    cost: {pay-lp: half}
    modes:
      - label: summon
        when: {would-be-summoned: monster}
        effect: [{negate: summon}, {destroy: summoned}]
      - label: activation
        when: {activates: [spell, trap]}
        effect: [{negate: activation}, {destroy: that-card}]
  Dark Hole: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters}}
  Gemini Elf: {kind: normal-monster, controller: A, zone: hand, atk: 1900, level: 4}
  # Something for Dark Hole to destroy (a card that would do nothing is not activated).
  Kuriboh: {kind: normal-monster, controller: B, atk: 300, level: 1}
history:
  - A summons Gemini Elf
claims: []
"""

BLAST = """\
rules: yugioh
turn: A
cards:
  Smash: {kind: quick-play-spell, controller: A, zone: hand, target: {card: monster, zone: field}, effect: {destroy: target}}
  Pot of Greed: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 2}}
  Chthonian Blast:
    kind: normal-trap
    controller: B
    set: earlier-turn
    when: {destroyed: {card: monster, controller: you, zone: graveyard}}
    effect: {destroy: all-monsters, of: opponent}
  Gemini Elf: {kind: normal-monster, controller: B, atk: 1900}
  Blue-Eyes White Dragon: {kind: normal-monster, controller: A, atk: 3000}
history:
  - A activates Smash targeting Gemini Elf
  - the chain resolves
claims: []
"""
"""A monster of B's destroyed by Chain Link 1: Chthonian Blast may answer after the chain."""


def _load(tmp_path: Path, text: str) -> Prepared:
    path = tmp_path / f"s{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text(text, encoding="utf-8")
    return prepare(load_scenario(path))


def decided(tmp_path: Path, text: str, claim: str, engine: str) -> tuple[str, list[str]]:
    """The verdict on ``claim`` and the text of its witness or counterexample chain."""
    prepared = _load(tmp_path, text)
    formula = parse_for(prepared.scenario, claim)
    [result] = check(prepared, [("t", claim, formula, None)], engine)
    return result.verdict.value, [step.text for step in result.trace]


def hands(prepared: Prepared) -> tuple[int, int]:
    """The unlisted cards of each hand after the scenario's history."""
    at = prepared.system.layout.frame(prepared.history.state)
    first, second = at.hand
    assert isinstance(first, int) and isinstance(second, int)
    return first, second


def with_history(text: str, *steps: str) -> str:
    head, _, _ = text.partition("history:\n")
    listed = "".join(f"  - {s}\n" for s in steps)
    return head + ("history:\n" + listed if steps else "history: []\n") + "claims: []\n"


# -- hands and costs paid with cards --------------------------------------------------------


def test_the_unlisted_card_pays_the_discard(tmp_path: Path) -> None:
    assert hands(_load(tmp_path, JAMMER)) == (0, 1)
    paid = _load(
        tmp_path,
        with_history(JAMMER, "A activates Dark Hole", "B activates Magic Jammer discarding a card"),
    )
    assert hands(paid) == (0, 0)
    assert [s.text for s in paid.history.steps][-2:] == [
        "B activates Magic Jammer discarding a card (Chain Link 2)",
        "B discards a card from their hand",
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_discarding_an_unlisted_card_in_both_engines(tmp_path: Path, engine: str) -> None:
    verdict, chain = decided(tmp_path, JAMMER, 'always zone("Gemini Elf") == graveyard', engine)
    assert verdict == "fails"
    assert "B activates Magic Jammer discarding a card (Chain Link 2)" in chain
    assert "B discards a card from their hand" in chain
    assert "the activation of Dark Hole is negated" in chain


@pytest.mark.parametrize("engine", ENGINES)
def test_an_empty_hand_does_not_pay(tmp_path: Path, engine: str) -> None:
    empty = JAMMER.replace("hands: {B: 1}\n", "")
    assert decided(tmp_path, empty, "can_respond(B)", engine)[0] == "fails"
    # A listed card of the hand pays it as well as an unlisted one.
    listed = empty.replace(
        "history:", "  Sangan: {kind: normal-monster, controller: B, zone: hand}\nhistory:"
    )
    verdict, chain = decided(tmp_path, listed, "can_respond(B)", engine)
    assert verdict == "holds"
    assert "B activates Magic Jammer discarding Sangan (Chain Link 2)" in chain


def test_a_discard_filter_takes_only_fitting_cards(tmp_path: Path) -> None:
    text = JAMMER.replace("{discard: 1}", "{discard: {card: spell}}").replace(
        "history:", "  Sangan: {kind: normal-monster, controller: B, zone: hand}\nhistory:"
    )
    # Neither Sangan (a monster) nor an unlisted card (of no known type) fits.
    assert decided(tmp_path, text, "can_respond(B)", "explore")[0] == "fails"
    spell = text.replace(
        "{kind: normal-monster, controller: B, zone: hand}",
        "{kind: normal-spell, controller: B, zone: hand}",
    )
    verdict, chain = decided(tmp_path, spell, "can_respond(B)", "explore")
    assert verdict == "holds"
    assert "B activates Magic Jammer discarding Sangan (Chain Link 2)" in chain


@pytest.mark.parametrize("engine", ENGINES)
def test_draws_add_to_the_unlisted_hand(tmp_path: Path, engine: str) -> None:
    text = """\
rules: yugioh
turn: A
cards:
  Drawer: {kind: effect-monster, controller: A, ability: {type: ignition, effect: {draw: 2}}}
  Raigeki Break:
    kind: normal-trap
    controller: A
    set: earlier-turn
    cost: {discard: 1}
    target: {card: card, zone: field}
    effect: {destroy: target}
  Gemini Elf: {kind: normal-monster, controller: B, atk: 1900}
history:
  - A activates Drawer
  - the chain resolves
claims: []
"""
    assert hands(_load(tmp_path, text)) == (2, 0)
    verdict, chain = decided(tmp_path, text, 'can_activate(A, "Raigeki Break")', engine)
    assert verdict == "holds"
    assert any(t.startswith("A activates Raigeki Break targeting ") for t in chain)
    assert any(t.endswith(" discarding a card (Chain Link 1)") for t in chain)
    assert "A discards a card from their hand" in chain
    # Before the draw A's hand is empty: nothing pays Raigeki Break's cost.
    before = with_history(text)
    assert decided(tmp_path, before, 'can_activate(A, "Raigeki Break")', engine)[0] == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hand_trap_discards_itself(tmp_path: Path, engine: str) -> None:
    verdict, chain = decided(tmp_path, ASH, 'exists negated("Reinforcement of the Army")', engine)
    assert verdict == "holds"
    assert chain[1:3] == [
        "B activates Ash Blossom & Joyous Spring (Chain Link 2)",
        "Ash Blossom & Joyous Spring is discarded",
    ]
    assert (
        decided(tmp_path, ASH, 'always zone("Ash Blossom & Joyous Spring") != field', engine)[0]
        == "holds"
    )


def test_a_hand_trap_is_not_activated_from_elsewhere(tmp_path: Path) -> None:
    for zone in ("graveyard", "field"):
        text = ASH.replace("    zone: hand\n    ability", f"    zone: {zone}\n    ability")
        assert decided(tmp_path, text, "can_respond(B)", "explore")[0] == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_includes_narrows_the_activations_answered(tmp_path: Path, engine: str) -> None:
    text = ASH.replace("add-from-deck: 1", "draw: 1")
    assert decided(tmp_path, text, "can_respond(B)", engine)[0] == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_banish_this_from_the_graveyard(tmp_path: Path, engine: str) -> None:
    text = """\
rules: yugioh
turn: A
cards:
  Mezuki:
    kind: effect-monster
    controller: A
    zone: graveyard
    ability:
      type: ignition
      from: graveyard
      cost: {banish: this}
      target: {card: monster, zone: graveyard, controller: you}
      effect: {special-summon: target}
  Pyramid Turtle: {kind: normal-monster, controller: A, zone: graveyard}
claims: []
"""
    verdict, chain = decided(tmp_path, text, 'exists zone("Pyramid Turtle") == field', engine)
    assert verdict == "holds"
    assert chain[:2] == [
        "A activates Mezuki targeting Pyramid Turtle (Chain Link 1)",
        "Mezuki is banished",
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_card_banished_as_its_cost_is_not_its_own_target(tmp_path: Path, engine: str) -> None:
    # Mezuki banishes itself as the cost, then targets a Zombie in the graveyard: alone
    # there, it has nothing to target (Konami FAQ on "Mezuki").
    text = """\
rules: yugioh
turn: A
cards:
  Mezuki:
    kind: effect-monster
    controller: A
    zone: graveyard
    ability:
      type: ignition
      from: graveyard
      cost: {banish: this}
      target: {card: monster, zone: graveyard, controller: you}
      effect: {special-summon: target}
claims: []
"""
    assert decided(tmp_path, text, 'can_activate(A, "Mezuki")', engine)[0] == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_tribute_this_card(tmp_path: Path, engine: str) -> None:
    text = """\
rules: yugioh
turn: A
cards:
  Sacrifice:
    kind: effect-monster
    controller: A
    ability: {type: ignition, cost: {tribute: this}, effect: {draw: 1}}
claims: []
"""
    verdict, chain = decided(
        tmp_path, text, 'exists (zone("Sacrifice") == graveyard and cards_drawn(A) == 1)', engine
    )
    assert verdict == "holds"
    assert chain[0] == "A activates Sacrifice (Chain Link 1)"


# -- modes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_the_effect_follows_the_mode(tmp_path: Path, engine: str) -> None:
    verdict, chain = decided(
        tmp_path,
        SOLEMN,
        'exists (activates(B, "Solemn Judgment") and zone("Gemini Elf") == graveyard)',
        engine,
    )
    assert verdict == "holds"
    assert "B activates Solemn Judgment (summon) (Chain Link 1)" in chain
    spell = with_history(SOLEMN, "A activates Dark Hole")
    verdict, chain = decided(tmp_path, spell, 'exists negated("Dark Hole")', engine)
    assert verdict == "holds"
    assert "B activates Solemn Judgment (activation) (Chain Link 2)" in chain


def test_a_history_chooses_the_mode(tmp_path: Path) -> None:
    chosen = _load(
        tmp_path,
        with_history(SOLEMN, "A summons Gemini Elf", "B activates Solemn Judgment choosing summon"),
    )
    texts = [s.text for s in chosen.history.steps]
    assert "B activates Solemn Judgment (summon) (Chain Link 1)" in texts
    with pytest.raises(ScenarioError) as raised:
        _load(
            tmp_path,
            with_history(
                SOLEMN, "A summons Gemini Elf", "B activates Solemn Judgment choosing activation"
            ),
        )
    assert "(card.condition)" in raised.value.message


def test_a_history_without_a_mode_takes_the_one_legal_there(tmp_path: Path) -> None:
    summon = _load(
        tmp_path, with_history(SOLEMN, "A summons Gemini Elf", "B activates Solemn Judgment")
    )
    assert "B activates Solemn Judgment (summon) (Chain Link 1)" in [
        s.text for s in summon.history.steps
    ]
    spell = _load(
        tmp_path, with_history(SOLEMN, "A activates Dark Hole", "B activates Solemn Judgment")
    )
    assert "B activates Solemn Judgment (activation) (Chain Link 2)" in [
        s.text for s in spell.history.steps
    ]
    # Neither can answer anything yet: the first mode says why.
    with pytest.raises(ScenarioError) as raised:
        _load(tmp_path, with_history(SOLEMN, "B activates Solemn Judgment"))
    assert "is not legal" in raised.value.message and "(card.condition)" in raised.value.message


def test_a_history_must_name_the_mode_when_two_are_legal(tmp_path: Path) -> None:
    twin = (
        "rules: yugioh\nturn: A\ncards:\n"
        "  Twin:\n    kind: quick-play-spell\n    controller: A\n    zone: hand\n"
        "    modes:\n      - {label: draw, effect: {draw: 1}}\n"
        "      - {label: heal, effect: {gain-lp: 500}}\n"
        "history:\n  - A activates Twin\nclaims: []\n"
    )
    with pytest.raises(ScenarioError) as raised:
        _load(tmp_path, twin)
    assert raised.value.message == (
        "history step 'A activates Twin': which mode? more than one can be activated here; "
        "write it with 'choosing MODE' (one of: Twin (draw), Twin (heal))"
    )
    chosen = _load(tmp_path, twin.replace("A activates Twin", "A activates Twin choosing heal"))
    assert "A activates Twin (heal) (Chain Link 1)" in [s.text for s in chosen.history.steps]


# -- event conditions -----------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_an_event_condition_opens_the_state_after_the_chain(tmp_path: Path, engine: str) -> None:
    verdict, chain = decided(tmp_path, BLAST, 'can_activate(B, "Chthonian Blast")', engine)
    assert verdict == "holds"
    assert "B activates Chthonian Blast (Chain Link 1)" in chain
    assert "Blue-Eyes White Dragon is destroyed" in chain


@pytest.mark.parametrize("engine", ENGINES)
def test_an_event_condition_misses_the_timing(tmp_path: Path, engine: str) -> None:
    # Gemini Elf destroyed by Chain Link 2; Chain Link 1 (the draw) is the last thing to happen.
    late = with_history(
        BLAST,
        "A activates Pot of Greed",
        "B passes",
        "A activates Smash targeting Gemini Elf",
        "the chain resolves",
    )
    assert decided(tmp_path, late, 'can_activate(B, "Chthonian Blast")', engine)[0] == "fails"
    # Not while the chain that will destroy it is being built.
    early = with_history(BLAST, "A activates Smash targeting Gemini Elf")
    assert decided(tmp_path, early, "can_respond(B)", engine)[0] == "fails"


def test_an_event_condition_watches_its_filter(tmp_path: Path) -> None:
    # A's own monster destroyed: not "a monster you control" for B.
    text = BLAST.replace("targeting Gemini Elf", "targeting Blue-Eyes White Dragon")
    assert decided(tmp_path, text, 'can_activate(B, "Chthonian Blast")', "explore")[0] == "fails"


@pytest.mark.parametrize("engine", ENGINES)
def test_would_destroy_counts_the_cards(tmp_path: Path, engine: str) -> None:
    text = """\
rules: yugioh
turn: A
cards:
  Dark Hole: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters}}
  Starlight Road:
    kind: normal-trap
    controller: B
    set: earlier-turn
    when: {activates: card, would-destroy: {card: card, controller: you}, at-least: 2}
    effect: [{negate: effect}, {destroy: that-card}]
  Gemini Elf: {kind: normal-monster, controller: B, atk: 1900}
  Battle Ox: {kind: normal-monster, controller: B, atk: 1700}
history:
  - A activates Dark Hole
claims: []
"""
    assert decided(tmp_path, text, "can_respond(B)", engine)[0] == "holds"
    # One monster of B's: Dark Hole would destroy only one card B controls.
    one = text.replace("  Battle Ox: {kind: normal-monster, controller: B, atk: 1700}\n", "")
    assert decided(tmp_path, one, "can_respond(B)", engine)[0] == "fails"


# -- declining an optional trigger ----------------------------------------------------------


def test_a_history_declines_an_optional_trigger(tmp_path: Path) -> None:
    text = """\
rules: yugioh
turn: A
cards:
  Summoner:
    kind: effect-monster
    controller: A
    zone: hand
    level: 4
    ability:
      type: trigger
      trigger: {event: normal-summoned}
      optional: true
      effect: {draw: 1}
history:
  - A summons Summoner
claims: []
"""
    declined = with_history(text, "A summons Summoner", "A declines Summoner")
    assert (
        _load(tmp_path, declined).history.steps[-1].text == "Summoner is not activated (optional)"
    )
    for engine in ENGINES:
        verdict, chain = decided(tmp_path, text, "exists cards_drawn(A) == 1", engine)
        assert verdict == "holds"
        assert "A activates Summoner's trigger effect (Chain Link 1)" in chain
        assert decided(tmp_path, declined, "always cards_drawn(A) == 0", engine)[0] == "holds"


# -- errors ---------------------------------------------------------------------------------

BASE = """\
rules: yugioh
turn: A
cards:
  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters, of: opponent}}
%s
history:
  - A activates Raigeki
claims:
  - claim: can_respond(B)
    expect: holds
"""

MODES = """\
  Judge:
    kind: counter-trap
    controller: B
    set: earlier-turn
    modes:
      - {label: a, when: {activates: spell}, effect: {negate: activation}}
      - {label: b, when: {activates: trap}, effect: {negate: activation}}"""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            BASE % MODES.replace("    modes:", "    when: {activates: spell}\n    modes:"),
            [
                "s.yaml:9:5: error: a card with modes states 'when' in each mode",
                "        when: {activates: spell}",
                "        ^",
            ],
            id="modes-and-when",
        ),
        pytest.param(
            BASE % MODES.replace("label: b", "label: a"),
            [
                "s.yaml:11:17: error: two modes are called 'a'",
                "          - {label: a, when: {activates: trap}, effect: {negate: activation}}",
                "                    ^",
            ],
            id="modes-same-label",
        ),
        pytest.param(
            BASE % "  Crow:\n    kind: effect-monster\n    controller: B\n"
            "    ability: {type: quick, cost: {discard: this}, effect: {draw: 1}}",
            [
                "s.yaml:8:34: error: 'discard: this' needs the effect to be activated from the "
                "hand ('from: hand')",
                "        ability: {type: quick, cost: {discard: this}, effect: {draw: 1}}",
                "                                     ^",
            ],
            id="discard-this-not-from-hand",
        ),
        pytest.param(
            BASE % "  Crow:\n    kind: effect-monster\n    controller: B\n    zone: hand\n"
            "    ability: {type: quick, from: hand, cost: {tribute: this}, effect: {draw: 1}}",
            [
                "s.yaml:9:46: error: 'tribute: this' needs the effect to be activated on the field",
            ],
            id="tribute-this-from-hand",
        ),
        pytest.param(
            BASE % "  Jammer:\n    kind: counter-trap\n    controller: B\n    set: earlier-turn\n"
            "    cost: {discard: {card: monster, zone: graveyard}}\n    effect: {negate: activation}",
            [
                "s.yaml:9:11: error: a discarded card comes from the hand",
                "        cost: {discard: {card: monster, zone: graveyard}}",
                "              ^",
            ],
            id="discard-from-the-graveyard",
        ),
        pytest.param(
            BASE % "  Jammer:\n    kind: counter-trap\n    controller: B\n    set: earlier-turn\n"
            "    cost: [{discard: 1}, {banish: {card: monster}}]\n    effect: {negate: activation}",
            [
                "s.yaml:9:11: error: at most one cost that chooses a card (tribute, discard or "
                "banish)",
            ],
            id="two-costs-that-choose",
        ),
        pytest.param(
            BASE % "  Ash:\n    kind: effect-monster\n    controller: B\n    zone: hand\n"
            "    ability:\n      type: quick\n      from: hand\n      cost: {discard: this}\n"
            "      when: {activates: card, includes: [searh]}\n      effect: {negate: effect}",
            [
                # Every effect verb, in the order they are registered.
                "s.yaml:13:41: error: unknown effect 'searh' in 'includes' (known: "
                f"{', '.join(v.name for v in verbs())})",
            ],
            id="unknown-includes",
        ),
        pytest.param(
            BASE % "  Blast:\n    kind: normal-trap\n    controller: B\n    set: earlier-turn\n"
            "    when: {destroyed: monster, by: opponent}\n    effect: {draw: 1}",
            [
                "s.yaml:9:36: error: 'by' does not go with 'destroyed' (a filter's 'controller' "
                "says whose card)",
                "        when: {destroyed: monster, by: opponent}",
                "                                       ^",
            ],
            id="by-with-an-event",
        ),
        pytest.param(
            BASE % "  Blast:\n    kind: normal-trap\n    controller: B\n    set: earlier-turn\n"
            "    when: {destroyed: monster, includes: [draw]}\n    effect: {draw: 1}",
            ["s.yaml:9:11: error: 'includes' goes with 'activates'"],
            id="includes-without-activates",
        ),
        pytest.param(
            BASE % "  Blast:\n    kind: normal-trap\n    controller: B\n    set: earlier-turn\n"
            "    when: {destroyed: monster, on-field: true}\n    effect: {draw: 1}",
            ["s.yaml:9:11: error: 'on-field' goes with 'activates'"],
            id="on-field-without-activates",
        ),
        pytest.param(
            BASE % "  Road:\n    kind: normal-trap\n    controller: B\n    set: earlier-turn\n"
            "    when: {activates: card, at-least: 2}\n    effect: {draw: 1}",
            ["s.yaml:9:11: error: 'at-least' goes with 'would-destroy'"],
            id="at-least-without-would-destroy",
        ),
        pytest.param(
            BASE % "  Jammer:\n    kind: counter-trap\n    controller: B\n    set: earlier-turn\n"
            "    cost: {discard: this}\n    effect: {negate: activation}",
            [
                "s.yaml:9:11: error: a trap card does not pay 'discard: this' (a monster's "
                "effect may)",
            ],
            id="trap-discards-itself",
        ),
        pytest.param(
            (BASE % MODES).replace(
                "  - A activates Raigeki\n",
                "  - A activates Raigeki\n  - B activates Judge choosing c\n",
            ),
            [
                "s.yaml:14:22: error: 'Judge' has no mode 'c'",
                "      - B activates Judge choosing c",
                "                         ^",
            ],
            id="history-unknown-mode",
        ),
        pytest.param(
            (BASE % "").replace(
                "  - A activates Raigeki\n", "  - A activates Raigeki\n  - B declines Raigeki\n"
            ),
            [
                "s.yaml:8:16: error: 'Raigeki' has no trigger effect",
                "      - B declines Raigeki",
                "                   ^",
            ],
            id="declines-no-trigger",
        ),
        pytest.param(
            (BASE % "").replace("turn: A\n", "turn: A\nhands: {C: 2}\n"),
            [
                "s.yaml:3:9: error: unknown player 'C' (players: A, B)",
                "    hands: {C: 2}",
                "            ^",
            ],
            id="hands-unknown-player",
        ),
    ],
)
def test_hand_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path], text: str, expected: list[str]
) -> None:
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 2, result
    assert "Traceback" not in result.err
    lines = result.err.splitlines()
    for i, line in enumerate(expected):
        assert lines[i].endswith(line) if i == 0 else lines[i] == line


@pytest.mark.parametrize("engine", ENGINES)
def test_an_event_condition_is_gone_once_the_turn_moves_on(tmp_path: Path, engine: str) -> None:
    # A monster destroyed by battle goes to the graveyard at the end of the Damage Step,
    # where the Damage Step's limits refuse a Normal Trap; back in the Battle Step the event
    # is no longer the last thing to have happened, so the trap cannot answer it there.
    text = """\
rules: yugioh
turn: A
step: battle-step
until: main2
cards:
  Attacker: {kind: normal-monster, controller: A, atk: 2000}
  Defender: {kind: normal-monster, controller: B, atk: 1000}
  Blast:
    kind: normal-trap
    controller: B
    set: earlier-turn
    when: {destroyed: {card: monster, controller: you, zone: graveyard}}
    effect: {destroy: all-monsters, of: opponent}
history:
  - A attacks Defender with Attacker
claims: []
"""
    assert decided(tmp_path, text, 'exists activates(B, "Blast")', engine)[0] == "fails"
    assert decided(tmp_path, text, 'exists destroyed_by_battle("Defender")', engine)[0] == "holds"
