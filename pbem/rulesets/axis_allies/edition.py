"""An edition of Axis & Allies: everything the family engine needs to know about one game box.

The engine's rules are written once for the whole family; what differs between Revised and Europe
is data in the edition's folder `editions/<key>/` (see docs/architecture.md): the map, the unit
table, the opening, the options and rulings, the turn order and sides (the board's powers), the
combat steps it uses, its words and its map style. Each part is read once, when first asked for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import Any

from pbem.core.ruleset import Option
from pbem.core.words import Words
from pbem.core.yamlio import load_packaged
from pbem.rulesets.axis_allies.board import Board
from pbem.rulesets.axis_allies.combat.battle import CombatRules
from pbem.rulesets.axis_allies.units import UnitTable

DATA_PACKAGE = "pbem.rulesets.axis_allies"
EDITIONS = {"aa-revised": "revised", "aa-europe": "europe"}
"""Ruleset id -> the edition's folder under editions/."""


@dataclass(frozen=True)
class TurnRules:
    """How a turn goes where the editions differ (the `rules` part of edition.yaml)."""

    research: bool
    surface: str
    """When submerged submarines surface: after_noncombat (Revised) or after_mobilize (Europe's step 6)."""
    victory: str
    """victory_cities (after the last power of the round) or capitals (at the start of a power's turn)."""
    placement_limit: str
    """every_complex (its IPC value) or captured_complexes (unlimited in the power's national territory)."""
    fighters_on_new_carriers: bool
    aa_fires_in_noncombat: bool = True
    """Whether AA guns fire at aircraft flying home from a battle in the noncombat move."""
    captured_aa_guns_stay: bool = False
    middle_east_aa_guns: bool = False
    """Whether any ally may move an AA gun in a Middle East country held by its side, once a round
    (Europe, l.871)."""
    partial_unload: bool = False
    """Whether an unload may name the units of the cargo that go ashore (Europe, l.1169)."""
    noncombat_submarines_pass: bool = True
    """Whether submarines pass sea zones with enemy units in the noncombat move."""
    """Whether an AA gun in a territory captured this turn may not move this turn."""
    individual_winner: str = "rise"
    """How the optional individual winner is found: the production level that rose most since the
    start (rise) or the highest production level (income)."""
    cash_advance: Mapping[str, int] = field(default_factory=dict)
    """Side -> the IPCs it gets before round 1 to buy and place with (a set-up round 0)."""
    extra_placement: Mapping[str, str] = field(default_factory=dict)
    """Power -> a territory where it may place land and air units without a complex."""
    middle_east_income: str | None = None
    transport_room: str = "1 land unit + 1 infantry"
    """One transport's room as messages write it in short (units.yaml holds the numbers)."""
    transport_room_in_full: str = "1 land unit of any type and 1 more infantry"
    """The same, as the `allowed` of a problem writes it."""
    takeover: Mapping[str, Any] = field(default_factory=dict)
    """Europe's Patriotic War: `by` (the power that takes over), `from` (whose units), in the
    territories its board marks `soviet`."""
    """The power whose Middle East income the other side pays."""


class Edition:
    """One edition: its data files and the objects built from them."""

    def __init__(self, key: str) -> None:
        self.key = key
        meta = self.data("edition.yaml")
        self.ruleset_id: str = meta["ruleset"]
        self.name: str = meta["name"]
        self.meta: dict[str, Any] = meta

    def text(self, filename: str) -> str:
        """A file of the edition's folder, as text."""
        return resources.files(DATA_PACKAGE).joinpath("editions", self.key, filename).read_text(encoding="utf-8")

    def data(self, filename: str) -> Any:
        """A YAML file of the edition's folder."""
        return load_packaged(self.text(filename))

    @cached_property
    def board_data(self) -> dict[str, Any]:
        """board.yaml as read (the map image draws from it)."""
        return self.data("board.yaml")

    @cached_property
    def board(self) -> Board:
        """The map."""
        return Board({**self.board_data, "aliases": self.data("aliases.yaml")}, self.meta["powers"])

    @cached_property
    def units(self) -> UnitTable:
        """The unit table and the developments."""
        return UnitTable(self.data("units.yaml"), self.meta.get("research") or {})

    @cached_property
    def rules(self) -> TurnRules:
        """How a turn goes in this edition."""
        return TurnRules(**self.meta["rules"])

    @cached_property
    def combat(self) -> CombatRules:
        """The facts a battle follows in this edition."""
        return CombatRules.of_edition(self.units, self.board, self.meta["combat"])

    @cached_property
    def options(self) -> tuple[Option, ...]:
        """The options players choose per game, in the order the state lists them."""
        return tuple(_option(o) for o in self.data("options.yaml")["options"])

    @cached_property
    def rulings(self) -> tuple[Option, ...]:
        """The one reading the engine takes wherever the rulebook is unclear."""
        return tuple(_option(o) for o in self.data("options.yaml")["rulings"])

    @cached_property
    def _by_name(self) -> dict[str, Option]:
        return {o.name: o for o in (*self.options, *self.rulings)}

    def has_option(self, name: str) -> bool:
        """Whether the edition has an option or ruling called `name`."""
        return name in self._by_name

    def option(self, name: str) -> Option:
        """The option or ruling called `name`."""
        return self._by_name[name]

    @cached_property
    def words(self) -> Words:
        """How the reports write the powers and unit types."""
        return Words({p: style["text"] for p, style in self.meta["powers"].items()},
                     {u.id: u.words for u in self.units.types.values()})

    @cached_property
    def graphics(self) -> dict[str, Any]:
        """The drawing data (graphics.json) with the edition's map style under `style`: the powers'
        colours and labels, the unit labels, the theatres and whether the board wraps."""
        graphics = json.loads(self.text("graphics.json"))
        graphics["style"] = {
            "powers": self.meta["powers"], "wraps": self.meta["map"]["wraps"],
            "theatres": {name: tuple(window) for name, window in self.meta["map"]["theatres"].items()},
            "unit_labels": {u.id: u.label for u in self.units.types.values()},
            "unit_words": {u.id: u.words for u in self.units.types.values()},
        }
        return graphics


def _option(data: dict[str, Any]) -> Option:
    return Option(data["name"], data["default"], tuple(data["allowed"]), data["text"], data.get("legacy"))


@lru_cache(maxsize=None)
def edition(ruleset_id: str) -> Edition:
    """The edition whose ruleset id is `ruleset_id` (read once)."""
    return Edition(EDITIONS[ruleset_id])
