"""Fuzzing: mutated examples, libraries, rule systems and claims never crash the verifier.

Every bundled example (``examples/**/*.yaml``, the ``*.cards.yaml`` libraries and the
``models/*.yaml`` rule systems) is mutated at the text level (truncation, bad bytes, tags,
alias bombs, deep nesting, deleted, duplicated, renamed and swapped lines and values) and at
the data level (load, change the structure: wrong types, huge and negative numbers,
unicode, deleted, renamed and duplicated keys, swapped values, generated claims; dump), and
random claims (from the grammar, and raw noise) are asked. Each input runs through
``verifier.cli.main`` in-process with tight limits. The property: the exit status is 0, 1,
2 or 3, never an internal error or a traceback, and bad input is one located message.

The default suite runs a few hundred inputs: one data mutation under every top-level key of
every file, and a few Hypothesis-driven random ones. The big run is marked slow::

    FUZZ_COUNT=100000 FUZZ_SUMMARY=fuzz-summary.txt pytest -n 0 -m slow -s tests/test_fuzz.py

(``FUZZ_SECONDS`` stops it earlier, after that many seconds.) It prints (and writes to ``FUZZ_SUMMARY``) one line with the count of inputs, of each exit
status, and each crash class with a reproducer saved under ``FUZZ_CRASHES`` when given.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import io
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

import verifier
from verifier.cli import main
from verifier.errors import VerifierError, unprintable
from verifier.io.source import load_document

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(
    p
    for p in (ROOT / "examples").rglob("*.yaml")
    if not p.name.endswith((".cards.yaml", ".sweep.yaml"))
)
LIBRARIES = sorted((ROOT / "examples").rglob("*.cards.yaml"))
MODEL_FILES = sorted((ROOT / "models").glob("*.yaml"))
TARGETS: list[tuple[str, Path]] = [
    *(("scenario", p) for p in SCENARIOS),
    *(("library", p) for p in LIBRARIES),
    *(("model", p) for p in MODEL_FILES),
]
LIMITS = ["--max-states", "2000", "--timeout", "2"]
LOCATED = re.compile(r"^.+:\d+:\d+: error: ")
OK_STATUSES = {0, 1, 2, 3}
HANG_SECONDS = 60
# Top-level keys a scenario may have though no example uses them.
EXTRA_SCENARIO_KEYS = ["players", "phase", "life-points", "limits", "library"]


# -- the cases ------------------------------------------------------------------------------


@dataclass
class Case:
    """Files to write into a fresh folder, and the command line to run there."""

    label: str
    files: dict[str, bytes]
    argv: list[str]  # "{dir}" stands for the folder; "@api" first: the Python API
    claim: str | None = None
    options: dict[str, Any] = field(default_factory=dict)  # the Python API's keywords


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    seconds: float
    crash: str | None = None


@functools.cache
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@functools.cache
def _data(path: Path) -> Any:
    """The example's plain data (mutations work on deep copies)."""
    return load_document(path).data


def _libraries_beside(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in LIBRARIES if p.parent == path.parent}


def _host_for_library(library: Path) -> Path:
    return next(p for p in SCENARIOS if f"library: {library.name}" in _text(p))


def _host_for_model(model: Path) -> Path:
    uses = [
        p for p in SCENARIOS if re.search(rf"^rules: {re.escape(model.stem)}\s*$", _text(p), re.M)
    ]
    if uses:
        return uses[0]
    game = "cmc" if model.stem.startswith("cmc") else "yugioh"
    return next(p for p in SCENARIOS if p.parent.name == game)


def _with_rules(text: str, rules: str) -> str:
    return re.sub(r"^rules: .*$", f"rules: {rules}", text, count=1, flags=re.M)


def make_case(kind: str, path: Path, content: bytes, rnd: random.Random, label: str) -> Case:
    """The case that loads ``content`` in place of the example file ``path``."""
    if kind == "scenario":
        files = {**_libraries_beside(path), path.name: content}
        host = path.name
    elif kind == "library":
        scenario = _host_for_library(path)
        files = {scenario.name: scenario.read_bytes(), path.name: content}
        host = scenario.name
    else:
        scenario = _host_for_model(path)
        hosted = _with_rules(_text(scenario), "model.yaml").encode("utf-8")
        files = {**_libraries_beside(scenario), scenario.name: hosted, "model.yaml": content}
        host = scenario.name
    target = "{dir}/" + host
    roll = rnd.random()
    if roll < 0.1:
        argv = ["explain", *LIMITS, target]
    elif roll < 0.15 and kind == "model":
        argv = ["lint", "{dir}/model.yaml"]
    elif roll < 0.2:
        argv = ["check", "--engine", rnd.choice(["smt", "both"]), *LIMITS, target]
    else:
        argv = ["check", *LIMITS, target]
    return Case(f"{label} {path.relative_to(ROOT)}", files, argv)


# -- text-level mutations ------------------------------------------------------------------

NASTY_SCALARS = [
    "",
    "~",
    "null",
    "true",
    "0",
    "-1",
    "-999999999999999999",
    "999999999999999999",
    "9223372036854775808",
    "9" * 4301,
    "1e400",
    "-.inf",
    ".nan",
    "0x",
    "0o8",
    "_",
    "1_000",
    "2024-01-01",
    "[]",
    "{}",
    "[[[[[]]]]]",
    "{a: {b: {c: 1}}}",
    "'quoted'",
    '"\\u0000"',
    '"\\x85"',
    "\u202eevil",
    "漢字カード",
    "😀",
    "A",
    "B",
    "C",
    "hand",
    "graveyard",
    "*undefined",
    "&anchor value",
    "|\n  block",
    "!!int x",
    "!!bool 1",
    "!!float x",
    "!!set x",
    "!!binary aGk=",
    "!!python/object:os.system x",
    "!custom x",
    "! x",
    "x" * 5000,
    "<<",
    "=",
    "- a\n- b",
    "a: b: c",
    "'unterminated",
    '"unterminated',
    "[unterminated",
    "{unterminated",
    "%",
    "@",
    "`",
]

NASTY_BYTES = [
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\x00",
    b"\x1b[31m",
    b"\x7f",
    b"\xc2\x85",
    b"\xe2\x80\xa8",
    b"\xef\xbb\xbf",
    b"\t",
    b"\r",
    b"\r\n",
    b"\n\n",
    b"---\n",
    b"...\n",
    b"%YAML 1.1\n",
]


def alias_bomb(rnd: random.Random) -> str:
    levels = rnd.randint(2, 12)
    lines = ['b0: &b0 "lol"']
    for level in range(1, levels + 1):
        refs = ", ".join([f"*b{level - 1}"] * rnd.randint(2, 10))
        lines.append(f"b{level}: &b{level} [{refs}]")
    return "\n".join(lines) + "\n"


def deep_nesting(rnd: random.Random) -> str:
    levels = rnd.choice([10, 60, 63, 64, 65, 246, 1000, rnd.randint(1, 3000)])
    if rnd.random() < 0.5:
        return "[" * levels + "]" * levels
    return "{a: " * levels + "1" + "}" * levels


def _line_value(line: str) -> tuple[str, str] | None:
    match = re.match(r"^(\s*(?:- )?[^:#]+:\s)(.*)$", line)
    return (match.group(1), match.group(2)) if match else None


def text_mutation(text: str, rnd: random.Random) -> tuple[str, bytes]:
    """One random change to the text; returns its name and the new bytes."""
    lines = text.split("\n")
    choice = rnd.randrange(14)
    index = rnd.randrange(len(lines))
    if choice == 0:
        cut = rnd.randrange(len(text) + 1)
        return "truncate", text[:cut].encode("utf-8")
    if choice == 1:
        del lines[index]
        return "delete-line", "\n".join(lines).encode("utf-8")
    if choice == 2:
        lines.insert(index, lines[index])
        return "duplicate-line", "\n".join(lines).encode("utf-8")
    if choice == 3:
        other = rnd.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
        return "swap-lines", "\n".join(lines).encode("utf-8")
    if choice in {4, 5}:
        candidates = [i for i, line in enumerate(lines) if _line_value(line)]
        if candidates:
            index = rnd.choice(candidates)
            head, value = _line_value(lines[index])  # type: ignore[misc]
            nasty = rnd.choice(NASTY_SCALARS)
            if choice == 5:
                nasty = rnd.choice(["!!int ", "!!str ", "!!bool ", "!foo ", "! "]) + value
            lines[index] = head + nasty
            return "nasty-value", "\n".join(lines).encode("utf-8")
    if choice == 6:
        candidates = [i for i, line in enumerate(lines) if _line_value(line)]
        if candidates:
            index = rnd.choice(candidates)
            head, value = _line_value(lines[index])  # type: ignore[misc]
            key = head.rstrip().rstrip(":")
            stripped = key.lstrip(" -")
            new = rnd.choice(
                [
                    stripped[:-1],
                    stripped + "x",
                    stripped.upper(),
                    "unknown-key",
                    "1",
                    "~",
                    "true",
                    "[a]",
                    "? x",
                    "<<",
                ]
            )
            lines[index] = key[: len(key) - len(stripped)] + new + ": " + value
            return "rename-key", "\n".join(lines).encode("utf-8")
    if choice == 7:
        raw = text.encode("utf-8")
        at = rnd.randrange(len(raw) + 1)
        return "insert-bytes", raw[:at] + rnd.choice(NASTY_BYTES) + raw[at:]
    if choice == 8:
        return "alias-bomb", (text + "\n" + alias_bomb(rnd)).encode("utf-8")
    if choice == 9:
        candidates = [i for i, line in enumerate(lines) if _line_value(line)]
        if candidates:
            index = rnd.choice(candidates)
            head, _ = _line_value(lines[index])  # type: ignore[misc]
            lines[index] = head + deep_nesting(rnd)
            return "deep-nesting", "\n".join(lines).encode("utf-8")
    if choice == 10:
        candidates = [i for i, line in enumerate(lines) if _line_value(line)]
        if len(candidates) >= 2:
            a, b = rnd.sample(candidates, 2)
            head_a, value_a = _line_value(lines[a])  # type: ignore[misc]
            head_b, value_b = _line_value(lines[b])  # type: ignore[misc]
            lines[a], lines[b] = head_a + value_b, head_b + value_a
            return "swap-values", "\n".join(lines).encode("utf-8")
    if choice == 11:
        lines[index] = rnd.choice(["  ", " ", "\t"]) + lines[index]
        return "indent", "\n".join(lines).encode("utf-8")
    if choice == 12:
        lines[index] = lines[index].lstrip()
        return "dedent", "\n".join(lines).encode("utf-8")
    chars = list(text)
    for _ in range(rnd.randint(1, 5)):
        if chars:
            at = rnd.randrange(len(chars))
            chars[at] = rnd.choice(":{}[],&*!|>-#'\"%@`?\\ \n0é漢")
    return "noise", "".join(chars).encode("utf-8")


# -- data-level mutations ------------------------------------------------------------------


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*prefix, index))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def _names(data: Any) -> list[str]:
    cards = data.get("cards") if isinstance(data, dict) else None
    return [str(k) for k in cards] if isinstance(cards, dict) else ["A", "B"]


def random_value(rnd: random.Random, names: list[str], depth: int = 0) -> Any:
    choice = rnd.randrange(12 if depth < 3 else 8)
    if choice == 0:
        return rnd.choice(
            [0, 1, -1, 2, 7, 65, -65, 10**17, -(10**17), 999_999_999_999_999_999, 2**62, 3000]
        )
    if choice == 1:
        return rnd.choice([0.5, -0.0, 1e17, -1e-300, 3.0])
    if choice == 2:
        return rnd.choice([None, True, False])
    if choice == 3:
        return rnd.choice(names)
    if choice == 4:
        return rnd.choice(["", " ", "A", "B", "C", "hand", "field", "earlier-turn", "any"])
    if choice == 5:
        return rnd.choice(
            [
                "\u202e",
                "漢字",
                "😀",
                "é" * 50,
                "x" * rnd.choice([100, 3000]),
                "\t",
                "\x1b]0;title\x07",  # a terminal's title sequence
                "\x1b[2J",  # clear the screen
                "a\x9bb",  # a C1 control sequence introducer
                "\u2066x\u2069",  # bidirectional isolates
                "line\nbreak\r",
            ]
        )
    if choice == 6:
        return rnd.choice(["all-monsters", "target", "that-card", "this-card", "opponent", "you"])
    if choice == 7:
        return rnd.choice(["normal-spell", "counter-trap", "monster", "spell", "quick", "ability"])
    if choice in {8, 9}:
        return [random_value(rnd, names, depth + 1) for _ in range(rnd.randint(0, 3))]
    keys = ["kind", "controller", "zone", "effect", "speed", "destroy", "claim", "expect", "x"]
    return {
        rnd.choice(keys + names): random_value(rnd, names, depth + 1)
        for _ in range(rnd.randint(0, 3))
    }


def data_mutation(data: Any, rnd: random.Random, top: str | None = None) -> tuple[str, Any]:
    """One random change to the structure, under the top-level key ``top`` when given."""
    data = copy.deepcopy(data)
    names = _names(data)
    if not isinstance(data, dict):
        return "replace-root", random_value(rnd, names)
    if top is not None and top not in data:
        data[top] = random_value(rnd, names)
        return "add-key", data
    paths = [p for p in _paths(data) if p and (top is None or p[0] == top)]
    path = rnd.choice(paths)
    parent = _get(data, path[:-1])
    last = path[-1]
    choice = rnd.randrange(12)
    if choice == 0:
        del parent[last]
        return "delete", data
    if choice == 1 and isinstance(parent, dict):
        new = rnd.choice(
            [*names, str(last)[:-1] or "k", str(last).upper(), "unknown", 1, "players", "rules"]
        )
        parent = (
            {(new if k == last else k): v for k, v in parent.items()}
            if new not in parent
            else parent
        )
        if path[:-1]:
            _get(data, path[:-2])[path[-2]] = parent
        else:
            data = parent
        return "rename-key", data
    if choice == 2:
        other = rnd.choice(list(_paths(data))[1:])
        try:
            a, b = _get(data, path), _get(data, other)
            parent[last] = copy.deepcopy(b)
            _get(data, other[:-1])[other[-1]] = copy.deepcopy(a)
        except (KeyError, IndexError, TypeError):
            pass
        return "swap-values", data
    if choice == 3 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
        return "duplicate-item", data
    if choice == 3 and isinstance(parent, dict):
        parent[f"{last} copy"] = copy.deepcopy(parent[last])
        return "duplicate-entry", data
    if choice == 4:
        parent[last] = [copy.deepcopy(parent[last])]
        return "wrap-in-list", data
    if choice == 5:
        value = parent[last]
        if isinstance(value, list | dict) and value:
            parent[last] = next(iter(value.values())) if isinstance(value, dict) else value[0]
            return "unwrap", data
    if choice == 6:
        value: Any = parent[last]
        for _ in range(rnd.choice([5, 30, 62, 70])):
            value = [value]
        parent[last] = value
        return "nest", data
    if choice == 8 and isinstance(data.get("history"), list) and data["history"]:
        history = data["history"]
        history[rnd.randrange(len(history))] = random_step(rnd, names)
        return "history-step", data
    if choice == 7 and isinstance(data.get("claims"), list):
        claims = data["claims"]
        generated = random_claim(rnd, names)
        at = rnd.randrange(len(claims) + 1)
        claims.insert(at, rnd.choice([generated, {"claim": generated, "expect": "holds"}]))
        return "claim", data
    parent[last] = random_value(rnd, names)
    return "replace-value", data


def random_step(rnd: random.Random, names: list[str]) -> str:
    """A history sentence, mostly well-formed, about the scenario's cards."""
    player = rnd.choice(["A", "B", "A", "B", "C", ""])
    card = rnd.choice([*names, "Nothing"])
    other = rnd.choice([*names, "Nothing"])
    return rnd.choice(
        [
            f"{player} activates {card}",
            f"{player} activates {card} targeting {other}",
            f"{player} activates {card} tributing {other}",
            f"{player} chains {card}",
            f"{player} casts {card} targeting {other}",
            f"{player} uses {card}",
            f"{player} passes",
            f"{player} summons {card}",
            f"{player} tribute summons {card} tributing {other}",
            f"{player} presses resolve",
            "timer runs out",
            "the chain resolves",
            "the chain resolves (coins succeed)",
            f"{player} activates",
            "",
        ]
    )


def dump(data: Any) -> bytes:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = None
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue().encode("utf-8")


# -- claims ---------------------------------------------------------------------------------

CARD_PREDICATES = [
    "resolves",
    "negated",
    "no_effect",
    "triggers",
    "misses_timing",
    "cleanup_sends",
    "dizzy",
]
ORDERS = ["resolution_order", "chain_order", "order", "segoc_order"]


def random_claim(rnd: random.Random, names: list[str], depth: int = 0) -> str:
    """A claim from the grammar, mostly well-formed, with some wrong names and values."""

    def card() -> str:
        name = rnd.choice([*names, *names, "Nothing", "", 'q"uote'])
        return rnd.choice([f'"{name}"', f"'{name}'", name, "1"])

    def player() -> str:
        return rnd.choice(["A", "B", "A", "B", "C", '"A"', "1"])

    def number() -> str:
        return rnd.choice(["0", "1", "2", "-1", "18", "999999999999999999", "9" * 19, "9" * 400])

    def atom() -> str:
        choice = rnd.randrange(11)
        if choice == 0:
            return f"{rnd.choice(CARD_PREDICATES)}({card()})"
        if choice == 1:
            return rnd.choice(["activates", "can_activate"]) + f"({player()}, {card()})"
        if choice == 2:
            return rnd.choice(["responds", "can_respond"]) + f"({player()})"
        if choice == 3:
            return f"before({card()}, {card()})"
        if choice == 4:
            zone = rnd.choice(["hand", "field", "graveyard", "banished", "deck", "pocket"])
            return f"zone({card()}) {rnd.choice(['==', '!=', '<'])} {zone}"
        if choice == 5:
            return f"controller({card()}) == {player()}"
        if choice == 6:
            listed = ", ".join(f'"{rnd.choice(names)}"' for _ in range(rnd.randint(0, 4)))
            return f"{rnd.choice(ORDERS)} == [{listed}]"
        if choice == 7:
            op = rnd.choice(["==", "!=", "<=", ">=", "<", ">"])
            return f"{rnd.choice(['chain_length', 'length'])} {op} {number()}"
        if choice == 8:
            op = rnd.choice(["==", "<", ">="])
            return f"chain({number()}).{rnd.choice([*ORDERS, 'chain_length'])} {op} {number()}"
        if choice == 9:
            return f"priority {rnd.choice(['==', '!=', '<'])} {player()}"
        return f"{rnd.choice(['life_points', 'cards_drawn', 'speed'])}({player()}) > {number()}"

    if depth > 4:
        return atom()
    choice = rnd.randrange(8)
    if choice == 0:
        return f"{rnd.choice(['exists', 'always'])} {random_claim(rnd, names, depth + 1)}"
    if choice == 7:
        return f"after_link({number()}) {random_claim(rnd, names, depth + 1)}"
    if choice == 1:
        return f"not {random_claim(rnd, names, depth + 1)}"
    if choice == 2:
        parts = [random_claim(rnd, names, depth + 1) for _ in range(rnd.randint(2, 4))]
        return f" {rnd.choice(['and', 'or'])} ".join(parts)
    if choice == 3:
        return f"({random_claim(rnd, names, depth + 1)})"
    return atom()


def noise_claim(rnd: random.Random, names: list[str]) -> str:
    """Raw noise, and the shapes that once exhausted the stack or the int-string limit."""
    choice = rnd.randrange(6)
    if choice == 0:
        alphabet = "()[]\"',.=!<>-_ #\n\t\x00aAbBxyz019é漢😀"
        return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 80)))
    if choice == 1:
        return "not " * rnd.choice([10, 49, 50, 51, 989, 1200]) + "can_respond(B)"
    if choice == 2:
        atom = rnd.choice(["x", "can_respond(B)", f'resolves("{rnd.choice(names)}")'])
        return f" {rnd.choice(['and', 'or'])} ".join([atom] * rnd.choice([2, 99, 100, 101, 497]))
    if choice == 3:
        return "chain_length == " + "9" * rnd.choice([18, 19, 4300, 5000])
    if choice == 4:
        return "(" * rnd.choice([10, 500, 2100]) + "can_respond(B)" + ")" * rnd.randint(0, 2100)
    claim = random_claim(rnd, names)
    chars = list(claim)
    for _ in range(rnd.randint(1, 4)):
        if chars:
            chars[rnd.randrange(len(chars))] = rnd.choice("()\"', .=!<>-_#abc1")
    return "".join(chars)


def claim_case(rnd: random.Random, path: Path) -> Case:
    names = _names(_data(path))
    claim = random_claim(rnd, names) if rnd.random() < 0.6 else noise_claim(rnd, names)
    files = {**_libraries_beside(path), path.name: path.read_bytes()}
    argv = ["ask", *LIMITS, "--", "{dir}/" + path.name, claim]
    return Case(f"claim {path.relative_to(ROOT)}", files, argv, claim)


# -- generating and running -----------------------------------------------------------------


def choose_target(rnd: random.Random) -> tuple[str, Path, str | None]:
    """A file to mutate, and (half the time) the top-level key to mutate under."""
    kind, path = rnd.choice(TARGETS)
    top = rnd.choice(_top_keys(kind, path)) if rnd.random() < 0.5 else None
    return kind, path, top


def random_case(rnd: random.Random) -> Case:
    """One input: a mutated file (text or data level), a random claim, or the Python API
    with random options; now and then under a file name holding control characters."""
    roll = rnd.random()
    if roll < 0.05:
        return api_case(rnd, rnd.choice(SCENARIOS))
    if roll < 0.25:
        case = claim_case(rnd, rnd.choice(SCENARIOS))
    else:
        kind, path, top = choose_target(rnd)
        if roll < 0.6:
            name, content = text_mutation(_text(path), rnd)
            case = make_case(kind, path, content, rnd, f"text:{name}")
        else:
            case = data_case(kind, path, rnd, top)
    return hostile_name(case) if rnd.random() < 0.05 else case


HOSTILE = "\x1b]0;title\x07\u202e"


def hostile_name(case: Case) -> Case:
    """``case`` with the file it runs renamed to hold control and bidirectional characters."""
    for index, argument in enumerate(case.argv):
        if argument.startswith("{dir}/"):
            name = argument[len("{dir}/") :]
            if name in case.files:
                files = {**case.files}
                files[HOSTILE + name] = files.pop(name)
                argv = [*case.argv]
                argv[index] = "{dir}/" + HOSTILE + name
                return Case(case.label + " (hostile name)", files, argv, case.claim)
    return case


API_TIMEOUTS: list[Any] = [0, -1, 1e-9, 0.5, 2, float("nan"), float("inf"), -float("inf")]
API_TIMEOUTS += [10**9, "2", True, [2]]
API_STATES: list[Any] = [None, 0, -5, 1, 1000, 2.5, True, 10**12, "100"]


def api_case(rnd: random.Random, path: Path) -> Case:
    """``verifier.check`` or ``verifier.ask`` with random options (never without a time
    limit: an SMT run of a whole example may take minutes)."""
    options = {
        "engine": rnd.choice(["auto", "explore", "smt", "both", "bogus", ""]),
        "timeout": rnd.choice(API_TIMEOUTS),
        "max_states": rnd.choice(API_STATES),
        "reduce": rnd.choice([True, False]),
        "allow_outside": rnd.choice([True, False]),
    }
    files = {**_libraries_beside(path), path.name: path.read_bytes()}
    claim = random_claim(rnd, _names(_data(path))) if rnd.random() < 0.5 else None
    argv = ["@api", "{dir}/" + path.name, repr(options)]
    case = Case(f"api {path.relative_to(ROOT)} {options}", files, argv, claim)
    case.options = options
    return case


def data_case(kind: str, path: Path, rnd: random.Random, top: str | None) -> Case:
    name, mutated = data_mutation(_data(path), rnd, top)
    for _ in range(rnd.choice([0, 0, 0, 1, 2])):  # sometimes a few changes at once
        more, mutated = data_mutation(mutated, rnd, top if rnd.random() < 0.5 else None)
        name += "+" + more
    try:
        content = dump(mutated)
    except Exception:  # a value the dumper cannot write: keep the text mutation path busy
        content = _text(path).encode("utf-8")
    return make_case(kind, path, content, rnd, f"data:{name}")


class Hang(BaseException):
    """Raised by the alarm: an input ran for longer than HANG_SECONDS."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def run_case(case: Case) -> Outcome:
    """Write the files, run the command line in-process, and judge the outcome."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as folder:
        for name, content in case.files.items():
            (Path(folder) / name).write_bytes(content)
        argv = ["--debug", *(a.replace("{dir}", folder) for a in case.argv)]
        out, err = io.StringIO(), io.StringIO()
        code = 0
        escaped: str | None = None
        start = time.perf_counter()
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG_SECONDS)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                if case.argv[0] == "@api":
                    _api(case, argv[2], out)
                else:
                    main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        except Hang:
            code, escaped = -1, "hang"
        except BaseException as exc:
            code = -1
            escaped = f"escaped {type(exc).__name__} at {_where(traceback.format_exc())}"
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        seconds = time.perf_counter() - start
    outcome = Outcome(code, out.getvalue(), err.getvalue().replace(folder, "DIR"), seconds)
    outcome.crash = escaped or judge(outcome)
    return outcome


def _api(case: Case, path: str, out: io.StringIO) -> None:
    """Run an API case: a result, or a :class:`VerifierError` (exit status 2, like the
    command line's bad input); any other exception is a crash."""
    options = case.options
    try:
        if case.claim is None:
            results = verifier.check(path, **options)
        else:
            results = [verifier.ask(path, case.claim, **options)]
    except VerifierError as exc:
        print(exc.render(), file=sys.stderr)
        raise SystemExit(2) from None
    for result in results:
        print(result.verdict.value, file=out)


def _where(trace: str) -> str:
    """The innermost frame of the verifier in a traceback: ``verifier/x.py:function``."""
    ours = re.findall(r'File "[^"]*?(verifier/[^"]+)", line \d+, in (\S+)', trace)
    every = re.findall(r'File "[^"]*?([^/"]+/[^/"]+)", line \d+, in (\S+)', trace)
    where = f"{ours[-1][0]}:{ours[-1][1]}" if ours else "?"
    if every and (not ours or every[-1] != ours[-1]):
        where += f" (in {every[-1][0]}:{every[-1][1]})"
    return where


def judge(outcome: Outcome) -> str | None:
    """The crash class of an outcome, or None when it keeps the property."""
    err = outcome.err
    first = err.splitlines()[0] if err.strip() else ""
    if "internal error" in err or outcome.code == 4:
        kind = re.search(r"internal error: (\w+)", err)
        return f"internal {kind.group(1) if kind else '?'} at {_where(err)}"
    if outcome.code not in OK_STATUSES:
        return f"exit {outcome.code}"
    if "Traceback" in err or "Traceback" in outcome.out:
        return f"traceback at {_where(err + outcome.out)}"
    if outcome.code == 2 and not (LOCATED.match(first) or first.startswith(("error: ", "Usage"))):
        return f"unlocated error: {first[:60]!r}"
    shown = unprintable(outcome.out + err, allowed="\n\t")
    if shown is not None:
        return f"unescaped U+{ord(shown.group()):04X} in the output"
    return None


def _failure(case: Case, outcome: Outcome) -> str:
    shown = {k: v[:2000] for k, v in case.files.items()}
    return (
        f"{outcome.crash}\n  case: {case.label}\n  argv: {case.argv}\n"
        f"  exit: {outcome.code}\n  stderr: {outcome.err[-3000:]}\n  files: {shown}"
    )


# -- the default suite: every file and every top-level key, and some random inputs -----------


def _top_keys(kind: str, path: Path) -> list[str]:
    data = _data(path)
    keys = [str(k) for k in data] if isinstance(data, dict) else []
    if kind == "scenario":
        keys += [k for k in EXTRA_SCENARIO_KEYS if k not in keys]
    return keys


SAMPLED = 8
"""The default run mutates every eighth file (the first of each kind among them); the
``full`` tier every file."""


def _targets() -> list[object]:
    params: list[object] = []
    kinds: set[str] = set()
    for index, (kind, path) in enumerate(TARGETS):
        first = kind not in kinds
        kinds.add(kind)
        marks = [] if first or index % SAMPLED == 0 else [pytest.mark.full]
        params.append(pytest.param(kind, path, id=str(path.relative_to(ROOT)), marks=marks))
    return params


@pytest.mark.parametrize(("kind", "path"), _targets())
def test_every_top_level_key_of_every_file(kind: str, path: Path) -> None:
    """One data mutation under each top-level key and one text mutation of the file."""
    failures = []
    for top in [*_top_keys(kind, path), None]:
        rnd = random.Random(f"{path.name}/{top}")
        if top is None:
            name, content = text_mutation(_text(path), rnd)
            case = make_case(kind, path, content, rnd, f"text:{name}")
        else:
            case = data_case(kind, path, rnd, top)
        case.argv = ["check", *LIMITS, *case.argv[-1:]] if case.argv[0] == "lint" else case.argv
        outcome = run_case(case)
        if outcome.crash is not None:
            failures.append(_failure(case, outcome))
    assert not failures, "\n\n".join(failures)


@pytest.mark.full
@settings(
    max_examples=90,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.randoms(use_true_random=False))
def test_random_mutations_never_crash(rnd: random.Random) -> None:
    case = random_case(rnd)
    outcome = run_case(case)
    assert outcome.crash is None, _failure(case, outcome)


@pytest.mark.full
@settings(
    max_examples=45,  # each decides claims of a whole example; the big run tries thousands
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.randoms(use_true_random=False), st.sampled_from(SCENARIOS))
def test_random_claims_never_crash(rnd: random.Random, path: Path) -> None:
    case = claim_case(rnd, path)
    outcome = run_case(case)
    assert outcome.crash is None, _failure(case, outcome)


def test_the_inputs_reach_every_file_and_every_top_level_key() -> None:
    """The big run's generator picks every file, and every top-level key of each file."""
    rnd = random.Random(0)
    wanted = {(path, top) for kind, path in TARGETS for top in [*_top_keys(kind, path), None]}
    # Enough draws that the rarest pair (a file with the most keys) is expected 24 times, so
    # a miss means the generator cannot reach it, not that the sample was unlucky.
    most_keys = max(len(_top_keys(kind, path)) for kind, path in TARGETS)
    draws = 2 * 24 * len(TARGETS) * most_keys
    hit = {choose_target(rnd)[1:] for _ in range(draws)}
    assert wanted <= hit, sorted(wanted - hit)[:5]


# -- the big run ----------------------------------------------------------------------------


@dataclass
class Summary:
    inputs: int = 0
    exits: Counter[int] = field(default_factory=Counter)
    crashes: Counter[str] = field(default_factory=Counter)
    slowest: float = 0.0

    def line(self, seconds: float) -> str:
        exits = " ".join(f"{code}:{n}" for code, n in sorted(self.exits.items()))
        crashes = "; ".join(f"{name} x{n}" for name, n in self.crashes.most_common()) or "none"
        return (
            f"fuzz: {self.inputs} inputs in {seconds:.0f}s, exits {exits}, "
            f"slowest {self.slowest:.1f}s, crash classes {len(self.crashes)}: {crashes}"
        )


@pytest.mark.slow
def test_fuzz_big_run() -> None:
    """FUZZ_COUNT inputs (default 100,000) from FUZZ_SEED, within FUZZ_SECONDS when set; a
    summary line (with the count really run), then the verdict."""
    count = int(os.environ.get("FUZZ_COUNT", "100000"))
    budget = os.environ.get("FUZZ_SECONDS")
    seed = int(os.environ.get("FUZZ_SEED", "0"))
    crashes_dir = os.environ.get("FUZZ_CRASHES")
    summary = Summary()
    examples: dict[str, str] = {}
    start = time.perf_counter()
    for index in range(count):
        if budget is not None and time.perf_counter() - start > float(budget):
            break
        case = random_case(random.Random(seed * 1_000_003 + index))
        outcome = run_case(case)
        summary.inputs += 1
        summary.exits[outcome.code] += 1
        summary.slowest = max(summary.slowest, outcome.seconds)
        if outcome.crash is not None:
            summary.crashes[outcome.crash] += 1
            if outcome.crash not in examples:
                examples[outcome.crash] = _failure(case, outcome)
                if crashes_dir:
                    folder = Path(crashes_dir) / f"crash-{len(examples):03d}"
                    folder.mkdir(parents=True, exist_ok=True)
                    for name, content in case.files.items():
                        (folder / name).write_bytes(content)
                    (folder / "README").write_text(_failure(case, outcome), encoding="utf-8")
    line = summary.line(time.perf_counter() - start)
    print(line)
    target = os.environ.get("FUZZ_SUMMARY")
    if target:
        with Path(target).open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    assert not summary.crashes, line + "\n\n" + "\n\n".join(examples.values())
