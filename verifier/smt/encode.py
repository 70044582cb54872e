"""The transition relation as z3 constraints, unrolled step by step.

The relation is built once over generic state variables ``X`` and next-state variables
``Y``, by running the one semantics (:meth:`verifier.transitions.System.step` and its guards)
on z3 terms. Each step of the unrolling is then a substitution of that relation (done inside
z3), so building a deeper unrolling costs little. State elements that no action ever changes
are the scenario's constants and never become variables. A step with no legal action is a
stutter: the state stays the same, so final states (and dead ends) persist to the last step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from verifier.rules.context import Check
from verifier.smt.logic import Z3, integer, lift
from verifier.state import ARRAYS, BOOLEANS, FIELDS, Mode, State
from verifier.transitions import Action, System

__all__ = ["Unrolling"]

Element = tuple[int, int | None]  # (field, index within the array field) or (field, None)


@dataclass(frozen=True, slots=True)
class _Relation:
    """The generic transition relation, and which state elements it can change."""

    elements: tuple[Element, ...]
    current: tuple[Any, ...]
    following: tuple[Any, ...]
    act: Any
    formula: Any
    guards: tuple[Any, ...]
    named_guards: tuple[tuple[Check, ...], ...]


class Unrolling:
    """The relation unrolled from a concrete start state, one step at a time."""

    def __init__(
        self, system: System, start: State, relaxed: dict[int, dict[str, Any]] | None = None
    ) -> None:
        """``relaxed`` maps action indices to Boolean literals per rule name: the named
        checks of those actions then hold only where their literal is asserted (for finding
        which rules forbid an action)."""
        self.system = system
        self.start = start
        self.relaxed = relaxed or {}
        self.actions: tuple[Action, ...] = system.actions
        self.stutter = len(self.actions)
        self.relation = self._relation()
        self.steps: list[tuple[Any, ...]] = [
            tuple(lift(self._start_value(e)) for e in self.relation.elements)
        ]
        self.acts: list[Any] = []
        self.constraints: list[Any] = []

    # -- building the relation --------------------------------------------------------------

    def _start_value(self, element: Element) -> Any:
        field, index = element
        value = self.start[field]
        return value if index is None else value[index]

    def _variables(self, suffix: str, constant: set[Element]) -> tuple[State, dict[Element, Any]]:
        """A state whose elements are fresh variables, except the ``constant`` ones."""
        fields: list[Any] = []
        made: dict[Element, Any] = {}
        for f, name in enumerate(FIELDS):
            sort = z3.Bool if name in BOOLEANS else integer

            def var(index: int | None, f: int = f, name: str = name, sort: Any = sort) -> Any:
                element = (f, index)
                if element in constant:
                    return self._start_value(element)
                label = name if index is None else f"{name}[{index}]"
                made[element] = sort(f"{label}{suffix}")
                return made[element]

            if f < len(ARRAYS):
                fields.append(tuple(var(i) for i in range(len(self.start[f]))))
            else:
                fields.append(var(None))
        return tuple(fields), made

    def _changed(self, before: State, after: State) -> set[Element]:
        changed: set[Element] = set()
        for f in range(len(FIELDS)):
            if f < len(ARRAYS):
                for i, (a, b) in enumerate(zip(before[f], after[f], strict=True)):
                    if not _same(a, b):
                        changed.add((f, i))
            elif not _same(before[f], after[f]):
                changed.add((f, None))
        return changed

    def _relation(self) -> _Relation:
        system = self.system
        everything: set[Element] = {
            (f, i) for f in range(len(ARRAYS)) for i in range(len(self.start[f]))
        }
        everything |= {(f, None) for f in range(len(ARRAYS), len(FIELDS))}
        # Pass 1: which elements can any action change? The others stay constants.
        generic, _ = self._variables("", set())
        changing: set[Element] = set()
        for action in self.actions:
            changing |= self._changed(generic, system.step(Z3, generic, action))
        constant = everything - changing
        # Pass 2: the relation over the changing elements only.
        current, made = self._variables("", constant)
        elements = tuple(sorted(made, key=lambda e: (e[0], -1 if e[1] is None else e[1])))
        following = tuple(
            (z3.Bool if FIELDS[f] in BOOLEANS else integer)(
                f"{FIELDS[f]}{'' if i is None else f'[{i}]'}'"
            )
            for f, i in elements
        )
        act = integer("act")
        named: list[tuple[Check, ...]] = []
        guards: list[Any] = []
        nexts: list[State] = []
        for index, action in enumerate(self.actions):
            checks = tuple(system.checks(Z3, current, action))
            named.append(checks)
            literals = self.relaxed.get(index)
            if literals is None:
                guards.append(Z3.and_(*(c.ok for c in checks)))
            else:
                guards.append(
                    Z3.and_(
                        *(
                            lift(c.ok)
                            if c.rule not in literals
                            else z3.Implies(literals[c.rule], lift(c.ok))
                            for c in checks
                        )
                    )
                )
            nexts.append(system.step(Z3, current, action))
        enabled = [(i, g) for i, g in enumerate(guards) if not (isinstance(g, bool) and not g)]
        stuck = Z3.not_(Z3.or_(*(g for _, g in enabled)))
        choices = [Z3.and_(act == i, g) for i, g in enabled]
        choices.append(Z3.and_(act == self.stutter, stuck))
        parts = [lift(Z3.or_(*choices))]
        for (f, i), nxt in zip(elements, following, strict=True):
            same = made[(f, i)]
            value = same
            for k, _ in reversed(enabled):
                after = nexts[k][f] if i is None else nexts[k][f][i]
                if _same(after, same):
                    continue  # when no changing action is taken, the value stays anyway
                value = Z3.ite(act == k, after, value)
            parts.append(nxt == lift(value))
        return _Relation(
            elements=elements,
            current=tuple(made[e] for e in elements),
            following=following,
            act=act,
            formula=z3.And(*parts),
            guards=tuple(lift(g) for g in guards),
            named_guards=tuple(named),
        )

    # -- unrolling ----------------------------------------------------------------------------

    @property
    def depth(self) -> int:
        return len(self.acts)

    def extend(self, depth: int) -> list[Any]:
        """Unroll up to ``depth`` steps; return the new constraints (also kept in order)."""
        rel = self.relation
        new: list[Any] = []
        while len(self.acts) < depth:
            t = len(self.acts)
            act = integer(f"act@{t}")
            following = tuple(
                (z3.Bool if FIELDS[f] in BOOLEANS else integer)(
                    f"{FIELDS[f]}{'' if i is None else f'[{i}]'}@{t + 1}"
                )
                for f, i in rel.elements
            )
            pairs = list(zip(rel.current, self.steps[t], strict=True))
            pairs += list(zip(rel.following, following, strict=True))
            pairs.append((rel.act, act))
            step = z3.substitute(rel.formula, *pairs)
            if t == 0:
                step = z3.simplify(step)
            self.acts.append(act)
            self.steps.append(following)
            new.append(step)
            new.append(z3.And(act >= 0, act <= self.stutter))
        self.constraints.extend(new)
        return new

    def state(self, t: int) -> State:
        """The state at step ``t``: variables for changing elements, constants otherwise."""
        values = dict(zip(self.relation.elements, self.steps[t], strict=True))
        fields: list[Any] = []
        for f in range(len(FIELDS)):
            if f < len(ARRAYS):
                fields.append(
                    tuple(values.get((f, i), self.start[f][i]) for i in range(len(self.start[f])))
                )
            else:
                fields.append(values.get((f, None), self.start[f]))
        return tuple(fields)

    def finished(self, t: int) -> Any:
        """The continuation has ended faithfully by step ``t``."""
        state = self.state(t)
        mode = state[FIELDS.index("mode")]
        overflow = state[FIELDS.index("overflow")]
        return lift(Z3.and_(mode == int(Mode.DONE), Z3.not_(overflow)))

    def guard(self, action_index: int, t: int) -> list[Check]:
        """The named checks of an action at step ``t`` (for explanations)."""
        rel = self.relation
        pairs = list(zip(rel.current, self.steps[t], strict=True))
        return [
            Check(c.rule, z3.substitute(lift(c.ok), *pairs) if pairs else lift(c.ok))
            for c in rel.named_guards[action_index]
        ]

    def decode(self, model: z3.ModelRef, until: int) -> list[Action]:
        """The actions of the first ``until`` steps of a model, without stutters."""
        out = []
        for act in self.acts[:until]:
            index = model.eval(act, model_completion=True).as_long()
            if index != self.stutter:
                out.append(self.actions[index])
        return out


def _same(a: Any, b: Any) -> bool:
    if a is b:
        return True
    a_const = isinstance(a, bool | int)
    b_const = isinstance(b, bool | int)
    if a_const and b_const:
        return bool(a == b) and type(a) is type(b)
    if a_const or b_const:
        return False
    return bool(a.eq(b))
