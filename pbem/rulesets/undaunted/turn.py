"""The round by email (digest §9): the initiative bid of both sides at once, then the initiative
side's turn, then the other's, each turn one exchange or several when its orders stop with
`await_report`; and the set-up of a scenario (seed l.520-560, l.560-720)."""

from __future__ import annotations

import copy
from typing import Any

from pbem.core.events import EventLog
from pbem.rulesets.undaunted.actions import play_card
from pbem.rulesets.undaunted.campaign import DEFAULT_DECK_PREFERENCE, after_scenario
from pbem.rulesets.undaunted.board import Board, edge
from pbem.rulesets.undaunted.content import SIDES, Pack, merged_pack, other_side, read_listing
from pbem.rulesets.undaunted.play import ScenarioOver, Turn

ROUND_DRAW = 4
FIRST_SCENARIO, FIRST_CODE = "011", "1a"


def opening(pack: Pack, game: str, options: dict[str, Any], hidden) -> dict[str, Any]:
    """A new campaign at its first scenario, #011, with game-state code 1a (seed l.520-560)."""
    available = {side: pack.side_cards(side, "starting") for side in SIDES}
    campaign = {"code": FIRST_CODE, "scenarios": [], "areas": {}, "merged": {side: [] for side in SIDES},
                "available": available,
                "removed": {side: [] for side in SIDES}, "city": {}, "tunnels_destroyed": []}
    state = {"format": "undaunted/1", "ruleset": "undaunted-stalingrad", "game": game, "options": options,
             "round": 1, "phase": "bid", "next_power": None, "dice": None, "winner": None, "campaign": campaign}
    return set_up(pack, state, FIRST_SCENARIO, hidden, EventLog())


def set_up(pack: Pack, state: dict[str, Any], scenario_id: str, hidden, log: EventLog,
           standing: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Build the map from the current city, place the tokens, lay out each side's supply and
    shuffle its draw deck, then deal the first round's hands (seed l.530-560, l.1120-1140). Which
    of several versions of a card go into the deck is the owner's choice: its standing orders'
    `draw_deck_preference` (default: upgraded, regular, reservist)."""
    pack = merged_pack(pack, state["campaign"]["merged"])
    scenario = pack.scenarios[scenario_id]
    layout = pack.layouts[scenario.layout]
    board = Board(layout)
    city = state["campaign"]["city"]
    for tile in scenario.fortify:
        city[tile] = max(city.get(tile, "A"), "B")
    sides = {}
    for side in SIDES:
        supply, _ = read_listing(pack, side, scenario.supply[side], state["campaign"]["available"][side])
        preference = list((standing or {}).get(side, {}).get("draw_deck_preference") or DEFAULT_DECK_PREFERENCE)
        by_preference = sorted(supply, key=lambda c: (preference.index(pack.cards[c].tier), c))
        deck, _ = read_listing(pack, side, scenario.draw_deck[side], by_preference)
        if {pack.cards[c].tier for c in supply} - {"regular"} and "draw_deck_preference" not in (standing or {}).get(
                side, {}):
            log.add("default_applied", to=[side], side=side, what="the draw deck takes upgraded cards first, then "
                    "regular, then reservists: the standing orders give no draw_deck_preference")
        sides[side] = {"supply": sorted(set(supply) - set(deck)), "deck": hidden.shuffle(sorted(deck)), "hand": [],
                       "discard": [], "play_area": [], "casualties": [], "set_aside": [], "removed": []}
    state |= {
        "scenario": scenario_id, "round": 1, "phase": "bid", "next_power": None, "winner": None,
        "initiative": scenario.initiative, "turn": None,
        "tiles": {t: city.get(t, "A") for t in board.tiles},
        "objectives": dict(layout.objectives), "vp_tokens": dict(layout.vp), "tokens": dict(layout.tokens),
        "units": {side: {u: {"tile": t, "suppressed": False, "routed": False}
                         for u, t in layout.units[side].items() if u in pack.units[side]} for side in SIDES},
        "markers": {side: dict(layout.markers[side]) for side in SIDES},
        "mines": [{"side": m["side"], "unit": None, "edge": edge(*m["edge"]), "face": m["face"]} for m in layout.mines],
        "smoke": {}, "fire_lanes": {side: {} for side in SIDES}, "laid": {side: {} for side in SIDES},
        "tunnels": [t for t in layout.tunnels if t not in state["campaign"]["tunnels_destroyed"]],
        "tunnels_destroyed": [],
        "sides": sides,
    }
    log.add("scenario_set_up", scenario=scenario_id, name=scenario.name, code=state["campaign"]["code"],
            initiative=scenario.initiative, fortified=list(scenario.fortify))
    turn = Turn(pack, state, log, None, hidden)
    for side in SIDES:
        turn.draw(side, ROUND_DRAW, "round 1")
    return state


def awaiting(state: dict[str, Any]) -> tuple[str, ...]:
    if state["phase"] == "campaign_over":
        return ()
    return SIDES if state["phase"] == "bid" else (state["next_power"],)


def resolve_bids(pack: Pack, state: dict[str, Any], bids: dict[str, str], log: EventLog) -> dict[str, Any]:
    """Both bids revealed at once; the higher initiative plays first, a tie leaves the initiative
    token as it was; the bid cards go to their discard piles (seed l.590-600)."""
    after = copy.deepcopy(state)
    shown = {}
    for side in SIDES:
        if bids[side] is None:
            # an empty hand bids nothing, which any card beats (the seed assumes a card to bid)
            log.add("ruling", name="empty_hand_bid", text="A side with no card in hand bids nothing and loses the "
                    "bid to any card; two empty hands tie.")
            shown[side] = {"card": None, "name": "nothing", "initiative": -1}
            continue
        card = pack.cards[bids[side]]
        after["sides"][side]["hand"].remove(card.id)
        after["sides"][side]["discard"].append(card.id)
        shown[side] = {"card": card.id, "name": card.label, "initiative": card.initiative}
    soviet, german = shown["soviet"]["initiative"], shown["german"]["initiative"]
    tie = soviet == german
    if not tie:
        after["initiative"] = "soviet" if soviet > german else "german"
    log.add("bids_revealed", round=after["round"], bids=shown, initiative=after["initiative"], tie=tie, order="bid")
    after["phase"], after["next_power"] = "turn", after["initiative"]
    after["turn"] = {"side": after["initiative"], "first": True, "played": 0, "results": {}}
    return after


WINNING_POSITION = ("scenario", "tiles", "objectives", "vp_tokens", "tokens", "units", "markers", "mines", "smoke",
                    "fire_lanes", "tunnels", "tunnels_destroyed")
"""The public map of a scenario, which the set-up of the next replaces."""


def resolve_turn(pack: Pack, state: dict[str, Any], orders: dict[str, Any], standing: dict[str, Any],
                 dice, hidden, log: EventLog) -> dict[str, Any]:
    """One exchange of the side whose turn it is: a withdrawal, or its plays in order; the turn
    ends unless the orders await the report (seed l.600-720)."""
    after = copy.deepcopy(state)
    side = after["next_power"]
    turn = Turn(pack, after, log, dice, hidden, standing | {side: orders["preferences"]})
    reached = 0
    try:
        if orders["withdraw"]:
            log.add("withdrawal", side=side, order="withdraw")
            turn.finish(other_side(side), f"the {side} side withdrew")
        for reached, play in enumerate(orders["plays"]):
            _play(turn, side, play, f"plays[{reached}]")
    except ScenarioOver as over:
        # the plays the end of the scenario left unplayed are the side's secret, as are the others'
        # places in its orders
        plays = list(enumerate(orders["plays"]))[reached:]
        if plays and not orders["withdraw"]:
            (i, play), plays = plays[0], plays[1:]
            log.add("play_outcome", to=[side], side=side, card=play["card"], order=f"plays[{i}]",
                    result="the scenario was won during it")
        for i, play in plays:
            log.add("play_not_taken", to=[side], side=side, card=play["card"], order=f"plays[{i}]",
                    why="the scenario was over")
        if orders["await_report"]:
            log.add("order_void", to=[side], side=side, order="await_report", why="the scenario was over")
        won = {key: copy.deepcopy(after[key]) for key in WINNING_POSITION}
        following = after_scenario(turn, over.winner)
        if following is not None:
            # the next set-up replaces the map: the event keeps the position that won for this turn's report
            log.add("winning_position", **won)
            set_up(turn.pack, turn.state, following, turn.hidden, log, turn.standing)
        _preferences(turn, side, orders, following)
        return after
    _preferences(turn, side, orders, None)
    if orders["await_report"]:
        log.add("turn_continues", side=side, order="await_report")
        return after
    _end_turn(turn, side)
    return after


def _preferences(turn: Turn, side: str, orders: dict[str, Any], following: str | None) -> None:
    """What became of the preferences the orders give, told to the side alone: the cards they
    chose among are hidden."""
    given = orders["preferences"]
    if "casualty_preference" in given:
        turn.log.add("preference_used", to=[side], side=side, order="casualty_preference",
                     what=f"chose among versions of a card {turn.preferred} times")
    if "draw_deck_preference" in given:
        turn.log.add("preference_used", to=[side], side=side, order="draw_deck_preference",
                     what=f"built the draw deck of scenario #{following}" if following else
                     "not needed: no new scenario was set up")


def _play(turn: Turn, side: str, play: dict[str, Any], order: str) -> None:
    """One play, unless its `when` is not met; a private `play_outcome` tells the side what came of
    a card played, by the play's place in its orders (a play skipped in the hand is a secret)."""
    info = turn.state["turn"]
    when = play.get("when")
    if when and info["results"].get(when["play"]) != when["result"]:
        turn.log.add("play_not_taken", to=[side], side=side, card=play["card"], order=order,
                     why=f"{when['play']} was {info['results'].get(when['play'], 'not played')}, not {when['result']}")
        result = "skipped"
    else:
        result = play_card(turn, side, play, order)
        info["played"] += result != "skipped"
        if result != "skipped":
            turn.log.add("play_outcome", to=[side], side=side, card=play["card"], order=order, result=result)
    if play.get("label"):
        info["results"][play["label"]] = result


def _end_turn(turn: Turn, side: str) -> None:
    """Hand and play area go to the discard pile; then the other side plays, or the next round's
    cards are drawn (seed l.700-720)."""
    state = turn.state
    zones = turn.zones(side)
    ended = {"hand": len(zones["hand"]), "play_area": len(zones["play_area"])}
    zones["discard"] += zones["play_area"] + zones["hand"]
    zones["play_area"], zones["hand"] = [], []
    turn.log.add("turn_ended", side=side, discarded=ended)
    if state["turn"]["first"]:
        state["next_power"] = other_side(side)
        state["turn"] = {"side": other_side(side), "first": False, "played": 0, "results": {}}
        return
    state["round"] += 1
    state["phase"], state["next_power"], state["turn"] = "bid", None, None
    for each in SIDES:
        turn.draw(each, ROUND_DRAW, f"round {state['round']}")
