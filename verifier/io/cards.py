"""Loading cards: the library a scenario names, each card entry (its kind, zone, traits and
abilities), copies and the zones they start in."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from verifier.errors import ScenarioError, Span
from verifier.io.abilities import AbilityReader
from verifier.io.bundled import bundled_libraries, is_name
from verifier.io.paths import load_referenced, quoted, resolve_reference
from verifier.io.reading import Where, close_match
from verifier.io.schema import (
    CardFile,
    LibraryFile,
)
from verifier.io.storm import storm_ability
from verifier.rules import strike
from verifier.rules.storm import storms
from verifier.spec.cards import (
    Ability,
    Card,
    ContinuousKind,
    Effect,
    TriggerSpec,
    Zone,
)
from verifier.spec.rulesystem import CombatDamage

__all__ = ["CardReader", "bundled_library", "printed_name"]


class CardReader(AbilityReader):
    """Reads the card entries of a scenario and its library."""

    def copied(self, cards: tuple[Card, ...]) -> list[set[int]]:
        """For each ability, the spells its ``copy-spell`` parts may target (CR 707.10): every
        other card whose spell fits its target filter's card types and kinds."""
        out: list[set[int]] = []
        for ability in self.abilities:
            if not ability.uses("copy-spell"):
                out.append(set())
                continue
            if storms(ability):
                out.append({ability.card})  # storm copies its own spell
                continue
            flt = ability.target
            if flt is None or flt.zone is not Zone.STACK or ability.targets != 1:
                raise ScenarioError(
                    f"{ability.label} copies the spell it targets: it needs one target on the "
                    "stack (target: {zone: stack, kind: [instant, sorcery]})",
                    ability.span,
                )
            out.append(
                {
                    c.index
                    for c in cards
                    if c.index != ability.card
                    and not c.token
                    and c.type in flt.types
                    and (flt.kinds is None or c.kind in flt.kinds)
                    and any(self.abilities[a].card_activation for a in c.abilities)
                }
            )
        return out

    def check_zones(self, cards: tuple[Card, ...]) -> None:
        """The situation fits the rule system's zones: no more monsters, nor Spell and Trap
        Cards, on a player's field than that player has zones for."""
        limits = {
            "monster": (self.model.monster_zones, "Monster Zones"),
            "spell-trap": (self.model.spell_trap_zones, "Spell & Trap Zones"),
        }
        used: dict[tuple[int, str], int] = {}
        for card in cards:
            if card.zone is not Zone.FIELD:
                continue
            row = "monster" if card.type == "monster" else "spell-trap"
            zones, label = limits[row]
            used[(card.controller, row)] = count = used.get((card.controller, row), 0) + 1
            if zones is not None and count > zones:
                who = self.players[card.controller]
                raise self.error(
                    f"'{card.name}' does not fit: {who} has {zones} {label} under "
                    f"{self.model.name}, and this is card {count} there",
                    Where(self.doc, ("cards", card.name)).key(),
                )

    # -- library -----------------------------------------------------------------------------

    def library(self) -> dict[str, tuple[CardFile, Where]]:
        refs = self.spec.library
        if refs is None:
            return {}
        paths = [refs] if isinstance(refs, str) else refs
        found: dict[str, tuple[CardFile, Where]] = {}
        for i, ref in enumerate(paths):
            where = ("library",) if isinstance(refs, str) else ("library", i)
            span = self.doc.span(where)
            shown = quoted(ref)
            if self.names_only and not is_name(ref):
                known = ", ".join(bundled_libraries()) or "none"
                raise self.error(
                    f"library {shown} names a file; here a scenario names a bundled card "
                    f"library by its name (bundled: {known})",
                    span,
                )
            path = (
                bundled_library(ref, span)
                if is_name(ref)
                else resolve_reference(
                    ref,
                    self.folder,
                    "card library",
                    f"no card library {shown}",
                    span,
                    ScenarioError,
                    self.allow_outside,
                )
            )
            lib_doc, lib = load_referenced(
                path, "card library", shown, "a card library", LibraryFile, span, ScenarioError
            )
            for name, entry in lib.cards.items():
                found.setdefault(name, (entry, Where(lib_doc, ("cards", name))))
        return found

    # -- cards ------------------------------------------------------------------------------

    def card(self, index: int, name: str, entry: CardFile, where: Where) -> Card:
        model = self.model
        if entry.kind is None:
            raise self.error(f"card '{name}' needs a kind", where.key())
        kind = model.kinds.get(entry.kind)
        card_kinds = [k for k, v in model.kinds.items() if v.card is not None]
        if kind is None or kind.card is None:
            raise self.error(
                f"unknown card kind '{entry.kind}' under {model.name}"
                f"{close_match(entry.kind, card_kinds, show=True)}",
                where.at("kind"),
            )
        if entry.controller is None and entry.owner is None:
            raise self.error(f"card '{name}' needs a controller (or an owner)", where.key())
        controller = self.player(
            entry.controller or entry.owner, where.at("controller" if entry.controller else "owner")
        )
        owner = self.player(entry.owner, where.at("owner")) if entry.owner else controller
        if entry.set is not None:
            if entry.zone is not None and self.word(entry.zone) != "field":
                raise self.error("a set card is on the field", where.at("zone"))
            zone = Zone.FIELD
            face_up = False
        else:
            default = "field" if kind.card in ("monster", "land") else "hand"
            zone = self.zone(entry.zone or default, where.at("zone"))
            face_up = entry.face != "down" if zone is Zone.FIELD else zone is not Zone.HAND
        if entry.face is not None and zone is not Zone.FIELD:
            raise self.error("only cards on the field have a face", where.at("face"))
        if entry.set is not None and kind.card == "monster" and entry.face == "up":
            raise self.error("a set card is face-down", where.at("face"))
        for key, said in (("attribute", "an Attribute"), ("monster-type", "a Type")):
            if getattr(entry, key.replace("-", "_")) is not None and kind.card != "monster":
                raise self.error(f"only a monster has {said}", where.at(key))
        archetypes = entry.archetype
        arche = frozenset([archetypes] if isinstance(archetypes, str) else archetypes or [])
        first = len(self.abilities)
        activation_keys = ("when", "cost", "target", "effect", "once", "speed")
        if kind.card in {"spell", "trap"}:
            if (entry.ability or entry.abilities) and not kind.stays:
                raise self.error(
                    f"a {kind.card} card is activated as a whole; write when/cost/target/effect "
                    "on the card, not abilities (only a card that stays on the field, a "
                    "Continuous, Equip or Field card, has effects of its own once face-up)",
                    where.key("ability" if entry.ability else "abilities"),
                )
            if entry.modes:
                for key in ("when", "target", "effect"):
                    if getattr(entry, key) is not None:
                        raise self.error(
                            f"a card with modes states '{key}' in each mode", where.key(key)
                        )
                self.check_mode_labels(entry.modes, where, ("modes",))
                for i, mode in enumerate(entry.modes):
                    sub = Where(where.doc, (*where.base, "modes", i))
                    if where.fallback is not None and not where.has("modes"):
                        sub = Where(where.fallback.doc, (*where.fallback.base, "modes", i))
                    self.abilities.append(self.card_activation(index, name, entry, sub, mode))
            else:
                self.abilities.append(self.card_activation(index, name, entry, where))
            # A Continuous, Equip or Field card's effects of its own, once it is face-up
            # on the field (Supply Squad, Ultimate Offering).
            self.card_effects(index, name, entry, where, of_card=True)
        else:
            for key in activation_keys:
                if getattr(entry, key) is not None:
                    raise self.error(
                        f"a monster's effects go under 'ability' or 'abilities', not '{key}'",
                        where.key(key),
                    )
            for key in ("no_response", "modes", "split_second"):
                if getattr(entry, key):
                    raise self.error(
                        "a monster's effects go under 'ability' or 'abilities'",
                        where.key(key.replace("_", "-")),
                    )
            self.card_effects(index, name, entry, where)
            if kind.cast and kind.speed is not None:
                # The card itself is cast from the hand (a creature spell): no target, no
                # effect of its own; resolved, it enters the field.
                self.abilities.append(
                    Ability(
                        index=len(self.abilities),
                        card=index,
                        label=name,
                        kind=entry.kind,
                        speed=kind.speed,
                        condition=None,
                        trigger=None,
                        costs=self.card_mana(entry, where),
                        target=None,
                        effects=(),
                        once=None,
                        no_response=False,
                        card_activation=True,
                        span=where.key(),
                    )
                )
        if entry.storm:
            self.storm(index, name, entry, kind.card, where)
        for added in self.abilities[first:]:
            if added.target is None and added.acts_on("target"):
                raise self.error(
                    f"{added.label}'s effect acts on its target, but it has none: add "
                    "'target:' (which cards it may target)",
                    added.span or where.key(),
                )
            aims = any(e.player == "target" for e in added.parts())
            filters = [f for f in (added.target, added.target2) if f is not None]
            if aims and not any(f.players for f in filters):
                raise self.error(
                    f"{added.label}'s effect acts on its target player ('player: target'), "
                    "but it targets no player: add 'player: any' (or you, opponent) to its "
                    "'target:'",
                    added.span or where.key(),
                )
        continuous = entry.continuous
        listed_c = [continuous] if not isinstance(continuous, list) else continuous
        cont = tuple(
            self.continuous(c, where, (i,) if isinstance(continuous, list) else ())
            for i, c in enumerate(listed_c)
            if c is not None
        )
        if (
            any(c.kind == ContinuousKind.BIND for c in cont)
            and (not self.abilities or self.abilities[first].target is None)
            and kind.card != "monster"
        ):
            raise self.error(
                "'bind: target' needs the card to have a target", where.at("continuous")
            )
        if entry.dizzy:
            self.needs("dizzy", where.at("dizzy"))
        if entry.tapped and zone is not Zone.FIELD:
            raise self.error("only a permanent on the battlefield is tapped", where.at("tapped"))
        casts = kind.card in {"spell", "trap"} or (kind.cast and kind.speed is not None)
        if entry.mana is not None and not casts:
            raise self.error(
                f"a {kind.card} card of kind '{entry.kind}' is not cast, so it has no mana cost "
                "(a land is played: CR 305.1)",
                where.at("mana"),
            )
        if entry.position is not None or entry.attacked:
            key = "position" if entry.position is not None else "attacked"
            if kind.card != "monster" or zone is not Zone.FIELD:
                raise self.error(f"only a monster on the field has '{key}'", where.at(key))
        if entry.position == "attack" and not face_up:
            raise self.error("a face-down monster is in Defense Position", where.at("position"))
        if entry.speed_modifier is not None and model.slow_limit is None:
            raise self.error(f"{model.name} has no speed modifiers", where.at("speed-modifier"))
        faces = self.game.face_down_creatures
        if entry.morph is not None and (kind.card != "monster" or not faces):
            said = (
                "only a creature has a morph cost"
                if faces
                else f"{self.game.title} has no face-down creatures, so no morph cost"
            )
            raise self.error(f"{said} (CR 702.37a)", where.at("morph"))
        blocking = self.combatant(entry, kind.card, zone, where)
        self.strikes(entry, kind.card, where)
        return Card(
            index=index,
            name=name,
            kind=entry.kind,
            type=kind.card,
            owner=owner,
            controller=controller,
            zone=zone,
            face_up=face_up,
            set_this_turn=entry.set == "this-turn",
            dizzy=entry.dizzy or entry.tapped,
            atk=entry.atk if entry.atk is not None else entry.power,
            defense=entry.def_ if entry.def_ is not None else entry.toughness,
            defense_position=entry.position == "defense"
            or (entry.position is None and kind.card == "monster" and not face_up),
            attacked=entry.attacked,
            level=entry.level,
            archetypes=arche,
            speed_modifiers=(
                (entry.speed_modifier,)
                if isinstance(entry.speed_modifier, str)
                else tuple(entry.speed_modifier or ())
            ),
            stays=kind.stays,
            continuous=cont,
            abilities=tuple(range(first, len(self.abilities))),
            span=where.key(),
            cannot_be_negated=entry.cannot_be_negated,
            attacking=entry.attacking,
            blocking=blocking,
            first_strike=entry.first_strike,
            double_strike=entry.double_strike,
            colors=frozenset([entry.color] if isinstance(entry.color, str) else entry.color or []),
            attribute=entry.attribute,
            monster_type=entry.monster_type,
            morph=None if entry.morph is None else self.mana_cost(entry.morph, where.at("morph")),
            hidden=faces and kind.card == "monster" and zone is Zone.FIELD and not face_up,
        )

    def storm(self, index: int, name: str, entry: CardFile, card_type: str, where: Where) -> None:
        """Magic: ``storm: true`` gives an instant or sorcery its storm ability (CR 702.40)."""
        at = where.at("storm")
        if not self.model.one_at_a_time:
            raise self.error(
                "storm copies a spell on a stack that resolves one object at a time; "
                f"{self.model.name} resolves whole chains",
                at,
            )
        kinds = self.model.kinds
        if card_type != "spell" or entry.kind is None or kinds[entry.kind].stays:
            raise self.error("only an instant or a sorcery has storm (CR 702.40a)", at)
        if entry.modes:
            raise self.error("storm on a card with modes is not supported", at)
        trigger = next((k for k in kinds.values() if k.trigger and k.effect), None)
        if trigger is None:
            raise self.error(f"{self.model.name} has no triggered abilities for storm", at)
        self.abilities.append(
            storm_ability(len(self.abilities), index, name, trigger.name, trigger.speed)
        )

    def combat_damage_object(self, cards: tuple[Card, ...], declared: bool) -> None:
        """Under combat damage on the stack, the object that carries it: a trigger of the
        game's, which triggers as the combat damage step begins (tied to the first attacker,
        or, for a combat declared on the way, to the first creature)."""
        attackers = [c for c in cards if c.attacking]
        if declared and not attackers:
            attackers = [c for c in cards if c.type == "monster"]
        if self.model.combat_damage != CombatDamage.STACK or not attackers:
            return
        kind = next((k for k in self.model.kinds.values() if k.trigger and k.effect), None)
        if kind is None:
            raise self.error(
                f"{self.model.name} puts combat damage on the stack: it needs a trigger kind",
                self.doc.span(("cards",)),
            )
        self.abilities.append(
            Ability(
                index=len(self.abilities),
                card=attackers[0].index,
                label="Combat damage",
                kind=kind.name,
                speed=kind.speed,
                condition=None,
                trigger=TriggerSpec(frozenset(), True, None, None, False, "if"),
                costs=(),
                target=None,
                effects=(Effect("combat-damage"),),
                once=None,
                no_response=False,
                card_activation=False,
                combat_damage=True,
            )
        )

    def combatant(self, entry: CardFile, card_type: str | None, zone: Zone, where: Where) -> int:
        """Magic: check ``attacking`` and ``blocking``; the index of the attacker it blocks."""
        if not entry.attacking and entry.blocking is None:
            return -1
        key = "attacking" if entry.attacking else "blocking"
        if self.model.combat_damage is None:
            raise self.error(f"{self.model.name} has no combat ('{key}')", where.at(key))
        if card_type != "monster" or zone is not Zone.FIELD:
            raise self.error(f"only a creature on the battlefield has '{key}'", where.at(key))
        if entry.blocking is None:
            return -1
        names = list(self.spec.cards)
        if entry.blocking not in names:
            raise self.error(f"unknown card '{entry.blocking}'", where.at("blocking"))
        blocked = self.spec.cards[entry.blocking]
        if not blocked.attacking:
            raise self.error(f"'{entry.blocking}' is not attacking", where.at("blocking"))
        return names.index(entry.blocking)

    def first_strike_step(
        self, cards: tuple[Card, ...], step: str | None, until: str | None
    ) -> None:
        """A scenario at (or until) the first-strike combat damage step has a creature with
        first strike or double strike: without one the turn never goes through it."""
        if any(c.first_strike or c.double_strike for c in cards):
            return
        for key, name in (("step", step), ("until", until)):
            if name == strike.FIRST and getattr(self.spec, key) == name:
                raise self.error(
                    f"there is a {strike.FIRST} step only when an attacking or blocking "
                    "creature has first strike or double strike (CR 510.4): no card here has "
                    "'first-strike' or 'double-strike'",
                    self.doc.span((key,)),
                )

    def strikes(self, entry: CardFile, card_type: str | None, where: Where) -> None:
        """Magic: check ``first-strike`` and ``double-strike``, keyword abilities of a
        creature that change when it deals combat damage (CR 702.7, 702.4, 510.4)."""
        for key, rule in (("first-strike", "702.7"), ("double-strike", "702.4")):
            if not getattr(entry, key.replace("-", "_")):
                continue
            if self.model.combat_damage is None:
                raise self.error(f"{self.model.name} has no combat ('{key}')", where.at(key))
            if card_type != "monster":
                raise self.error(
                    f"only a creature has {key.replace('-', ' ')}: it changes when a creature "
                    f"deals combat damage (CR {rule})",
                    where.at(key),
                )


def bundled_library(name: str, span: Span | None) -> Path:
    """The card library shipped with the package under ``name`` (``library: yugioh``)."""
    libraries = bundled_libraries()
    if name in libraries:
        return libraries[name]
    known = ", ".join(libraries) or "none"
    hint = close_match(name, list(libraries))
    raise ScenarioError(
        f"no bundled card library {quoted(name)} (bundled: {known}){hint}; "
        "a library file is named with its .yaml suffix",
        span,
    )


def printed_name(name: str, cards: Mapping[str, CardFile]) -> str:
    """The name printed on card ``name``: the card it copies (``card:``, followed through
    copies of copies), else its own name (a library card's name, when it is one)."""
    seen = {name}
    while True:
        entry = cards.get(name)
        if entry is None or entry.card is None or entry.card in seen:
            return name
        name = entry.card
        seen.add(name)
