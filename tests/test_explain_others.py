"""``explain`` says whether other continuations end differently, and how."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.conftest import EXAMPLES, GOOD, Run


def _tail(result: Run) -> list[str]:
    lines = [line.strip() for line in result.out.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith(("Other", "No other")))
    return lines[start:]


def test_the_other_end_and_how_it_differs(
    run: Callable[..., Run], write: Callable[[str, str], Path]
) -> None:
    result = run("explain", str(write("s.yaml", GOOD)))
    assert result.code == 0
    assert _tail(result) == [
        "Other continuations: 1 other way(s) to end. The narrative above is the one in which "
        "nobody activates anything more; the others:",
        "- B activates Mirror Force",
        "ends: Mirror Force resolves; Mirror Force ends in the graveyard, not on the field",
        "`verifier check` decides a claim over every continuation (`exists ...` shows one that "
        "satisfies it, `always ...` one that does not).",
    ]


def test_a_single_end_is_said_to_be_the_only_one(run: Callable[..., Run]) -> None:
    path = EXAMPLES / "yugioh" / "raigeki-imperial-order-dark-bribe.yaml"
    assert _tail(run("explain", str(path))) == [
        "No other continuation ends differently: this is how the scenario ends."
    ]


def test_trigger_orders_and_the_rest_counted(run: Callable[..., Run]) -> None:
    sangan = _tail(run("explain", str(EXAMPLES / "yugioh" / "sangan-monarch.yaml")))
    assert sangan[0].startswith("Other continuations: 3 other way(s) to end.")
    assert "- A places Sangan; A places Zaborg the Thunder Monarch targeting Gemini Elf" in sangan
    assert (
        "ends: activated in the order Sangan, Zaborg the Thunder Monarch (in the narrative"
        " Zaborg the Thunder Monarch, Sangan); resolved in the order Zaborg the Thunder Monarch,"
        " Sangan (in the narrative Sangan, Zaborg the Thunder Monarch)" in sangan
    )
    many = _tail(run("explain", str(EXAMPLES / "yugioh" / "spell-speed-basics.yaml")))
    assert many[0].startswith("Other continuations: 126 other way(s) to end.")
    assert sum(line.startswith("- ") for line in many) == 5
    assert "... and 121 more" in many
