"""Reading a country's orders and standing orders: every problem at once, each naming its field;
and the canonical form of what they decide (names resolved), which the turn is played from."""

from __future__ import annotations

import difflib
from collections import Counter
from typing import Any

from pbem.core.errors import Problem
from pbem.core.yamlio import Document
from pbem.rulesets.qmg.content import BASIC_NAMES, BASIC_TYPES, COUNTRIES, TEAMS, Card, Pack
from pbem.rulesets.qmg.play import Turn, discard_choice, named_cards
from pbem.rulesets.qmg.turn import REALLOCATE_DISCARDS

WHEN_FIELDS = ("space", "kind", "target", "removed", "owner", "piece", "by", "how", "cause", "team")


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=3)
    return ", ".join(close) if close else ", ".join(choices[:12]) + (" ..." if len(choices) > 12 else "")


class Reader:
    """Resolves a country's card and space names against the pack, collecting problems."""

    def __init__(self, pack: Pack, doc: Document, country: str):
        self.pack, self.doc, self.country = pack, doc, country
        self.problems: list[Problem] = []
        self.space_names = {name.lower(): name for name in pack.board.order}
        self.cards = {}  # every spelling of the country's cards that may be named, to the card name
        for instance in pack.decks[country]:
            card = pack.card(country, instance)
            for spelling in (card.name, card.id.split(":")[-1]):
                self.cards[spelling.lower()] = card.name

    def problem(self, field: tuple, message: str, allowed: str | None = None) -> None:
        self.problems.append(self.doc.problem(field, message, allowed))

    def space(self, field: tuple, name: Any) -> str | None:
        found = self.space_names.get(str(name).lower())
        if found is None:
            self.problem(field, f"{name!r} is not a space of the board", _suggest(str(name), self.pack.board.order))
        return found

    def spaces(self, field: tuple, names: Any) -> list[str]:
        if isinstance(names, str):
            found = self.space(field, names)
            return [found] if found else []
        return [s for i, n in enumerate(names) if (s := self.space(field + (i,), n))]

    def card(self, field: tuple, name: Any) -> str | None:
        found = self.cards.get(str(name).lower())
        if found is None:
            self.problem(field, f"{name!r} is not a card of {self.country}'s deck",
                         _suggest(str(name), sorted(set(self.cards.values()))))
        return found

    def card_id(self, field: tuple, name: Any) -> str | None:
        """The id of one of the country's own Status or Response cards (the cards with effects)."""
        found = self.card(field, name)
        if found is None:
            return None
        card = next(self.pack.card(self.country, i) for i in self.pack.decks[self.country]
                    if self.pack.card(self.country, i).name == found)
        if card.use is None or card.type not in ("status", "response"):
            self.problem(field, f"{found} is a {card.type.replace('_', ' ')} card: only Status and Response "
                         "cards have effects to use from the table")
            return None
        return card.id

    def in_hand(self, field: tuple, names: list[Any], hand: list[str]) -> list[str]:
        """The named cards that are in hand (as many copies as named); each one named that is not
        is a problem, and left out, so that the cards returned can be taken from the hand."""
        have = Counter(self.pack.name(self.country, c) for c in hand)
        wanted = []
        for i, name in enumerate(names):
            found = self.card(field + (i,), name)
            if found is None:
                continue
            if have[found] == 0:
                self.problem(field + (i,), f"{found} is not in {self.country}'s hand" +
                             (" as many times as named" if found in wanted else ""),
                             ", ".join(sorted(self.pack.name(self.country, c) for c in hand)) or "the hand is empty")
                continue
            have[found] -= 1
            wanted.append(found)
        return wanted

    def countries(self, field: tuple, names: Any) -> list[str]:
        listed = [names] if isinstance(names, str) else list(names)
        for i, name in enumerate(listed):
            if name not in COUNTRIES:
                self.problem(field if isinstance(names, str) else field + (i,), f"{name!r} is not a country",
                             ", ".join(COUNTRIES))
        return [n for n in listed if n in COUNTRIES]

    def choice(self, field: tuple, data: dict[str, Any]) -> dict[str, Any]:
        """The choices an effect or card play leaves to its owner, resolved."""
        out: dict[str, Any] = {}
        if "space" in data:
            out["space"] = self.spaces(field + ("space",), data["space"])
        for key in ("target", "country"):
            if key in data:
                out[key] = self.countries(field + (key,), data[key])
        if "pay" in data:
            out["pay"] = [c for i, n in enumerate(data["pay"]) if (c := self.card(field + ("pay", i), n))]
        if data.get("skip"):
            out["skip"] = True
        if "steps" in data:
            out["steps"] = [self.choice(field + ("steps", i), step) for i, step in enumerate(data["steps"])]
        return out

    def effects(self, field: tuple, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for i, entry in enumerate(entries):
            card = self.card_id(field + (i, "card"), entry["card"])
            when = {}
            for key, value in (entry.get("when") or {}).items():
                if key not in WHEN_FIELDS:
                    self.problem(field + (i, "when", key), f"unknown condition {key!r}", ", ".join(WHEN_FIELDS))
                elif key == "space":
                    spaces = self.spaces(field + (i, "when", key), value)
                    when[key] = spaces[0] if isinstance(value, str) and spaces else spaces
                else:
                    when[key] = value
            if card:
                out.append({"card": card, **({"when": when} if when else {}), **self.choice(field + (i,), entry),
                            **self.timing(field + (i,), entry)})
        return out

    def timing(self, field: tuple, entry: dict[str, Any]) -> dict[str, Any]:
        """When an entry's card is used within a window: after which teammates (the team's choice of
        its order, seed l.879-880), not at its first chance, and while the board is so."""
        out: dict[str, Any] = {}
        if "after" in entry:
            teammates = [c for c in COUNTRIES if TEAMS[c] == TEAMS[self.country] and c != self.country]
            named = self.countries(field + ("after",), entry["after"])
            for i, country in enumerate(named):
                if country not in teammates:
                    self.problem(field + ("after", i), f"{country} is not a teammate of {self.country}: `after` "
                                 "orders the team's own effects in a window (seed l.879-880, ruling team_order); "
                                 "the teams alternate, the team that did not cause the condition first",
                                 ", ".join(teammates))
            out["after"] = [c for c in named if c in teammates]
        if entry.get("later"):
            out["later"] = True
        if "board" in entry:
            space = self.space(field + ("board", "space"), entry["board"]["space"])
            if space:
                out["board"] = {**entry["board"], "space": space}
        return out


def read_orders(pack: Pack, state: dict[str, Any], doc: Document, options: dict[str, Any]
                ) -> tuple[dict[str, Any], list[Problem]]:
    """A country's orders for the awaited exchange, canonical, and every problem with them."""
    data = doc.data
    country = data["country"]
    r = Reader(pack, doc, country)
    zones = state["countries"][country]
    out: dict[str, Any] = {"country": country}
    if state["phase"] == "setup":
        for key in ("play", "effects", "discard", "reallocate"):
            if key in data:
                r.problem((key,), "the setup exchange takes only setup_discard", "setup_discard: [3 cards]")
        if "setup_discard" not in data:
            r.problem((), "missing required field 'setup_discard'", "the 3 cards of the 10 dealt to discard")
        else:
            out["setup_discard"] = r.in_hand(("setup_discard",), data["setup_discard"], zones["hand"])
        return out, r.problems
    if "setup_discard" in data:
        r.problem(("setup_discard",), "the setup discards were made before round 1", "play, effects, discard")
    hand = list(zones["hand"])
    if "reallocate" in data:
        if not options["reallocate_resources"]:
            r.problem(("reallocate",), "this game does not play the optional rule Reallocate Resources (option "
                      "reallocate_resources is off)",
                      "pbem new qmg ... --option reallocate_resources=true")
        named = r.in_hand(("reallocate", "discard"), data["reallocate"].get("discard") or [], hand)
        take = data["reallocate"]["take"]
        if take not in BASIC_NAMES.values():
            r.problem(("reallocate", "take"), f"{take!r} cannot be searched for", ", ".join(BASIC_NAMES.values()))
        out["reallocate"] = {"discard": named, "take": take}
        # the rest of the orders see the hand after the reallocation, its discards taken as the turn takes them
        taken, _, _ = discard_choice(hand, REALLOCATE_DISCARDS, named_cards(pack, country, hand, named))
        hand = [c for c in hand if c not in taken]
        found = [c for c in zones["deck"] if pack.name(country, c) == take]
        if take in BASIC_NAMES.values() and not found:
            # the country knows its deck's cards (not their order): a search it knows will fail is refused here,
            # in the answer only its player reads, since failing it would show every player what the deck lacks
            r.problem(("reallocate", "take"), f"no {take} card is left in {country}'s draw deck (ruling "
                      "hidden_failures: refused now, in your answer alone)",
                      _deck_names(pack, country, zones["deck"]))
        hand += found[:1]
    pieces = state["pieces"]
    remove = r.spaces(("remove",), data.get("remove") or [])
    for i, space in enumerate(remove):
        if not any(p["country"] == country for p in pieces.get(space, [])):
            r.problem(("remove", i), f"{country} has no piece in {space} to take off")
    if remove:
        out["remove"] = remove
        # the card is played on the board as the withdrawals leave it
        state = {**state, "pieces": {space: [p for p in here if not (space in remove and p["country"] == country)]
                                     for space, here in pieces.items()}}
    play = data.get("play")
    if play is None:
        if hand or out.get("reallocate"):
            r.problem((), "missing required field 'play'", "play: {card: ...}, play: {discard: ...} or "
                      "play: {instead: STATUS}: the Play step must play or discard one card")
    else:
        out["play"] = _read_play(r, pack, state, country, play, hand, options)
    out["effects"] = r.effects(("effects",), data.get("effects") or [])
    discard = data.get("discard") or []
    played = out.get("play", {}).get("card") or out.get("play", {}).get("discard")
    rest = list(hand)
    if played in [pack.name(country, c) for c in rest]:
        rest.remove(next(c for c in rest if pack.name(country, c) == played))
    out["discard"] = r.in_hand(("discard",), discard, rest)
    return out, r.problems


def _read_play(r: Reader, pack: Pack, state: dict[str, Any], country: str, play: dict[str, Any],
               hand: list[str], options: dict[str, Any]) -> dict[str, Any]:
    kinds = [k for k in ("card", "discard", "instead") if k in play]
    if len(kinds) != 1:
        r.problem(("play",), "the Play step plays one card, discards one, or uses one Status instead",
                  "exactly one of card, discard, instead")
        return {}
    kind = kinds[0]
    if kind == "instead":
        card_id = r.card_id(("play", "instead"), play["instead"])
        if card_id is None:
            return {}
        card = pack.cards[card_id]
        out = {"instead": card_id, **r.choice(("play",), play)}
        if not (card.use or {}).get("instead"):
            r.problem(("play", "instead"), f"{card.name} does not replace the playing of a card")
        elif card_id not in state["countries"][country]["statuses"]:
            r.problem(("play", "instead"), f"{card.name} is not on {country}'s table: a Status is used only "
                      "from the table, from the turn after it is laid (seed l.1002-1008)")
        else:
            for kind in _from_discard(r, pack, state, country, card, out.get("pay"), hand):
                _where(r, pack, state, country, kind, BASIC_NAMES[kind], play, out, options)
        return out
    named = r.in_hand(("play", kind), [play[kind]], hand)
    if not named:
        return {}
    out = {kind: named[0], **r.choice(("play",), play)}
    if kind == "discard":
        return out
    instance = next(c for c in hand if pack.name(country, c) == named[0])
    card = pack.card(country, instance)
    _where(r, pack, state, country, card.type, card.name, play, out, options)
    return out


def _where(r: Reader, pack: Pack, state: dict[str, Any], country: str, card_type: str, name: str,
           play: dict[str, Any], out: dict[str, Any], options: dict[str, Any]) -> None:
    """The one space where a Build or Battle card played now acts, or the piece a Build card names
    as newly built, read into `out` and checked against the board."""
    if "existing" in play:
        if card_type not in ("build_army", "build_navy"):
            r.problem(("play", "existing"), "only a Build card may name an existing piece as newly built")
        else:
            out["existing"] = r.space(("play", "existing"), play["existing"])
    if card_type in BASIC_TYPES and "existing" not in out:
        spaces = out.get("space") or []
        if len(spaces) != 1:
            r.problem(("play", "space"), f"{name} needs the one space it acts on", "space: SPACE")
            return
        turn = Turn(pack, state, None, country, {}, options)  # legality only: nothing is changed
        piece = "army" if card_type in ("build_army", "land_battle") else "navy"
        why = turn.can_build(country, piece, spaces[0]) if card_type.startswith("build") else \
            turn.can_battle(country, "land" if piece == "army" else "sea", spaces[0])
        if why:
            r.problem(("play", "space"), f"{name} in {spaces[0]} is not allowed now: {why}")
        out["space"] = spaces[0]


def _from_discard(r: Reader, pack: Pack, state: dict[str, Any], country: str, card: Card, pay: list[str] | None,
                  hand: list[str]) -> list[str]:
    """The types of the cards that `card` plays from the discard pile (Guard's Build Army).

    Each must be there when its step comes. Failing then would tell every player that none of the
    country's face-down discards is one, so an order the country can know to fail is refused here,
    in the answer only its player reads: the country knows its pile and the hand cards the costs
    take, and nobody knows the deck's top, so a cost paid partly from the deck may hold the card."""
    wanted = [step["play_from_discard"]["type"] for step in card.use.get("effect") or []
              if "play_from_discard" in step]
    pile, unknown = [d["card"] for d in state["countries"][country]["discard"]], 0
    for cost in card.use.get("cost") or []:
        discard = cost["discard"]
        taken, _, from_deck = discard_choice(hand, discard["count"], named_cards(pack, country, hand, pay)) \
            if discard["from"] == "hand" else ([], 0, discard["count"])
        hand = [c for c in hand if c not in taken]
        pile, unknown = pile + taken, unknown + from_deck
    have = Counter(pack.card(country, c).type for c in pile)
    for kind, count in Counter(wanted).items():
        if have[kind] < count and not unknown:
            r.problem(("play", "instead"), f"{card.name} plays a {BASIC_NAMES.get(kind, kind)} card from "
                      f"{country}'s discard pile, and neither the pile nor the cards it discards from hand "
                      "hold one (ruling hidden_failures: refused now, in your answer alone)",
                      "play or discard a card from hand")
    return [kind for kind in wanted if kind in BASIC_TYPES]


def _deck_names(pack: Pack, country: str, deck: list[str]) -> str:
    """The basic cards a deck holds, for a search to take one of."""
    return ", ".join(sorted({pack.name(country, c) for c in deck} & set(BASIC_NAMES.values()))) or \
        "none: the deck holds no Build or Battle card"


def read_standing(pack: Pack, doc: Document) -> tuple[dict[str, Any], list[Problem]]:
    r = Reader(pack, doc, doc.data["country"])
    forced = [c for i, n in enumerate(doc.data.get("forced_discards") or [])
              if (c := r.card(("forced_discards", i), n))]
    return {"country": doc.data["country"], "effects": r.effects(("effects",), doc.data.get("effects") or []),
            **({"forced_discards": forced} if forced else {})}, r.problems
