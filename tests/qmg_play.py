"""Random legal games of Quartermaster General, for the tests that play many: each exchange's orders
and standing orders drawn at random from what each country holds and may do; and packs with the
cards the seed prints without a country or does not print at all, for the catalogue and for games
that reach the effects the demo pack cannot."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterator

import yaml

from pbem.core.dice import DiceStream
from pbem.core.events import EventLog
from pbem.core.yamlio import Document, parse_document
from pbem.rulesets.qmg.content import BASIC_NAMES, COUNTRIES, Card, Pack, demo_pack
from pbem.rulesets.qmg.play import Turn, discard_choice

TEST_CARDS = (
    {"id": "test-axis-recruit", "country": "germany", "name": "Test Axis Recruit", "type": "event",
     "text": "Test card: Germany recruits an army in Ukraine.",
     "use": {"effect": [{"recruit": {"piece": "army", "space": "Ukraine", "countries": ["germany"]}}]}},
    {"id": "test-economic-warfare", "country": "germany", "name": "Test Economic Warfare",
     "type": "economic_warfare", "text": "Test card: an enemy country discards 2 cards from its hand.",
     "use": {"effect": [{"discard": {"from": "hand", "count": 2}}]}},
    {"id": "test-pacific-recruit", "country": "japan", "name": "Test Pacific Recruit", "type": "event",
     "text": "Test card: Japan recruits an army in India.",
     "use": {"effect": [{"recruit": {"piece": "army", "space": "India", "countries": ["japan"]}}]}},
    {"id": "test-italian-recruit", "country": "italy", "name": "Test Italian Recruit", "type": "event",
     "text": "Test card: Italy recruits an army in Russia.",
     "use": {"effect": [{"recruit": {"piece": "army", "space": "Russia", "countries": ["italy"]}}]}},
    {"id": "test-southern-recruit", "country": "japan", "name": "Test Southern Recruit", "type": "event",
     "text": "Test card: Japan recruits an army in Australia.",
     "use": {"effect": [{"recruit": {"piece": "army", "space": "Australia", "countries": ["japan"]}}]}},
    {"id": "test-start-cost", "country": "soviet_union", "name": "Test Start Cost", "type": "status",
     "text": "Test card: at the start of your turn, discard 1 card from your hand and score 1 VP.",
     "use": {"when": {"event": "start_of_turn", "by": "self"}, "cost": [{"discard": {"from": "hand", "count": 1}}],
             "effect": [{"score": 1}]}},
    {"id": "test-convoy-raid", "country": "soviet_union", "name": "Test Convoy Raid", "type": "status",
     "text": "Test card: in your Play step, instead of playing a card from your hand, discard 1 card from your hand "
             "and play a Sea Battle card from your discard pile.",
     "use": {"when": {"event": "play_step", "by": "self"}, "instead": True,
             "cost": [{"discard": {"from": "hand", "count": 1}}],
             "effect": [{"play_from_discard": {"type": "sea_battle"}}]}},
    {"id": "test-last-stand", "country": "italy", "name": "Test Last Stand", "type": "response",
     "text": "Test card: use when your army is to be removed; discard 1 card from your hand: it is not removed.",
     "use": {"when": {"event": "removal", "piece": "army", "owner": "self"},
             "cost": [{"discard": {"from": "hand", "count": 1}}], "effect": [{"protect": "this_removal"}]}},
    {"id": "test-blockade", "country": "united_states", "name": "Test Blockade", "type": "economic_warfare",
     "text": "Test card: an enemy country discards 2 cards from its draw deck.",
     "use": {"effect": [{"discard": {"from": "deck", "count": 2}}]}},
)
"""Cards of the kinds the seed quotes none of, one to three a country: recruits of Axis armies next to
Moscow and in India and Australia (the conditions of Rasputitsa and Loyalty to the Crown), Economic Warfare from
hand and from deck, a start-of-turn cost, a Response with a cost paid outside its owner's turn, and a Status
like Guard for the Soviet Union's one Sea Battle, which is seldom face up in its pile."""


def pack_with(extra: dict[str, str], added: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> Pack:
    """The demo pack with cards the seed prints without a country given to one (`extra`: card id to
    country), and test cards of kinds the seed quotes none of (`added`)."""
    pack = demo_pack()
    cards, decks = dict(pack.cards), {c: list(d) for c, d in pack.decks.items()}
    for card_id, country in extra.items():
        cards[card_id] = dataclasses.replace(cards[card_id], country=country)
        decks[country].append(card_id)
    for card in added:
        cards[card["id"]] = Card(card["id"], card["country"], card["name"], card["type"], card["text"], card["use"])
        decks[card["country"]].append(card["id"])
    return dataclasses.replace(pack, cards=cards, decks=decks)


def rich_pack() -> Pack:
    """The demo pack, Guard given to the United Kingdom, and the test cards."""
    return pack_with({"guard": "united_kingdom"}, TEST_CARDS)


DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's, where PyYAML has it: several times faster


def document(data: dict[str, Any], name: str) -> Document:
    """Orders as a file named `name` would be read, with the SHA-256 of its bytes."""
    return _document(json.dumps(data), name)


@lru_cache(maxsize=4096)
def _document(data: str, name: str) -> Document:
    """One document for the same orders and name: the games read each file many times."""
    text = yaml.dump(json.loads(data), Dumper=DUMPER, sort_keys=False)
    doc = parse_document(text, name)
    doc.sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return doc


def _names(pack: Pack, country: str, instances: list[str]) -> list[str]:
    return [pack.name(country, c) for c in instances]


def effect_cards(pack: Pack, country: str) -> list[str]:
    """The names of `country`'s Status and Response cards that have an effect to use."""
    return sorted({card.name for i in pack.decks[country] if (card := pack.card(country, i)).use
                   and card.type in ("status", "response")})


def random_entries(pack: Pack, country: str, cards: list[str], hand: list[str], rng: random.Random
                   ) -> list[dict[str, Any]]:
    """Effect entries for most of `cards`, each with places, targets and sometimes the hand cards
    its costs take."""
    entries = []
    for name in cards:
        if rng.random() < 0.8:
            entry: dict[str, Any] = {"card": name, "space": rng.sample(pack.board.order, 6),
                                     "target": rng.sample(COUNTRIES, 3)}
            if hand and rng.random() < 0.4:
                entry["pay"] = _names(pack, country, rng.sample(hand, min(len(hand), rng.randint(1, 2))))
            entries.append(entry)
    return entries


def random_standing(pack: Pack, state: dict[str, Any], country: str, rng: random.Random) -> dict[str, Any]:
    """Standing orders: entries for most cards on the table, or for every card with an effect the
    country has, as a careful player writes them once for the game; and sometimes the cards it
    loses first when forced to discard."""
    zones = state["countries"][country]
    named = _names(pack, country, zones["responses"] + zones["statuses"])
    if rng.random() < 0.5:
        named += [n for n in effect_cards(pack, country) if n not in named]
    orders: dict[str, Any] = {"country": country, "effects": random_entries(pack, country, named, zones["hand"], rng)}
    if zones["hand"] and rng.random() < 0.3:
        orders["forced_discards"] = _names(pack, country, rng.sample(zones["hand"], min(3, len(zones["hand"]))))
    return orders


def _legal(turn: Turn, country: str, card_type: str) -> list[str]:
    """The spaces where a basic card of `card_type` may be played now."""
    piece = "army" if card_type in ("build_army", "land_battle") else "navy"
    if card_type.startswith("build"):
        return [s for s in turn.pack.board.order if not turn.can_build(country, piece, s)]
    kind = "land" if piece == "army" else "sea"
    return [s for s in turn.pack.board.order if not turn.can_battle(country, kind, s)]


def _random_play(turn: Turn, country: str, hand: list[str], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A card of `hand` and how it is played, or discarded when it cannot be played; a card with an
    effect more often than its share, since few are dealt and most of what there is to see is theirs."""
    effects = [c for c in hand if turn.pack.card(country, c).use]
    instance = rng.choice(effects if effects and rng.random() < 0.8 else hand)
    card = turn.pack.card(country, instance)
    spaces = turn.pack.board.order
    choices = {"target": rng.sample(COUNTRIES, 3), "country": rng.sample(COUNTRIES, 2)}
    choices = {key: value for key, value in choices.items() if rng.random() < 0.5}  # else the defaults
    if card.type.startswith(("build", "land", "sea")):
        legal = _legal(turn, country, card.type)
        if legal:
            battle = {} if card.type.startswith("build") else {"target": choices.get("target", [])[:2]}
            return instance, {"card": card.name, "space": rng.choice(legal), **battle}
    elif rng.random() < 0.9:
        return instance, {"card": card.name, "space": rng.sample(spaces, 5), **choices}
    return instance, {"discard": card.name}


def _from_pile(card) -> str | None:
    """The kind of card that `card`, used instead of playing a card, plays from the discard pile."""
    steps = card.use.get("effect") or []
    return next((step["play_from_discard"]["type"] for step in steps if "play_from_discard" in step), None)


def _reallocation(turn: Turn, country: str, hand: list[str], rng: random.Random
                  ) -> tuple[dict[str, Any], list[str]] | None:
    """Reallocate Resources for a basic card the deck holds, and the hand it leaves."""
    deck = turn.zones(country)["deck"]
    basics = sorted({n for c in deck if (n := turn.pack.name(country, c)) in BASIC_NAMES.values()})
    if not basics:
        return None
    take = rng.choice(basics)
    named = rng.sample(hand, min(len(hand), rng.randint(0, 4)))
    taken, _, _ = discard_choice(hand, 4, named)
    found = next(c for c in deck if turn.pack.name(country, c) == take)
    return {"discard": _names(turn.pack, country, named), "take": take}, [c for c in hand if c not in taken] + [found]


def random_orders(pack: Pack, state: dict[str, Any], country: str, rng: random.Random,
                  bold: bool = False) -> dict[str, Any]:
    """Orders drawn at random: a card played where the rules allow it, or discarded. `bold` ones
    also reallocate resources and use a Status instead of playing a card, which a hidden reason
    may refuse (ruling hidden_failures)."""
    zones = state["countries"][country]
    if state["phase"] == "setup":
        return {"country": country, "setup_discard": _names(pack, country, rng.sample(zones["hand"], 3))}
    turn = Turn(pack, state, EventLog(), country, {}, state["options"])
    orders: dict[str, Any] = {"country": country, "effects": random_entries(
        pack, country, _names(pack, country, zones["responses"] + zones["statuses"]), zones["hand"], rng)}
    hand = list(zones["hand"])
    if bold and hand and state["options"]["reallocate_resources"] and rng.random() < 0.3:
        reallocation = _reallocation(turn, country, hand, rng)
        if reallocation:
            orders["reallocate"], hand = reallocation
    instead = [c for c in zones["statuses"] if (pack.card(country, c).use or {}).get("instead")]
    kind = _from_pile(pack.card(country, instead[0])) if instead else None
    places = _legal(turn, country, kind) if bold and kind and rng.random() < 0.8 else []
    played = None
    if places:
        # half the time paid with other cards than the one it plays from the pile, so that only the pile can hold it
        payable = [c for c in hand if rng.random() < 0.5 or pack.card(country, c).type != kind]
        orders["play"] = {"instead": pack.name(country, instead[0]), "space": rng.choice(places),
                          "pay": _names(pack, country, rng.sample(payable, min(len(payable), rng.randint(0, 2))))}
    elif hand:
        played, orders["play"] = _random_play(turn, country, hand, rng)
    orders["discard"] = [pack.name(country, c) for c in hand if c != played and rng.random() < 0.2]
    return orders


@dataclass
class Exchange:
    """One exchange of a game: the state it starts from, the orders of every country it awaits and
    the standing orders of every other."""

    number: int
    state: dict[str, Any]
    orders: dict[str, dict[str, Any]]
    standing: dict[str, dict[str, Any]]

    def orders_file(self, country: str) -> str:
        return f"orders/{self.number:02d}-{country}.yaml"

    @staticmethod
    def standing_file(country: str) -> str:
        return f"standing/{country}.yaml"

    def submissions(self) -> dict[str, Document]:
        return {c: document(o, self.orders_file(c)) for c, o in self.orders.items()}

    def standing_docs(self) -> dict[str, Document]:
        return {c: document(s, self.standing_file(c)) for c, s in self.standing.items()}


def _orders(rules, state: dict[str, Any], country: str, rng: random.Random) -> dict[str, Any]:
    """Bold random orders when the check passes them, else plain ones, which always pass."""
    bold = random_orders(rules.pack, state, country, rng, bold=True)
    if not rules.check_orders(state, {country: document(bold, "bold.yaml")}, {}):
        return bold
    return random_orders(rules.pack, state, country, rng)


def random_options(rules, rng: random.Random) -> dict[str, Any]:
    """A value of every option of the ruleset (`pbem options qmg`)."""
    return {option.name: rng.choice(option.allowed) for option in rules.options()}


def resolve(rules, exchange: Exchange, hidden) -> tuple[dict[str, Any], EventLog]:
    """The exchange played by the ruleset, its events between the first and last the core adds."""
    log = EventLog()
    log.add("turn_start", turn=exchange.number, seed="0" * 64, seed_commitment="0" * 64)
    after = rules.resolve(exchange.state, exchange.submissions(), exchange.standing_docs(), None, log, hidden)
    after["dice"] = {**exchange.state["dice"], "turn": exchange.number + 1}
    log.add("turn_end", awaiting=list(rules.awaiting(after)), state_commitment="c" * 64)
    return after, log


def play_game(rules, seed: int, options: dict[str, Any] | None = None
              ) -> Iterator[tuple[Exchange, dict[str, Any], EventLog]]:
    """Every exchange of one random game to its end, with the state after it and its events."""
    rng = random.Random(seed)
    key = f"{seed:064x}"
    state = rules.opening_state(f"fuzz-{seed}", options or {}, DiceStream(key, "opening"))
    state["dice"] = {"scheme": 2, "commitment": "0" * 64, "turn": 1}
    for number in range(1, 200):
        awaited = rules.awaiting(state)
        if not awaited:
            return
        exchange = Exchange(number, state, {c: _orders(rules, state, c, rng) for c in awaited},
                            {c: random_standing(rules.pack, state, c, rng) for c in COUNTRIES if c not in awaited})
        problems = rules.check_orders(state, exchange.submissions(), exchange.standing_docs())
        assert problems == [], (number, [f"{p.field}: {p.message}" for p in problems])
        after, log = resolve(rules, exchange, DiceStream(key, f"turn {number}"))
        yield exchange, after, log
        state = after
    raise AssertionError("the game did not end within 200 exchanges")
