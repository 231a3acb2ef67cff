"""Where aircraft come down: the no-suicide check of the combat move, carrier pick-ups, and the
landing of aircraft that were given no landing move.

An aircraft's movement covers the whole turn: what it flew out in the combat move is gone, and it
must be able to reach a territory its side held at the start of the turn, or (a fighter) a
carrier, with what is left. A fighter left at sea waits for the carrier declared in its combat
move; the carrier must come (the pick-up is carried out as a reported default when the noncombat
orders forget it).
"""

from __future__ import annotations

import heapq
from typing import Callable

from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.flak import flak
from pbem.rulesets.axis_allies.orders import Move
from pbem.rulesets.axis_allies.paths import air_can_enter, sea_can_enter, sea_noncombat_path
from pbem.rulesets.axis_allies.state import Unit


# --- planning, at the end of the combat move ---------------------------------------------------

def pickup_can_enter(turn: Turn) -> Callable[[str, str], bool]:
    """Sea steps open to a carrier in the coming noncombat move, as the end of the combat move shows
    them: that move sails only through friendly zones, so a zone holding enemy units is closed unless
    a battle of this turn is fought there (while checking, battles are assumed won)."""
    enter = sea_can_enter(turn)
    return lambda here, n: enter(here, n) and (n in turn.battle_spaces or not turn.hostile_zone_now(n))


def carrier_reach(turn: Turn) -> set[str]:
    """Sea zones where a carrier able to take this power's fighters can be at the end of the turn."""
    b = turn.board
    zones: set[str] = set()
    for c in turn.pos.all_units():
        if c.type != "carrier" or not b.friendly(c.owner, turn.power) or turn.pos.room_on(c) <= 0:
            continue  # a carrier with two fighters aboard takes no more
        if c.owner != turn.power or c.moved:
            zones.add(c.space)  # an ally's carrier stays put on our turn; a moved carrier is done
        else:
            zones |= set(b.distances(c.space, pickup_can_enter(turn), c.movement_left))
    return zones


def carriers_standing(turn: Turn) -> set[str]:
    """Sea zones where a carrier able to take this power's fighters stands after the combat move."""
    return {c.space for c in turn.pos.all_units() if c.type == "carrier" and turn.board.friendly(c.owner, turn.power)
            and turn.pos.room_on(c) > 0}


def check_landings(turn: Turn) -> None:
    """No suicide missions, no kamikaze: every aircraft that moved in the combat move must be able to land."""
    b = turn.board
    carriers = carrier_reach(turn)
    standing = carriers_standing(turn)
    claimed: dict[int, list[str]] = {}  # carrier id -> zones of the fighters declared to be picked up by it
    for u in sorted(turn.pos.all_units(), key=lambda u: u.id):
        if u.owner != turn.power or turn.table.cls(u.type) != "air" or not u.moved:
            continue
        move = turn.unit_moves.get(u.id)
        if move is None:
            continue
        reach = b.distances(u.space, air_can_enter(turn), u.movement_left)
        land = [s for s in reach if b.is_land(s) and turn.friendly_at_start(s)]
        if u.id in turn.pickups:
            _check_declared_carrier(turn, u, move, claimed)
            continue
        if land or "carrier" in move.units:
            continue  # a territory in reach, or the carrier it flies with
        sea = [s for s in reach if b.is_sea(s) and s in carriers] if u.type == "fighter" else []
        if sea and (b.is_land(u.space) or any(s in standing for s in sea)):
            continue  # it may fly back to a carrier after the battle (or land on the one in its zone)
        if sea:
            starts = {c.start_space for c in turn.pos.all_units() if c.type == "carrier" and c.owner == turn.power
                      and turn.pos.room_on(c) > 0 and _carrier_reaches(turn, c, u.space)}
            turn.problem(move.where + ("carrier",), f"the fighter ends its combat move in {u.space} with no friendly "
                                                    "territory or carrier in reach: declare now the carrier that will "
                                                    "pick it up (the zone where that carrier starts its turn)",
                         ", ".join(b.sort_spaces(starts)))
            continue
        turn.problem(move.where + ("path",), f"no landing place within reach: a {u.type} with {u.movement_left} "
                                             f"movement left after reaching {u.space} cannot get to a territory its side "
                                             "held at the start of the turn" + (" or a carrier" if u.type == "fighter" else "")
                     + " (no suicide missions)")


def _check_declared_carrier(turn: Turn, fighter: Unit, move: Move, claimed: dict[int, list[str]]) -> None:
    """The declared carrier must be able to reach the fighter's zone with room for it: a carrier takes
    two fighters and stops where one lands, so the pick-ups already declared for it (`claimed`) count."""
    b = turn.board
    start = turn.pickups[fighter.id]
    where = move.where + ("carrier",)
    if not b.is_sea(fighter.space):
        turn.problem(where, "`carrier` is for fighters whose move ends in a sea zone")
        return
    carriers = [c for c in turn.pos.all_units() if c.type == "carrier" and c.owner == turn.power
                and c.start_space == start]
    if not carriers:
        turn.problem(where, f"you have no carrier in {start}")
        return
    taken = False
    for c in carriers:
        if not _carrier_reaches(turn, c, fighter.space):
            continue
        zones = claimed.setdefault(c.id, [])
        if len(zones) < turn.pos.room_on(c) and all(z == fighter.space for z in zones):
            zones.append(fighter.space)
            return
        taken = True
    if taken:
        turn.problem(where, f"the carrier from {start} cannot also pick this fighter up: it takes two fighters "
                            "(counting those aboard) and stops in the first zone where one lands")
        return
    turn.problem(where, f"no carrier of yours from {start} can reach {fighter.space} to pick the fighter up "
                        "(a carrier moves 2 sea zones, not again after its combat move, and in the noncombat move "
                        "only through sea zones without enemy units or where a battle is fought this turn)")


def _carrier_reaches(turn: Turn, carrier: Unit, zone: str) -> bool:
    """Whether one of this power's carriers can be in `zone` for a pick-up (one that moved in the combat
    move is done moving)."""
    if carrier.moved:
        return carrier.space == zone
    return zone in turn.board.distances(carrier.space, pickup_can_enter(turn), carrier.movement_left)


# --- noncombat: pick-ups and landings -----------------------------------------------------------

def make_pickups(turn: Turn) -> None:
    """Declared pick-ups the noncombat orders did not carry out: the carrier goes, as a default."""
    b = turn.board
    for fid, start in sorted(turn.pickups.items()):
        fighter = turn.pos.units.get(fid)
        if fighter is None or not b.is_sea(fighter.space) or fighter.aboard is not None:
            continue
        if turn.carrier_with_room(fighter.space, fighter) is not None:
            continue
        carriers = [c for c in turn.pos.units_in(start, owner=turn.power, type="carrier")
                    if not c.moved and not c.moved_noncombat and turn.pos.room_on(c) > 0]
        for c in sorted(carriers, key=lambda c: c.id):
            path = sea_noncombat_path(turn, c, fighter.space)
            if path is None:
                continue
            turn.ruling("carrier_pickup")
            turn.default(f"carrier pick-up of the fighter in {fighter.space}", f"carrier from {start}",
                         "the combat move declared it and the noncombat orders did not move it")
            c.movement_left -= len(path)
            c.moved_noncombat = True
            turn.pos.move_unit(c, fighter.space)
            turn.event("move", phase="noncombat", power=turn.power, units={"carrier": 1}, **{"from": start},
                       path=path, to=fighter.space, note="declared carrier pick-up")
            break


def land_aircraft(turn: Turn) -> None:
    """End of the noncombat move: every aircraft must stand on a legal landing place, or is lost."""
    for u in sorted(turn.pos.all_units(), key=lambda u: u.id):
        if u.owner != turn.power or turn.table.cls(u.type) != "air" or u.id not in turn.pos.units:
            continue
        if _settle(turn, u):
            continue
        found = _nearest_landing(turn, u)
        turn.ruling("aircraft_landing_default")  # where it lands, or that it is lost
        if found is None:
            if not turn.checking:
                turn.pos.remove(u)
                turn.event("lost", power=turn.power, space=u.space, units={u.type: 1},
                           reason=f"no landing place within its {u.movement_left} remaining movement")
            continue
        path, flak_spaces = found
        turn.default(f"landing of the {u.type} in {u.space}", path[-1], "no landing move for it was carried out")
        start = u.space
        u.movement_left -= len(path)
        u.path += path
        u.space = path[-1]
        turn.event("move", phase="noncombat", power=turn.power, units={u.type: 1}, **{"from": start}, path=path,
                   to=path[-1], note="landing by default")
        if flak_spaces and (u.moved or u.fought):
            if turn.edition.rules.aa_fires_in_noncombat or u.retreated:
                flak(turn, [u], flak_spaces)
            if not turn.edition.rules.aa_fires_in_noncombat:
                turn.ruling("aa_on_return")
        if u.id in turn.pos.units:
            _settle(turn, u)


def _settle(turn: Turn, u: Unit) -> bool:
    """True when the aircraft may stay where it is (boarding a carrier with room if at sea)."""
    b = turn.board
    if b.is_land(u.space):
        return turn.can_land_now(u, u.space)
    if u.type != "fighter":
        return False
    if u.aboard is not None and u.aboard in turn.pos.units and turn.pos.units[u.aboard].space == u.space:
        return True
    carrier = turn.carrier_with_room(u.space, u)
    if carrier is None:
        return False
    u.aboard = carrier.id
    return True


def _nearest_landing(turn: Turn, u: Unit) -> tuple[list[str], list[str]] | None:
    """Path to the nearest legal landing place: fewest spaces, then fewest enemy AA guns on the way,
    then the space the aircraft took off from, then board order."""
    b = turn.board
    start = u.space
    best: dict[str, tuple[int, int]] = {start: (0, 0)}
    routes: dict[str, list[str]] = {start: []}
    heap = [(0, 0, b.order[start], start)]
    while heap:
        dist, guns, _, here = heapq.heappop(heap)
        if (dist, guns) != best[here] or dist >= u.movement_left:
            continue
        for n in b.neighbours[here]:
            if b.is_neutral(n):
                continue
            cost = (dist + 1, guns + (1 if _has_enemy_aa(turn, n) else 0))
            if n not in best or cost < best[n]:
                best[n] = cost
                routes[n] = routes[here] + [n]
                heapq.heappush(heap, (cost[0], cost[1], b.order[n], n))
    landings = [s for s in best if s != start and _legal_landing(turn, u, s)]
    if not landings:
        return None
    target = min(landings, key=lambda s: (best[s], s != u.start_space, b.order[s]))
    path = routes[target]
    # AA guns on the way (never the landing place itself, which is friendly)
    return path, [s for s in path[:-1] if _has_enemy_aa(turn, s)]


def _legal_landing(turn: Turn, u: Unit, space: str) -> bool:
    if turn.board.is_land(space):
        return turn.can_land_now(u, space)
    return u.type == "fighter" and turn.carrier_with_room(space, u) is not None


def _has_enemy_aa(turn: Turn, space: str) -> bool:
    return turn.board.is_land(space) and turn.aa_gun_owner(space) is not None
