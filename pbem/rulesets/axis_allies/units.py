"""The unit table (`data/units.yaml`) and the developments, with the names players may use for them.

The movement rules ask `movement(type, developments)` for a unit's range, so the 2 extra spaces of
Long-Range Aircraft live here and nowhere else. What developments change in a battle (Jet Fighters,
Super Submarines, Heavy Bombers) is combat.py's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from pbem.rulesets.axis_allies.board import load_data
from pbem.rulesets.axis_allies.names import NameTable

LAND, AIR, SEA, BUILDING = "land", "air", "sea", "building"


@dataclass(frozen=True)
class UnitType:
    """One line of the unit table."""

    id: str
    name: str
    cls: str  # land, air, sea or building
    cost: int
    attack: int
    defense: int
    movement: int
    transport_size: int | None  # room taken aboard a transport; None = cannot be carried
    carrier_size: int | None  # room taken aboard a carrier; None = cannot land on one
    capacity: int | None  # room a transport or carrier offers
    hits: int
    can_capture: bool
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class Development:
    """A weapons development and the number its research die must show (the chart number)."""

    id: str
    name: str
    number: int


DEVELOPMENTS: tuple[Development, ...] = (
    Development("jet_fighters", "Jet Fighters", 1),
    Development("rockets", "Rockets", 2),
    Development("super_submarines", "Super Submarines", 3),
    Development("long_range_aircraft", "Long-Range Aircraft", 4),
    Development("combined_bombardment", "Combined Bombardment", 5),
    Development("heavy_bombers", "Heavy Bombers", 6),
)

RESEARCH_DIE_COST = 5  # IPCs per research die


class UnitTable:
    """Every unit type in unit-table order, and name lookup for unit types and developments."""

    def __init__(self, data: dict) -> None:
        self.types: dict[str, UnitType] = {}
        for u in data["units"]:
            self.types[u["id"]] = UnitType(
                u["id"], u["name"], u["class"], int(u["cost"]), int(u.get("attack") or 0),
                int(u.get("defense") or 0), int(u.get("movement") or 0), u.get("transport_size"),
                u.get("carrier_size"), u.get("capacity"), int(u.get("hits") or 1), bool(u.get("can_capture")),
                tuple(u.get("aliases") or ()))
        self.order = {t: i for i, t in enumerate(self.types)}
        self.unit_names = NameTable("unit type")
        for t in self.types.values():
            self.unit_names.add(t.id, t.name, t.name + "s", *t.aliases)
        self.development_names = NameTable("development")
        for d in DEVELOPMENTS:
            self.development_names.add(d.id, d.name, d.id.replace("_", " ").rstrip("s"),
                                       {"jet_fighters": "jets", "long_range_aircraft": "lra",
                                        "super_submarines": "super subs", "heavy_bombers": "hb",
                                        "combined_bombardment": "cb", "rockets": "rocket"}[d.id])
        self.developments = {d.id: d for d in DEVELOPMENTS}

    def __getitem__(self, unit_type: str) -> UnitType:
        return self.types[unit_type]

    def sort_types(self, types: Iterable[str]) -> list[str]:
        """The unit types in unit-table order (unknown ones last)."""
        return sorted(types, key=lambda t: self.order.get(t, len(self.order)))

    def cls(self, unit_type: str) -> str:
        """The class of a unit type: land, air, sea or building."""
        return self.types[unit_type].cls

    def movement(self, unit_type: str, developments: Iterable[str] = ()) -> int:
        """Movement allowance for a whole turn; Long-Range Aircraft adds 2 to fighters and bombers."""
        base = self.types[unit_type].movement
        if unit_type in ("fighter", "bomber") and "long_range_aircraft" in developments:
            return base + 2
        return base

    def cost(self, counts: dict[str, int]) -> int:
        """The IPC cost of {type: n}."""
        return sum(self.types[t].cost * n for t, n in counts.items())


@lru_cache(maxsize=1)
def unit_table() -> UnitTable:
    """The unit table of Axis & Allies Revised (read once)."""
    return UnitTable(load_data("units.yaml"))  # type: ignore[arg-type]
