"""What each audience is told of a Quartermaster General exchange, for the pairs of
test_qmg_pairs.py: the events it may see, the state as it may see it and its view file, its reports
in every format and the board, and the answers to its orders' checks; each with the commitments
that look random and reveal nothing once salted (the state commitment, the decisions digest and
the digests of the files played) in words, the one thing the two sides of a pair may differ in."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from qmg_play import Exchange, document, random_orders, resolve
from qmg_secrets import HIDDEN_KEY, hidden

from pbem.core.errors import Problem
from pbem.core.events import EventLog, seen_by
from pbem.core.folder import private_reports
from pbem.core.turn import TurnInputs, resolve_turn
from pbem.core.views import view_name
from pbem.core.yamlio import Document, dump_json_line, dump_yaml
from pbem.render import render_turn
from pbem.rulesets.qmg.content import COUNTRIES
from pbem.rulesets.qmg.report import render_formats, report_model

SEED = "5e" * 32
"""The turn seed revealed with every exchange: the same on both sides."""
AUDIENCES = ("public", *COUNTRIES)


@dataclass
class Played:
    """An exchange played: the state after it, its events, and when the core played it, its files."""

    rules: Any
    exchange: Exchange
    after: dict[str, Any]
    log: EventLog
    files: dict[str, bytes] | None = None

    @cached_property
    def problems(self) -> list[Problem]:
        """What the check of the exchange's orders and standing orders finds."""
        return self.rules.check_orders(self.exchange.state, self.exchange.submissions(), self.exchange.standing_docs())


def play(rules, exchange: Exchange, how: str = "ruleset") -> Played:
    """The exchange played by the ruleset as the random games play it; or by the core as `pbem
    adjudicate` plays a turn file naming its files, with its state and view files (`how` core), and
    its reports and board too (`how` drawn)."""
    if how == "ruleset":
        return Played(rules, exchange, *resolve(rules, exchange, hidden(exchange)))
    orders = {c: f"../{exchange.orders_file(c)}" for c in exchange.orders}
    turn = {"ruleset": "qmg", "state": "../before/state.yaml",
            "orders": orders if len(orders) > 1 else next(iter(orders.values())),
            "standing_orders": {c: f"../{exchange.standing_file(c)}" for c in exchange.standing},
            "seed": SEED, "output": "../after"}
    inputs = TurnInputs(Document("turns/turn.yaml", turn), Path("turns"), Document("before/state.yaml", exchange.state),
                        exchange.submissions(), exchange.standing_docs(), SEED, Path("after"), {}, HIDDEN_KEY)
    result = resolve_turn(inputs, render_turn if how == "drawn" else None)
    return Played(rules, exchange, result.state, result.events, result.files)


def _problems(found) -> str:
    return "".join(f"{p}\n" for p in found)


def account(played: Played, audience: str) -> dict[str, Any]:
    """Everything `audience` is told of the exchange, by what it is: the events it may see, its
    view, its reports (the core's files where the core drew them, with the board), and what `pbem
    validate` answers of its files."""
    rules = played.rules
    events = "".join(dump_json_line(e) + "\n" for e in played.log.events if seen_by(e, audience))
    told: dict[str, Any] = {"events": events, **answers(played, audience)}
    names = ("report.md", "report.bbcode", "report.html") if audience == "public" else private_reports(audience)
    if played.files and "report.md" in played.files:
        told |= {name: played.files[name].decode("utf-8") for name in names}
        if audience == "public":
            told["map.png"] = played.files["map.png"]
    else:
        model = report_model(rules, played.exchange.state, played.after, played.log, audience)
        told |= dict(zip(names, render_formats(model).values()))
    if played.files and audience != "public":
        told[view_name(audience)] = played.files[view_name(audience)].decode("utf-8")
    told = {name: in_words(text, commitments(played.log.events)) if isinstance(text, str) else text
            for name, text in told.items()}
    return told | {"view": rules.view_state(played.after, audience)}  # compared as data, written out where it differs


def answers(played: Played, audience: str) -> dict[str, str]:
    """What `pbem validate` tells `audience` of its files: of the exchange's orders and standing
    orders, and of orders for the exchange after it (drawn at random, and mistaken)."""
    rules, exchange = played.rules, played.exchange
    standing = exchange.standing_docs()
    own = (exchange.orders_file(audience), exchange.standing_file(audience))
    texts = {"validate": _problems(p for p in played.problems if p.file in own)}
    if audience in standing:
        texts["validate standing"] = _problems(rules.check_standing_orders(played.after, standing[audience]))
    if audience in rules.awaiting(played.after):
        others = {c: doc for c, doc in standing.items() if c != audience}
        rng = random.Random(f"{exchange.number} {audience}")
        for number, orders in enumerate(next_orders(rules, played.after, audience, rng)):
            checked = rules.check_orders(played.after, {audience: document(orders, "next.yaml")}, others)
            texts[f"validate next orders {number}"] = _problems(checked)
    return {name: text for name, text in texts.items() if text or name == "validate"}


def next_orders(rules, state: dict[str, Any], country: str, rng: random.Random) -> list[dict[str, Any]]:
    """Orders for the country's next exchange: bold ones drawn at random, and the same mistaken
    (a card it does not hold played, one named that is not its own)."""
    orders = random_orders(rules.pack, state, country, rng, bold=True)
    zones = state["countries"][country]
    absent = sorted({rules.pack.name(country, c) for c in zones["deck"]} -
                    {rules.pack.name(country, c) for c in zones["hand"]})
    mistaken = dict(orders, effects=[*orders.get("effects", []), {"card": "Stalingrad" if country != "soviet_union"
                                                                  else "Blitzkrieg"}])
    if absent and "setup_discard" not in orders:
        mistaken["play"] = {"card": rng.choice(absent), "space": rng.choice(rules.pack.board.order)}
    return [orders, mistaken]


def commitments(events: list[dict[str, Any]]) -> list[str]:
    """A turn's values that differ whenever any byte of a secret does, and tell nothing: the
    decisions digest, the digests of the files played and the state commitment."""
    start, end = events[0], events[-1]
    return [value for value in (start.get("orders_digest"), end["state_commitment"],
                                *(i["sha256"] for i in start.get("inputs", []))) if value]


def in_words(text: str, values: list[str]) -> str:
    """`text` with each of `values` (commitments) in words."""
    for value in values:
        text = text.replace(value, "<commitment>")
    return text


def first_difference(first: dict[str, Any], second: dict[str, Any]) -> str | None:
    """Where two accounts first differ: what, its line, and both lines."""
    for name in sorted(set(first) | set(second)):
        a, b = first.get(name), second.get(name)
        if a == b:
            continue
        if a is None or b is None:
            return f"{name}: told on one side only"
        if isinstance(a, bytes):
            return f"{name}: other bytes"
        a, b = (text if isinstance(text, str) else dump_yaml(text) for text in (a, b))
        lines = list(zip(a.splitlines(), b.splitlines()))
        at = next((i for i, (x, y) in enumerate(lines) if x != y), len(lines))
        x, y = (a.splitlines() + ["(end)"])[at], (b.splitlines() + ["(end)"])[at]
        return f"{name} line {at + 1}: {x!r} against {y!r}"
    return None
