"""The explorer of two revisions, side by side: the same scenarios, runs alternating.

    python bench/versions.py [--base REV] [--runs N] [--write]

The base revision is exported with ``git archive`` into a temporary folder; each run is a
fresh process that imports ``verifier`` from one tree (the base, or this working tree) and
times ``explore`` alone (loading and the history are excluded; each scenario is explored
once untimed, so lazy imports and caches are warm, then three times, keeping the fastest)
on: every bundled example,
and the trap pools of 6 and 8 cards (``bench/pools.py``). Runs alternate between the two
trees, so both see the same machine load. Medians, states per second and the ratio of this
tree's time to the base's are printed, and with ``--write`` replace the "Explorer across
revisions" section of ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from datetime import date
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "RESULTS.md"
HEADING = "## Explorer across revisions"

CHILD = r"""
import json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import verifier
assert verifier.__file__.startswith(sys.argv[1]), verifier.__file__
try:
    from verifier.io.scenario import load_scenario
    from verifier.run.check import prepare
    from verifier.engines.explore import explore
except ImportError:  # the layout before the package was reshaped
    from verifier.scenario import load_scenario
    from verifier.checker import prepare
    from verifier.explore import explore
sys.path.insert(0, sys.argv[2])
from bench.pools import write_pool

def measure(paths):
    states = 0
    seconds = 0.0
    for path in paths:
        prepared = prepare(load_scenario(path))
        explore(prepared.system, prepared.history.state, 2_000_000)  # warm-up, untimed
        best = None
        for _ in range(3):
            began = time.perf_counter()
            result = explore(prepared.system, prepared.history.state, 2_000_000)
            took = time.perf_counter() - began
            best = took if best is None else min(best, took)
        seconds += best
        states += result.states
    return {"states": states, "seconds": seconds}

examples = sorted(
    p for p in (Path(sys.argv[2]) / "examples").rglob("*.yaml")
    if not p.name.endswith((".cards.yaml", ".sweep.yaml"))
)
out = {"examples": measure(examples)}
with tempfile.TemporaryDirectory() as folder:
    for size in (6, 8):
        out[f"pool-{size}"] = measure([write_pool(Path(folder), size)])
print(json.dumps(out))
"""


def export(revision: str, folder: Path) -> Path:
    """The files of ``revision`` in ``folder``."""
    archive = subprocess.run(
        ["git", "archive", revision], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def run(tree: Path) -> dict[str, dict[str, float]]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tree), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, dict[str, float]] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="d6b190c", help="the revision to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="update bench/RESULTS.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = export(args.base, Path(folder))
        figures: dict[str, list[dict[str, dict[str, float]]]] = {"base": [], "this": []}
        began = time.perf_counter()
        for _ in range(args.runs):
            figures["base"].append(run(base))
            figures["this"].append(run(ROOT))
        wall = time.perf_counter() - began
    lines = report(args.base, args.runs, figures, wall)
    print("\n".join(lines))
    if args.write:
        write(lines)


def report(
    base: str, runs: int, figures: dict[str, list[dict[str, dict[str, float]]]], wall: float
) -> list[str]:
    lines = [
        HEADING,
        "",
        f"- Date: {date.today().isoformat()}",
        f"- Machine: {platform.system()} {platform.release()}, Python {platform.python_version()}",
        f"- Command: `python bench/versions.py --base {base} --runs {runs} --write` "
        f"({wall:.0f} s in all)",
        f"- Base: revision `{base}`; this: the working tree. Medians of {runs} runs, each a",
        "  fresh process, the two trees alternating; the time is `explore` alone: per scenario",
        "  the fastest of three explorations after an untimed warm-up one.",
        "",
        "| scenarios | states | base s | this s | base states/s | this states/s "
        "| this ÷ base (time) | run by run |",
        "|:--|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name in figures["base"][0]:
        states = int(figures["this"][0][name]["states"])
        same = all(int(f[name]["states"]) == states for side in figures.values() for f in side)
        times = {
            side: statistics.median(f[name]["seconds"] for f in figures[side])
            for side in ("base", "this")
        }
        ratios = sorted(
            this[name]["seconds"] / base[name]["seconds"]
            for base, this in zip(figures["base"], figures["this"], strict=True)
        )
        lines.append(
            f"| {name} | {states:,}{'' if same else ' (differs)'} | {times['base']:.3f} | "
            f"{times['this']:.3f} | {states / times['base']:,.0f} | {states / times['this']:,.0f} "
            f"| {times['this'] / times['base']:.2f} | {ratios[0]:.2f} to {ratios[-1]:.2f} |"
        )
    lines += [
        "",
        "The last column is the ratio of each pair of runs (this tree's run and the base's run",
        "just before it): its spread is the machine's noise, against which the median ratio",
        "is read.",
    ]
    return lines


def write(lines: list[str]) -> None:
    text = RESULTS.read_text(encoding="utf-8")
    section = "\n".join(lines) + "\n"
    if HEADING in text:
        start = text.index(HEADING)
        end = text.find("\n## ", start + len(HEADING))
        text = text[:start] + section + ("" if end < 0 else text[end:])
    else:
        text = text.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
