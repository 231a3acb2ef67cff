"""One Undaunted exchange played through the core's turn runner, and everything one audience (the
public or a side) is told of it: the events it may see, its view of the position after, its reports
in every format, and the map. The cryptographic commitments (the state commitment, the
decisions digest and each input's sha256) look random whatever they commit to, and are replaced by
their names; nothing else is changed."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

from pbem.core.dice import commitment
from pbem.core.events import EventLog, seen_by
from pbem.core.folder import REPORTS, private_reports
from pbem.core.turn import TurnInputs, orders_digest, resolve_turn
from pbem.core.views import view_name
from pbem.core.yamlio import Document
from pbem.rulesets.undaunted.content import SIDES
from pbem.rulesets.undaunted.report import render_formats, render_reports, report_model
from undaunted_play import RULESET, Exchange, documents


@dataclass
class Played:
    inputs: TurnInputs
    log: EventLog
    after: dict[str, Any]
    files: dict[str, bytes]

    @property
    def before(self) -> dict[str, Any]:
        return self.inputs.state.data


def turn_inputs(exchange: Exchange, key: str, turn: int) -> TurnInputs:
    """The exchange as the turn runner takes it: game turn `turn` of a game whose hidden key is `key`,
    with the files a turn file names (the same names in both games of a pair)."""
    state = {**exchange.state, "dice": {"scheme": 2, "commitment": commitment(_seed(key, turn)), "turn": turn}}
    awaited = list(exchange.orders)
    named = {side: f"orders/{side}.yaml" for side in awaited}
    turn_file = {"ruleset": RULESET.id, "state": "state.yaml",
                 "orders": named[awaited[0]] if len(awaited) == 1 else named,
                 "standing_orders": {side: f"standing/{side}.yaml" for side in exchange.standing},
                 "seed": _seed(key, turn), "output": f"turn-{turn}"}
    return TurnInputs(Document("turn.yaml", turn_file), Path("."), Document("state.yaml", state),
                      documents(exchange.orders), documents(exchange.standing), _seed(key, turn), Path(f"turn-{turn}"),
                      {}, key)


def _seed(key: str, turn: int) -> str:
    return hashlib.sha256(f"{key}|{turn}".encode()).hexdigest()


def digest(exchange: Exchange, key: str, turn: int) -> str:
    return orders_digest(turn_inputs(exchange, key, turn))


def play_exchange(exchange: Exchange, key: str, turn: int, dice_digest: str) -> Played:
    """Resolve the exchange as `pbem adjudicate` does, but with the dice of the decisions digest
    `dice_digest`: the d10s are public, and a pair's games must roll the same ones for what each
    audience is told to be comparable, while the digest covers the secret standing orders."""
    inputs = turn_inputs(exchange, key, turn)
    with mock.patch("pbem.core.turn.orders_digest", lambda _: dice_digest):
        result = resolve_turn(inputs)
    return Played(inputs, result.events, result.state, result.files)


def commitments(events: list[dict[str, Any]]) -> dict[str, str]:
    """The commitments of a turn's events by value: what each is named in place of its value."""
    start, end = events[0], events[-1]
    named = {start["orders_digest"]: "<orders_digest>", end["state_commitment"]: "<state_commitment>"}
    named |= {each["sha256"]: f"<sha256 of {each['file']}>" for each in start["inputs"]}
    return named


def normalised(text: str, events: list[dict[str, Any]]) -> str:
    for value, name in commitments(events).items():
        text = text.replace(value, name)
    return text


def told(played: Played, audience: str) -> dict[str, str]:
    """What `audience` is told of the exchange, by file name: its events, its view, its reports."""
    log = played.log
    texts = {"events seen": "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n"
                                    for e in log.events if seen_by(e, audience))}
    if audience in SIDES:
        texts[view_name(audience)] = played.files[view_name(audience)].decode("utf-8")
    else:
        texts["public view"] = json.dumps(RULESET.view_state(played.after, audience), indent=0)
    names = REPORTS if audience == "public" else private_reports(audience)
    formats = render_formats(report_model(RULESET, played.before, played.after, log, audience))
    texts |= {name: formats[name.rsplit(".", 1)[1]] for name in names}
    return {name: normalised(text, log.events) for name, text in texts.items()}


def drawn(played: Played) -> dict[str, str | bytes]:
    """The map everyone is shown, and the public HTML report that embeds it."""
    files = render_reports(played.before, played.after, played.log, played.inputs)
    return {"map.png": files["map.png"],
            "report.html with its map": normalised(files["report.html"].decode(), played.log.events)}
