"""The turn and the Battle Phase: moves, steps, limits as parameters, and every error kind."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import pytest

from tests.conftest import MODELS, ROOT, Run, bad_input
from verifier.engines.explore import explore
from verifier.io.scenario import load_scenario
from verifier.rules.rulebook import RULES
from verifier.run.check import prepare

BATTLE = """\
rules: yugioh
turn: A
step: battle-step
until: battle
cards:
  Gemini Elf: {kind: normal-monster, controller: A, atk: 1900, def: 900, level: 4}
  Battle Ox: {kind: normal-monster, controller: B, atk: 1700, def: 1000, level: 4}
claims:
  - claim: exists life_points(B) == 7800
    expect: holds
"""

MAIN = """\
rules: yugioh
turn: A
step: main1
until: main1
cards:
  Gemini Elf: {kind: normal-monster, controller: A, zone: hand, atk: 1900, def: 900, level: 4}
  Vorse Raider: {kind: normal-monster, controller: A, zone: hand, atk: 1900, def: 1200, level: 4}
  Giant Soldier of Stone: {kind: normal-monster, controller: A, set: earlier-turn, atk: 1300,
    def: 2000, level: 3}
  Celtic Guardian: {kind: normal-monster, controller: A, atk: 1400, def: 1200, level: 4}
claims:
  - claim: CLAIM
    expect: EXPECT
"""


def _decide(run: Callable[..., Run], path: Path, engine: str = "both") -> Run:
    result = run("check", "--engine", engine, str(path))
    assert "Traceback" not in result.err
    return result


def test_every_rule_a_guard_names_has_a_sentence() -> None:
    named = re.compile(r"Check\(\s*\"([a-z0-9.-]+)\"")
    rules = {
        name
        for path in (ROOT / "verifier").rglob("*.py")
        for name in named.findall(path.read_text(encoding="utf-8"))
    }
    assert "battle.direct-attack" in rules
    assert sorted(rules - set(RULES)) == []


@pytest.mark.full
@pytest.mark.parametrize(
    ("claim", "expect"),
    [
        # One Normal Summon or Set per turn: never two monsters summoned from the hand.
        ('exists (zone("Gemini Elf") == field and zone("Vorse Raider") == field)', "fails"),
        ('exists zone("Gemini Elf") == field', "holds"),
        # A Set monster is face-down in Defense Position; a Set is not a Summon either.
        ('exists (zone("Vorse Raider") == field and zone("Gemini Elf") == hand)', "holds"),
        # A monster Set in an earlier turn may be Flip Summoned, on top of a Normal Summon.
        (
            'exists (zone("Gemini Elf") == field and zone("Giant Soldier of Stone") == field '
            'and atk("Giant Soldier of Stone") == 1300)',
            "holds",
        ),
    ],
)
def test_main_phase_moves(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    claim: str,
    expect: str,
) -> None:
    text = MAIN.replace("CLAIM", claim.replace('"', '\\"')).replace("EXPECT", expect)
    text = text.replace("claim: ", 'claim: "', 1).replace("\n    expect", '"\n    expect', 1)
    result = _decide(run, write("main.yaml", text))
    assert result.code == 0, result.out + result.err


LONG = [
    pytest.param("explore", id="explore"),
    pytest.param("both", id="both", marks=pytest.mark.slow),
]
"""Continuations through a whole turn or two: the SMT engine takes tens of seconds."""


@pytest.mark.parametrize("engine", LONG)
def test_a_summoned_monster_keeps_its_position_and_attacks(
    run: Callable[..., Run], write: Callable[[str, str], Path], engine: str
) -> None:
    text = (
        MAIN.replace("until: main1", "until: battle")
        .replace("CLAIM", "exists life_points(B) == 8000 - 1900 - 1400")
        .replace("EXPECT", "holds")
    )
    # Claims take numbers, not sums: state the total.
    text = text.replace("8000 - 1900 - 1400", "4700")
    result = _decide(run, write("attack.yaml", text), engine)
    assert result.code == 0, result.out + result.err
    assert "declares an attack" in result.out


def test_a_continuation_through_the_turn_never_comes_back_to_a_state() -> None:
    path = ROOT / "examples" / "yugioh" / "battle-across-phases.yaml"
    prepared = prepare(load_scenario(path, history=None))
    found = explore(prepared.system, prepared.system.initial(), keep_edges=True)
    assert found.complete and found.edges is not None
    graph = nx.DiGraph((a, b) for a, b, _ in found.edges)
    assert nx.is_directed_acyclic_graph(graph)
    assert found.terminals


def _variant(write: Callable[[str, str], Path], edit: str, name: str) -> Path:
    text = (MODELS / "yugioh.yaml").read_text(encoding="utf-8")
    old = "  damage_step: [spell-speed-3, changes-atk-def, negates-activation, damage-step-timing]"
    assert old in text
    text = text.replace("name: yugioh\n", f"name: {name}\n").replace(old, edit)
    return write(f"{name}.yaml", text)


LIMITS = """\
rules: RULES
turn: A
step: battle-step
until: damage-end
cards:
  Celtic Guardian: {kind: normal-monster, controller: A, atk: 1400, def: 1200, level: 4}
  Battle Ox: {kind: normal-monster, controller: B, atk: 1700, def: 1000, level: 4}
  Rush Recklessly:
    kind: quick-play-spell
    controller: A
    zone: hand
    target: {card: monster, zone: field, face: up}
    effect: {change-atk: {on: target, by: 700}}
history:
  - A attacks Battle Ox with Celtic Guardian
  - A passes
  - B passes
claims:
  - claim: exists activates("Rush Recklessly")
    expect: EXPECT
"""


@pytest.mark.full
@pytest.mark.parametrize(
    ("damage_step", "expect"),
    [
        ("[spell-speed-3, changes-atk-def, negates-activation, damage-step-timing]", "holds"),
        ("[spell-speed-3, negates-activation, damage-step-timing]", "fails"),
    ],
)
def test_the_damage_step_limits_are_parameters(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    damage_step: str,
    expect: str,
) -> None:
    model = _variant(write, f"  damage_step: {damage_step}", "yugioh-limits")
    text = LIMITS.replace("RULES", str(model)).replace("EXPECT", expect)
    result = _decide(run, write("limits.yaml", text))
    assert result.code == 0, result.out + result.err


@pytest.mark.full
def test_without_replays_the_attack_goes_on_into_nothing(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = (MODELS / "yugioh.yaml").read_text(encoding="utf-8")
    model = write(
        "no-replay.yaml",
        text.replace("name: yugioh\n", "name: no-replay\n").replace(
            "  replay: true", "  replay: false"
        ),
    )
    scenario = """\
rules: RULES
turn: A
step: battle-step
until: battle
cards:
  Gemini Elf: {kind: normal-monster, controller: A, atk: 1900, def: 900, level: 4}
  Battle Ox: {kind: normal-monster, controller: B, atk: 1700, def: 1000, level: 4}
  Transporter:
    kind: quick-play-spell
    controller: B
    set: earlier-turn
    target: {card: monster, zone: field, controller: you}
    effect: {banish: target}
history:
  - A attacks Battle Ox with Gemini Elf
  - B activates Transporter targeting Battle Ox
  - the chain resolves
claims:
  - claim: exists life_points(B) < 8000
    expect: EXPECT
"""
    for rules, expect in (("yugioh", "holds"), (str(model), "fails")):
        path = write("replay.yaml", scenario.replace("RULES", rules).replace("EXPECT", expect))
        result = _decide(run, path)
        assert result.code == 0, result.out + result.err


# -- errors -----------------------------------------------------------------------------------


def _error(run: Callable[..., Run], path: Path) -> list[str]:
    return bad_input(run, path)


@pytest.mark.parametrize(
    ("old", "new", "message", "caret_line"),
    [
        ("step: battle-step", "step: battle-stp", "unknown step 'battle-stp'; did you mean", 3),
        ("step: battle-step", "step: battle-step\nphase: main1", "is in phase 'battle'", 3),
        ("until: battle", "until: the-end", "unknown step 'the-end'", 4),
        ("until: battle", "until: main1", "'main1' comes before the scenario's step", 4),
        (
            "controller: B, atk: 1700",
            "controller: B, zone: hand, position: defense, atk: 1700",
            "only a monster on the field has 'position'",
            7,
        ),
        (
            "controller: B, atk: 1700",
            "controller: B, set: earlier-turn, position: attack, atk: 1700",
            "a face-down monster is in Defense Position",
            7,
        ),
        (
            "    expect: holds",
            "    expect: holds\n    until: nowhere",
            "unknown step 'nowhere'",
            11,
        ),
        ("exists life_points(B) == 7800", "exists step == nowhere", "unknown step 'nowhere'", 9),
        ("exists life_points(B) == 7800", "exists phase == combat", "unknown phase 'combat'", 9),
        (
            "claims:",
            "history:\n  - the turn moves to nowhere\nclaims:",
            "unknown step 'nowhere'",
            9,
        ),
        (
            "claims:",
            "history:\n  - A attacks Gemini Elf with Battle Ox\nclaims:",
            "battle.attack-position",
            9,
        ),
        (
            "claims:",
            "history:\n  - A attacks with Gemini Elf\nclaims:",
            "unknown card 'with Gemini Elf'; did you mean 'Gemini Elf'?",
            9,
        ),
        (
            "claims:",
            "history:\n  - A attacks Battle Ox\nclaims:",
            "write 'A attacks CARD with CARD'",
            9,
        ),
        (
            "claims:",
            "history:\n  - A attacks Battle Ox with Gemini Elf at once\nclaims:",
            "unexpected words after the attacking monster",
            9,
        ),
    ],
    ids=[
        "unknown-step",
        "step-not-in-phase",
        "unknown-until",
        "until-before-start",
        "position-in-hand",
        "face-down-attack-position",
        "unknown-claim-until",
        "unknown-step-in-claim",
        "unknown-phase-in-claim",
        "history-moves-to-unknown-step",
        "history-illegal-attack",
        "history-attack-unreadable",
        "history-attack-without-attacker",
        "history-attack-trailing-words",
    ],
)
def test_battle_errors(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    old: str,
    new: str,
    message: str,
    caret_line: int,
) -> None:
    assert old in BATTLE
    lines = _error(run, write("s.yaml", BATTLE.replace(old, new, 1)))
    assert re.match(rf"^.*s\.yaml:{caret_line}:\d+: error: ", lines[0]), lines
    assert message in lines[0], lines
    assert lines[-1].strip() == "^" or lines[2].strip().startswith("^"), lines


def test_moving_on_needs_until(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    text = BATTLE.replace("until: battle\n", "").replace(
        "claims:", "history:\n  - the turn moves to end-step\nclaims:"
    )
    lines = _error(run, write("s.yaml", text))
    assert "say how far its turn goes with 'until:'" in lines[0]


def test_an_attack_needs_until(run: Callable[..., Run], write: Callable[[str, str], Path]) -> None:
    text = BATTLE.replace("until: battle\n", "").replace(
        "claims:", "history:\n  - A attacks Battle Ox with Gemini Elf\nclaims:"
    )
    lines = _error(run, write("s.yaml", text))
    assert "attacks are declared in a turn that goes on" in lines[0]


def test_a_game_without_steps_has_no_until(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = """\
rules: cmc
turn: A
until: main
cards:
  Rock: {kind: creature, controller: A}
"""
    lines = _error(run, write("s.yaml", text))
    assert "turn has no steps to go through" in lines[0]


def test_a_battle_section_needs_a_battle_phase(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = (MODELS / "yugioh.yaml").read_text(encoding="utf-8")
    text = text.replace("name: yugioh\n", "name: no-battle\n").replace(
        "phases: [draw, standby, main1, battle, main2, end]",
        "phases: [draw, standby, main1, main2, end]",
    )
    model = write("no-battle.yaml", text)
    scenario = BATTLE.replace("rules: yugioh", f"rules: {model}").replace("step: battle-step\n", "")
    lines = _error(run, write("s.yaml", scenario))
    assert "a 'battle' section needs the phase 'battle'" in lines[0]


def test_battle_conditions_need_a_battle_phase(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    text = (MODELS / "yugioh.yaml").read_text(encoding="utf-8")
    calm = text.replace("name: yugioh\n", "name: calm\n")
    calm = calm[: calm.index("battle:\n")]
    model = write("no-battle.yaml", calm)
    scenario = f"""\
rules: {model}
turn: A
cards:
  Trap: {{kind: normal-trap, controller: B, set: earlier-turn, when: {{attack-declared: monster}},
    effect: {{destroy: all-monsters}}}}
"""
    lines = _error(run, write("s.yaml", scenario))
    assert "has no Battle Phase" in lines[0]


TURNS = """\
rules: yugioh
turn: A
step: main2
limits: {turns: 2}
cards:
  Celtic Guardian: {kind: normal-monster, controller: A, atk: 1400, def: 1200, level: 4}
  Battle Ox: {kind: normal-monster, controller: B, atk: 1700, def: 1000, level: 4}
  Trap: {kind: normal-trap, controller: A, set: this-turn, effect: {destroy: all-monsters,
    of: opponent}}
claims:
  # The other player's turn: B draws, attacks, and A's trap Set this turn may answer.
  - claim: always cards_drawn(B) == 1
    expect: holds
  - claim: exists (destroyed_by_battle("Celtic Guardian") and life_points(A) == 7700)
    expect: holds
  - claim: exists (resolves("Trap") and zone("Battle Ox") == graveyard)
    expect: holds
  # Set this turn, the trap waits for the next turn.
  - claim: always (not activates("Trap") or cards_drawn(B) == 1)
    expect: holds
"""


@pytest.mark.parametrize("engine", LONG)
def test_a_continuation_may_span_turns(
    run: Callable[..., Run], write: Callable[[str, str], Path], engine: str
) -> None:
    result = _decide(run, write("turns.yaml", TURNS), engine)
    assert result.code == 0, result.out + result.err
    assert "B's turn begins" in result.out


def test_without_turns_the_trap_set_this_turn_waits(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    claims = TURNS.index("claims:")
    text = TURNS[:claims].replace("limits: {turns: 2}", "until: end") + (
        "claims:\n"
        "  - claim: always cards_drawn(B) == 0\n"
        "    expect: holds\n"
        '  - claim: exists activates("Trap")\n'
        "    expect: fails\n"
        "  - claim: exists life_points(A) < 8000\n"
        "    expect: fails\n"
    )
    result = _decide(run, write("one-turn.yaml", text))
    assert result.code == 0, result.out + result.err


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("limits: {turns: 2}", "limits: {turns: 2}\nuntil: main2", "'until' can only be 'end'"),
        ("limits: {turns: 2}", "limits: {turns: 9}", "turns"),
    ],
    ids=["turns-until-not-end", "turns-out-of-range"],
)
def test_turns_errors(
    run: Callable[..., Run],
    write: Callable[[str, str], Path],
    old: str,
    new: str,
    message: str,
) -> None:
    lines = _error(run, write("s.yaml", TURNS.replace(old, new)))
    assert message in lines[0], lines


REVIVED = """\
rules: yugioh
turn: A
step: battle-step
until: battle
cards:
  Gemini Elf: {kind: normal-monster, controller: A, atk: 1900, def: 900, level: 4}
  Celtic Guardian: {kind: normal-monster, controller: A, atk: 1400, def: 1200, level: 4}
  Battle Ox: {kind: normal-monster, controller: B, atk: 1700, def: 1000, level: 4}
  Revive:
    kind: continuous-trap
    controller: B
    set: earlier-turn
    target: {card: monster, zone: graveyard, controller: you}
    effect: {special-summon: target}
history:
  - A attacks Battle Ox with Gemini Elf
  - the turn moves to damage-end
  - the turn moves to battle-step
  - B activates Revive targeting Battle Ox
  - the chain resolves
  - A attacks Battle Ox with Celtic Guardian
claims:
  # Destroyed by the first battle, Battle Ox comes back a new card: it wins the second.
  - claim: >-
      always (zone("Battle Ox") == field and destroyed_by_battle("Battle Ox") and
      destroyed_by_battle("Celtic Guardian") and life_points(A) == 7700)
    expect: holds
"""


@pytest.mark.parametrize("engine", [*LONG[:1], pytest.param("smt", id="smt")])
def test_a_monster_destroyed_by_an_earlier_battle_is_a_new_card(
    run: Callable[..., Run], write: Callable[[str, str], Path], engine: str
) -> None:
    result = _decide(run, write("revived.yaml", REVIVED), engine)
    assert result.code == 0, result.out + result.err


def test_a_scenario_starting_in_the_damage_step_attacks_again(
    decide: Callable[..., str],
) -> None:
    # From the end of a Damage Step, the next attack goes through the Damage Step's earlier
    # steps again: the turn may move to them (found by the slow differential run).
    text = """\
rules: yugioh
turn: A
step: damage-end
until: battle
cards:
  Attacker: {kind: normal-monster, controller: A, atk: 2400}
  Defender: {kind: normal-monster, controller: B, atk: 0, def: 0, set: earlier-turn}
history:
  - the turn moves to battle-step
  - A attacks Defender with Attacker
  - the turn moves to damage-start
"""
    assert decide(text, 'attacks("Attacker") and destroyed_by_battle("Defender")') == "holds"


FROM_THE_DAMAGE_STEP = """\
rules: yugioh
turn: B
step: damage-end
until: end-step
cards:
  Attacker: {kind: normal-monster, controller: B, atk: 1000, level: 4}
history: [the turn moves to battle-step, B attacks directly with Attacker]
claims:
  - claim: always life_points(A) == 7000
    expect: holds
"""


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_scenario_starting_in_the_damage_step_fights_its_next_battle(
    run: Callable[..., Run], write: Callable[[str, str], Path], engine: str
) -> None:
    # Back in the Battle Step, a new attack goes through the Damage Step again, though its
    # steps come before the one the scenario starts in (once a dead end, where replaying
    # 'the turn moves to end-step' stopped with an internal error).
    result = _decide(run, write("again.yaml", FROM_THE_DAMAGE_STEP), engine)
    assert result.code == 0, result.out + result.err
    moved = FROM_THE_DAMAGE_STEP.replace(
        "Attacker]", "Attacker, the turn moves to end-step]"
    ).replace(
        "always life_points(A) == 7000", "always (life_points(A) == 7000 and step == end-step)"
    )
    result = _decide(run, write("moved.yaml", moved), engine)
    assert result.code == 0, result.out + result.err
