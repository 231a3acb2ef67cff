"""The unit table (the edition's `units.yaml`) and the developments (its `edition.yaml`), with the
names players may use for them.

The movement rules ask `movement(type, developments)` for a unit's range, so the 2 extra spaces of
Long-Range Aircraft live here and nowhere else. What developments change in a battle (Jet Fighters,
Super Submarines, Heavy Bombers) is the combat package's business (combat/volleys.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from pbem.rulesets.axis_allies.names import NameTable

LAND, AIR, SEA, BUILDING = "land", "air", "sea", "building"


@dataclass(frozen=True)
class UnitType:
    """One line of the unit table."""

    id: str
    name: str
    words: tuple[str, str]  # how reports write one and several
    label: str  # short label on the map
    cls: str  # land, air, sea or building
    battle_board: bool  # stands on the battle board (not an AA gun or industrial complex)
    buyable: bool  # may be bought (Europe's industrial complex cannot be)
    cost: int  # 0 for a unit that cannot be bought
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


class UnitTable:
    """Every unit type in unit-table order, and name lookup for unit types and developments."""

    def __init__(self, data: dict, research: dict[str, Any]) -> None:
        self.types: dict[str, UnitType] = {}
        for u in data["units"]:
            self.types[u["id"]] = UnitType(
                u["id"], u["name"], tuple(u["words"]), u["label"], u["class"], u.get("battle_board", True),
                u.get("buyable", True), int(u.get("cost", 0)), int(u.get("attack") or 0),
                int(u.get("defense") or 0), int(u.get("movement") or 0), u.get("transport_size"),
                u.get("carrier_size"), u.get("capacity"), int(u.get("hits") or 1), bool(u.get("can_capture")),
                tuple(u.get("aliases") or ()))
        self.order = {t: i for i, t in enumerate(self.types)}
        self.unit_names = NameTable("unit type")
        for t in self.types.values():
            self.unit_names.add(t.id, t.name, t.name + "s", t.label, *t.aliases)  # as the map writes it
        self.research_die_cost: int = int(research.get("die_cost", 0))
        self.development_names = NameTable("development")
        self.developments: dict[str, Development] = {}
        for d in research.get("developments") or []:
            self.developments[d["id"]] = Development(d["id"], d["name"], int(d["number"]))
            self.development_names.add(d["id"], d["name"], *d.get("aliases", ()))

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
