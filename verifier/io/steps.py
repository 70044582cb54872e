"""History steps read from their sentences: "A activates Raigeki", "B passes", "the chain
resolves (choosing Sangan)", each error placed at the word it concerns."""

from __future__ import annotations

import re

from verifier.errors import ScenarioError, Span
from verifier.io.reading import close_match
from verifier.rules.costs import choosing_words
from verifier.spec.cards import (
    HIDDEN,
    Ability,
    Card,
)
from verifier.spec.rulesystem import RuleSystem
from verifier.spec.scenario import TOP, Step

__all__ = ["StepReader"]


class StepReader:
    """Reads one history sentence: who does what, with which card, target and tributes."""

    ACTIVATE = ("activates", "chains", "uses", "casts", "plays", "puts")
    PASS = ("passes", "does not respond", "does nothing")

    def __init__(
        self,
        text: str,
        origin: Span,
        players: tuple[str, str],
        cards: tuple[Card, ...],
        abilities: list[Ability],
        model: RuleSystem,
        triggers: bool = False,
    ) -> None:
        self.triggers = triggers
        self.text = text
        self.origin = origin
        self.players = players
        self.cards = cards
        self.abilities = abilities
        self.model = model
        self.names = sorted((c.name for c in cards), key=len, reverse=True)

    def error(self, message: str, offset: int = 0) -> ScenarioError:
        return ScenarioError(message, self.origin.shifted(offset))

    def read(self) -> Step:
        text = self.text.rstrip()
        if re.fullmatch(r"(the )?timer runs out|65 seconds pass( without change)?", text):
            return Step("timer", None, text=text, span=self.origin)
        moves = re.fullmatch(r"the turn moves (?:on )?to (\S+)", text)
        if moves:
            return Step("advance", None, how=moves.group(1), text=text, span=self.origin)
        whole, chosen = text, None
        choosing = re.search(r" \(choosing ", text)
        if choosing is not None and text.endswith(")") and "resolves" in text[: choosing.start()]:
            # "... resolves (choosing X)": the card its effect chooses as it resolves.
            name = text[choosing.end() : -1]
            found = [c.index for c in self.cards if c.name == name]
            if not found:
                close = close_match(name, [c.name for c in self.cards])
                raise self.error(f"unknown card '{name}'{close}", choosing.end())
            chosen, text = found[0], text[: choosing.start()]
        resolves = re.fullmatch(r"the (?:chain|stack) resolves(?: \(coins (succeed|fail)\))?", text)
        if resolves:
            how = {"succeed": "heads", "fail": "tails"}.get(resolves.group(1) or "", "")
            return Step("resolve", None, card=chosen, how=how, text=whole, span=self.origin)
        top = re.fullmatch(
            r"the top (?:object|link|of the (?:stack|chain))(?: of the (?:stack|chain))? "
            r"resolves(?: \(coins (succeed|fail)\))?",
            text,
        )
        if top:
            # The link on top when the step is replayed (Magic: the top object of the stack).
            how = {"succeed": "heads", "fail": "tails"}.get(top.group(1) or "", "")
            return Step(
                "resolve", None, card=chosen, how=how, text=whole, span=self.origin, link=TOP
            )
        one = re.fullmatch(
            r"[Cc]hain [Ll]ink (\d{1,4}) resolves(?: \(coins (succeed|fail)\))?", text
        )
        if one:
            how = {"succeed": "heads", "fail": "tails"}.get(one.group(2) or "", "")
            link = int(one.group(1))
            if link < 1:
                raise self.error("Chain Links are numbered from 1", len("Chain Link "))
            return Step(
                "resolve", None, card=chosen, how=how, text=whole, span=self.origin, link=link
            )
        if chosen is not None:
            raise self.error("only a resolution chooses ('the chain resolves (choosing X)')")
        head, _, rest = text.partition(" ")
        if head not in self.players:
            raise self.error(
                f"a history step starts with a player ({' or '.join(self.players)}), not '{head}'"
            )
        player = self.players.index(head)
        offset = len(head) + 1
        if rest in self.PASS:
            return Step("pass", player, text=text, span=self.origin)
        if rest in ("presses resolve", "presses ability resolve"):
            return Step("press", player, text=text, span=self.origin)
        declines = re.match(r"(?:declines|does not activate) ", rest)
        if declines:
            return self.decline(player, offset + declines.end(), text)
        combat = not self.model.battle and self.model.combat_damage is not None
        if combat and re.match(r"(attacks|blocks) |declares no (attackers|blockers)$", rest):
            return self.declaration(player, offset, rest, text)
        attack = re.match(r"attacks (directly )?with ", rest) or re.match(r"attacks ", rest)
        if attack:
            return self.attack(player, offset, rest, text)
        if rest.startswith("turns ") and rest.endswith(" face up"):
            return self.unmorph(player, offset + len("turns "), text)
        if rest.startswith("sets "):
            card, end = self.card_at(offset + len("sets "))
            tributes, (target, _), end = self.clauses(end)
            if target is not None:
                raise self.error("a Set has no target", end)
            return Step(
                "summon",
                player,
                card=card,
                tributes=tributes,
                how="set",
                text=text,
                span=self.origin,
            )
        summon = re.match(r"(?:(normal|tribute|special|flip) )?summons ", rest)
        if summon:
            how = summon.group(1) or "normal"
            start = offset + summon.end()
            card, end = self.card_at(start)
            tributes, (target, _), end = self.clauses(end)
            if target is not None:
                raise self.error("a summon has no target", end)
            return Step(
                "summon", player, card=card, tributes=tributes, how=how, text=text, span=self.origin
            )
        for verb in self.ACTIVATE:
            if rest.startswith(verb + " "):
                start = offset + len(verb) + 1
                card, end = self.card_at(start)
                if self.cards[card].type == "land" and verb == "plays":
                    return self.land(player, card, end, text)
                ability, end, modes = self.which_ability(card, end, start, verb == "casts")
                if verb == "puts" and self.abilities[ability].trigger is None:
                    raise self.error(
                        f"'puts' puts a waiting triggered ability or a copy onto the stack; "
                        f"{self.cards[card].name} is cast or activated",
                        start,
                    )
                tributes, (target, second), end = self.clauses(end)
                return Step(
                    "activate",
                    player,
                    card=card,
                    ability=ability,
                    target=target,
                    tributes=tributes,
                    text=text,
                    span=self.origin,
                    target2=second,
                    modes=modes,
                )
        raise self.error(
            "cannot read this step; write 'A activates CARD [targeting CARD] "
            "[tributing CARD]', 'A passes', 'A summons CARD', 'A presses resolve' or "
            "'the chain resolves'",
            offset,
        )

    def unmorph(self, player: int, start: int, text: str) -> Step:
        """'A turns Exalted Angel face up': Magic's special action (CR 702.37e, 116.2b)."""
        card, end = self.card_at(start)
        if self.text[end:].strip() != "face up":
            raise self.error("turning a creature face up is all the step says", end)
        name = self.cards[card].name
        if not self.cards[card].hidden:
            raise self.error(
                f"{name} is not face-down: only a face-down creature is turned face up "
                "(CR 702.37e)",
                start,
            )
        if self.cards[card].morph is None:
            raise self.error(f"{name} has no morph cost to turn it face up (CR 702.37e)", start)
        return Step("unmorph", player, card=card, text=text, span=self.origin)

    def land(self, player: int, card: int, end: int, text: str) -> Step:
        """'A plays Forest': Magic's land drop, a special action (CR 305.1)."""
        if self.text[end:].strip():
            raise self.error("playing a land is all the step says: no target, no cost", end)
        return Step("land", player, card=card, text=text, span=self.origin)

    def decline(self, player: int, start: int, text: str) -> Step:
        """'A declines X' (or 'A does not activate X'): an optional trigger effect of X that
        is waiting to be placed on the chain is not activated."""
        card, end = self.card_at(start)
        waiting = [a for a in self.abilities if a.card == card and a.trigger is not None]
        label = re.match(r" \(([^)]*)\)", self.text[end:])
        if label:
            wanted = f"{self.cards[card].name} ({label.group(1)})"
            waiting = [a for a in waiting if a.label == wanted]
            end += label.end()
        if len(waiting) != 1:
            what = "no trigger effect" if not waiting else "several trigger effects; name one"
            raise self.error(f"'{self.cards[card].name}' has {what}", start)
        if end < len(self.text.rstrip()):
            raise self.error("unexpected words after the declined card", end)
        return Step(
            "decline", player, card=card, ability=waiting[0].index, text=text, span=self.origin
        )

    def attack(self, player: int, offset: int, rest: str, text: str) -> Step:
        """'A attacks directly with X' or 'A attacks Y with X'."""
        if not self.model.battle:
            raise self.error(f"{self.model.name} has no Battle Phase", offset)
        direct = re.match(r"attacks directly with ", rest)
        if direct:
            attacker, end = self.card_at(offset + direct.end())
            target = None
        else:
            target, end = self.card_at(offset + len("attacks "))
            if not self.text.startswith(" with ", end):
                raise self.error(
                    "write 'A attacks CARD with CARD' or 'A attacks directly with CARD'", end
                )
            attacker, end = self.card_at(end + len(" with "))
        if end < len(self.text.rstrip()):
            raise self.error("unexpected words after the attacking monster", end)
        return Step("attack", player, card=attacker, target=target, text=text, span=self.origin)

    def declaration(self, player: int, offset: int, rest: str, text: str) -> Step:
        """Magic's declarations (CR 508.1, 509.1): 'A attacks with X, Y and Z', 'A declares
        no attackers'; 'B blocks X with Y and Z with W', 'B declares no blockers'."""
        attacking = rest.startswith(("attacks", "declares no attackers"))
        verb = "declare" if attacking else "block"
        if rest.startswith("declares no ") or rest in ("attacks with nothing", "blocks nothing"):
            return Step(verb, player, text=text, span=self.origin)
        lead = "attacks with " if attacking else "blocks "
        if not rest.startswith(lead):
            raise self.error("write 'A attacks with CARD[, CARD and CARD]'", offset)
        chosen: list[int] = []
        end = offset + len(lead)
        while True:
            card, end = self.card_at(end)
            if not attacking:
                if not self.text.startswith(" with ", end):
                    raise self.error("write 'B blocks ATTACKER with BLOCKER[ and ...]'", end)
                blocker, end = self.card_at(end + len(" with "))
                chosen += [blocker, card]
            else:
                chosen.append(card)
            more = re.match(r", | and ", self.text[end:])
            if more is None:
                break
            end += more.end()
        if end < len(self.text.rstrip()):
            raise self.error("unexpected words after the declaration", end)
        if attacking:
            return Step(verb, player, tributes=tuple(sorted(chosen)), text=text, span=self.origin)
        pairs = sorted(zip(chosen[0::2], chosen[1::2], strict=True))
        blockers = [b for b, _ in pairs]
        if len(set(blockers)) != len(blockers):
            raise self.error("a creature blocks one attacker (CR 509.1a)", offset)
        flat = tuple(x for pair in pairs for x in pair)
        return Step(verb, player, tributes=flat, text=text, span=self.origin)

    def card_at(self, start: int) -> tuple[int, int]:
        rest = self.text[start:]
        for name in self.names:
            if rest.startswith(name) and (len(rest) == len(name) or rest[len(name)] in " ("):
                index = next(c.index for c in self.cards if c.name == name)
                return index, start + len(name)
        word = rest.split(" targeting ")[0].split(" tributing ")[0]
        raise self.error(
            f"unknown card '{word}'{close_match(word, [c.name for c in self.cards])}", start
        )

    def which_ability(
        self, card: int, end: int, start: int, casts: bool = False
    ) -> tuple[int, int, tuple[int, ...]]:
        """The ability a step activates, where its name ends, and, for a card with modes
        none of which is named, the modes (the history takes the one legal there). A
        creature that is cast and has abilities: "casts" names the spell, "activates" one
        of its abilities."""
        owned = [
            a for a in self.abilities if a.card == card and (self.triggers or a.trigger is None)
        ]
        if self.cards[card].type == "monster" and any(a.card_activation for a in owned):
            owned = [a for a in owned if a.card_activation == casts] or owned
        stops = "".join(f"| {re.escape(word)} " for word in choosing_words())
        label = re.match(r" \(([^)]*)\)", self.text[end:]) or re.match(
            rf" choosing (.+?)(?= targeting {stops}|$)", self.text[end:].rstrip()
        )
        if label:
            wanted = f"{self.cards[card].name} ({label.group(1)})"
            for a in owned:
                if a.label == wanted:
                    return a.index, end + label.end(), ()
            what = "mode" if label.group(0).startswith(" choosing") else "effect"
            raise self.error(f"'{self.cards[card].name}' has no {what} '{label.group(1)}'", end)
        if not owned:
            triggers = [a for a in self.abilities if a.card == card]
            what = "only trigger effects" if triggers else "nothing to activate"
            raise self.error(f"'{self.cards[card].name}' has {what}", start)
        if len(owned) > 1 and all(a.mode is not None for a in owned):
            return owned[0].index, end, tuple(a.index for a in owned)
        plain = [a for a in owned if a.trigger is None]
        if len(owned) > 1 and len(plain) <= 1:
            # Its one ability to activate, or one of its trigger effects waiting to go on
            # the chain: the one that can be there (as for a mode).
            ordered = [*plain, *(a for a in owned if a.trigger is not None)]
            return ordered[0].index, end, tuple(a.index for a in ordered)
        if len(owned) > 1:
            labels = ", ".join(a.label for a in owned)
            raise self.error(f"which effect? name one of: {labels}", start)
        return owned[0].index, end, ()

    def clauses(self, end: int) -> tuple[tuple[int, ...], tuple[int | None, int | None], int]:
        """The clauses after the card: its cost cards, its target or two, where they end."""
        tributes: list[int] = []
        target: int | None = None
        second: int | None = None
        while end < len(self.text.rstrip()):
            rest = self.text[end:]
            if rest.startswith(" targeting "):
                if target is not None:
                    raise self.error("one 'targeting' per step; name two targets with 'and'", end)
                target, end = self.target_at(end + len(" targeting "))
                if self.text.startswith(" and ", end) and self.card_follows(end + len(" and ")):
                    second, after = self.target_at(end + len(" and "))
                    if second == target:
                        raise self.error(
                            f"'{self.target_name(second)}' is named twice; the targets of one "
                            "spell or ability are different",
                            end + len(" and "),
                        )
                    end = after
            elif rest.startswith(tuple(f" {word} " for word in choosing_words())):
                # The card chosen to pay a cost; "a card" is an unlisted card of the hand.
                start = end + len(rest.split(" ", 2)[1]) + 2
                if self.text.startswith("a card", start) and rest.split(" ")[1] == "discarding":
                    tributes.append(HIDDEN)
                    end = start + len("a card")
                    continue
                card, end = self.card_at(start)
                tributes.append(card)
            elif rest.startswith(" and ") and tributes and not rest.startswith(" and targeting"):
                card, end = self.card_at(end + len(" and "))
                tributes.append(card)
            elif rest.startswith(" on priority"):
                end += len(" on priority")
            else:
                raise self.error(
                    f"unexpected '{rest.strip()}'; expected 'targeting CARD', 'tributing CARD', "
                    "'discarding CARD' or 'banishing CARD'",
                    end + 1,
                )
        return tuple(tributes), (target, second), end

    def card_follows(self, start: int) -> bool:
        """Whether a card's (or a player's) name starts at ``start``."""
        rest = self.text[start:]
        return any(
            rest.startswith(name) and (len(rest) == len(name) or rest[len(name)] in " (")
            for name in (*self.names, *self.players)
        )

    def target_at(self, start: int) -> tuple[int, int]:
        """The target named at ``start``: a card, or a player (CR 115.1: "targeting B"),
        which a target names by the index after the cards'."""
        rest = self.text[start:]

        def ends(name: str) -> bool:
            return rest.startswith(name) and rest[len(name) : len(name) + 1] in ("", " ", "(")

        if not any(ends(name) for name in self.names):  # a card's name comes first
            for p, name in enumerate(self.players):
                if ends(name):
                    return len(self.cards) + p, start + len(name)
        return self.card_at(start)

    def target_name(self, target: int) -> str:
        n = len(self.cards)
        return self.cards[target].name if target < n else self.players[target - n]
