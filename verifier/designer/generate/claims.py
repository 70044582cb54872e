"""Claims: atoms and formulas over a scenario's cards and players, and the scenario as text."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

from ruamel.yaml import YAML

from verifier.designer.generate.cards import ZONES
from verifier.designer.generate.chooser import BIG_INDICES, CLAIM_CONSTANTS, COMPARISONS, Chooser
from verifier.designer.generate.histories import _load
from verifier.errors import Span
from verifier.games import Game, game
from verifier.io.model import find_model

# -- claims ---------------------------------------------------------------------------------


Claim = str | dict[str, str]
"""A claim: its text, or ``{claim: TEXT, until: STEP}`` (decided at the end of a step)."""


def claim_text(entry: Claim) -> str:
    """The text of a generated claim."""
    return entry if isinstance(entry, str) else entry["claim"]


def claims_for(c: Chooser, data: dict[str, Any], count: int = 3) -> list[Claim]:
    """``count`` random claims over a generated scenario's cards, players and numbers, in the
    words of the game of its rule system (``rules:``, a name or a path).

    A claim of a game whose drafting has ``step_claims`` is sometimes decided at the end of a
    step of the turn (its own ``until``): a step from where the scenario starts to where it
    ends (the step it starts in, for a scenario that stays where it starts), when the
    scenario loads so.
    """
    played = rules_game(str(data["rules"]))
    texts = _claim_texts(c, data, count, played)
    if not played.drafting.step_claims:
        return list(texts)
    out: list[Claim] = []
    for text in texts:
        if c.integer(0, 4) > 0:
            out.append(text)
            continue
        until = _claim_until(c, data, played.steps)
        out.append({"claim": text, "until": until} if until is not None else text)
    return out


def rules_game(reference: str) -> Game:
    """The game of the rule system a scenario's ``rules:`` names (a name or a path)."""
    return game(find_model(reference, None, Span("<rules>", 1, 1, reference)).game)


def _claim_until(c: Chooser, data: dict[str, Any], steps: Sequence[tuple[str, str]]) -> str | None:
    """A step (or phase) of the turn's ``steps`` (each with its phase) to decide a claim at
    the end of, if the scenario loads with it."""
    names = [name for name, _ in steps]
    phase = data.get("phase") or "main1"
    start = data.get("step") or next(n for n, p in steps if p == phase)
    first = names.index(start)
    last = first
    if "until" in data:
        last = max(i for i, (n, p) in enumerate(steps) if data["until"] in (n, p))
    until = c.pick(names[first : last + 1])
    phase = dict(steps)[until]
    ends = max(i for i, (_, p) in enumerate(steps) if p == phase)
    if c.integer(0, 3) == 0 and ends <= last:
        until = phase  # a phase: its last step
    if _load({**data, "until": until}) is None:
        return None
    return until


def _claim_texts(c: Chooser, data: dict[str, Any], count: int, played: Game) -> list[str]:
    draft = played.drafting
    players = tuple(data.get("players", ("A", "B")))
    lp = int(data.get("life-points", 8000))
    amounts = _amounts(data["cards"])
    numbers = sorted(
        {lp, lp // 2, (lp + 1) // 2} | {lp - a for a in amounts} | {lp + a for a in amounts}
    )
    atoms = (
        *(a for a in ATOMS if a not in draft.claim_atoms_left_out),
        *(BATTLE_ATOMS if draft.battle_phase else ()),
        *draft.claim_atoms_added,
    )
    tokens = token_names(data)
    texts = [
        claim(
            c,
            [*data["cards"], *tokens],
            players=players,
            speeds=draft.speeds,
            numbers=numbers,
            atoms=atoms,
            steps=tuple(name for name, _ in played.steps),
            phases=played.phases,
        )
        for _ in range(count)
    ]
    counted = sorted(data.get("deck", {}))
    if counted and texts and c.integer(0, 2) > 0:
        # What is left of a counted Deck, and who lost for a draw it could not give.
        quantifier = c.pick(["exists ", "always ", ""])
        if c.integer(0, 1) == 0:
            atom = f"deck_size({c.pick(counted)}) {c.pick(COMPARISONS)} {c.pick([0, 1, 2, 3])}"
        else:
            atom = f"loses({c.pick(players)})"
        texts[-1] = f"{quantifier}{atom}" if c.integer(0, 2) > 0 else f"{quantifier}not {atom}"
    if tokens and texts and c.integer(0, 1) == 0:
        # Where a token is: on the battlefield, or nowhere (not created yet, or gone).
        where = c.pick(["none", "none", "field", "graveyard"])
        quantifier = c.pick(["exists ", "always ", ""])
        texts[0] = f"{quantifier}zone({json.dumps(c.pick(tokens))}) == {where}"
    return texts


_TOKEN = re.compile(r" Token \d+$")


def token_names(data: dict[str, Any]) -> list[str]:
    """The token slots the loader keeps for the scenario (:mod:`verifier.io.tokens`), in its
    order: asked of the loaded scenario, so the numbering is the loader's own."""
    prepared = _load(data)
    if prepared is None:
        return []
    return [card.name for card in prepared.scenario.cards if card.token]


def _amounts(node: Any) -> set[int]:
    """Every Life Point amount written in the cards."""
    found: set[int] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("lose-lp", "gain-lp", "pay-lp") and isinstance(value, int):
                found.add(value)
            else:
                found |= _amounts(value)
    elif isinstance(node, list):
        for value in node:
            found |= _amounts(value)
    return found


class _Words(NamedTuple):
    """What a claim's atoms may name: the players, the speeds, the numbers worth comparing
    Life Points with, the kinds of atom, and the steps and phases of the turn."""

    players: Sequence[str]
    speeds: Sequence[str]
    numbers: Sequence[int]
    atoms: Sequence[str]
    steps: Sequence[str]
    phases: Sequence[str]


def claim(
    c: Chooser,
    cards: Sequence[str],
    depth: int = 2,
    players: Sequence[str] = ("A", "B"),
    speeds: Sequence[str] = ("1", "2", "3"),
    numbers: Sequence[int] = (),
    atoms: Sequence[str] = (),
    steps: Sequence[str] = (),
    phases: Sequence[str] = (),
) -> str:
    """A random claim over the scenario's cards, with a quantifier.

    ``numbers`` are constants worth comparing Life Points with (the scenario's, after its
    amounts); the others come from :data:`CLAIM_CONSTANTS`. ``atoms`` are the kinds of atom
    the game has (all of :data:`ATOMS` by default); ``steps`` and ``phases`` those of its
    turn, which the ``step`` and ``phase`` atoms compare with.
    """
    if c.integer(0, 7) == 0:
        # can_respond / can_activate carry their own quantifier: never under another one.
        return _possibility(c, cards, players, depth)
    words = _Words(players, speeds, numbers, atoms or ATOMS, steps, phases)
    quantifier = c.pick(["exists", "always", "always", ""])
    if c.integer(0, 5) == 0:
        if c.integer(0, 2) == 0:
            # Read where the history stops, beside what the continuation's end says.
            point = _formula(c, cards, max(depth - 1, 0), words)
            end = _formula(c, cards, max(depth - 1, 0), words)
            return f"{quantifier} now ({point}) {c.pick(['and', 'or'])} {end}".strip()
        # Decided where Chain Link N has just resolved; priority is a fact of the scenario's
        # point, not of a link, so it is left out there.
        kinds = [a for a in words.atoms if a != "priority"]
        body = _formula(c, cards, depth, words._replace(atoms=kinds))
        return f"{quantifier} after_link({_index(c)}) {body}".strip()
    body = _formula(c, cards, depth, words)
    return f"{quantifier} {body}".strip()


def _index(c: Chooser, low: int = 1) -> int:
    """A chain or link number (or a chain length from ``low``): mostly small, now and then
    past every integer width."""
    small = c.integer(low, 3)
    return c.pick(BIG_INDICES) if c.integer(0, 7) == 0 else small


def _possibility(c: Chooser, cards: Sequence[str], players: Sequence[str], depth: int) -> str:
    player = c.pick(players)
    if c.integer(0, 1) == 0:
        atom = f"can_respond({player})"
    else:
        atom = f"can_activate({player}, {json.dumps(c.pick(cards))})"
    if depth > 0 and c.integer(0, 2) == 0:
        return f"not {atom}"
    if depth > 0 and c.integer(0, 2) == 0:
        return f"({atom} {c.pick(['and', 'or'])} {_possibility(c, cards, players, depth - 1)})"
    return atom


def _formula(c: Chooser, cards: Sequence[str], depth: int, words: _Words) -> str:
    if depth > 0 and c.integer(0, 2) == 0:
        op = c.pick(["and", "or"])
        left = _formula(c, cards, depth - 1, words)
        right = _formula(c, cards, depth - 1, words)
        return f"({left} {op} {right})"
    if depth > 0 and c.integer(0, 4) == 0:
        return f"not {_formula(c, cards, depth - 1, words)}"
    return _atom(c, cards, words)


ATOMS = (
    "activates",
    "responds",
    "resolves",
    "negated",
    "no_effect",
    "before",
    "triggers",
    "misses_timing",
    "cleanup_sends",
    "dizzy",
    "resolution_order",
    "chain_order",
    "segoc_order",
    "chain(N).order",
    "chain(N).resolution_order",
    "chain_length",
    "zone",
    "controller",
    "position",
    "face",
    "speed",
    "life_points",
    "life_points",
    "targets",  # in a third life-points slot: the other atoms keep their draws
    "cards_drawn",
    "atk",
    "def",
    "priority",
)
#: Atoms of the turn and the Battle Phase (a game whose drafting has ``battle_phase``). A
#: game's drafting leaves out some of :data:`ATOMS` and adds its own (Magic's ``countered``).
BATTLE_ATOMS = ("attacks", "destroyed_by_battle", "battle_damage", "step", "phase")


def _atom(c: Chooser, cards: Sequence[str], words: _Words) -> str:
    card = json.dumps(c.pick(cards))
    other = json.dumps(c.pick(cards))
    player = c.pick(words.players)
    kind = c.pick(words.atoms)
    eq = c.pick(["==", "==", "!="])
    if kind in ("activates",):
        return f"activates({player}, {card})"
    if kind == "responds":
        return f"responds({player})"
    if kind == "priority":
        return f"priority {eq} {player}"
    if kind in ("attacks", "destroyed_by_battle"):
        return f"{kind}({card})"
    if kind == "step":
        return f"step {eq} {c.pick(words.steps)}"
    if kind == "phase":
        return f"phase {eq} {c.pick(words.phases)}"
    if kind in ("resolves", "negated", "countered", "no_effect", "triggers", "misses_timing"):
        return f"{kind}({card})"
    if kind in ("cleanup_sends", "dizzy"):
        return f"{kind}({card})"
    if kind == "before":
        return f"before({card}, {other})"
    if kind == "targets":
        # A card or a player as the target, told by the draw the comparisons use.
        return f"targets({card}, {other if eq == '==' else player})"
    if kind in ("resolution_order", "chain_order", "segoc_order"):
        listed = [json.dumps(c.pick(cards)) for _ in range(c.integer(0, 2))]
        return f"{kind} {eq} [{', '.join(listed)}]"
    if kind.startswith("chain(N)"):
        member = kind.split(".")[1]
        listed = [json.dumps(c.pick(cards)) for _ in range(c.integer(0, 2))]
        return f"chain({_index(c)}).{member} {eq} [{', '.join(listed)}]"
    if kind == "chain_length":
        return f"chain_length {c.pick(COMPARISONS)} {_index(c, 0)}"
    if kind == "zone":
        # A token slot may be in no zone: not created yet, or ceased to exist (CR 704.5d).
        if _TOKEN.search(json.loads(card)) and c.integer(0, 1) == 0:
            return f"zone({card}) {eq} none"
        return f"zone({card}) {eq} {c.pick(ZONES)}"
    if kind == "controller":
        return f"controller({card}) {eq} {player}"
    if kind == "position":
        return f"position({card}) {eq} {c.pick(['attack', 'defense'])}"
    if kind == "face":
        return f"face({card}) {eq} {c.pick(['up', 'down'])}"
    if kind == "speed":
        return f"speed({card}) {eq} {c.pick(words.speeds)}"
    op = c.pick(COMPARISONS)
    if kind in ("atk", "def"):
        value = c.pick([0, 500, 1000, 1500, 2000, 2500, 3000, c.pick(CLAIM_CONSTANTS)])
        return f"{kind}({card}) {op} {value}"
    if kind == "battle_damage":
        value = c.pick([0, 100, 300, 500, 1000, 1400, 1900, 2500, 3000, c.pick(CLAIM_CONSTANTS)])
        return f"battle_damage({player}) {op} {value}"
    if kind == "cards_drawn":
        value = c.pick([0, 1, 2, 3, 99, 100, 101, 200, c.pick(CLAIM_CONSTANTS)])
        return f"cards_drawn({player}) {op} {value}"
    numbers = words.numbers
    value = c.pick(numbers) if numbers and c.integer(0, 1) == 0 else c.pick(CLAIM_CONSTANTS)
    return f"life_points({player}) {op} {value}"


def to_text(data: dict[str, Any]) -> str:
    """The scenario as the text of a YAML file, mappings of plain values on one line."""
    stream = io.StringIO()
    writer = YAML(typ="rt", pure=True)
    writer.default_flow_style = None
    writer.width = 100
    writer.dump(data, stream)
    return stream.getvalue()
