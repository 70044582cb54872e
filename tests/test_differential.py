"""Two engines, one truth: the explorer and the SMT engine agree on random scenarios.

Scenarios are random pools of cards with a legal history; the engines start from a random
reachable state (a random walk of legal actions from the scenario's point) and decide random
claims. A disagreement is a bug in one of them; hypothesis shrinks it to a small case.

The generator must reach every key and value range the formats accept (a fault that only
shows with, say, more than 32,767 Life Points is otherwise never tried): the coverage test
fails when a change drops one.
"""

from __future__ import annotations

import functools
import json
import os
import re
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.claims.ast import point_of
from verifier.core.logic import CONCRETE
from verifier.core.state import READ, State
from verifier.designer.generate import (
    YUGIOH_SPELLS_TRAPS,
    Claim,
    RandomChooser,
    claim_text,
    claims_for,
    scenario,
    to_text,
)
from verifier.designer.generate.cards import event_conditions
from verifier.engines.explore import ExplorerEngine
from verifier.engines.smt.engine import SmtEngine
from verifier.errors import VerifierError
from verifier.games import game as _game
from verifier.io.scenario import InMemory, load_scenario, parse_for
from verifier.run.check import prepare
from verifier.run.verdict import Verdict, decide
from verifier.spec.scenario import Scenario
from verifier.system import System

STATS: Counter[str] = Counter()
"""What the differential runs compared: scenarios, claims decided by both, skipped ones."""

T = TypeVar("T")

Case = tuple[dict[str, Any], list[Claim], list[int]]


class DrawChooser:
    def __init__(self, draw: Any) -> None:
        self.draw = draw

    def pick(self, options: Sequence[T]) -> T:
        return self.draw(st.sampled_from(list(options)))

    def integer(self, low: int, high: int) -> int:
        return int(self.draw(st.integers(low, high)))


@st.composite
def cases(draw: Any, game: str = "yugioh", large: bool = False) -> Case:
    chooser = DrawChooser(draw)
    # Few cards in the fast runs: both engines decide most claims within the limits below,
    # quickly. The slow runs take bigger pools and the summon shapes more often.
    summons = game == "yugioh" and chooser.integer(0, 1 if large else 3) == 0
    # Cards of the hand and the graveyard, costs paid with cards, modes, event conditions:
    # one more card (two in a big pool), so the fast runs take a smaller pool with them.
    hand_cards = game == "yugioh" and chooser.integer(0, 2) == 0
    size = chooser.integer(1, 4 if large else 2 if hand_cards else 3)
    decks = chooser.integer(0, 3) == 0
    # Lands, mana and declared combats one time in six: their continuations are long (the
    # slow run and the generated seeds from 70 on take more of them).
    mana = game == "mtg" and chooser.integer(0, 5) == 0
    mandatory = chooser.integer(0, 2) == 0
    traits = game == "yugioh" and chooser.integer(0, 2) == 0
    chosen = game == "yugioh" and chooser.integer(0, 2) == 0
    copies = game == "mtg" and chooser.integer(0, 2) == 0
    effect_summons = game == "yugioh" and chooser.integer(0, 2) == 0
    step_triggers = game == "yugioh" and chooser.integer(0, 3) == 0
    data = scenario(
        chooser,
        game,
        size=size,
        summons=summons,
        hand_cards=hand_cards,
        decks=decks,
        mana=mana,
        mandatory=mandatory,
        traits=traits,
        chosen=chosen,
        copies=copies,
        effect_summons=effect_summons,
        step_triggers=step_triggers,
    )
    claims = claims_for(chooser, data, 3)
    walk = draw(st.lists(st.integers(0, 50), max_size=4))
    return data, claims, walk


def load(data: dict[str, Any], until: str | None = None) -> Scenario:
    """The scenario (decided at the end of step ``until`` when given, as a claim's own
    ``until`` asks)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.yaml"
        path.write_text(to_text(data), encoding="utf-8")
        return load_scenario(path, until=until)


def by_until(claims: Sequence[Claim]) -> dict[str | None, list[str]]:
    """The claims' texts, grouped by the step at whose end each is decided (None: the
    scenario's own)."""
    groups: dict[str | None, list[str]] = {}
    for entry in claims:
        until = None if isinstance(entry, str) else entry["until"]
        groups.setdefault(until, []).append(claim_text(entry))
    return groups


def agree_from(sc: Scenario, system: System, state: State, claims: Sequence[str]) -> None:
    start = READ.an(state)
    engines: dict[int | None, tuple[ExplorerEngine, SmtEngine]] = {}
    for text in claims:
        formula = parse_for(sc, text)
        link = point_of(formula)
        if link not in engines:
            # after_link(N): both engines run the System that stops where Chain Link N of
            # the chain at this point has just resolved.
            here = system if link is None else system.stopping_after(READ.cno(state), link)
            # Limits keep a scenario whose chains grow without end from taking the run with
            # it; each engine then answers "unknown" and there is nothing to compare.
            engines[link] = (
                ExplorerEngine(here, state, start, max_states=40_000, seconds=60),
                SmtEngine(here, state, start, max_bound=64, timeout=60),
            )
        explorer, smt = engines[link]
        by_explorer = decide(explorer, formula)
        by_smt = decide(smt, formula)
        if Verdict.UNKNOWN in (by_explorer.verdict, by_smt.verdict):
            # A limit was reached: an engine that is unsure contradicts nothing.
            STATS["unknown"] += 1
            continue
        STATS["claims"] += 1
        assert by_explorer.verdict is by_smt.verdict, (text, by_explorer.verdict, by_smt.verdict)
        shortest = by_smt.stats.get("shortest_trace", "yes") == "yes"
        if by_explorer.trace is not None and by_smt.trace is not None and shortest:
            # Both are shortest witnesses (or counterexamples) of the same claim (unless a
            # limit stopped the SMT engine's search for a shorter one).
            assert len(by_explorer.trace) == len(by_smt.trace), text


def agree(case: Case) -> None:
    data, claims, walk = case
    STATS["scenarios"] += 1
    for until, texts in by_until(claims).items():
        sc = load(data, until)
        prepared = prepare(sc)
        system = prepared.system
        agree_from(sc, system, walked(system, prepared.history.state, walk), texts)


def walked(system: System, state: State, walk: Sequence[int]) -> State:
    """The state a case's walk reaches: each choice picks one of the legal actions."""
    for choice in walk:
        options = list(system.enabled_actions(state))
        if not options:
            break
        state = system.step(CONCRETE, state, options[choice % len(options)])
    return state


DEFAULT_RUN = 3
"""Random scenarios of CMC the default run compares the engines on (the same ones each time:
derandomized), two of Yu-Gi-Oh! and of Magic, whose battles and mana take the SMT engine
longest; the full tier compares more of each game, the slow run thousands (``many``)."""

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
    max_examples=15,
)


@settings(SETTINGS, max_examples=2)  # battles make some of them long for the SMT engine
@given(cases())
def test_engines_agree_on_random_yugioh_scenarios(case: Case) -> None:
    agree(case)


@pytest.mark.full
@settings(SETTINGS, max_examples=12)
@given(cases())
def test_engines_agree_on_more_random_yugioh_scenarios(case: Case) -> None:
    """The full tier's dozen (other scenarios than the default run's two)."""
    agree(case)


def many(game: str, default: int) -> None:
    """The slow run: ``DIFF_EXAMPLES`` scenarios (default ``default``) of ``game``, within
    ``DIFF_SECONDS`` seconds when set (scenarios past it are generated but not compared);
    its counts are printed, and appended to ``DIFF_SUMMARY`` when set."""
    count = int(os.environ.get("DIFF_EXAMPLES", default))
    budget = os.environ.get("DIFF_SECONDS")
    until = None if budget is None else time.monotonic() + float(budget)
    STATS.clear()

    @settings(SETTINGS, max_examples=count, derandomize=False)
    @given(cases(game, large=True))
    def compare(case: Case) -> None:
        if until is None or time.monotonic() < until:
            agree(case)

    compare()
    line = (
        f"{game}: {STATS['scenarios']} scenarios, {STATS['claims']} claims decided by both "
        f"engines, {STATS['unknown']} skipped (a limit reached), 0 disagreements"
    )
    print(line)
    target = os.environ.get("DIFF_SUMMARY")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(line + "\n")


@pytest.mark.slow
def test_engines_agree_on_many_yugioh_scenarios() -> None:
    many("yugioh", 3000)


@settings(SETTINGS, max_examples=DEFAULT_RUN)
@given(cases("cmc"))
def test_engines_agree_on_random_cmc_scenarios(case: Case) -> None:
    agree(case)


@pytest.mark.full
@settings(SETTINGS, max_examples=5)
@given(cases("cmc"))
def test_engines_agree_on_more_random_cmc_scenarios(case: Case) -> None:
    """The full tier's five (other scenarios than the default run's three)."""
    agree(case)


@pytest.mark.slow
def test_engines_agree_on_many_cmc_scenarios() -> None:
    many("cmc", 1500)


@settings(SETTINGS, max_examples=2)
@given(cases("mtg"))
def test_engines_agree_on_random_mtg_scenarios(case: Case) -> None:
    agree(case)


@pytest.mark.full
@settings(SETTINGS, max_examples=5)
@given(cases("mtg"))
def test_engines_agree_on_more_random_mtg_scenarios(case: Case) -> None:
    """The full tier's five (other scenarios than the default run's two)."""
    agree(case)


@pytest.mark.slow
def test_engines_agree_on_many_mtg_scenarios() -> None:
    many("mtg", 1500)


# -- regressions ---------------------------------------------------------------------------

FORTY_THOUSAND = {
    "rules": "yugioh",
    "turn": "A",
    "life-points": 40000,
    "cards": {
        "Burn": {
            "kind": "normal-spell",
            "controller": "A",
            "zone": "hand",
            "effect": {"lose-lp": 1000, "player": "opponent"},
        }
    },
    "history": ["A activates Burn"],
    "claims": [],
}


@pytest.mark.parametrize(
    "claim, verdict",
    [
        ("always life_points(B) < 30000", Verdict.FAILS),
        ("always life_points(B) == 39000", Verdict.HOLDS),
        ("exists life_points(A) > 32767", Verdict.HOLDS),
    ],
)
def test_forty_thousand_life_points_are_decided_alike(claim: str, verdict: Verdict) -> None:
    # More Life Points than a 16-bit integer holds: B ends with 39,000 on every continuation.
    sc = load(FORTY_THOUSAND)
    prepared = prepare(sc)
    state = prepared.history.state
    formula = parse_for(sc, claim)
    explorer = ExplorerEngine(prepared.system, state, READ.an(state), max_states=40_000)
    smt = SmtEngine(prepared.system, state, READ.an(state), max_bound=64)
    assert decide(explorer, formula).verdict is verdict
    assert decide(smt, formula).verdict is verdict


# -- the generator's reach -----------------------------------------------------------------


REACH = {"yugioh": 320, "cmc": 50, "mtg": 110}
HAND_CARDS = 100
"""Yu-Gi-Oh! seeds from here on generate cards of the hand and the graveyard too (the
earlier seeds' scenarios stay what they were)."""
DECKS = {"yugioh": 263, "cmc": 40, "mtg": 60}
"""Seeds from here on may count the Decks (``deck``) and ask ``deck_size`` and ``loses``
(the earlier seeds' scenarios stay what they were)."""
MANA = 70
"""Magic seeds from here on may have lands, mana abilities and mana costs."""
MANDATORY = 240
"""Yu-Gi-Oh! seeds from here on may have mandatory Quick Effects."""
TRAITS = 250
"""Yu-Gi-Oh! seeds from here on may have Attributes, Types and DEF bounds in filters, and
effects that act on a card chosen as they resolve."""
COPIES = 80
"""Magic seeds from here on may have a spell that copies another (Twincast)."""
EFFECT_SUMMONS = 283
"""Yu-Gi-Oh! seeds from here on may have effects that Normal Summon a monster of the hand."""
STEP_TRIGGERS = 300
"""Yu-Gi-Oh! seeds from here on may have a trigger effect activated as a step begins, in the
GY or on the field (Sinister Serpent)."""


GENERATED_ONCE = pytest.mark.xdist_group("generated")
"""The tests that read :func:`generated` run on one worker (``--dist loadgroup``), which
generates the scenarios once: a quarter of a minute for Yu-Gi-Oh!'s."""


@functools.cache
def generated(game: str) -> tuple[dict[str, Any], ...]:
    """A fixed set of generated scenarios with claims (seeds 0, 1, ...)."""
    out = []
    for seed in range(REACH[game]):
        chooser = RandomChooser(seed)
        data = scenario(
            chooser,
            game,
            summons=game == "yugioh" and seed % 4 == 0,
            hand_cards=game == "yugioh" and seed >= HAND_CARDS,
            decks=seed >= DECKS[game],
            mana=game == "mtg" and seed >= MANA,
            mandatory=game == "yugioh" and seed >= MANDATORY,
            traits=game == "yugioh" and seed >= TRAITS,
            chosen=game == "yugioh" and seed >= TRAITS,
            copies=game == "mtg" and seed >= COPIES,
            effect_summons=game == "yugioh" and seed >= EFFECT_SUMMONS,
            step_triggers=game == "yugioh" and seed >= STEP_TRIGGERS,
        )
        data["claims"] = claims_for(chooser, data, 3)
        out.append(data)
    return tuple(out)


LOADED_EVERY = 4
"""The default run loads every fourth generated Yu-Gi-Oh! scenario (each takes a tenth of a
second to load and replay); the ``full`` tier loads them all."""


@GENERATED_ONCE
@pytest.mark.parametrize(
    ("game", "every"),
    [
        ("yugioh", LOADED_EVERY),
        pytest.param("yugioh", 1, marks=pytest.mark.full),
        ("cmc", 1),
        ("mtg", 1),
    ],
)
def test_generated_scenarios_load(game: str, every: int) -> None:
    # A generated scenario that does not load (or a claim that does not parse) is a
    # generator bug: histories are walked through legal actions, so every one must load.
    failures = []
    count = len(range(0, REACH[game], every))
    for data in generated(game)[::every]:
        try:
            for until, texts in by_until(data["claims"]).items():
                sc = load(data, until)
                prepare(sc)
                for text in texts:
                    parse_for(sc, text)
        except VerifierError as exc:
            failures.append(f"{exc.message}\n{to_text(data)}")
    assert not failures, f"{len(failures)} of {count} do not load; the first:\n{failures[0]}"


@GENERATED_ONCE
def test_the_walk_reads_its_own_json_as_the_yaml_parser_does() -> None:
    # The generator's walk loads its JSON without the positioned parser (InMemory.built):
    # the scenario must be the one the parser gives, in every game.
    for game in REACH:
        for data in generated(game)[:: LOADED_EVERY * 4]:
            text = json.dumps(data, ensure_ascii=False)
            built = load_scenario(InMemory("walk.yaml", text, built=True))
            assert built == load_scenario(InMemory("walk.yaml", text)), to_text(data)


def bucket(value: int) -> list[str]:
    found = ["odd"] if value % 2 else []
    if value < 0:
        return [*found, "negative"]
    if value <= 8000:
        return [*found, "<=8000"]
    if value <= 32767:
        return [*found, "8001..32767"]
    if value <= 65535:
        return [*found, "32768..65535"]
    return [*found, ">=65536"]


VERBS = (
    "destroy",
    "banish",
    "send-to-graveyard",
    "return-to-hand",
    "special-summon",
    "flip-face-down",
    "take-control",
    "negate",
    "draw",
    "add-from-deck",
    "lose-lp",
    "gain-lp",
    "coin-toss",
    "dizzy",
    "undizzy",
    "counterspell",
    "slow",
    "speed-up",
    "change-atk",
    "change-def",
    "negate-attack",
    "end-battle-phase",
    "damage",
    "negate-card-effects",
    "create-token",
    "add-mana",
    "regenerate",
    "copy-spell",
    "become-color",
    "normal-summon",
)
OBJECTS = (
    "target",
    "chosen",
    "that-card",
    "this-card",
    "summoned",
    "bound",
    "all-monsters",
    "all-spells-traps",
    "all-cards",
)


def effect_features(parts: Any, out: set[str]) -> None:
    listed = parts if isinstance(parts, list) else [parts]
    verbs = [next(k for k in part if k in VERBS) for part in listed]
    if len(listed) > 1 and len(set(verbs)) == 1 and verbs[0] in ("slow", "speed-up"):
        out.add("stacked-modifier")
    for part, verb in zip(listed, verbs, strict=True):
        value = part[verb]
        out.add(f"verb:{verb}")
        if part.get("simultaneous"):
            out.add("simultaneous")
        if verb == "negate":
            out.add(f"negate:{value}")
        elif verb in ("lose-lp", "gain-lp"):
            if value == "half":
                out.add(f"{verb}:half")
            else:
                out.update(f"amount:{b}" for b in bucket(value))
        elif verb in ("draw", "add-from-deck"):
            out.add(f"count:{'1' if value == 1 else '100' if value == 100 else 'many'}")
        elif verb == "counterspell":
            out.add(f"counterspell:{value}")
        elif verb == "damage":
            out.add("damage:creature" if isinstance(value, dict) else "damage:player")
        elif verb == "create-token":
            out.add(f"create-token:count-{value.get('count', 1)}")
        elif verb == "add-mana":
            out.add(f"add-mana:{value}")
        elif verb in ("change-atk", "change-def"):
            out.add(f"object:{value['on']}")
            out.add(f"{verb}:{'gain' if value['by'] > 0 else 'loss'}")
            if abs(value["by"]) == 1_000_000_000:
                out.add("stat-change:max")
        elif verb == "become-color":
            out.add(f"object:{value.get('on', 'this-card')}")
            out.add(f"become-color:{value['color']}")
        elif verb not in ("coin-toss", "negate-attack", "end-battle-phase"):
            out.add(f"object:{value}")
        if "to" in part:
            out.add(f"{verb}-to:{part['to']}")
        for key in ("of", "filter", "player"):
            if key in part:
                out.add(f"{key}:{part[key]}" if key != "filter" else "filter")
        if verb == "coin-toss":
            out.add("coin-toss:then")
            effect_features(part["then"], out)
            if "otherwise" in part:
                out.add("coin-toss:otherwise")
                effect_features(part["otherwise"], out)


def activation_features(entry: dict[str, Any], out: set[str]) -> None:
    if entry.get("cannot-be-negated"):
        out.add("cannot-be-negated")
    if entry.get("mandatory"):
        out.add("mandatory")
    if "effect" in entry:
        effect_features(entry["effect"], out)
    costs = entry.get("cost", [])
    for cost in costs if isinstance(costs, list) else [costs]:
        key = next(iter(cost))
        out.add(f"cost:{key}" + (":half" if cost[key] == "half" else ""))
        if key == "pay-lp" and cost[key] != "half":
            out.update(f"amount:{b}" for b in bucket(cost[key]))
        if key in ("discard", "banish", "tribute", "send-to-graveyard"):
            paid = cost[key]
            out.add(f"cost:{key}:{paid if paid in ('this', 1) else 'filter'}")
    if "from" in entry:
        out.add(f"from:{entry['from']}")
    for mode in entry.get("modes", []):
        out.add("modes")
        activation_features(mode, out)
    when = entry.get("when")
    if when is not None:
        for key in (
            "activates",
            "summoned",
            "would-be-summoned",
            "attack-declared",
            "damage-step",
            "damage-calculation",
            "by",
            "how",
            *event_conditions(),
            "includes",
            "on-field",
            "would-destroy",
            "at-least",
            "during",
            "turn",
        ):
            if key in when:
                out.add(f"condition:{key}")
        activated = when.get("activates", [])
        for kind in activated if isinstance(activated, list) else [activated]:
            out.add(f"activates:{kind}")
    trigger = entry.get("trigger")
    if trigger is not None:
        events = trigger["event"] if isinstance(trigger["event"], list) else [trigger["event"]]
        out.update(f"event:{e}" for e in events)
        for key in ("from", "card"):
            if key in trigger:
                out.add(f"trigger:{key}")
        out.add(f"optional:{entry.get('optional', False)}")
        out.add(f"wording:{entry.get('wording', 'when')}")
    for key in ("once", "no-response", "target", "targets"):
        if key in entry:
            out.add(key)
    target = entry.get("target")
    if isinstance(target, list):
        out.add("target:per-target")  # a filter for each of two targets
    elif isinstance(target, dict) and "player" in target:
        # CR 115.1: "target player" (players only), or "any target" (a creature or a player).
        out.add("target:player" if len(target) == 1 else "target:any-target")
    if "once" in entry:
        out.add(f"once:{entry['once']}")


def phase_of(step: str) -> str:
    """The phase of a Yu-Gi-Oh! step (a phase's name is its own)."""
    return dict(_game("yugioh").steps).get(step, step)


CARD_TYPES = ("monster", "spell", "trap", "spell-trap", "card")
"""The card types a filter's ``card`` names."""


def filter_features(node: Any, out: set[str]) -> None:
    """The battle filters (``position``, ``attacking``) anywhere in the cards."""
    if isinstance(node, list):
        for item in node:
            filter_features(item, out)
    elif isinstance(node, dict):
        # A filter names card types in "card" (a card of the scenario has a kind instead).
        types = node.get("card")
        if isinstance(types, list) or types in CARD_TYPES or "kind" not in node:
            for key in (
                "position",
                "attacking",
                "color",
                "kind",
                "level-at-least",
                "level-at-most",
                "attribute",
                "monster-type",
                "def-at-least",
                "def-at-most",
                "direct",
            ):
                if key in node:
                    out.add(f"filter:{key}")
        for value in node.values():
            filter_features(value, out)


def features(data: dict[str, Any]) -> set[str]:
    """What a generated scenario uses, in the terms the coverage test asks for."""
    out: set[str] = set()
    for key in ("players", "description", "limits", "hands", "deck"):
        if key in data:
            out.add(key)
    out.add(f"turn:{data['turn']}")
    phase = data.get("phase")
    if phase is not None:
        out.add("phase:main" if phase.startswith("main") else "phase:other")
    step = data.get("step")
    if step is not None:
        out.add("step:main" if step.startswith("main") else f"step:{phase_of(step)}")
    if "until" in data:
        out.add("until")
        out.add(f"until:{phase_of(data['until'])}")
    filter_features(data["cards"], out)
    lp = data.get("life-points", 8000)
    out.update(f"life-points:{b}" for b in bucket(lp))
    if data.get("spells-cast"):
        out.add("spells-cast")
    for card in data["cards"].values():
        if "card" in card:
            out.add("copy")
            continue
        out.add(f"kind:{card['kind']}")
        for key in (
            "speed-modifier",
            "set",
            "face",
            "dizzy",
            "owner",
            "archetype",
            "level",
            "text",
            "split-second",
            "first-strike",
            "double-strike",
            "power",
            "toughness",
            "color",
            "mana",
            "morph",
            "storm",
            "tapped",
            "attribute",
            "monster-type",
        ):
            if key in card:
                out.add(key)
        if isinstance(card.get("speed-modifier"), list):
            out.add("stacked-speed-modifier")
        if "def" in card:
            out.add("card:def")
        for key in ("position", "attacked", "attacking", "blocking"):
            if key in card:
                out.add(f"card:{key}")
        if card.get("kind") == "creature" and card.get("zone") == "hand":
            out.add("creature-spell")
        activation_features(card, out)
        continuous = card.get("continuous", [])
        for c in continuous if isinstance(continuous, list) else [continuous]:
            out.add(f"continuous:{next(iter(c))}")
            if "by" in c:
                out.add(f"continuous-by:{c['by']}")
        abilities = card.get("abilities") or ([card["ability"]] if "ability" in card else [])
        for ability in abilities:
            out.add(f"ability:{ability['type']}")
            activation_features(ability, out)
            if "spell" in card["kind"] or "trap" in card["kind"]:
                out.add("ability:of-a-spell-or-trap")
    history = data["history"]
    if len(history) >= 4:
        out.add("history:long")
    resolved = False
    for step in history:
        for what in (
            "activates",
            "passes",
            "tribute summons",
            " summons ",
            "chain resolves",
            "attacks directly",
            " attacks ",
            "turn moves to",
            " sets ",
            "flip summons",
            " discarding a card",
            " discarding ",
            " banishing ",
            " choosing ",
            "resolves (choosing ",
            " declines ",
            " plays ",
            " face up",
        ):
            if what in step:
                out.add(f"history:{what.strip()}")
        two = re.search(r" targeting (.+?) and ", step)
        if two and not re.search(r" (tributing|discarding|banishing) ", two.group(1)):
            out.add("history:two-targets")
        named = "|".join(re.escape(p) for p in data.get("players", ("A", "B")))
        if re.search(rf" targeting ({named})( and |$| tributing )", step):
            out.add("history:targets-player")
        if resolved:
            out.add("history:after-resolve")
        resolved = resolved or "chain resolves" in step
    for entry in data["claims"]:
        text = claim_text(entry)
        if not isinstance(entry, str):
            out.add("claim:until")
        out.update(f"atom:{a}" for a in re.findall(r"\b([a-z_]+)\(", text))
        if re.search(r"\bzone\([^)]*\) [=!]= none\b", text):
            out.add("zone:none")
        out.update(f"atom:{a}" for a in re.findall(r"\b(step|phase|priority) [=!]=", text))
        if re.search(r"\bnow \(", text):
            out.add("atom:now")
        out.update(f"atom:chain(N).{m}" for m in re.findall(r"chain\(\d+\)\.(\w+)", text))
        out.update(f"atom:{a}" for a in re.findall(r"\b(\w+_order|chain_length) [=!<>]", text))
        for where, number in re.findall(r"\b(after_link|chain)\((\d+)\)", text):
            if int(number) >= 65536:
                out.add(f"index:{where}>=65536")
        for number in re.findall(r"\bchain_length [=!<>]=? (\d+)", text):
            if int(number) >= 65536:
                out.add("constant:chain_length>=65536")
        for name, op, number in re.findall(
            r"(life_points|cards_drawn)\(\w+\) ([=!<>]=?) (-?\d+)", text
        ):
            out.add(f"op:{op}")
            out.update(f"constant:{b}" for b in bucket(int(number)))
            if name == "life_points" and int(number) >= 32768:
                out.add("constant:lp>=32768")
    return out


BUCKETS = ("<=8000", "8001..32767", "32768..65535", ">=65536", "odd")
REQUIRED = {
    *(f"verb:{v}" for v in VERBS),
    *(f"object:{o}" for o in OBJECTS),
    "destroy-to:banished",
    "negate:activation",
    "negate:effect",
    "negate:summon",
    "lose-lp:half",
    "player:you",
    "player:opponent",
    "of:you",
    "of:opponent",
    "filter",
    "coin-toss:then",
    "coin-toss:otherwise",
    "counterspell:after",
    "counterspell:target",
    "split-second",
    "first-strike",
    "double-strike",
    "targets",
    "history:two-targets",
    "card:attacking",
    "card:blocking",
    "creature-spell",
    "power",
    "toughness",
    "color",
    "filter:color",
    "kind:creature",
    "kind:instant",
    "kind:sorcery",
    "damage:creature",
    "damage:player",
    "player:target",
    "target:player",
    "target:any-target",
    "target:per-target",
    "history:targets-player",
    "create-token:count-1",
    "create-token:count-2",
    "zone:none",
    "become-color:blue",
    "become-color:colorless",
    "change-atk:gain",
    "change-atk:loss",
    "change-def:gain",
    "change-def:loss",
    "stat-change:max",
    "card:def",
    "count:1",
    "count:100",
    "count:many",
    "cost:tribute",
    "cost:pay-lp",
    "cost:pay-lp:half",
    "cost:dizzy",
    "condition:activates",
    "condition:summoned",
    "condition:would-be-summoned",
    "condition:by",
    "condition:how",
    "activates:monster-effect",
    *(
        f"event:{e}"
        for e in (
            "sent-to-graveyard",
            "destroyed",
            "summoned",
            "normal-summoned",
            "tribute-summoned",
            "special-summoned",
            "leaves-field",
            "flipped",
            "destroyed-by-battle",
            "attack-declared",
        )
    ),
    "condition:attack-declared",
    "condition:damage-step",
    "condition:damage-calculation",
    *(
        f"condition:{key}"
        for key in (*event_conditions(), "includes", "on-field", "would-destroy", "at-least")
    ),
    *(f"event:{e}" for e in ("destroyed-by-effect", "banished", "targeted", "discarded")),
    "event:step-begins",
    "ability:of-a-spell-or-trap",
    "hands",
    "deck",
    "from:hand",
    "from:graveyard",
    "cost:discard:this",
    "cost:send-to-graveyard:this",
    "condition:during",
    "condition:turn",
    "cost:discard:1",
    "cost:discard:filter",
    "cost:banish:this",
    "cost:banish:filter",
    "cost:tribute:this",
    "modes",
    "text",
    "history:discarding a card",
    "history:choosing",
    "history:declines",
    "filter:position",
    "filter:attacking",
    "filter:kind",
    "filter:level-at-least",
    "filter:level-at-most",
    "card:position",
    "card:attacked",
    "level",
    "until",
    "until:battle",
    "until:main1",
    "step:battle",
    "step:main",
    "claim:until",
    "history:attacks directly",
    "history:attacks",
    "history:turn moves to",
    "history:sets",
    "history:flip summons",
    "trigger:from",
    "trigger:card",
    "optional:True",
    "optional:False",
    "wording:when",
    "wording:if",
    "continuous:negate-effects",
    "continuous:bind",
    "continuous:cannot-activate",
    "continuous:unaffected",
    "continuous:untargetable",
    *(f"continuous-by:{by}" for by in ("you", "opponent", "any")),
    "cannot-be-negated",
    "mandatory",
    "attribute",
    "monster-type",
    *(
        f"filter:{key}"
        for key in ("attribute", "monster-type", "def-at-least", "def-at-most", "direct")
    ),
    "simultaneous",
    "once",
    *(f"once:{scope}" for scope in ("turn", "chain", "name", "name-effect")),
    "no-response",
    "speed-modifier",
    "stacked-modifier",
    "stacked-speed-modifier",
    "players",
    "description",
    "limits",
    "copy",
    "set",
    "face",
    "owner",
    "dizzy",
    *(f"kind:{k}" for k in YUGIOH_SPELLS_TRAPS),
    "kind:normal-monster",
    "kind:effect-monster",
    "kind:monster",
    "kind:spell",
    *(f"ability:{t}" for t in ("ignition", "quick", "trigger", "ability")),
    "phase:main",
    "phase:other",
    "history:long",
    "history:activates",
    "history:passes",
    "history:summons",
    "history:tribute summons",
    "history:chain resolves",
    "history:after-resolve",
    *(
        f"atom:{a}"
        for a in (
            "activates",
            "responds",
            "can_respond",
            "can_activate",
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
            "cards_drawn",
            "deck_size",
            "loses",
            "atk",
            "def",
            "attacks",
            "destroyed_by_battle",
            "battle_damage",
            "step",
            "phase",
            "priority",
            "after_link",
            "now",
        )
    ),
    *(f"op:{op}" for op in ("==", "!=", "<", "<=", ">", ">=")),
    *(f"life-points:{b}" for b in BUCKETS),
    *(f"amount:{b}" for b in BUCKETS),
    *(f"constant:{b}" for b in (*BUCKETS, "negative")),
    "constant:lp>=32768",
    "index:after_link>=65536",
    "index:chain>=65536",
    "constant:chain_length>=65536",
    "kind:land",
    "mana",
    "tapped",
    "cost:tap",
    "add-mana:G",
    "add-mana:U",
    "add-mana:C",
    "history:plays",
    "history:face up",
    "morph",
    "storm",
    "spells-cast",
}


@GENERATED_ONCE
def test_generated_scenarios_reach_every_feature() -> None:
    # Over a fixed set of generated scenarios of both games, every verb, object, cost,
    # condition, trigger event, claim atom, comparison and number range appears.
    seen: set[str] = set()
    for game in REACH:
        for data in generated(game):
            seen |= features(data)
    missing = sorted(REQUIRED - seen)
    assert not missing, f"the generator never produced: {missing}"


# -- battles -------------------------------------------------------------------------------

#: Generated Yu-Gi-Oh! scenarios (seeds of :func:`generated`) that go through their turn:
#: three whose histories declare an attack (on a monster, directly), two with claims decided
#: at the end of a step of their own.
BATTLE_SEEDS = (74, 62, 150, 22, 19)


@pytest.mark.full  # both engines through five Battle Phases: a quarter of a minute
@GENERATED_ONCE
def test_generated_battles_are_decided_alike() -> None:
    # The generator fights battles: scenarios that go through their turn, with attacks in
    # their histories and battle claims; a handful of them are decided alike by both engines.
    scenarios = generated("yugioh")
    going = [data for data in scenarios if "until" in data]
    assert len(going) >= len(scenarios) // 6
    assert any(data["step"].startswith("main") for data in going)
    assert any(phase_of(data["step"]) == "battle" for data in going)
    histories = [step for data in going for step in data["history"]]
    assert any(" attacks " in step for step in histories)
    assert any(step.startswith("the turn moves to ") for step in histories)
    texts = [claim_text(entry) for data in going for entry in data["claims"]]
    assert any(re.search(r"\b(attacks|destroyed_by_battle|battle_damage)\(", t) for t in texts)
    for seed in BATTLE_SEEDS:
        data = scenarios[seed]
        assert "until" in data, seed
        if seed in BATTLE_SEEDS[:3]:
            assert any(" attacks " in step for step in data["history"]), seed
        else:
            assert any(not isinstance(entry, str) for entry in data["claims"]), seed
        agree((data, data["claims"], []))
