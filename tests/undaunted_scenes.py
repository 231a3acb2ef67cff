"""Positions that random play seldom reaches, made from a game's opening or from one of its exchanges:
cards of later scenarios dealt in, a unit with no card left walked across an enemy mine, two units
under fire whose cards lie in different hidden zones, a tank with no Riflemen tile to deploy to, an
Anti-Aircraft against a hidden Bomber, a move into a fire lane, a Recon with several Fog of War in
the hand.
Each is a position as any other, with orders for it; the pairs of test_undaunted_pairs.py twin it."""

from __future__ import annotations

import copy
import random
from typing import Any, Callable

from pbem.rulesets.undaunted.board import Board, edge
from pbem.rulesets.undaunted.content import SIDES, Pack, other_side
from undaunted_play import RULESET, Exchange

PREFIX = {"soviet": "S", "german": "N"}
MANEUVER, TANK_CREW, BOMBER, ANTI_AIRCRAFT = "Z-052", "Z-046", "Z-048", "Z-050"
"""Cards by number: the squad A leader whose Maneuver moves another unit, a tank's crew, the
Bomber, and the Anti-Aircraft that removes the enemy's."""


def _board(pack: Pack, state: dict[str, Any]) -> Board:
    return Board(pack.layouts[pack.scenarios[state["scenario"]].layout])


def _impassable(pack: Pack, state: dict[str, Any]) -> list[str]:
    return [t for t in _board(pack, state).tiles if pack.tile(t, state["tiles"][t]).impassable]


def _into(state: dict[str, Any], side: str, card: str, zone: str, at: int | None = None) -> None:
    """Put one of the side's cards into a zone, from wherever it is (or from the box)."""
    zones = state["sides"][side]
    for cards in zones.values():
        if card in cards:
            cards.remove(card)
    zones[zone].insert(len(zones[zone]) if at is None else at, card)
    if card not in state["campaign"]["available"][side]:
        state["campaign"]["available"][side] = sorted(state["campaign"]["available"][side] + [card])


def _cards_of(pack: Pack, state: dict[str, Any], side: str, unit: str, zones: tuple[str, ...]) -> list[str]:
    return [c for zone in zones for c in state["sides"][side][zone] if pack.cards[c].unit == unit]


def armed(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The opening with cards of the later scenarios in the decks (Engineers' mines, tanks, Bombers
    and Anti-Aircraft), other tiers of the unit cards to choose among, mines on the edges between
    the armies, a unit whose cards are all lost, and sometimes Riflemen in buildings."""
    pack = RULESET.pack
    board = _board(pack, state)
    for side in SIDES:
        available = state["campaign"]["available"][side]
        locked = [c for c in pack.side_cards(side) if c not in available and pack.cards[c].tier == "regular"]
        tiers = [c for c in pack.side_cards(side) if c not in available and pack.cards[c].tier != "regular"]
        for card in rng.sample(locked, k=6) + rng.sample(tiers, k=3):
            _into(state, side, card, "deck", rng.randint(0, len(state["sides"][side]["deck"])))
        fragile = rng.choice(["SCT-A", "SCT-B", "MG-A", "MG-B"])
        for card in _cards_of(pack, state, side, fragile, ("hand", "deck")):
            _into(state, side, card, "casualties")
        if rng.random() < 0.4:
            _riflemen_in_buildings(pack, state, side, rng)
        enemy_rows = {t for u in state["units"][other_side(side)].values() for t in board.neighbours[u["tile"]]}
        edges = sorted({tuple(edge(near, rng.choice(board.neighbours[near]))) for near in sorted(enemy_rows)})
        state["mines"] += [{"side": side, "unit": None, "face": "AP", "edge": list(mined)}
                           for mined in rng.sample(edges, k=min(4, len(edges)))]
    return state


def _riflemen_in_buildings(pack: Pack, state: dict[str, Any], side: str, rng: random.Random) -> None:
    buildings = _impassable(pack, state)
    for unit, token in state["units"][side].items():
        if pack.units[side][unit].type == "riflemen":
            token["tile"] = rng.choice(buildings)


def mine_walk(exchange: Exchange, rng: random.Random) -> Exchange | None:
    """The acting side's squad leader maneuvers a unit of squad A that has no card left across an
    enemy mine: a hit routs it, and the mine's owner pushes it as its standing mine_push says."""
    state, side = copy.deepcopy(exchange.state), exchange.state["next_power"]
    pack, enemy = RULESET.pack_for(state), other_side(side)
    board = _board(pack, state)
    ways = [(unit, token["tile"], to) for unit, token in sorted(state["units"][side].items())
            if pack.units[side][unit].squad == "A" and pack.units[side][unit].type not in ("at_gun", "tank")
            and not token["suppressed"] and not token["routed"]
            for to in board.neighbours[token["tile"]] if state["markers"][side].get(to)]
    if not ways:
        return None
    unit, here, to = rng.choice(ways)
    leader = f"{PREFIX[side]}-{MANEUVER}"
    _into(state, side, leader, "hand")
    for card in _cards_of(pack, state, side, unit, ("play_area", "hand", "discard", "deck")):
        _into(state, side, card, "casualties")
    state["mines"] = [m for m in state["mines"] if m["edge"] != edge(here, to)] + \
        [{"side": enemy, "unit": None, "edge": edge(here, to), "face": "AP"}]
    legal = [t for t in board.neighbours[here] if state["markers"][side].get(t)]
    standing = copy.deepcopy(exchange.standing)
    standing.setdefault(enemy, {"side": enemy})["mine_push"] = rng.sample(legal, k=1) if rng.random() < 0.5 else \
        [t for t in board.tiles if t != here and t not in board.neighbours[here]][:rng.randint(0, 2)]
    orders = {"side": side, "plays": [{"card": leader, "action": "maneuver", "unit": unit, "to": to}]}
    return Exchange(state, {side: orders}, standing)


def crossfire(exchange: Exchange, rng: random.Random) -> Exchange | None:
    """Both Riflemen of the acting side attack an enemy unit next to them, one whose only card
    out of the draw deck is in the hand, one whose is in the discard pile: two casualties, each
    from another hidden zone."""
    state, side = copy.deepcopy(exchange.state), exchange.state["next_power"]
    pack, enemy = RULESET.pack_for(state), other_side(side)
    board = _board(pack, state)
    shooters = [u for u, token in sorted(state["units"][side].items()) if pack.units[side][u].type == "riflemen"
                and not token["suppressed"]]
    targets = [u for u in sorted(state["units"][enemy]) if not pack.units[enemy][u].tank]
    cards = {u: _cards_of(pack, state, enemy, u, ("play_area", "hand", "discard", "deck")) for u in targets}
    targets = [u for u in targets if cards[u]]
    if len(shooters) < 2 or len(targets) < 2:
        return None
    plays = []
    for shooter, target, zone in zip(shooters, rng.sample(targets, k=2), ("hand", "discard")):
        rifle = next((c for c in pack.side_cards(side) if pack.cards[c].unit == shooter
                      and c in state["campaign"]["available"][side] and pack.cards[c].tier == "regular"), None)
        if rifle is None:
            return None
        _into(state, side, rifle, "hand")
        state["units"][enemy][target]["tile"] = rng.choice(board.neighbours[state["units"][side][shooter]["tile"]])
        for card in cards[target]:
            _into(state, enemy, card, "deck", rng.randint(0, len(state["sides"][enemy]["deck"])))
        _into(state, enemy, cards[target][0], zone)
        plays.append({"card": rifle, "action": "attack", "target": target})
    return Exchange(state, {side: {"side": side, "plays": plays}}, copy.deepcopy(exchange.standing))


def tank_nowhere(exchange: Exchange, rng: random.Random) -> Exchange | None:
    """The acting side holds a tank's crew card, and its Riflemen stand in buildings, where no tank
    may deploy."""
    state, side = copy.deepcopy(exchange.state), exchange.state["next_power"]
    pack = RULESET.pack_for(state)
    crew = f"{PREFIX[side]}-{TANK_CREW}"
    tank = pack.cards[crew].unit
    if state["units"][side].get(tank):
        return None
    _into(state, side, crew, "hand")
    _riflemen_in_buildings(pack, state, side, rng)
    return Exchange(state, copy.deepcopy(exchange.orders), copy.deepcopy(exchange.standing))


def anti_aircraft(exchange: Exchange, rng: random.Random) -> Exchange | None:
    """The acting side's Anti-Aircraft against a Bomber in one of the enemy's hidden zones."""
    state, side = copy.deepcopy(exchange.state), exchange.state["next_power"]
    enemy = other_side(side)
    battery = f"{PREFIX[side]}-{ANTI_AIRCRAFT}"
    _into(state, side, battery, "hand")
    bomber = f"{PREFIX[enemy]}-{BOMBER}"
    if bomber in state["campaign"]["removed"][enemy]:
        return None
    zone = rng.choice(["hand", "discard", "deck"])
    _into(state, enemy, bomber, zone, rng.randint(0, len(state["sides"][enemy][zone])))
    orders = {"side": side, "plays": [{"card": battery, "action": "anti_aircraft"}]}
    return Exchange(state, {side: orders}, copy.deepcopy(exchange.standing))


def fire_lane(exchange: Exchange, rng: random.Random) -> Exchange | None:
    """A Riflemen unit of the acting side moves onto the tile of an enemy Machine Gunners' fire lane."""
    state, side = copy.deepcopy(exchange.state), exchange.state["next_power"]
    pack, enemy = RULESET.pack_for(state), other_side(side)
    board = _board(pack, state)
    gunners = [u for u in sorted(state["units"][enemy]) if pack.units[enemy][u].type == "machine_gunners"]
    ways = [(unit, to) for unit, token in sorted(state["units"][side].items())
            if pack.units[side][unit].type == "riflemen" and not token["suppressed"]
            for to in board.neighbours[token["tile"]] if state["markers"][side].get(to)]
    if not gunners or not ways:
        return None
    unit, to = rng.choice(ways)
    rifle = next((c for c in pack.side_cards(side) if pack.cards[c].unit == unit and pack.cards[c].tier == "regular"
                  and c in state["campaign"]["available"][side]), None)
    if rifle is None:
        return None
    _into(state, side, rifle, "hand")
    state["fire_lanes"][enemy][rng.choice(gunners)] = to
    orders = {"side": side, "plays": [{"card": rifle, "action": "move", "to": to}]}
    return Exchange(state, {side: orders}, copy.deepcopy(exchange.standing))


def recon(exchange: Exchange, rng: random.Random) -> Exchange | None:
    """The acting side's Scout sets aside one of several Fog of War cards of its hand, and draws."""
    state, side = copy.deepcopy(exchange.state), exchange.state["next_power"]
    pack = RULESET.pack_for(state)
    available = state["campaign"]["available"][side]
    fogs = [c for c in available if pack.cards[c].kind == "fog_of_war"]
    ready = {unit for unit, token in state["units"][side].items() if not token["suppressed"]}
    scouts = [c for c in available if any(a.action == "recon" for a in pack.cards[c].actions)
              and pack.cards[c].unit in ready]
    if len(fogs) < 3 or not scouts:
        return None
    scout = rng.choice(scouts)
    for card in [scout, *rng.sample(fogs, k=rng.randint(2, 3))]:
        _into(state, side, card, "hand", rng.randint(0, len(state["sides"][side]["hand"])))
    orders = {"side": side, "plays": [{"card": scout, "action": "recon"}]}
    return Exchange(state, {side: orders}, copy.deepcopy(exchange.standing))


SCENES: tuple[Callable[[Exchange, random.Random], Exchange | None], ...] = (
    mine_walk, crossfire, tank_nowhere, anti_aircraft, fire_lane, recon)
