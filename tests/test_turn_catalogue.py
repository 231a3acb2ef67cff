"""The adjudication test catalogue for turns: every case of tests/catalogue/<ruleset>/turns is one test.

A case is data (see tests/catalogue/aa-revised/turns/README.md): a starting position, orders and
standing orders, fixed dice, and what must come out: the problems of illegal orders, or facts of
the state after the turn and events that must (or must not) have happened.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from pbem.core.dice import FixedDice
from pbem.core.events import EventLog
from pbem.core.yamlio import Document, dump_yaml, parse_document
from pbem.core.ruleset import Ruleset
from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies.ruleset import AxisAllies
from pbem.rulesets.axis_allies.state import Position

CATALOGUE = Path(__file__).parent / "catalogue"
CASES = sorted(CATALOGUE.glob("*/turns/*.yaml"))
ABSENT = "<absent>"


def ruleset_of(path: Path) -> AxisAllies:
    """The ruleset a case is for: the name of its catalogue folder. Made from the edition directly,
    so cases of an edition still being built run before it is offered to players."""
    return AxisAllies(edition(path.parents[1].name))


def build_state(case: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """The opening setup (or an empty board) with the case's changes."""
    spec = case.get("position") or {}
    state = ruleset.opening_state(case.get("name", "catalogue"), case.get("options") or {})
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    if spec.get("base", "opening") == "empty":
        state["units"] = {}
        state["cargo"] = {}
        state["treasury"] = {p: 0 for p in state["treasury"]}
    for key in ("round", "next_power", "winner", "aa_guns_moved"):
        if key in spec:
            state[key] = spec[key]
    if "round" not in spec and state["round"] == 0:
        state["round"] = 1  # a case is in round 1 unless it names Europe's set-up round 0
    if state["round"] != 0:
        state.pop("cash_advance", None)
    for key in ("treasury", "developments", "control", "cash_advance"):
        if key in spec:
            state.setdefault(key, {}).update(spec[key])
    for space, by_power in (spec.get("units") or {}).items():
        if by_power:
            state["units"][space] = by_power
        else:
            state["units"].pop(space, None)
    for space, entries in (spec.get("cargo") or {}).items():
        if entries:
            state["cargo"][space] = entries
        else:
            state["cargo"].pop(space, None)
    return state


def as_document(value: Any, name: str) -> Document:
    text = value if isinstance(value, str) else dump_yaml(value)
    return parse_document(text, name)


def matches(actual: Any, expected: Any) -> bool:
    """Partial match: every key of an expected mapping must match; ABSENT means the key is missing."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return False
        for key, want in expected.items():
            if want == ABSENT:
                if key in actual:
                    return False
            elif key not in actual or not matches(actual[key], want):
                return False
        return True
    return actual == expected


def npl(state: dict[str, Any], power: str, ruleset: AxisAllies) -> int:
    return Position.from_state(state, ruleset.edition).npl(power)


def problem_matches(problem: Any, want: dict[str, Any]) -> bool:
    if "field" in want and problem.field != want["field"]:
        return False
    if "line" in want and problem.line != want["line"]:
        return False
    if "contains" in want and want["contains"].lower() not in problem.message.lower():
        return False
    if "allowed" in want and problem.allowed != want["allowed"]:
        return False
    return True


def play_case(path: Path) -> tuple[dict[str, Any], list, FixedDice | None, EventLog, dict[str, Any] | None]:
    """A case's position, the problems of its orders and, when there are none and the case is not
    about problems, its dice, events and the state after them."""
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    ruleset = ruleset_of(path)
    state = build_state(case, ruleset)
    state_doc = parse_document(dump_yaml(state), f"{path.stem}/state.yaml")
    assert ruleset.check_state(state_doc) == [], "the case's position is not a valid state"
    before = copy.deepcopy(state)
    orders = as_document(case["orders"], f"{path.stem}/orders.yaml")
    standing = {p: as_document(v, f"{path.stem}/standing-{p}.yaml") for p, v in (case.get("standing_orders") or {}).items()}
    problems = ruleset.check_orders(state, {state["next_power"]: orders}, standing)
    log = EventLog()
    if problems or "problems" in (case.get("expect") or {}):
        return state, problems, None, log, None
    dice = FixedDice(case.get("dice") or [])
    after = ruleset.resolve(state, {state["next_power"]: orders}, standing, dice, log)
    assert state == before, "resolve must not change the state it is given"
    return state, problems, dice, log, after


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parents[1].name}/{p.stem}" for p in CASES])
def test_case(path: Path) -> None:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    ruleset = ruleset_of(path)
    state, problems, dice, log, after = play_case(path)
    expect = case.get("expect") or {}
    if "problems" in expect:
        shown = "\n".join(str(p) for p in problems)
        for want in expect["problems"]:
            assert any(problem_matches(p, want) for p in problems), f"expected problem {want} among:\n{shown}"
        if expect.get("only_these_problems", True):
            assert len(problems) == len(expect["problems"]), f"unexpected problems:\n{shown}"
        for p in problems:  # every problem names its file, line and field
            assert p.file.startswith(path.stem + "/") and p.line and p.field, str(p)
        return
    assert problems == [], "\n".join(str(p) for p in problems)
    events = log.events
    shown = "\n".join(str(e) for e in events)
    position = 0
    for want in expect.get("events") or []:
        for i in range(position, len(events)):
            if matches(events[i], want):
                position = i + 1
                break
        else:
            pytest.fail(f"event {want} not found (in order) among:\n{shown}")
    for unwanted in expect.get("no_events") or []:
        assert not any(matches(e, unwanted) for e in events), f"unexpected event {unwanted} in:\n{shown}"
    if "state" in expect:
        assert matches(after, expect["state"]), f"state facts {expect['state']} not met:\n{dump_yaml(after)}"
    for power, value in (expect.get("npl") or {}).items():
        level = npl(after, power, ruleset)
        assert level == value, f"{power}'s production level is {level}, not {value}"
    if not case.get("dice_may_remain"):
        assert dice.unused == 0, f"{dice.unused} of the case's dice were not rolled"
    # the same inputs give the same bytes
    assert dump_yaml(play_case(path)[4]) == dump_yaml(after)
