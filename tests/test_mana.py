"""Magic's lands and mana: the land drop as a special action (CR 305, 116.2a), mana abilities
that add to a mana pool (605, 106.4), mana costs paid from it (601.2g-h, 202.1), the pool
emptying as a step ends (500.4) and permanents untapping in their controller's untap step
(502.3). The golden examples are ``examples/mtg/land-drop-special-action.yaml``,
``mana-cost-from-the-pool.yaml`` and ``mana-empties-between-steps.yaml``; these tests vary
them, in both engines, and check every error the new keys can give."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import MTG_LIBRARY, Run, bad_input
from verifier.io.scenario import load_scenario
from verifier.rules import mana
from verifier.rules.rulebook import describe
from verifier.run.check import prepare
from verifier.spec.mana import parse, spelled
from verifier.system import Action

Decide = Callable[..., str]
LIBRARY = MTG_LIBRARY
pytestmark = pytest.mark.usefixtures("mtg_library")


POOL = """\
rules: mtg
library: {library}
turn: A
step: {step}
{until}life-points: 20
cards:
  Forest: {{controller: A}}
  Island: {{controller: A{tapped}}}
  Grizzly Bears: {{controller: A, zone: hand, mana: "{bears}"}}
  Giant Growth: {{controller: A, zone: hand, mana: "{{G}}"}}
  Hill Giant: {{controller: B}}
history: {history}
"""


def pool(
    bears: str = "{1}{G}",
    step: str = "main1",
    until: str | None = None,
    tapped: bool = False,
    history: str = "[]",
) -> str:
    return POOL.format(
        library=LIBRARY,
        step=step,
        until=f"until: {until}\n" if until else "",
        tapped=", tapped: true" if tapped else "",
        bears=bears,
        history=history,
    )


def test_mana_symbols_read_both_ways() -> None:
    assert parse("{1}{U}{U}") == (1, (0, 2, 0, 0, 0, 0))
    assert parse("1UU") == parse("{1}{U}{U}")
    assert parse("{G}") == (0, (0, 0, 0, 0, 1, 0))
    assert parse("{10}{C}") == (10, (0, 0, 0, 0, 0, 1))
    assert parse("2") == (2, (0, 0, 0, 0, 0, 0))
    for bad in ("", "{Q}", "U1", "{1}U", "{}", "{U", "1 U"):
        assert parse(bad) is None, bad
    assert spelled(1, (0, 2, 0, 0, 0, 0)) == "{1}{U}{U}"
    assert spelled(0, (0, 0, 0, 0, 0, 0)) == "{0}"


def test_each_way_to_pay_the_generic_part_is_an_action(tmp_path: Path) -> None:
    path = tmp_path / "pool.yaml"
    path.write_text(pool(bears="{2}{G}"), encoding="utf-8")
    scenario = load_scenario(path)
    bears = next(a for a in scenario.abilities if a.label == "Grizzly Bears")
    # The Forest adds G, the Island U: {2} is paid GG, GU or UU.
    ways = mana.payments(scenario, bears)
    assert sorted(ways) == sorted([(0, 0, 0, 0, 2, 0), (0, 1, 0, 0, 1, 0), (0, 2, 0, 0, 0, 0)])
    growth = next(a for a in scenario.abilities if a.label == "Giant Growth")
    assert mana.payments(scenario, growth) == [()]


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("options", "claim", "verdict"),
    [
        # Forest and Island pay {1}{G}; with the Island tapped only {G} is left.
        ({}, 'exists zone("Grizzly Bears") == battlefield', "holds"),
        ({"tapped": True}, 'exists zone("Grizzly Bears") == battlefield', "fails"),
        ({"tapped": True}, 'can_activate(A, "Giant Growth")', "holds"),
        # {G}{G} needs two green mana: the Island's blue does not pay it.
        ({"bears": "{G}{G}"}, 'exists zone("Grizzly Bears") == battlefield', "fails"),
        # The Forest pays one of the two, not both.
        ({}, 'exists resolves("Giant Growth") and zone("Grizzly Bears") == battlefield', "fails"),
        # Mana made in the upkeep is gone by the main phase (CR 500.4).
        (
            {"step": "upkeep", "until": "main1", "history": "[A activates Forest]"},
            'exists zone("Grizzly Bears") == battlefield',
            "fails",
        ),
        (
            {"step": "upkeep", "until": "main1"},
            'exists zone("Grizzly Bears") == battlefield',
            "holds",
        ),
    ],
)
def test_mana_costs_are_paid_from_the_pool(
    decide: Decide, engine: str, options: dict[str, object], claim: str, verdict: str
) -> None:
    assert decide(pool(**options), claim, engine) == verdict  # type: ignore[arg-type]


LANDS = """\
rules: mtg
library: {library}
turn: A
step: main1
until: {until}
life-points: 20
limits: {{turns: {turns}}}
cards:
  Forest: {{controller: A, zone: hand}}
  Mountain: {{controller: A, zone: hand}}
  Island: {{controller: B, zone: hand}}
  Shock: {{controller: B, zone: hand}}
  Hill Giant: {{controller: A}}
history: {history}
"""


def lands(until: str = "main1", turns: int = 1, history: str = "[]") -> str:
    return LANDS.format(library=LIBRARY, until=until, turns=turns, history=history)


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("options", "claim", "verdict"),
    [
        ({}, 'exists zone("Forest") == battlefield and zone("Mountain") == battlefield', "fails"),
        ({}, 'exists zone("Mountain") == battlefield', "holds"),
        # In A's turn B plays no land.
        ({}, 'exists zone("Island") == battlefield', "fails"),
        # The land drop is not a spell: nothing is on the stack to answer.
        ({"history": "[A plays Forest]"}, "can_respond(B)", "fails"),
        ({"history": "[A plays Forest]"}, 'always zone("Forest") == battlefield', "holds"),
        # Not with a spell on the stack (CR 305.1): B's Shock in A's main phase.
        (
            {"history": "[A passes, B casts Shock targeting Hill Giant]"},
            'exists zone("Forest") == battlefield and resolves("Shock")',
            "holds",
        ),
    ],
)
def test_the_land_drop(
    decide: Decide, engine: str, options: dict[str, object], claim: str, verdict: str
) -> None:
    assert decide(lands(**options), claim, engine) == verdict  # type: ignore[arg-type]


def test_a_land_waits_for_an_empty_stack(tmp_path: Path) -> None:
    # B's Shock on the stack, A holding priority: A may not play the Forest until it resolves.
    path = tmp_path / "stacked.yaml"
    history = "[A passes, B casts Shock targeting Hill Giant, B passes]"
    path.write_text(lands(history=history), encoding="utf-8")
    prepared = prepare(load_scenario(path))
    system, state = prepared.system, prepared.history.state
    forest = next(c.index for c in system.world.cards if c.name == "Forest")
    assert system.illegal(state, Action("land", card=forest, player=0)) == ["land.timing"]
    assert describe("land.timing", "mtg").startswith("a land is played only by the active")


def test_the_next_turn_gives_another_land_drop(decide: Decide) -> None:
    claim = 'exists zone("Island") == battlefield and zone("Forest") == battlefield'
    assert decide(lands(until="cleanup", turns=2), claim) == "holds"


def test_a_permanent_untaps_in_its_controllers_untap_step(decide: Decide) -> None:
    text = f"""\
rules: mtg
library: {LIBRARY}
turn: B
step: end-step
until: cleanup
life-points: 20
limits: {{turns: 2}}
cards:
  Forest: {{controller: A, tapped: true}}
  Giant Growth: {{controller: A, zone: hand, mana: "{{G}}"}}
  Hill Giant: {{controller: A}}
"""
    # Tapped in B's turn; it untaps as A's turn begins, and pays for Giant Growth there.
    assert decide(text, 'can_activate(A, "Giant Growth")') == "holds"
    one_turn = text.replace("limits: {turns: 2}\n", "")
    assert decide(one_turn, 'can_activate(A, "Giant Growth")') == "fails"


@pytest.mark.full
def test_why_names_the_mana_cost(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "why.yaml"
    path.write_text(
        f"rules: mtg\nlibrary: {LIBRARY}\nturn: A\nstep: main1\ncards:\n"
        "  Island: {controller: B}\n"
        '  Counterspell: {controller: B, zone: hand, mana: "{U}{U}"}\n'
        "  Lightning Bolt: {controller: A, zone: hand}\n"
        "  Grizzly Bears: {controller: B}\n"
        "history: [A casts Lightning Bolt targeting Grizzly Bears]\n",
        encoding="utf-8",
    )
    result = run("why", str(path), "B casts Counterspell targeting Lightning Bolt")
    assert result.code == 0, result
    assert "(cost.mana)" in result.out
    assert "cannot pay its mana cost" in result.out


def test_interchangeable_lands_keep_their_witness(decide: Decide) -> None:
    # Two Forests, one tapped by the history: the explorer's renaming of interchangeable
    # cards and its quotient of the logs together must still give a real continuation.
    text = pool(step="upkeep", until="main1", history="[A activates Forest]").replace(
        "  Island: {controller: A}\n", "  Forest 2: {card: Forest, controller: A}\n"
    )
    assert decide(text, 'exists zone("Grizzly Bears") == battlefield') == "fails"
    assert decide(text, 'exists zone("Giant Growth") == graveyard') == "holds"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('  Lightning Bolt: {controller: A, mana: "{Q}"}', "is not a mana cost"),
        ('  Forest: {controller: A, mana: "{G}"}', "is not cast, so it has no mana cost"),
        ('  Grizzly Bears: {controller: A, mana: "{G}"}\n  Hill Giant: {controller: A}', ""),
        ("  Shock: {controller: A, tapped: true}", "only a permanent on the battlefield is tapped"),
        (
            "  Sol Ring:\n    kind: creature\n    controller: A\n    power: 1\n    toughness: 1\n"
            "    ability: {type: mana-ability, cost: {tap: this}, effect: {add-mana: '{2}'}}",
            "not generic mana",
        ),
        (
            "  Moss:\n    kind: creature\n    controller: A\n    power: 1\n    toughness: 1\n"
            "    ability: {type: mana-ability, effect: {add-mana: '{X}'}}",
            "is not mana",
        ),
        (
            "  Mana Leak:\n    kind: instant\n    controller: A\n    target: {zone: stack}\n"
            "    cost: {mana: 'three'}\n    effect: {counterspell: target}",
            "is not a mana cost",
        ),
    ],
)
def test_bad_mana_is_a_located_error(
    run: Callable[..., Run], tmp_path: Path, line: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    text = f"rules: mtg\nlibrary: {LIBRARY}\nturn: A\ncards:\n{line}\n"
    path.write_text(text, encoding="utf-8")
    if not message:  # a creature on the battlefield may carry its mana cost: it loads
        assert run("check", str(path)).code == 0
        return
    lines = bad_input(run, path)
    assert lines[0].startswith(f"{path}:"), lines
    assert "error:" in lines[0] and message in lines[0], lines
    assert lines[-1].strip() == "^", lines


def test_a_land_step_says_nothing_more(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "aimed.yaml"
    path.write_text(lands(history="[A plays Forest targeting Hill Giant]"), encoding="utf-8")
    lines = bad_input(run, path)
    assert "playing a land is all the step says" in lines[0]


def test_a_land_returned_to_the_hand_is_still_one_land_a_turn(decide: Decide) -> None:
    # Both lands bounced by A's own Boomerangs: A may play one of them again, not both (the
    # lands have no mana ability here: tapped again after each replay, they would take more
    # activations than the log keeps, and the answer would be unknown).
    boomerang = (
        "kind: instant, controller: A, zone: hand, target: {zone: field}, "
        "effect: {return-to-hand: target}"
    )
    text = f"""\
rules: mtg
library: {LIBRARY}
turn: A
step: main1
until: main1
life-points: 20
cards:
  Wastes 1: {{kind: land, controller: A}}
  Wastes 2: {{kind: land, controller: A}}
  Boomerang: {{{boomerang}}}
  Boomerang 2: {{{boomerang}}}
"""
    both = (
        'exists resolves("Boomerang") and resolves("Boomerang 2") and '
        'zone("{}") == battlefield and zone("{}") == battlefield'
    )
    assert decide(text, both.format("Wastes 1", "Wastes 2")) == "fails"
    one = 'exists resolves("Boomerang") and resolves("Boomerang 2") and zone("Wastes 1") == {}'
    assert decide(text, one.format("battlefield")) == "holds"
