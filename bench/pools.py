"""Generated scenarios for the benchmarks: pools of set Spell Speed 2 and 3 traps."""

from __future__ import annotations

from pathlib import Path


def trap_pool(size: int, claim: str = "always chain_length <= {size}") -> str:
    """``size`` set traps, half each side, half Spell Speed 2 (normal) and half 3 (counter).

    Nothing has happened yet: the turn player may start a chain with any of them.
    """
    lines = ["rules: yugioh", "turn: A", "cards:"]
    for i in range(size):
        owner = "A" if i % 2 == 0 else "B"
        kind = "normal-trap" if (i // 2) % 2 == 0 else "counter-trap"
        lines.append(
            f"  Trap {i + 1}: {{kind: {kind}, controller: {owner}, set: earlier-turn, "
            "effect: {draw: 1}}"
        )
    lines.append("claims:")
    lines.append(f"  - claim: {claim.format(size=size)}")
    lines.append("    expect: holds")
    return "\n".join(lines) + "\n"


def write_pool(folder: Path, size: int, claim: str = "always chain_length <= {size}") -> Path:
    path = folder / f"pool-{size}.yaml"
    path.write_text(trap_pool(size, claim), encoding="utf-8")
    return path
