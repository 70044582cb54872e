"""Magic: The Gathering through the seam: its rule-system parameters, their errors, and what
the traces say; the examples themselves are golden tests (tests/test_examples.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, MODELS, Run, bad_input

MTG = (MODELS / "mtg.yaml").read_text(encoding="utf-8")

BOLT = """rules: mtg
turn: A
life-points: 20
cards:
  Grizzly Bears: {kind: creature, controller: B, power: 2, toughness: 2}
  Lightning Bolt:
    kind: instant
    controller: A
    target: {card: monster, zone: field}
    effect: {damage: {amount: 3, to: target}}
  Counterspell:
    kind: instant
    controller: B
    target: {card: spell, zone: stack}
    effect: {counterspell: target}
history:
  - A casts Lightning Bolt targeting Grizzly Bears
claims:
  - claim: priority == A
    expect: holds
"""


def _error(run: Callable[..., Run], path: Path) -> str:
    return bad_input(run, path)[0]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "  order: backwards ",
            "  order: [speed, cast-order] ",
            "error: mode 'one-at-a-time' resolves the top of the stack: it needs order 'backwards'",
        ),
        (
            "cleanup: on-resolution ",
            "cleanup: on-resolution\nresolution_: x ",
            "error: unknown key 'resolution_'",
        ),
        (
            "  mode: one-at-a-time ",
            "  mode: whole-chain ",
            "error: cleanup 'on-resolution' needs resolution mode 'one-at-a-time'",
        ),
        (
            "game: mtg",
            "game: cmc",
            "error: CMC has no",
        ),
        (
            "  right_to_respond: caster-keeps  # 117.3c: a player who casts a spell receives "
            "priority\n  closes_on: two-passes-in-a-row",
            "  right_to_respond: anyone\n  closes_on: both-press-resolve",
            "error: mode 'one-at-a-time' gives priority after each resolution: it needs "
            "closes_on 'two-passes-in-a-row'",
        ),
        (
            "life_below_zero: true ",
            "life_below_zero: maybe ",
            "error: wrong type for 'life_below_zero'",
        ),
        (
            "  placed: next-priority ",
            "  placed: later ",
            "error: unknown value 'later' for 'placed'",
        ),
    ],
    ids=[
        "one-at-a-time-order",
        "unknown-key",
        "on-resolution-mode",
        "other-game",
        "presses",
        "life-below-zero-type",
        "placed-value",
    ],
)
def test_model_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path], old: str, new: str, message: str
) -> None:
    assert old in MTG
    model = write("bad.yaml", MTG.replace(old, new, 1))
    result = run("lint", str(model))
    assert result.code == 2, result
    assert "Traceback" not in result.err
    assert message in result.err.splitlines()[0]


def test_combat_needs_a_combat_damage_step(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    cmc = (MODELS / "cmc.yaml").read_text(encoding="utf-8")
    model = write("bad.yaml", cmc + "combat: {damage: stack}\n")
    result = run("lint", str(model))
    assert result.code == 2
    assert "error: CMC has no combat damage step" in result.err


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "{kind: creature, controller: B, power: 2, toughness: 2}",
            "{kind: creature, controller: B, blocking: Lightning Bolt}",
            "error: 'Lightning Bolt' is not attacking",
        ),
        (
            "{kind: creature, controller: B, power: 2, toughness: 2}",
            "{kind: creature, controller: B, blocking: Nobody}",
            "error: unknown card 'Nobody'",
        ),
        (
            "{kind: creature, controller: B, power: 2, toughness: 2}",
            "{kind: creature, controller: B, zone: hand, attacking: true}",
            "error: only a creature on the battlefield has 'attacking'",
        ),
        (
            "    effect: {counterspell: target}",
            "    effect: {counterspell: target}\n    ability: {type: triggered, trigger: "
            "{event: step-begins}}",
            "error: a spell card is activated as a whole",
        ),
        (
            "{kind: creature, controller: B, power: 2, toughness: 2}",
            "{kind: creature, controller: B, ability: {type: triggered, trigger: "
            "{event: step-begins}, effect: {draw: 1}}}",
            "error: event 'step-begins' and 'step' go together",
        ),
        (
            "{kind: creature, controller: B, power: 2, toughness: 2}",
            "{kind: creature, controller: B, ability: {type: triggered, trigger: "
            "{event: step-begins, step: lunch}, effect: {draw: 1}}}",
            "lunch",
        ),
        (
            "{kind: creature, controller: B, power: 2, toughness: 2}",
            "{kind: creature, controller: B, split-second: true}",
            "error: a monster's effects go under 'ability' or 'abilities'",
        ),
        (
            "    effect: {counterspell: target}",
            "    effect: {counterspell: target}\n    cost: {tribute: {card: monster, zone: "
            "graveyard}}",
            "error: a Tributed (sacrificed) card comes from the field",
        ),
    ],
    ids=[
        "blocks-a-non-attacker",
        "blocks-unknown",
        "attacks-from-hand",
        "spell-with-ability",
        "step-begins-without-step",
        "unknown-step",
        "creature-split-second",
        "sacrifice-from-graveyard",
    ],
)
def test_scenario_errors(
    run: Callable[..., Run], write: Callable[[str, str], Path], old: str, new: str, message: str
) -> None:
    assert old in BOLT
    path = write("s.yaml", BOLT.replace(old, new, 1))
    assert message in _error(run, path)


def test_combat_keys_need_a_rule_system_with_combat(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    model = write("nocombat.yaml", MTG.replace("combat:\n  damage: dealt", "", 1))
    text = BOLT.replace("rules: mtg", f"rules: {model}").replace(
        "power: 2, toughness: 2}", "attacking: true}"
    )
    path = write("s.yaml", text)
    assert "error: mtg has no combat ('attacking')" in _error(run, path)


def test_damage_on_the_stack_needs_a_trigger_kind(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    variant = (MODELS / "mtg-damage-on-the-stack.yaml").read_text(encoding="utf-8")
    variant = variant.replace("  triggered:   {effect: true, speed: instant, trigger: true}", "")
    model = write("notrig.yaml", variant)
    text = BOLT.replace("rules: mtg", f"rules: {model}").replace(
        "power: 2, toughness: 2}", "attacking: true}"
    )
    path = write("s.yaml", text)
    assert "puts combat damage on the stack: it needs a trigger kind" in _error(run, path)


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_counterspell_removes_its_target_from_the_stack_at_once(
    run: Callable[..., Run], write: Callable[[str, str], Path], engine: str
) -> None:
    path = write("s.yaml", BOLT)
    asks = {
        'exists countered("Lightning Bolt")': "holds",
        'exists after_link(2) zone("Lightning Bolt") == graveyard': "holds",
        'always after_link(2) zone("Lightning Bolt") != stack': "fails",  # B may not counter
        'exists zone("Grizzly Bears") == graveyard': "holds",
        'exists resolves("Lightning Bolt") and countered("Counterspell")': "fails",
        "exists after_link(2) stack == []": "holds",
        'exists after_link(2) stack == ["Lightning Bolt"]': "fails",  # countered: gone at once
        "stack == []": "holds",
    }
    for claim, verdict in asks.items():
        result = run("ask", "--engine", engine, str(path), claim)
        assert result.out.splitlines()[1].split()[0] == verdict, (claim, result.out)


def test_traces_speak_magic(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    path = write("s.yaml", BOLT + '  - claim: exists countered("Lightning Bolt")\n')
    out = run("check", str(path)).out
    assert "A casts Lightning Bolt targeting Grizzly Bears (onto the stack)" in out
    assert "B casts Counterspell targeting Lightning Bolt (onto the stack)" in out
    assert "all players passed in succession: the top object of the stack resolves" in out
    assert "Lightning Bolt is countered" in out
    assert "Lightning Bolt goes to its owner's graveyard" in out


def test_the_stack_has_no_chain_number(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", BOLT)
    result = run("ask", str(path), "chain(1).stack == []")
    assert result.code == 2
    assert "error: the stack has no chain number: write 'stack == [...]'" in result.err


def test_nobody_may_act_in_the_untap_step_and_why_says_so(run: Callable[..., Run]) -> None:
    path = EXAMPLES / "mtg" / "no-priority-in-the-untap-step.yaml"
    result = run("why", str(path), "B casts Giant Growth targeting Grizzly Bears")
    assert result.code == 0, result
    assert "no player receives priority in the untap step (CR 502.4)" in result.out
    assert "(timing.no-priority)" in result.out


@pytest.mark.full
def test_a_sacrifice_filter_means_a_creature_you_control(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    # Without saying whose, a sacrificed creature is its player's own (CR 701.17a); a filter
    # that says "opponent" is taken at its word.
    text = BOLT.replace(
        "    effect: {damage: {amount: 3, to: target}}",
        "    effect: {damage: {amount: 3, to: target}}\n    cost: {tribute: {card: monster}}",
    ).replace("  - claim: priority == A\n    expect: holds\n", "")
    text = text.replace("history:\n  - A casts Lightning Bolt targeting Grizzly Bears\n", "")
    text = text.replace(
        "cards:\n", "cards:\n  Hill Giant: {kind: creature, controller: B, toughness: 3}\n"
    )
    own = write("own.yaml", text + '  - claim: can_activate(A, "Lightning Bolt")\n')
    assert "fails    decided" in run("check", str(own), "--engine", "both").out
    theirs = write(
        "theirs.yaml",
        text.replace(
            "{tribute: {card: monster}}", "{tribute: {card: monster, controller: opponent}}"
        )
        + '  - claim: can_activate(A, "Lightning Bolt")\n',
    )
    assert "holds    decided" in run("check", str(theirs), "--engine", "both").out


def test_magic_words_for_zones_and_card_types(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    # battlefield, exile, library and creature are Magic's words for the field, banished,
    # the deck and a monster: in cards, filters and claims alike.
    text = BOLT.replace(
        "{kind: creature, controller: B, power: 2, toughness: 2}",
        "{kind: creature, controller: B, power: 2, toughness: 2, zone: battlefield}\n"
        "  Exiled Elf: {kind: creature, controller: B, zone: exile}",
    ).replace("target: {card: monster, zone: field}", "target: {card: creature, zone: battlefield}")
    text = text.replace(
        "  - claim: priority == A\n    expect: holds\n",
        '  - claim: exists zone("Grizzly Bears") == graveyard and zone("Exiled Elf") == exile\n'
        "    expect: holds\n"
        '  - claim: always zone("Grizzly Bears") == battlefield\n'
        "    expect: fails\n",
    )
    result = run("check", str(write("words.yaml", text)), "--engine", "both")
    assert result.code == 0, result
    assert "2 claim(s) in 1 file(s): 2 as expected" in result.out


@pytest.mark.parametrize(
    ("card", "claim", "message"),
    [
        (
            "Giant: {kind: normal-monster, controller: B, zone: battlefield}",
            "",
            "error: Yu-Gi-Oh! Trading Card Game has no battlefield zone (its zones: banished, "
            "deck, field, graveyard, hand)",
        ),
        (
            "Hole: {kind: normal-trap, controller: A, set: earlier-turn, target: {card: "
            "creature}, effect: {destroy: target}}",
            "",
            "error: Yu-Gi-Oh! Trading Card Game has no card type 'creature' (card types: "
            "monster, spell, trap, spell-trap, card)",
        ),
        (
            "Giant: {kind: normal-monster, controller: B}",
            'claims:\n  - claim: zone("Giant") == battlefield\n',
            "error: unknown zone 'battlefield' (zones: deck, hand, field, graveyard, banished)",
        ),
    ],
    ids=["zone", "card-type", "claim-zone"],
)
def test_magic_words_are_not_yugiohs(
    run: Callable[..., Run], write: Callable[[str, str], Path], card: str, claim: str, message: str
) -> None:
    text = f"rules: yugioh\nturn: A\ncards:\n  {card}\n{claim}"
    assert message in _error(run, write("s.yaml", text))
