"""What one side of Undaunted is answered about its own files after an exchange: the problems of its
orders and standing orders as the ruleset checks them (`pbem validate` on the whole state), and, in a
game folder at the position after the exchange, what `pbem receive`, `pbem validate` on its view and
the moderator's status tell it. The other side's files lie beside them: its standing orders and,
before bids, its bid."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.folder import GAME_FILE, STANDING, START_STATE
from pbem.core.moderator import current, receive, standing_problems, status
from pbem.core.views import view_name
from pbem.core.yamlio import dump_yaml
from pbem.rulesets.undaunted.content import other_side
from undaunted_play import RULESET, Exchange, document, documents
from undaunted_players import bid_orders, random_orders, standing_orders
from undaunted_told import Played


def orders_of(state: dict[str, Any], side: str, rng: random.Random) -> dict[str, Any]:
    view = RULESET.view(state, side)
    return bid_orders(RULESET.pack, view, side, rng) if state["phase"] == "bid" else \
        random_orders(RULESET.pack, view, side, rng)


def with_a_mistake(orders: dict[str, Any], state: dict[str, Any], side: str) -> dict[str, Any]:
    """The orders naming a card of the side that is not in its hand, so that their answer lists it."""
    elsewhere = next(c for c in RULESET.pack.side_cards(side) if c not in state["sides"][side]["hand"])
    if state["phase"] == "bid":
        return orders | {"bid": elsewhere}
    return orders | {"plays": [{"card": elsewhere, "use": "withdraw"}] + list(orders.get("plays") or [])}


def _problems(state: dict[str, Any], side: str, orders: dict[str, Any], standing: dict[str, Any]) -> str:
    waiting = {s: o for s, o in standing.items() if s not in RULESET.awaiting(state)}
    return "\n".join(map(str, RULESET.check_orders(state, {side: document(orders, f"{side}.yaml")},
                                                   documents(waiting))))


def _standing_of(exchange: Exchange, side: str) -> dict[str, Any]:
    return exchange.standing.get(side) or {"side": side}


def answers(exchange: Exchange, played: Played, side: str, seed: int) -> dict[str, str]:
    """The problems of `side`'s orders for the exchange (when it was awaited) and for the next one,
    mistaken ones too, and of its standing orders, all made with the random numbers of `seed`."""
    found = {}
    standing = {other_side(side): _standing_of(exchange, other_side(side))}
    for name, state in (("the exchange", played.before), ("the next exchange", played.after)):
        if side in RULESET.awaiting(state):
            orders = orders_of(state, side, random.Random(seed))
            found[f"orders for {name}"] = _problems(state, side, orders, standing)
            found[f"mistaken orders for {name}"] = _problems(state, side, with_a_mistake(orders, state, side), standing)
    mine = standing_orders(RULESET.pack, RULESET.view(played.after, side), side, random.Random(seed))
    found["standing orders"] = "\n".join(map(str, RULESET.check_standing_orders(
        played.after, document(mine, "standing.yaml"))))
    return found


def folder_answers(folder: Path, exchange: Exchange, played: Played, side: str, seed: int, broken: bool
                   ) -> dict[str, str]:
    """What `side` is told in a game folder at the position after the exchange, the other side's
    standing orders on file (with a tile not on the map when `broken`) and, before bids, its bid in
    the inbox (a card not in its hand when `broken`)."""
    other = other_side(side)
    (folder / START_STATE).parent.mkdir(parents=True)
    (folder / GAME_FILE).write_text(dump_yaml({"format": "pbem-game/1", "ruleset": RULESET.id, "game": "random",
                                               "options": played.after["options"], "dice": {"scheme": 2}}))
    (folder / START_STATE).write_text(dump_yaml(played.after))
    (folder / STANDING).mkdir()
    theirs = _standing_of(exchange, other)
    (folder / STANDING / f"{other}.yaml").write_text(dump_yaml(theirs | {"mine_push": ["999"]} if broken else theirs))
    mine = standing_orders(RULESET.pack, RULESET.view(played.after, side), side, random.Random(seed))
    (folder / STANDING / f"{side}.yaml").write_text(dump_yaml(mine))
    (folder / view_name(side)).write_bytes(played.files[view_name(side)])
    with contextlib.chdir(folder):  # messages name files as the moderator sees them, from the game folder
        return _asked(played.after, side, seed, broken)


def _asked(state: dict[str, Any], side: str, seed: int, broken: bool) -> dict[str, str]:
    position = current(Path("."))
    other = other_side(side)
    if other in position.awaited:
        bid = orders_of(state, other, random.Random(seed))
        receive(position, dump_yaml(with_a_mistake(bid, state, other) if broken else bid), "bid")
    told = {"standing problems": "\n".join(map(str, standing_problems(position).get(side, [])))}
    if side in position.awaited:
        orders = orders_of(state, side, random.Random(seed))
        for name, sent in (("orders", orders), ("mistaken orders", with_a_mistake(orders, state, side))):
            stored, role, problems = receive(position, dump_yaml(sent), "orders.yaml")
            told[f"receive of {name}"] = f"{stored} {role}\n" + "\n".join(map(str, problems))
            told[f"validate of {name}"] = CliRunner().invoke(app, ["validate", str(stored), "--state",
                                                                   view_name(side)]).output
    facts = status(position)
    told["status"] = dump_yaml([entry for entry in facts["awaiting"] if entry["role"] == side]) + \
        "\n".join(facts["brief"])
    return told
