"""A move as its checks leave it, and the words they share.

A `MovePlan` holds what checking a move found out: the units it takes, the land units its transports
load or that board a transport waiting in a sea zone, the cargo that goes ashore, the empty enemy
territory a tank blitzes through, the territory of an amphibious assault and the territories whose
AA guns fire at its aircraft. An `Error` is one thing wrong with a move: its field, what is wrong and
what is allowed. A unit is a land unit, a ship or an aircraft by its class in the unit table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.yamlio import FieldPath
from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.orders import Move
from pbem.rulesets.axis_allies.state import Unit

Error = tuple[FieldPath, str, "str | None"]


@dataclass
class MovePlan:
    """A checked move, ready to be carried out."""

    move: Move
    units: list[Unit]
    loads: list[tuple[Unit, Unit]] = field(default_factory=list)  # (land unit, transport)
    unload_units: list[Unit] = field(default_factory=list)
    blitzed: str | None = None  # the empty enemy territory a tank took on its way
    flak: list[str] = field(default_factory=list)  # territories whose AA guns fire at the aircraft
    assault: str | None = None  # territory of an amphibious assault
    # (land unit, the transport it boards where that waits)
    board_transports: list[tuple[Unit, Unit]] = field(default_factory=list)
    missing: dict[str, int] = field(default_factory=dict)  # {type: n} named by the move but lost in battle


def is_air(turn: Turn, u: Unit) -> bool:
    """Whether the unit is an aircraft."""
    return turn.table.cls(u.type) == "air"


def is_land(turn: Turn, u: Unit) -> bool:
    """Whether the unit is a land unit."""
    return turn.table.cls(u.type) == "land"


def is_sea(turn: Turn, u: Unit) -> bool:
    """Whether the unit is a ship."""
    return turn.table.cls(u.type) == "sea"
