"""Whole Undaunted: Stalingrad games played by the engine for the tests: each exchange's awaited
sides write orders from their own views with the players of undaunted_players.py, the other side's
standing orders are in force, and the engine resolves it with dice and shuffles drawn from the
game's seed."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import yaml

from pbem.core.dice import DiceStream
from pbem.core.events import EventLog
from pbem.core.yamlio import Document, parse_document
from pbem.rulesets.undaunted import Undaunted
from pbem.rulesets.undaunted.content import Pack
from undaunted_players import bid_orders, random_orders, steady_orders

RULESET = Undaunted()

Standing = Callable[[Pack, dict[str, Any], str, random.Random], dict[str, Any]]
"""Standing orders of a side that is not awaited, from its view: (pack, view, side, rng) -> orders."""


@dataclass
class Exchange:
    """One exchange as it comes to be played: the position, the orders of every awaited side and
    the standing orders of the others."""

    state: dict[str, Any]
    orders: dict[str, dict[str, Any]]
    standing: dict[str, dict[str, Any]]


@dataclass
class Step:
    number: int
    exchange: Exchange
    events: list[dict[str, Any]]
    after: dict[str, Any]


def document(data: dict[str, Any], name: str) -> Document:
    """Orders as a player's file: YAML text, read back as pbem reads a file (with its sha256)."""
    text = yaml.dump(data, Dumper=yaml.CSafeDumper, sort_keys=False)
    doc = parse_document(text, name)
    doc.sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return doc


def documents(orders: dict[str, dict[str, Any]]) -> dict[str, Document]:
    return {side: document(data, f"{side}.yaml") for side, data in orders.items()}


def opening(seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new campaign, dealt from the game's hidden key."""
    state = RULESET.opening_state("random", options or {}, DiceStream(hidden_key(seed), "opening"))
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    return state


def hidden_key(seed: int) -> str:
    return f"{seed:064x}"


def play(seed: int, exchanges: int, steady: float, state: dict[str, Any] | None = None,
         standing: Standing | None = None) -> Iterator[Step]:
    """Play a game from `state` (default the opening) for up to `exchanges` exchanges; each side's
    turn orders are steady_orders' with the chance `steady`, else random_orders'."""
    rng = random.Random(seed)
    state = state or opening(seed)
    for number in range(1, exchanges + 1):
        awaited = RULESET.awaiting(state)
        if not awaited:
            return
        orders = {}
        for side in awaited:
            view = RULESET.view(state, side)
            if state["phase"] == "bid":
                orders[side] = bid_orders(RULESET.pack, view, side, rng)
            elif steady >= 1 or steady > 0 and rng.random() < steady:
                orders[side] = steady_orders(RULESET.pack, view, side)
            else:
                orders[side] = random_orders(RULESET.pack, view, side, rng)
        others = {side: standing(RULESET.pack, RULESET.view(state, side), side, rng) for side in RULESET.powers
                  if side not in awaited} if standing else {}
        exchange = Exchange(state, orders, others)
        submissions, standing_docs = documents(orders), documents(others)
        problems = RULESET.check_orders(state, submissions, standing_docs)
        assert not problems, "\n".join(map(str, problems))
        log = EventLog()
        after = RULESET.resolve(state, submissions, standing_docs, DiceStream(hidden_key(seed), f"dice{number}"),
                                log, DiceStream(hidden_key(seed), f"hidden{number}"))
        after["dice"] = state["dice"]
        yield Step(number, exchange, log.events, after)
        state = after
