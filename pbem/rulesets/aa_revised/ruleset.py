"""Axis & Allies Revised as the core sees it: options, the opening position, state checks, a turn."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from pbem.core.errors import Problem
from pbem.core.events import EventLog
from pbem.core.ruleset import Dice, OddsRequest, Option, Ruleset
from pbem.core.yamlio import Document
from pbem.rulesets.aa_revised.board import DATA_PACKAGE, board, load_data
from pbem.rulesets.aa_revised.options import OPTIONS, RULINGS, chosen_options
from pbem.rulesets.aa_revised.state import FORMAT, RULESET_ID, Position


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
        from pbem.rulesets.aa_revised.checkstate import check_state
        return check_state(state)

    def check_orders(self, state: dict[str, Any], orders: Document,
                     standing: dict[str, Document]) -> list[Problem]:
        from pbem.rulesets.aa_revised.turn import check_turn
        return check_turn(state, orders, standing)

    def decisions(self, state: dict[str, Any], orders: Document, standing: dict[str, Document]) -> Any:
        from pbem.rulesets.aa_revised.orders import decisions
        return decisions(orders, standing)

    def resolve(self, state: dict[str, Any], orders: Document, standing: dict[str, Document],
                dice: Dice, log: EventLog) -> dict[str, Any]:
        from pbem.rulesets.aa_revised.turn import resolve_turn
        return resolve_turn(state, orders, standing, dice, log)

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
        from pbem.rulesets.aa_revised.odds_request import odds_data
        return odds_data(request)


@lru_cache(maxsize=1)
def _map_data() -> tuple[dict[str, Any], dict[str, Any]]:
    graphics = resources.files(DATA_PACKAGE).joinpath("data", "graphics.json").read_text(encoding="utf-8")
    return load_data("board.yaml"), json.loads(graphics)
