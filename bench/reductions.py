"""The explorer's reductions (symmetry, slicing, screening) on and off, side by side in one run.

Workloads: the trap pools (``bench/pools.py``: SIZE set traps, four interchangeable kinds,
claim ``always chain_length <= SIZE``), SIZE simultaneous triggers (Raigeki destroys SIZE
copies of a trigger monster, whose SEGOC order B chooses; claim ``always cards_drawn(B) ==
SIZE``), the Damage Step board (``bench/boards/damage-step.yaml``, each of its claims) and
the full board's claim that holds (``bench/boards/raigeki-4-4.yaml``, :data:`FULL`).
The pools' and triggers' claims hold, so every continuation is needed. The seed example's
``can_respond(B)`` is measured just before each measurement, and each time is given as the
median of its ratios to it (the machine's pace drifts; a pair shares it). Every measurement
runs the command line in a fresh process (its peak memory is its own, with its helper
process's); on and off alternate, and so do two cores (as the program runs) and one
(``VERIFIER_CORES=1``).

    python bench/reductions.py [--runs 3] [--pools 6,8,10,12] [--triggers 6,8,10] [--timeout 120]
        [--board-engines auto,explore] [--no-board] [--no-full-board] [--cores 2,1]
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

START = "<!-- reductions: written by bench/reductions.py -->"
END = "<!-- end of reductions -->"
SEED = HERE.parent / "examples" / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"
BOARD = HERE / "boards" / "damage-step.yaml"
FULL = (HERE / "boards" / "raigeki-4-4.yaml", 'always zone("Celtic Guardian") == field')
"""The full board's claim that holds: every continuation is needed."""


def triggers(size: int) -> str:
    """Raigeki has destroyed ``size`` copies of a trigger monster: ``size`` triggers at once."""
    lines = [
        "rules: pool-model.yaml",
        "turn: A",
        "cards:",
        "  Raigeki: {kind: normal-spell, controller: A, zone: hand, "
        "effect: {destroy: all-monsters, of: opponent}}",
    ]
    for i in range(size):
        lines.append(
            f"  Fiend {i + 1}: {{kind: effect-monster, controller: B, zone: field, atk: 1000, "
            "ability: {type: trigger, trigger: {event: sent-to-graveyard, from: field}, "
            "effect: {draw: 1}}}"
        )
    lines += ["history:", "  - A activates Raigeki", "claims:"]
    lines += [f"  - claim: always cards_drawn(B) == {size}", "    expect: holds"]
    return "\n".join(lines) + "\n"


def write(folder: Path, workload: str, size: int) -> Path:
    """The scenario file of a workload, in ``folder``."""
    from bench.pools import pool_model, write_pool

    if workload == "pool":
        return write_pool(folder, size)
    (folder / "pool-model.yaml").write_text(pool_model(), encoding="utf-8")
    path = folder / f"triggers-{size}.yaml"
    path.write_text(triggers(size), encoding="utf-8")
    return path


def measure(
    path: Path,
    claim: str,
    reduce: bool,
    timeout: float,
    engine: str = "explore",
    cores: int = 2,
) -> dict[str, Any]:
    """``verifier ask`` in a fresh process: its wall time (interpreter start-up included, as
    a user waits for it), peak memory and figures. ``cores=1``: ``VERIFIER_CORES=1`` (the
    explorer without its helper process)."""
    from bench.command import run

    arguments = ["ask", "--json", "--quiet", "--engine", engine]
    arguments.append("--allow-outside")  # the board reads the examples' card library
    arguments += ["--timeout", f"{timeout:g}"] + ([] if reduce else ["--no-reduce"])
    env = {"VERIFIER_CORES": "1"} if cores == 1 else {}
    ran = run([*arguments, str(path), claim], timeout + 60, env=env)
    [result] = json.loads(ran.stdout)["claims"]
    return {
        "cores": cores,
        "reduce": reduce,
        "seconds": ran.seconds,
        "peak_mb": ran.peak_mb,
        "verdict": result["verdict"],
        "states": result["stats"].get("states", 0),
        "argument": result["stats"].get("argument", "search"),
        "step": result["stats"].get("step", "interpreted"),
        "explore_seconds": result["stats"].get("explore_seconds", 0.0),
    }


def _median(runs: list[dict[str, Any]], key: str) -> float:
    return statistics.median(float(r[key]) for r in runs)


def _board_claims() -> list[str]:
    from verifier.io.scenario import load_scenario

    return [c.text for c in load_scenario(BOARD, allow_outside=True).claims]


def _times(runs: list[dict[str, Any]]) -> float:
    """The median of each measurement's ratio to the seed example's time measured just
    before it (the machine's pace drifts; a pair shares it)."""
    return statistics.median(float(r["seconds"]) / float(r["seed_seconds"]) for r in runs)


def _rate(runs: list[dict[str, Any]]) -> str:
    seconds = _median(runs, "explore_seconds")
    return f"{_median(runs, 'states') / seconds:,.0f}" if seconds else "-"


def report(runs: list[dict[str, Any]], args: argparse.Namespace) -> str:
    from bench.run import machine

    seed = _median([r for r in runs if r["workload"] == "seed"], "seconds")
    lines = [
        START,
        "## Reductions: symmetry, claim slicing, screening",
        "",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {machine()}",
        f"- Command: `python bench/reductions.py --runs {args.runs} --pools {args.pools} "
        f"--triggers {args.triggers} --timeout {args.timeout:g} "
        f"--board-engines {args.board_engines} --cores {args.cores}`",
        "- Pools: SIZE set traps in four interchangeable kinds, `always chain_length <= SIZE`;",
        "  triggers: Raigeki destroys SIZE copies of a trigger monster (B chooses their SEGOC",
        "  order), `always cards_drawn(B) == SIZE`. Both hold: every continuation is needed.",
        "- `verifier ask --engine explore` (with `--no-reduce` for off), a fresh process per",
        f"  measurement, on and off alternating; medians of {args.runs}. The time is the command's",
        "  wall time, start-up included; × seed is the median ratio to the seed example's",
        "  `can_respond(B)` measured just before each measurement (its median in this run:",
        f"  {seed:.2f} s); states/s is the exploration's own",
        "  (its time includes building the relation where the array step took over: step",
        "  `arrays`). Cores: 2, as the program runs here (the array step's helper process",
        "  beside it, its own memory added to the MB); 1, with `VERIFIER_CORES=1`.",
        "",
        "| workload | reduction | cores | verdict | step | states | s | × seed | states/s | MB |",
        "|:--|:--|--:|:--|:--|---:|---:|---:|---:|---:|",
    ]
    cores = sorted({r["cores"] for r in runs if "cores" in r}, reverse=True)
    for workload in ("pool", "triggers"):
        for size in sorted({r["size"] for r in runs if r["workload"] == workload}):
            for reduce, core in itertools.product((True, False), cores):
                same = [
                    r
                    for r in runs
                    if r["workload"] == workload
                    and r["size"] == size
                    and r["reduce"] == reduce
                    and r["cores"] == core
                ]
                seconds = _median(same, "seconds")
                lines.append(
                    f"| {workload} {size} | {'on' if reduce else 'off'} | {core} "
                    f"| {same[0]['verdict']} | {same[0].get('step', 'interpreted')} "
                    f"| {int(_median(same, 'states')):,} | {seconds:.2f} | {_times(same):.1f} "
                    f"| {_rate(same)} | {_median(same, 'peak_mb'):.0f} |"
                )
    board = [r for r in runs if r["workload"] == "board"]
    for engine in dict.fromkeys(r.get("engine", "auto") for r in board):
        named = "the default engine (`verifier ask`)"
        if engine != "auto":
            named = f"`--engine {engine}`"
        lines += [
            "",
            "The Damage Step board (`bench/boards/damage-step.yaml`), each claim asked with",
            f"{named}, reductions on and off:",
            "",
            "| claim | verdict | on: decided by | on: states | on: s | on: × seed "
            "| off: states | off: s | off: × seed | MB (on / off) |",
            "|:--|:--|:--|---:|---:|---:|---:|---:|---:|---:|",
        ]
        mine = [r for r in board if r.get("engine", "auto") == engine]
        for number in sorted({r["size"] for r in mine}):
            on = [r for r in mine if r["size"] == number and r["reduce"]]
            off = [r for r in mine if r["size"] == number and not r["reduce"]]
            s_on, s_off = _median(on, "seconds"), _median(off, "seconds")
            how = on[0]["argument"]
            if on[0].get("step", "interpreted") == "arrays":
                how += ", arrays"
            lines.append(
                f"| `{on[0]['claim']}` | {on[0]['verdict']} | {how} "
                f"| {int(_median(on, 'states')):,} | {s_on:.2f} | {_times(on):.1f} "
                f"| {int(_median(off, 'states')):,} | {s_off:.2f} | {_times(off):.1f} "
                f"| {_median(on, 'peak_mb'):.0f} / {_median(off, 'peak_mb'):.0f} |"
            )
    full = [r for r in runs if r["workload"] == "full"]
    if full:
        lines += [
            "",
            f"The full board (`bench/boards/raigeki-4-4.yaml`), `{FULL[1]}`, with the default",
            "engine and with `--engine explore`, reductions on and off:",
            "",
            "| engine | reduction | cores | verdict | step | states | s | × seed | MB |",
            "|:--|:--|--:|:--|:--|---:|---:|---:|---:|",
        ]
        for engine in dict.fromkeys(r["engine"] for r in full):
            for reduce, core in itertools.product((True, False), cores):
                same = [
                    r
                    for r in full
                    if r["engine"] == engine and r["reduce"] == reduce and r["cores"] == core
                ]
                seconds = _median(same, "seconds")
                lines.append(
                    f"| {engine} | {'on' if reduce else 'off'} | {core} | {same[0]['verdict']} "
                    f"| {same[0].get('step', 'interpreted')} "
                    f"| {int(_median(same, 'states')):,} | {seconds:.2f} | {_times(same):.1f} "
                    f"| {_median(same, 'peak_mb'):.0f} |"
                )
    lines += ["", END]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pools", default="6,8,10,12")
    parser.add_argument("--triggers", default="6,8,10")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--no-board", dest="board", action="store_false")
    parser.add_argument("--board-engines", default="auto,explore")
    parser.add_argument("--no-full-board", dest="full", action="store_false")
    parser.add_argument("--cores", default="2,1", help="2: as the program runs; 1: one core")
    parser.add_argument("--out", default=str(HERE / "RESULTS.md"))
    args = parser.parse_args()
    every = [int(c) for c in args.cores.split(",")]
    work = [("pool", int(s)) for s in args.pools.split(",") if s]
    work += [("triggers", int(s)) for s in args.triggers.split(",") if s]
    runs: list[dict[str, Any]] = []

    def paired(
        path: Path, claim: str, reduce: bool, engine: str, cores: int = 2, **named: Any
    ) -> None:
        """The seed example, then the workload: the pair's ratio is the workload's."""
        seed = measure(SEED, "can_respond(B)", True, args.timeout)
        runs.append({"workload": "seed", "size": 0, **seed})
        found = measure(path, claim, reduce, args.timeout, engine=engine, cores=cores)
        runs.append({**named, **found, "engine": engine, "seed_seconds": seed["seconds"]})
        print(json.dumps(runs[-1]), flush=True)

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        claims = {"pool": "always chain_length <= {size}"}
        claims["triggers"] = "always cards_drawn(B) == {size}"
        board = _board_claims() if args.board else []
        for _ in range(args.runs):
            for workload, size in work:
                path = write(folder, workload, size)
                claim = claims[workload].format(size=size)
                for reduce, core in itertools.product((True, False), every):
                    paired(path, claim, reduce, "explore", core, workload=workload, size=size)
            for number, claim in enumerate(board):
                for engine in args.board_engines.split(","):
                    for reduce in (True, False):
                        paired(BOARD, claim, reduce, engine, workload="board", size=number)
                        runs[-1]["claim"] = claim
            for engine in args.board_engines.split(",") if args.full else ():
                for reduce, core in itertools.product((True, False), every):
                    paired(FULL[0], FULL[1], reduce, engine, core, workload="full", size=0)
    section = report(runs, args)
    from bench.run import write_section

    write_section(Path(args.out), section, START, END)
    print(section)


if __name__ == "__main__":
    main()
