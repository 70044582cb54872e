"""A card chosen as an effect resolves (``chosen``); the filters on Attribute, Type, DEF and a
direct attack.

The golden examples are ``examples/yugioh/special-summon-from-the-deck.yaml`` (a floater)
and ``examples/yugioh/foolish-burial-ash-blossom.yaml``; here the choice in both engines
(made as the effect resolves, among the cards that fit then; none when nothing fits or the
effect does not apply), the rule that a card cannot be activated with nothing to choose,
Ash Blossom's "from the Deck", the history's "(choosing X)", and every error of the keys.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run, bad_input

Decide = Callable[..., str]

BOARD = """\
rules: yugioh
turn: A
cards:
  Burial:
    kind: normal-spell
    controller: A
    zone: hand
    effect: {send-to-graveyard: chosen, filter: {card: monster, zone: deck, controller: you, FILTER}}
  Dark Guy: {kind: normal-monster, controller: A, zone: deck, attribute: dark, monster-type: fiend, def: 600}
  Light Guy: {kind: normal-monster, controller: A, zone: deck, attribute: light, monster-type: fairy, def: 2500}
  Foe Guy: {kind: normal-monster, controller: B, zone: deck, attribute: dark, monster-type: fiend, def: 600}
  Jammer:
    kind: counter-trap
    controller: B
    set: earlier-turn
    when: {activates: spell}
    effect: {negate: activation}
history:
  - A activates Burial
"""


def board(flt: str = "card: monster") -> str:
    return BOARD.replace(
        "card: monster, zone: deck, controller: you, FILTER", f"zone: deck, controller: you, {flt}"
    )


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_card_is_chosen_among_those_that_fit_as_it_resolves(
    decide: Decide, engine: str
) -> None:
    text = board("card: monster")
    assert decide(text, 'exists zone("Dark Guy") == graveyard', engine) == "holds"
    assert decide(text, 'exists zone("Light Guy") == graveyard', engine) == "holds"
    # "your Deck": never the opponent's card; one card, never both.
    assert decide(text, 'always zone("Foe Guy") == deck', engine) == "holds"
    both = 'exists (zone("Dark Guy") == graveyard and zone("Light Guy") == graveyard)'
    assert decide(text, both, engine) == "fails"
    # Resolved, it sends one of them: choosing none is not a choice while one fits.
    sent = (
        'always (not resolves("Burial") or zone("Dark Guy") == graveyard or '
        'zone("Light Guy") == graveyard)'
    )
    assert decide(text, sent, engine) == "holds"
    # Negated, it chooses nothing.
    negated = 'always (not activates("Jammer") or zone("Dark Guy") == deck)'
    assert decide(text, negated, engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("flt", "dark", "light"),
    [
        ("attribute: dark", "holds", "fails"),
        ("attribute: [light, earth]", "fails", "holds"),
        ("monster-type: fairy", "fails", "holds"),
        ("monster-type: [fiend, zombie]", "holds", "fails"),
        ("def-at-most: 1000", "holds", "fails"),
        ("def-at-least: 1000", "fails", "holds"),
    ],
)
def test_attribute_type_and_def_filters(
    decide: Decide, engine: str, flt: str, dark: str, light: str
) -> None:
    text = board(f"card: monster, {flt}")
    assert decide(text, 'exists zone("Dark Guy") == graveyard', engine) == dark
    assert decide(text, 'exists zone("Light Guy") == graveyard', engine) == light


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_nothing_to_choose_nothing_to_activate(decide: Decide, engine: str) -> None:
    # Under activation_needs_effect (Yu-Gi-Oh!'s default), a card whose only effect would
    # choose among no card cannot be activated.
    text = board("card: monster, attribute: wind").replace("history:\n  - A activates Burial\n", "")
    assert decide(text, 'can_activate(A, "Burial")', engine) == "fails"
    assert (
        decide(
            board("card: monster").replace("history:\n  - A activates Burial\n", ""),
            'can_activate(A, "Burial")',
            engine,
        )
        == "holds"
    )


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_ash_blossom_answers_a_choice_from_the_deck_only(decide: Decide, engine: str) -> None:
    hand_trap = (
        "  Ash:\n    kind: effect-monster\n    controller: B\n    zone: hand\n"
        "    ability:\n      type: quick\n      from: hand\n"
        "      when: {activates: spell, includes: [WHAT]}\n"
        "      cost: {discard: this}\n      effect: {negate: effect}\n"
    )
    for what, verdict in (
        ("send-to-graveyard from deck", "holds"),
        ("send-to-graveyard from graveyard", "fails"),
        ("send-to-graveyard", "holds"),
        ("special-summon from deck", "fails"),
    ):
        text = board().replace("history:", hand_trap.replace("WHAT", what) + "history:")
        assert decide(text, 'can_activate(B, "Ash")', engine) == verdict, what


def test_the_trace_says_what_was_chosen(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = (
        board("card: monster, attribute: dark")
        + 'claims:\n  - claim: exists zone("Dark Guy") == graveyard\n'
    )
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 0, result
    assert "Chain Link 1: Burial resolves, choosing Dark Guy" in result.out


def _history(choice: str) -> str:
    return (
        board()
        + f"  - the chain resolves{choice}\n"
        + 'claims:\n  - claim: zone("Light Guy") == graveyard\n'
    )


def test_a_history_names_the_card_chosen(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("check", str(write("s.yaml", _history(" (choosing Light Guy)"))))
    assert result.code == 0, result
    assert "holds" in result.out
    result = run("check", str(write("t.yaml", _history(" (choosing Dark Guy)"))))
    assert result.code == 0, result
    assert "fails" in result.out  # the other one was sent


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        (
            "",
            "its effect chooses a card as it resolves; write 'the chain resolves (choosing CARD)', one of: Dark Guy, Light Guy",
        ),
        (
            " (choosing Foe Guy)",
            "Foe Guy cannot be chosen: it does not fit the effect as it resolves",
        ),
        (" (choosing Nobody)", "unknown card 'Nobody'"),
    ],
    ids=["unsaid", "does-not-fit", "unknown"],
)
def test_a_history_that_does_not_say_a_legal_choice_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path], choice: str, message: str
) -> None:
    path = write("s.yaml", _history(choice))
    lines = bad_input(run, path)
    assert message in lines[0], lines
    assert lines[0].startswith(f"{path}:")
    assert "the chain resolves" in lines[1]


def test_a_history_choosing_where_nothing_chooses_is_refused(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = _history(" (choosing Light Guy)").replace(
        "{send-to-graveyard: chosen, filter: {zone: deck, controller: you, card: monster}}",
        "{draw: 1}",
    )
    lines = bad_input(run, write("s.yaml", text))
    assert "no effect chose Light Guy as it resolved" in lines[0], lines


def _located(
    run: Callable[..., Run], path: Path, text: str, key: str, message: str, line_no: int
) -> None:
    lines = bad_input(run, path)
    line = text.splitlines()[line_no - 1]
    column = line.index(key) + 1
    assert lines[0] == f"{path}:{line_no}:{column}: error: {message}", lines
    assert lines[1].strip() == line.strip()
    assert lines[2] == " " * (column + 3) + "^"


def test_chosen_needs_a_filter(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        "  Burial: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: chosen}}\n"
        "claims:\n  - claim: can_respond(B)\n"
    )
    _located(
        run,
        write("s.yaml", text),
        text,
        "{destroy",
        "'chosen' needs a 'filter': the cards its controller may choose from",
        4,
    )


def test_chosen_is_refused_where_effects_resolve_as_they_are_activated(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = (
        "rules: cmc\nturn: A\ncards:\n"
        "  Burial: {kind: spell, controller: A, zone: hand, speed: S, "
        "effect: {destroy: chosen, filter: {card: card}}}\n"
        "claims:\n  - claim: can_respond(B)\n"
    )
    lines = bad_input(run, write("s.yaml", text))
    assert "'chosen' (a card chosen as the effect resolves) is not supported under" in lines[0]


def test_an_unknown_zone_in_includes(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        "  Ash:\n    kind: effect-monster\n    controller: B\n    zone: hand\n"
        "    ability:\n      type: quick\n      from: hand\n"
        "      when: {activates: spell, includes: [special-summon from dek]}\n"
        "      effect: {negate: effect}\n"
        "claims:\n  - claim: can_respond(B)\n"
    )
    lines = bad_input(run, write("s.yaml", text))
    assert "error: unknown zone 'dek' in 'includes' (zones: deck, hand, field" in lines[0], lines


@pytest.mark.parametrize(
    ("key", "said"), [("attribute: dark", "an Attribute"), ("monster-type: fiend", "a Type")]
)
def test_only_a_monster_has_an_attribute_or_a_type(
    run: Callable[..., Run], write: Callable[[str, str], Path], key: str, said: str
) -> None:
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        f"  Pot: {{kind: normal-spell, controller: A, zone: hand, {key}, effect: {{draw: 1}}}}\n"
        "claims:\n  - claim: can_respond(B)\n"
    )
    value = key.split(": ")[1]
    _located(run, write("s.yaml", text), text, value, f"only a monster has {said}", 4)


def test_an_unknown_attribute(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        "  Guy: {kind: normal-monster, controller: A, attribute: shadow}\n"
        "claims:\n  - claim: can_respond(B)\n"
    )
    lines = bad_input(run, write("s.yaml", text))
    assert "unknown value 'shadow' for 'attribute'" in lines[0], lines


FADER = """\
rules: yugioh
turn: A
step: battle-step
until: battle
cards:
  Elf: {kind: normal-monster, controller: A, level: 4, atk: 1900, def: 900}
  Wall: {kind: normal-monster, controller: B, zone: WHERE, level: 4, atk: 0, def: 2000}
  Fader:
    kind: effect-monster
    controller: B
    zone: hand
    atk: 0
    ability:
      type: trigger
      from: hand
      trigger: {event: attack-declared, card: {card: monster, controller: opponent, direct: DIRECT}}
      optional: true
      wording: when
      effect: [{special-summon: this-card}, {end-battle-phase: true}]
history:
  - A attacks AIM with Elf
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("aim", "direct", "verdict"),
    [("directly", "true", "holds"), ("Wall", "true", "fails"), ("Wall", "false", "holds")],
)
def test_a_direct_attack_filter(
    decide: Decide, engine: str, aim: str, direct: str, verdict: str
) -> None:
    where = "hand" if aim == "directly" else "field"
    text = FADER.replace("WHERE", where).replace("DIRECT", direct).replace("AIM", aim)
    # "When an opponent's monster declares a direct attack": not an attack on a monster.
    claim = 'can_activate(B, "Fader")'
    assert decide(text, claim, engine) == verdict
