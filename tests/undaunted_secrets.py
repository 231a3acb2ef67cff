"""Twins of an Undaunted exchange: the same exchange with only one side's secrets changed, where
docs/undaunted-rules.md ("What each side learns") draws the line. The side's hidden cards move only
where the exchange does not look (below the cards it draws; cards it neither names nor searches for;
two cards it loses, each from the other's hidden zone), its standing orders change only where they
do not fire, and its orders gain only what is decided in private: labels, a play refused while its
card is in the hand, a condition not met, preferences, a note. Whether a twin is one is then told
by the flow of that side's cards, as only that side learns it (`Flow`): a twin whose cards flowed
otherwise would tell the table so by design (a zone's size, a card played), and is no twin."""

from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from pbem.rulesets.undaunted.board import Board
from pbem.rulesets.undaunted.content import Pack
from undaunted_play import RULESET, Exchange
from undaunted_players import TIERS, action_params

SHOWN = ("card_played", "action_of_card", "fog_set_aside", "card_returned", "bolstered", "card_taken")
"""Events that name the card they move."""
REFERENCES = ("card", "chosen", "take", "cards", "bid")
"""Fields of orders that name cards."""
OUTCOMES = {"play_failed": "skipped", "play_not_taken": "skipped", "card_played": "played"}
"""Every play of the orders ends in one of these events, in the order of the plays."""


@dataclass
class Flow:
    """What an exchange did with one side's cards, and with its standing orders and plays."""

    drawn: int = 0
    reshuffled: bool = False
    named: set[str] = field(default_factory=set)
    """Cards the exchange drew, showed, bid or took."""
    hit: set[str] = field(default_factory=set)
    """Its units attacked: a casualty searches its zones for their cards."""
    bombers: bool = False
    """An Anti-Aircraft searched its zones for a Bomber."""
    set_up: bool = False
    """A scenario was set up: its draw deck preference chose which cards go into the deck."""
    taken: list[tuple[str, str]] = field(default_factory=list)
    """Each card a casualty or an Anti-Aircraft took, with its zone."""
    pushes: list[tuple[str, str | None]] = field(default_factory=list)
    """Each push its standing mine_push decided: the routed unit's tile, and where it went."""
    plays: list[tuple[str, str | None]] = field(default_factory=list)
    """Each play of its orders: skipped, or played with its card."""


def flow(events: list[dict[str, Any]], side: str, acting: bool) -> Flow:
    found = Flow()
    routed_at: dict[tuple[str, str], str] = {}
    for e in events:
        kind, own = e["type"], e.get("side") == side
        if kind == "routed":
            routed_at[(e["side"], e["unit"])] = e["tile"]
        elif kind == "bids_revealed" and e["bids"][side]["card"]:
            found.named.add(e["bids"][side]["card"])
        elif kind == "attack" and e["target"].get("side") == side:
            found.hit.add(e["target"]["unit"])
        elif kind == "scenario_set_up":
            found.set_up = True
        if not own:
            continue
        if kind == "cards_drawn":
            found.drawn += e["count"]
        elif kind == "cards_drawn_named":
            found.named.update(e["ids"])
        elif kind == "discard_reshuffled":
            found.reshuffled = True
        elif kind in ("bomber_removed", "no_bomber"):
            found.bombers = True
        elif kind == "pushed" and not acting:
            found.pushes.append((e["from_tile"], e["to_tile"]))
        elif kind == "not_pushed":
            found.pushes.append((routed_at[(e["target_side"], e["unit"])], None))
        elif kind in OUTCOMES and acting:
            found.plays.append((OUTCOMES[kind], e.get("card") if kind == "card_played" else None))
        if kind in SHOWN:
            found.named.add(e["card"])
        if kind == "card_taken":
            found.taken.append((e["card"], e["zone"]))
    return found


def why_no_twin(case: Flow, twin: Flow, private: list[bool]) -> str | None:
    """Why the twin's flow is not the case's as the others may see it, or None: the same zones
    lose cards (a deck searched and shuffled at the same moments), the same pushes, the same plays
    but the twin's private ones, which must be skipped."""
    zones = [[zone if zone in ("deck", "play_area") else "hidden" for _, zone in f.taken] for f in (case, twin)]
    if zones[0] != zones[1] or Counter(z for _, z in case.taken) != Counter(z for _, z in twin.taken):
        return f"cards taken from {case.taken} in the case, {twin.taken} in the twin"
    if [to for _, to in case.pushes] != [to for _, to in twin.pushes]:
        return f"pushes {case.pushes} in the case, {twin.pushes} in the twin"
    shared = [outcome for outcome, added in zip(twin.plays, private) if not added]
    added = [outcome for outcome, mine in zip(twin.plays, private) if mine]
    if shared != case.plays or any(outcome != "skipped" for outcome, _ in added):
        return f"plays {case.plays} in the case, {twin.plays} in the twin"
    return None


@dataclass
class Twin:
    exchange: Exchange
    secret_of: str
    changes: dict[str, str]
    """What differs, by the name of the change."""
    private: list[bool]
    """For each play of the secret's owner's orders, whether the twin added it."""


@dataclass
class Making:
    """A twin being made: the case's flow, and copies of its position and orders to change."""

    pack: Pack
    side: str
    acting: bool
    flow: Flow
    exchange: Exchange
    rng: random.Random
    private: list[bool]

    @property
    def zones(self) -> dict[str, list[str]]:
        return self.exchange.state["sides"][self.side]

    @property
    def orders(self) -> dict[str, Any] | None:
        return self.exchange.orders.get(self.side)

    def free(self, card_id: str) -> bool:
        """Whether the exchange leaves the card alone: not named by it or by the orders, not of a
        unit it attacks, not a Bomber it searches for."""
        card = self.pack.cards[card_id]
        spoken = spoken_of(self.orders or {})
        return card_id not in self.flow.named and card_id not in spoken and card.label not in spoken \
            and card.unit not in self.flow.hit and not (self.flow.bombers and card.name == "Bomber")

    def below_drawn(self) -> list[int]:
        """Places of the deck below the cards drawn this exchange (none when the discard pile was
        shuffled into it, which takes its place)."""
        return [] if self.flow.reshuffled else list(range(self.flow.drawn, len(self.zones["deck"])))


def spoken_of(orders: Any) -> set[str]:
    """Every card reference in orders, at any depth."""
    found: set[str] = set()
    if isinstance(orders, dict):
        for key, value in orders.items():
            if key in REFERENCES:
                found.update([value] if isinstance(value, str) else value if isinstance(value, list) else [])
            else:
                found |= spoken_of(value)
    elif isinstance(orders, list):
        for item in orders:
            found |= spoken_of(item)
    return found


def _swap(making: Making, a: tuple[str, int], b: tuple[str, int]) -> None:
    zones = making.zones
    zones[a[0]][a[1]], zones[b[0]][b[1]] = zones[b[0]][b[1]], zones[a[0]][a[1]]


def deck_below(making: Making) -> str | None:
    places = making.below_drawn()
    if len(places) < 2:
        return None
    deck = making.zones["deck"]
    rest = deck[places[0]:]
    making.rng.shuffle(rest)
    if rest == deck[places[0]:]:
        rest = rest[1:] + rest[:1]
    deck[places[0]:] = rest
    return f"the deck below its {making.flow.drawn} drawn cards reordered"


def hand_order(making: Making) -> str | None:
    """The hand in another order, where the orders name no card by its name (which takes the first
    such card in the hand)."""
    hand = making.zones["hand"]
    if len(hand) < 2 or any(ref not in making.pack.cards for ref in spoken_of(making.orders or {})):
        return None
    hand.reverse()
    return "the hand reversed"


def discard_order(making: Making) -> str | None:
    discard = making.zones["discard"]
    if len(set(discard)) < 2:
        return None
    discard.reverse()
    return "the discard pile reversed"


def _hidden_swap(making: Making, first: str, second: str) -> str | None:
    """Swap a free card of zone `first` with one of `second` (a deck only below the cards drawn, a
    discard pile only when it is not shuffled into the deck); a Fog of War only with a Fog of War
    in the acting side's hand, where Recon looks for one."""
    def places(zone: str) -> list[tuple[str, int]]:
        spots = making.below_drawn() if zone == "deck" else [] if making.flow.reshuffled and zone == "discard" else \
            list(range(len(making.zones[zone])))
        return [(zone, i) for i in spots if making.free(making.zones[zone][i])]

    def fog(spot: tuple[str, int]) -> bool:
        return making.pack.cards[making.zones[spot[0]][spot[1]]].kind == "fog_of_war"

    pairs = [(a, b) for a in places(first) for b in places(second)
             if not (making.acting and "hand" in (first, second) and fog(a) != fog(b))]
    if not pairs:
        return None
    a, b = making.rng.choice(pairs)
    cards = making.zones[a[0]][a[1]], making.zones[b[0]][b[1]]
    _swap(making, a, b)
    return f"its {first} card {cards[0]} swapped with its {second} card {cards[1]}"


def hand_with_deck(making: Making) -> str | None:
    return _hidden_swap(making, "hand", "deck")


def hand_with_discard(making: Making) -> str | None:
    return _hidden_swap(making, "hand", "discard")


def discard_with_deck(making: Making) -> str | None:
    return _hidden_swap(making, "discard", "deck")


def casualty_pile(making: Making) -> str | None:
    """A card of the face-down casualty pile swapped with a hidden one, but when a scenario ends:
    then the pile decides the losses, and what is left of the cards shows in the next supply."""
    if making.flow.set_up:
        return None
    return _hidden_swap(making, "casualties", making.rng.choice(["hand", "discard", "deck"]))


def losses_crossed(making: Making) -> str | None:
    """Two cards the exchange takes from different hidden zones, each put in the other's zone: the
    zones' sizes come out the same, and only their owner may tell which loss came from where."""
    taken = [(card, zone) for card, zone in making.flow.taken if zone in ("hand", "discard")]
    crossing = [(a, b) for a in taken for b in taken if a[1] < b[1]
                and making.pack.cards[a[0]].unit != making.pack.cards[b[0]].unit]
    if not crossing:
        return None
    (first, one), (second, other) = making.rng.choice(crossing)
    if first not in making.zones[one] or second not in making.zones[other]:
        return None  # drawn or bolstered during the exchange
    _swap(making, (one, making.zones[one].index(first)), (other, making.zones[other].index(second)))
    return f"its {first} lost from the {one} and {second} from the {other} swap zones"


def standing_preferences(making: Making) -> str | None:
    """The side's preferences, in its standing orders or its orders: a casualty's tiers choose
    among cards of one hidden zone, the deck's act at a set-up. Not when a scenario ends: then the
    casualty pile decides the losses, and the deck what is left in the supply, which all may see."""
    orders = making.exchange.standing.get(making.side) or making.orders
    if orders is None or making.exchange.state["phase"] == "bid" or making.flow.set_up:
        return None
    part = making.rng.choice(["casualty_preference", "draw_deck_preference"])
    wanted = making.rng.sample(TIERS, k=3) if making.rng.random() < 0.7 else None
    if wanted == orders.get(part):
        return None
    if wanted is None:
        orders.pop(part, None)
    else:
        orders[part] = wanted
    return f"{part} {wanted or 'left out'}"


def mine_push(making: Making) -> str | None:
    """A mine owner's standing mine_push where it does not fire: anything when its mines rout
    nobody; tiles after the one it pushes to; tiles next to no unit it failed to push."""
    standing = making.exchange.standing.get(making.side)
    if standing is None:
        return None
    board = Board(making.pack.layouts[making.pack.scenarios[making.exchange.state["scenario"]].layout])
    pushes = making.flow.pushes
    if any(to for _, to in pushes) and not all(to for _, to in pushes):
        return None
    if pushes and all(to for _, to in pushes):
        before = list(standing.get("mine_push") or [])
        standing["mine_push"] = before + making.rng.sample([t for t in board.tiles if t not in before], k=2)
        return f"mine_push {before} gains {standing['mine_push'][len(before):]} after the tiles it pushes to"
    far = [t for t in board.tiles if all(t != at and t not in board.neighbours[at] for at, _ in pushes)]
    wanted = making.rng.sample(far, k=min(len(far), making.rng.randint(0, 3)))
    if wanted == standing.get("mine_push"):
        return None
    standing["mine_push"] = wanted
    return f"mine_push {wanted}, next to no unit its mines routed"


def note(making: Making) -> str | None:
    orders = making.exchange.standing.get(making.side) or making.orders
    if orders is None:
        return None
    orders["note"] = f"a note of its own {making.rng.randint(0, 9999)}"
    return "a note"


def labels(making: Making) -> str | None:
    """Labels on the acting side's plays: its results are kept under them, for its eyes."""
    plays = (making.orders or {}).get("plays") or []
    bare = [i for i, play in enumerate(plays) if "label" not in play]
    if not making.acting or not bare:
        return None
    taken = set((making.exchange.state["turn"] or {}).get("results") or {}) | {p.get("label") for p in plays}
    chosen = making.rng.sample(bare, k=making.rng.randint(1, len(bare)))
    for i in chosen:
        plays[i]["label"] = next(f"mark{n}" for n in range(100) if f"mark{n}" not in taken)
        taken.add(plays[i]["label"])
    return f"labels on plays {sorted(chosen)}"


def refused_play(making: Making) -> str | None:
    """A play of a card of the hand that is refused while the card is still there (its unit is
    not suppressed to ready, is suppressed to act, cannot deploy; a Fog of War withdrawn), among
    the plays: `why_no_twin` holds the twin to it being skipped."""
    hand = making.zones["hand"]
    if not making.acting or not hand:
        return None
    pack, rng = making.pack, making.rng
    undeployed = [c for c in hand if pack.cards[c].unit not in (None, *making.exchange.state["units"][making.side])]
    card_id = rng.choice(undeployed if undeployed and rng.random() < 0.5 else hand)
    card = pack.cards[card_id]
    if card.kind == "fog_of_war" or not card.actions or card_id not in undeployed and rng.random() < 0.3:
        play: dict[str, Any] = {"card": card_id, "use": "withdraw" if card.kind == "fog_of_war" else "ready"}
    else:
        action = rng.choice(card.actions).action
        board = Board(pack.layouts[pack.scenarios[making.exchange.state["scenario"]].layout])
        view = RULESET.view(making.exchange.state, making.side)
        params = action_params(pack, board, view, making.side, card_id, action, rng)
        if params is None:
            return None
        play = {"card": card_id, "action": action} | params
        if card.unit and card.unit not in making.exchange.state["units"][making.side]:
            play["deploy"] = rng.choice(board.tiles)
    plays = making.orders.setdefault("plays", [])
    at = rng.randint(0, len(plays))
    plays.insert(at, play)
    making.private.insert(at, True)
    return f"a play refused in the hand at {at}: {play}"


def condition_not_met(making: Making) -> str | None:
    """A play whose `when` names an earlier play (labelled for it if it is not) with another
    result than it had."""
    plays = (making.orders or {}).get("plays") or []
    if not making.acting or not making.zones["hand"]:
        return None
    outcomes = dict(zip((i for i, added in enumerate(making.private) if not added), making.flow.plays))
    if not outcomes:
        return None
    earlier = making.rng.choice(sorted(outcomes))
    taken = set((making.exchange.state["turn"] or {}).get("results") or {}) | {p.get("label") for p in plays}
    plays[earlier].setdefault("label", next(f"mark{n}" for n in range(100) if f"mark{n}" not in taken))
    result = "done" if outcomes[earlier][0] == "skipped" else "skipped"
    play = {"card": making.rng.choice(making.zones["hand"]), "use": "withdraw",
            "when": {"play": plays[earlier]["label"], "result": result}}
    at = making.rng.randint(earlier + 1, len(plays))
    plays.insert(at, play)
    making.private.insert(at, True)
    return f"a play at {at} on {plays[earlier]['label']} being {result}"


CHANGES: tuple[Callable[[Making], str | None], ...] = (
    deck_below, hand_order, discard_order, hand_with_deck, hand_with_discard, discard_with_deck, casualty_pile,
    losses_crossed,
    standing_preferences, mine_push, note, labels, refused_play, condition_not_met)
"""Every way a twin may differ."""


def make_twin(exchange: Exchange, events: list[dict[str, Any]], side: str, rng: random.Random) -> Twin | None:
    """A twin of the exchange that differs in `side`'s secrets by one to four changes, or None."""
    acting = exchange.state["phase"] != "bid" and side in exchange.orders
    case_flow = flow(events, side, acting)
    making = Making(RULESET.pack_for(exchange.state), side, acting, case_flow, copy.deepcopy(exchange), rng,
                    [False] * len(((exchange.orders.get(side) or {}).get("plays") or [])))
    wanted = rng.randint(1, 4)
    changes = {}
    for change in rng.sample(CHANGES, k=len(CHANGES)):
        said = change(making) if len(changes) < wanted else None
        if said:
            changes[change.__name__] = said
    return Twin(making.exchange, side, changes, making.private) if changes else None
