"""Magic's first strike and double strike (CR 702.7, 702.4): with either in combat, a
first-strike combat damage step comes before the regular one, each with its own creatures,
and players receive priority after each (510.4). The golden examples are
``examples/mtg/first-strike-wins-the-fight.yaml``, ``double-strike-deals-damage-twice.yaml``
and ``priority-between-combat-damage-steps.yaml``; these tests vary them in both engines,
check the traces, and check the errors of the new keys."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import MTG_LIBRARY, Run, bad_input

Decide = Callable[..., str]
LIBRARY = MTG_LIBRARY
pytestmark = pytest.mark.usefixtures("mtg_library")


def fight(
    cards: str, rules: str = "mtg", step: str = "declare-blockers", history: str = "[]"
) -> str:
    return f"""\
rules: {rules}
library: {LIBRARY}
turn: A
step: {step}
until: end-of-combat
life-points: 20
cards:
{cards}
history: {history}
"""


KNIGHT_BLOCKED = (
    "  White Knight: {controller: A, attacking: true}\n"
    "  Grizzly Bears: {controller: B, blocking: White Knight}"
)
BEARS_BLOCKED = (
    "  Grizzly Bears: {controller: A, attacking: true}\n"
    "  White Knight: {controller: B, blocking: Grizzly Bears}"
)
KNIGHTS = (
    "  White Knight: {controller: A, attacking: true}\n"
    "  Other Knight: {card: White Knight, controller: B, blocking: White Knight}"
)
ACE = "  Fencing Ace: {controller: A, attacking: true}"
SWIFTBLADE_BLOCKED = (
    "  Boros Swiftblade: {controller: A, attacking: true}\n"
    "  Hill Giant: {controller: B, blocking: Boros Swiftblade}"
)
BEARS_TRADE = (
    "  Grizzly Bears: {controller: A, attacking: true}\n"
    "  Other Bears: {card: Grizzly Bears, controller: B, blocking: Grizzly Bears}"
)
# The first attacker (which carries the combat damage object under the old rules) dies in
# the first-strike step; the second still deals its regular damage.
ACE_DIES_FIRST = (
    "  Fencing Ace: {controller: A, attacking: true}\n"
    "  Grizzly Bears: {controller: A, attacking: true}\n"
    "  White Knight: {controller: B, blocking: Fencing Ace}"
)


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize("rules", ["mtg", "mtg-damage-on-the-stack"])
@pytest.mark.parametrize(
    ("cards", "claim", "verdict"),
    [
        # A first striker destroys a blocker that would destroy it, and takes no damage.
        (KNIGHT_BLOCKED, 'always zone("White Knight") == battlefield', "holds"),
        (KNIGHT_BLOCKED, 'always zone("Grizzly Bears") == graveyard', "holds"),
        # A blocker with first strike does the same to an attacker.
        (BEARS_BLOCKED, 'always zone("Grizzly Bears") == graveyard', "holds"),
        (BEARS_BLOCKED, 'exists zone("White Knight") == graveyard', "fails"),
        # Two first strikers deal their damage at once, in the first-strike step.
        (KNIGHTS, 'always zone("White Knight") == graveyard', "holds"),
        (KNIGHTS, 'always zone("Other Knight") == graveyard', "holds"),
        # Double strike: damage in both steps, to the defending player twice.
        (ACE, "always life_points(B) == 18", "holds"),
        # 1 + 1 to a 3/3 blocker: it survives and destroys the 1/2 Swiftblade.
        (SWIFTBLADE_BLOCKED, 'always zone("Hill Giant") == battlefield', "holds"),
        (SWIFTBLADE_BLOCKED, 'always zone("Boros Swiftblade") == graveyard', "holds"),
        # Without first strike, one combat damage step: the Bears trade.
        (BEARS_TRADE, 'always zone("Grizzly Bears") == graveyard', "holds"),
        (BEARS_TRADE, 'always zone("Other Bears") == graveyard', "holds"),
        (ACE_DIES_FIRST, 'always zone("Fencing Ace") == graveyard', "holds"),
        (ACE_DIES_FIRST, "always life_points(B) == 18", "holds"),
    ],
)
def test_first_and_double_strike_outcomes(
    decide: Decide, engine: str, rules: str, cards: str, claim: str, verdict: str
) -> None:
    assert decide(fight(cards, rules), claim, engine) == verdict


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_the_first_strike_step_ends_with_its_own_damage(
    decide: Decide, engine: str, tmp_path: Path
) -> None:
    # At the end of the first-strike step the Fencing Ace has dealt 1; the regular step is
    # still to come.
    text = fight(ACE).replace("until: end-of-combat", "until: first-strike-damage")
    assert decide(text, "always life_points(B) == 19", engine) == "holds"
    assert decide(text, "exists life_points(B) == 18", engine) == "fails"
    knight = fight(KNIGHT_BLOCKED).replace("until: end-of-combat", "until: first-strike-damage")
    assert decide(knight, 'always zone("Grizzly Bears") == graveyard', engine) == "holds"


SHOCK_BETWEEN = (
    "  White Knight: {controller: A, attacking: true}\n"
    "  Hill Giant: {controller: B, blocking: White Knight}\n"
    "  Shock: {controller: A, zone: hand}"
)


@pytest.mark.parametrize("engine", ["explore", "smt"])
@pytest.mark.parametrize(
    ("history", "claim", "verdict"),
    [
        # Priority in the first-strike step: Shock finishes the damaged Hill Giant.
        (
            "[A passes, B passes, A casts Shock targeting Hill Giant]",
            'always zone("White Knight") == battlefield and zone("Hill Giant") == graveyard',
            "holds",
        ),
        # Once the regular step began, the Giant has struck: the Knight is gone.
        (
            "[A passes, B passes, the turn moves to combat-damage, A casts Shock targeting "
            "Hill Giant]",
            'always zone("White Knight") == graveyard and zone("Hill Giant") == graveyard',
            "holds",
        ),
        ("[]", 'exists zone("White Knight") == graveyard', "holds"),
        ("[]", 'exists zone("White Knight") == battlefield', "holds"),
    ],
)
def test_players_act_between_the_two_damage_steps(
    decide: Decide, engine: str, history: str, claim: str, verdict: str
) -> None:
    assert decide(fight(SHOCK_BETWEEN, history=history), claim, engine) == verdict


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_a_declared_combat_goes_through_the_first_strike_step(decide: Decide, engine: str) -> None:
    cards = (
        "  White Knight: {controller: A}\n"
        "  Grizzly Bears: {controller: B}\n"
        "  Shock: {controller: B, zone: hand}"
    )
    text = fight(cards, step="declare-attackers")
    # Only B's Shock kills the Knight: blocking, the Bears die first.
    claim = 'exists zone("White Knight") == graveyard and not resolves("Shock")'
    assert decide(text, claim, engine) == "fails"
    assert decide(text, "exists life_points(B) == 18", engine) == "holds"
    blocked = fight(
        cards,
        step="declare-attackers",
        history="[A attacks with White Knight, B blocks White Knight with Grizzly Bears]",
    )
    # Unless B's Shock kills the Knight before combat damage, the Bears die first.
    survive = 'always zone("Grizzly Bears") == graveyard or resolves("Shock")'
    assert decide(blocked, survive, engine) == "holds"


def _explain(run: Callable[..., Run], tmp_path: Path, text: str) -> str:
    path = tmp_path / "fight.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("explain", str(path))
    assert result.code == 0, result
    return result.out


def test_the_trace_names_both_damage_steps(run: Callable[..., Run], tmp_path: Path) -> None:
    out = _explain(run, tmp_path, fight(KNIGHT_BLOCKED))
    first = out.index("the turn moves on: the first-strike combat damage step")
    dealt = out.index("combat damage is dealt: Grizzly Bears is dealt combat damage", first)
    died = out.index("state-based actions: Grizzly Bears is put into the graveyard", dealt)
    regular = out.index("the turn moves on: the combat damage step", died)
    assert out.index("A passes", died) < regular  # priority in between (CR 510.3)


def test_without_first_strike_there_is_one_damage_step(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    out = _explain(run, tmp_path, fight(BEARS_TRADE))
    assert "first-strike" not in out
    assert out.count("the turn moves on: the combat damage step") == 1


def test_a_first_striker_out_of_combat_changes_nothing(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    # The step needs an attacking or blocking creature with the keyword (CR 510.4).
    cards = BEARS_TRADE + "\n  White Knight: {controller: B}"
    out = _explain(run, tmp_path, fight(cards))
    assert "first-strike" not in out


def test_the_history_moves_to_the_first_strike_step(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    text = fight(ACE, history="[the turn moves to first-strike-damage]")
    path = tmp_path / "moves.yaml"
    path.write_text(text, encoding="utf-8")
    result = run("ask", str(path), "always life_points(B) == 18")
    assert result.code == 0, result
    assert "holds" in result.out


@pytest.mark.parametrize(
    ("card", "key", "message"),
    [
        (
            "  Shock: {controller: A, zone: hand, first-strike: true}",
            "first-strike",
            "only a creature has first strike",
        ),
        (
            "  Forest: {controller: A, double-strike: true}",
            "double-strike",
            "only a creature has double strike",
        ),
    ],
)
def test_the_keywords_are_a_creatures(
    run: Callable[..., Run], tmp_path: Path, card: str, key: str, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    claims = "claims:\n  - claim: always life_points(B) == 20\n"
    path.write_text(fight(BEARS_TRADE + "\n" + card) + claims, encoding="utf-8")
    lines = bad_input(run, path)
    line = len(fight(BEARS_TRADE).splitlines())  # the card's line, before the history
    col = card.index(key) + len(key) + 3  # its value
    assert lines[0].startswith(f"{path}:{line}:{col}: error: {message}"), lines
    assert lines[-1].strip() == "^", lines


def test_a_game_without_combat_has_no_first_strike(run: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "yugioh.yaml"
    path.write_text(
        "rules: yugioh\nturn: A\ncards:\n"
        "  Dragon: {kind: normal-monster, controller: A, atk: 3000, first-strike: true}\n"
        "claims:\n  - claim: always life_points(B) == 8000\n",
        encoding="utf-8",
    )
    lines = bad_input(run, path)
    assert lines[0].startswith(f"{path}:4:"), lines
    assert "yugioh has no combat ('first-strike')" in lines[0], lines


@pytest.mark.parametrize("key", ["step", "until"])
def test_no_first_strike_step_without_a_first_striker(
    run: Callable[..., Run], tmp_path: Path, key: str
) -> None:
    text = fight(BEARS_TRADE)
    if key == "step":
        text = text.replace("step: declare-blockers", "step: first-strike-damage")
    else:
        text = text.replace("until: end-of-combat", "until: first-strike-damage")
    path = tmp_path / "nostep.yaml"
    path.write_text(text + "claims:\n  - claim: always life_points(B) == 20\n", encoding="utf-8")
    lines = bad_input(run, path)
    line = 4 if key == "step" else 5
    assert lines[0].startswith(f"{path}:{line}:"), lines
    assert "there is a first-strike-damage step only when" in lines[0], lines


@pytest.mark.full
def test_the_generator_writes_the_keywords_on_magic_creatures() -> None:
    from verifier.designer.generate import RandomChooser, scenario

    keys = {"first-strike", "double-strike"}
    found: set[str] = set()
    for seed in range(120):
        data = scenario(RandomChooser(seed), "mtg")
        for card in data["cards"].values():
            here = keys & set(card)
            if here:
                assert card["kind"] == "creature"
                assert (
                    card.get("attacking")
                    or card.get("blocking")
                    or data["step"] == ("declare-attackers")
                )
            found |= here
    assert found == keys
