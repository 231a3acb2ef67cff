"""The map of an Axis & Allies edition: powers, territories, sea zones, canals, and questions about them.

The data comes from the edition's `board.yaml` (converted from TripleA's map by a tool in tools/)
and `aliases.yaml`; `Edition.board` reads it once. Nothing here knows about units or whose turn it
is; it answers questions about the fixed geography.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from pbem.rulesets.axis_allies.names import NameTable, numbered_sea_zone


@dataclass(frozen=True)
class Territory:
    """A land territory as printed on the board."""

    name: str
    ipc: int
    original_owner: str | None  # the power that controlled it when the game began
    neutral: bool  # impassable for everyone, never attacked, produces nothing
    capital: str | None  # the power whose capital this is
    victory_city: str | None
    island: bool
    middle_east: bool = False  # Europe: a Middle East country, whose value only Germany collects
    soviet: str | None = None  # Europe: `red` (the USSR's own) or `pink` (annexed 1939), for the Patriotic War


@dataclass(frozen=True)
class ConvoyCentre:
    """Europe: a sea zone whose value counts in its original owner's income while that owner's side
    controls it."""

    zone: str
    ipc: int
    original_owner: str


@dataclass(frozen=True)
class Canal:
    """A canal: two sea zones that only a side controlling all `territories` may sail between.

    A strait in a neutral's waters (Europe's Turkish Straits) is a canal whose territory is that
    neutral: nobody ever controls it, so no ship passes. Aircraft fly across, as canals never
    stop aircraft."""

    name: str
    sea_zones: tuple[str, str]
    territories: tuple[str, ...]


class Board:
    """The fixed geography: every space in board order, adjacency, canals, powers and sides."""

    def __init__(self, data: Mapping, power_style: Mapping[str, Mapping[str, Any]]) -> None:
        self.powers: tuple[str, ...] = tuple(p["id"] for p in data["powers"])
        self.power_names: dict[str, str] = {p["id"]: p["name"] for p in data["powers"]}
        self.side: dict[str, str] = {p["id"]: p["side"] for p in data["powers"]}
        self.sides: tuple[str, ...] = tuple(dict.fromkeys(self.side.values()))
        self.territories: dict[str, Territory] = {}
        self.sea_zones: dict[str, int | None] = {}  # the zone's printed number (None: the board has none)
        self.convoys: dict[str, ConvoyCentre] = {}
        self.neighbours: dict[str, tuple[str, ...]] = {}
        self.spellings: dict[str, str] = {}
        for t in data["territories"]:
            self.territories[t["name"]] = Territory(
                t["name"], int(t.get("ipc") or 0), t.get("original_owner"), bool(t.get("neutral")),
                t.get("capital"), t.get("victory_city"), bool(t.get("island")), bool(t.get("middle_east")),
                t.get("soviet"))
            self.neighbours[t["name"]] = tuple(t["neighbours"])
            if t.get("tripleA"):
                self.spellings[t["tripleA"]] = t["name"]
        for z in data["sea_zones"]:
            self.sea_zones[z["name"]] = int(z["number"]) if "number" in z else None
            if z.get("ipc"):
                self.convoys[z["name"]] = ConvoyCentre(z["name"], int(z["ipc"]), z["original_owner"])
            self.neighbours[z["name"]] = tuple(z["neighbours"])
        self.canals: tuple[Canal, ...] = tuple(
            [Canal(c["name"], tuple(c["sea_zones"]), tuple(c["territories"])) for c in data.get("canals", [])]
            + [Canal(st["name"], tuple(st["sea_zones"]), (st["neutral"],)) for st in data.get("straits", [])])
        if any(st["ships"] or not st["aircraft"] for st in data.get("straits", [])):
            raise ValueError("board.yaml: a strait is closed to ships and open to aircraft; no other kind is played")
        # Board order: territories then sea zones, each as listed in board.yaml. Every mapping
        # pbem writes is sorted this way so that a position always gives the same bytes.
        self.order: dict[str, int] = {name: i for i, name in enumerate([*self.territories, *self.sea_zones])}
        self.capitals: dict[str, str] = {t.capital: t.name for t in self.territories.values() if t.capital}
        self.space_names = NameTable("space")
        for name in self.order:
            self.space_names.add(name, *[k for k, v in self.spellings.items() if v == name])
        for name, victory_city in ((t.name, t.victory_city) for t in self.territories.values()):
            if victory_city:
                self.space_names.add(name, victory_city)  # "Moscow" finds Russia
        for name, aliases in data.get("aliases", {}).items():
            self.space_names.add(name, *aliases)
        if not any(map(numbered_sea_zone, self.sea_zones)):
            self.space_names.named_seas = list(self.sea_zones)
        self.power_table = NameTable("power")
        for power in self.powers:
            style = power_style[power]  # the map's label (GER, JPN) is read as the power too
            self.power_table.add(power, self.power_names[power], *style.get("aliases", ()),
                                 *([style["label"]] if "label" in style else []))

    # --- kinds of space -------------------------------------------------------------------------

    def is_space(self, name: str) -> bool:
        """Whether `name` is a territory or sea zone of the board (canonical spelling)."""
        return name in self.order

    def is_sea(self, name: str) -> bool:
        """Whether `name` is a sea zone."""
        return name in self.sea_zones

    def is_land(self, name: str) -> bool:
        """Whether `name` is a land territory (neutral ones included)."""
        return name in self.territories

    def is_neutral(self, name: str) -> bool:
        """Whether `name` is a neutral territory."""
        return name in self.territories and self.territories[name].neutral

    def ipc(self, name: str) -> int:
        """The IPC value of a territory or convoy centre; 0 for any other sea zone."""
        if name in self.territories:
            return self.territories[name].ipc
        convoy = self.convoys.get(name)
        return convoy.ipc if convoy else 0

    def adjacent(self, a: str, b: str) -> bool:
        """Whether spaces `a` and `b` border each other."""
        return b in self.neighbours.get(a, ())

    def coastal_zones(self, territory: str) -> list[str]:
        """The sea zones next to a territory (an island's own zone included)."""
        return [n for n in self.neighbours[territory] if n in self.sea_zones]

    def coasts(self, zone: str) -> list[str]:
        """The territories next to a sea zone."""
        return [n for n in self.neighbours[zone] if n in self.territories]

    def sort_spaces(self, names: Iterable[str]) -> list[str]:
        """The spaces in board order (unknown names last)."""
        return sorted(names, key=lambda n: self.order.get(n, len(self.order)))

    # --- powers and sides -----------------------------------------------------------------------

    def friendly(self, a: str | None, b: str | None) -> bool:
        """True when both powers are on the same side."""
        return a is not None and b is not None and self.side[a] == self.side[b]

    def enemies(self, a: str | None, b: str | None) -> bool:
        """True when both powers are on opposite sides."""
        return a is not None and b is not None and self.side[a] != self.side[b]

    def victory_cities_held(self, control: Mapping[str, str]) -> list[tuple[str, str]]:
        """(power, victory city) for every victory city a power controls, in board order."""
        return [(control[name], t.victory_city) for name, t in self.territories.items()
                if t.victory_city and control.get(name)]

    def power_order(self, power: str) -> int:
        """The power's place in the turn order (0 for the first power of a round)."""
        return self.powers.index(power)

    # --- canals ---------------------------------------------------------------------------------

    def canal_between(self, a: str, b: str) -> Canal | None:
        """The canal joining sea zones `a` and `b`, or None."""
        for canal in self.canals:
            if {a, b} == set(canal.sea_zones):
                return canal
        return None

    def canal_open(self, canal: Canal, side: str, control: Mapping[str, str]) -> bool:
        """Whether `side` may sail through `canal`, given who controlled what at the start of the turn.

        The side must hold every territory of the canal (both Anglo-Egypt and Trans-Jordan for
        Suez), not necessarily with the same power.
        """
        return all(control.get(t) is not None and self.side[control[t]] == side for t in canal.territories)

    # --- distances ------------------------------------------------------------------------------

    def distances(self, start: str, can_enter: Callable[[str, str], bool], limit: int) -> dict[str, int]:
        """Spaces reachable from `start` in at most `limit` steps, with their distances.

        `can_enter(from, to)` decides each step; a space entered can be left again (callers that
        need "must stop here" rules check paths instead).
        """
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if seen[here] >= limit:
                continue
            for nxt in self.neighbours[here]:
                if nxt not in seen and can_enter(here, nxt):
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        return seen
