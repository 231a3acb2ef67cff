"""The position in memory: every unit as an individual piece, built from and written back to state.yaml.

The state file counts units by space, power and type; within a turn the engine needs more: which
tank already moved, how far a fighter may still fly, which transport carries what, a battleship's
damage. `Position.from_state` gives every piece an id and `Position.to_state` counts them again
in the canonical order of docs/architecture.md, so the same position always gives the same bytes.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from pbem.rulesets.axis_allies.edition import Edition

FORMAT = "pbem-state/1"


@dataclass
class Unit:
    """One piece on the board during a turn."""

    id: int
    owner: str
    type: str
    space: str
    movement_left: int
    aboard: int | None = None  # id of the transport or carrier this unit is cargo of
    moved: bool = False  # moved (or was carried) in this turn's combat move
    fought: bool = False  # took part in a battle, a bombing raid or an amphibious assault
    moved_noncombat: bool = False
    retreated: bool = False
    submerged: bool = False
    damage: int = 0  # battleship hits taken in the current battle
    unloaded: bool = False  # land unit put ashore this turn, or transport that unloaded this turn
    loaded: bool = False  # land unit taken aboard this turn, or transport that loaded this turn
    path: list[str] = field(default_factory=list)  # spaces entered this turn, in order
    start_space: str = ""
    placed: bool = False  # mobilized this turn

    def __setattr__(self, name: str, value: Any) -> None:
        # the position's index of units by space follows every change of `space`, wherever it is made
        index = self.__dict__.get("_index")
        if name == "space" and index is not None:
            index.relocate(self, value)
        object.__setattr__(self, name, value)

    @property
    def used(self) -> bool:
        """Moved in the combat move or fought: such units stay put in the noncombat move."""
        return self.moved or self.fought


class SpaceIndex:
    """The units of a position by space, each space's units in id order (the order of `Position.units`),
    so that looking at one space does not mean looking at the whole board."""

    def __init__(self) -> None:
        self.spaces: dict[str, dict[int, Unit]] = {}
        self.unsorted: set[str] = set()  # spaces a unit entered out of id order
        self.arrivals: dict[str, int] = {}  # space -> how many times a unit came into it

    def add(self, unit: Unit) -> None:
        """Index a new piece and follow its moves from now on."""
        self._enter(unit, unit.space)
        object.__setattr__(unit, "_index", self)

    def remove(self, unit: Unit) -> None:
        """Forget a piece taken off the board."""
        self.spaces[unit.space].pop(unit.id, None)
        object.__setattr__(unit, "_index", None)

    def relocate(self, unit: Unit, space: str) -> None:
        """A piece moves to `space`."""
        if space != unit.space:
            self.spaces[unit.space].pop(unit.id, None)
            self._enter(unit, space)

    def _enter(self, unit: Unit, space: str) -> None:
        units = self.spaces.setdefault(space, {})
        self.arrivals[space] = self.arrivals.get(space, 0) + 1
        if units and next(reversed(units)) > unit.id:
            self.unsorted.add(space)
        units[unit.id] = unit

    def units(self, space: str) -> Iterable[Unit]:
        """The pieces in `space`, in id order."""
        if space in self.unsorted:
            self.unsorted.discard(space)
            self.spaces[space] = dict(sorted(self.spaces[space].items()))
        return self.spaces.get(space, {}).values()


def production(edition: Edition, control: dict[str, str], power: str) -> int:
    """National production level: the IPC values of every territory the power controls, and of
    the convoy centres it controls that are its own (Europe: a convoy centre counts for its
    original owner only, and a Middle East country counts in no production level; Germany's
    Middle East income is paid to it by the Allies)."""
    b = edition.board
    total = 0
    for space, holder in control.items():
        if holder != power:
            continue
        land = b.territories.get(space)
        convoy = b.convoys.get(space)
        if (land and not land.middle_east) or (convoy and convoy.original_owner == power):
            total += b.ipc(space)
    return total


@dataclass
class Position:
    """A whole game position of an edition; `units` holds every piece by id."""

    edition: Edition
    game: str
    options: dict[str, Any]
    round: int
    next_power: str
    dice: dict[str, Any] | None
    treasury: dict[str, int]
    developments: dict[str, list[str]]
    control: dict[str, str]
    units: dict[int, Unit]
    winner: str | None
    cash_advance: dict[str, int] = field(default_factory=dict)  # Europe's set-up round: side -> IPCs left to claim
    aa_guns_moved: dict[str, int] = field(default_factory=dict)  # Europe: Middle East space -> guns that moved there this round
    extra: dict[str, Any] = field(default_factory=dict)  # unknown top-level keys, kept as they were
    next_id: int = 1
    index: SpaceIndex = field(default_factory=SpaceIndex, repr=False, compare=False)

    # --- building ---------------------------------------------------------------------------

    @classmethod
    def from_state(cls, state: dict[str, Any], edition: Edition) -> "Position":
        """Build the position from a state dict of `edition` (assumed to have passed `check_state`)."""
        b, table = edition.board, edition.units
        known = {"format", "ruleset", "game", "options", "round", "next_power", "dice", "treasury",
                 "developments", "control", "units", "cargo", "winner", "cash_advance", "aa_guns_moved"}
        pos = cls(
            edition=edition, game=state.get("game", ""), options=dict(state.get("options") or {}),
            round=int(state.get("round", 1)), next_power=state.get("next_power", b.powers[0]),
            dice=copy.deepcopy(state.get("dice")),
            treasury={p: int((state.get("treasury") or {}).get(p, 0)) for p in b.powers},
            developments={p: list((state.get("developments") or {}).get(p) or []) for p in b.powers},
            control=dict(state.get("control") or {}), units={}, winner=state.get("winner"),
            cash_advance=dict(state.get("cash_advance") or {}),
            aa_guns_moved=dict(state.get("aa_guns_moved") or {}),
            extra={k: copy.deepcopy(v) for k, v in state.items() if k not in known})
        for space in b.sort_spaces((state.get("units") or {}).keys()):
            by_power = state["units"][space] or {}
            for power in sorted(by_power, key=b.power_order):
                for utype in table.sort_types(by_power[power] or {}):
                    for _ in range(int(by_power[power][utype])):
                        pos.add(power, utype, space)
        for space in b.sort_spaces((state.get("cargo") or {}).keys()):
            for entry in state["cargo"][space] or []:
                transport = next((u for u in pos.units_in(space, owner=entry["transport"], type="transport")
                                  if not pos.cargo_of(u)), None)
                for power in sorted(entry.get("units") or {}, key=b.power_order):
                    for utype in table.sort_types(entry["units"][power]):
                        for _ in range(int(entry["units"][power][utype])):
                            unit = pos.add(power, utype, space)
                            unit.aboard = transport.id if transport else None
        for space in b.sea_zones:
            pos.seat_fighters(space)
        return pos

    def add(self, owner: str, utype: str, space: str) -> Unit:
        """Put a new piece on the board."""
        dev = self.developments.get(owner, [])
        unit = Unit(self.next_id, owner, utype, space, self.edition.units.movement(utype, dev), start_space=space)
        self.units[unit.id] = unit
        self.index.add(unit)
        self.next_id += 1
        return unit

    def seat_fighters(self, zone: str) -> None:
        """Put the fighters at sea in `zone` that are not aboard anything onto carriers with room.

        The state file does not say which carrier holds which fighter, so fighters go to their own
        power's carriers first, then to allied carriers in turn order; the result is the same for
        the same state.
        """
        b = self.edition.board
        loose = [u for u in self.units_in(zone, type="fighter") if u.aboard is None]
        if not loose:
            return
        carriers = [c for c in self.units_in(zone, type="carrier")]
        for fighter in loose:
            room = [c for c in carriers if b.friendly(c.owner, fighter.owner) and self.room_on(c) > 0]
            room.sort(key=lambda c: (c.owner != fighter.owner, b.power_order(c.owner), c.id))
            if room:
                fighter.aboard = room[0].id

    # --- queries ----------------------------------------------------------------------------

    def all_units(self) -> Iterator[Unit]:
        """Every piece on the board, cargo included."""
        return iter(self.units.values())

    def units_in(self, space: str, owner: str | None = None, type: str | None = None,
                 include_cargo: bool = False) -> list[Unit]:
        """Pieces in `space`; land units aboard transports only when `include_cargo`."""
        result = []
        for u in self.index.units(space):
            if (owner is not None and u.owner != owner) or (type is not None and u.type != type):
                continue
            if not include_cargo and u.aboard is not None and self.edition.units.cls(u.type) == "land":
                continue
            result.append(u)
        return result

    def cargo_of(self, carrier: Unit) -> list[Unit]:
        """The units aboard a transport or carrier."""
        if not self.edition.units[carrier.type].capacity:
            return []  # most pieces carry nothing: spare a look through the whole board for each
        return [u for u in self.index.units(carrier.space) if u.aboard == carrier.id]

    def room_on(self, carrier: Unit) -> int:
        """Free room aboard a transport (in transport points) or a carrier (in fighters)."""
        table = self.edition.units
        capacity = table[carrier.type].capacity or 0
        if carrier.type == "transport":
            return capacity - sum(table[u.type].transport_size or 0 for u in self.cargo_of(carrier))
        return capacity - sum(table[u.type].carrier_size or 0 for u in self.cargo_of(carrier))

    def enemy_units_in(self, space: str, power: str, include_submerged: bool = False) -> list[Unit]:
        """Units in `space` of powers on the other side from `power` (cargo excluded)."""
        b = self.edition.board
        return [u for u in self.units_in(space) if b.enemies(u.owner, power)
                and (include_submerged or not u.submerged)]

    def complex_owner(self, territory: str) -> str | None:
        """The owner of the industrial complex in `territory`, or None when there is none."""
        return next((u.owner for u in self.units_in(territory, type="industrial_complex")), None)

    def capital_held(self, power: str) -> bool:
        """True while the power's capital is controlled by its own side."""
        b = self.edition.board
        holder = self.control.get(b.capitals[power])
        return holder is not None and b.friendly(holder, power)

    def npl(self, power: str) -> int:
        """National production level (`production`)."""
        return production(self.edition, self.control, power)

    def remove(self, unit: Unit) -> None:
        """Take a piece off the board, with everything it carries."""
        for cargo in self.cargo_of(unit):
            self.remove(cargo)
        if self.units.pop(unit.id, None) is not None:
            self.index.remove(unit)

    def move_unit(self, unit: Unit, space: str) -> None:
        """Move a piece and everything aboard it."""
        cargo = self.cargo_of(unit)
        unit.space = space
        for c in cargo:
            c.space = space

    # --- writing ----------------------------------------------------------------------------

    def counts(self, units: Iterable[Unit]) -> dict[str, dict[str, int]]:
        """{power: {type: n}} in turn order and unit-table order."""
        b, table = self.edition.board, self.edition.units
        raw: dict[str, dict[str, int]] = {}
        for u in units:
            raw.setdefault(u.owner, {}).setdefault(u.type, 0)
            raw[u.owner][u.type] += 1
        return {p: {t: raw[p][t] for t in table.sort_types(raw[p])} for p in sorted(raw, key=b.power_order)}

    def _cargo_key(self, units: dict[str, dict[str, int]]) -> list:
        b, table = self.edition.board, self.edition.units
        return [[b.power_order(p), [[table.order[t], n] for t, n in units[p].items()]] for p in units]

    def to_state(self) -> dict[str, Any]:
        """The canonical state dict (docs/architecture.md), ordered for byte-identical output."""
        b, table = self.edition.board, self.edition.units
        by_space: dict[str, list[Unit]] = {}
        for u in self.units.values():
            if u.aboard is not None and table.cls(u.type) == "land":
                continue  # cargo is written under `cargo`
            by_space.setdefault(u.space, []).append(u)
        units = {s: self.counts(by_space[s]) for s in b.sort_spaces(by_space)}
        cargo: dict[str, list[dict[str, Any]]] = {}
        entries: list[dict[str, Any]]
        for s in b.sort_spaces({u.space for u in self.units.values() if u.type == "transport"}):
            entries = []
            for t in self.units_in(s, type="transport"):
                aboard = self.cargo_of(t)
                if aboard:
                    entries.append({"transport": t.owner, "units": self.counts(aboard)})
            if entries:
                entries.sort(key=lambda e: (b.power_order(e["transport"]), json.dumps(self._cargo_key(e["units"]))))
                cargo[s] = entries
        state: dict[str, Any] = {
            "format": FORMAT, "ruleset": self.edition.ruleset_id, "game": self.game, "options": dict(self.options),
            "round": self.round, "next_power": self.next_power,
        }
        state["dice"] = copy.deepcopy(self.dice)
        state["treasury"] = {p: self.treasury.get(p, 0) for p in b.powers}
        if self.cash_advance:
            state["cash_advance"] = {side: self.cash_advance[side] for side in b.sides if side in self.cash_advance}
        order = list(table.developments)
        state["developments"] = {p: sorted(set(self.developments.get(p, [])), key=order.index) for p in b.powers}
        state["control"] = {t: self.control[t] for t in b.sort_spaces(self.control)}
        state["units"] = units
        state["cargo"] = cargo
        state["winner"] = self.winner
        if self.aa_guns_moved:
            state["aa_guns_moved"] = {s: self.aa_guns_moved[s] for s in b.sort_spaces(self.aa_guns_moved)}
        state.update(copy.deepcopy(self.extra))
        return state

