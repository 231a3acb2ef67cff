"""Europe's Battle of the Atlantic (l.747-777): convoy centres are sea zones held like territories.

An enemy warship - any ship with an attack value, carriers included (ruling carrier_takes_convoy),
never a transport (l.761) - takes an unoccupied convoy centre by entering or passing through it in
its combat move (ruling convoy_transit), or an occupied one by winning its sea battle with a warship
left. The centre's value then no longer counts in its owner's production (`Position.npl`); any ally
of the owner frees it the same way, and it goes back to the owner (l.767)."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.state import Unit


def enemy_convoy(turn: Turn, zone: str, control: dict[str, str] | None = None) -> bool:
    """Whether `zone` is a convoy centre held by an enemy of the power on turn."""
    holder = (control if control is not None else turn.pos.control).get(zone)
    return zone in turn.board.convoys and holder is not None and turn.board.enemies(holder, turn.power)


def warships(turn: Turn, units: Iterable[Unit]) -> list[Unit]:
    """The units that can take a convoy centre: ships with an attack value."""
    return [u for u in units if turn.table.cls(u.type) == "sea" and turn.table[u.type].attack > 0]


def take_convoy(turn: Turn, zone: str, by_units: Iterable[Unit]) -> None:
    """The power's ships in `zone` take (or free) it if it is an enemy convoy centre and one of them
    is a warship; a transport alone takes nothing."""
    if not enemy_convoy(turn, zone):
        return
    ships = [u for u in by_units if turn.table.cls(u.type) == "sea"]
    if not ships:
        return
    turn.ruling("convoy_transit")
    taking = warships(turn, ships)
    if not taking:
        return
    if all(u.type == "carrier" for u in taking):
        turn.ruling("carrier_takes_convoy")
    b, pos = turn.board, turn.pos
    original = b.convoys[zone].original_owner
    new = original if b.friendly(original, turn.power) else turn.power
    old = pos.control[zone]
    pos.control[zone] = new
    turn.captured.add(zone)
    turn.event("capture", space=zone, **{"from": old}, to=new, ipc=b.ipc(zone), liberated=new != turn.power,
               by=turn.power, convoy=True)
