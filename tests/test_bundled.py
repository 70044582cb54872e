"""The examples and card libraries the package carries: named from any folder, copied out safely.

``library: yugioh`` names the bundled card library as ``rules: yugioh`` names the bundled
rule system; ``verifier examples DEST`` copies the examples out, never over a file without
``--force`` and never through a symbolic link.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, Run

from verifier.io.bundled import bundled_libraries, is_name

SHIPPED = sorted(
    p.relative_to(EXAMPLES)
    for p in EXAMPLES.rglob("*")
    if p.is_file() and p.suffix in {".yaml", ".json"}
)

NAMED = """\
rules: {rules}
library: {library}
turn: A
cards:
  Raigeki: {{controller: A, zone: hand}}
  Blue-Eyes White Dragon: {{kind: normal-monster, controller: B, atk: 3000}}
claims:
  - claim: can_activate(A, "Raigeki")
    expect: holds
"""


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with nothing of the project in it, as the current folder."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def test_the_bundled_libraries_are_found_by_name() -> None:
    libraries = bundled_libraries()
    assert sorted(libraries) == ["cmc", "mtg", "yugioh"]
    assert libraries["yugioh"] == EXAMPLES / "yugioh" / "yugioh.cards.yaml"
    assert is_name("yugioh") and not is_name("yugioh.cards.yaml") and not is_name("lib/yugioh")


def test_a_scenario_anywhere_names_a_bundled_library(
    run: Callable[..., Run], elsewhere: Path
) -> None:
    path = elsewhere / "named.yaml"
    path.write_text(NAMED.format(rules="yugioh", library="yugioh"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 0, result.err
    assert 'holds    ok               claim-1: can_activate(A, "Raigeki")' in result.out
    assert "Blue-Eyes White Dragon is destroyed" in result.out


def test_a_card_named_as_its_library_card_may_say_so(
    run: Callable[..., Run], elsewhere: Path
) -> None:
    text = NAMED.format(rules="yugioh", library="yugioh").replace(
        "Raigeki: {controller", "Raigeki: {card: Raigeki, controller"
    )
    path = elsewhere / "named.yaml"
    path.write_text(text, encoding="utf-8")
    assert run("check", str(path)).code == 0


def test_a_card_of_the_scenario_cannot_copy_itself(
    run: Callable[..., Run], elsewhere: Path
) -> None:
    path = elsewhere / "self.yaml"
    path.write_text(
        "rules: yugioh\nturn: A\ncards:\n  Pot: {card: Pot, controller: A}\n"
        "claims:\n  - claim: exists resolves(Pot)\n",
        encoding="utf-8",
    )
    result = run("check", str(path))
    assert result.code == 2
    assert result.err.startswith(f"{path}:4:15: error: no card 'Pot' in the library\n")


def test_an_unknown_library_name_is_refused_at_its_line(
    run: Callable[..., Run], elsewhere: Path
) -> None:
    path = elsewhere / "named.yaml"
    path.write_text(NAMED.format(rules="yugioh", library="yugio"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 2
    assert result.err == (
        f"{path}:2:10: error: no bundled card library 'yugio' (bundled: cmc, mtg, yugioh); "
        "did you mean 'yugioh'?; a library file is named with its .yaml suffix\n"
        "    library: yugio\n"
        "             ^\n"
    )


def test_a_library_file_beside_the_scenario_is_still_a_path(
    run: Callable[..., Run], elsewhere: Path
) -> None:
    (elsewhere / "yugioh.cards.yaml").write_text(
        "cards:\n  Raigeki: {kind: normal-spell, effect: {destroy: all-monsters, of: opponent}}\n",
        encoding="utf-8",
    )
    path = elsewhere / "named.yaml"
    path.write_text(NAMED.format(rules="yugioh", library="yugioh.cards.yaml"), encoding="utf-8")
    result = run("check", str(path))
    assert result.code == 0, result.err


# -- verifier examples --------------------------------------------------------------------------


def test_examples_are_copied_out_and_check_where_they_land(
    run: Callable[..., Run], elsewhere: Path
) -> None:
    copied = run("examples", "ex")
    assert copied.code == 0, copied.err
    assert copied.err == f"wrote {len(SHIPPED)} file(s) to ex\n"
    landed = sorted(p.relative_to(elsewhere / "ex") for p in (elsewhere / "ex").rglob("*"))
    folders = sorted({p.parent for p in SHIPPED} - {Path(".")})
    assert landed == sorted([*SHIPPED, *folders])
    for relative in SHIPPED:
        assert (elsewhere / "ex" / relative).read_bytes() == (EXAMPLES / relative).read_bytes()
    checked = run("check", "--brief", "ex/yugioh/battle-damage-step-limits.yaml")
    assert checked.code == 0, checked.out + checked.err


def test_examples_never_overwrite_without_force(run: Callable[..., Run], elsewhere: Path) -> None:
    (elsewhere / "ex" / "yugioh").mkdir(parents=True)
    mine = elsewhere / "ex" / "yugioh" / "yugioh.cards.yaml"
    mine.write_text("cards: {}\n", encoding="utf-8")
    refused = run("examples", "ex")
    assert refused.code == 2
    assert refused.err == (
        "error: 'ex/yugioh/yugioh.cards.yaml' exists; use --force to overwrite\n"
    )
    assert mine.read_text(encoding="utf-8") == "cards: {}\n"
    assert sorted(p.name for p in (elsewhere / "ex").rglob("*")) == ["yugioh", "yugioh.cards.yaml"]
    forced = run("examples", "ex", "--force")
    assert forced.code == 0, forced.err
    assert mine.read_bytes() == (EXAMPLES / "yugioh" / "yugioh.cards.yaml").read_bytes()


def test_examples_are_never_written_through_a_symbolic_link(
    run: Callable[..., Run], elsewhere: Path, tmp_path: Path
) -> None:
    target = tmp_path / "target"
    target.mkdir()
    os.symlink(target, elsewhere / "ex")
    refused = run("examples", "ex")
    assert refused.code == 2
    assert refused.err == "error: 'ex' is a symbolic link; refusing to write into it\n"
    assert list(target.iterdir()) == []
    # Nor through a link where one of the files goes, even with --force.
    (elsewhere / "ex").unlink()
    (elsewhere / "ex" / "cmc").mkdir(parents=True)
    os.symlink(target / "stolen", elsewhere / "ex" / "cmc" / "cmc.cards.yaml")
    forced = run("examples", "ex", "--force")
    assert forced.code == 2
    assert "'ex/cmc/cmc.cards.yaml' is a symbolic link; refusing to write through it" in forced.err
    assert list(target.iterdir()) == []
    # Nor into a linked folder among them.
    (elsewhere / "ex" / "cmc" / "cmc.cards.yaml").unlink()
    (elsewhere / "ex" / "cmc").rmdir()
    os.symlink(target, elsewhere / "ex" / "cmc")
    linked = run("examples", "ex", "--force")
    assert linked.code == 2
    assert linked.err == "error: 'ex/cmc' is not a folder (or is a symbolic link)\n"
    assert list(target.iterdir()) == []
