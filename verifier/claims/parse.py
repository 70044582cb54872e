"""Parse a claim with a real grammar (never eval) and resolve its names against a scenario."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from verifier.claims import ast
from verifier.errors import ClaimError, Span, unprintable
from verifier.spec.cards import Zone

__all__ = [
    "MAX_CLAIM_ATOMS",
    "MAX_CLAIM_CHARS",
    "MAX_CLAIM_DEPTH",
    "MAX_DIGITS",
    "Vocabulary",
    "parse_claim",
    "quantifier_free",
]

MAX_CLAIM_CHARS = 4000
"""The longest claim, in characters."""
MAX_CLAIM_ATOMS = 100
"""The most atoms (predicates and comparisons) one claim may combine."""
MAX_CLAIM_DEPTH = 50
"""How deeply ``not``, ``and``/``or`` groups and quantifiers may nest in one claim."""
MAX_DIGITS = 18
"""The most digits a number in a claim may have."""

# Nodes of the parse tree that a formula is built from (the atoms are leaves below them).
_CONNECTIVES = {"quant", "point", "or_", "and_", "not_", "now"}
_ATOMS = {"test", "compare", "member_compare", "name_compare", "bare"}

CARD_PREDICATES: dict[str, Callable[[int], ast.Formula]] = {
    "resolves": ast.Resolves,
    "negated": ast.Negated,
    "countered": ast.Countered,
    "no_effect": ast.NoEffect,
    "triggers": ast.Triggers,
    "misses_timing": ast.MissesTiming,
    "cleanup_sends": ast.SentByCleanup,
    "dizzy": ast.Dizzy,
    "tapped": ast.Dizzy,  # Magic's word for it (CR 110.5)
    "attacks": ast.Attacks,
    "destroyed_by_battle": ast.DestroyedByBattle,
}
ORDERS = {
    "resolution_order": "resolution",
    "chain_order": "activation",
    "order": "activation",
    "segoc_order": "segoc",
    "stack": "stack",
}
POSSIBILITIES = frozenset({"can_activate", "can_respond"})
"""The atoms that carry their own quantifier (``exists``)."""
FIELD_PREDICATES = frozenset({"dizzy"})
"""Card predicates that read an optional state field of the same name."""
PREDICATES = sorted(
    [
        *CARD_PREDICATES,
        "activates",
        "can_activate",
        "responds",
        "can_respond",
        "before",
        "targets",
        "loses",
    ]
)
COMPARED = sorted(
    [
        "zone",
        "controller",
        "position",
        "face",
        "speed",
        *ORDERS,
        "chain_length",
        "length",
        "chain",
        "life_points",
        "cards_drawn",
        "hand_size",
        "deck_size",
        "battle_damage",
        "atk",
        "def",
    ]
)


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The names a claim may use: the scenario's cards, players and speeds."""

    cards: tuple[str, ...]
    players: tuple[str, ...]
    speeds: tuple[str, ...]
    fields: frozenset[str] = frozenset()
    """The optional state fields of the game (a predicate that reads one needs it)."""
    steps: tuple[tuple[str, str], ...] = ()
    """The steps of the turn, each with its phase; the phases without steps too."""
    zones: tuple[str, ...] = ()
    """The zones of the game (every zone when empty)."""
    words: tuple[tuple[str, str], ...] = ()
    """The game's own names for zones (Magic's ``battlefield``), with the verifier's."""
    decks: tuple[str, ...] = ()
    """The players whose Deck the scenario counts (``deck:``)."""
    taps: bool = False
    """Whether the game's permanents tap and untap (Magic's ``tapped``)."""


@cache
def _parser() -> Lark:
    grammar = resources.files("verifier.claims").joinpath("grammar.lark").read_text()
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def parse_claim(text: str, vocabulary: Vocabulary, origin: Span) -> ast.Formula:
    """Parse ``text``; ``origin`` is where its first character is written, for error spans.

    A claim is bounded (:data:`MAX_CLAIM_CHARS`, :data:`MAX_CLAIM_ATOMS`,
    :data:`MAX_CLAIM_DEPTH`, :data:`MAX_DIGITS`), so that building and deciding it never
    runs out of stack; the bounds are checked on the parse tree without recursion.
    """
    if len(text) > MAX_CLAIM_CHARS:
        raise ClaimError(
            f"claim too long ({len(text)} characters; at most {MAX_CLAIM_CHARS})",
            _at(origin, MAX_CLAIM_CHARS + 1),
        )
    bad = unprintable(text)
    if bad is not None:
        raise ClaimError(
            f"control character U+{ord(bad.group()):04X} is not allowed in a claim",
            _at(origin, bad.start() + 1),
        )
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, origin) from None
    _check_bounds(tree, origin)
    _check_points(tree, origin)
    formula = _Builder(text, vocabulary, origin).build(tree)
    _check_nesting(formula, text, origin, inside=False)
    return formula


def quantifier_free(formula: ast.Formula) -> bool:
    if isinstance(formula, ast.Quantified):
        return False
    if isinstance(formula, ast.Not):
        return quantifier_free(formula.arg)
    if isinstance(formula, ast.And | ast.Or):
        return all(quantifier_free(a) for a in formula.args)
    return True


def _at(origin: Span, column: int) -> Span:
    """The span of the 1-based ``column`` of the claim text."""
    return origin.shifted(column - 1)


def _syntax_error(exc: UnexpectedInput, text: str, origin: Span) -> ClaimError:
    column = getattr(exc, "column", None)
    if not isinstance(column, int) or column < 1:
        column = len(text) + 1
    if isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    ):
        return ClaimError("claim ends too early", _at(origin, len(text.rstrip()) + 1))
    if isinstance(exc, UnexpectedCharacters):
        return ClaimError(f"unexpected character {exc.char!r} in claim", _at(origin, column))
    if isinstance(exc, UnexpectedToken):
        return ClaimError(f"unexpected {exc.token.value!r} in claim", _at(origin, column))
    return ClaimError("malformed claim", _at(origin, column))


def _check_bounds(tree: Tree[Any], origin: Span) -> None:
    """Refuse a parse tree with too many atoms, too deep a nesting, or too long a number.

    A chain of one connective (``a and b and c``) is one level: it becomes one ``And``.
    """
    atoms = 0
    stack: list[tuple[Tree[Any] | Token, int, str | None]] = [(tree, 0, None)]
    while stack:
        node, depth, parent = stack.pop()
        if isinstance(node, Token):
            if node.type == "INT" and len(str(node).lstrip("-")) > MAX_DIGITS:
                raise ClaimError(
                    f"number too large (at most {MAX_DIGITS} digits)",
                    _at(origin, node.column or 1),
                )
            continue
        kind = node.data
        if kind in _ATOMS:
            atoms += 1
            if atoms > MAX_CLAIM_ATOMS:
                raise ClaimError(
                    f"claim has too many atoms (at most {MAX_CLAIM_ATOMS})",
                    _at(origin, node.meta.column or 1),
                )
        if kind in _CONNECTIVES and not (kind in {"and_", "or_"} and kind == parent):
            depth += 1
            if depth > MAX_CLAIM_DEPTH:
                raise ClaimError(
                    f"claim nested too deeply (at most {MAX_CLAIM_DEPTH} levels of "
                    "not, and, or and quantifiers)",
                    _at(origin, node.meta.column or 1),
                )
        stack.extend((child, depth, kind) for child in reversed(node.children))


def _check_points(tree: Tree[Any], origin: Span) -> None:
    """``after_link(N) F`` decides the whole claim at one point where the continuation
    stops: it is the claim, or the body of its one quantifier, and ``F`` has no quantifier
    and no ``priority`` (a fact of the scenario's point, not of a chain link)."""
    point: Tree[Any] | None = None
    if tree.data == "point":
        point = tree
    elif tree.data == "quant" and isinstance(tree.children[1], Tree):
        body = tree.children[1]
        point = body if body.data == "point" else None
    stack: list[tuple[Tree[Any] | Token, bool]] = [(tree, False)]
    while stack:
        node, under = stack.pop()
        if isinstance(node, Token):
            continue
        if node.data == "point" and node is not point:
            raise ClaimError(
                "after_link(N) must begin the claim or follow its quantifier, once "
                '(such as: always after_link(2) zone("X") == graveyard)',
                _at(origin, node.meta.column or 1),
            )
        if under and node.data == "quant":
            raise ClaimError(
                "a quantifier goes before after_link(N), not after it",
                _at(origin, node.meta.column or 1),
            )
        if under and node.data == "app" and str(node.children[0]) in POSSIBILITIES:
            raise ClaimError(
                f"{node.children[0]}(...) carries its own quantifier, which goes before "
                "after_link(N): write exists after_link(N) activates(...) or responds(...)",
                _at(origin, node.meta.column or 1),
            )
        if under and node.data == "name_compare" and str(node.children[0]) == "priority":
            raise ClaimError(
                "priority is decided at the scenario's point, not after a chain link",
                _at(origin, node.meta.column or 1),
            )
        if under and node.data == "now":
            raise ClaimError(
                "now F is decided at the scenario's point, not after a chain link",
                _at(origin, node.meta.column or 1),
            )
        if node.data == "now":
            _check_now(node, origin)
        inside = under or node is point
        stack.extend((child, inside) for child in node.children)


def _check_now(now: Tree[Any], origin: Span) -> None:
    """``now F`` reads the scenario's point alone: no quantifier, no ``after_link``, no
    possibility (each speaks of continuations) and no ``now`` inside ``F``."""
    stack: list[Tree[Any] | Token] = list(now.children)
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            continue
        where = _at(origin, node.meta.column or 1)
        if node.data == "quant":
            raise ClaimError(
                "a quantifier goes before now, not after it: now F is the same on every "
                "continuation",
                where,
            )
        if node.data == "point":
            raise ClaimError(
                "after_link(N) cannot go inside now: now F is read at one point", where
            )
        if node.data == "now":
            raise ClaimError("now is written once: now F is already at the scenario's point", where)
        if node.data == "app" and str(node.children[0]) in POSSIBILITIES:
            raise ClaimError(
                f"{node.children[0]}(...) speaks of the continuations, not of the scenario's "
                "point: write it without now",
                where,
            )
        stack.extend(node.children)


def _check_nesting(formula: ast.Formula, text: str, origin: Span, inside: bool) -> None:
    if isinstance(formula, ast.Quantified):
        if inside:
            raise ClaimError("quantifiers cannot be nested", origin)
        _check_nesting(formula.body, text, origin, inside=True)
    elif isinstance(formula, ast.AfterLink):
        _check_nesting(formula.body, text, origin, inside)
    elif isinstance(formula, ast.Not):
        _check_nesting(formula.arg, text, origin, inside)
    elif isinstance(formula, ast.Now):
        _check_nesting(formula.body, text, origin, inside=True)
    elif isinstance(formula, ast.And | ast.Or):
        for arg in formula.args:
            _check_nesting(arg, text, origin, inside)


class _Builder:
    """Turns the parse tree into :mod:`verifier.claims.ast`, resolving every name."""

    def __init__(self, text: str, vocabulary: Vocabulary, origin: Span) -> None:
        self.text = text
        self.vocab = vocabulary
        self.origin = origin

    def error(self, message: str, node: Tree[Any] | Token) -> ClaimError:
        column = node.column if isinstance(node, Token) else node.meta.column
        return ClaimError(message, _at(self.origin, column or 1))

    def build(self, tree: Tree[Any] | Token) -> ast.Formula:
        if isinstance(tree, Token):
            raise self.error(f"unexpected {tree.value!r} in claim", tree)
        kind = tree.data
        if kind == "quant":
            return ast.Quantified(str(tree.children[0]), self.build(tree.children[1]))
        if kind == "point":
            _, number, body = tree.children
            link = self.number(Tree("int", [number]))
            if link < 1:
                raise self.error("chain links are numbered from 1", number)
            return ast.AfterLink(link, self.build(body))
        if kind == "or_":
            ors = [self.build(c) for c in tree.children]
            return ast.Or(
                tuple(a for o in ors for a in (o.args if isinstance(o, ast.Or) else (o,)))
            )
        if kind == "and_":
            ands = [self.build(c) for c in tree.children]
            return ast.And(
                tuple(a for o in ands for a in (o.args if isinstance(o, ast.And) else (o,)))
            )
        if kind == "not_":
            return ast.Not(self.build(tree.children[0]))
        if kind == "now":
            return ast.Now(self.build(tree.children[0]))
        if kind == "test":
            return self.test(tree.children[0])
        if kind == "compare":
            app, op, value = tree.children
            return self.compare_app(app, op, value)
        if kind == "member_compare":
            app, member, op, value = tree.children
            return self.compare_member(app, member, op, value)
        if kind == "name_compare":
            name, op, value = tree.children
            return self.compare_name(name, op, value, chain=0)
        if kind == "bare":
            token = tree.children[0]
            raise self.error(
                f"'{token}' is not a claim on its own{_hint(str(token), PREDICATES)}", token
            )
        raise self.error("malformed claim", tree)

    # -- helpers ---------------------------------------------------------------------------

    def args(self, app: Tree[Any]) -> tuple[Any, list[Any]]:
        name = app.children[0]
        return name, list(app.children[1:])

    def arity(self, name: Token, args: list[Tree[Any]], count: int, shape: str) -> None:
        if len(args) != count:
            raise self.error(f"{name} takes {shape}", name)

    def card(self, node: Tree[Any]) -> int:
        token = node.children[0]
        if node.data != "string":
            raise self.error(f"expected a card name in quotes, got {token}", token)
        name = str(token)[1:-1]
        if name in self.vocab.cards:
            return self.vocab.cards.index(name)
        raise self.error(f"unknown card '{name}'{_hint(name, list(self.vocab.cards))}", token)

    def player(self, node: Tree[Any]) -> int:
        token = node.children[0]
        name = str(token)
        if node.data == "string":
            name = name[1:-1]
        elif node.data != "name":
            raise self.error(f"expected a player, got {token}", token)
        if name in self.vocab.players:
            return self.vocab.players.index(name)
        raise self.error(
            f"unknown player '{name}' (players: {', '.join(self.vocab.players)})", token
        )

    def number(self, node: Tree[Any]) -> int:
        token = node.children[0]
        if node.data != "int":
            raise self.error(f"expected a number, got {token}", token)
        if len(str(token).lstrip("-")) > MAX_DIGITS:
            raise self.error(f"number too large (at most {MAX_DIGITS} digits)", token)
        return int(str(token))

    # -- atoms -----------------------------------------------------------------------------

    def test(self, app: Tree[Any]) -> ast.Formula:
        name, args = self.args(app)
        word = str(name)
        if word in CARD_PREDICATES:
            if word in FIELD_PREDICATES and word not in self.vocab.fields:
                raise self.error(f"'{word}' is not a notion of this game", name)
            if word == "tapped" and not self.vocab.taps:
                raise self.error("'tapped' is a notion of Magic, not of this game", name)
            self.arity(name, args, 1, "one card")
            atom: ast.Formula = CARD_PREDICATES[word](self.card(args[0]))
            return atom
        if word in {"activates", "can_activate"}:
            if len(args) == 1:
                activates = ast.Activates(None, self.card(args[0]))
            else:
                self.arity(name, args, 2, "a player and a card")
                activates = ast.Activates(self.player(args[0]), self.card(args[1]))
            return ast.Quantified("exists", activates) if word == "can_activate" else activates
        if word in {"responds", "can_respond"}:
            self.arity(name, args, 1, "one player")
            responds = ast.Responds(self.player(args[0]))
            return ast.Quantified("exists", responds) if word == "can_respond" else responds
        if word == "loses":
            self.arity(name, args, 1, "one player")
            return ast.Loses(self.player(args[0]))
        if word == "before":
            self.arity(name, args, 2, "two cards")
            return ast.Before(self.card(args[0]), self.card(args[1]))
        if word == "targets":
            self.arity(name, args, 2, 'a card and its target: a card ("X") or a player (B)')
            card = self.card(args[0])
            if args[1].data == "string":
                return ast.Targets(card, self.card(args[1]))
            return ast.Targets(card, None, self.player(args[1]))
        if word in COMPARED:
            raise self.error(f"{word}(...) needs a comparison, such as {word}(...) == ...", name)
        raise self.error(f"unknown predicate '{word}'{_hint(word, PREDICATES)}", name)

    def compare_app(self, app: Tree[Any], op: Any, value: Any) -> ast.Formula:
        name, args = self.args(app)
        word = str(name)
        if word == "zone":
            self.arity(name, args, 1, "one card")
            card = self.card(args[0])
            return self.equality(op, ast.ZoneIs(card, self.zone(value)))
        if word == "controller":
            self.arity(name, args, 1, "one card")
            card = self.card(args[0])
            return self.equality(op, ast.ControllerIs(card, self.player(value)))
        if word == "position":
            self.arity(name, args, 1, "one card")
            card = self.card(args[0])
            defense = self.one_of(value, ("attack", "defense"), "battle position") == "defense"
            return self.equality(op, ast.PositionIs(card, defense))
        if word == "face":
            self.arity(name, args, 1, "one card")
            card = self.card(args[0])
            up = self.one_of(value, ("up", "down"), "face") == "up"
            return self.equality(op, ast.FaceIs(card, up))
        if word == "speed":
            self.arity(name, args, 1, "one card")
            card = self.card(args[0])
            return self.equality(op, ast.SpeedIs(card, self.speed(value)))
        if word in {"life_points", "cards_drawn", "hand_size", "battle_damage", "deck_size"}:
            self.arity(name, args, 1, "one player")
            who = self.player(args[0])
            if word == "deck_size" and self.vocab.players[who] not in self.vocab.decks:
                raise self.error(
                    f"deck_size({self.vocab.players[who]}): the scenario does not count that "
                    f"player's Deck (deck: {{{self.vocab.players[who]}: N}})",
                    args[0],
                )
            return ast.PlayerCount(word, who, str(op), self.number(value))
        if word in {"atk", "def"}:
            self.arity(name, args, 1, "one card")
            return ast.CardStat(word, self.card(args[0]), str(op), self.number(value))
        if word == "chain":
            raise self.error("chain(N) needs a member: chain(N).order, .resolution_order", name)
        if word in CARD_PREDICATES or word in PREDICATES:
            raise self.error(f"{word}(...) is true or false; it takes no comparison", op)
        raise self.error(f"unknown function '{word}'{_hint(word, COMPARED)}", name)

    def compare_member(self, app: Tree[Any], member: Any, op: Any, value: Any) -> ast.Formula:
        name, args = self.args(app)
        if str(name) != "chain":
            raise self.error(f"only chain(N) has members, not {name}(...)", name)
        self.arity(name, args, 1, "a chain number")
        chain = self.number(args[0])
        if chain < 1:
            raise self.error("chains are numbered from 1", args[0].children[0])
        return self.compare_name(member, op, value, chain)

    def compare_name(self, name: Any, op: Any, value: Any, chain: int) -> ast.Formula:
        word = str(name)
        if word in {"step", "phase"} and chain == 0:
            return self.equality(op, self.step_is(word, value))
        if word == "priority" and chain == 0:
            return self.equality(op, ast.Priority(self.player(value)))
        if word in ORDERS:
            if word == "stack" and chain:
                raise self.error("the stack has no chain number: write 'stack == [...]'", name)
            cards = self.card_list(value)
            return self.equality(op, ast.OrderIs(ORDERS[word], chain, cards))
        if word in {"chain_length", "length"}:
            return ast.ChainLength(chain, str(op), self.number(value))
        known = [*ORDERS, "chain_length", "priority"]
        raise self.error(f"unknown quantity '{word}'{_hint(word, known)}", name)

    def step_is(self, what: str, value: Tree[Any]) -> ast.Formula:
        """``step == NAME`` or ``phase == NAME``: where the continuation ends."""
        token = value.children[0]
        word = str(token).strip("\"'")
        pairs = self.vocab.steps
        names = (
            [s for s, _ in pairs] if what == "step" else list(dict.fromkeys(p for _, p in pairs))
        )
        if word not in names:
            raise self.error(
                f"unknown {what} '{word}'{_hint(word, names)} ({what}s: {', '.join(names)})", token
            )
        if what == "step":
            return ast.StepIs((word,), what)
        return ast.StepIs((word, *(s for s, p in pairs if p == word)), what)

    def card_list(self, value: Tree[Any]) -> tuple[int, ...]:
        if value.data != "list":
            token = value.children[0]
            raise self.error('expected a list of card names, such as ["A", "B"]', token)
        return tuple(self.card(Tree("string", [t])) for t in value.children)

    def zone(self, value: Tree[Any]) -> int:
        token = value.children[0]
        word = str(token).strip("\"'")
        zones = [z.label for z in Zone if not self.vocab.zones or z.label in self.vocab.zones]
        own = {said: meant for said, meant in self.vocab.words if meant in zones}
        if word in zones or word in own:
            return int(Zone.named(own.get(word, word)))
        named = ", ".join([*zones, *own])
        raise self.error(f"unknown zone '{word}' (zones: {named})", token)

    def one_of(self, value: Tree[Any], words: tuple[str, ...], what: str) -> str:
        token = value.children[0] if value.children else value
        word = str(token).strip("\"'")
        if value.data in ("name", "string") and word in words:
            return word
        raise self.error(f"unknown {what} '{word}' (one of: {', '.join(words)})", token)

    def speed(self, value: Tree[Any]) -> int:
        token = value.children[0]
        word = str(token).strip("\"'")
        if word in self.vocab.speeds:
            return self.vocab.speeds.index(word)
        raise self.error(f"unknown speed '{word}' (speeds: {', '.join(self.vocab.speeds)})", token)

    def equality(self, op: Token, atom: ast.Formula) -> ast.Formula:
        if str(op) == "==":
            return atom
        if str(op) == "!=":
            return ast.Not(atom)
        raise self.error(f"'{op}' does not compare these; use == or !=", op)


def _hint(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""
