"""Defending fighters that lost their base in a battle: those of a sunk carrier, and interceptors
over a territory then captured, move one space or are lost."""

from __future__ import annotations

from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.state import Unit


def rehouse_carrier_fighters(turn: Turn, zone: str) -> None:
    """Defending fighters left in the air over `zone` by a sunk carrier move one space, or are lost.

    They try their owner's `carrier_fighters_land` list in order, then a friendly carrier with room in
    the zone, then the adjacent friendly territories and carriers in board order (ruling
    `sunk_carrier_fighters`).
    """
    b, pos = turn.board, turn.pos
    homeless = [u for u in pos.units_in(zone, type="fighter")
                if b.enemies(u.owner, turn.power) and (u.aboard is None or u.aboard not in pos.units)]
    for fighter in sorted(homeless, key=lambda u: (b.power_order(u.owner), u.id)):
        fighter.aboard = None
        turn.ruling("sunk_carrier_fighters")
        standing = turn.standing.get(fighter.owner)
        wishes = list(standing.carrier_fighters_land) if standing else []
        choices = [s for s in wishes if s == zone or b.adjacent(zone, s)]
        choices += [zone] + b.sort_spaces(n for n in b.neighbours[zone] if not b.is_neutral(n))
        target = next((s for s in choices if _can_take_fighter(turn, fighter, s)), None)
        _fighter_moves_or_is_lost(turn, fighter, zone, target, "fighter of a sunk carrier",
                                  "its carrier was sunk and no friendly territory or carrier with room is one space away")
        if target is not None and b.is_sea(target):
            carrier = turn.carrier_with_room(target, fighter)
            fighter.aboard = carrier.id if carrier else None


def rehouse_interceptors(turn: Turn, territory: str) -> None:
    """Fighters that intercepted a raid on `territory`, which has now been captured, move one space to a
    territory their side has held since the start of the turn (the first in board order), else are
    lost (ruling `raid_and_attack_same_territory`)."""
    b, pos = turn.board, turn.pos
    stranded = [u for u in pos.units_in(territory, type="fighter") if u.id in turn.interceptors]
    for fighter in sorted(stranded, key=lambda u: (b.power_order(u.owner), u.id)):
        turn.ruling("raid_and_attack_same_territory")
        held = [s for s in b.sort_spaces(b.neighbours[territory]) if b.is_land(s) and not b.is_neutral(s)
                and b.friendly(turn.start_control.get(s), fighter.owner) and _can_take_fighter(turn, fighter, s)]
        _fighter_moves_or_is_lost(turn, fighter, territory, held[0] if held else None,
                                  "interceptor of a captured territory",
                                  "it intercepted a raid on a territory then captured, and no territory its side "
                                  "has held since the start of the turn is one space away")


def _fighter_moves_or_is_lost(turn: Turn, fighter: Unit, space: str, target: str | None, note: str,
                              lost_reason: str) -> None:
    """A defending fighter that lost its base moves one space to `target`, or is lost without one."""
    if target is None:
        turn.pos.remove(fighter)
        turn.event("lost", power=fighter.owner, space=space, units={"fighter": 1}, reason=lost_reason)
    elif target != space:
        turn.pos.move_unit(fighter, target)
        turn.event("move", phase="combat", power=fighter.owner, units={"fighter": 1}, **{"from": space},
                   path=[target], to=target, note=note)


def _can_take_fighter(turn: Turn, fighter: Unit, space: str) -> bool:
    b = turn.board
    if b.is_land(space):
        holder = turn.pos.control.get(space)
        return holder is not None and b.friendly(holder, fighter.owner) and not turn.pos.enemy_units_in(space, fighter.owner)
    return turn.carrier_with_room(space, fighter) is not None and not turn.pos.enemy_units_in(space, fighter.owner)
