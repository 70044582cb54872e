"""Each Yu-Gi-Oh! rule of part 1, on a scenario built to show it (and to break with it)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from verifier.errors import ScenarioError
from verifier.io.scenario import load_scenario
from verifier.run.check import prepare

Decide = Callable[..., str]

HEAD = """\
rules: yugioh
turn: A
library: {library}
"""


@pytest.fixture
def scenario(tmp_path: Path) -> Callable[[str], str]:
    # The card library beside the scenarios, inside their folder (where it may be read).
    library = Path(__file__).resolve().parent.parent / "examples" / "yugioh" / "yugioh.cards.yaml"
    shutil.copy(library, tmp_path / library.name)

    def text(body: str) -> str:
        return HEAD.format(library=library.name) + body

    return text


def test_two_passes_in_a_row_close_the_chain(
    scenario: Callable[[str], str], tmp_path: Path
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        scenario(
            "cards:\n"
            "  Mystical Space Typhoon: {controller: A, zone: hand}\n"
            "  Book of Moon: {controller: A, zone: hand}\n"
            "  Jar: {kind: continuous-trap, controller: B, set: earlier-turn}\n"
            "history:\n"
            "  - A activates Mystical Space Typhoon targeting Jar\n"
            "  - B passes\n"
            "  - A passes\n"
            "  - A activates Book of Moon\n"
        )
    )
    with pytest.raises(ScenarioError) as raised:
        prepare(load_scenario(path))
    assert (
        "nothing can be activated while a chain resolves (chain.resolving)" in raised.value.message
    )


def test_once_per_turn_survives_the_chain(scenario: Callable[[str], str], decide: Decide) -> None:
    body = (
        "cards:\n"
        "  Lancer:\n"
        "    kind: effect-monster\n"
        "    controller: A\n"
        "    ability: {type: quick, once: turn, effect: {draw: 1}}\n"
        "history:\n"
        "  - A activates Lancer\n"
        "  - the chain resolves\n"
    )
    assert decide(scenario(body), 'can_activate(A, "Lancer")') == "fails"
    assert (
        decide(scenario(body.replace("once: turn", "once: chain")), 'can_activate(A, "Lancer")')
        == "holds"
    )


def test_once_per_chain(scenario: Callable[[str], str], decide: Decide) -> None:
    body = (
        "cards:\n"
        "  Lancer:\n"
        "    kind: effect-monster\n"
        "    controller: A\n"
        "    ability: {type: quick, once: chain, effect: {draw: 1}}\n"
        "  Pot: {kind: quick-play-spell, controller: A, zone: hand, effect: {draw: 1}}\n"
        "history:\n"
        "  - A activates Lancer\n"
    )
    assert decide(scenario(body), 'exists chain_order == ["Lancer", "Pot", "Lancer"]') == "fails"
    assert decide(scenario(body), 'exists chain_order == ["Lancer", "Pot"]') == "holds"


def test_spell_and_trap_zones_are_counted(scenario: Callable[[str], str], decide: Decide) -> None:
    cards = "".join(
        f"  Set {i}: {{kind: continuous-trap, controller: A, set: earlier-turn}}\n"
        for i in range(5)
    )
    body = (
        "cards:\n"
        + cards
        + "  Pot: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 1}}\n"
    )
    assert decide(scenario(body), 'can_activate(A, "Pot")') == "fails"
    fewer = body.replace("  Set 4: {kind: continuous-trap, controller: A, set: earlier-turn}\n", "")
    assert decide(scenario(fewer), 'can_activate(A, "Pot")') == "holds"


def test_costs_are_paid_on_activation(scenario: Callable[[str], str], decide: Decide) -> None:
    body = (
        "life-points: 800\n"
        "cards:\n"
        "  Pot: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 1}}\n"
        "  Tools:\n"
        "    kind: counter-trap\n"
        "    controller: B\n"
        "    set: earlier-turn\n"
        "    cost: {pay-lp: 1000}\n"
        "    effect: {negate: activation}\n"
        "history:\n"
        "  - A activates Pot\n"
    )
    assert decide(scenario(body), 'can_activate(B, "Tools")') == "fails"
    richer = body.replace("life-points: 800", "life-points: 1000")
    assert (
        decide(
            richer and scenario(richer), 'exists (activates(B, "Tools") and life_points(B) == 0)'
        )
        == "holds"
    )
    assert decide(scenario(richer), "always cards_drawn(A) <= 1") == "holds"


def test_continuous_negation_applies_once_active(
    scenario: Callable[[str], str], decide: Decide
) -> None:
    body = (
        "cards:\n"
        "  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters, of: opponent}}\n"
        "  Imperial Order: {kind: continuous-trap, controller: B, zone: field, face: up, continuous: {negate-effects: spells}}\n"
        "  Gemini Elf: {kind: normal-monster, controller: B}\n"
        "history:\n"
        "  - A activates Raigeki\n"
    )
    assert decide(scenario(body), 'negated("Raigeki") and zone("Gemini Elf") == field') == "holds"
    inactive = body.replace("zone: field, face: up,", "set: earlier-turn,")
    assert decide(scenario(inactive), 'exists zone("Gemini Elf") == graveyard') == "holds"


def test_bound_monster_destroyed_mid_chain_takes_call_of_the_haunted(
    scenario: Callable[[str], str], decide: Decide
) -> None:
    body = (
        "cards:\n"
        "  Call of the Haunted: {controller: B, set: earlier-turn}\n"
        "  Sangan: {controller: B, zone: graveyard}\n"
        "  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters, of: opponent}}\n"
        "history:\n"
        "  - B activates Call of the Haunted targeting Sangan\n"
        "  - the chain resolves\n"
        "  - A activates Raigeki\n"
    )
    assert (
        decide(
            scenario(body),
            'zone("Sangan") == graveyard and zone("Call of the Haunted") == graveyard',
        )
        == "holds"
    )
    assert decide(scenario(body), 'triggers("Sangan")') == "holds"


def test_leaving_call_of_the_haunted_takes_its_monster(
    scenario: Callable[[str], str], decide: Decide
) -> None:
    body = (
        "cards:\n"
        "  Call of the Haunted: {controller: B, set: earlier-turn}\n"
        "  Sangan: {controller: B, zone: graveyard}\n"
        "  Mystical Space Typhoon: {controller: A, zone: hand}\n"
        "history:\n"
        "  - B activates Call of the Haunted targeting Sangan\n"
        "  - the chain resolves\n"
        "  - A activates Mystical Space Typhoon targeting Call of the Haunted\n"
    )
    assert decide(scenario(body), 'zone("Sangan") == graveyard') == "holds"


@pytest.mark.full
@pytest.mark.parametrize(
    ("effect", "claim"),
    [
        ("{banish: target}", 'zone("Gemini Elf") == banished'),
        ("{send-to-graveyard: target}", 'zone("Gemini Elf") == graveyard'),
        ("{return-to-hand: target}", 'zone("Gemini Elf") == hand'),
        ("{take-control: target}", 'controller("Gemini Elf") == A'),
        ("{destroy: target, to: banished}", 'zone("Gemini Elf") == banished'),
        # The target was face-up as the effect began to resolve; the later part follows it.
        ("[{flip-face-down: target}, {take-control: target}]", 'controller("Gemini Elf") == A'),
    ],
)
def test_effects_on_a_target(
    scenario: Callable[[str], str], decide: Decide, effect: str, claim: str
) -> None:
    body = (
        "cards:\n"
        f"  Spell: {{kind: normal-spell, controller: A, zone: hand, target: {{card: monster, zone: field, face: up}}, effect: {effect}}}\n"
        "  Gemini Elf: {kind: normal-monster, controller: B}\n"
        "history:\n"
        "  - A activates Spell targeting Gemini Elf\n"
    )
    assert decide(scenario(body), claim) == "holds"


def test_special_summon_from_the_graveyard(scenario: Callable[[str], str], decide: Decide) -> None:
    body = (
        "cards:\n"
        "  Monster Reborn: {kind: normal-spell, controller: A, zone: hand, target: {card: monster, zone: graveyard}, effect: {special-summon: target}}\n"
        "  Gemini Elf: {kind: normal-monster, controller: B, zone: graveyard}\n"
        "history:\n"
        "  - A activates Monster Reborn targeting Gemini Elf\n"
    )
    assert (
        decide(scenario(body), 'zone("Gemini Elf") == field and controller("Gemini Elf") == A')
        == "holds"
    )


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_an_empty_segoc_order_means_no_trigger_chain(
    scenario: Callable[[str], str], decide: Decide, engine: str
) -> None:
    body = (
        "cards:\n"
        "  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters, of: opponent}}\n"
        "  Gemini Elf: {kind: normal-monster, controller: B}\n"
        "history:\n"
        "  - A activates Raigeki\n"
    )
    assert decide(scenario(body), "segoc_order == []", engine) == "holds"
    with_sangan = body.replace("history:", "  Sangan: {controller: B, zone: field}\nhistory:")
    assert decide(scenario(with_sangan), "segoc_order == []", engine) == "fails"
    assert decide(scenario(with_sangan), 'segoc_order == ["Sangan"]', engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_continuous_negation_of_traps_switches_off_a_trap_negation(
    scenario: Callable[[str], str], decide: Decide, engine: str
) -> None:
    body = (
        "cards:\n"
        "  Skill Drain: {kind: continuous-trap, controller: B, zone: field, face: up, continuous: {negate-effects: monsters}}\n"
        "  Pot of Greed: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 2}}\n"
        "  Lancer: {kind: effect-monster, controller: B, ability: {type: quick, once: turn, effect: {draw: 1}}}\n"
        "history: [A activates Pot of Greed, B activates Lancer, A passes, B passes]\n"
    )
    assert decide(scenario(body), 'negated("Lancer")', engine) == "holds"
    decree = "  Royal Decree: {kind: continuous-trap, controller: A, zone: field, face: up, continuous: {negate-effects: traps}}\n"
    decreed = body.replace("history:", decree + "history:")
    assert decide(scenario(decreed), 'resolves("Lancer")', engine) == "holds"
    # Set, Royal Decree has not been activated: it switches nothing off.
    set_decree = decreed.replace(
        "zone: field, face: up, continuous: {negate-effects: traps}",
        "set: earlier-turn, continuous: {negate-effects: traps}",
    )
    assert decide(scenario(set_decree), 'negated("Lancer")', engine) == "holds"


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_card_being_activated_cannot_target_itself(
    scenario: Callable[[str], str], decide: Decide, tmp_path: Path, engine: str
) -> None:
    body = (
        "cards:\n"
        "  Mystical Space Typhoon: {controller: B, set: earlier-turn}\n"
        "  Lancer: {kind: effect-monster, controller: A, ability: {type: quick, once: turn, effect: {draw: 1}}}\n"
        "history:\n"
        "  - A activates Lancer\n"
    )
    # No other Spell or Trap is on the field: MST has nothing it may target.
    assert decide(scenario(body), 'can_activate(B, "Mystical Space Typhoon")', engine) == "fails"
    path = tmp_path / "self.yaml"
    path.write_text(
        scenario(body + "  - B activates Mystical Space Typhoon targeting Mystical Space Typhoon\n")
    )
    with pytest.raises(ScenarioError) as raised:
        prepare(load_scenario(path))
    assert "(target.valid)" in raised.value.message


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_mandatory_trigger_with_no_possible_target_is_not_activated(
    decide: Decide, engine: str
) -> None:
    # No card could ever be its target: the trigger has no placement at all, and both
    # engines must still build (and decide) the scenario.
    text = (
        "rules: yugioh\nturn: B\ncards:\n"
        "  Avenger:\n    kind: effect-monster\n    controller: A\n"
        "    ability: {type: trigger, trigger: {event: destroyed}, "
        "target: {card: trap, zone: field}, effect: {destroy: target}}\n"
        "  Raigeki: {kind: normal-spell, controller: B, zone: hand, "
        "effect: {destroy: all-monsters, of: opponent}}\n"
    )
    assert decide(
        text, 'exists (zone("Avenger") == graveyard and triggers("Avenger"))', engine
    ) == ("holds")
    assert decide(text, 'always not activates(A, "Avenger")', engine) == "holds"
