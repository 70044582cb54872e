"""A continuation as the transition system takes it: its actions from the initial state, so
that every state it passes through can be replayed (ITF traces, programs)."""

from __future__ import annotations

from dataclasses import dataclass, field

from verifier.core.logic import CONCRETE
from verifier.core.state import State
from verifier.rules.context import Note
from verifier.system import Action, System
from verifier.trace.narrate import TraceStep, describe_action, narrate

__all__ = ["Run", "RunStep"]


@dataclass(frozen=True, slots=True)
class RunStep:
    """One state of a run: the action that led to it ("init" for the first), whether that
    action was the scenario's history, the state itself, and the narrative of the action."""

    action: str
    history: bool
    state: State
    told: tuple[TraceStep, ...] = ()


@dataclass(frozen=True, slots=True)
class Run:
    """The actions of a continuation from the scenario's initial state (the history's first,
    then the engine's), and the system that takes them."""

    system: System = field(compare=False, repr=False)
    actions: tuple[Action, ...]
    history: int
    """How many of :attr:`actions` are the history's (implied passes included)."""

    def steps(self) -> list[RunStep]:
        """Every state the run passes through, the initial one first."""
        state = self.system.initial()
        out = [RunStep("init", True, state)]
        for index, action in enumerate(self.actions):
            label = describe_action(self.system, state, action)
            notes: list[Note] = []
            after = self.system.step(CONCRETE, state, action, notes)
            history = index < self.history
            told = narrate(self.system, state, action, notes, history=history)
            state = after
            out.append(RunStep(label, history, state, tuple(told)))
        return out
