"""What every phase of a turn works on: the position, the orders, the log, the dice, the facts of
the start of the turn, and whether the turn is being checked or played.

The same phase code runs twice: `check_orders` runs it on a copy of the position without dice,
collecting every problem (`checking` is true; battles are assumed won), and `resolve` runs it for
real. A rule is therefore written once and can never be checked one way and played another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pbem.core.errors import Problem
from pbem.core.events import EventLog
from pbem.core.ruleset import Dice
from pbem.core.words import Words
from pbem.core.yamlio import FieldPath
from pbem.rulesets.axis_allies.board import Board
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.orders import BattleDecisions, Move, Orders, StandingOrders
from pbem.rulesets.axis_allies.state import Position, Unit
from pbem.rulesets.axis_allies.units import UnitTable


@dataclass
class Assault:
    """An amphibious assault declared in the combat move: cargo that goes ashore after any sea battle."""

    zone: str
    target: str
    transports: list[int]  # ids of the acting power's transports (empty for an ally's transport)
    cargo: list[int]  # ids of the land units that land
    move: Move


@dataclass
class Outcome:
    """How a battle (or an uncontested entry) ended, for `if:` conditions and the report."""

    won: bool = False
    captured: bool = False
    lost: bool = False
    retreated: bool = False

    def matches(self, wanted: str) -> bool:
        """Whether this outcome meets the condition `wanted` of an `if:` (one of orders.CONDITIONS)."""
        return {"won": self.won, "captured": self.captured, "lost": self.lost,
                "retreated": self.retreated, "not_captured": not self.captured}[wanted]


@dataclass
class Turn:
    """One power's turn in progress."""

    pos: Position
    orders: Orders
    standing: dict[str, StandingOrders]
    log: EventLog
    dice: Dice | None
    checking: bool
    power: str = ""
    problems: list[Problem] = field(default_factory=list)
    start_control: dict[str, str] = field(default_factory=dict)
    start_enemies: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    captured: set[str] = field(default_factory=set)  # territories that changed hands this turn
    liberated: set[str] = field(default_factory=set)  # of those, the ones given back to an ally
    assaults: list[Assault] = field(default_factory=list)
    raids: list[tuple[Move, list[int]]] = field(default_factory=list)  # bombing raids: move, raider ids
    interceptors: set[int] = field(default_factory=set)  # fighters that met a raid: out of the land battle
    battle_spaces: list[str] = field(default_factory=list)  # spaces entered in the combat move, in order
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    pickups: dict[int, str] = field(default_factory=dict)  # fighter id -> start zone of its carrier
    unit_moves: dict[int, Move] = field(default_factory=dict)  # unit id -> its combat move
    refused: list[Move] = field(default_factory=list)  # moves refused or skipped, for knock-on messages
    # (phase, space, type) -> (arrivals in the space, {movement left: unit_choice.PickQueue})
    pick_queues: dict[tuple[str, str, str], tuple[int, dict[int, Any]]] = field(default_factory=dict)
    # (phase, space, type) -> (how many units the phase's moves had taken when counted, those taken from the space)
    gone_counts: dict[tuple[str, str, str], tuple[int, int]] = field(default_factory=dict)
    rulings_logged: set[str] = field(default_factory=set)  # rulings logged this turn
    defaults_logged: set[tuple[str, str]] = field(default_factory=set)  # (power, what) of once-a-turn defaults
    battle_count: int = 0
    purchase_readable: bool = True  # false when a unit name of the purchase could not be read
    skip_economy: bool = False  # the power's capital is enemy-held: no research, purchase, mobilize, income
    # the fields of the moves that pass only with this turn's research, and whether it failed
    need_research: frozenset[str] = frozenset()
    research_failed: bool = False

    def __post_init__(self) -> None:
        self.power = self.orders.power or self.pos.next_power
        self.start_control = dict(self.pos.control)
        b = self.board
        for u in self.pos.all_units():
            if b.enemies(u.owner, self.power) and not (u.aboard is not None and self.table.cls(u.type) == "land"):
                self.start_enemies.setdefault(u.space, []).append((u.owner, u.type))

    # --- shortcuts ----------------------------------------------------------------------------

    @property
    def edition(self) -> Edition:
        """The edition being played."""
        return self.pos.edition

    @property
    def words(self) -> Words:
        """How the edition's powers and units read in messages."""
        return self.pos.edition.words

    @property
    def board(self) -> Board:
        """The edition's board."""
        return self.pos.edition.board

    @property
    def table(self) -> UnitTable:
        """The edition's unit table."""
        return self.pos.edition.units

    @property
    def side(self) -> str:
        """The acting power's side (`axis` or `allies`)."""
        return self.board.side[self.power]

    @property
    def developments(self) -> list[str]:
        """The acting power's developments, including one gained in this turn's research."""
        return self.pos.developments.get(self.power, [])

    def opt(self, name: str) -> Any:
        """The game's value of option `name` (when the state does not set it: its legacy value, else its default)."""
        return self.edition.option(name).value_in(self.pos.options)

    # --- start-of-turn facts ------------------------------------------------------------------

    @cached_property
    def assault_zones(self) -> set[str]:
        """Sea zones from which this power's transports unload into enemy territory this turn."""
        return {m.to for m in self.orders.combat_moves if m.unload and self.hostile_at_start(m.unload)}

    def enemy_at_start(self, space: str) -> bool:
        """Enemy units stood in `space` when the turn began."""
        return bool(self.start_enemies.get(space))

    def enemy_types_at_start(self, space: str) -> set[str]:
        """The unit types of the enemy units that stood in `space` when the turn began."""
        return {t for _, t in self.start_enemies.get(space, [])}

    def hostile_at_start(self, space: str) -> bool:
        """Hostile when the turn began: enemy-controlled territory, or any space with enemy units."""
        if self.enemy_at_start(space):
            return True
        holder = self.start_control.get(space)
        return self.board.is_land(space) and holder is not None and self.board.enemies(holder, self.power)

    def friendly_at_start(self, territory: str) -> bool:
        """A territory our side controlled when the turn began (where aircraft may land)."""
        holder = self.start_control.get(territory)
        return holder is not None and self.board.friendly(holder, self.power)

    # --- present facts ------------------------------------------------------------------------

    def friendly_territory_now(self, territory: str) -> bool:
        """A territory our side controls now (after any capture this turn)."""
        holder = self.pos.control.get(territory)
        return holder is not None and self.board.friendly(holder, self.power)

    def hostile_zone_now(self, zone: str) -> bool:
        """A sea zone holding enemy units other than submerged submarines."""
        return bool(self.pos.enemy_units_in(zone, self.power))

    def can_land_now(self, unit: Unit, space: str) -> bool:
        """Whether an aircraft may end its move in `space` now (carriers with room count for fighters)."""
        if self.board.is_land(space):
            if space in self.liberated and self.edition.has_option("liberated_landing"):
                self.ruling("liberated_landing")
            return self.friendly_at_start(space) and self.friendly_territory_now(space) and space not in self.captured
        if unit.type != "fighter":
            return False
        if unit.aboard is not None and unit.space == space:
            return True
        return self.carrier_with_room(space, unit) is not None

    def aa_gun_owner(self, space: str) -> str | None:
        """The power whose AA gun fires at this power's aircraft in `space`, or None: one gun fires
        however many stand there, of several powers' guns the one of the first power in turn order."""
        guns = [u for u in self.pos.enemy_units_in(space, self.power) if u.type == "aa_gun"]
        return min((g.owner for g in guns), key=self.board.power_order) if guns else None

    def carrier_with_room(self, zone: str, fighter: Unit) -> Unit | None:
        """A friendly carrier in `zone` with room, own carriers first."""
        b = self.board
        carriers = [c for c in self.pos.units_in(zone, type="carrier")
                    if b.friendly(c.owner, fighter.owner) and self.pos.room_on(c) > 0]
        carriers.sort(key=lambda c: (c.owner != fighter.owner, b.power_order(c.owner), c.id))
        return carriers[0] if carriers else None

    # --- reporting ----------------------------------------------------------------------------

    def problem(self, where: FieldPath, message: str, allowed: str | None = None) -> None:
        """A problem with the orders (only while checking; in play the caller reports a skip)."""
        self.problems.append(self.orders.doc.problem(where, message, allowed))

    def event(self, type: str, **fields: Any) -> None:
        """Record an event in the log (not while checking orders)."""
        if not self.checking:
            self.log.add(type, **fields)

    def ruling(self, name: str) -> None:
        """Log a ruling or option the first time it decides something in this turn."""
        if name in self.rulings_logged or self.checking:
            return
        self.rulings_logged.add(name)
        o = self.edition.option(name)
        value = o.value_in(self.pos.options)
        text = o.text if len(o.allowed) == 1 else f"Option {name} = {value}. {o.text}"
        self.log.add("ruling", rule=name, text=text)

    def cite(self, name: str, source: str = "") -> str:
        """A refusal's words naming the ruling that refused and the rulebook's line, " (ruling NAME,
        SOURCE)" (" (option NAME = VALUE, SOURCE)" for an option), the ruling logged as well when the
        refusal comes in play (a move skipped); nothing in an edition without that ruling (the editions
        share the code, not every ruling, nor the lines)."""
        if not self.edition.has_option(name):
            return ""
        self.ruling(name)
        o = self.edition.option(name)
        rule = f"ruling {name}" if len(o.allowed) == 1 else f"option {name} = {o.value_in(self.pos.options)}"
        return f" ({rule}{', ' + source if source else ''})"

    def default(self, what: str, applied: Any, why: str, power: str | None = None, once: bool = False,
                order: str | None = None) -> None:
        """Record a `default` event: a decision `power`'s orders (default: the mover's) left open, the
        value used and why. With `once`, only the first time this turn for that power and decision
        (a default that applies to every battle is said once). `order`: the item of the orders that
        could not be carried out as written and that this event accounts for."""
        power = power or self.power
        if once:
            if (power, what) in self.defaults_logged:
                return
            self.defaults_logged.add((power, what))
        self.event("default", power=power, what=what, applied=applied, why=why, **({"order": order} if order else {}))

    def roll(self, count: int) -> list[int]:
        """Roll `count` dice from the turn's dice stream (never while checking orders)."""
        if count <= 0:
            return []
        if self.dice is None:
            raise RuntimeError("no dice while checking orders")
        return list(self.dice.roll(count))

    def counts(self, units: list[Unit]) -> dict[str, int]:
        """{type: n} of some units, in unit-table order."""
        raw: dict[str, int] = {}
        for u in units:
            raw[u.type] = raw.get(u.type, 0) + 1
        return {t: raw[t] for t in self.table.sort_types(raw)}

    def power_counts(self, units: list[Unit]) -> dict[str, dict[str, int]]:
        """{power: {type: n}} of some units, in turn order and unit-table order."""
        return self.pos.counts(units)


NEVER_CASUALTIES = ("aa_gun", "industrial_complex")


@dataclass
class Battle:
    """Everything about one battle before its dice are thrown."""

    id: str
    space: str
    kind: str  # land, sea, amphibious_sea, amphibious_land
    attacker: str
    attackers: list[Unit]
    defenders: list[Unit]
    bombarding: list[Unit] = field(default_factory=list)
    decisions: BattleDecisions | None = None
    bystanders: list[Unit] = field(default_factory=list)
    """Ships of the attacker's allies in the zone, where the edition lets them take hits."""
