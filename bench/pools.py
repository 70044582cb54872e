"""Generated scenarios for the benchmarks: pools of set Spell Speed 2 and 3 traps.

A pool sets more cards than a field's five Spell & Trap Zones hold, so it names a copy of
the ``yugioh`` rule system with those zones unbounded, written beside it.
"""

from __future__ import annotations

from pathlib import Path

MODELS = Path(__file__).resolve().parent.parent / "models"


def trap_pool(size: int, claim: str = "always chain_length <= {size}") -> str:
    """``size`` set traps, half each side, half Spell Speed 2 (normal) and half 3 (counter).

    Nothing has happened yet: the turn player may start a chain with any of them.
    """
    lines = ["rules: pool-model.yaml", "turn: A", "cards:"]
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


def pool_model() -> str:
    """The ``yugioh`` rule system with unbounded zones."""
    text = (MODELS / "yugioh.yaml").read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if "_zones:" not in line]
    return "\n".join(kept).replace("name: yugioh", "name: yugioh-pool", 1) + "\n"


def write_pool(folder: Path, size: int, claim: str = "always chain_length <= {size}") -> Path:
    (folder / "pool-model.yaml").write_text(pool_model(), encoding="utf-8")
    path = folder / f"pool-{size}.yaml"
    path.write_text(trap_pool(size, claim), encoding="utf-8")
    return path
