"""Loading abilities: their costs, conditions, filters, triggers, continuous effects and
effect parts, each checked against the rule system and the game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from verifier.effects.verb import verbs
from verifier.errors import ScenarioError, Span
from verifier.io.reading import (
    CARD_TYPES,
    Reader,
    Where,
    card_types,
    close_match,
    listed,
    one_or_more,
    turn_steps,
)
from verifier.io.schema import (
    AbilityFile,
    CardFile,
    ConditionFile,
    ContinuousFile,
    CostFile,
    EffectFile,
    FilterFile,
    ModeFile,
    TriggerFile,
)
from verifier.rules.conditions import DURING, condition_kinds
from verifier.rules.costs import cost_kind, cost_kinds
from verifier.spec.cards import (
    ALL_TYPES,
    Ability,
    Condition,
    Continuous,
    ContinuousKind,
    Cost,
    Effect,
    Filter,
    TriggerSpec,
    Zone,
)
from verifier.spec.mana import parse as parse_mana
from verifier.spec.rulesystem import RuleSystem, SpeedFrom

__all__ = ["AbilityReader", "Loading"]


class AbilityReader(Reader):
    """Reads the abilities of a card entry."""

    def continuous(self, spec: ContinuousFile, where: Where, at: tuple[Any, ...]) -> Continuous:
        """One continuous effect: a negation, a binding, a lock or a protection."""
        path = ("continuous", *at)
        if spec.negate_effects or spec.bind:
            if spec.by is not None:
                raise self.error(
                    "'by' goes with cannot-activate, unaffected or untargetable",
                    where.key(*path, "by"),
                )
            if spec.negate_effects:
                return Continuous(ContinuousKind.NEGATE_EFFECTS, spec.negate_effects)
            return Continuous(ContinuousKind.BIND, "target")
        by = spec.by or "any"
        if spec.cannot_activate is not None:
            kinds = listed(spec.cannot_activate)
            if not kinds:
                raise self.error(
                    "cannot-activate needs at least one kind (spell, trap, monster-effect, "
                    "spell-trap, card)",
                    where.at(*path, "cannot-activate"),
                )
            types: set[str] = set()
            for k in kinds:
                types |= card_types(k)
            return Continuous(ContinuousKind.CANNOT_ACTIVATE, ",".join(kinds), frozenset(types), by)
        if by == "you":
            key = "unaffected" if spec.unaffected is not None else "untargetable"
            raise self.error(
                f"{key} protects from the opponent's effects or anyone's: 'by' takes "
                "opponent or any",
                where.at(*path, "by"),
            )
        if spec.unaffected is not None:
            sources = listed(spec.unaffected)
            if not sources:
                raise self.error(
                    "unaffected needs at least one kind (spells, traps, monsters, other-cards)",
                    where.at(*path, "unaffected"),
                )
            types = set()
            for k in sources:
                types |= set(ALL_TYPES) if k == "other-cards" else {k.rstrip("s")}
            return Continuous(ContinuousKind.UNAFFECTED, ",".join(sources), frozenset(types), by)
        flt = spec.untargetable
        protected = (
            None if flt is None or isinstance(flt, str) else self.filter(flt, where, "continuous")
        )
        what = "this" if protected is None else "filter"
        return Continuous(ContinuousKind.UNTARGETABLE, what, by=by, filter=protected)

    def speed_of(self, kind_name: str, given: str | int | None, where: Where) -> int | None:
        model = self.model
        if model.speed_from == SpeedFrom.KIND:
            if given is not None:
                raise self.error(
                    f"under {model.name} the speed comes from the kind; remove 'speed'",
                    where.at("speed"),
                )
            return model.kinds[kind_name].speed
        if given is None:
            raise self.error(
                f"under {model.name} every spell and ability states its speed "
                f"({', '.join(model.speeds)})",
                where.key(),
            )
        if str(given) not in model.speeds:
            raise self.error(
                f"unknown speed '{given}' (speeds: {', '.join(model.speeds)})", where.at("speed")
            )
        return model.speeds.index(str(given))

    def targets(self, count: int, target: object, where: Where) -> int:
        """How many targets an ability chooses: more than one only with a 'target' filter."""
        if count > 1 and target is None:
            raise self.error(
                f"'targets: {count}' needs 'target' (what each target must be)",
                where.at("targets"),
            )
        return count

    def target_filters(
        self, spec: FilterFile | list[FilterFile] | None, count: int, where: Where
    ) -> dict[str, Any]:
        """An ability's ``target``, ``target2`` and ``targets``: one filter (for each of
        ``count`` targets), or a list of two, one per target (CR 115.1)."""
        if not isinstance(spec, list):
            flt = self.filter(spec, where, "target") if spec else None
            return {"target": flt, "targets": self.targets(count, spec, where)}
        if count != 1:
            raise self.error(
                "a list of two target filters is two targets already; leave out 'targets'",
                where.at("targets"),
            )
        first, second = (self.filter(f, where, "target") for f in spec)
        return {"target": first, "target2": second, "targets": 2}

    def check_mode_labels(self, modes: list[ModeFile], where: Where, path: tuple[Any, ...]) -> None:
        seen: set[str] = set()
        for i, mode in enumerate(modes):
            if mode.label in seen:
                raise self.error(
                    f"two modes are called '{mode.label}'", where.at(*path, i, "label")
                )
            seen.add(mode.label)

    def card_effects(
        self, index: int, name: str, entry: CardFile, where: Where, of_card: bool = False
    ) -> None:
        """The effects a card lists under ``ability`` or ``abilities``, each mode apart;
        ``of_card``: a Spell/Trap's, besides its own activation."""
        listed = [entry.ability] if entry.ability else list(entry.abilities or [])
        base = "ability" if entry.ability else "abilities"
        for i, ability in enumerate(listed):
            sub = Where(where.doc, where.base + ((base,) if entry.ability else (base, i)))
            if where.fallback is not None and not where.has(base):
                fb = where.fallback
                sub = Where(fb.doc, fb.base + ((base,) if entry.ability else (base, i)))
            if ability.modes:
                self.check_mode_labels(ability.modes, sub, ("modes",))
                for m, mode in enumerate(ability.modes):
                    at = Where(sub.doc, (*sub.base, "modes", m))
                    self.abilities.append(
                        self.ability(index, name, ability, at, len(listed), i, mode, of_card)
                    )
            else:
                self.abilities.append(
                    self.ability(index, name, ability, sub, len(listed), i, of_card=of_card)
                )

    def card_activation(
        self, card: int, name: str, entry: CardFile, where: Where, mode: ModeFile | None = None
    ) -> Ability:
        """The activation of a Spell or Trap Card (one per mode, for a card with modes)."""
        assert entry.kind is not None
        spec: CardFile | ModeFile = entry if mode is None else mode
        costs = self.costs(entry.cost, where)
        if mode is not None and mode.cost is not None:
            costs = self.costs([*listed(entry.cost), *listed(mode.cost)], where)
        costs += self.card_mana(entry, where)
        for cost in costs:
            if cost.this:
                raise self.error(
                    f"a {self.model.kinds[entry.kind].card} card does not pay "
                    f"'{cost.kind}: this' (a monster's effect may)",
                    where.at("cost"),
                )
        return Ability(
            index=len(self.abilities),
            card=card,
            label=name if mode is None else f"{name} ({mode.label})",
            kind=entry.kind,
            speed=self.speed_of(entry.kind, entry.speed, where),
            condition=self.condition(spec.when, where) if spec.when else None,
            trigger=None,
            costs=costs,
            effects=self.effects(spec.effect, where, "effect"),
            **self.target_filters(spec.target, entry.targets, where),
            once=entry.once,
            no_response=entry.no_response,
            card_activation=True,
            span=where.key(),
            mode=None if mode is None else mode.label,
            modes_of=-1 if mode is None else 0,
            cannot_be_negated=entry.cannot_be_negated,
            split_second=entry.split_second,
        )

    def ability(
        self,
        card: int,
        name: str,
        spec: AbilityFile,
        where: Where,
        count: int,
        i: int,
        mode: ModeFile | None = None,
        of_card: bool = False,
    ) -> Ability:
        """An effect of a card; ``of_card``: of a Spell/Trap that has its own activation."""
        model = self.model
        kind = model.kinds.get(spec.type)
        effect_kinds = [k for k, v in model.kinds.items() if v.effect]
        if kind is None or not kind.effect:
            raise self.error(
                f"unknown effect type '{spec.type}' under {model.name}"
                f"{close_match(spec.type, effect_kinds, show=True)}",
                where.at("type"),
            )
        label = name if count == 1 else f"{name} ({spec.label or i + 1})"
        if of_card:
            # Told apart from the card's own activation, which has the card's name.
            own = "effect" if count == 1 else f"effect {i + 1}"
            label = f"{name} ({spec.label or own})"
        if mode is not None:
            label = f"{name} ({mode.label})"
            for key in ("when", "target", "effect"):
                if getattr(spec, key) is not None:
                    raise self.error(
                        f"an effect with modes states '{key}' in each mode", where.key(key)
                    )
        trigger = None
        if kind.trigger:
            if spec.trigger is None:
                raise self.error(
                    f"a {spec.type} effect needs 'trigger' (what makes it trigger)", where.key()
                )
            trigger = self.trigger(spec.trigger, spec, where)
        elif spec.trigger is not None:
            raise self.error(
                f"only trigger effects have 'trigger'; '{spec.type}' is not one",
                where.key("trigger"),
            )
        elif spec.optional:
            raise self.error(
                "only trigger effects are optional or mandatory", where.key("optional")
            )
        if spec.mandatory and (kind.trigger or (spec if mode is None else mode).when is None):
            raise self.error(
                "only a Quick Effect with an activation condition ('when') is mandatory (a "
                "trigger effect is mandatory unless 'optional: true')",
                where.key("mandatory"),
            )
        part: AbilityFile | ModeFile = spec if mode is None else mode
        costs = self.costs(spec.cost, where)
        if mode is not None and mode.cost is not None:
            costs = self.costs([*listed(spec.cost), *listed(mode.cost)], where)
        origin = self.zone(spec.from_, where.at("from"))
        self.check_own_costs(costs, origin, where)
        return Ability(
            index=len(self.abilities),
            card=card,
            label=label,
            kind=spec.type,
            speed=self.speed_of(spec.type, spec.speed, where),
            condition=self.condition(part.when, where) if part.when else None,
            trigger=trigger,
            costs=costs,
            effects=self.effects(part.effect, where, "effect"),
            **self.target_filters(part.target, spec.targets, where),
            once=spec.once,
            no_response=spec.no_response,
            card_activation=False,
            span=where.key(),
            origin=origin,
            mode=None if mode is None else mode.label,
            modes_of=-1 if mode is None else i + 1,
            cannot_be_negated=spec.cannot_be_negated,
            mandatory=spec.mandatory,
        )

    def check_own_costs(self, costs: tuple[Cost, ...], origin: Zone, where: Where) -> None:
        """A card pays a cost with itself only from where that cost takes it."""
        for cost in costs:
            home = cost_kind(cost.kind).itself_from
            if not cost.this or home is None or origin is home:
                continue
            place = (
                "on the field"
                if home is Zone.FIELD
                else f"from the {home.label} ('from: {home.label}')"
            )
            raise self.error(
                f"'{cost.kind}: this' needs the effect to be activated {place}",
                where.at("cost"),
            )

    def trigger(self, spec: TriggerFile, ability: AbilityFile, where: Where) -> TriggerSpec:
        events = [spec.event] if isinstance(spec.event, str) else spec.event
        this = spec.card == "this"
        flt = None if isinstance(spec.card, str) else self.filter(spec.card, where, "trigger")
        if ("step-begins" in events) != (spec.step is not None):
            raise self.error(
                "event 'step-begins' and 'step' go together ('at the beginning of' a step)",
                where.at("trigger"),
            )
        if spec.step is not None:
            steps = turn_steps(self.game, self.model)
            if spec.step not in steps:
                raise self.error(self.unknown_step(spec.step, steps), where.at("trigger"))
        return TriggerSpec(
            events=frozenset(events),
            this_card=this,
            filter=flt,
            from_zone=None if spec.from_ == "any" else self.zone(spec.from_, where.at("trigger")),
            optional=ability.optional,
            wording=ability.wording,
            step=spec.step,
            whose=spec.whose,
        )

    def filter(self, spec: FilterFile, where: Where, key: str) -> Filter:
        kinds = [spec.card] if isinstance(spec.card, str) else spec.card
        types: set[str] = set()
        for k in kinds:
            if k not in CARD_TYPES and k not in self.game.words and k not in self.game.card_types:
                own = [w for w, v in self.game.words.items() if v in CARD_TYPES]
                own += sorted(t for t in self.game.card_types if t not in CARD_TYPES)
                raise self.error(
                    f"{self.game.title} has no card type '{k}' (card types: "
                    f"{', '.join([*CARD_TYPES, *own])})",
                    where.at(key),
                )
            types |= card_types(self.word(k))
        if spec.dizzy is not None:
            self.needs("dizzy", where.at(key))
        wanted = None
        if spec.kind is not None:
            wanted = frozenset([spec.kind] if isinstance(spec.kind, str) else spec.kind)
            for name in sorted(wanted):
                if name not in self.model.kinds or self.model.kinds[name].card is None:
                    known = [k for k, v in self.model.kinds.items() if v.card is not None]
                    raise self.error(
                        f"unknown card kind '{name}' under {self.model.name}"
                        + close_match(name, known),
                        where.at(key, "kind"),
                    )
        return Filter(
            types=frozenset(types),
            zone=self.zone(spec.zone, where.at(key)) if spec.zone else None,
            face=None if spec.face in (None, "any") else spec.face,
            controller=spec.controller,
            other=spec.other,
            atk_at_least=spec.atk_at_least,
            atk_at_most=spec.atk_at_most,
            archetype=spec.archetype,
            color=spec.color,
            dizzy=spec.dizzy,
            position=spec.position,
            attacking=spec.attacking,
            direct=spec.direct,
            kinds=wanted,
            level_at_least=spec.level_at_least,
            level_at_most=spec.level_at_most,
            def_at_least=spec.def_at_least,
            def_at_most=spec.def_at_most,
            attributes=one_or_more(spec.attribute),
            monster_types=one_or_more(spec.monster_type),
            **self.players_of(spec, where, key),
        )

    def players_of(self, spec: FilterFile, where: Where, key: str) -> dict[str, Any]:
        """A target filter's players (CR 115.1): with card keys, "any target"; alone,
        "target player" (no card fits)."""
        if spec.player is None:
            return {}
        if key != "target":
            raise self.error(
                "'player' says which players a spell or ability may target; only a "
                "'target' filter takes it",
                where.at(key, "player"),
            )
        return {"players": spec.player, "cards": bool(spec.model_fields_set - {"player"})}

    def condition(self, spec: ConditionFile, where: Where) -> Condition:
        phases, turn = self.phases_of(spec.during, where), spec.turn or "any"
        kind = next((k for k in condition_kinds() if getattr(spec, k.key) is not None), None)
        if kind is None:
            return Condition(DURING, phases=phases, turn=turn)
        made = kind.load(getattr(spec, kind.key), spec, _ConditionLoading(self, where))
        return replace(made, phases=phases, turn=turn, event=kind.event)

    def phases_of(self, during: str | None, where: Where) -> frozenset[str] | None:
        """The phases ``during:`` names: ``main-phase`` (the rule system's Main Phases) or one
        of its phases."""
        if during is None:
            return None
        if during == "main-phase":
            return frozenset(self.model.main_phases)
        if during not in self.model.phases:
            names = ["main-phase", *self.model.phases]
            raise self.error(
                f"unknown phase '{during}' in 'during'{close_match(during, names, show=True)}",
                where.at("when", "during"),
            )
        return frozenset({during})

    def costs(self, spec: CostFile | list[CostFile] | None, where: Where) -> tuple[Cost, ...]:
        listed = [] if spec is None else [spec] if not isinstance(spec, list) else spec
        out = []
        loading = _CostLoading(self, where)
        for cost in listed:
            kind = next(k for k in cost_kinds() if getattr(cost, k.key) is not None)
            made = kind.load(getattr(cost, kind.key), loading)
            out.append(replace(made, chooses=kind.chooses and not made.this))
        if sum(1 for c in out if c.chooses) > 1:
            raise self.error(
                "at most one cost that chooses a card (tribute, discard or banish)",
                where.at("cost"),
            )
        return tuple(out)

    def card_mana(self, entry: CardFile, where: Where) -> tuple[Cost, ...]:
        """The mana cost of casting the card (``mana:``), as a cost of its activation."""
        if entry.mana is None:
            return ()
        return (self.mana_cost(entry.mana, where.at("mana")),)

    def mana_cost(self, text: str, span: Span) -> Cost:
        """A mana cost (``{1}{U}{U}``): its generic part and its coloured symbols."""
        parsed = parse_mana(text)
        if parsed is None:
            raise self.error(
                f"'{text}' is not a mana cost: write symbols such as {{1}}{{U}}{{U}} or 2G "
                "(a number for generic mana; W, U, B, R, G, C)",
                span,
            )
        generic, counts = parsed
        return Cost("mana", amount=generic, mana=counts)

    def effects(
        self,
        spec: EffectFile | list[EffectFile] | None,
        where: Where,
        key: str,
        path: tuple[Any, ...] | None = None,
    ) -> tuple[Effect, ...]:
        listed = [] if spec is None else [spec] if not isinstance(spec, list) else spec
        path = (key,) if path is None else path
        if listed and listed[0].simultaneous:
            first = (*path, 0) if isinstance(spec, list) else path
            raise self.error(
                "'simultaneous' joins a part to the part before it; the first part has none",
                where.key(*first, "simultaneous"),
            )
        return tuple(
            self.effect(e, where, key, (*path, i) if isinstance(spec, list) else path)
            for i, e in enumerate(listed)
        )

    def effect(
        self, spec: EffectFile, where: Where, key: str, path: tuple[Any, ...] | None = None
    ) -> Effect:
        verb = next(v for v in verbs() if getattr(spec, v.key) is not None)
        loading = Loading(self, where, key)
        fields = verb.load(getattr(spec, verb.key), spec, loading)
        if not verb.branches and (spec.then is not None or spec.otherwise is not None):
            takers = " and ".join(v.name for v in verbs() if v.branches)
            raise loading.fail(f"only {takers} takes then/otherwise")
        for need in verb.needs:
            if not need.holds(self.model):
                raise loading.fail(need.message.format(verb=verb.name, model=self.model.name))
        if spec.cannot_be_regenerated and verb.name != "destroy":
            raise loading.fail("only what 'destroy' destroys 'cannot-be-regenerated'")
        if fields.get("obj") == "chosen":
            if spec.filter is None:
                raise loading.fail(
                    "'chosen' needs a 'filter': the cards its controller may choose from"
                )
            if self.model.immediate or self.model.instant:
                raise loading.fail(
                    f"'chosen' (a card chosen as the effect resolves) is not supported under "
                    f"{self.model.name}, where some effects resolve as they are activated"
                )
        return Effect(
            verb=verb.name,
            of=spec.of,
            filter=self.filter(spec.filter, where, key) if spec.filter else None,
            to=Zone.named(self.word(spec.to)) if spec.to else None,
            player=spec.player,
            heads_at_least=spec.heads_at_least,
            then=self.effects(spec.then, where, key, None if path is None else (*path, "then")),
            otherwise=self.effects(
                spec.otherwise, where, key, None if path is None else (*path, "otherwise")
            ),
            simultaneous=spec.simultaneous,
            **fields,
        )

    # -- history ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Loading:
    """What a verb's loader may ask while one effect part is loaded: an error placed at it."""

    loader: Reader
    where: Where
    key: str

    def fail(self, message: str) -> ScenarioError:
        return self.loader.error(message, self.where.at(self.key))


class _CostLoading:
    """What a cost kind's loader may ask (:class:`verifier.rules.costs.Loading`), placed at
    the ``cost`` of the entry being read."""

    def __init__(self, reader: AbilityReader, where: Where) -> None:
        self.reader, self.where = reader, where

    def fail(self, message: str) -> Exception:
        return self.reader.error(message, self.where.at("cost"))

    def filter(self, value: Any) -> Filter:
        return self.reader.filter(value, self.where, "cost")

    def says(self, value: Any, key: str) -> bool:
        return isinstance(value, FilterFile) and key in value.model_fields_set

    def needs(self, field: str) -> None:
        self.reader.needs(field, self.where.at("cost"))

    def mana(self, value: str) -> Cost:
        return self.reader.mana_cost(value, self.where.at("cost"))


class _ConditionLoading:
    """What a condition kind's loader may ask (:class:`verifier.rules.conditions.Loading`),
    placed at the ``when`` of the entry being read."""

    def __init__(self, reader: AbilityReader, where: Where) -> None:
        self.reader, self.where = reader, where

    @property
    def model(self) -> RuleSystem:
        return self.reader.model

    def fail(self, message: str, key: str | None = None) -> Exception:
        place = self.where.at("when") if key is None else self.where.at("when", key)
        return self.reader.error(message, place)

    def cards(self, value: Any) -> Filter:
        if isinstance(value, str):
            return Filter(types=frozenset(card_types(value)))
        return self.reader.filter(value, self.where, "when")

    def types(self, value: Any) -> frozenset[str]:
        kinds = [value] if isinstance(value, str) else value
        return frozenset(t for k in kinds for t in card_types(k))

    def includes(self, names: list[str] | None) -> frozenset[str]:
        known = [v.name for v in verbs()]
        for name in names or ():
            verb, _, zone = name.partition(" from ")
            if verb not in known:
                raise self.fail(
                    f"unknown effect '{verb}' in 'includes'" + close_match(verb, known, show=True),
                    "includes",
                )
            if zone and zone.upper() not in Zone.__members__:
                zones = [z.name.lower() for z in Zone if z is not Zone.NONE]
                raise self.fail(
                    f"unknown zone '{zone}' in 'includes' (zones: {', '.join(zones)})", "includes"
                )
        return frozenset(names or ())
