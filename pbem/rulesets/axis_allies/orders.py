"""Orders and standing orders as objects, with every name resolved to its canonical form.

Parsing reports unknown names (with the nearest known ones) and keeps, for every order, the path
of its field in the document, so that a later rule check can point at file, line and field.
An order with a name that cannot be read is kept out of the objects: it cannot be checked further.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.core.errors import Problem
from pbem.core.yamlio import Document, FieldPath
from pbem.rulesets.axis_allies.combat.decisions import Entry
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.names import NameTable

CONDITIONS = ("won", "captured", "lost", "retreated", "not_captured")

# The opening board holds under 300 units and a power earns at most a few dozen IPCs a turn, so no
# game reaches a thousand units of one type in one place. Larger numbers are typing errors or
# attempts to make validation and battles run for ever.
MOST_UNITS = 1000


def edition_field(default: Any = None, **kwargs: Any) -> Any:
    """A field that only some editions use (Europe's cash advance, Middle East payment, ...). It
    enters the decisions digest only when set, so the digests, and with them the dice, of games of
    the other editions stay what they were before the field existed."""
    if isinstance(default, (list, dict)):
        return field(default_factory=type(default), metadata={"digest": "when_set"}, **kwargs)
    return field(default=default, metadata={"digest": "when_set"}, **kwargs)


@dataclass
class Load:
    """Land units boarding the moving transports from a territory, at a sea zone of the path."""

    units: dict[str, int]
    frm: str
    at: str | None
    power: str | None
    where: FieldPath


@dataclass
class Move:
    """One combat or noncombat move as written."""

    units: dict[str, int]
    frm: str
    path: list[str]
    where: FieldPath
    load: list[Load] = field(default_factory=list)
    cargo: dict[str, int] | None = None
    unload: str | None = None
    bombard: str | None = None
    bombing_raid: bool = False
    carrier: str | None = None
    condition: dict[str, str] = field(default_factory=dict)
    note: str | None = None
    unload_units: dict[str, int] | None = edition_field()
    """Europe (l.1169): the units of the cargo that go ashore; without it, all of them."""

    @property
    def to(self) -> str:
        """Where the units end: the last space of the path, or where they are."""
        return self.path[-1] if self.path else self.frm


@dataclass
class Placement:
    at: str
    units: dict[str, int]
    via: str | None
    aboard: int | None
    where: FieldPath


@dataclass
class Rocket:
    frm: str
    target: str
    where: FieldPath


@dataclass
class Takeover:
    """Europe's Patriotic War: units of an ally in a Soviet territory that the USSR takes over."""

    territory: str
    power: str
    units: dict[str, int]
    where: FieldPath


@dataclass
class Retreat:
    to: str | None  # None: only aircraft leave, and they land in the noncombat move
    after_round: int | None
    below_units: int | None
    when_weaker: bool


@dataclass
class BattleDecisions:
    """The attacker's decisions for one battle (orders `battles:`)."""

    space: str
    where: FieldPath
    casualty_order: list[Entry] | None = None
    keep_land_unit: bool = True
    damage_battleships_first: bool = True
    retreat: Retreat | None = None
    submerge: str = "never"
    cancel_landing: bool = False
    enemy_casualties: list[Entry] | None = None


@dataclass
class Orders:
    """A power's orders for its turn."""

    doc: Document
    power: str | None
    round: int | None
    note: str | None = None
    research: tuple[str, int] | None = None
    purchase: dict[str, int] = field(default_factory=dict)
    casualty_order: list[Entry] | None = None
    battle_order: list[str] = field(default_factory=list)
    combat_moves: list[Move] = field(default_factory=list)
    rockets: list[Rocket] = field(default_factory=list)
    battles: dict[str, BattleDecisions] = field(default_factory=dict)
    noncombat_moves: list[Move] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    cash_advance: int | None = edition_field()
    """Europe's set-up turn of an Ally: its claim on the Allies' cash advance (option allied_advance)."""
    middle_east_payers: list[str] = edition_field([])
    patriotic_war: list[Takeover] = edition_field([])
    """Europe, the USSR's noncombat move: allied units it takes over (l.797)."""
    """Europe, Germany's turn: who pays its Middle East income when the Allies' offers fall short."""


@dataclass
class SpaceOverride:
    casualty_order: list[Entry] | None = None
    submerge: str | None = None
    damage_battleships_first: bool | None = None


@dataclass
class StandingOrders:
    """A power's decisions for battles fought on other powers' turns."""

    doc: Document | None
    power: str
    casualty_order: list[Entry] | None = None
    damage_battleships_first: bool = True
    submerge: str = "never"
    shared_casualties: str = "cheapest_first"
    carrier_fighters_land: list[str] = field(default_factory=list)
    interceptors: dict[str, int | str] = edition_field({})  # Europe: territory -> how many fighters, or all
    spaces: dict[str, SpaceOverride] = field(default_factory=dict)
    middle_east_offer: int | None = edition_field()
    """Europe, an Ally: the IPCs it offers towards Germany's Middle East income."""


class Reader:
    """Reads names out of one document, collecting a problem for each that is unknown."""

    def __init__(self, doc: Document, problems: list[Problem], edition: Edition):
        self.doc = doc
        self.problems = problems
        self.edition = edition
        self.board = edition.board
        self.table = edition.units

    def problem(self, where: FieldPath, message: str, allowed: str | None = None) -> None:
        """A problem at `where` in this document."""
        self.problems.append(self.doc.problem(where, message, allowed))

    def _lookup(self, table: NameTable, value: Any, where: FieldPath) -> str | None:
        name = table.get(value)
        if name is None:
            message, allowed = table.unknown_message(value)
            self.problem(where, message, allowed)
        return name

    def space(self, value: Any, where: FieldPath) -> str | None:
        """The canonical name of a space; None (and a problem) when unknown or neutral."""
        name = self._lookup(self.board.space_names, value, where)
        if name is not None and self.board.is_neutral(name):
            self.problem(where, f"{name} is neutral: no unit may enter, attack or fly over it")
            return None
        return name

    def power(self, value: Any, where: FieldPath) -> str | None:
        """The canonical name of a power; None (and a problem) when unknown."""
        return self._lookup(self.board.power_table, value, where)

    def unit_type(self, value: Any, where: FieldPath) -> str | None:
        """The canonical name of a unit type; None (and a problem) when unknown."""
        return self._lookup(self.table.unit_names, value, where)

    def development(self, value: Any, where: FieldPath) -> str | None:
        """The canonical name of a development; None (and a problem) when unknown."""
        return self._lookup(self.table.development_names, value, where)

    def counts(self, value: Any, where: FieldPath, keep_readable: bool = False) -> dict[str, int] | None:
        """A {type: n} mapping with types resolved; None when any entry is unreadable, unless
        `keep_readable` (then the entries that could be read, so that checks of them still run)."""
        if not isinstance(value, dict) or not value:
            self.problem(where, "expected unit types with numbers, e.g. {infantry: 2}")
            return None
        result: dict[str, int] = {}
        ok = True
        for key, n in value.items():
            utype = self.unit_type(key, where + (key,))
            if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                self.problem(where + (key,), f"{n!r} is not a whole number of units", f"1 to {MOST_UNITS}")
                ok = False
            elif n > MOST_UNITS:
                self.problem(where + (key,), f"{n} units is more than a game ever holds", f"1 to {MOST_UNITS}")
                ok = False
            elif utype is not None:
                if utype in result:
                    self.problem(where + (key,), f"{utype} is listed twice (as another name)")
                    ok = False
                result[utype] = n
            if utype is None:
                ok = False
        return result if ok or keep_readable else None

    def casualty_order(self, value: Any, where: FieldPath) -> list[Entry] | None:
        """A casualty order: unit types, each once, and counted entries ``{type: n}`` (as
        ``(type, n)``); unreadable entries are reported and left out. None when `value` is not a list."""
        if not isinstance(value, list):
            return None
        result: list[Entry] = []
        for i, item in enumerate(value):
            entry = self._casualty_entry(item, where + (i,))
            if entry is not None and not (isinstance(entry, str) and entry in result):
                result.append(entry)  # a bare type twice: the second would take nothing
        return result

    def _casualty_entry(self, item: Any, where: FieldPath) -> Entry | None:
        if not isinstance(item, dict):
            return self.unit_type(item, where)
        if len(item) != 1:
            self.problem(where, f"{len(item)} unit types in one entry of a casualty order",
                         "one unit type per entry: a type, or a type with a number, e.g. {tank: 1}")
            return None
        [(key, n)] = item.items()
        unit = self.unit_type(key, where + (key,))
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MOST_UNITS:
            self.problem(where + (key,), f"{n!r} is not a whole number of units to lose first", f"1 to {MOST_UNITS}")
            return None
        return None if unit is None else (unit, n)

    def spaces(self, value: Any, where: FieldPath) -> list[str] | None:
        """A list of spaces (a path); empty when missing, None when not a list or any entry is unreadable."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem(where, "expected a list of spaces")
            return None
        result: list[str] = []
        ok = True
        for i, item in enumerate(value):
            name = self.space(item, where + (i,))
            if name is None:
                ok = False
            else:
                result.append(name)
        return result if ok else None


def _bool(value: Any, default: bool) -> bool:
    return value if isinstance(value, bool) else default


def read_orders(doc: Document, edition: Edition) -> tuple[Orders, list[Problem]]:
    """The orders of `doc` as objects, and every problem with the names in them."""
    problems: list[Problem] = []
    r = Reader(doc, problems, edition)
    data = doc.data if isinstance(doc.data, dict) else {}
    orders = Orders(doc, r.power(data.get("power"), ("power",)) if "power" in data else None,
                    data.get("round") if isinstance(data.get("round"), int) else None, data.get("note"))
    research = data.get("research")
    if isinstance(research, dict) and _only_in(r, data, "research", edition.rules.research, edition,
                                               "weapons development (l.58)"):
        dev = r.development(research.get("development"), ("research", "development"))
        dice = research.get("dice")
        if dev is not None and isinstance(dice, int) and dice >= 1:
            orders.research = (dev, dice)
    if "purchase" in data:
        orders.purchase = r.counts(data["purchase"], ("purchase",), keep_readable=True) or {}
    if "casualty_order" in data:
        orders.casualty_order = r.casualty_order(data["casualty_order"], ("casualty_order",))
    if "battle_order" in data:
        orders.battle_order = [s for s in (r.spaces(data["battle_order"], ("battle_order",)) or []) if s]
    for phase, key in (("combat", "combat_move"), ("noncombat", "noncombat_move")):
        for i, raw in enumerate(data.get(key) or []):
            move = _read_move(r, raw, (key, i))
            if move is not None:
                (orders.combat_moves if phase == "combat" else orders.noncombat_moves).append(move)
    for i, raw in enumerate(data.get("rockets") or []):
        if isinstance(raw, dict):
            frm = r.space(raw.get("from"), ("rockets", i, "from"))
            target = r.space(raw.get("target"), ("rockets", i, "target"))
            if frm and target:
                orders.rockets.append(Rocket(frm, target, ("rockets", i)))
    for key, raw in (data.get("battles") or {}).items():
        space = r.space(key, ("battles", key))
        if space is None or not isinstance(raw, dict):
            continue
        where = ("battles", key)
        if space in orders.battles:
            r.problem(where, f"decisions for {space} are given twice")
            continue
        decisions = BattleDecisions(space, where)
        if "casualty_order" in raw:
            decisions.casualty_order = r.casualty_order(raw["casualty_order"], where + ("casualty_order",))
        if "enemy_casualties" in raw:
            decisions.enemy_casualties = r.casualty_order(raw["enemy_casualties"], where + ("enemy_casualties",))
        decisions.keep_land_unit = _bool(raw.get("keep_land_unit"), True)
        decisions.damage_battleships_first = _bool(raw.get("damage_battleships_first"), True)
        decisions.cancel_landing = _bool(raw.get("cancel_landing"), False)
        decisions.submerge = str(raw["submerge"]) if raw.get("submerge") in ("never", "always", "when_alone") else "never"
        retreat = raw.get("retreat")
        if isinstance(retreat, dict):
            to = r.space(retreat["to"], where + ("retreat", "to")) if "to" in retreat else None
            if to is not None or "to" not in retreat:
                decisions.retreat = Retreat(to, retreat.get("after_round"), retreat.get("below_units"),
                                            _bool(retreat.get("when_weaker"), False))
        orders.battles[space] = decisions
    for i, raw in enumerate(data.get("place") or []):
        if not isinstance(raw, dict):
            continue
        where = ("place", i)
        at = r.space(raw.get("at"), where + ("at",))
        units = r.counts(raw.get("units"), where + ("units",))
        via = r.space(raw["via"], where + ("via",)) if raw.get("via") is not None else None
        if at is not None and units is not None and (via is not None or raw.get("via") is None):
            aboard = raw.get("aboard") if isinstance(raw.get("aboard"), int) else None
            orders.placements.append(Placement(at, units, via, aboard, where))
    _read_europe_orders(r, data, orders, edition)
    return orders, problems


def _only_in(r: Reader, data: dict, key: str, present: bool, edition: Edition, what: str) -> bool:
    """False (with a problem) when `key` is in the document but the edition has no such rule."""
    if key in data and not present:
        r.problem((key,), f"{edition.name} has no {what}: remove `{key}`")
        return False
    return key in data


def _amount(r: Reader, value: Any, where: FieldPath) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000:
        return value
    r.problem(where, f"expected a number of IPCs, not {value!r}", "a whole number from 0 to 10000")
    return None


def _read_europe_orders(r: Reader, data: dict, orders: Orders, edition: Edition) -> None:
    rules = edition.rules
    if _only_in(r, data, "cash_advance", bool(rules.cash_advance), edition, "cash advance before round 1"):
        orders.cash_advance = _amount(r, data["cash_advance"], ("cash_advance",))
    if _only_in(r, data, "middle_east_payers", rules.middle_east_income is not None, edition,
                "Middle East income paid by the other side"):
        payers = data["middle_east_payers"]
        if not isinstance(payers, list):
            r.problem(("middle_east_payers",), "expected a list of powers")
        else:
            orders.middle_east_payers = [p for i, raw in enumerate(payers)
                                         if (p := r.power(raw, ("middle_east_payers", i))) is not None]
    if _only_in(r, data, "patriotic_war", bool(rules.takeover), edition, "Patriotic War"):
        entries = data["patriotic_war"]
        if not isinstance(entries, list):
            r.problem(("patriotic_war",), "expected a list of {territory, power, units}")
            return
        for i, raw in enumerate(entries):
            where = ("patriotic_war", i)
            if not isinstance(raw, dict):
                r.problem(where, "expected {territory: ..., power: ..., units: {...}}")
                continue
            territory = r.space(raw.get("territory"), where + ("territory",))
            power = r.power(raw.get("power"), where + ("power",))
            units = r.counts(raw.get("units"), where + ("units",))
            if territory and power and units:
                orders.patriotic_war.append(Takeover(territory, power, units, where))


def _read_move(r: Reader, raw: Any, where: FieldPath) -> Move | None:
    if not isinstance(raw, dict):
        return None
    ok = True
    units = r.counts(raw.get("units"), where + ("units",))
    frm = r.space(raw.get("from"), where + ("from",))
    path = r.spaces(raw.get("path"), where + ("path",))
    if units is None or frm is None or path is None:
        ok = False
    move = Move(units or {}, frm or "", path or [], where, note=raw.get("note"))
    for j, lraw in enumerate(raw.get("load") or []):
        if not isinstance(lraw, dict):
            continue
        lwhere = where + ("load", j)
        lunits = r.counts(lraw.get("units"), lwhere + ("units",))
        lfrom = r.space(lraw.get("from"), lwhere + ("from",))
        lat = r.space(lraw["at"], lwhere + ("at",)) if lraw.get("at") is not None else None
        lpower = r.power(lraw["power"], lwhere + ("power",)) if lraw.get("power") is not None else None
        if lunits is None or lfrom is None or (lraw.get("at") is not None and lat is None) or \
                (lraw.get("power") is not None and lpower is None):
            ok = False
            continue
        move.load.append(Load(lunits, lfrom, lat, lpower, lwhere))
    if raw.get("cargo") is not None:
        move.cargo = r.counts(raw["cargo"], where + ("cargo",))
        ok = ok and move.cargo is not None
    for key in ("unload", "bombard", "carrier"):
        if raw.get(key) is not None:
            name = r.space(raw[key], where + (key,))
            ok = ok and name is not None
            setattr(move, key, name)
    move.bombing_raid = raw.get("bombing_raid") is True
    if raw.get("unload_units") is not None:
        if not r.edition.rules.partial_unload:
            r.problem(where + ("unload_units",), f"in {r.edition.name} a transport unloads all of your cargo: "
                                                 "remove `unload_units`")
            ok = False
        else:
            move.unload_units = r.counts(raw["unload_units"], where + ("unload_units",))
            ok = ok and move.unload_units is not None
    for key, outcome in (raw.get("if") or {}).items():
        space = r.space(key, where + ("if", key))
        if space is None:
            ok = False
        elif outcome not in CONDITIONS:
            r.problem(where + ("if", key), f"unknown outcome {outcome!r}", ", ".join(CONDITIONS))
            ok = False
        else:
            move.condition[space] = outcome
    return move if ok else None


def read_standing(doc: Document, edition: Edition) -> tuple[StandingOrders | None, list[Problem]]:
    """A standing-orders document as an object, and every problem with the names in it."""
    problems: list[Problem] = []
    r = Reader(doc, problems, edition)
    data = doc.data if isinstance(doc.data, dict) else {}
    power = r.power(data.get("power"), ("power",))
    if power is None:
        return None, problems
    standing = StandingOrders(doc, power)
    if "casualty_order" in data:
        standing.casualty_order = r.casualty_order(data["casualty_order"], ("casualty_order",))
    standing.damage_battleships_first = _bool(data.get("damage_battleships_first"), True)
    if data.get("submerge") in ("never", "always", "when_alone"):
        standing.submerge = data["submerge"]
    if data.get("shared_casualties") in ("own_first", "allies_first", "cheapest_first"):
        standing.shared_casualties = data["shared_casualties"]
    standing.carrier_fighters_land = [s for s in (r.spaces(data.get("carrier_fighters_land"),
                                                           ("carrier_fighters_land",)) or []) if s]
    standing.interceptors = _interceptors(r, data.get("interceptors"), edition)
    for key, raw in (data.get("spaces") or {}).items():
        space = r.space(key, ("spaces", key))
        if space is None or not isinstance(raw, dict):
            continue
        override = SpaceOverride()
        if "casualty_order" in raw:
            override.casualty_order = r.casualty_order(raw["casualty_order"], ("spaces", key, "casualty_order"))
        if raw.get("submerge") in ("never", "always", "when_alone"):
            override.submerge = raw["submerge"]
        if isinstance(raw.get("damage_battleships_first"), bool):
            override.damage_battleships_first = raw["damage_battleships_first"]
        # an entry that sets nothing (`Karelia: {}`) decides nothing, so it must not reach the
        # decisions the dice are bound to (nor undo an earlier entry naming the same space)
        if override.casualty_order or override.submerge or override.damage_battleships_first is not None:
            standing.spaces[space] = override
    if _only_in(r, data, "middle_east_offer", edition.rules.middle_east_income is not None, edition,
                "Middle East income paid by the other side"):
        standing.middle_east_offer = _amount(r, data["middle_east_offer"], ("middle_east_offer",))
    return standing, problems


def _interceptors(r: Reader, raw: Any, edition: Edition) -> dict[str, int | str]:
    """`interceptors: {territory: number or all}`: how many of this power's fighters in a raided
    territory intercept the raid (Europe l.717, ruling `interceptors`)."""
    if raw is None:
        return {}
    if not edition.combat.raid_escorts:
        r.problem(("interceptors",), f"{edition.name} has no interceptors: bombers raid without an air "
                                     "battle", "no `interceptors`")
        return {}
    result: dict[str, int | str] = {}
    for key, value in raw.items() if isinstance(raw, dict) else ():
        territory = r.space(key, ("interceptors", key))
        if territory is not None and (value == "all" or isinstance(value, int) and not isinstance(value, bool)):
            result[territory] = value
    return result


# Where a value stood and what a player wrote beside it change no outcome, so they stay out of the
# decisions the dice are bound to.
_NOT_DECISIONS = ("doc", "where", "note")


def _plain(value: Any) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name, f in value.__dataclass_fields__.items()
                if name not in _NOT_DECISIONS
                and not (f.metadata.get("digest") == "when_set" and getattr(value, name) in (None, [], {}, 0, False))}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def decisions(orders_doc: Document, standing_docs: dict[str, Document], edition: Edition) -> dict[str, Any]:
    """The acting power's orders and every other power's standing orders in force, as plain data
    with every name resolved: the same for any two files that decide the same things.

    A power without standing orders has the defaults in force, exactly as if its file said nothing
    but its power, so leaving such a file out of a turn changes nothing here.
    """
    orders, _ = read_orders(orders_doc, edition)
    standing = {}
    for doc in standing_docs.values():
        parsed, _ = read_standing(doc, edition)
        if parsed is not None:
            standing[parsed.power] = parsed
    others = [p for p in edition.board.powers if p != orders.power]
    return {"orders": _plain(orders),
            "standing_orders": {p: _plain(standing.get(p) or StandingOrders(None, p)) for p in others}}
