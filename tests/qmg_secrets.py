"""One country's secrets changed and nothing else, for the pairs of test_qmg_pairs.py: its deck's
order below the cards it gives this exchange, a hand card it keeps swapped with a deck card below
them, a face-down discard (or all of one name) or face-down Response swapped likewise, standing orders that do not fire,
the cards it gives up first when forced to discard, and in its own exchange the choices that only
it sees: which cards it discards or pays with, which Response it lays, and the places its effects
would prefer but cannot use.

Each change takes an exchange and returns a changed copy, or None where it has nothing to change.
Whether the change kept to secrets (the country's orders still valid, its public decisions the
same) is for `secret_pair` to find by playing it."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any, Callable

from qmg_play import Exchange, effect_cards, random_entries, resolve

from pbem.core.hidden import hidden_stream
from pbem.rulesets.qmg.content import COUNTRIES, Pack

HIDDEN_KEY = "4b" * 32
"""The hidden key of every game the pairs play: both sides shuffle alike."""
USES = ("effect_used", "response_laid", "piece_withdrawn")
"""The events by which a country's use of its cards and pieces becomes public: a change of its
secrets alone leaves them as they were."""
PLAYS = USES + ("card_played",)
"""With the card it plays: a change of its own choices leaves that too."""
WHERE = PLAYS + ("battle", "built", "recruited")
"""With where its effects act and on whom: a change of its preferences leaves that, and the whole
position as everyone sees it, too."""


@dataclass
class Secrets:
    """One country's secrets in an exchange, as it was played."""

    pack: Pack
    exchange: Exchange
    events: list[dict[str, Any]]
    after: dict[str, Any]
    country: str
    rng: random.Random

    def zones(self, exchange: Exchange) -> dict[str, Any]:
        return exchange.state["countries"][self.country]

    def name(self, instance: str) -> str:
        return self.pack.name(self.country, instance)

    def given(self) -> int:
        """How many cards the top of the country's deck gives this exchange (drawn or discarded):
        only the order below them is its secret."""
        return sum(e["count"] for e in self.events if e.get("country") == self.country and "to" not in e and
                   (e["type"] == "cards_drawn" or e["type"] == "cards_discarded" and e["source"] == "deck"))

    def below(self) -> list[int]:
        return list(range(self.given(), len(self.zones(self.exchange)["deck"])))

    def kept(self, zone: str) -> list[int]:
        """The places in `zone` of the cards that stay there through the exchange."""
        stays = set(self.after["countries"][self.country][zone])
        return [i for i, c in enumerate(self.zones(self.exchange)[zone]) if c in stays]

    def acting(self, exchange: Exchange) -> bool:
        return self.country in exchange.orders

    def entries(self, exchange: Exchange) -> list[dict[str, Any]]:
        """The country's effect entries: its orders' in its own exchange, else its standing orders'."""
        files = exchange.orders if self.acting(exchange) else exchange.standing
        return files[self.country].setdefault("effects", [])


Change = Callable[[Secrets, Exchange], Exchange | None]


def _swap(sec: Secrets, exchange: Exchange, places: list[tuple[str, int]], others: list[tuple[str, int]],
          fits: Callable[[str], bool] = lambda card: True) -> Exchange | None:
    """`exchange` with a card at one of `places` swapped with one of another name at `others` that
    `fits`; places name a zone and an index (a discard's card, face down, stays face down)."""
    changed = copy.deepcopy(exchange)
    zones = sec.zones(changed)

    def card(where: tuple[str, int]) -> str:
        zone, index = where
        return zones[zone][index]["card"] if zone == "discard" else zones[zone][index]

    def put(where: tuple[str, int], value: str) -> None:
        zone, index = where
        if zone == "discard":
            zones[zone][index]["card"] = value
        else:
            zones[zone][index] = value

    pairs = [(a, b) for a in places for b in others if sec.name(card(a)) != sec.name(card(b)) and fits(card(b))]
    if not pairs:
        return None
    a, b = sec.rng.choice(pairs)
    first, second = card(a), card(b)
    put(a, second)
    put(b, first)
    return changed


def deck_order(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """The deck below the cards it gives this exchange, in another order."""
    changed = copy.deepcopy(exchange)
    deck = sec.zones(changed)["deck"]
    below = deck[sec.given():]
    if len({sec.name(c) for c in below}) < 2:
        return None
    shuffled = list(below)
    while [sec.name(c) for c in shuffled] == [sec.name(c) for c in below]:
        sec.rng.shuffle(shuffled)
    deck[sec.given():] = shuffled
    return changed


def hand_card(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """A card the hand keeps through the exchange swapped with one of the deck below its draws."""
    return _swap(sec, exchange, [("hand", i) for i in sec.kept("hand")], [("deck", i) for i in sec.below()])


def _hidden_places(sec: Secrets) -> list[tuple[str, int]]:
    """Where the country's cards lie that nobody else sees and the exchange leaves in place: the
    hand cards it keeps and the deck below its draws."""
    return [("hand", i) for i in sec.kept("hand")] + [("deck", i) for i in sec.below()]


def face_down_discard(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """A face-down card of the discard pile swapped with a hand card kept or one of the deck below
    its draws."""
    pile = sec.zones(exchange)["discard"]
    return _swap(sec, exchange, [("discard", i) for i, d in enumerate(pile) if d["face"] == "down"],
                 _hidden_places(sec))


def face_down_kind(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """Every face-down card of one name in the discard pile swapped with cards of other names from
    the hand cards kept and the deck below its draws: the pile holds none of that card."""
    changed = copy.deepcopy(exchange)
    zones = sec.zones(changed)
    down = [d for d in zones["discard"] if d["face"] == "down"]
    if not down:
        return None
    name = sec.name(sec.rng.choice(down)["card"])
    going = [d for d in down if sec.name(d["card"]) == name]
    coming = [(zone, i) for zone, i in _hidden_places(sec) if sec.name(zones[zone][i]) != name]
    if len(coming) < len(going):
        return None
    for discard, (zone, index) in zip(going, sec.rng.sample(coming, len(going))):
        discard["card"], zones[zone][index] = zones[zone][index], discard["card"]
    return changed


def face_down_response(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """A face-down Response that stays on the table swapped with another Response from the hand
    (one it keeps), the deck below its draws or the face-down discards."""
    pile = sec.zones(exchange)["discard"]
    others = _hidden_places(sec) + [("discard", i) for i, d in enumerate(pile) if d["face"] == "down"]
    return _swap(sec, exchange, [("responses", i) for i in sec.kept("responses")], others,
                 lambda card: sec.pack.card(sec.country, card).type == "response")


def _after_own_card(entries: list[dict[str, Any]], card: str) -> int:
    """The first place after every entry for `card`: an entry there is consulted for the card only
    when none before it fits, so it never takes another's place."""
    return max((i + 1 for i, entry in enumerate(entries) if entry["card"] == card), default=0)


def idle_entries(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """Effect entries added, for cards the country holds or not, with conditions, places and
    targets at random, each after those for its card: they must not fire."""
    changed = copy.deepcopy(exchange)
    cards = effect_cards(sec.pack, sec.country)
    if not cards:
        return None
    entries = sec.entries(changed)
    for entry in random_entries(sec.pack, sec.country, sec.rng.sample(cards, min(2, len(cards))) * 2,
                                sec.zones(changed)["hand"], sec.rng):
        if sec.rng.random() < 0.3:
            entry["when"] = {"space": sec.rng.choice(sec.pack.board.order)}
        entries.insert(sec.rng.randint(_after_own_card(entries, entry["card"]), len(entries)), entry)
    return changed


def dropped_entry(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """The last effect entry for a card left out: it must not have fired."""
    changed = copy.deepcopy(exchange)
    entries = sec.entries(changed)
    last = [i for i, entry in enumerate(entries) if _after_own_card(entries, entry["card"]) == i + 1]
    if not last:
        return None
    entries.pop(sec.rng.choice(last))
    return changed


def forced_discards(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """Other cards given up first when an enemy card forces a discard."""
    if sec.acting(exchange) or not sec.zones(exchange)["hand"]:
        return None
    changed = copy.deepcopy(exchange)
    hand = sec.zones(changed)["hand"]
    changed.standing[sec.country]["forced_discards"] = [sec.name(c) for c in sec.rng.sample(hand, min(3, len(hand)))]
    return changed


def _other_names(sec: Secrets, hand: list[str], count: int, besides: list[str]) -> list[str] | None:
    """`count` names of hand cards, other than `besides` and not all of them as they were."""
    pool = [c for c in hand if sec.name(c) not in besides]
    return [sec.name(c) for c in sec.rng.sample(pool, count)] if len(pool) >= count else None


def own_choices(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """In the country's own exchange, one choice that only it sees made otherwise: its setup,
    reallocation or Discard step discards, the card it discards or the Response it lays in its Play
    step, or the hand cards that pay a cost; each from the cards its orders name for nothing else."""
    if not sec.acting(exchange):
        return None
    changed = copy.deepcopy(exchange)
    orders = changed.orders[sec.country]
    play = orders.get("play") or {}
    owners = [orders, orders.get("reallocate") or {}, play, *(orders.get("effects") or [])]
    lists = [(owner, key) for owner in owners for key in ("setup_discard", "discard", "pay")
             if isinstance(owner.get(key), list) and owner[key]]
    choices = lists + [(play, key) for key in ("discard", "card") if key in play and
                       (key == "discard" or sec.pack.card(sec.country, _instance(sec, play[key])).type == "response")]
    if not choices:
        return None
    owner, key = sec.rng.choice(choices)
    taken = {play.get("card"), play.get("discard")} | {name for o, k in lists for name in o[k]}
    pool = [c for c in sec.zones(changed)["hand"] if sec.name(c) not in taken and
            (key != "card" or sec.pack.card(sec.country, c).type == "response")]
    count = len(owner[key]) if isinstance(owner[key], list) else 1
    if len(pool) < count:
        return None
    chosen = [sec.name(c) for c in sec.rng.sample(pool, count)]
    owner[key] = chosen if isinstance(owner[key], list) else chosen[0]
    return changed


def _instance(sec: Secrets, name: str) -> str:
    return next(i for i in sec.pack.decks[sec.country] if sec.name(i) == name)


def preferences(sec: Secrets, exchange: Exchange) -> Exchange | None:
    """Places, targets and recruiting countries added after those the country's effects and card
    play prefer: where its effects act, and on whom, must not change."""
    changed = copy.deepcopy(exchange)
    play = (changed.orders.get(sec.country) or {}).get("play")
    entries = sec.entries(changed) + ([play] if play else [])
    if not entries:
        return None
    for entry in entries:
        if not isinstance(entry.get("space"), str):  # a card from hand acts on the one space it names
            spaces = entry.get("space") or []
            entry["space"] = spaces + [s for s in sec.rng.sample(sec.pack.board.order, 3) if s not in spaces]
        for key in ("target", "country"):
            chosen = [entry[key]] if isinstance(entry.get(key), str) else entry.get(key) or []
            entry[key] = chosen + [c for c in sec.rng.sample(COUNTRIES, 3) if c not in chosen]
    return changed


CHANGES: dict[str, tuple[Change, tuple[str, ...]]] = {
    "deck order": (deck_order, USES), "hand card": (hand_card, USES), "face-down discard": (face_down_discard, USES),
    "face-down kind": (face_down_kind, USES),
    "face-down response": (face_down_response, USES), "idle entries": (idle_entries, USES),
    "dropped entry": (dropped_entry, USES), "forced discards": (forced_discards, USES),
    "own choices": (own_choices, PLAYS), "preferences": (preferences, WHERE)}
"""Each change, with the events of the country that must stay as they were for it to be a change
of secrets alone."""


def hidden(exchange: Exchange):
    """The exchange's hidden randomness, as the core draws it."""
    return hidden_stream(HIDDEN_KEY, "qmg", exchange.state["game"], exchange.state["dice"]["turn"])


def keeps_secret(rules, sec: Secrets, changed: Exchange, kept: tuple[str, ...]) -> bool:
    """Whether `changed` differs from the exchange in the country's secrets alone: its own files
    valid, and its events of the `kept` types the same (and, where it acts, the position after it)."""
    own = (changed.orders_file(sec.country), changed.standing_file(sec.country))
    if any(p.file in own for p in rules.check_orders(changed.state, changed.submissions(), changed.standing_docs())):
        return False
    after, log = resolve(rules, changed, hidden(changed))
    shown = [[e for e in events if e["type"] in kept and e.get("country") == sec.country]
             for events in (log.events, sec.events)]
    return shown[0] == shown[1] and \
        (kept != WHERE or rules.view_state(after, "public") == rules.view_state(sec.after, "public"))


def secret_pair(rules, sec: Secrets, names: list[str] | None = None) -> tuple[Exchange, list[str]]:
    """The exchange with a few of the country's secrets changed (those `names`, else some at
    random), each kept only when it changes nothing but secrets, and the names of those kept."""
    changed, applied = sec.exchange, []
    for name in names or sec.rng.sample(sorted(CHANGES), sec.rng.randint(2, 5)):
        change, kept = CHANGES[name]
        candidate = change(sec, changed)
        if candidate is not None and keeps_secret(rules, sec, candidate, kept):
            changed, applied = candidate, applied + [name]
    return changed, applied
