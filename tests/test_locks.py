"""Locks and protections (cannot-activate, unaffected, untargetable, cannot-be-negated) and
effect parts that happen at the same time (simultaneous): their rules, in both engines, and
the errors of their keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

# -- the errors of the new keys ---------------------------------------------------------------

BASE = """\
rules: yugioh
turn: A
cards:
  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: EFFECT}
  Lock: {kind: continuous-trap, controller: B, zone: field, face: up, continuous: CONT}
claims:
  - claim: can_respond(B)
    expect: holds
"""


def _scenario(effect: str = "{draw: 1}", cont: str = "{cannot-activate: spell}") -> str:
    return BASE.replace("EFFECT", effect).replace("CONT", cont)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        pytest.param(
            _scenario(effect="[{destroy: all-monsters, simultaneous: true}]"),
            "4:93: error: 'simultaneous' joins a part to the part before it; the first part "
            "has none",
            93,
            id="simultaneous-first-part",
        ),
        pytest.param(
            _scenario(
                effect="{coin-toss: 1, heads-at-least: 1, then: [{draw: 1, simultaneous: true}]}"
            ),
            "4:119: error: 'simultaneous' joins a part to the part before it; the first part "
            "has none",
            119,
            id="simultaneous-first-part-of-then",
        ),
        pytest.param(
            _scenario(cont="{negate-effects: spells, by: opponent}"),
            "5:108: error: 'by' goes with cannot-activate, unaffected or untargetable",
            108,
            id="by-on-a-negation",
        ),
        pytest.param(
            _scenario(cont="{unaffected: spells, by: you}"),
            "5:108: error: unaffected protects from the opponent's effects or anyone's: 'by' "
            "takes opponent or any",
            108,
            id="unaffected-by-you",
        ),
        pytest.param(
            _scenario(cont="[{untargetable: this, by: you}]"),
            "5:109: error: untargetable protects from the opponent's effects or anyone's: 'by' "
            "takes opponent or any",
            109,
            id="untargetable-by-you",
        ),
        pytest.param(
            _scenario(cont="{cannot-activate: []}"),
            "5:101: error: cannot-activate needs at least one kind (spell, trap, "
            "monster-effect, spell-trap, card)",
            101,
            id="cannot-activate-nothing",
        ),
        pytest.param(
            _scenario(cont="{unaffected: []}"),
            "5:96: error: unaffected needs at least one kind (spells, traps, monsters, "
            "other-cards)",
            96,
            id="unaffected-by-nothing",
        ),
        pytest.param(
            _scenario(cont="{cannot-activate: spell, unaffected: traps}"),
            "5:83: error: a continuous effect takes exactly one of negate-effects, bind, "
            "cannot-activate, unaffected, untargetable; got cannot-activate and unaffected",
            83,
            id="two-continuous-effects-in-one",
        ),
        pytest.param(
            _scenario(cont="{unaffected: magic}"),
            "5:96: error: unknown value 'magic' for 'unaffected' (expected 'spells', 'traps', "
            "'monsters' or 'other-cards' or a list)",
            96,
            id="unaffected-unknown-kind",
        ),
    ],
)
def test_bad_locks_are_located_errors(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    text: str,
    message: str,
    column: int,
) -> None:
    result = run("check", str(write("s.yaml", text)))
    assert result.code == 2
    assert "Traceback" not in result.err
    lines = result.err.splitlines()
    assert lines[0] == f"{write('s.yaml', text)}:{message}"
    assert lines[2] == " " * (column + 3) + "^"


def test_an_untargetable_filter_that_fits_no_card_is_fine(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = _scenario(cont="{untargetable: {card: monster, atk-at-least: 5000}}")
    assert run("check", str(write("s.yaml", text))).code == 1  # loads; B cannot respond


# -- cannot-activate ----------------------------------------------------------------------

LOCKED = """\
rules: yugioh
turn: A
cards:
  Banner: {kind: continuous-spell, controller: A, zone: field, face: up}
  Lock:
    kind: continuous-trap
    controller: B
    zone: field
    face: up
    continuous: {cannot-activate: KINDS, by: BY}
  Dust Tornado:
    kind: normal-trap
    controller: B
    set: earlier-turn
    target: {card: spell-trap, zone: field, controller: opponent}
    effect: {destroy: target}
  Shrink:
    kind: quick-play-spell
    controller: B
    set: earlier-turn
    effect: {draw: 1}
"""


EITHER = 'exists (activates(B, "Shrink") or activates(B, "Dust Tornado"))'


@pytest.mark.full
@pytest.mark.parametrize(
    ("kinds", "by", "claim", "verdict"),
    [
        ("trap", "any", 'can_activate(B, "Dust Tornado")', "fails"),
        ("trap", "any", 'can_activate(B, "Shrink")', "holds"),
        ("trap", "opponent", 'can_activate(B, "Dust Tornado")', "holds"),
        ("trap", "you", 'can_activate(B, "Dust Tornado")', "fails"),
        ("spell", "any", 'can_activate(B, "Shrink")', "fails"),
        ("[spell, trap]", "you", EITHER, "fails"),
        ("card", "any", EITHER, "fails"),
        ("monster-effect", "any", EITHER, "holds"),
    ],
)
def test_cannot_activate(
    decide: Callable[..., str], kinds: str, by: str, claim: str, verdict: str
) -> None:
    text = LOCKED.replace("KINDS", kinds).replace("BY", by)
    assert decide(text, claim) == verdict
    if kinds == "trap":  # the SMT engine on a few (the differential tests do the rest)
        assert decide(text, claim, "smt") == verdict


def test_a_lock_set_face_down_applies_only_once_its_activation_resolved(
    decide: Callable[..., str],
) -> None:
    text = LOCKED.replace("KINDS", "trap").replace("BY", "any")
    text = text.replace("    zone: field\n    face: up\n", "    set: earlier-turn\n")
    # Chained as a Trap itself, the lock is not live yet: Dust Tornado may follow it.
    assert decide(text, 'exists (activates(B, "Lock") and activates(B, "Dust Tornado"))') == (
        "holds"
    )


TRIGGER_LOCKED = """\
rules: yugioh
turn: A
cards:
  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters, of: opponent}}
  Sangan:
    kind: effect-monster
    controller: B
    ability:
      type: trigger
      trigger: {event: sent-to-graveyard, from: field}
      effect: {draw: 1}
  Lock:
    kind: continuous-spell
    controller: A
    zone: field
    face: up
    continuous: {cannot-activate: monster-effect, by: opponent}
history:
  - A activates Raigeki
"""


def test_a_locked_mandatory_trigger_is_not_activated(decide: Callable[..., str]) -> None:
    claim = 'triggers("Sangan") and not activates(B, "Sangan") and cards_drawn(B) == 0'
    assert decide(TRIGGER_LOCKED, claim) == "holds"
    assert decide(TRIGGER_LOCKED, claim, "smt") == "holds"


@pytest.mark.full
def test_why_names_the_lock(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    path = write("s.yaml", LOCKED.replace("KINDS", "trap").replace("BY", "any"))
    result = run("why", str(path), "B activates Dust Tornado targeting Banner")
    assert result.code == 0
    assert "(lock.cannot-activate)" in result.out


# -- untargetable ---------------------------------------------------------------------------

TARGETED = """\
rules: yugioh
turn: A
cards:
  Pot of Greed: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 2}}
  Guardian:
    kind: effect-monster
    controller: A
    atk: 1000
    continuous: {untargetable: WHAT, by: BY}
  Blue-Eyes White Dragon: {kind: normal-monster, controller: A, atk: 3000}
  Book of Moon:
    kind: quick-play-spell
    controller: CTRL
    set: earlier-turn
    target: {card: monster, zone: field, face: up}
    effect: {flip-face-down: target}
history:
  - A activates Pot of Greed
"""


@pytest.mark.full
@pytest.mark.parametrize(
    ("what", "by", "ctrl", "target", "verdict"),
    [
        ("this", "any", "B", "Guardian", "fails"),
        ("this", "any", "B", "Blue-Eyes White Dragon", "holds"),
        ("this", "opponent", "A", "Guardian", "holds"),
        ("this", "opponent", "B", "Guardian", "fails"),
        (
            "{card: monster, atk-at-least: 2000, controller: you}",
            "any",
            "B",
            "Blue-Eyes White Dragon",
            "fails",
        ),
        ("{card: monster, atk-at-least: 2000, controller: you}", "any", "B", "Guardian", "holds"),
    ],
)
def test_untargetable(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    what: str,
    by: str,
    ctrl: str,
    target: str,
    verdict: str,
) -> None:
    text = TARGETED.replace("WHAT", what).replace("BY", by).replace("CTRL", ctrl)
    path = write("s.yaml", text)
    sentence = f"{ctrl} activates Book of Moon targeting {target}"
    result = run("why", str(path), sentence)  # the SMT engine
    assert result.code == 0
    legal = "can activate Book of Moon" in result.out
    assert legal == (verdict == "holds"), result.out
    if not legal:
        assert "(lock.untargetable)" in result.out


# -- unaffected -----------------------------------------------------------------------------

UNAFFECTED = """\
rules: yugioh
turn: A
cards:
  Spell:
    kind: quick-play-spell
    controller: SIDE
    zone: hand
    target: {card: monster, zone: field}
    effect: EFFECT
  Tribute Fodder: {kind: normal-monster, controller: SIDE, atk: 100}
  Magician:
    kind: effect-monster
    controller: B
    atk: 3500
    continuous: {unaffected: spells, by: opponent}
history:
  - SIDE activates Spell targeting Magician
claims:
  - claim: resolves("Spell")
    expect: holds
"""


@pytest.mark.parametrize(
    ("effect", "claim"),
    [
        ("{destroy: target}", 'zone("Magician") == field'),
        ("{banish: target}", 'zone("Magician") == field'),
        ("{send-to-graveyard: target}", 'zone("Magician") == field'),
        ("{return-to-hand: target}", 'zone("Magician") == field'),
        ("{take-control: target}", 'controller("Magician") == B'),
        ("{change-atk: {on: target, by: -1000}}", 'atk("Magician") == 3500'),
        ("{destroy: all-monsters}", 'zone("Magician") == field'),
    ],
)
def test_unaffected_in_every_verb_family(
    decide: Callable[..., str], effect: str, claim: str
) -> None:
    mine = UNAFFECTED.replace("EFFECT", effect).replace("SIDE", "A")
    full = f'resolves("Spell") and {claim}'
    assert decide(mine, full) == "holds"
    if effect.startswith(("{destroy: target", "{change-atk")):
        assert decide(mine, full, "smt") == "holds"
    if "take-control" in effect:
        return  # its controller taking control of it changes nothing
    # Its controller's own Spell is not an opponent's: it applies.
    own = UNAFFECTED.replace("EFFECT", effect).replace("SIDE", "B").replace("turn: A", "turn: B")
    assert decide(own, f"not ({claim})") == "holds"


def test_flip_face_down_does_not_reach_an_unaffected_card(decide: Callable[..., str]) -> None:
    text = UNAFFECTED.replace("EFFECT", "{flip-face-down: target}").replace("SIDE", "A")
    text += """  - claim: exists activates(B, "Later")
    expect: holds
"""
    # Left face-up, it can still be targeted by a face-up-only effect afterwards.
    text = text.replace(
        "history:",
        "  Later:\n    kind: quick-play-spell\n    controller: B\n    set: earlier-turn\n"
        "    target: {card: monster, zone: field, face: up, controller: you}\n"
        "    effect: {draw: 1}\n  Tribute Fodder B: {kind: normal-monster, controller: B, "
        "atk: 100, zone: graveyard}\nhistory:",
    )
    assert decide(text, 'resolves("Spell") and exists activates(B, "Later")') == "holds"


SKILL_DRAIN = """\
rules: yugioh
turn: A
cards:
  Pot of Greed: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 2}}
  Skill Drain: {kind: continuous-trap, controller: A, zone: field, face: up, continuous: {negate-effects: monsters}}
  Lancer:
    kind: effect-monster
    controller: B
    continuous: PROTECTION
    ability: {type: quick, once: turn, effect: {draw: 1}}
history:
  - A activates Pot of Greed
  - B activates Lancer
"""


@pytest.mark.full
@pytest.mark.parametrize(
    ("protection", "negated"),
    [
        ("{unaffected: traps}", False),
        ("{unaffected: spells}", True),
        ("{unaffected: other-cards, by: opponent}", False),
    ],
)
def test_a_continuous_negation_does_not_reach_an_unaffected_card(
    decide: Callable[..., str], protection: str, negated: bool
) -> None:
    text = SKILL_DRAIN.replace("PROTECTION", protection)
    claim = 'negated("Lancer")' if negated else 'not negated("Lancer") and cards_drawn(B) == 1'
    assert decide(text, claim) == "holds"
    assert decide(text, claim, "smt") == "holds"


# -- cannot be negated ----------------------------------------------------------------------

NEGATION = """\
rules: yugioh
turn: A
cards:
  Pot of Greed:
    kind: normal-spell
    controller: A
    zone: hand
    cannot-be-negated: FLAG
    effect: {draw: 2}
  Stopper:
    kind: counter-trap
    controller: B
    set: earlier-turn
    when: {activates: spell}
    effect: {negate: WHAT}
history:
  - A activates Pot of Greed
  - B activates Stopper
"""


@pytest.mark.full
@pytest.mark.parametrize("what", ["activation", "effect"])
@pytest.mark.parametrize("flag", ["true", "false"])
def test_cannot_be_negated(decide: Callable[..., str], what: str, flag: str) -> None:
    text = NEGATION.replace("WHAT", what).replace("FLAG", flag)
    claim = 'resolves("Pot of Greed") and cards_drawn(A) == 2 and not negated("Pot of Greed")'
    if flag == "false":
        claim = 'negated("Pot of Greed") and cards_drawn(A) == 0'
    assert decide(text, claim) == "holds"
    assert decide(text, claim, "smt") == "holds"


def test_an_ability_that_cannot_be_negated(decide: Callable[..., str]) -> None:
    text = """\
rules: yugioh
turn: A
cards:
  Lancer:
    kind: effect-monster
    controller: A
    ability: {type: quick, once: turn, cannot-be-negated: true, effect: {draw: 1}}
  Skill Drain: {kind: continuous-trap, controller: B, zone: field, face: up, continuous: {negate-effects: monsters}}
history:
  - A activates Lancer
"""
    assert decide(text, 'not negated("Lancer") and cards_drawn(A) == 1') == "holds"
    assert decide(text, 'not negated("Lancer") and cards_drawn(A) == 1', "smt") == "holds"


# -- simultaneous parts ---------------------------------------------------------------------

PARTS = """\
rules: yugioh
turn: A
cards:
  Double Blast:
    kind: normal-spell
    controller: A
    zone: hand
    effect: [{destroy: all-monsters, of: opponent}, {send-to-graveyard: all-spells-traps, of: opponent, SIMULTANEOUS}]
  When Clown:
    kind: effect-monster
    controller: B
    ability: {type: trigger, trigger: {event: destroyed}, optional: true, wording: when, effect: {draw: 1}}
  When Lamp:
    kind: continuous-spell
    controller: B
    zone: field
    face: up
  Lamp Watcher:
    kind: effect-monster
    controller: A
    ability:
      type: trigger
      trigger: {event: sent-to-graveyard, card: {card: spell, controller: opponent}, from: field}
      optional: true
      wording: when
      effect: {draw: 1}
history:
  - A activates Double Blast
"""


@pytest.mark.full
def test_a_then_part_makes_a_when_trigger_miss_the_timing(decide: Callable[..., str]) -> None:
    text = PARTS.replace(", SIMULTANEOUS", "")
    claim = 'misses_timing("When Clown") and not misses_timing("Lamp Watcher")'
    assert decide(text, 'triggers("When Clown") and ' + claim) == "holds"
    assert decide(text, claim, "smt") == "holds"


@pytest.mark.full
def test_simultaneous_parts_are_one_event_and_one_segoc_chain(
    decide: Callable[..., str],
) -> None:
    text = PARTS.replace("SIMULTANEOUS", "simultaneous: true")
    claim = 'not misses_timing("When Clown") and not misses_timing("Lamp Watcher")'
    assert decide(text, claim) == "holds"
    assert decide(text, claim, "smt") == "holds"
    # Both triggers go on one chain, SEGOC: the turn player's optional trigger first.
    assert decide(text, 'exists segoc_order == ["Lamp Watcher", "When Clown"]') == "holds"
    assert decide(text, 'exists segoc_order == ["When Clown", "Lamp Watcher"]') == "fails"


@pytest.mark.slow
def test_simultaneous_parts_one_segoc_chain_smt(decide: Callable[..., str]) -> None:
    text = PARTS.replace("SIMULTANEOUS", "simultaneous: true")
    assert decide(text, 'exists segoc_order == ["Lamp Watcher", "When Clown"]', "smt") == "holds"
