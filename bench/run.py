"""Benchmarks: the explorer and the SMT engine on the same growing pools, side by side.

Each pool has SIZE set traps, half each side, half Spell Speed 2 and half 3; nothing has
happened yet, and the claim is `always chain_length <= SIZE` (it holds, so both engines
must cover every continuation). Every figure is the median of several runs, each in a fresh
process; the two engines alternate so that noise on a shared machine hits both alike.

    python bench/run.py [--runs 3] [--explore 4,6,8,10] [--smt 4,6,8] [--big 24]
        [--timeout 600] [--out bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def measure(engine: str, size: int, timeout: float) -> dict[str, Any]:
    command = [sys.executable, str(HERE / "measure.py"), engine, str(size), str(timeout)]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout * 2 + 60, check=False
        )
    except subprocess.TimeoutExpired:
        return {"engine": engine, "size": size, "verdict": "unknown", "seconds": float("inf")}
    if done.returncode != 0:
        return {"engine": engine, "size": size, "verdict": "error", "error": done.stderr[-400:]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def median(runs: list[dict[str, Any]], key: str) -> float:
    values = [r[key] for r in runs if isinstance(r.get(key), int | float)]
    return statistics.median(values) if values else float("nan")


def machine() -> str:
    import z3

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.system()} {platform.release()}, {os.cpu_count()} cores ({cpu}), "
        f"Python {platform.python_version()}, z3 {z3.get_version_string()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--explore", default="4,6,8,10")
    parser.add_argument("--smt", default="4,6,8")
    parser.add_argument("--big", type=int, default=24, help="the pool for the SMT target")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    args = parser.parse_args()
    explore_sizes = [int(s) for s in args.explore.split(",") if s]
    smt_sizes = [int(s) for s in args.smt.split(",") if s]
    results: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for size in sorted(set(explore_sizes) | set(smt_sizes)):
        for _ in range(args.runs):
            for engine, sizes in (("explore", explore_sizes), ("smt", smt_sizes)):
                if size in sizes:
                    run = measure(engine, size, args.timeout)
                    results.setdefault((engine, size), []).append(run)
                    print(json.dumps(run), flush=True)
    big = measure("smt", args.big, args.timeout)
    print(json.dumps(big), flush=True)
    Path(args.out).write_text(report(results, big, args), encoding="utf-8")
    print(f"wrote {args.out}")


def report(
    results: dict[tuple[str, int], list[dict[str, Any]]], big: dict[str, Any], args: Any
) -> str:
    sizes = sorted({size for _, size in results})
    lines = [
        "# Benchmark results",
        "",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {machine()}",
        f"- Command: `python bench/run.py --runs {args.runs} --explore {args.explore} "
        f"--smt {args.smt} --big {args.big} --timeout {args.timeout:g}`",
        "- Pools: SIZE set traps, half each side, half Spell Speed 2 (normal) and half 3",
        "  (counter), in an open game state; claim `always chain_length <= SIZE` (it holds).",
        f"- Figures are medians of {args.runs} runs, each in a fresh process; the engines",
        "  alternate run by run. Peak memory is the process's maximum resident set.",
        "",
        "| cards | explorer states | explorer s | states/s | explorer MB | SMT s | SMT MB "
        "| SMT bound | SMT / explorer time |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size in sizes:
        ex = results.get(("explore", size), [])
        sm = results.get(("smt", size), [])
        e_s, s_s = median(ex, "seconds"), median(sm, "seconds")
        states = median(ex, "states")
        rate = states / e_s if ex and e_s else float("nan")
        ratio = s_s / e_s if ex and sm and e_s else float("nan")
        bound = median(sm, "bound")
        lines.append(
            f"| {size} | {_n(states)} | {_f(e_s)} | {_n(rate)} | {_f(median(ex, 'peak_mb'))} "
            f"| {_f(s_s)} | {_f(median(sm, 'peak_mb'))} | {_n(bound)} | {_f(ratio)} |"
        )
    lines += [
        "",
        f"SMT engine on {args.big} cards (target: under 2 s): verdict {big.get('verdict')}, "
        f"{_f(big.get('seconds', float('nan')))} s, bound {big.get('bound', '-')}, "
        f"{_f(big.get('peak_mb', float('nan')))} MB.",
        "",
    ]
    return "\n".join(lines) + "\n"


def _f(value: float) -> str:
    if math.isnan(value):
        return "-"
    return "timeout" if math.isinf(value) else f"{value:.2f}"


def _n(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:,.0f}"


if __name__ == "__main__":
    main()
