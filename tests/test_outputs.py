"""Output files (explore --graph, lint --witnesses, diff --out): never overwritten without
--force, never written through a symbolic link, an unwritable target a clean error (exit 2)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, Run
from verifier.errors import InputError
from verifier.io.output import write_output

RAIGEKI = str(EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml")
TIE = str(Path(__file__).resolve().parent / "models" / "tie.yaml")
KEEP = "keep me\n"


def _no_traceback(result: Run) -> None:
    assert "Traceback" not in result.err


# -- explore --graph ---------------------------------------------------------------------------


def test_graph_refuses_an_existing_file_without_force(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    target = tmp_path / "g.dot"
    target.write_text(KEEP, encoding="utf-8")
    result = run("explore", RAIGEKI, "--graph", str(target))
    assert result.code == 2
    assert result.err == f"error: '{target}' exists; use --force to overwrite\n"
    assert result.out == ""
    assert target.read_text(encoding="utf-8") == KEEP
    forced = run("explore", RAIGEKI, "--graph", str(target), "--force")
    assert forced.code == 0
    assert target.read_text(encoding="utf-8").startswith("digraph chain {")


@pytest.mark.parametrize("force", [False, True])
def test_graph_refuses_a_symlink(run: Callable[..., Run], tmp_path: Path, force: bool) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text(KEEP, encoding="utf-8")
    link = tmp_path / "g.graphml"
    link.symlink_to(victim)
    result = run("explore", RAIGEKI, "--graph", str(link), *(["--force"] if force else []))
    assert result.code == 2
    assert result.err == f"error: '{link}' is a symbolic link; refusing to write through it\n"
    assert victim.read_text(encoding="utf-8") == KEEP


def test_graph_refuses_a_dangling_symlink(run: Callable[..., Run], tmp_path: Path) -> None:
    link = tmp_path / "g.dot"
    link.symlink_to(tmp_path / "elsewhere.dot")
    result = run("explore", RAIGEKI, "--graph", str(link))
    assert result.code == 2
    assert "is a symbolic link" in result.err
    assert not (tmp_path / "elsewhere.dot").exists()


def test_graph_into_a_missing_folder_is_a_clean_error(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    target = tmp_path / "nowhere" / "g.dot"
    result = run("explore", RAIGEKI, "--graph", str(target))
    assert result.code == 2
    assert result.err == f"error: cannot write '{target}': no folder '{target.parent}'\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_graph_into_a_read_only_folder_is_a_clean_error(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        result = run("explore", RAIGEKI, "--graph", str(folder / "g.dot"))
    finally:
        folder.chmod(0o700)
    assert result.code == 2
    assert result.err.startswith(f"error: cannot write '{folder / 'g.dot'}': ")
    _no_traceback(result)


def test_graph_onto_a_folder_is_a_clean_error(run: Callable[..., Run], tmp_path: Path) -> None:
    folder = tmp_path / "g.dot"
    folder.mkdir()
    result = run("explore", RAIGEKI, "--graph", str(folder), "--force")
    assert result.code == 2
    assert result.err == f"error: '{folder}' is a directory\n"


def test_the_writer_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is not a regular file"):
        write_output(fifo, "x", force=True)
    with pytest.raises(InputError, match="exists; use --force"):
        write_output(fifo, "x", force=False)


def test_the_writer_creates_new_files_and_truncates_with_force(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    write_output(target, "a long first text\n", force=False)
    write_output(target, "short\n", force=True)
    assert target.read_text(encoding="utf-8") == "short\n"


# -- lint --witnesses ---------------------------------------------------------------------------


def test_witnesses_are_written_and_not_overwritten_without_force(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    folder = tmp_path / "w"
    first = run("lint", TIE, "--witnesses", str(folder))
    assert first.code == 1
    witness = folder / "01-resolution-tie.yaml"
    assert f"    witness: {witness}" in first.out.splitlines()
    assert witness.read_text(encoding="utf-8").startswith("rules:")
    witness.write_text(KEEP, encoding="utf-8")
    again = run("lint", TIE, "--witnesses", str(folder))
    assert again.code == 2
    assert again.err == f"error: '{witness}' exists; use --force to overwrite\n"
    assert witness.read_text(encoding="utf-8") == KEEP
    forced = run("lint", TIE, "--witnesses", str(folder), "--force")
    assert forced.code == 1
    assert witness.read_text(encoding="utf-8") != KEEP


def test_witnesses_never_go_into_a_symlinked_folder(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "w"
    link.symlink_to(real, target_is_directory=True)
    result = run("lint", TIE, "--witnesses", str(link), "--force")
    assert result.code == 2
    assert result.err == f"error: '{link}' is a symbolic link; refusing to write into it\n"
    assert list(real.iterdir()) == []


def test_a_witness_is_never_written_through_a_symlink(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text(KEEP, encoding="utf-8")
    (folder / "01-resolution-tie.yaml").symlink_to(victim)
    result = run("lint", TIE, "--witnesses", str(folder), "--force")
    assert result.code == 2
    assert result.err == (
        f"error: '{folder / '01-resolution-tie.yaml'}' is a symbolic link; "
        "refusing to write through it\n"
    )
    assert victim.read_text(encoding="utf-8") == KEEP


def test_witnesses_onto_a_file_is_a_clean_error(run: Callable[..., Run], tmp_path: Path) -> None:
    target = tmp_path / "w"
    target.write_text(KEEP, encoding="utf-8")
    result = run("lint", TIE, "--witnesses", str(target))
    assert result.code == 2
    assert result.err == f"error: '{target}' exists and is not a folder\n"


# -- diff --out ---------------------------------------------------------------------------------


def test_diff_out_refuses_an_existing_file_before_searching(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    target = tmp_path / "found.yaml"
    target.write_text(KEEP, encoding="utf-8")
    result = run("diff", "cmc", "cmc-instant", "--out", str(target))
    assert result.code == 2
    assert result.err == f"error: '{target}' exists; use --force to overwrite\n"
    assert result.out == ""
    assert target.read_text(encoding="utf-8") == KEEP


def test_diff_out_refuses_a_symlink_even_with_force(
    run: Callable[..., Run], tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text(KEEP, encoding="utf-8")
    link = tmp_path / "found.yaml"
    link.symlink_to(victim)
    result = run("diff", "cmc", "cmc-instant", "--out", str(link), "--force")
    assert result.code == 2
    assert result.err == f"error: '{link}' is a symbolic link; refusing to write through it\n"
    assert victim.read_text(encoding="utf-8") == KEEP


def test_diff_out_writes_with_force(run: Callable[..., Run], tmp_path: Path) -> None:
    target = tmp_path / "found.yaml"
    target.write_text(KEEP, encoding="utf-8")
    result = run("diff", "cmc", "cmc-instant", "--tries", "20", "--out", str(target), "--force")
    assert result.code == 1
    assert f"wrote the distinguishing scenario to {target}" in result.out
    assert target.read_text(encoding="utf-8").startswith("rules: cmc")


@pytest.mark.skipif(not Path("/proc/version").is_file(), reason="needs Linux's /proc")
def test_diff_out_onto_an_unwritable_file_is_a_clean_error(run: Callable[..., Run]) -> None:
    result = run("diff", "cmc", "cmc-instant", "--tries", "20", "--out", "/proc/version", "--force")
    assert result.code == 2
    assert result.err.startswith("error: cannot write '/proc/version': ")
    assert len(result.err.splitlines()) == 1
    _no_traceback(result)


@pytest.mark.parametrize(
    "command",
    [
        ["explore", RAIGEKI, "--graph", "{target}/g.dot"],
        ["check", "--quiet", "--html", "{target}/r.html", RAIGEKI],
        ["check", "--quiet", "--junit", "{target}/r.xml", RAIGEKI],
        ["check", "--quiet", "--itf", "{target}/traces", RAIGEKI],
        ["lint", TIE, "--witnesses", "{target}/w"],
        ["diff", "yugioh", "yugioh-trigger-first", "--tries", "3", "--out", "{target}/d.yaml"],
    ],
)
def test_no_output_goes_through_a_symlinked_folder(
    run: Callable[..., Run], tmp_path: Path, command: list[str]
) -> None:
    # A link to a folder elsewhere, written as a folder of the output path, would take the
    # file there: refused, for every command that writes one, with --force too.
    real = tmp_path / "elsewhere"
    real.mkdir()
    link = tmp_path / "out"
    link.symlink_to(real, target_is_directory=True)
    args = [a.format(target=link) for a in command]
    result = run(*args, "--force")
    assert result.code == 2, result.err
    assert f"'{link}' is a symbolic link; refusing to write through it" in result.err
    assert list(real.iterdir()) == []
    _no_traceback(result)
