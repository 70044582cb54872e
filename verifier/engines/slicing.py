"""Claim slicing: a "no" proved from the steps of the turn, before the search visits states.

A judge answers "can B activate Book of Moon here?" in the Damage Step without trying every
order of every other card: Book of Moon cannot be activated in the Damage Step, and every
continuation stays in the Damage Step until it ends. This module makes that argument from
the rules themselves, run on sets of states (:mod:`verifier.core.abstract`):

1. For each step of the turn, are the actions that would make the claim true (activating
   the card the claim names: its *producers*) impossible in *every* state at that step? The
   guard is run with every field but the step unknown; a plain ``False`` proves it.
2. Which steps can follow which (every action run on the states of one step, the rest
   unknown)? From some steps only such "dead" steps can be reached: a closed set.
3. The states before the turn reaches such a set are few (the turn moves on): they are
   visited one by one, and no producer may be enabled in any of them.

Then no continuation makes the claim's atom true, so the claim is decided by its shape
(``exists activates(B, "X")`` fails, ``always not activates(B, "X")`` holds); so is one
about how a link of the card resolved (``resolves``, ``negated``, ``no_effect``,
``countered``) when no link of it is on the chain at the start or has resolved. When any
step of the argument does not go through, nothing is decided and the search goes on.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from verifier.claims import ast
from verifier.core.abstract import ABSTRACT, ANY, Undecided, possible
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, Mode, State
from verifier.system import Action, ActionKind, System

__all__ = ["Key", "Slice", "Slicer", "forbidding", "producing"]

MAX_VISITED = 5_000
"""States visited one by one before the turn reaches the steps that forbid the activation;
past it the argument is given up (the search decides)."""

PRODUCERS = frozenset({ActionKind.ACTIVATE, ActionKind.TRIGGER})
"""The actions that write the activation log: activating an ability, placing a trigger."""


Key = tuple[int, int]
"""A set of states: those at one step of the turn (an index into its steps) in one mode."""


@dataclass(frozen=True, slots=True)
class Slice:
    """The argument that no continuation activates ``cards``: the states visited one by
    one first, then the steps the continuations go on through, in every state of which the
    rules forbid it (the names of the checks that fail there)."""

    cards: frozenset[int]
    steps: tuple[str, ...]
    rules: tuple[str, ...]
    visited: int
    first_rules: tuple[str, ...] = ()
    """The checks that forbid it in the states visited one by one."""
    keys: frozenset[Key] = frozenset()
    """The steps and modes the continuations go on through (a closed set)."""

    def told(self, names: tuple[str, ...]) -> str:
        """The argument in words."""
        cards = " or ".join(sorted(names[c] for c in self.cards))
        if not self.steps:
            return (
                f"no continuation activates {cards}: no card of the scenario can ever be its "
                f"target or pay its cost ({', '.join(self.rules)})"
            )
        first = ""
        if self.visited:
            why = f" ({', '.join(self.first_rules)})" if self.first_rules else ""
            first = (
                f"in the {self.visited} state(s) visited one by one the rules forbid it{why}; "
                "after them, "
            )
        return (
            f"no continuation activates {cards}: {first}every continuation goes on only in "
            f"{', '.join(self.steps)}, where in every state the rules forbid it "
            f"({', '.join(self.rules)})"
        )


def producing(system: System, cards: frozenset[int]) -> list[Action]:
    """The actions that would activate one of ``cards`` (write it in the activation log)."""
    abilities = {a.index for a in system.world.abilities if a.card in cards}
    return [a for a in system.actions if a.kind in PRODUCERS and a.ability in abilities]


def _states_at(system: System, start: State, key: Key) -> State:
    """A state at the step and in the mode of ``key``, every other field unknown."""
    layout = system.layout
    known = {layout.position("step"): key[0], layout.position("mode"): key[1]}
    fields: list[object] = []
    for index, (f, value) in enumerate(zip(layout.fields, start, strict=True)):
        if index in known:
            fields.append(known[index])
        elif f.over is not None:
            fields.append(tuple(ANY for _ in value))
        else:
            fields.append(ANY)
    return tuple(fields)


def forbidding(
    system: System, state: State, action: Action, first: bool = False
) -> tuple[str, ...] | None:
    """The checks that forbid ``action`` in every state ``state`` stands for (None: it may
    be possible); with ``first``, only the first such check."""
    failed = []
    try:
        for check in system.checks(ABSTRACT, state, action):
            if ABSTRACT.is_false(check.ok):
                failed.append(check.rule)
                if first:
                    break
    except (Undecided, TypeError, AssertionError, IndexError):
        return None
    return tuple(failed) or None


def _successors(system: System, state: State, domains: tuple[range, range]) -> set[Key] | None:
    """The keys of the states one action may lead to from those ``state`` stands for (None:
    an action could not be run on them)."""
    layout = system.layout
    step, mode = layout.position("step"), layout.position("mode")
    found: set[Key] = set()
    for action in system.actions:
        try:
            if forbidding(system, state, action, first=True) is not None:
                continue
            after = system.step(ABSTRACT, state, action)
        except (Undecided, TypeError, AssertionError, IndexError):
            return None
        steps = possible(after[step])
        modes = possible(after[mode])
        found |= {
            (int(s), int(m))
            for s in (domains[0] if steps is None else steps)
            for m in (domains[1] if modes is None else modes)
        }
    return found


class Slicer:
    """Claim slicing for one system and start state; what it learns of the turn's steps is
    kept for the next claim."""

    def __init__(self, system: System, start: State, start_activations: int) -> None:
        self.system = system
        self.start = start
        self.start_activations = start_activations
        world, layout = system.world, system.layout
        self.usable = world.progresses and layout.has("step") and not layout.has("tno")
        self.domains = (range(len(world.steps)), range(len(Mode)))
        self._follows: dict[Key, set[Key] | None] = {}
        self._dead: dict[int, Slice | None] = {}  # by card: the argument, or None

    def follows(self, key: Key) -> set[Key] | None:
        if key not in self._follows:
            state = _states_at(self.system, self.start, key)
            self._follows[key] = _successors(self.system, state, self.domains)
        return self._follows[key]

    def dead_activations(self, cards: frozenset[int]) -> Slice | None:
        """The argument that no continuation activates any of ``cards``, or None when it
        cannot be made this way."""
        system, world = self.system, self.system.world
        if not cards:
            return None
        abilities = {a.index for a in world.abilities if a.card in cards}
        log = self.start[system.layout.position("a_ab")]
        if any(log[k] in abilities for k in range(self.start_activations, READ.an(self.start))):
            return None  # already activated at the scenario's point
        producers = producing(system, cards)
        if not producers:
            # Not one way to activate it: no card of the scenario can ever be its target, or
            # pay its cost (Effect Veiler with no Effect Monster on the board).
            reasons = [r for a in abilities for r in system.never_offered(world.abilities[a])]
            if not abilities or not reasons:
                return None
            return Slice(cards, (), tuple(dict.fromkeys(reasons)), 0)
        if not self.usable:
            return None
        dead: dict[Key, tuple[str, ...] | None] = {}

        def forbidden_at(key: Key) -> tuple[str, ...] | None:
            """The checks that forbid every producer in every state of ``key`` (None: some
            producer may be possible there)."""
            if key not in dead:
                state = _states_at(system, self.start, key)
                reasons: list[str] = []
                for action in producers:
                    forbidden = forbidding(system, state, action)
                    if forbidden is None:
                        dead[key] = None
                        break
                    reasons += forbidden
                else:
                    dead[key] = tuple(dict.fromkeys(reasons))
            return dead[key]

        safe: dict[Key, frozenset[Key] | None] = {}

        def closure(key: Key) -> frozenset[Key] | None:
            """The keys reachable from ``key``, when every one of them forbids every
            producer (None otherwise)."""
            if key not in safe:
                reached, queue = {key}, deque([key])
                while queue:
                    here = queue.popleft()
                    after = self.follows(here) if forbidden_at(here) is not None else None
                    if after is None:
                        safe[key] = None
                        break
                    for k in after - reached:
                        reached.add(k)
                        queue.append(k)
                else:
                    safe[key] = frozenset(reached)
            return safe[key]

        entered = _visit_before(system, self.start, producers, closure)
        if entered is None:
            return None
        visited, reached, first_rules = entered
        steps = tuple(world.steps[s] for s in sorted({s for s, _ in reached}))
        rules = tuple(dict.fromkeys(r for key in sorted(reached) for r in dead[key] or ()))
        return Slice(cards, steps, rules, visited, first_rules, frozenset(reached))

    def slices(self, body: ast.Formula, want: bool) -> dict[int, Slice] | None:
        """Per card, the argument that no continuation activates it, for cards enough that
        none of them being activated keeps ``body`` from evaluating to ``want`` (None: not
        decided this way)."""
        # How a link of a card resolved needs the link: a card with none on the chain and
        # none resolved yet resolves (or is negated...) only once it is activated.
        candidates = sorted(c for c in _named_by_atoms(body) if self._unlinked(c))
        if _without(body, frozenset(candidates)) is not (not want):
            return None  # even if none of them is ever activated, the claim is not decided
        dead: dict[int, Slice] = {}
        for card in candidates:
            if card not in self._dead:
                self._dead[card] = self.dead_activations(frozenset({card}))
            found = self._dead[card]
            if found is not None:
                dead[card] = found
        if not dead or _without(body, frozenset(dead)) is not (not want):
            return None
        return dead

    def decide(self, body: ast.Formula, want: bool) -> Slice | None:
        """The argument that no continuation makes ``body`` evaluate to ``want``, when the
        cards it says are activated can never be (None: not decided this way)."""
        dead = self.slices(body, want)
        if dead is None:
            return None
        steps = {s: None for found in dead.values() for s in found.steps}
        order = {name: i for i, name in enumerate(self.system.world.steps)}
        return Slice(
            frozenset(dead),
            tuple(sorted(steps, key=order.__getitem__)),
            tuple(dict.fromkeys(r for found in dead.values() for r in found.rules)),
            max(found.visited for found in dead.values()),
            tuple(dict.fromkeys(r for found in dead.values() for r in found.first_rules)),
        )

    def _unlinked(self, card: int) -> bool:
        """Whether, at the start, no link of ``card`` is on the chain or has resolved."""
        layout, start = self.system.layout, self.start
        abilities = set(self.system.world.cards[card].abilities)
        links = start[layout.position("lab")]  # every slot, empty ones hold -1
        resolved = start[layout.position("r_ab")]  # every entry, unused ones hold -1
        return not abilities & {*links, *resolved}


def _visit_before(
    system: System,
    start: State,
    producers: list[Action],
    closure: Callable[[Key], frozenset[Key] | None],
) -> tuple[int, set[Key], tuple[str, ...]] | None:
    """Visit every state until the continuations reach keys whose closure forbids every
    producer: the number visited, the keys the continuations go on through from there and
    the checks that forbade the producers in the visited states (most often first), or None
    when a producer is enabled in a visited state, one is past a capacity or a dead end, or
    there are too many."""
    step, mode = system.layout.position("step"), system.layout.position("mode")
    seen = {start}
    queue = deque([start])
    visited = 0
    reached: set[Key] = set()
    forbade: Counter[str] = Counter()
    while queue:
        state = queue.popleft()
        covered = closure((state[step], state[mode]))
        if covered is not None:
            reached |= covered
            continue
        visited += 1
        if visited > MAX_VISITED or READ.overflow(state):
            return None
        if READ.mode(state) == Mode.DONE:
            continue
        enabled = list(system.enabled_actions(state))
        if not enabled or any(a in producers for a in enabled):
            return None
        for producer in producers:
            checks = system.checks(CONCRETE, state, producer)
            rule = next((c.rule for c in checks if not c.ok), None)
            if rule is not None:
                forbade[rule] += 1
        for action in enabled:
            successor = system.step(CONCRETE, state, action)
            if successor not in seen:
                seen.add(successor)
                queue.append(successor)
    return visited, reached, tuple(r for r, _ in forbade.most_common())


OUTCOMES = (
    ast.Activates,
    ast.Targets,
    ast.Resolves,
    ast.Negated,
    ast.NoEffect,
    ast.Countered,
)
"""The atoms that only an activation of their card (after the start) can make true, when no
link of it is on the chain or has resolved at the start."""


def _named_by_atoms(formula: ast.Formula) -> frozenset[int]:
    """The cards of a claim's atoms that need their card activated (:data:`OUTCOMES`)."""
    found: set[int] = set()
    stack: list[ast.Formula] = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, OUTCOMES):
            found.add(node.card)
        elif isinstance(node, ast.Not):
            stack.append(node.arg)
        elif isinstance(node, ast.And | ast.Or):
            stack.extend(node.args)
    return frozenset(found)


def _without(formula: ast.Formula, cards: frozenset[int]) -> bool | None:
    """The claim's value when no card of ``cards`` is activated, if that alone decides it."""
    if isinstance(formula, OUTCOMES):
        return False if formula.card in cards else None
    if isinstance(formula, ast.Not):
        inner = _without(formula.arg, cards)
        return None if inner is None else not inner
    if isinstance(formula, ast.And | ast.Or):
        values = [_without(a, cards) for a in formula.args]
        deciding = isinstance(formula, ast.Or)  # True decides an or, False an and
        if deciding in values:
            return deciding
        if all(v is not None for v in values):
            return not deciding
        return None
    return None
