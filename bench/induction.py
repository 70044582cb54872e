"""The SMT engine's arguments (inductive invariant, bounded) on the boards of its targets.

Workloads, each measured just after the seed example's ``can_respond(B)`` in a fresh process
(the ratio of the pair is the workload's ``× seed``): every claim of the Damage Step board
(``bench/boards/damage-step.yaml``) with ``--engine smt`` and with the default engine; the
trap pools (``bench/pools.py``: SIZE set traps, half each side, ``always chain_length <=
SIZE``; 10 is the "ten Set Traps, five a side" board) with ``--engine smt``; and ``check
--engine smt examples/`` once per run.

    python bench/induction.py [--runs 1] [--pools 8,10,12,24,40] [--timeout 120]

The default engine's race (the SMT engine beside the explorer) is measured on the ten
traps without reductions, with two cores and with one (``--race-timeout``, 400 s).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

START = "<!-- induction: written by bench/induction.py -->"
END = "<!-- end of induction -->"


def _examples(timeout: float) -> dict[str, Any]:
    """``check --engine smt examples/``: wall time, and how many claims came out as expected."""
    from bench.command import run

    began = time.perf_counter()
    ran = run(["check", "--json", "--engine", "smt", str(HERE.parent / "examples")], timeout)
    seconds = time.perf_counter() - began
    try:
        claims = json.loads(ran.stdout)["claims"]
    except (ValueError, KeyError):
        claims = []
    good = sum(c["verdict"] == c.get("expected") for c in claims)
    return {"seconds": seconds, "claims": len(claims), "as_expected": good}


def _argument(run: dict[str, Any]) -> str:
    """What decided it: the engine's argument, or "-" when nothing did."""
    return "-" if run["verdict"] == "unknown" else str(run["argument"])


def report(runs: list[dict[str, Any]], args: argparse.Namespace) -> str:
    from bench.reductions import _median, _times
    from bench.run import machine

    seed = _median([r for r in runs if r["workload"] == "seed"], "seconds")
    lines = [
        START,
        "## The SMT engine by induction",
        "",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {machine()}",
        f"- Command: `python bench/induction.py --runs {args.runs} --pools {args.pools} "
        f"--timeout {args.timeout:g}`",
        "- `verifier ask --json --engine ENGINE`, a fresh process per measurement, wall time",
        "  with start-up; × seed is the median ratio to the seed example's `can_respond(B)`",
        f"  measured just before (its median in this run: {seed:.2f} s); medians of {args.runs}.",
        "",
        "| workload | engine | verdict | argument | s | × seed | MB |",
        "|:--|:--|:--|:--|---:|---:|---:|",
    ]
    keys = dict.fromkeys(
        (r["workload"], r["engine"]) for r in runs if r["workload"] not in ("seed", "examples")
    )
    for workload, engine in keys:
        same = [r for r in runs if r["workload"] == workload and r["engine"] == engine]
        lines.append(
            f"| {workload} | {engine} | {same[0]['verdict']} | {_argument(same[0])} "
            f"| {_median(same, 'seconds'):.2f} | {_times(same):.1f} "
            f"| {_median(same, 'peak_mb'):.0f} |"
        )
    examples = [r for r in runs if r["workload"] == "examples"]
    if examples:
        lines += [
            "",
            f"`check --engine smt examples/`: {_median(examples, 'seconds'):.0f} s "
            f"({examples[0]['as_expected']} of {examples[0]['claims']} claims as expected).",
        ]
    lines += ["", END]
    return "\n".join(lines)


def main() -> None:
    from bench.pools import write_pool
    from bench.reductions import BOARD, SEED, _board_claims, measure

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--pools", default="8,10,12,24,40")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--no-examples", dest="examples", action="store_false")
    parser.add_argument("--no-race", dest="race", action="store_false")
    parser.add_argument("--race-timeout", type=float, default=400.0)
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    parser.add_argument(
        "--from",
        dest="lines",
        help="write the section from the lines a run printed (JSON, one a measurement)",
    )
    args = parser.parse_args()
    runs: list[dict[str, Any]] = []

    def paired(
        path: Path, claim: str, engine: str, name: str, reduce: bool = True, cores: int = 2
    ) -> None:
        seed = measure(SEED, "can_respond(B)", True, args.timeout)
        runs.append({"workload": "seed", **seed})
        timeout = args.timeout if reduce else args.race_timeout
        found = measure(path, claim, reduce, timeout, engine=engine, cores=cores)
        runs.append({**found, "workload": name, "engine": engine, "seed_seconds": seed["seconds"]})
        print(json.dumps(runs[-1]), flush=True)

    if args.lines:
        for line in Path(args.lines).read_text(encoding="utf-8").splitlines():
            if line.startswith("{"):
                found = json.loads(line)
                if "seed_seconds" in found:  # the seed measured just before it
                    runs.append({"workload": "seed", "seconds": found["seed_seconds"]})
                runs.append(found)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for _ in range(0 if args.lines else args.runs):
            for claim in _board_claims():
                for engine in ("smt", "auto"):
                    paired(BOARD, claim, engine, f"board `{claim}`")
            for size in (int(s) for s in args.pools.split(",") if s):
                path = write_pool(folder, size)
                paired(path, f"always chain_length <= {size}", "smt", f"pool {size}")
            if args.race:
                # The default engine's race: the explorer without reductions stops at its
                # state limit on ten traps; the SMT engine beside it (two cores) or after it.
                path = write_pool(folder, 10)
                claim = "always chain_length <= 10"
                for cores, how in ((2, "race, two cores"), (1, "one core, no race")):
                    name = f"pool 10, --no-reduce, {how}"
                    paired(path, claim, "auto", name, reduce=False, cores=cores)
            if args.examples:
                runs.append({"workload": "examples", "engine": "smt", **_examples(3600)})
                print(json.dumps(runs[-1]), flush=True)
    section = report(runs, args)
    from bench.run import write_section

    write_section(Path(args.out), section, START, END)
    print(section)


if __name__ == "__main__":
    main()
