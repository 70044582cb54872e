"""A verb with state of its own, defined only here: it declares its state field, the field's
first value and when it resets, and both engines carry it, with nothing else to change.

``hex: target`` marks a face-up monster on the field; hexing a monster already marked
destroys it. The mark lasts until the end of the turn or until the card moves (a card that
moves is a new card).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from verifier.core.state import OPTIONAL, Layout, Reset, array, declare, withdraw
from verifier.effects.verb import Link, Object, Verb, register, takes_object, told_of_cards
from verifier.io import schema
from verifier.io.scenario import load_scenario
from verifier.rules.context import Ctx
from verifier.run.check import prepare
from verifier.spec.cards import Effect, Zone

FIELD = "hexed"


def _hex(ctx: Ctx, link: Link, effect: Effect, go: Any) -> Any:
    from verifier.effects.movement import objects
    from verifier.rules.context import on_field
    from verifier.rules.moves import move

    L, f = ctx.L, ctx.f
    hit = objects(ctx, link, effect)
    marked, destroyed = [], []
    for c, h in enumerate(hit):
        fits = L.and_(go, h, on_field(ctx, c), f.up[c])
        again = L.and_(fits, f.hexed[c])
        f.hexed[c] = L.or_(f.hexed[c], fits)
        marked.append(L.and_(fits, L.not_(again)))
        destroyed.append(again)
    if not all(L.is_false(m) for m in marked):
        ctx.event(L.or_(*marked))
        ctx.note("hexed", marked)
    return move(ctx, destroyed, Zone.GRAVEYARD, ("destroyed", "destroyed-by-effect"))


def _verb(resets: frozenset[Reset]) -> tuple[Verb, Any]:
    verb = Verb(
        "hex",
        Object,
        takes_object,
        _hex,
        {"hexed": told_of_cards("is hexed")},
        lambda c, place: [{"hex": "target"}],
        fields=(FIELD,),
    )
    return verb, array(FIELD, "card", False, resets=resets)


@pytest.fixture(params=["resets", "lasts"])
def hex_verb(request: pytest.FixtureRequest) -> Iterator[str]:
    """The verb, its field reset at the end of the turn and as its card moves ("resets"),
    or a variant whose mark never resets ("lasts")."""
    from verifier.effects.verb import unregister

    resets = frozenset({Reset.TURN, Reset.MOVES}) if request.param == "resets" else frozenset()
    verb, field = _verb(resets)
    declare(field)
    register(verb)
    schema.refresh_effects()
    try:
        yield request.param
    finally:
        unregister(verb.name)
        withdraw(FIELD)
        schema.refresh_effects()


HEX = {"kind": "quick-play-spell", "controller": "A", "zone": "hand"}


def _scenario(*history: str, bounce: bool = False) -> str:
    cards = """\
  Hex One: &hex
    kind: quick-play-spell
    controller: A
    zone: hand
    target: {card: monster, zone: field, face: up}
    effect: {hex: target}
  Hex Two: *hex
  Gemini Elf: {kind: normal-monster, controller: B, atk: 1900}
"""
    if bounce:
        cards += """\
  Bounce:
    kind: quick-play-spell
    controller: A
    zone: hand
    target: {card: monster, zone: field, face: up}
    effect: {return-to-hand: target}
"""
    steps = "".join(f"  - {step}\n" for step in history)
    return f"rules: yugioh\nturn: A\ncards:\n{cards}history:\n{steps}"


def _final(text: str, tmp_path: Path) -> tuple[Layout, Any, int]:
    path = tmp_path / "hex.yaml"
    path.write_text(text, encoding="utf-8")
    prepared = prepare(load_scenario(path))
    names = [card.name for card in prepared.scenario.cards]
    layout = prepared.system.layout
    return layout, layout.frame(prepared.history.state), names.index("Gemini Elf")


TWICE = (
    "A activates Hex One targeting Gemini Elf",
    "B passes",
    "A activates Hex Two targeting Gemini Elf",
    "B passes",
    "A passes",
    "the chain resolves",
)


def test_the_verbs_field_is_in_the_layout_only_where_the_verb_is(
    hex_verb: str, tmp_path: Path
) -> None:
    layout, frame, elf = _final(_scenario(*TWICE[:1]), tmp_path)
    assert layout.has(FIELD)
    assert frame.hexed[elf] is False
    path = tmp_path / "plain.yaml"
    path.write_text(
        "rules: yugioh\nturn: A\ncards:\n  Gemini Elf: {kind: normal-monster, controller: B}\n"
    )
    assert not prepare(load_scenario(path)).system.layout.has(FIELD)


@pytest.mark.parametrize("engine", ["explore", "smt"])
def test_hexing_twice_destroys_in_both_engines(
    hex_verb: str, engine: str, decide: Callable[..., str]
) -> None:
    text = _scenario(*TWICE)
    assert decide(text, 'always zone("Gemini Elf") == graveyard', engine) == "holds"
    once = _scenario(*TWICE[:2], "A passes", "the chain resolves")
    # Hexed once, it stays on the field unless it is hexed again.
    staying = 'always (zone("Gemini Elf") == field or activates(A, "Hex Two"))'
    assert decide(once, staying, engine) == "holds"
    assert decide(once, 'always zone("Gemini Elf") == field', engine) == "fails"


def test_the_mark_resets_as_its_card_moves_when_declared_so(hex_verb: str, tmp_path: Path) -> None:
    # Bounce is Chain Link 1, Hex One Chain Link 2: the Elf is hexed, then returned to the hand.
    history = (
        "A activates Bounce targeting Gemini Elf",
        "B passes",
        "A activates Hex One targeting Gemini Elf",
        "B passes",
        "A passes",
        "the chain resolves",
    )
    layout, frame, elf = _final(_scenario(*history, bounce=True), tmp_path)
    assert frame.zone[elf] == int(Zone.HAND)
    assert frame.hexed[elf] is (hex_verb == "lasts")
    assert [f.name for _, f in layout.resetting(Reset.MOVES)] == (
        [FIELD] if hex_verb == "resets" else []
    )


def test_a_field_is_declared_once_by_its_owner() -> None:
    declare(array("toy", "card", False))
    try:
        declare(array("toy", "card", False))  # the same declaration again: nothing changes
        with pytest.raises(ValueError, match="already declared"):
            declare(array("toy", "card", 0))
        with pytest.raises(ValueError, match="core field"):
            declare(array("zone", "card"))
        with pytest.raises(ValueError, match="not a card's"):
            declare(array("toy2", "player", resets=frozenset({Reset.MOVES})))
    finally:
        withdraw("toy")
    assert "toy" not in OPTIONAL and "toy2" not in OPTIONAL


def test_a_layout_with_a_field_nobody_declared_is_refused() -> None:
    layout = Layout(cards=1, abilities=0, slots=1, alog=1, rlog=1, pending_cap=1, extra=("toy",))
    with pytest.raises(LookupError, match="no module declared the state field 'toy'"):
        layout.empty()
