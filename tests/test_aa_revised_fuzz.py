"""Random orders never crash the checker; orders it accepts always play to a valid state."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.dice import DiceStream
from pbem.core.events import EventLog
from pbem.core.yamlio import dump_yaml, parse_document
from pbem.rulesets import get_ruleset
from pbem.rulesets.axis_allies.edition import edition

REVISED = edition("aa-revised")

RULES = get_ruleset("aa-revised")
OPENING = RULES.opening_state("fuzz", {})
OPENING["dice"] = {"commitment": "0" * 64, "turn": 1}


@st.composite
def a_move(draw, power: str):
    b = REVISED.board
    stacks = [(space, units) for space, by_power in OPENING["units"].items()
              for p, units in by_power.items() if p == power]
    space, units = draw(st.sampled_from(stacks))
    movable = [t for t in units if t != "industrial_complex"]
    if not movable:
        movable = list(units)
    chosen = draw(st.lists(st.sampled_from(movable), min_size=1, max_size=3, unique=True))
    path, here = [], space
    for _ in range(draw(st.integers(0, 3))):
        here = draw(st.sampled_from([n for n in b.neighbours[here] if not b.is_neutral(n)]))
        path.append(here)
    move = {"units": {t: draw(st.integers(1, units[t])) for t in chosen}, "from": space, "path": path}
    if draw(st.booleans()) and "transport" in chosen:
        coast = [n for n in b.neighbours[here] if b.is_land(n) and not b.is_neutral(n)]
        if coast:
            move["unload"] = draw(st.sampled_from(coast))
    return move


@st.composite
def a_turn(draw):
    power = draw(st.sampled_from(list(REVISED.board.powers)))
    orders = {"power": power}
    combat = draw(st.lists(a_move(power), max_size=4))
    noncombat = draw(st.lists(a_move(power), max_size=3))
    if combat:
        orders["combat_move"] = combat
    if noncombat:
        orders["noncombat_move"] = noncombat
    return power, orders, draw(st.sampled_from(["ab", "cd", "ef", "12"])) * 32


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a_turn())
def test_random_orders(turn):
    power, orders, seed = turn
    state = dict(OPENING, next_power=power)
    doc = parse_document(dump_yaml(orders), "orders.yaml")
    problems = RULES.check_orders(state, {state["next_power"]: doc}, {})
    assert all(p.file == "orders.yaml" and p.field for p in problems)
    if problems:
        return
    log = EventLog()
    after = RULES.resolve(state, {state["next_power"]: doc}, {}, DiceStream(seed, "fuzz"), log)
    assert RULES.check_state(parse_document(dump_yaml(after), "state.yaml")) == []
    assert log.events and log.events[-1]["type"] in ("income", "victory_check")


def land_attacks(power: str) -> list[dict]:
    """Every one-step attack of a territory's land units (and its fighters) on an enemy neighbour."""
    b = REVISED.board
    attacks = []
    for space, by_power in OPENING["units"].items():
        units = by_power.get(power, {})
        if not b.is_land(space):
            continue
        land = {t: n for t, n in units.items() if t in ("infantry", "artillery", "tank")}
        if not land:
            continue
        for n in b.neighbours[space]:
            holder = OPENING["control"].get(n)
            if b.is_land(n) and holder and b.side[holder] != b.side[power]:
                attacks.append({"units": land, "from": space, "path": [n]})
    return attacks


@st.composite
def a_war_turn(draw):
    power = draw(st.sampled_from([p for p in REVISED.board.powers if land_attacks(p)]))
    options = land_attacks(power)
    picks = draw(st.lists(st.sampled_from(range(len(options))), min_size=1, max_size=4, unique=True))
    used, moves = set(), []
    for i in picks:
        if options[i]["from"] not in used:
            used.add(options[i]["from"])
            moves.append(options[i])
    retreat = draw(st.booleans())
    orders = {"power": power, "combat_move": moves}
    if retreat:
        orders["battles"] = {m["path"][0]: {"retreat": {"to": m["from"], "when_weaker": True}} for m in moves}
    return power, orders, draw(st.text("0123456789abcdef", min_size=64, max_size=64))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a_war_turn())
def test_random_attacks_play_to_valid_states(turn):
    power, orders, seed = turn
    state = dict(OPENING, next_power=power)
    doc = parse_document(dump_yaml(orders), "orders.yaml")
    problems = RULES.check_orders(state, {state["next_power"]: doc}, {})
    assert problems == [], "\n".join(map(str, problems))
    log = EventLog()
    after = RULES.resolve(state, {state["next_power"]: doc}, {}, DiceStream(seed, "fuzz"), log)
    assert RULES.check_state(parse_document(dump_yaml(after), "state.yaml")) == []
    assert len(log.of_type("battle_end")) == len(log.of_type("battle_start"))
    for end in log.of_type("battle_end"):
        captured = [c for c in log.of_type("capture") if c["space"] == end["space"]]
        assert bool(captured) == end["captured"]
        if end["captured"]:
            assert after["control"][end["space"]] in (power, *[p for p in REVISED.board.powers
                                                              if REVISED.board.side[p] == REVISED.board.side[power]])
