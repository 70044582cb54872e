"""``verifier diff``: what changes between two rule systems, shown on the shortest chains.

Both models explore the same scenario. Every finished continuation is summarised by its
moves (who activated what, in order: what the players did) and its outcome (the order of
resolution, where every card ends, who controls it, what missed the timing). A sequence of
moves possible under one model only is a difference of legality; the same moves with other
outcomes are a difference of resolution order, of final zones (and Life Points), or of
missing the timing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from verifier.core.state import READ, Layout, State
from verifier.designer.generate import RandomChooser, scenario, to_text
from verifier.engines.explore import Exploration, explore
from verifier.errors import ModelError, VerifierError
from verifier.io.model import model_dirs
from verifier.io.scenario import InMemory, load_scenario
from verifier.run.check import Prepared, prepare
from verifier.spec.rulesystem import RuleSystem
from verifier.system import Action
from verifier.trace.narrate import TraceStep, replay

__all__ = ["Difference", "compare", "search"]


@dataclass(frozen=True, slots=True)
class Difference:
    """One kind of difference, with the shortest continuation(s) that show it."""

    kind: str  # legality | resolution-order | final-zones | missing-timing
    summary: str
    under: tuple[tuple[str, tuple[TraceStep, ...]], ...]


@dataclass(frozen=True, slots=True)
class _Run:
    moves: tuple[tuple[str, int], ...]
    order: tuple[str, ...]
    zones: tuple[int, ...]
    control: tuple[int, ...]
    dizzy: tuple[bool, ...]
    life: tuple[int, ...]
    missed: tuple[bool, ...]
    path: tuple[Action, ...]


def _runs(
    prepared: Prepared, max_states: int, seconds: float | None = None
) -> tuple[Exploration, list[_Run]]:
    system = prepared.system
    ex = explore(system, prepared.history.state, max_states, seconds=seconds)
    # The game's own objects (combat damage on the stack) are no player's move, and not
    # part of the order of what the players cast: None leaves them out.
    labels = [None if a.combat_damage else a.label for a in system.world.abilities]
    out = []
    for state in ex.terminals:
        out.append(_summary(system.layout, state, labels, tuple(ex.path(state))))
    return ex, out


def _summary(
    layout: Layout, state: State, labels: list[str | None], path: tuple[Action, ...]
) -> _Run:
    a_ab, a_pl, r_ab = READ.a_ab(state), READ.a_pl(state), READ.r_ab(state)
    moves = tuple(
        (label, a_pl[k]) for k in range(READ.an(state)) if (label := labels[a_ab[k]]) is not None
    )
    order = tuple(label for k in range(READ.rn(state)) if (label := labels[r_ab[k]]) is not None)
    dizzy = tuple(bool(d) for d in layout.frame(state).dizzy) if layout.has("dizzy") else ()
    zones, ctrl, miss = READ.zone(state), READ.ctrl(state), READ.miss(state)
    return _Run(moves, order, zones, ctrl, dizzy, READ.lp(state), miss, path)


def compare(
    path: str | Path | InMemory,
    model_a: RuleSystem,
    model_b: RuleSystem,
    max_states: int = 500_000,
    seconds: float | None = None,
    stopped: list[str] | None = None,
    allow_outside: bool = False,
) -> list[Difference]:
    """The differences between two models on the scenario in ``path``.

    ``max_states`` and ``seconds`` bound each model's exploration; the models a limit
    stopped are added to ``stopped`` (their differences are then not conclusive).
    """
    _same_game(model_a, model_b)
    prepared = {
        m.name: prepare(load_scenario(path, model=m, allow_outside=allow_outside))
        for m in (model_a, model_b)
    }
    names = (model_a.name, model_b.name)
    explored = {name: _runs(prepared[name], max_states, seconds) for name in names}
    runs = {name: explored[name][1] for name in names}
    if stopped is not None:
        stopped.extend(name for name in names if explored[name][0].stopped_by)
    by_moves = {name: _group(runs[name]) for name in names}
    found: dict[str, Difference] = {}
    for this, other in (names, names[::-1]):
        only = [r for r in runs[this] if r.moves not in by_moves[other]]
        if only and "legality" not in found:
            run = min(only, key=lambda r: len(r.path))
            moves = ", ".join(f"{label} ({'AB'[p]})" for label, p in run.moves) or "no activation"
            found["legality"] = Difference(
                "legality",
                f"legal under {this} only: {moves}",
                ((this, _story(prepared[this], run)),),
            )
    for played, mine in by_moves[names[0]].items():
        theirs = by_moves[names[1]].get(played)
        if theirs is None:
            continue
        for kind, key in (
            ("resolution-order", lambda r: r.order),
            ("final-zones", lambda r: (r.zones, r.control, r.dizzy, r.life)),
            ("missing-timing", lambda r: r.missed),
        ):
            if kind in found:
                continue
            ours = {key(r) for r in mine}
            other_keys = {key(r) for r in theirs}
            if ours != other_keys:
                a = min(
                    (r for r in mine if key(r) not in other_keys),
                    key=lambda r: len(r.path),
                    default=None,
                )
                b = min(theirs, key=lambda r: len(r.path))
                if a is None:
                    a = min(mine, key=lambda r: len(r.path))
                    b = min((r for r in theirs if key(r) not in ours), key=lambda r: len(r.path))
                found[kind] = Difference(
                    kind,
                    f"the same moves end differently ({kind.replace('-', ' ')})",
                    (
                        (names[0], _story(prepared[names[0]], a)),
                        (names[1], _story(prepared[names[1]], b)),
                    ),
                )
    order = ("legality", "resolution-order", "final-zones", "missing-timing")
    return [found[k] for k in order if k in found]


def _group(runs: list[_Run]) -> dict[tuple[tuple[str, int], ...], list[_Run]]:
    out: dict[tuple[tuple[str, int], ...], list[_Run]] = {}
    for run in runs:
        out.setdefault(run.moves, []).append(run)
    return out


def _story(prepared: Prepared, run: _Run) -> tuple[TraceStep, ...]:
    _, steps = replay(prepared.system, prepared.history.state, run.path)
    return prepared.history.steps + tuple(steps)


def _same_game(model_a: RuleSystem, model_b: RuleSystem) -> None:
    """Two rule systems of different games share no scenario: there is nothing to compare."""
    if model_a.game != model_b.game:
        raise ModelError(
            f"{model_a.name} and {model_b.name} are rule systems of different games "
            f"({model_a.game}, {model_b.game}); diff compares variants of one game"
        )


def search(
    model_a: RuleSystem,
    model_b: RuleSystem,
    tries: int = 200,
    size: int = 3,
    max_states: int = 50_000,
    seconds: float | None = None,
    stopped: list[str] | None = None,
) -> tuple[str, list[Difference]] | None:
    """Generated small scenarios, until one tells the two models apart.

    The scenarios are the same for every run (seeds 0, 1, ...): the search is deterministic.
    For Yu-Gi-Oh! they include the shapes in which rule variants differ: a Tribute Summon
    whose tributed and summoned monsters both trigger, a summon answered by a trap or on
    priority, and optional triggers that wait for a chain. A scenario whose exploration a
    limit stopped is passed over (and counted in ``stopped``): its differences would not be
    conclusive.
    """
    _same_game(model_a, model_b)
    for data in _generated(model_a, tries, size):
        text = to_text(data)
        cut: list[str] = []
        try:
            differences = compare(
                InMemory("generated.yaml", text), model_a, model_b, max_states, seconds, cut
            )
        except VerifierError:
            continue
        if cut:
            if stopped is not None:
                stopped.append(", ".join(cut))
            continue
        if differences:
            return to_text({**data, "rules": _reference(model_a)}), differences
    return None


def _generated(model: RuleSystem, tries: int, size: int) -> Iterator[dict[str, Any]]:
    for seed in range(tries):
        chooser = RandomChooser(seed)
        # Small scenarios first: a difference is easiest to read on few cards.
        data: dict[str, Any] = scenario(
            chooser,
            model.game,
            size=1 + seed % max(size, 1),
            summons=True,
            steps=chooser.pick([0, 0, 1, 2]),
            rules=str(Path(model.path).resolve()),
        )
        yield data


def _reference(model: RuleSystem) -> str:
    """The rule system's name when the name finds its file, else the file's path."""
    for folder in model_dirs():
        if (folder / f"{model.name}.yaml").resolve() == Path(model.path).resolve():
            return model.name
    return str(Path(model.path).resolve())
