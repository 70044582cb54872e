"""The sweep benchmark: instance runs per second on a process pool of 1 and 2 workers and on
a local Dask cluster of 2 workers, side by side in one run.

The workload is `bench/sweeps/two-answers.sweep.yaml` (every pair of the library's Traps that
answer an activation, Set against Raigeki, under two rule systems: 110 instance runs of 2
claims). Each measurement is one `verifier sweep` command in a fresh process with a fresh
cache folder (so nothing comes from the cache), timed from start to exit: the interpreter's
start-up, the workers' start-up and the cluster's are included, as a user meets them. The
configurations alternate run by run, so that noise on a shared machine hits each alike; the
figures are medians, and every run's rows (all but `seconds`) must be the same.

    python bench/sweep.py [--runs 3] [--out bench/RESULTS.md] [--raw bench/sweep.json]
    python bench/sweep.py --from-raw      # rebuild the report from the raw figures
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from bench.run import machine as run_machine  # noqa: E402

SWEEP = "bench/sweeps/two-answers.sweep.yaml"
START = "<!-- sweep: written by bench/sweep.py -->"
END = "<!-- end of sweep -->"
CONFIGURATIONS = {
    "process pool, 1 worker": ["--workers", "1"],
    "process pool, 2 workers": ["--workers", "2"],
    "local Dask cluster, 2 workers": ["--scheduler", "local-cluster", "--workers", "2"],
}


def rows(path: Path) -> list[tuple[str, ...]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [tuple(v for k, v in r.items() if k != "seconds") for r in csv.DictReader(handle)]


def measure(options: list[str]) -> tuple[float, float, list[tuple[str, ...]]]:
    """The wall time of one sweep, the CPU time of its processes (those that ended with it:
    the command and its pool's workers), and its rows."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rows.csv"
        # The benchmark's sweep reads the examples' card library, outside its own folder.
        command = [sys.executable, "-m", "verifier", "sweep", SWEEP, "--quiet", "--allow-outside"]
        command += ["--out", str(out)]
        cpu = _children_cpu()
        began = time.perf_counter()
        done = subprocess.run(
            [*command, *options], cwd=ROOT, capture_output=True, text=True, check=False
        )
        seconds = time.perf_counter() - began
        cpu = _children_cpu() - cpu
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(options)}: exit {done.returncode}\n{done.stderr}")
        return seconds, cpu, rows(out)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine() -> str:
    import dask

    return run_machine(f"Dask {dask.__version__}")


def report(raw: dict[str, Any]) -> list[str]:
    times: dict[str, list[float]] = raw["seconds"]
    cpus: dict[str, list[float]] = raw["cpu"]
    instances = raw["instances"]
    single = times["process pool, 1 worker"]
    base = statistics.median(single)
    lines = [
        START,
        "## Sweeps",
        "",
        f"- Date: {raw['date']}",
        f"- Machine: {raw['machine']}",
        f"- Command: `python bench/sweep.py --runs {raw['runs']}` (raw figures in "
        "`bench/sweep.json`; `--from-raw` rebuilds this section)",
        f"- Load average (1, 5, 15 min): {raw['load_before']} before the run, "
        f"{raw['load_after']} after it, on {os.cpu_count()} cores",
        f"- Workload: `{SWEEP}`, {instances} instance runs ({instances // 2} pairs of Traps"
        " x 2 rule",
        "  systems, 2 claims each), one `verifier sweep` command per measurement in a fresh",
        "  process and a fresh cache, timed from start to exit (interpreter, worker and",
        "  cluster start-up included); the configurations alternate run by run; medians of",
        f"  {raw['runs']} runs. Every run gave the same rows. CPU s: user and system time of",
        "  the command's processes (its pool's workers, the cluster's) as they ended.",
        "",
        "| configuration | median s | instance runs/s | speed-up over 1 worker | run by run "
        "| CPU s | runs (s) |",
        "|:--|---:|---:|---:|:--|---:|:--|",
    ]
    for name, values in times.items():
        median = statistics.median(values)
        ratios = [s / v for s, v in zip(single, values, strict=True)]
        lines.append(
            f"| {name} | {median:.2f} | {instances / median:.2f} | {base / median:.2f} | "
            f"{min(ratios):.2f} to {max(ratios):.2f} | {statistics.median(cpus[name]):.1f} | "
            + ", ".join(f"{v:.2f}" for v in values)
            + " |"
        )
    lines += ["", END]
    return lines


def run(runs: int) -> dict[str, Any]:
    """Measure every configuration ``runs`` times, alternating; the raw figures."""
    before = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    times: dict[str, list[float]] = {name: [] for name in CONFIGURATIONS}
    cpus: dict[str, list[float]] = {name: [] for name in CONFIGURATIONS}
    first: list[tuple[str, ...]] | None = None
    for number in range(runs):
        for name, options in CONFIGURATIONS.items():
            seconds, cpu, found = measure(options)
            if first is None:
                first = found
            elif found != first:
                raise SystemExit(f"{name}: the rows differ from the first run's")
            times[name].append(round(seconds, 2))
            cpus[name].append(round(cpu, 1))
            print(f"run {number + 1}: {name}: {seconds:.2f} s, {cpu:.1f} CPU s", file=sys.stderr)
    assert first is not None
    return {
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "runs": runs,
        "instances": len(first) // 2,  # two claims per instance run
        "load_before": before,
        "load_after": ", ".join(f"{x:.1f}" for x in os.getloadavg()),
        "seconds": times,
        "cpu": cpus,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    parser.add_argument("--raw", default=str(HERE / "sweep.json"))
    parser.add_argument("--from-raw", action="store_true", help="rebuild the report only")
    args = parser.parse_args()
    if args.from_raw:
        raw = json.loads(Path(args.raw).read_text(encoding="utf-8"))
    else:
        raw = run(args.runs)
        Path(args.raw).write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
    lines = report(raw)
    out = Path(args.out)
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    section = "\n".join(lines) + "\n"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        text = head + section + ("\n" + tail if tail else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    out.write_text(text, encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
