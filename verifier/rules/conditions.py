"""What one kind of activation condition ("When ...") is, and the registry of the kinds, in
the files' order.

A condition kind is one key of a ``when:`` in the files (``summoned: monster``,
``destroyed: {card: monster, controller: you}``): the values that key takes, how a value (with
the condition's other keys: ``by``, ``how``, ``includes``, ...) becomes a
:class:`~verifier.spec.cards.Condition`, with the kind's own checks of the file, whether it
holds now, and in which steps of the turn it can. The module that owns a kind's rules
registers it: :mod:`verifier.rules.windows` the answers to an activation and to a summon,
:mod:`verifier.rules.battle` the Battle Phase's, :mod:`verifier.rules.events` the events that
happened to a card. The file formats (:mod:`verifier.io.schema`), the scenario loader and both
engines' activation rules (:mod:`verifier.rules.activation`, :mod:`verifier.rules.turn`) are
built from the registry, so a kind added with :func:`register` (a test's own) works end to end.

A condition of a phase or a turn alone (``during: main-phase``, ``turn: yours``) is of kind
``during``; it has no key of its own and every kind takes it too
(:mod:`verifier.rules.during`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from verifier.core.logic import Term
from verifier.rules.context import Ctx
from verifier.spec.cards import Ability, Condition, Filter
from verifier.spec.rulesystem import RuleSystem

__all__ = [
    "DURING",
    "VALUES",
    "ConditionKind",
    "Loading",
    "Value",
    "condition_kind",
    "condition_kinds",
    "register",
    "unregister",
]

DURING = "during"
"""The kind of a condition of a phase or a turn alone."""

Value = Literal["types", "filter", "card", "monster", "spell-trap"]
"""A shape of value a condition's key takes in the files: card ``types`` (one word or a list:
``monster``, ``spell``, ``trap``, ``spell-trap``, ``card``, ``monster-effect``), a card
``filter``, or one of the words ``card``, ``monster``, ``spell-trap`` (every card of that
type)."""
VALUES: tuple[Value, ...] = ("types", "filter", "card", "monster", "spell-trap")


class Loading(Protocol):
    """What a condition kind's loader may ask of the scenario loader (placed at the
    ``when``)."""

    @property
    def model(self) -> RuleSystem:
        """The rule system the scenario is played under."""
        ...

    def fail(self, message: str, key: str | None = None) -> Exception:
        """The error to raise, placed at the ``when`` (or at its ``key``)."""
        ...

    def cards(self, value: Any) -> Filter:
        """The cards ``value`` names: a card filter, or a word for a card type."""
        ...

    def types(self, value: Any) -> frozenset[str]:
        """The card types ``value`` names: a word, or a list of them."""
        ...

    def includes(self, names: list[str] | None) -> frozenset[str]:
        """The effect verbs of ``includes`` (``VERB`` or ``VERB from ZONE``), each one known."""
        ...


Loader = Callable[[Any, Any, Loading], Condition]
"""``load(value, spec, loading)``: the condition its key's ``value`` stands for (``spec``:
the whole ``when``, whose other keys refine it)."""
Met = Callable[[Ctx, Ability, Condition, Term], Term]
"""``met(ctx, ability, condition, player)``: whether ``condition``, of ``ability``, holds now
for ``player``."""


def _any_step(step: str) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class ConditionKind:
    """One kind of activation condition, everything about it in one place."""

    name: str
    """Its key in the files (``would-be-summoned``) and the ``kind`` of its conditions."""
    values: tuple[Value, ...]
    """The shapes of value its key takes."""
    description: str
    """What it is, for the formats' schema."""
    load: Loader
    met: Met
    event: bool = False
    """Whether it is met by an event that happened to a card while that event is the last
    thing to have happened (:mod:`verifier.rules.events` remembers when it happened)."""
    steps: Callable[[str], bool] = _any_step
    """Whether it can hold in the step of the turn called so (a step in which no ability
    could be activated is passed through at once)."""
    battle: bool = False
    """Whether it is a condition of the Battle Phase (a rule system without one refuses it;
    the scenario generator writes it only for a game with one)."""

    @property
    def key(self) -> str:
        """Its field name in the pydantic model (``would_be_summoned``)."""
        return self.name.replace("-", "_")


_KINDS: dict[str, ConditionKind] = {}


def register(new: ConditionKind) -> ConditionKind:
    """Add ``new`` to the conditions the files may name, after those already there."""
    if new.name in _KINDS or new.name == DURING:
        raise ValueError(f"the condition '{new.name}' is already registered")
    unknown = set(new.values) - set(VALUES)
    if unknown or not new.values:
        raise ValueError(f"the condition '{new.name}' takes values of no known shape: {unknown}")
    _KINDS[new.name] = new
    return new


def unregister(name: str) -> None:
    """Remove the condition ``name`` (a condition registered for a while, by a test)."""
    del _KINDS[name]


def condition_kinds() -> tuple[ConditionKind, ...]:
    """Every registered condition kind, in the order the files list them."""
    return tuple(_KINDS.values())


def condition_kind(name: str) -> ConditionKind:
    """The condition kind called ``name`` (a condition's ``kind``; not ``during``)."""
    return _KINDS[name]
