"""The round: the setup exchange, then each country's five steps in turn order, and the end of a
round with its victory checks (seed l.80-120, l.380-440, l.1040-1060)."""

from __future__ import annotations

import copy
from typing import Any

from pbem.core.events import EventLog
from pbem.rulesets.qmg.content import COUNTRIES, TEAMS, Pack
from pbem.rulesets.qmg.play import HAND_SIZE, Turn, hand_cards

SETUP_DRAW, SETUP_DISCARD = 10, 3
REALLOCATE_DISCARDS = 4
SUDDEN_VICTORY_LEAD, LAST_ROUND = 30, 20


def opening(pack: Pack, game: str, options: dict[str, Any], hidden) -> dict[str, Any]:
    """Every country's deck shuffled and 10 cards dealt, one army in each home space (seed l.80-100)."""
    countries, pieces = {}, {}
    for country in COUNTRIES:
        deck = hidden.shuffle(pack.decks[country])
        countries[country] = {"deck": deck[SETUP_DRAW:], "hand": deck[:SETUP_DRAW], "discard": [],
                              "responses": [], "statuses": []}
        pieces[pack.board.home_of(country)] = [{"country": country, "piece": "army"}]
    return {"format": "qmg/1", "ruleset": "qmg", "game": game, "options": options, "round": 1,
            "phase": "setup", "next_power": None, "dice": None, "vp": {"axis": 0, "allies": 0},
            "pieces": dict(sorted(pieces.items(), key=lambda item: pack.board.order.index(item[0]))),
            "countries": countries, "winner": None}


def awaiting(state: dict[str, Any]) -> tuple[str, ...]:
    if state.get("winner"):
        return ()
    return COUNTRIES if state["phase"] == "setup" else (state["next_power"],)


def resolve_setup(pack: Pack, state: dict[str, Any], orders: dict[str, dict[str, Any]],
                  log: EventLog) -> dict[str, Any]:
    """Each country discards 3 of its 10 cards at once, in secret (seed l.95-100)."""
    after = copy.deepcopy(state)
    turn = Turn(pack, after, log, COUNTRIES[0], {}, after["options"])
    for country in COUNTRIES:
        with turn.carrying_out(country, "setup_discard"):
            chosen = hand_cards(turn, country, orders[country]["setup_discard"])
            for instance in chosen:
                after["countries"][country]["hand"].remove(instance)
            turn.discard_hidden(country, chosen, "hand", "setup")
        turn.account(country, "setup_discard")
    after["phase"], after["next_power"] = "play", COUNTRIES[0]
    return after


def resolve_country_turn(pack: Pack, state: dict[str, Any], orders: dict[str, Any],
                         standing: dict[str, dict[str, Any]], log: EventLog, hidden) -> dict[str, Any]:
    """One country's turn: start, Play, Supply, Victory, Discard and Draw steps (seed l.380-440)."""
    after = copy.deepcopy(state)
    active = state["next_power"]
    entries = {country: s["effects"] for country, s in standing.items()} | {active: orders.get("effects") or []}
    turn = Turn(pack, after, log, active, entries, after["options"],
                forced={country: s.get("forced_discards") or [] for country, s in standing.items()})
    turn.window({"event": "start_of_turn", "by": active}, TEAMS[active])
    for number, space in enumerate(orders.get("remove") or []):  # a country may take its own pieces off at any
        with turn.carrying_out(active, f"remove[{number}]"):    # time (seed l.465)
            _withdraw(turn, space)
        turn.account(active, f"remove[{number}]")
    if orders.get("reallocate"):
        turn.ruling("reallocate_resources", "this game plays the optional rule Reallocate Resources (seed l.605-625)")
        with turn.carrying_out(active, "reallocate"):
            _reallocate(turn, orders["reallocate"], hidden)
        turn.account(active, "reallocate")
    with turn.carrying_out(active, "play"):
        _play_step(turn, orders.get("play") or {})
    if "play" in orders:
        turn.account(active, "play")
    turn.laying = None  # a Status laid this turn may be used after its Play step (correction 3 of the digest)
    _supply_step(turn)
    _victory_step(turn)
    # how many cards the Discard step takes is public, as at the table, and the orders' to decide; a card they
    # name that has left the hand during the turn (a cost took it) gives way to the last card of the hand
    named = orders.get("discard") or []
    if "discard" in orders:
        with turn.carrying_out(active, "discard"):
            turn.discard_from_hand(active, min(len(named), len(turn.zones(active)["hand"])),
                                   hand_cards(turn, active, named), "discard step")
        turn.account(active, "discard")
    for number in range(len(entries[active])):
        if turn.uses.get(number):
            turn.account(active, f"effects[{number}]")
        else:
            turn.note("order_result", secret_of=active, country=active, order=f"effects[{number}]",
                      result="not carried out", why="no moment of the turn met its card's condition, its `when`, "
                      "`board` and `later` while the card was on the table")
    _draw_step(turn)
    _next(after, log)
    return after


def _withdraw(turn: Turn, space: str) -> None:
    piece = turn.piece_of(turn.active, space)
    if piece is None:
        turn.note("action_failed", secret_of=turn.active, country=turn.active, action="take a piece off", space=space,
                  why=f"{turn.active} has no piece there any more")
        return
    turn.take_off(turn.active, space)
    turn.note("piece_withdrawn", country=turn.active, piece=piece["piece"], space=space)


def _reallocate(turn: Turn, order: dict[str, Any], hidden) -> None:
    """Reallocate Resources (optional rule, seed l.605-625): 4 cards from hand, one basic card
    searched from the deck and shown to all, then the deck is shuffled."""
    country = turn.active
    turn.discard_from_hand(country, REALLOCATE_DISCARDS, hand_cards(turn, country, order.get("discard")),
                           "Reallocate Resources")
    deck = turn.zones(country)["deck"]
    found = next((c for c in deck if turn.card(country, c).name == order["take"]), None)
    if found is None:  # public, as at the table: the orders' check (orders.read_orders) refused every search that
        # its country could know to fail, so what fails here turned on the deck's order, which nobody knows
        turn.ruling("hidden_failures", "a search the deck's order alone made fail is played, and fails in public")
        turn.note("action_failed", country=country, action="Reallocate Resources",
                  why=f"no {order['take']} card in the draw deck")
    else:
        deck.remove(found)
        turn.zones(country)["hand"].append(found)
        turn.note("card_shown", country=country, card=turn.card(country, found).name, reason="Reallocate Resources")
    deck[:] = hidden.shuffle(deck)
    turn.note("deck_shuffled", country=country, cards=len(deck))


def _play_step(turn: Turn, play: dict[str, Any]) -> None:
    """Play or discard exactly one card; an empty hand discards the deck's top card, and with
    neither the team loses 1 VP (seed l.521-531, l.716-728)."""
    country = turn.active
    zones = turn.zones(country)
    turn.window({"event": "play_step", "by": country}, TEAMS[country])
    if play.get("instead"):
        instance = play["instead"]
        card = turn.card(country, instance)
        turn.note("effect_used", country=country, card=card.name, card_type=card.type, text=card.text,
                  trigger={"event": "play_step", "by": country})
        for cost in card.use.get("cost") or []:
            turn.pay(country, cost["discard"], play, card.name)
        turn.resolve_steps(country, card, play, None)
        return
    hand = zones["hand"]
    chosen = hand_cards(turn, country, play.get("card") or play.get("discard"))
    if not hand:
        if zones["deck"]:
            turn.note("default_applied", country=country, what="the hand is empty: the top card of the "
                      "draw deck is discarded as the Play step's card")
            turn.discard_from_deck(country, 1, "the Play step")
        else:
            turn.score(country, -1, "no_card")
        return
    if not chosen:  # the orders' card has left the hand: which card that was, and which is discarded, is secret
        chosen = [hand[-1]]
        turn.note("default_applied", secret_of=country, country=country, what="the orders play no card in hand: "
                  "the last card of the hand is discarded")
        play = {"discard": turn.card(country, chosen[0]).name}  # discarded, as the default says, not played
    hand.remove(chosen[0])
    if play.get("discard") is not None:
        turn.discard_hidden(country, chosen, "hand", "the Play step")
    else:
        turn.play_card(country, chosen[0], play)


def _supply_step(turn: Turn) -> None:
    """Remove every unsupplied piece of the country: all at once by default (option supply_cascade)."""
    country = turn.active
    while True:
        supplied = turn.supplied(country)
        cut_off = [space for space, here in turn.state["pieces"].items()
                   if any(p["country"] == country for p in here) and space not in supplied]
        if not cut_off:
            return
        turn.ruling("supply_cascade", "the Supply step checks again after each removal, until every piece left is "
                    "supplied" if turn.options["supply_cascade"] else "the Supply step removes the pieces "
                    "unsupplied when it begins, all at once (the seed's words)")
        removed = [space for space in cut_off if turn.remove(country, space, "supply", None)]
        if not removed or not turn.options["supply_cascade"]:
            return


def _victory_step(turn: Turn) -> None:
    """2 VP for each star space with only this country's army, 1 with a friendly army beside it;
    none at all while an enemy army holds its home space (seed l.1014-1040)."""
    country = turn.active
    board = turn.pack.board
    home = board.home_of(country)
    if any(p["piece"] == "army" and TEAMS[p["country"]] != TEAMS[country] for p in turn.pieces_at(home)):
        turn.note("victory_step_skipped", country=country, why=f"an enemy army holds {home}")
        return
    points = 0
    for space, here in turn.state["pieces"].items():
        if board.spaces[space].star and any(p["country"] == country and p["piece"] == "army" for p in here):
            armies = sum(1 for p in here if p["piece"] == "army")
            points += 2 if armies == 1 else 1
    if points:
        turn.score(country, points, "supply_spaces")
    turn.window({"event": "victory_step", "by": country}, TEAMS[country])


def _draw_step(turn: Turn) -> None:
    country = turn.active
    zones = turn.zones(country)
    count = max(0, min(HAND_SIZE - len(zones["hand"]), len(zones["deck"])))
    drawn, zones["deck"] = zones["deck"][:count], zones["deck"][count:]
    zones["hand"] += drawn
    turn.note("cards_drawn", country=country, count=count, deck_left=len(zones["deck"]))
    if drawn:
        turn.note("cards_drawn_named", secret_of=country, country=country,
                  cards=[turn.card(country, c).name for c in drawn])


def _next(state: dict[str, Any], log: EventLog) -> None:
    """The next country; after the United States' turn, the end of the round (seed l.1044-1060)."""
    index = COUNTRIES.index(state["next_power"])
    if index + 1 < len(COUNTRIES):
        state["next_power"] = COUNTRIES[index + 1]
        return
    axis, allies = state["vp"]["axis"], state["vp"]["allies"]
    if abs(axis - allies) >= SUDDEN_VICTORY_LEAD:
        state["winner"] = "axis" if axis > allies else "allies"
        log.add("game_over", winner=state["winner"], why=f"a lead of {abs(axis - allies)} VP at the end of "
                f"round {state['round']}")
    elif state["round"] >= LAST_ROUND:
        state["winner"] = "allies" if allies > axis else "axis"
        log.add("game_over", winner=state["winner"], why=f"round {LAST_ROUND} has ended" +
                (": a tie goes to the Axis" if axis == allies else ""))
    else:
        state["round"] += 1
        log.add("round_end", round=state["round"] - 1, vp=dict(state["vp"]))
    state["next_power"] = COUNTRIES[0]
