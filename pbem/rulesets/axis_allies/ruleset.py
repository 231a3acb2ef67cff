"""Axis & Allies Revised as the core sees it: options, the opening position, state checks, a turn."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from pbem.core.errors import InputError, Problem
from pbem.core.events import EventLog
from pbem.core.ruleset import Dice, OddsRequest, Option, Ruleset
from pbem.core.yamlio import Document
from pbem.rulesets.axis_allies.board import DATA_PACKAGE, board, load_data
from pbem.rulesets.axis_allies.options import OPTIONS, RULINGS, chosen_options
from pbem.rulesets.axis_allies.state import FORMAT, RULESET_ID, Position
from pbem.rulesets.axis_allies.units import unit_table


class AxisAlliesRevised(Ruleset):
    """The rules of Axis & Allies Revised, everything except the dice of a battle (see combat.py)."""

    id = RULESET_ID
    name = "Axis & Allies Revised"
    powers = ("ussr", "germany", "uk", "japan", "usa")

    def options(self) -> tuple[Option, ...]:
        return OPTIONS

    def rulings(self) -> tuple[Option, ...]:
        return RULINGS

    def opening_state(self, game: str, options: dict[str, Any]) -> dict[str, Any]:
        setup = load_data("setup.yaml")
        b = board()
        state = {
            "format": FORMAT, "ruleset": RULESET_ID, "game": game, "options": chosen_options(options),
            "round": 1, "next_power": b.powers[0], "dice": None,
            "treasury": dict(setup["treasury"]), "developments": {p: [] for p in b.powers},
            "control": dict(setup["control"]), "units": setup["units"], "cargo": setup.get("cargo") or {},
            "winner": None,
        }
        # Rebuild through the position so the opening state is in canonical order too. `dice` is
        # left as a placeholder in its place of the canonical order; the core fills it in.
        canonical = Position.from_state(state).to_state()
        canonical["dice"] = None
        return canonical

    def check_state(self, state: Document) -> list[Problem]:
        from pbem.rulesets.axis_allies.checkstate import check_state
        return check_state(state)

    def check_orders(self, state: dict[str, Any], orders: Document,
                     standing: dict[str, Document]) -> list[Problem]:
        from pbem.rulesets.axis_allies.turn import check_turn
        return check_turn(state, orders, standing)

    def decisions(self, state: dict[str, Any], orders: Document, standing: dict[str, Document]) -> Any:
        from pbem.rulesets.axis_allies.orders import decisions
        return decisions(orders, standing)

    def resolve(self, state: dict[str, Any], orders: Document, standing: dict[str, Document],
                dice: Dice, log: EventLog) -> dict[str, Any]:
        from pbem.rulesets.axis_allies.turn import resolve_turn
        return resolve_turn(state, orders, standing, dice, log)

    def check_standing_orders(self, state: dict[str, Any], standing: Document) -> list[Problem]:
        from pbem.rulesets.axis_allies.orders import read_standing
        return read_standing(standing)[1]

    def spaces(self, name: str | None = None) -> list[dict[str, Any]]:
        b = board()
        chosen = list(b.order)
        if name is not None:
            found = b.space_names.get(name)
            if found is None:
                message, allowed = b.space_names.unknown_message(name)
                raise InputError([Problem("pbem board", None, "SPACE", message, allowed)])
            chosen = [found]
        facts = []
        for space in chosen:
            land = b.territories.get(space)
            facts.append({"name": space, "kind": "land" if land else "sea", "ipc": b.ipc(space),
                          "owner": land.original_owner if land else None, "neutral": b.is_neutral(space),
                          "land_neighbours": [n for n in b.neighbours[space] if b.is_land(n)],
                          "sea_neighbours": [n for n in b.neighbours[space] if b.is_sea(n)]})
        return facts

    def names(self) -> dict[str, dict[str, str]]:
        b, units = board(), unit_table()
        return {"power": dict(b.power_table.spellings), "unit_type": dict(units.unit_names.spellings),
                "development": dict(units.development_names.spellings), "space": dict(b.space_names.spellings)}

    def summary(self, state: dict[str, Any]) -> dict[str, Any]:
        b, position = board(), Position.from_state(state)
        held = b.victory_cities_held(position.control)
        powers = [{"power": p, "production": position.npl(p),
                   "cities": [city for owner, city in held if owner == p]} for p in b.powers]
        sides = [{"name": side.title(), "count": sum(b.side[owner] == side for owner, _ in held)}
                 for side in b.sides]
        return {"powers": powers, "sides": sides, "needed": int(state["options"]["victory_cities"])}

    def map_data(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return _map_data()

    def odds(self, request: OddsRequest) -> dict[str, Any]:
        from pbem.rulesets.axis_allies.odds_request import odds_data
        return odds_data(request)


@lru_cache(maxsize=1)
def _map_data() -> tuple[dict[str, Any], dict[str, Any]]:
    graphics = resources.files(DATA_PACKAGE).joinpath("editions", "revised", "graphics.json").read_text(encoding="utf-8")
    return load_data("board.yaml"), json.loads(graphics)
