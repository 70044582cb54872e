"""Paths a scenario names (rules:, library:) are confined, and never echo other files.

Scenarios travel between people: a path written in one resolves from the scenario's folder
and may not leave that folder's tree (the current folder is no root of its own) unless the
user passes --allow-outside; a referenced file that is not YAML of the expected kind is reported
at the scenario's line with its position, never its text.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import MODELS, Run

SECRET = "hunter2-DO-NOT-PRINT"

LIBRARY = """\
cards:
  Pot of Greed: {kind: normal-spell, effect: {draw: 2}}
"""


def scenario(
    rules: str = "yugioh", library: str | None = None, claim_rules: str | None = None
) -> str:
    lines = [f"rules: {rules}"]
    if library is not None:
        lines.append(f"library: {library}")
    lines += ["turn: A", "cards:"]
    if library is not None:
        lines.append("  Pot of Greed: {controller: A, zone: hand}")
    else:
        lines.append(
            "  Pot of Greed: {kind: normal-spell, controller: A, zone: hand, effect: {draw: 2}}"
        )
    lines += ["claims:", '  - claim: exists resolves("Pot of Greed")', "    expect: holds"]
    if claim_rules is not None:
        lines.append(f"    rules: {claim_rules}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A scenario folder, a folder outside it, and a current folder that contains neither."""
    folders = {name: tmp_path / name for name in ("scenarios", "outside", "cwd")}
    for folder in folders.values():
        folder.mkdir()
    monkeypatch.chdir(folders["cwd"])
    return folders


def refusal(path: Path, line: int, col: int, message: str, text: str) -> str:
    return f"{path}:{line}:{col}: error: {message}\n    {text}\n    {' ' * (col - 1)}^\n"


def assert_quiet(result: Run) -> None:
    assert SECRET not in result.out
    assert SECRET not in result.err
    assert "Traceback" not in result.err


# -- confinement ----------------------------------------------------------------------------


def test_absolute_rules_path_is_refused(run: Callable[..., Run], layout: dict[str, Path]) -> None:
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("/etc/passwd"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert result.err == refusal(
        path,
        1,
        8,
        "rules file '/etc/passwd' is outside the scenario's folder (use --allow-outside to "
        "allow it)",
        "rules: /etc/passwd",
    )
    assert "root:" not in result.out + result.err


def test_relative_rules_path_that_climbs_out_is_refused(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    (layout["outside"] / "model.yaml").write_text((MODELS / "yugioh.yaml").read_text())
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("../outside/model.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert result.err == refusal(
        path,
        1,
        8,
        "rules file '../outside/model.yaml' is outside the scenario's folder (use "
        "--allow-outside to allow it)",
        "rules: ../outside/model.yaml",
    )
    allowed = run("check", "--allow-outside", str(path))
    assert allowed.code == 0, allowed.err
    assert "1 claim(s) in 1 file(s): 1 as expected" in allowed.out


def test_symlink_inside_the_folder_to_a_file_outside_is_refused(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    target = layout["outside"] / "model.yaml"
    target.write_text((MODELS / "yugioh.yaml").read_text())
    (layout["scenarios"] / "model.yaml").symlink_to(target)
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("model.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert "rules file 'model.yaml' is outside the scenario's folder" in result.err


def test_the_current_folder_is_no_root_of_its_own(
    run: Callable[..., Run], layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Run from a folder that holds the referenced files (from "/", every file is inside the
    # current folder): the scenario's own tree still confines it.
    (layout["cwd"] / "model.yaml").write_text((MODELS / "yugioh.yaml").read_text())
    (layout["cwd"] / "lib.cards.yaml").write_text(LIBRARY)
    path = layout["scenarios"] / "s.yaml"
    rules = str(layout["cwd"] / "model.yaml")
    path.write_text(scenario(rules, str(layout["cwd"] / "lib.cards.yaml")), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert "is outside the scenario's folder (use --allow-outside to allow it)" in result.err
    assert run("check", "--allow-outside", str(path)).code == 0
    monkeypatch.chdir("/")
    secret = layout["outside"] / "secret.yaml"
    secret.write_text(f"cards: {{{SECRET}: 1}}\n", encoding="utf-8")
    path.write_text(scenario(library=str(secret)), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert "is outside the scenario's folder" in result.err
    assert_quiet(result)


def test_paths_inside_the_scenario_folder_are_allowed(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    sub = layout["scenarios"] / "sub"
    sub.mkdir()
    (sub / "model.yml").write_text((MODELS / "yugioh.yaml").read_text())
    (sub / "lib.cards.yaml").write_text(LIBRARY)
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("sub/model.yml", "sub/../sub/lib.cards.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 0, result.err


def test_library_outside_is_refused_unless_allowed(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    (layout["outside"] / "lib.cards.yaml").write_text(LIBRARY)
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario(library="[../outside/lib.cards.yaml]"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert result.err == refusal(
        path,
        2,
        11,
        "card library '../outside/lib.cards.yaml' is outside the scenario's folder (use "
        "--allow-outside to allow it)",
        "library: [../outside/lib.cards.yaml]",
    )
    allowed = run("check", "--allow-outside", str(path))
    assert allowed.code == 0, allowed.err


def test_a_claims_own_rules_path_is_confined_too(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario(claim_rules="/etc/passwd"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert result.err == refusal(
        path,
        8,
        12,
        "rules file '/etc/passwd' is outside the scenario's folder (use --allow-outside to "
        "allow it)",
        "    rules: /etc/passwd",
    )


@pytest.mark.parametrize(
    "command",
    [
        ["check"],
        ["ask", "{path}", "can_respond(B)"],
        ["explain"],
        ["explore"],
        ["orders"],
        ["why", "{path}", "B activates Pot of Greed"],
        ["lint", "cmc-instant"],
        ["diff", "yugioh", "yugioh-trigger-first"],
    ],
)
def test_every_command_that_loads_scenarios_confines_them(
    run: Callable[..., Run], layout: dict[str, Path], command: list[str]
) -> None:
    # A library, since lint and diff load scenarios under their own model.
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario(library="/etc/passwd"), encoding="utf-8")
    args = [a.format(path=path) for a in command]
    if "{path}" not in command:
        args.append(str(path))
    result = run(*args)
    assert result.code == 2, result.err
    assert result.err.splitlines()[0] == (
        f"{path}:2:10: error: card library '/etc/passwd' is outside the scenario's folder "
        "(use --allow-outside to allow it)"
    )
    assert "root:" not in result.out + result.err
    # The option exists on the command and lets the path through, to the next problem:
    # /etc/passwd is not a card library (or is missing on this machine).
    allowed = run(args[0], "--allow-outside", *args[1:])
    assert allowed.code == 2
    assert "outside the scenario's folder" not in allowed.err
    assert "card library '/etc/passwd'" in allowed.err
    assert "root:" not in allowed.out + allowed.err


def test_rule_system_names_keep_looking_up_the_model_folders(
    run: Callable[..., Run], layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    own = layout["outside"] / "models"
    own.mkdir()
    text = (MODELS / "yugioh.yaml").read_text().replace("name: yugioh", "name: house-rules")
    (own / "house-rules.yaml").write_text(text)
    monkeypatch.setenv("VERIFIER_MODELS", os.pathsep.join(["/nonexistent", str(own)]))
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("house-rules"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 0, result.err
    assert f"{path} (house-rules)" in result.out
    listed = run("models")
    assert listed.out.split()[0:1] == ["cmc"]
    assert "house-rules" in listed.out


def test_own_models_come_before_the_bundled_ones(
    run: Callable[..., Run], layout: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (MODELS / "yugioh.yaml").read_text()
    description = next(line for line in text.splitlines() if line.startswith("description:"))
    (layout["outside"] / "yugioh.yaml").write_text(
        text.replace(description, "description: the house variant")
    )
    monkeypatch.setenv("VERIFIER_MODELS", str(layout["outside"]))
    listed = run("models")
    assert listed.code == 0
    [line] = [x for x in listed.out.splitlines() if x.split()[0] == "yugioh"]
    assert line.split(None, 1)[1] == "the house variant"


# -- names the system cannot look up ----------------------------------------------------------


def test_a_very_long_rules_path_is_a_clean_error(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    name = "x" * 5000 + ".yaml"
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario(name), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    head = result.err.splitlines()[0]
    assert head == (
        f"{path}:1:8: error: rules file '{'x' * 120}…' (5005 characters) cannot be read: "
        "file name too long"
    )


def test_a_very_long_rules_name_is_a_clean_error(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("y" * 5000), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    head = result.err.splitlines()[0]
    assert head.startswith(
        f"{path}:1:8: error: unknown rule system '{'y' * 120}…' (5000 characters) (known: cmc, "
    )


def test_a_nul_character_in_a_path_is_a_clean_error(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario('"a\\0b.yaml"'), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    # A NUL made by a double-quoted string's escape is refused as the string is read.
    assert result.err.splitlines()[0] == (
        f"{path}:1:8: error: control character U+0000 is not allowed in a string (names and "
        "texts are printed)"
    )


def test_a_missing_library_is_reported_at_its_line(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario(library="nowhere.cards.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    looked = layout["scenarios"] / "nowhere.cards.yaml"
    assert result.err == refusal(
        path,
        2,
        10,
        f"no card library 'nowhere.cards.yaml' (looked for {looked})",
        "library: nowhere.cards.yaml",
    )


# -- no echo ----------------------------------------------------------------------------------

NOT_A_MODEL = [
    # (file text, the message's tail)
    (f"password: {SECRET}\n", "is not {kind} (the problem is at line 1, column 1)"),
    (f"- {SECRET}\n- and more\n", "is not {kind} (the problem is at line 1, column 1)"),
    (f"{SECRET}\n", "is not {kind} (the problem is at line 1, column 1)"),
    (f"key: [{SECRET}\nother: 1\n", "is not valid YAML (the problem is at line 2, column 6)"),
    (f"{SECRET}: 1\n{SECRET}: 2\n", "is not valid YAML (the problem is at line 2, column 1)"),
    (f"name: !!python/object {SECRET}\n", "is not valid YAML (the problem is at line 1, column 7)"),
]


@pytest.mark.parametrize(("text", "tail"), NOT_A_MODEL)
def test_a_rules_file_of_another_kind_is_never_echoed(
    run: Callable[..., Run], layout: dict[str, Path], text: str, tail: str
) -> None:
    (layout["scenarios"] / "secret.yaml").write_text(text, encoding="utf-8")
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("secret.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert_quiet(result)
    assert result.err == refusal(
        path,
        1,
        8,
        "rules file 'secret.yaml' " + tail.format(kind="a rule system"),
        "rules: secret.yaml",
    )


@pytest.mark.parametrize(("text", "tail"), NOT_A_MODEL)
def test_a_library_of_another_kind_is_never_echoed(
    run: Callable[..., Run], layout: dict[str, Path], text: str, tail: str
) -> None:
    (layout["scenarios"] / "secret.cards.yaml").write_text(text, encoding="utf-8")
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario(library="secret.cards.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert_quiet(result)
    assert result.err == refusal(
        path,
        2,
        10,
        "card library 'secret.cards.yaml' " + tail.format(kind="a card library"),
        "library: secret.cards.yaml",
    )


def test_an_allowed_outside_file_is_not_echoed_either(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    secret = layout["outside"] / "secret"
    secret.write_text(f"user: {SECRET}\n", encoding="utf-8")
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario(str(secret)), encoding="utf-8")
    result = run("check", "--allow-outside", str(path))
    assert result.code == 2
    assert_quiet(result)
    head = result.err.splitlines()[0]
    assert head.startswith(f"{path}:1:8: error: rules file '")
    assert head.endswith(" is not a rule system (the problem is at line 1, column 1)")


def test_a_binary_rules_file_is_a_clean_error(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    (layout["scenarios"] / "blob.yaml").write_bytes(b"\xff\xfe" + SECRET.encode())
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("blob.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert_quiet(result)
    assert result.err == refusal(
        path, 1, 8, "rules file 'blob.yaml' is not a text file (not UTF-8)", "rules: blob.yaml"
    )


def test_a_directory_named_as_rules_is_a_clean_error(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    (layout["scenarios"] / "dir.yaml").mkdir()
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("dir.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert result.err == refusal(path, 1, 8, "no rule-system file 'dir.yaml'", "rules: dir.yaml")


def test_a_genuine_model_named_on_the_command_line_still_shows_its_line(
    run: Callable[..., Run], layout: dict[str, Path]
) -> None:
    text = (MODELS / "yugioh.yaml").read_text().replace("game: yugioh", "game: chess")
    model = layout["cwd"] / "broken.yaml"
    model.write_text(text, encoding="utf-8")
    line = text.splitlines().index("game: chess") + 1
    result = run("lint", str(model))
    assert result.code == 2
    assert f"{model}:{line}:7: error:" in result.err
    assert "    game: chess\n" in result.err


def test_generated_scenarios_name_a_findable_model_by_its_name() -> None:
    from verifier.io.model import load_model, model_reference

    assert model_reference(load_model(MODELS / "yugioh.yaml")) == "yugioh"
    tie = MODELS.parent / "tests" / "models" / "tie.yaml"
    assert model_reference(load_model(tie)) == str(tie.resolve())


def test_a_device_or_pipe_is_not_read(run: Callable[..., Run], layout: dict[str, Path]) -> None:
    os.mkfifo(layout["scenarios"] / "pipe.yaml")
    path = layout["scenarios"] / "s.yaml"
    path.write_text(scenario("pipe.yaml", "/dev/zero"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert result.err == refusal(path, 1, 8, "no rule-system file 'pipe.yaml'", "rules: pipe.yaml")
    path.write_text(scenario(library="/dev/zero"), encoding="utf-8")
    result = run("check", "--allow-outside", str(path))
    assert result.code == 2
    assert result.err == refusal(path, 2, 10, "no card library '/dev/zero'", "library: /dev/zero")


def test_a_source_tree_used_without_installing_finds_the_models(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from verifier.io import bundled, model

    def missing(name: str) -> None:
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(bundled.importlib.util, "find_spec", missing)
    assert model.bundled_models() == MODELS
    assert "yugioh" in [m.name for m in model.list_models()]
    assert bundled.bundled_examples() == MODELS.parent / "examples"
    assert sorted(bundled.bundled_libraries()) == ["cmc", "mtg", "yugioh"]
