"""Designer tools: lint finds each kind of finding on a purpose-built model; diff finds
each kind of difference; orders tells which SEGOC orders matter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, MODELS, Run
from verifier.designer.diff import compare, search
from verifier.designer.lint import lint
from verifier.errors import ModelError
from verifier.io.model import load_model

BROKEN = Path(__file__).resolve().parent / "models"


@pytest.mark.full
@pytest.mark.parametrize("path", sorted(MODELS.glob("*.yaml")), ids=lambda p: p.stem)
def test_shipped_models_lint_clean(path: Path) -> None:
    assert lint(path).findings == []


def codes(path: Path, *scenarios: Path) -> list[tuple[str, str]]:
    return [(f.code, f.parameter) for f in lint(path, scenarios).findings]


def test_a_tie_in_the_resolution_order() -> None:
    report = lint(BROKEN / "tie.yaml")
    assert [(f.code, f.severity, f.parameter) for f in report.findings] == [
        ("resolution.tie", "error", "resolution.order")
    ]
    assert "added by the same player" in report.findings[0].message


def test_the_tie_witness_shows_both_orders(run: Callable[..., Run], tmp_path: Path) -> None:
    [finding] = lint(BROKEN / "tie.yaml").findings
    assert finding.witness is not None
    witness = tmp_path / "tie.yaml"
    witness.write_text(finding.witness, encoding="utf-8")
    # The witness names the linted rule system by its path, outside the witness's folder.
    result = run("check", "--allow-outside", str(witness))
    assert result.code == 0, result.out + result.err


def test_total_orders_are_proved() -> None:
    report = lint(MODELS / "cmc.yaml")
    assert report.proofs == [
        "resolution order [speed, turn-player-first, cast-order] is total and asymmetric (proved with z3)"
    ]


def test_kinds_that_can_never_be_activated() -> None:
    found = codes(BROKEN / "no-main-phase.yaml")
    assert ("kind.never-activated", "kinds.normal-spell") in found
    assert ("kind.never-activated", "kinds.ignition") in found
    assert ("kind.never-activated", "kinds.quick-play-spell") not in found
    assert {code for code, _ in found} == {"kind.never-activated"}


def test_kinds_that_can_never_be_answered() -> None:
    assert codes(BROKEN / "strict.yaml") == [("kind.never-answered", "kinds.counter-trap")]


@pytest.mark.full
def test_speeds_that_no_kind_has() -> None:
    assert codes(BROKEN / "extra-speed.yaml") == [("speed.unused", "speeds")]


def test_parameters_that_are_never_read() -> None:
    assert codes(BROKEN / "unused.yaml") == [
        ("parameter.unused", "chain"),
        ("parameter.unused", "resolution.instant"),
        ("parameter.unused", "triggers"),
    ]


TARGETLESS = """\
rules: yugioh
turn: A
cards:
  Dark Hole: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters}}
  Avenger:
    kind: effect-monster
    controller: B
    ability:
      type: trigger
      trigger: {event: destroyed}
      target: {card: spell-trap, zone: field}
      effect: {destroy: target}
history:
  - A activates Dark Hole
claims: []
"""


@pytest.mark.full
def test_a_state_where_nobody_can_act(write: Callable[[str, str], Path]) -> None:
    scenario = write("targetless.yaml", TARGETLESS)
    assert codes(BROKEN / "wait.yaml", scenario) == [("state.deadlock", "chain")]
    # Under the current rules the mandatory trigger with no target is simply not activated.
    assert codes(MODELS / "yugioh.yaml", scenario) == []


@pytest.mark.full
def test_a_chain_that_grows_without_end(write: Callable[[str, str], Path]) -> None:
    scenario = write(
        "endless.yaml",
        "rules: yugioh\nturn: A\ncards:\n"
        "  Echo: {kind: effect-monster, controller: A, ability: {type: quick, effect: {draw: 1}}}\n"
        "claims: []\n",
    )
    [finding] = lint(MODELS / "yugioh.yaml", [scenario]).findings
    assert (finding.code, finding.severity) == ("chain.unbounded", "error")
    assert finding.witness is not None and "# A activates Echo (Chain Link 1)" in finding.witness


@pytest.mark.full
def test_lint_command_writes_witnesses_only_when_asked(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    plain = run("lint", str(BROKEN / "tie.yaml"))
    assert plain.code == 1
    assert "[resolution.tie]" in plain.out and "--witnesses DIR" in plain.out
    assert list(tmp_path.iterdir()) == []
    written = run("lint", str(BROKEN / "tie.yaml"), "--witnesses", str(tmp_path))
    assert [p.name for p in tmp_path.iterdir()] == ["01-resolution-tie.yaml"]
    assert "witness:" in written.out
    assert run("lint", "yugioh").code == 0


# -- diff ----------------------------------------------------------------------------------


def models(*names: str) -> list:  # type: ignore[type-arg]
    return [load_model(MODELS / f"{n}.yaml") if "/" not in n else load_model(n) for n in names]


def test_diff_finds_the_clickwar() -> None:
    a, b = models("cmc", "cmc-instant")
    [difference] = compare(EXAMPLES / "cmc" / "shadehawk-clickwar.yaml", a, b)
    assert difference.kind == "legality"
    assert difference.summary == "legal under cmc only: Mind Burrower (A), Shadehawk (B)"


def test_diff_finds_the_ignition_priority_chain() -> None:
    a, b = models("yugioh", "yugioh-ignition-priority")
    [difference] = compare(EXAMPLES / "yugioh" / "summon-windows.yaml", a, b)
    assert difference.summary == (
        "legal under yugioh-ignition-priority only: Blowback Dragon (A), Bottomless Trap Hole (B)"
    )
    [(model, steps)] = difference.under
    assert model == "yugioh-ignition-priority"
    links = [s.text for s in steps if s.kind == "activation"]
    assert links == [
        "A activates Blowback Dragon targeting Book of Moon (Chain Link 1)",
        "B activates Bottomless Trap Hole (Chain Link 2)",
    ]


def test_diff_finds_sangan_before_the_monarch() -> None:
    a, b = models("yugioh", "yugioh-trigger-first")
    [difference] = compare(EXAMPLES / "yugioh" / "sangan-monarch.yaml", a, b)
    assert difference.summary.startswith(
        "legal under yugioh only: Zaborg the Thunder Monarch (A), Sangan (A)"
    )


def test_diff_finds_combat_damage_on_the_stack() -> None:
    # Magic before 2010: a blocking Mogg Fanatic deals combat damage from the stack, then is
    # sacrificed for 1 more; the same moves leave the Grizzly Bears alive under the current
    # rules (combat damage without the stack, CR 510.2).
    a, b = models("mtg", "mtg-damage-on-the-stack")
    [difference] = compare(EXAMPLES / "mtg" / "mogg-fanatic-combat-damage.yaml", a, b)
    assert difference.kind == "final-zones"
    [(first, ours), (second, theirs)] = difference.under
    assert (first, second) == ("mtg", "mtg-damage-on-the-stack")
    texts = [s.text for s in theirs]
    assert "the combat damage goes on the stack" in texts
    assert "state-based actions: Grizzly Bears is put into the graveyard" in texts
    assert not any("Grizzly Bears is put into the graveyard" in s.text for s in ours)


def test_diff_finds_outcome_differences() -> None:
    a = load_model(MODELS / "cmc.yaml")
    b = load_model(BROKEN / "cast-order-only.yaml")
    found = compare(EXAMPLES / "cmc" / "gargoyle-turn-player.yaml", a, b)
    assert [d.kind for d in found] == ["resolution-order", "final-zones"]
    assert [m for m, _ in found[0].under] == ["cmc", "cast-order-only"]


def test_diff_finds_missing_timing_differences() -> None:
    a, b = models("yugioh", "yugioh-seed-missing-timing")
    kinds = [d.kind for d in compare(EXAMPLES / "yugioh" / "missing-the-timing.yaml", a, b)]
    assert "missing-timing" in kinds


def test_diff_without_a_scenario_generates_one() -> None:
    a, b = models("cmc", "cmc-instant")
    found = search(a, b, tries=30)
    assert found is not None
    text, differences = found
    assert text.startswith("rules: cmc\n") and differences


def test_diff_command(run: Callable[..., Run], tmp_path: Path) -> None:
    out = tmp_path / "found.yaml"
    result = run("diff", "cmc", "cmc-instant", "--out", str(out), "--tries", "30")
    assert result.code == 1
    assert out.read_text(encoding="utf-8").startswith("rules: cmc")
    same = run("diff", "yugioh", "yugioh", str(EXAMPLES / "yugioh" / "coin-toss.yaml"))
    assert same.code == 0 and "no difference(s)" in same.out


def test_diff_search_finds_sangan_before_the_monarch() -> None:
    # The README's demonstration: under the current rules the controller of two waiting
    # triggers orders them freely; under the seed's rule the earlier one goes first.
    a, b = models("yugioh", "yugioh-trigger-first")
    found = search(a, b)
    assert found is not None
    text, differences = found
    assert "tribute summons" in text
    [difference] = [d for d in differences if d.kind == "legality"]
    assert difference.summary.startswith("legal under yugioh only: ")
    [(model, steps)] = difference.under
    assert model == "yugioh"
    links = [s.text for s in steps if s.kind == "activation" and "trigger effect" in s.text]
    # Two trigger effects of one player, in the order only the current rules allow.
    assert len(links) >= 2
    assert len({link.split(" activates ")[0] for link in links}) == 1


def test_diff_search_finds_missing_timing() -> None:
    a, b = models("yugioh", "yugioh-seed-missing-timing")
    found = search(a, b)
    assert found is not None
    kinds = [d.kind for d in found[1]]
    assert "missing-timing" in kinds


def test_diff_search_finds_the_ignition_priority_chain() -> None:
    a, b = models("yugioh", "yugioh-ignition-priority")
    found = search(a, b)
    assert found is not None
    [difference] = [d for d in found[1] if d.kind == "legality"]
    assert difference.summary.startswith("legal under yugioh-ignition-priority only: ")
    [(model, steps)] = difference.under
    assert model == "yugioh-ignition-priority"
    assert any(s.kind == "summon" for s in steps)


def test_diff_search_finds_the_speed_system() -> None:
    a, b = models("cmc", "cmc-instant")
    found = search(a, b)
    assert found is not None
    text, differences = found
    assert text.startswith("rules: cmc\n")
    first = differences[0]
    assert first.kind in {"legality", "resolution-order", "final-zones"}
    if first.kind == "legality":
        assert first.summary.startswith("legal under cmc only: ")
    else:
        # The same moves, resolved on the stack under one model and at once under the other.
        assert [m for m, _ in first.under] == ["cmc", "cmc-instant"]


def test_diff_search_finds_combat_damage_on_the_stack_on_its_own(
    run: Callable[..., Run],
) -> None:
    # The generator fights Magic combats (attackers, blockers, a creature that can sacrifice
    # itself): the only situations the two combat damage rules tell apart.
    a, b = models("mtg", "mtg-damage-on-the-stack")
    found = search(a, b)
    assert found is not None
    text, differences = found
    assert "attacking: true" in text.replace("\n      ", " ")
    [(first, _), (second, theirs)] = differences[0].under
    assert (first, second) == ("mtg", "mtg-damage-on-the-stack")
    assert "the combat damage goes on the stack" in [s.text for s in theirs]
    assert run("diff", "mtg", "mtg-damage-on-the-stack").code == 1


def test_diff_search_is_deterministic() -> None:
    a, b = models("yugioh", "yugioh-trigger-first")
    first, second = search(a, b), search(a, b)
    assert first is not None and second is not None
    assert first[0] == second[0]
    assert [d.summary for d in first[1]] == [d.summary for d in second[1]]


def test_diff_search_finds_nothing_between_a_model_and_itself() -> None:
    a, b = models("yugioh", "yugioh")
    assert search(a, b, tries=10) is None


REFUSAL = (
    "yugioh and cmc are rule systems of different games (yugioh, cmc); "
    "diff compares variants of one game"
)


def test_diff_refuses_models_of_different_games(run: Callable[..., Run]) -> None:
    a, b = models("yugioh", "cmc")
    with pytest.raises(ModelError, match=r"different games \(yugioh, cmc\)"):
        search(a, b)
    with pytest.raises(ModelError, match="diff compares variants of one game"):
        compare(EXAMPLES / "yugioh" / "coin-toss.yaml", a, b)
    result = run("diff", "yugioh", "cmc")
    assert result.code == 2
    assert result.err.strip() == f"error: {REFUSAL}"
    assert result.out == ""


# -- orders --------------------------------------------------------------------------------

ORDERS = """\
rules: yugioh
turn: A
cards:
  Vessel: {kind: normal-monster, controller: B, zone: graveyard}
  Herald: {kind: normal-monster, controller: A, zone: hand}
  Reviver:
    kind: effect-monster
    controller: A
    ability:
      type: trigger
      trigger: {event: normal-summoned, card: {card: monster, controller: you, other: true}}
      target: {card: monster, zone: graveyard}
      effect: {special-summon: target}
  Remover:
    kind: effect-monster
    controller: A
    ability:
      type: trigger
      trigger: {event: normal-summoned, card: {card: monster, controller: you, other: true}}
      target: {card: monster, zone: graveyard}
      effect: {banish: target}
history:
  - A summons Herald
claims: []
"""


def test_orders_tells_which_segoc_orders_matter(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("orders", str(write("orders.yaml", ORDERS)))
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines[0].endswith("2 trigger order(s), 2 outcome(s): sensitive")
    assert "Vessel ends in the" in result.out
    insensitive = run("orders", str(EXAMPLES / "yugioh" / "black-whirlwind-segoc.yaml"))
    assert insensitive.code == 0 and "insensitive" in insensitive.out
