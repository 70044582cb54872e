"""Small rooms: no module of the package is over 800 lines.

A module past that holds more than one job; it is split by section (as the scenario loader,
the transition system, the file formats, the command line and the scenario generator were)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 800


def test_no_module_is_over_800_lines() -> None:
    sizes = {
        p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in (ROOT / "verifier").rglob("*.py")
    }
    assert len(sizes) > 100
    assert {p: n for p, n in sizes.items() if n > MOST_LINES} == {}
