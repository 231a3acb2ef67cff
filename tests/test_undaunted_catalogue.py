"""The Undaunted: Stalingrad adjudication catalogue: the seed's worked examples (the example of play
of #011, the action examples) and every numbered edge case of the digest (§8), each a position,
one side's orders (or both bids), the other's standing orders, fixed d10 faces and the outcome the
rulebook gives; a case about a secret also has a twin that nobody but the secret's owner may tell
from it. The format is in tests/catalogue/undaunted-stalingrad/README.md."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.core.dice import DiceStream, FixedDice
from pbem.core.events import EventLog, seen_by
from pbem.core.yamlio import dump_yaml, parse_document
from pbem.rulesets.undaunted import Undaunted
from pbem.rulesets.undaunted.content import SIDES
from pbem.rulesets.undaunted.report import report_model
from pbem.rulesets.undaunted.turn import opening, set_up

CASES = sorted((Path(__file__).parent / "catalogue" / "undaunted-stalingrad").glob("*.yaml"))
RULESET = Undaunted()
HIDDEN_KEY = "5a" * 32


def _cards(side: str, refs: list[str], taken: set[str]) -> list[str]:
    """Card ids for a case's cards, written as ids or names ("Rifleman (A)": the next unused one)."""
    out = []
    for ref in refs:
        found = ref if ref in RULESET.pack.cards else next(
            c for c, card in RULESET.pack.cards.items()
            if card.side == side and card.label == ref and c not in taken)
        taken.add(found)
        out.append(found)
    return out


def position(case: dict[str, Any]) -> dict[str, Any]:
    """The #011 opening with the case's changes: units, markers, tiles, tokens and every side's
    card zones (unnamed zones empty)."""
    given = case.get("position") or {}
    state = opening(RULESET.pack, "catalogue", {o.name: o.default for o in RULESET.options()}
                    | given.get("options", {}), DiceStream(HIDDEN_KEY, "catalogue"))
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    if "scenario" in given:
        state["campaign"]["code"] = given.get("code", state["campaign"]["code"])
        set_up(RULESET.pack, state, given["scenario"], DiceStream(HIDDEN_KEY, "catalogue"), EventLog())
    for side in SIDES:
        for unit, where in (given.get("units", {}).get(side) or {}).items():
            if where is None:
                state["units"][side].pop(unit, None)
            else:
                token = where if isinstance(where, dict) else {"tile": where}
                state["units"][side][unit] = {"suppressed": False, "routed": False} | \
                    {k: str(v) if k == "tile" else v for k, v in token.items()}
        for tile, face in (given.get("markers", {}).get(side) or {}).items():
            if face is None:
                state["markers"][side].pop(str(tile), None)
            else:
                state["markers"][side][str(tile)] = face
        taken: set[str] = set()
        zones = given.get("sides", {}).get(side) or {}
        for zone in state["sides"][side]:
            state["sides"][side][zone] = _cards(side, zones.get(zone) or [], taken)
        state["fire_lanes"][side] = {u: str(t) for u, t in (given.get("fire_lanes", {}).get(side) or {}).items()}
    for key in ("mines", "tunnels"):
        if key in given:
            state[key] = copy.deepcopy(given[key])
    state["tiles"] |= {str(t): v for t, v in (given.get("tiles") or {}).items()}
    state["smoke"] = {str(t): v for t, v in (given.get("smoke") or {}).items()}
    if "objectives" in given:
        state["objectives"] = {str(t): v for t, v in given["objectives"].items()}
    state["laid"] = given.get("laid") or state["laid"]
    state["campaign"] |= given.get("campaign") or {}
    acting = given.get("next_power")
    if acting:
        state["phase"], state["next_power"] = "turn", acting
        state["turn"] = {"side": acting, "first": given.get("first", True), "played": given.get("played", 0),
                         "results": {}}
        state["initiative"] = given.get("initiative", acting)
    elif "initiative" in given:
        state["initiative"] = given["initiative"]
    return state


def _docs(data: dict[str, Any], default_side: str | None) -> dict[str, Any]:
    return {side: parse_document(yaml.safe_dump({"side": side} | (body or {}), sort_keys=False), f"{side}.yaml")
            for side, body in data.items()}


def _check(actual: Any, expected: Any, where: str) -> None:
    if isinstance(expected, dict):
        for key, value in expected.items():
            if value is None and isinstance(actual, dict) and str(key) not in actual:
                continue  # expected absent (a unit not on the map)
            assert isinstance(actual, dict) and str(key) in actual, f"{where}: no {key}"
            _check(actual[str(key)], value, f"{where}.{key}")
    elif isinstance(expected, int) and isinstance(actual, list):
        assert len(actual) == expected, f"{where}: {len(actual)} cards, expected {expected}"
    else:
        assert actual == expected, f"{where}: {actual!r}, expected {expected!r}"


def _merged(base: Any, changes: Any) -> Any:
    """`base` with `changes` laid over it: mappings key by key, anything else replaced."""
    if not (isinstance(base, dict) and isinstance(changes, dict)):
        return copy.deepcopy(changes)
    return {key: _merged(base[key], changes[key]) if key in base and key in changes else
            copy.deepcopy(changes[key] if key in changes else base[key]) for key in base | changes}


def _play(case: dict[str, Any]) -> tuple[dict[str, Any], list, Any, FixedDice, EventLog]:
    """The case's position, the problems of its orders and, when there are none, the state after
    them, the dice and the events."""
    state = position(case)
    acting = state["next_power"]
    submissions = _docs(case["orders"], acting) if state["phase"] == "bid" else _docs({acting: case["orders"]}, acting)
    standing = _docs(case.get("standing") or {}, None)
    problems = RULESET.check_orders(state, submissions, standing)
    dice = FixedDice([face or 10 for face in case.get("dice") or []])
    log = EventLog()
    if problems:
        return state, problems, None, dice, log
    before = dump_yaml(state)
    after = RULESET.resolve(state, submissions, standing, dice, log, DiceStream(HIDDEN_KEY, "catalogue-turn"))
    assert dump_yaml(state) == before, "resolve changed the state it was given"
    return state, problems, after, dice, log


def _told(before: dict[str, Any], after: dict[str, Any], log: EventLog, audience: str, view: bool
          ) -> dict[str, Any]:
    """What `audience` is told of an exchange: the events it sees and its report's lines, and with
    `view` its view of the position after."""
    framed = EventLog()
    framed.add("turn_start", turn=1, seed="0" * 64, seed_commitment="0" * 64)
    framed.extend(log.events)
    framed.add("turn_end", state_commitment="0" * 64, awaiting=list(RULESET.awaiting(after)))
    model = report_model(RULESET, before, after, framed, audience)
    return {"events": [e for e in log.events if seen_by(e, audience)],
            "view": RULESET.view(after, audience) if view else None} | \
        {part: model[part] for part in ("lines", "rulings", "defaults")}


def _check_twin(case: dict[str, Any], before: dict[str, Any], after: dict[str, Any], log: EventLog) -> None:
    """The twin differs from the case only in what `secret_of` hides: everyone else is told the
    same, event for event and line for line (and sees the same position, with `same_view`)."""
    twin = case["twin"]
    changed = case | {"position": _merged(case.get("position") or {}, twin.get("position") or {}),
                      "standing": twin.get("standing", case.get("standing")),
                      "orders": twin.get("orders", case["orders"])}
    twin_before, problems, twin_after, _, twin_log = _play(changed)
    assert not problems, "\n".join(map(str, problems))
    view = twin.get("same_view", False)
    for audience in ("public", *SIDES):
        if audience != twin["secret_of"]:
            assert _told(twin_before, twin_after, twin_log, audience, view) == \
                _told(before, after, log, audience, view), f"{audience} can tell the twin from the case"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path: Path) -> None:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    expect = case["expect"]
    state, problems, after, dice, log = _play(case)
    if "problems" in expect:
        assert expect["problems"], "a case that expects problems names them"
        text = "\n".join(str(p) for p in problems)
        for pattern in expect["problems"]:
            assert re.search(pattern, text), f"no problem matches {pattern!r} in:\n{text}"
        return
    assert not problems, "\n".join(map(str, problems))
    assert dice.unused == 0, f"{dice.unused} fixed dice were not rolled"
    if "twin" in case:
        _check_twin(case, state, after, log)
    for key in ("units", "markers", "tiles", "mines", "smoke", "fire_lanes", "tunnels", "winner", "initiative",
                "phase", "next_power", "round", "objectives", "campaign", "scenario"):
        if key in expect:
            _check(after[key], expect[key], key)
    for side, zones in (expect.get("sides") or {}).items():
        for zone, wanted in zones.items():
            got = after["sides"][side][zone]
            if isinstance(wanted, list):
                got = sorted(RULESET.pack.cards[c].label if c not in wanted else c for c in got)
                wanted = sorted(wanted)
            _check(got, wanted, f"sides.{side}.{zone}")
    lines = [yaml.safe_dump(e, default_flow_style=True, width=10**6, sort_keys=False).strip() for e in log.events]
    position_in_log = 0
    for pattern in expect.get("events") or []:
        found = next((i for i in range(position_in_log, len(lines)) if re.search(pattern, lines[i])), None)
        assert found is not None, f"no event after #{position_in_log} matches {pattern!r}:\n" + "\n".join(lines)
        position_in_log = found + 1
    for pattern in expect.get("no_events") or []:
        assert not any(re.search(pattern, line) for line in lines), f"an event matches {pattern!r}"
