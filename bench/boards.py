"""The boards benchmark: claims judges ask about full boards, against the seed example.

Each claim is asked with ``verifier ask --json`` (the default engine) in a fresh process,
as a judge would: the time is the whole command's wall time, start-up included, and the
memory its peak resident set. The seed example's ``can_respond(B)``
(``examples/yugioh/raigeki-imperial-order-dark-bribe.yaml``) is measured in the same run,
alternating with the boards, and every figure is given as a ratio to it.

    python bench/run.py --boards [--runs 3] [--timeout 300] [--out bench/RESULTS.md]
    python bench/run.py --boards --from-raw   # rebuild the section from bench/boards.jsonl

The boards are in ``bench/boards/``; a board is a scenario file whose claims are the
questions asked. Hand traps (cards activated from the hand) will be a board of their own
once the scenario format has them: add its file to :data:`BOARDS`.
"""

from __future__ import annotations

import datetime
import json
import statistics
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SEED = ("examples/yugioh/raigeki-imperial-order-dark-bribe.yaml", "can_respond(B)")
BOARDS = [
    "bench/boards/raigeki-4-4.yaml",
    "bench/boards/raigeki-4-5.yaml",
    "bench/boards/tribute-summon.yaml",
    "bench/boards/damage-step.yaml",
]
TIME_TARGET = 3.0  # times the seed example's time
MEMORY_TARGET = 500.0  # MB


def claims_of(path: str) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from verifier.io.scenario import load_scenario

    return [c.text for c in load_scenario(ROOT / path, allow_outside=True).claims]


def ask(path: str, claim: str, timeout: float) -> dict[str, Any]:
    """One claim in a fresh process: wall time (interpreter start-up included), memory."""
    from bench.command import run

    # The boards read the examples' card library, outside their own folder.
    arguments = ["ask", "--json", "--quiet", "--allow-outside", "--timeout", f"{timeout:g}"]
    ran = run([*arguments, path, claim], timeout + 60)
    if ran.timed_out:
        return {"board": path, "claim": claim, "verdict": "unknown", "seconds": float("inf")}
    result = json.loads(ran.stdout)["claims"][0]
    return {
        "board": path,
        "claim": claim,
        "verdict": result["verdict"],
        "engine": result["engine"],
        "states": result.get("stats", {}).get("states"),
        "seconds": ran.seconds,
        "peak_mb": ran.peak_mb,
    }


def measure_all(runs: int, timeout: float) -> list[dict[str, Any]]:
    asked = [SEED] + [(board, claim) for board in BOARDS for claim in claims_of(board)]
    results = []
    for _ in range(runs):
        for board, claim in asked:
            results.append(ask(board, claim, timeout))
            print(json.dumps(results[-1]), flush=True)
    return results


def report(results: list[dict[str, Any]], runs: int, timeout: float, where: str) -> str:
    day = results[0].get("date", datetime.date.today().isoformat())
    where = results[0].get("machine", where)
    load = results[0].get("load")
    by: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in results:
        by.setdefault((r["board"], r["claim"]), []).append(r)
    seed = statistics.median(r["seconds"] for r in by[SEED])
    seed_mb = statistics.median(r["peak_mb"] for r in by[SEED])
    lines = [
        "<!-- boards: written by bench/run.py --boards -->",
        "## Boards",
        "",
        f"- Date: {day}",
        f"- Machine: {where}" + (f"; load average {load} when the run began" if load else ""),
        f"- Command: `python bench/run.py --boards --runs {runs} --timeout {timeout:g}`",
        "- Each claim asked with `verifier ask --json` and the default engine, in a fresh",
        "  process: the time is the command's (interpreter start-up included), the memory its",
        f"  peak resident set; medians of {runs} runs, the seed example's `can_respond(B)`",
        f"  measured in the same run: {seed:.2f} s, {seed_mb:.0f} MB. Targets: within",
        f"  {TIME_TARGET:g} times the seed's time and {MEMORY_TARGET:g} MB.",
        "",
        "| board | claim | verdict | engine | states | s | × seed | MB | target |",
        "|:--|:--|:--|:--|---:|---:|---:|---:|:--|",
    ]
    for (board, claim), rs in by.items():
        seconds = statistics.median(r["seconds"] for r in rs)
        mb = statistics.median(r["peak_mb"] for r in rs)
        states = statistics.median(r["states"] or 0 for r in rs)
        verdicts = "/".join(sorted({r["verdict"] for r in rs}))
        engines = "/".join(sorted({str(r.get("engine", "-")) for r in rs}))
        met = (
            verdicts in ("holds", "fails") and seconds <= TIME_TARGET * seed and mb <= MEMORY_TARGET
        )
        name = Path(board).stem
        lines.append(
            f"| {name} | `{claim}` | {verdicts} | {engines} | {states:,.0f} | {seconds:.2f} "
            f"| {seconds / seed:.2f} | {mb:.0f} | {'met' if met else 'missed'} |"
        )
    lines += ["", *analysis(by, seed), "", "<!-- end of boards -->"]
    return "\n".join(lines) + "\n"


def analysis(by: dict[tuple[str, str], list[dict[str, Any]]], seed: float) -> list[str]:
    """What the figures say about the targets, computed from the figures themselves."""
    missed = []
    for (board, claim), rs in by.items():
        seconds = statistics.median(r["seconds"] for r in rs)
        if (board, claim) != SEED and seconds > TIME_TARGET * seed:
            states = statistics.median(r["states"] or 0 for r in rs)
            mb = statistics.median(r["peak_mb"] for r in rs)
            missed.append((Path(board).stem, claim, seconds, states, mb))
    decided = sum(1 for key in by if key != SEED) - len(missed)
    lines = [
        f"Within {TIME_TARGET:g} times the seed's time and {MEMORY_TARGET:g} MB: {decided} of "
        f"{len(by) - 1} claims."
    ]
    for name, claim, seconds, states, mb in missed:
        lines.append(
            f"Missed: `{claim}` on {name}, {seconds:.0f} s ({seconds / seed:.0f} times the "
            f"seed), {mb:.0f} MB. It holds, so no final state ends the search: the explorer "
            f"visits every state of the board ({states:,.0f}, at {states / seconds:,.0f} "
            "states per second on this machine)."
        )
    return lines


def write_section(out: Path, section: str) -> None:
    """Replace the boards section of ``out`` (or add it at the end); keep the rest."""
    text = out.read_text(encoding="utf-8") if out.exists() else ""
    begin, end = "<!-- boards: written by bench/run.py --boards -->", "<!-- end of boards -->\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + section + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    out.write_text(text, encoding="utf-8")


def main(runs: int, timeout: float, out: Path, raw: Path, where: str, from_raw: bool) -> None:
    if from_raw:
        results = [json.loads(line) for line in raw.read_text(encoding="utf-8").splitlines()]
        runs = max(sum(1 for r in results if (r["board"], r["claim"]) == SEED), 1)
        timeout = results[0].get("timeout", timeout)
    else:
        stamp = {
            "date": datetime.date.today().isoformat(),
            "machine": where,
            "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
            "timeout": timeout,
        }
        results = [{**r, **stamp} for r in measure_all(runs, timeout)]
        raw.write_text("".join(json.dumps(r) + "\n" for r in results), encoding="utf-8")
    write_section(out, report(results, runs, timeout, where))
    print(f"wrote {out}")
