"""The content pack of Undaunted: Stalingrad: cards, unit tokens, tiles, map layouts and scenarios,
read from `content/` (docs/undaunted-content.md).

The seed gives the rules but few values (digest §1.6). A value the seed does not print is listed in
its entry's `demo:` and by `pbem content undaunted-stalingrad`, so that nobody mistakes the demo
pack for the box.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from pbem.core.cache import kept_data, source_digest
from pbem.core.errors import InputError, Problem
from pbem.core.yamlio import Document, file_digests, load_document, reader

SIDES = ("soviet", "german")
SIDE_LETTER = {"soviet": "S", "german": "N"}
DECK_LETTERS = {"P": "starting", "Z": "locked", "V": "upgrade", "R": "reservist"}

MOVEMENT = ("move", "scout", "stealth_move", "maneuver")
SUPPORT = ("bolster", "immediate_bolster", "follow_me", "confuse_the_enemy", "control", "inspire", "recon",
           "secure_recon", "rally", "exertion", "smoke", "mines", "fire_lane", "anti_aircraft")
COMPOSITE = ("attack_and_stealth_move", "sally")
COMBAT = ("attack", "suppress", "suppressive_fire", "grenades", "flamethrower", "anti_tank", "demolition", "bombard")
ACTIONS = MOVEMENT + SUPPORT + COMPOSITE + COMBAT
UNIT_TYPES = ("riflemen", "scouts", "machine_gunners", "engineers", "at_gun", "tank", "flamethrowers", "snipers")


def action_name(action: str) -> str:
    """An action as the cards write it: follow_me is "Follow me!"."""
    return "Follow me!" if action == "follow_me" else action.replace("_", " ").capitalize()


def other_side(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


@dataclass(frozen=True)
class Action:
    action: str
    value: int | None = None
    values: tuple[tuple[str, int], ...] = ()
    """Per target type (infantry, tank, building) for Anti-Tank, Demolition and Bombard."""
    squad: str | None = None
    range_min: int | None = None
    range_max: int | None = None
    upgraded: bool = False
    unavailable: bool = False

    def dice_against(self, target_type: str) -> int | None:
        """The number of dice against a target of that type (infantry, tank, building), None when
        the action has no value for it."""
        if self.values:
            return dict(self.values).get(target_type)
        return self.value

    @property
    def label(self) -> str:
        name = action_name(self.action)
        if self.values:
            amount = "/".join(f"{v} vs {k}" for k, v in self.values)
        else:
            amount = "" if self.value is None else str(self.value)
        squad = f"({self.squad})" if self.squad else ""
        ranges = (f" range {self.range_min}+" if self.range_min is not None else "") + \
                 (f" range up to {self.range_max}" if self.range_max is not None else "")
        return f"{name} {amount}{squad}".strip() + ranges


@dataclass(frozen=True)
class Card:
    id: str
    side: str
    name: str
    kind: str  # unit | command | fog_of_war
    squad: str | None
    unit: str | None
    initiative: int
    tier: str
    actions: tuple[Action, ...]

    @property
    def label(self) -> str:
        return f"{self.name} ({self.squad})" if self.squad else self.name

    @property
    def number(self) -> str:
        return self.id.split("-")[2]

    @property
    def deck(self) -> str:
        return DECK_LETTERS[self.id.split("-")[1]]


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    name: str
    type: str
    squad: str | None
    defence: int
    locked: bool
    also: str | None = None
    """The squad merged into this unit's, whose letter its merged token bears too."""

    @property
    def tank(self) -> bool:
        return self.type == "tank"

    @property
    def label(self) -> str:
        squads = f"{self.squad}+{self.also}" if self.also else self.squad
        return f"{self.name} ({squads})" if self.squad else self.name


@dataclass(frozen=True)
class TileVersion:
    name: str
    cover: int
    building_cover: int | None = None
    durability: int | None = None
    impassable: bool = False
    fortification_cover: int | None = None

    @property
    def building(self) -> bool:
        return self.durability is not None


@dataclass(frozen=True)
class Layout:
    id: str
    rows: tuple[tuple[str | None, ...], ...]
    objectives: dict[str, int]
    units: dict[str, dict[str, str]]
    markers: dict[str, dict[str, str]]
    mines: tuple[dict[str, Any], ...]
    tunnels: tuple[str, ...]
    vp: dict[str, int] = field(default_factory=dict)
    """VP tokens: tile to the VP they are worth."""
    tokens: dict[str, str] = field(default_factory=dict)
    """Mission and exit tokens: kind to tile."""


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    layout: str
    objectives: dict[str, dict[str, Any]]
    initiative: str
    supply: dict[str, list[str]]
    draw_deck: dict[str, list[str]]
    area: str | None
    game_state: dict[str, dict[str, str]]
    fortify: tuple[str, ...] = ()
    upgrades: int = 2
    total_rout: bool = True
    """False where the overview says that routing every enemy Riflemen unit does not win."""
    rulings: tuple[str, ...] = ()
    """The rulings its data encode (a table the book prints for one side only), said at its first bids."""


@dataclass(frozen=True)
class Story:
    scenario: str
    unlock: dict[str, list[str]]
    replace: dict[str, dict[str, str]]
    merge: dict[str, list[str]] = field(default_factory=dict)
    """side -> the two squads merged from this story on: [kept letter, merged-in letter]."""


@dataclass
class Pack:
    cards: dict[str, Card]
    units: dict[str, dict[str, Unit]]
    tiles: dict[str, dict[str, TileVersion]]
    layouts: dict[str, Layout]
    scenarios: dict[str, Scenario]
    stories: dict[str, Story]
    areas: list[str]
    notes: list[str] = field(default_factory=list)

    def side_cards(self, side: str, deck: str | None = None) -> list[str]:
        return [c.id for c in self.cards.values() if c.side == side and (deck is None or c.deck == deck)]

    def unit_of(self, card_id: str) -> Unit | None:
        card = self.cards[card_id]
        return self.units[card.side][card.unit] if card.unit else None

    def tile(self, number: str, letter: str) -> TileVersion:
        return self.tiles[number][letter]


CONTENT_SCHEMA = {
    "cards": {"type": "object", "required": ["cards"], "properties": {"cards": {
        "type": "object", "additionalProperties": False, "required": list(SIDES),
        "properties": {side: {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["id", "name", "kind", "initiative"],
            "properties": {
                "id": {"type": "string", "pattern": "^[SN]-[PZVR]-[0-9]{3}$"},
                "copies": {"type": "integer", "minimum": 1, "maximum": 99},
                "name": {"type": "string", "minLength": 1},
                "kind": {"enum": ["unit", "command", "fog_of_war"]},
                "unit": {"type": "string"}, "squad": {"enum": ["A", "B", "C", None]},
                "tier": {"enum": ["regular", "reservist", "upgraded"]},
                "initiative": {"type": "integer", "minimum": 0, "maximum": 99},
                "actions": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False, "required": ["action"],
                    "properties": {
                        "action": {"enum": list(ACTIONS)},
                        "value": {"type": "integer", "minimum": 0, "maximum": 20},
                        "values": {"type": "object", "additionalProperties": False, "minProperties": 1,
                                   "properties": {k: {"type": "integer", "minimum": 0, "maximum": 20}
                                                  for k in ("infantry", "tank", "building")}},
                        "squad": {"enum": ["A", "B", "C"]},
                        "range_min": {"type": "integer", "minimum": 0, "maximum": 20},
                        "range_max": {"type": "integer", "minimum": 0, "maximum": 20},
                        "upgraded": {"type": "boolean"}, "unavailable": {"type": "boolean"}}}},
                "demo": {"type": "array", "items": {"type": "string"}}}}} for side in SIDES}}}},
    "units": {"type": "object", "required": ["units"], "properties": {"units": {
        "type": "object", "additionalProperties": False, "required": list(SIDES),
        "properties": {side: {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["unit", "name", "type", "defence"],
            "properties": {"unit": {"type": "string", "pattern": "^[A-Z0-9]+(-[A-C]+)?$"},
                           "name": {"type": "string"}, "type": {"enum": list(UNIT_TYPES)},
                           "squad": {"enum": ["A", "B", "C", None]},
                           "defence": {"type": "integer", "minimum": 0, "maximum": 20},
                           "locked": {"type": "boolean"},
                           "demo": {"type": "array", "items": {"type": "string"}}}}} for side in SIDES}}}},
    "tiles": {"type": "object", "required": ["tiles"], "properties": {"tiles": {
        "type": "object", "propertyNames": {"pattern": "^[0-9]{1,4}$"},
        "additionalProperties": {
            "type": "object", "required": ["A"], "propertyNames": {"enum": ["A", "B", "C", "D", "demo"]},
            "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["name", "cover"],
                "properties": {"name": {"type": "string"},
                               "cover": {"type": "integer", "minimum": 0, "maximum": 20},
                               "building_cover": {"type": "integer", "minimum": 0, "maximum": 20},
                               "durability": {"type": "integer", "minimum": 0, "maximum": 20},
                               "impassable": {"type": "boolean"},
                               "fortification_cover": {"type": "integer", "minimum": 0, "maximum": 20}}},
            "properties": {"demo": {"type": "array", "items": {"type": "string"}}}}}}},
    "campaign": {"type": "object", "required": ["stories", "areas"], "additionalProperties": False, "properties": {
        "stories": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["scenario"], "additionalProperties": False,
            "properties": {"scenario": {"type": "string"},
                           "unlock": {"type": "object", "propertyNames": {"enum": list(SIDES)},
                                      "additionalProperties": {"type": "array", "items": {"type": "string"}}},
                           "replace": {"type": "object", "propertyNames": {"enum": list(SIDES)},
                                       "additionalProperties": {"type": "object",
                                                                "additionalProperties": {"type": "string"}}},
                           "merge": {"type": "object", "propertyNames": {"enum": list(SIDES)},
                                     "additionalProperties": {"type": "array", "minItems": 2, "maxItems": 2,
                                                              "uniqueItems": True,
                                                              "items": {"enum": ["A", "B", "C"]}}}}}},
        "areas": {"type": "array", "items": {"type": "string"}},
        "demo": {"type": "array", "items": {"type": "string"}}}},
    "layout": {"type": "object", "required": ["rows", "objectives", "units", "markers"], "additionalProperties": False,
               "properties": {
                   "rows": {"type": "array", "minItems": 1, "maxItems": 40, "items": {
                       "type": "array", "maxItems": 40, "items": {"type": ["string", "null"]}}},
                   "objectives": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
                   "units": {"type": "object", "propertyNames": {"enum": list(SIDES)},
                             "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}}},
                   "markers": {"type": "object", "propertyNames": {"enum": list(SIDES)},
                               "additionalProperties": {"type": "object", "additionalProperties": {
                                   "enum": ["scouted", "controlled"]}}},
                   "mines": {"type": "array", "items": {
                       "type": "object", "additionalProperties": False, "required": ["side", "edge", "face"],
                       "properties": {"side": {"enum": list(SIDES)}, "face": {"enum": ["AP", "AT"]},
                                      "edge": {"type": "array", "minItems": 2, "maxItems": 2,
                                               "items": {"type": "string"}}}}},
                   "tunnels": {"type": "array", "items": {"type": "string"}},
                   "vp": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 1}},
                   "tokens": {"type": "object", "additionalProperties": False,
                              "properties": {"mission": {"type": "string"}, "exit": {"type": "string"}}},
                   "demo": {"type": "array", "items": {"type": "string"}}}},
    "scenario": {"type": "object", "additionalProperties": False,
                 "required": ["id", "name", "layout", "objectives", "initiative", "supply", "draw_deck"],
                 "properties": {
                     "id": {"type": "string"}, "name": {"type": "string"}, "layout": {"type": "string"},
                     "objectives": {"type": "object", "required": list(SIDES), "additionalProperties": False,
                                    "properties": {side: {"$ref": "#/$defs/objective"} for side in SIDES}},
                     "total_rout": {"type": "boolean"},
                     "rulings": {"type": "array", "items": {"type": "string"}},
                     "initiative": {"enum": list(SIDES)},
                     "supply": {"type": "object", "required": list(SIDES), "additionalProperties": False,
                                "properties": {side: {"type": "array", "items": {"type": "string"}} for side in SIDES}},
                     "draw_deck": {"type": "object", "required": list(SIDES), "additionalProperties": False,
                                   "properties": {side: {"type": "array", "items": {"type": "string"}}
                                                  for side in SIDES}},
                     "area": {"type": "string"}, "fortify": {"type": "array", "items": {"type": "string"}},
                     "upgrades": {"type": "integer", "minimum": 0, "maximum": 10},
                     "game_state": {"type": "object", "additionalProperties": {
                         "type": "object", "required": list(SIDES), "additionalProperties": False,
                         "properties": {side: {"type": "string"} for side in SIDES}}},
                     "demo": {"type": "array", "items": {"type": "string"}}},
                 "$defs": {"objective": {
                     "type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
                     "properties": {
                         "control_objectives": {"type": "integer", "minimum": 1},
                         "control_vp": {"type": "integer", "minimum": 1},
                         "rout_units": {"type": "object", "additionalProperties": False, "minProperties": 1,
                                        "properties": {"units": {"type": "array", "items": {"type": "string"}},
                                                       "count": {"type": "integer", "minimum": 1}}},
                         "move_units": {"type": "object", "additionalProperties": False, "required": ["units", "token"],
                                        "properties": {"units": {"type": "array", "items": {"type": "string"}},
                                                       "token": {"enum": ["mission", "exit"]}}},
                         "all": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/objective"}},
                         "any": {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/objective"}},
                         "total": {"type": "object", "additionalProperties": False, "required": ["of", "at_least"],
                                   "properties": {"of": {"type": "array", "minItems": 2, "items": {
                                       "enum": ["control_objectives", "control_vp"]}},
                                                  "at_least": {"type": "integer", "minimum": 1}}}}}}},
}


def _checked(doc: Document, kind: str) -> dict[str, Any]:
    import jsonschema  # only when the pack is checked anew: once for every process (_checked_pack)
    validator = jsonschema.Draft202012Validator(CONTENT_SCHEMA[kind])
    problems = [doc.problem(tuple(e.absolute_path), e.message, None)
                for e in sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))]
    if problems:
        raise InputError(problems)
    return doc.data


def _action(entry: dict[str, Any]) -> Action:
    return Action(entry["action"], entry.get("value"), tuple(sorted((entry.get("values") or {}).items())),
                  entry.get("squad"), entry.get("range_min"), entry.get("range_max"),
                  entry.get("upgraded", False), entry.get("unavailable", False))


def _ids(first: str, copies: int) -> list[str]:
    prefix, number = first.rsplit("-", 1)
    return [f"{prefix}-{int(number) + i:03d}" for i in range(copies)]


PACK_FILES = ("cards.yaml", "units.yaml", "tiles.yaml", "campaign.yaml")
PACK_FOLDERS = ("layouts", "scenarios")


def load_pack(folder: Path) -> Pack:
    """The content pack in `folder` (cards.yaml, units.yaml, tiles.yaml, layouts/, scenarios/);
    `InputError` naming every file, line and field that breaks the format. A pack checked once is
    kept for every process while its files and this code stay the same (30 ms of every Undaunted run)."""
    files = [folder / name for name in PACK_FILES]
    files += [path for sub in PACK_FOLDERS for path in sorted((folder / sub).glob("*.yaml"))]
    made_from = [source_digest(__name__), *reader(), *file_digests(folder, files)]
    return _pack(kept_data("undaunted-pack", made_from, lambda: _checked_pack(folder)))


def _checked_pack(folder: Path) -> dict[str, Any]:
    problems: list[Problem] = []
    loaded: dict[str, Any] = {}
    for name, kind in zip(PACK_FILES, ("cards", "units", "tiles", "campaign")):
        try:
            loaded[kind] = _checked(load_document(folder / name), kind)
        except InputError as exc:
            problems += exc.problems
    for sub, kind in zip(PACK_FOLDERS, ("layout", "scenario")):
        loaded[sub] = {}
        for path in sorted((folder / sub).glob("*.yaml")):
            try:
                loaded[sub][path.stem] = _checked(load_document(path), kind)
            except InputError as exc:
                problems += exc.problems
    if problems:
        raise InputError(problems)
    return loaded


def _pack(data: dict[str, Any]) -> Pack:
    notes: list[str] = []
    units: dict[str, dict[str, Unit]] = {}
    for side in SIDES:
        units[side] = {}
        for u in data["units"]["units"][side]:
            units[side][u["unit"]] = Unit(u["unit"], side, u["name"], u["type"], u.get("squad"), u["defence"],
                                          u.get("locked", False))
            notes += [f"units: {side} {u['unit']} {what}: demo" for what in u.get("demo") or []]
    cards: dict[str, Card] = {}
    for side in SIDES:
        for c in data["cards"]["cards"][side]:
            unit = units[side].get(c.get("unit") or "")
            squad = c.get("squad") if c.get("squad") is not None else unit.squad if unit else None
            actions = tuple(_action(a) for a in c.get("actions") or [])
            ids = _ids(c["id"], c.get("copies", 1))
            for card_id in ids:
                cards[card_id] = Card(card_id, side, c["name"], c["kind"], squad, c.get("unit"), c["initiative"],
                                      c.get("tier", "regular"), actions)
            shown = ids[0] if len(ids) == 1 else f"{ids[0]}..{ids[-1]}"
            notes += [f"cards: {shown} ({c['name']}) {what}: demo" for what in c.get("demo") or []]
    tiles: dict[str, dict[str, TileVersion]] = {}
    for number, versions in data["tiles"]["tiles"].items():
        tiles[number] = {letter: TileVersion(**v) for letter, v in versions.items() if letter != "demo"}
        notes += [f"tiles: {number} {what}: demo" for what in versions.get("demo") or []]
    layouts = {}
    for name, lay in data["layouts"].items():
        layouts[name] = Layout(name, tuple(tuple(r) for r in lay["rows"]), dict(lay["objectives"]),
                               {s: dict(lay["units"].get(s) or {}) for s in SIDES},
                               {s: dict(lay["markers"].get(s) or {}) for s in SIDES},
                               tuple(lay.get("mines") or ()), tuple(lay.get("tunnels") or ()),
                               dict(lay.get("vp") or {}), dict(lay.get("tokens") or {}))
        notes += [f"layout {name}: {what}: demo" for what in lay.get("demo") or []]
    scenarios = {}
    for name, sc in data["scenarios"].items():
        scenarios[sc["id"]] = Scenario(sc["id"], sc["name"], sc["layout"], sc["objectives"], sc["initiative"],
                                       sc["supply"], sc["draw_deck"], sc.get("area"), sc.get("game_state") or {},
                                       tuple(sc.get("fortify") or ()), sc.get("upgrades", 2), sc.get("total_rout", True),
                                       tuple(sc.get("rulings") or ()))
        notes += [f"scenario {sc['id']}: {what}: demo" for what in sc.get("demo") or []]
    campaign = data["campaign"]
    stories = {code: Story(st["scenario"], st.get("unlock") or {}, st.get("replace") or {}, st.get("merge") or {})
               for code, st in campaign["stories"].items()}
    notes += [f"campaign: {what}: demo" for what in campaign.get("demo") or []]
    return Pack(cards, units, tiles, layouts, scenarios, stories, list(campaign["areas"]), notes)


@cache
def demo_pack() -> Pack:
    """The pack pbem ships: the seed's facts, everything else marked demo."""
    return load_pack(Path(str(files("pbem.rulesets.undaunted") / "content")))


_MERGED: dict[tuple[int, str], Pack] = {}


def merged_pack(pack: Pack, merges: dict[str, list[list[str]]]) -> Pack:
    """The pack as a campaign with merged squads sees it (seed p. 31, l.1635-1643): the merged-in
    squad's cards belong to the kept squad and its units' tokens are the kept squad's, so that
    set-up listings, squad-limited actions and deployment treat the two as one squad."""
    if not any(merges.values()):
        return pack
    key = (id(pack), repr(sorted((side, sorted(map(tuple, groups))) for side, groups in merges.items())))
    if key in _MERGED:
        return _MERGED[key]
    cards, units = dict(pack.cards), {side: dict(found) for side, found in pack.units.items()}
    for side, groups in merges.items():
        for kept, merged_in in groups:
            renamed = {}
            for unit_id, unit in pack.units[side].items():
                if unit.squad == merged_in:
                    twin = next((u for u in pack.units[side].values() if u.type == unit.type and u.squad == kept), None)
                    if twin is not None:
                        renamed[unit_id] = twin.id
                        del units[side][unit_id]
                        units[side][twin.id] = dataclasses.replace(twin, also=merged_in)
            for card_id, card in pack.cards.items():
                if card.side == side and card.squad == merged_in:
                    cards[card_id] = dataclasses.replace(card, squad=kept, unit=renamed.get(card.unit, card.unit))
    _MERGED[key] = dataclasses.replace(pack, cards=cards, units=units)
    return _MERGED[key]


_LISTING = re.compile(r"^\s*(?:(\d+)\s*[x×]?\s+)?(.+?)(?:\s*\(([ABC])\))?\s*$")


def read_listing(pack: Pack, side: str, entries: list[str], among: list[str]) -> tuple[list[str], list[str]]:
    """The cards a scenario's supply or draw-deck listing takes from `among` ("5 Rifleman (A)": five
    cards of that name and squad; a name alone: all of them), in listing order, and what it lists
    that `among` lacks (omitted, as the seed says: l.1130)."""
    taken, missing = [], []
    left = list(among)
    for entry in entries:
        m = _LISTING.match(entry)
        count = int(m.group(1)) if m and m.group(1) else None
        name, squad = (m.group(2), m.group(3)) if m else (entry, None)
        matching = [c for c in left if pack.cards[c].name == name and pack.cards[c].squad == squad]
        chosen = matching if count is None else matching[:count]
        if count is not None and len(chosen) < count:
            missing.append(f"{count - len(chosen)} {name}" + (f" ({squad})" if squad else ""))
        for c in chosen:
            left.remove(c)
        taken += chosen
    return taken, missing


def _objective_parts(objective: dict[str, Any]) -> list[tuple[str, Any]]:
    (kind, arg), = objective.items()
    if kind in ("all", "any"):
        return [part for sub in arg for part in _objective_parts(sub)]
    return [(kind, arg)]


def _objective_units(objective: dict[str, Any], side: str) -> list[tuple[str, str]]:
    """(unit, whose) for every unit an objective names: its own to move, the enemy's to rout."""
    return [(unit, side if kind == "move_units" else other_side(side)) for kind, arg in _objective_parts(objective)
            if kind in ("move_units", "rout_units") for unit in arg.get("units", [])]


def _objective_tokens(objective: dict[str, Any]) -> list[str]:
    return [arg["token"] for kind, arg in _objective_parts(objective) if kind == "move_units"]


def check_pack(pack: Pack) -> list[str]:
    """What is wrong with a pack beyond its format: references to units, tiles and cards it lacks."""
    problems = []
    for card in pack.cards.values():
        if card.kind == "unit" and card.unit not in pack.units[card.side]:
            problems.append(f"cards: {card.id} belongs to unit {card.unit}, which units.yaml lacks for {card.side}")
        if card.kind != "unit" and card.unit:
            problems.append(f"cards: {card.id} is a {card.kind} card and cannot belong to a unit")
        if card.id[0] != SIDE_LETTER[card.side]:
            problems.append(f"cards: {card.id} is listed under {card.side}, whose ids begin with "
                            f"{SIDE_LETTER[card.side]}")
        for action in card.actions:
            if action.action in ("anti_tank", "demolition", "bombard") and not action.values:
                problems.append(f"cards: {card.id} {action.action} needs values per target type")
            elif action.action in COMBAT + ("move", "scout", "stealth_move", "maneuver", "bolster", "follow_me",
                                            "mines", "inspire", "rally", "exertion", "immediate_bolster",
                                            "anti_aircraft") \
                    and action.action not in ("anti_tank", "demolition", "bombard") and action.value is None:
                problems.append(f"cards: {card.id} {action.action} needs a value")
    for side in SIDES:
        numbers = {}
        for card in pack.cards.values():
            if card.side == side and card.deck in ("starting", "locked"):
                if card.number in numbers:
                    problems.append(f"cards: {card.id} has the number of {numbers[card.number]}: a number names one "
                                    "soldier, whose reservist and upgrade cards share it")
                numbers[card.number] = card.id
        problems += [f"cards: {card.id} has no regular card of its number to replace" for card in pack.cards.values()
                     if card.side == side and card.deck in ("upgrade", "reservist") and card.number not in numbers]
    for number, versions in pack.tiles.items():
        letters = sorted(versions)
        if letters != [chr(ord("A") + i) for i in range(len(letters))]:
            problems.append(f"tiles: {number} has versions {', '.join(letters)}; they must follow A without a gap")
    for layout in pack.layouts.values():
        placed = [t for row in layout.rows for t in row if t]
        for t in placed:
            if t not in pack.tiles:
                problems.append(f"layout {layout.id}: tile {t} is not in tiles.yaml")
        if len(set(placed)) != len(placed):
            problems.append(f"layout {layout.id}: a tile is placed twice")
        where = set(placed)
        for t in list(layout.objectives) + list(layout.tunnels) + list(layout.vp) + list(layout.tokens.values()):
            if t not in where:
                problems.append(f"layout {layout.id}: tile {t} is not on the map")
        for side in SIDES:
            for unit, t in layout.units[side].items():
                if unit not in pack.units[side]:
                    problems.append(f"layout {layout.id}: {side} unit {unit} is not in units.yaml")
                if t not in where:
                    problems.append(f"layout {layout.id}: {side} {unit} stands on {t}, which is not on the map")
            problems += [f"layout {layout.id}: {side} marker on {t}, which is not on the map"
                         for t in layout.markers[side] if t not in where]
    for code, story in pack.stories.items():
        if story.scenario not in pack.scenarios:
            problems.append(f"campaign: story {code} leads to scenario {story.scenario}, which scenarios/ lacks")
        named = [c for ids in story.unlock.values() for c in ids] + \
            [c for pairs in story.replace.values() for pair in pairs.items() for c in pair]
        problems += [f"campaign: story {code} names card {c}, which cards.yaml lacks"
                     for c in named if c not in pack.cards]
    for scenario in pack.scenarios.values():
        for side in SIDES:
            problems += [f"scenario {scenario.id}: the {side} objective names {unit}, which is not a {whose} unit"
                         for unit, whose in _objective_units(scenario.objectives[side], side)
                         if unit not in pack.units[whose]]
            layout = pack.layouts.get(scenario.layout)
            problems += [f"scenario {scenario.id}: the {side} objective needs a {token} token, which layout "
                         f"{scenario.layout} lacks" for token in _objective_tokens(scenario.objectives[side])
                         if layout and token not in layout.tokens]
        if scenario.area is not None and scenario.area not in pack.areas:
            problems.append(f"scenario {scenario.id}: its area {scenario.area} is not among the campaign's areas")
        if scenario.layout not in pack.layouts:
            problems.append(f"scenario {scenario.id}: layout {scenario.layout} is not in layouts/")
        for side in SIDES:
            supply, missing = read_listing(pack, side, scenario.supply[side], pack.side_cards(side))
            problems += [f"scenario {scenario.id}: {side} supply lists {m}, which cards.yaml lacks" for m in missing]
            _, missing = read_listing(pack, side, scenario.draw_deck[side], supply)
            problems += [f"scenario {scenario.id}: {side} draw deck lists {m}, which its supply lacks"
                         for m in missing]
        problems += [f"scenario {scenario.id}: fortified tile {t} has no B version"
                     for t in scenario.fortify if "B" not in pack.tiles.get(t, {})]
    return problems
