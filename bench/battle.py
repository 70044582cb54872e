"""The battle pool: the explorer and the SMT engine on growing Battle Phases, side by side.

A pool of SIZE has SIZE face-up Attack Position monsters on each side (B's alternate Attack
and Defense Position), and B has Mirror Force and Sakuretsu Armor Set. The scenario starts
in the Battle Step and goes through the Battle Phase (`until: battle`): every attack order,
every answer to each declaration, every Damage Step. The claim, `always battle_damage(B) <=
TOTAL` with TOTAL the sum of A's ATK, holds, so both engines must cover every continuation.
Every figure is the median of several runs, each in a fresh process, the engines alternating.

    python bench/battle.py [--runs 3] [--sizes 1,2,3] [--timeout 300] [--out bench/RESULTS.md]
    python bench/battle.py --one ENGINE SIZE TIMEOUT   # one measurement (used internally)
"""

from __future__ import annotations

import argparse
import datetime
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

START = "<!-- battle pool: written by bench/battle.py -->"
END = "<!-- end of battle pool -->"


def battle_pool(size: int) -> str:
    """The scenario of the battle pool of ``size`` monsters a side."""
    lines = ["rules: yugioh", "turn: A", "step: battle-step", "until: battle", "cards:"]
    total = 0
    for i in range(size):
        atk = 1500 + 200 * i
        total += atk
        lines.append(
            f"  A{i + 1}: {{kind: normal-monster, controller: A, level: 4, atk: {atk}, def: 1000}}"
        )
    for i in range(size):
        position = "attack" if i % 2 == 0 else "defense"
        lines.append(
            f"  B{i + 1}: {{kind: normal-monster, controller: B, level: 4, "
            f"atk: {1400 + 300 * i}, def: {1600 - 200 * i}, position: {position}}}"
        )
    lines += [
        "  Mirror Force:",
        "    kind: normal-trap",
        "    controller: B",
        "    set: earlier-turn",
        "    when: {attack-declared: monster, by: opponent}",
        "    effect: {destroy: all-monsters, of: opponent, filter: {card: monster, "
        "position: attack}}",
        "  Sakuretsu Armor:",
        "    kind: normal-trap",
        "    controller: B",
        "    set: earlier-turn",
        "    when: {attack-declared: monster, by: opponent}",
        "    target: {card: monster, zone: field, attacking: true}",
        "    effect: {destroy: target}",
        "claims:",
        f"  - claim: always battle_damage(B) <= {total}",
        "    expect: holds",
    ]
    return "\n".join(lines) + "\n"


def one(engine: str, size: int, timeout: float) -> dict[str, Any]:
    """One measurement in this process."""
    from verifier.io.scenario import load_scenario
    from verifier.run.check import prepare
    from verifier.run.verdict import decide

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"battle-{size}.yaml"
        path.write_text(battle_pool(size), encoding="utf-8")
        scenario = load_scenario(path)
    prepared = prepare(scenario)
    began = time.perf_counter()
    state, activations = prepared.history.state, prepared.history.activations
    if engine == "explore":
        from verifier.engines.explore import ExplorerEngine

        decider: Any = ExplorerEngine(prepared.system, state, activations, seconds=timeout)
    else:
        from verifier.engines.smt.engine import SmtEngine

        decider = SmtEngine(prepared.system, state, activations, timeout)
    decision = decide(decider, scenario.claims[0].formula)
    return {
        "engine": engine,
        "size": size,
        "seconds": time.perf_counter() - began,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "verdict": decision.verdict.value,
        **decision.stats,
    }


def measure(engine: str, size: int, timeout: float) -> dict[str, Any]:
    command = [sys.executable, __file__, "--one", engine, str(size), str(timeout)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(float(r[key]) for r in runs if key in r)


def report(runs: list[dict[str, Any]], args: argparse.Namespace) -> str:
    from bench.run import machine

    lines = [
        START,
        "## Battle pool",
        "",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {machine()}",
        f"- Command: `python bench/battle.py --runs {args.runs} --sizes {args.sizes} "
        f"--timeout {args.timeout:g}`",
        "- Pool of SIZE: SIZE Attack Position monsters for A, SIZE for B (alternately in Attack",
        "  and Defense Position), B's Set Mirror Force and Sakuretsu Armor; from the Battle Step",
        "  through the Battle Phase; claim `always battle_damage(B) <= TOTAL` (it holds).",
        "- Medians of the runs, each in a fresh process, the engines alternating.",
        "",
        "| monsters a side | explorer | states | explorer s | explorer MB | SMT | SMT s "
        "| SMT MB | SMT bound | SMT ÷ explorer |",
        "|---:|:--|---:|---:|---:|:--|---:|---:|---:|---:|",
    ]
    for size in sorted({r["size"] for r in runs}):
        ex = [r for r in runs if r["size"] == size and r["engine"] == "explore"]
        smt = [r for r in runs if r["size"] == size and r["engine"] == "smt"]
        ex_s, smt_s = _median(ex, "seconds"), _median(smt, "seconds")
        lines.append(
            f"| {size} | {ex[0]['verdict']} | {int(_median(ex, 'states')):,} | {ex_s:.2f} "
            f"| {_median(ex, 'peak_mb'):.0f} | {smt[0]['verdict']} | {smt_s:.2f} "
            f"| {_median(smt, 'peak_mb'):.0f} | {int(_median(smt, 'bound'))} "
            f"| {smt_s / ex_s:.1f} |"
        )
    lines.append("")
    lines.append(END)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="1,2,3")
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    parser.add_argument("--one", nargs=3, metavar=("ENGINE", "SIZE", "TIMEOUT"))
    args = parser.parse_args()
    if args.one:
        engine, size, timeout = args.one
        print(json.dumps(one(engine, int(size), float(timeout))))
        return
    runs = []
    for size in [int(s) for s in args.sizes.split(",") if s]:
        for _ in range(args.runs):
            for engine in ("explore", "smt"):
                runs.append(measure(engine, size, args.timeout))
                print(json.dumps(runs[-1]), flush=True)
    section = report(runs, args)
    from bench.run import write_section

    write_section(Path(args.out), section, START, END)
    print(section)


if __name__ == "__main__":
    main()
