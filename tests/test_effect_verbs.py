"""The registry of effect verbs: every verb is complete, the generator reaches every verb,
narration refuses a note it does not know, and a verb added only here works end to end."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from verifier.designer.generate import RandomChooser, scenario
from verifier.effects import verbs
from verifier.effects.verb import (
    Link,
    Loading,
    Names,
    Told,
    Verb,
    narrator,
    register,
    takes_amount,
)
from verifier.errors import InternalError, ScenarioError
from verifier.io import schema
from verifier.io.scenario import load_scenario
from verifier.rules.context import Ctx, Note
from verifier.run.check import prepare
from verifier.spec.cards import Effect
from verifier.spec.values import Points
from verifier.system import Action
from verifier.trace.narrate import narrate
from verifier.trace.turn import KINDS as TURN_NOTES

FILES_ORDER = [
    "destroy",
    "banish",
    "negate",
    "flip-face-down",
    "take-control",
    "special-summon",
    "send-to-graveyard",
    "return-to-hand",
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
    "combat-damage",
    "create-token",
    "add-mana",
    "regenerate",
    "copy-spell",
    "become-color",
    "normal-summon",
]
#: Verbs no effect part of the generator writes: the object combat damage on the stack
#: carries, and copy-spell, which the scenario generator gives a card of its own (its target
#: is a spell on the stack: ``designer.generate.scenarios._copy_spell``).
UNGENERATED = {"combat-damage", "copy-spell"}


def test_the_verbs_are_registered_in_the_files_order() -> None:
    assert [v.name for v in verbs()] == FILES_ORDER


@pytest.mark.parametrize("verb", verbs(), ids=lambda v: v.name)
def test_every_verb_is_complete(verb: Verb) -> None:
    assert verb.key in schema.EffectFile.model_fields
    assert callable(verb.load)
    assert callable(verb.apply)
    assert verb.notes, f"{verb.name} leaves no note to narrate"
    assert all(callable(tell) for tell in verb.notes.values())
    assert callable(verb.generate)


def test_the_effect_keys_keep_their_order() -> None:
    keys = [f.alias for f in schema.EffectFile.model_fields.values()]
    shared = [
        "of",
        "filter",
        "to",
        "player",
        "heads-at-least",
        "then",
        "otherwise",
        "simultaneous",
        "cannot-be-regenerated",
    ]
    assert keys == [*FILES_ORDER, *shared]


def _verbs_in(node: Any, found: set[str], part: bool = False) -> None:
    """Collect the verbs of the effect parts (under ``effect``, ``then``, ``otherwise``)."""
    if isinstance(node, list):
        for item in node:
            _verbs_in(item, found, part)
    elif isinstance(node, dict):
        if part:
            found.update(key for key in node if key in FILES_ORDER)
        for key, value in node.items():
            _verbs_in(value, found, key in {"effect", "then", "otherwise"})


@pytest.mark.full
def test_the_generator_reaches_every_verb() -> None:
    found: set[str] = set()
    for seed in range(300):
        for game in ("yugioh", "cmc", "mtg"):
            _verbs_in(scenario(RandomChooser(seed), game)["cards"], found)
        # Effects that Normal Summon are written by a pass of their own (effect_summons).
        _verbs_in(scenario(RandomChooser(seed), "yugioh", effect_summons=True)["cards"], found)
        if found == set(FILES_ORDER) - UNGENERATED:
            break
    assert found == set(FILES_ORDER) - UNGENERATED


class _Everywhere:
    """A place that offers every object, for one game."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.target = self.answers = self.summon = self.would_be = self.bound = True
        self.player_target = True
        self.depth = 1

    def filter(self, c: Any) -> dict[str, Any]:
        return {"card": "monster"}

    def lp_amount(self, c: Any) -> int:
        return 500

    def count(self, c: Any) -> int:
        return 2

    def parts(self, c: Any) -> dict[str, Any]:
        return {"draw": 1}


@pytest.mark.parametrize(
    "verb", [v for v in verbs() if v.name not in UNGENERATED], ids=lambda v: v.name
)
def test_every_generator_writes_its_own_verb(verb: Verb) -> None:
    written = [
        part
        for seed in range(20)
        for game in ("yugioh", "cmc", "mtg")
        for part in verb.generate(RandomChooser(seed), _Everywhere(game))
    ]
    assert written
    assert all(verb.name in part for part in written)


@pytest.mark.parametrize("name", sorted(UNGENERATED))
def test_the_ungenerated_verbs_write_no_part(name: str) -> None:
    # Combat damage is the object combat damage on the stack carries, not a card's effect;
    # a copy spell is a card of its own, which the scenario generator writes.
    [found] = [v for v in verbs() if v.name == name]
    assert found.generate(RandomChooser(0), _Everywhere("mtg")) == []


def _system_after(text: str, tmp_path: Path) -> Any:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return prepare(load_scenario(path))


RAIGEKI = """\
rules: yugioh
turn: A
cards:
  Raigeki: {kind: normal-spell, controller: A, zone: hand, effect: {destroy: all-monsters}}
  Kuriboh: {kind: effect-monster, controller: B}
"""


def test_an_unknown_note_kind_raises(tmp_path: Path) -> None:
    prepared = _system_after(RAIGEKI, tmp_path)
    system, start, action = prepared.system, prepared.system.initial(), Action("pass", player=0)
    with pytest.raises(InternalError, match="no narration for the note 'fizzle'"):
        narrate(system, start, action, [Note("fizzle", (0,))])


def test_every_note_kind_of_a_verb_is_told(tmp_path: Path) -> None:
    prepared = _system_after(RAIGEKI, tmp_path)
    system, start, action = prepared.system, prepared.system.initial(), Action("pass", player=0)
    for v in verbs():
        for kind in v.notes:
            note = Note(kind, (0,), "graveyard", 0)
            steps = narrate(system, start, action, [note])
            assert steps and steps[0].text, (v.name, kind)


# -- a verb defined only here -----------------------------------------------------------------


def _set_lp(ctx: Ctx, link: Link, effect: Effect, go: Any) -> None:
    """Set the player's Life Points to the amount."""
    L, f = ctx.L, ctx.f
    assert effect.amount is not None
    for p in (0, 1):
        changing = L.and_(go, (link.me if effect.player == "you" else 1 - link.me) == p)
        f.lp[p] = L.ite(changing, effect.amount, f.lp[p])
    ctx.event(go)
    if go is True:
        ctx.note("set-lp", (), str(effect.amount), link.me)


def _told(note: Note, names: Names) -> list[Told]:
    return [Told("effect", f"{names.who(note)}'s Life Points become {note.detail}", note.player)]


def _load(value: Any, spec: Any, loading: Loading) -> dict[str, Any]:
    if value > 8000:
        raise loading.fail("set-lp sets at most 8000 Life Points")
    return takes_amount(value, spec, loading)


SET_LP = Verb(
    "set-lp",
    Points,
    _load,
    _set_lp,
    {"set-lp": _told},
    lambda c, place: [{"set-lp": c.pick([1, 100, 8000])}],
)


@pytest.fixture
def set_lp() -> Iterator[Verb]:
    from verifier.effects.verb import unregister

    register(SET_LP)
    schema.refresh_effects()
    try:
        yield SET_LP
    finally:
        unregister(SET_LP.name)
        schema.refresh_effects()


LIFE_SWAP = """\
rules: yugioh
turn: A
cards:
  Life Swap: {kind: normal-spell, controller: A, zone: hand, effect: {set-lp: 100}}
history:
  - A activates Life Swap
  - B passes
  - A passes
  - the chain resolves
"""


def test_a_verb_registered_here_loads_applies_and_narrates(
    set_lp: Verb, tmp_path: Path, decide: Callable[..., str]
) -> None:
    prepared = _system_after(LIFE_SWAP, tmp_path)
    [ability] = prepared.scenario.abilities
    assert ability.effects == (Effect(verb="set-lp", amount=100),)
    assert decide(LIFE_SWAP, "life_points(A) == 100") == "holds"
    assert decide(LIFE_SWAP, "life_points(B) == 8000") == "holds"
    texts = [step.text for step in prepared.history.steps]
    assert "A's Life Points become 100" in texts


def test_a_verb_registered_here_checks_its_value(set_lp: Verb, tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="set-lp sets at most 8000 Life Points"):
        _system_after(LIFE_SWAP.replace("set-lp: 100", "set-lp: 9000"), tmp_path)


def test_a_verb_unregistered_is_unknown_again(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="unknown key 'set-lp'"):
        _system_after(LIFE_SWAP, tmp_path)


def test_a_cmc_verb_in_yugioh_is_refused(tmp_path: Path) -> None:
    text = RAIGEKI.replace("{destroy: all-monsters}", "{dizzy: all-monsters}")
    with pytest.raises(ScenarioError, match=r"'dizzy' needs cards that can be dizzy; \S+ has none"):
        _system_after(text, tmp_path)


def test_only_the_coin_toss_takes_branches(tmp_path: Path) -> None:
    text = RAIGEKI.replace("{destroy: all-monsters}", "{destroy: all-monsters, then: {draw: 1}}")
    with pytest.raises(ScenarioError, match="only coin-toss takes then/otherwise"):
        _system_after(text, tmp_path)


#: The kinds of note the chain itself leaves, told by narrate() (not by a verb).
CHAIN_NOTES = {
    "activate",
    "pass",
    "close",
    "timer",
    "resolve",
    "summon",
    "summoned",
    "trigger",
    "miss",
    "decline",
    "cleanup",
    "tribute",
    "discard",
    "discard-unlisted",
    "banish",
    "send",
    "pay-lp",
    # Magic's mana paid and lands played (told by the narration of the chain)
    "pay-mana",
    "land",
    "turn-face-up",
    # Magic's declarations of attackers and blockers
    "attackers",
    "blockers",
    # Magic's stack: a spell leaving it or entering the battlefield, state-based actions,
    # priority, combat damage assigned
    "to-graveyard",
    "enters",
    "state-based",
    "token-ceases",  # the state-based token-ceases (CR 704.5d)
    "priority",
    "combat-on-stack",
    # a player with no life left loses (the state-based zero-life)
    "lost",
    # the turn's own notes, told by verifier.trace.turn
    *TURN_NOTES,
}
#: Kinds built at run time: a move's event ("destroyed", ..., "move") and ``effect.verb``.
BUILT_NOTES = {
    "destroyed",
    "sent-to-graveyard",
    "move",
    "negate-activation",
    "negate-effect",
    "draw",
    "add-from-deck",
    "lose-lp",
    "gain-lp",
    "flip-face-down",
    "take-control",
    "undizzy",
    "slow",
    "speed-up",
    "change-atk",
    "change-def",
    "negate-attack",
    "end-battle-phase",
}


def test_every_note_the_code_leaves_is_told() -> None:
    source = Path(__file__).resolve().parent.parent / "verifier"
    literal = re.compile(r"\.note\(\s*\"([a-z-]+)\"")
    left = {kind for path in source.rglob("*.py") for kind in literal.findall(path.read_text())}
    assert left, "no ctx.note(...) found"
    untold = sorted(
        kind for kind in left | BUILT_NOTES if kind not in CHAIN_NOTES and narrator(kind) is None
    )
    assert untold == []
    # The verbs tell exactly the effect kinds, no fewer and none of the chain's.
    told = {kind for v in verbs() for kind in v.notes}
    assert told == (left | BUILT_NOTES) - CHAIN_NOTES
