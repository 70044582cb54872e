"""Every kind of bad input: one located line, the offending line, a caret, exit status 2."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import GOOD, Run


def error_of(run: Callable[..., Run], path: Path, *extra: str) -> list[str]:
    result = run("check", str(path), *extra)
    assert result.code == 2, result
    assert "Traceback" not in result.err
    return result.err.splitlines()


def test_the_good_scenario_passes(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("check", str(write("good.yaml", GOOD)))
    assert result.code == 0, result.out + result.err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            GOOD.replace("rules: yugioh", "rules: yugi"),
            [
                "s.yaml:1:8: error: unknown rule system 'yugi' (known: ",
                "    rules: yugi",
                "           ^",
            ],
            id="unknown-rule-system",
        ),
        pytest.param(
            GOOD.replace("Mirror Force: {kind", "Raigeki: {kind"),
            [
                "s.yaml:5:3: error: duplicate key 'Raigeki' (each name may appear only once here)",
                "      Raigeki: {kind: normal-trap, controller: B, set: earlier-turn}",
                "      ^",
            ],
            id="duplicate-card",
        ),
        pytest.param(
            GOOD.replace("controller: B", "controller: C"),
            [
                "s.yaml:5:49: error: unknown player 'C' (players: A, B)",
                "      Mirror Force: {kind: normal-trap, controller: C, set: earlier-turn}",
                "                                                    ^",
            ],
            id="unknown-player",
        ),
        pytest.param(
            GOOD.replace("zone: hand", "zone: pocket"),
            [
                "s.yaml:4:54: error: unknown value 'pocket' for 'zone' (expected 'hand', "
                "'field', 'graveyard', 'banished', 'deck', 'stack', 'battlefield', 'exile' or "
                "'library')",
            ],
            id="unknown-zone",
        ),
        pytest.param(
            GOOD.replace("turn: A", "turn: [A]"),
            [
                "s.yaml:2:7: error: wrong type for 'turn': input should be a valid string, got a list"
            ],
            id="wrong-type",
        ),
        pytest.param(
            GOOD.replace("kind: normal-trap", "kind: normal-trapp"),
            [
                "s.yaml:5:24: error: unknown card kind 'normal-trapp' under yugioh; did you mean "
                "'normal-trap'?",
            ],
            id="unknown-kind",
        ),
        pytest.param(
            GOOD.replace("  Mirror Force: {kind", "  Mirror Force: {flavour: red, kind"),
            [
                "s.yaml:5:18: error: unknown key 'flavour' (expected one of: card, kind, controller, "
            ],
            id="unknown-key",
        ),
        pytest.param(
            GOOD.replace("A activates Raigeki", "A activates Raigeky"),
            [
                "s.yaml:8:17: error: unknown card 'Raigeky'; did you mean 'Raigeki'?",
                "      - A activates Raigeky",
                "                    ^",
            ],
            id="history-names-nothing",
        ),
        pytest.param(
            GOOD.replace("A activates Raigeki", "C activates Raigeki"),
            ["s.yaml:8:5: error: a history step starts with a player (A or B), not 'C'"],
            id="history-unknown-player",
        ),
        pytest.param(
            GOOD.replace("A activates Raigeki", "B activates Mirror Force").replace(
                "earlier-turn", "this-turn"
            ),
            [
                "s.yaml:8:5: error: history step 'B activates Mirror Force' is not legal: "
                "a card of this kind cannot be activated in the turn it was set "
                "(card.set-this-turn)",
            ],
            id="history-illegal",
        ),
        pytest.param(
            GOOD.replace("A activates Raigeki", "A activates Raigeki targeting Mirror Force"),
            [
                "s.yaml:8:5: error: history step 'A activates Raigeki targeting Mirror Force' "
                "names a target, but Raigeki's effect does not target",
            ],
            id="history-target-for-untargeted",
        ),
        pytest.param(
            GOOD.replace("can_respond(B)", "can_respond(B"),
            [
                "s.yaml:10:25: error: claim ends too early",
                "      - claim: can_respond(B",
                "    " + " " * 24 + "^",
            ],
            id="claim-syntax",
        ),
        pytest.param(
            GOOD.replace("can_respond(B)", 'resolves("Raigekii")'),
            ["s.yaml:10:21: error: unknown card 'Raigekii'; did you mean 'Raigeki'?"],
            id="claim-unknown-card",
        ),
        pytest.param(
            GOOD.replace("can_respond(B)", 'zone("Raigeki") == pocket'),
            [
                "s.yaml:10:31: error: unknown zone 'pocket' (zones: deck, hand, field, graveyard, "
                "banished)"
            ],
            id="claim-unknown-zone",
        ),
        pytest.param(
            GOOD.replace("expect: holds", "expect: yes"),
            [
                "s.yaml:11:13: error: unknown value 'yes' for 'expect' (expected 'holds' or 'fails')",
                "        expect: yes",
                "                ^",
            ],
            id="expect-unknown-value",
        ),
        pytest.param(
            GOOD.replace("expect: holds", "expect: [holds]"),
            [
                "s.yaml:11:13: error: wrong type for 'expect': expected 'holds' or 'fails', got a list"
            ],
            id="expect-wrong-type",
        ),
        pytest.param(
            GOOD.replace("expect: holds", "expect: holds\n    because: reasons"),
            ["s.yaml:12:5: error: unknown key 'because' (expected one of: claim, expect, id, "],
            id="claim-mapping-unknown-key",
        ),
        pytest.param(
            GOOD.replace("- claim: can_respond(B)", "- claim: [can_respond(B)]"),
            [
                "s.yaml:10:12: error: wrong type for 'claim': input should be a valid string, got a list"
            ],
            id="claim-mapping-wrong-type",
        ),
        pytest.param(
            GOOD + "  - 3\n",
            [
                "s.yaml:12:5: error: wrong type for 'claims' item 2: expected a mapping or a string, got 3"
            ],
            id="claim-neither-mapping-nor-string",
        ),
        pytest.param(
            GOOD.replace("  - A activates Raigeki", "  - A activates Raigeki\n  - {B: passes}"),
            [
                "s.yaml:9:5: error: wrong type for 'history' item 2: input should be a valid string, got a mapping"
            ],
            id="history-entry-mapping",
        ),
        pytest.param(
            GOOD.replace(
                "  Mirror Force: {kind: normal-trap, controller: B, set: earlier-turn}",
                "  Mirror Force: [normal-trap]",
            ),
            ["s.yaml:5:17: error: wrong type for 'Mirror Force': expected a mapping, got a list"],
            id="card-not-a-mapping",
        ),
        pytest.param(
            GOOD.replace(
                "effect: {destroy: all-monsters, of: opponent}",
                "effect: [{destroy: all-monsters}, 3]",
            ),
            ["s.yaml:4:94: error: wrong type for 'effect' item 2: expected a mapping, got 3"],
            id="effect-list-entry",
        ),
        pytest.param(
            GOOD.replace("effect: {destroy: all-monsters, of: opponent}", "cost: {pay-lp: many}"),
            [
                "s.yaml:4:75: error: unknown value 'many' for 'pay-lp' (expected a whole number or 'half')"
            ],
            id="union-of-number-and-word",
        ),
        pytest.param(
            GOOD.replace("cards:", "cards: [\n"),
            ["s.yaml:6:3: error: YAML syntax: expected ',' or ']', but got '<scalar>'"],
            id="yaml-syntax",
        ),
    ],
)
def test_bad_input(
    run: Callable[..., Run], write: Callable[[str, str], Path], text: str, expected: list[str]
) -> None:
    path = write("s.yaml", text)
    lines = error_of(run, path)
    rendered = [line.replace(str(path), "s.yaml") for line in lines]
    for want, got in zip(expected, rendered, strict=False):
        assert got.startswith(want), (got, want)
    assert len(rendered) >= len(expected)


def test_missing_file(run: Callable[..., Run], tmp_path: Path) -> None:
    missing = tmp_path / "nothing.yaml"
    lines = error_of(run, missing)
    assert lines[0] == f"{missing}:1:1: error: no such file: {missing}"


def test_ask_claim_error_points_into_the_command_line(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    path = write("s.yaml", GOOD)
    result = run("ask", str(path), "resolves(Raigeki)")
    assert result.code == 2
    assert result.err.splitlines() == [
        "<claim>:1:10: error: expected a card name in quotes, got Raigeki",
        "    resolves(Raigeki)",
        "             ^",
    ]


def test_internal_errors_say_so_without_a_traceback(
    run: Callable[..., Run], write: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import verifier.run.check

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(verifier.run.check, "prepare", broken)
    result = run("check", str(write("s.yaml", GOOD)))
    assert result.code == 4
    assert result.err.startswith("internal error: RuntimeError: boom")
    assert "Traceback" not in result.err
    with_debug = run("--debug", "check", str(write("t.yaml", GOOD)))
    assert "Traceback" in with_debug.err


def test_an_effect_on_its_target_needs_a_target(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    # Found by fuzzing: a card whose 'target:' line was deleted crashed the explorer.
    text = (
        "rules: yugioh\nturn: A\ncards:\n"
        "  Typhoon: {kind: quick-play-spell, controller: A, effect: {destroy: target}}\n"
        "claims:\n  - can_respond(B)\n"
    )
    result = run("check", str(write("untargeted.yaml", text)))
    assert result.code == 2
    assert (
        "untargeted.yaml:4:3: error: Typhoon's effect acts on its target, but it has none: "
        "add 'target:' (which cards it may target)"
    ) in result.err
