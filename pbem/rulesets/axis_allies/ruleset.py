"""An Axis & Allies edition as the core sees it: options, the opening position, state checks, a turn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.core.errors import InputError, Problem
from pbem.core.events import EventLog
from pbem.core.ruleset import Dice, Option, Ruleset
from pbem.core.words import Words
from pbem.core.yamlio import Document
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.options import chosen_options
from pbem.rulesets.axis_allies.state import FORMAT, Position, production

if TYPE_CHECKING:  # the calculator is loaded only when asked for
    from pbem.rulesets.axis_allies.odds_request import OddsRequest


def _give_cash_advance(state: dict[str, Any], edition: Edition) -> None:
    """Europe (l.342-348): the game opens with a set-up round 0 in which each side's cash advance is
    spent. A side of one power gets it outright; the Allies' is split by option allied_advance:
    kept in the state for their set-up orders to claim (declared), all to the USSR, or equally."""
    b = edition.board
    state["round"] = 0
    split = state["options"]["allied_advance"]
    for side, amount in edition.rules.cash_advance.items():
        powers = [p for p in b.powers if b.side[p] == side]
        if len(powers) == 1:
            state["treasury"][powers[0]] += amount
        elif split == "declared":
            state.setdefault("cash_advance", {})[side] = amount
        elif split in powers:  # the option names the one power that gets it all
            state["treasury"][split] += amount
        else:  # equal: what does not divide goes to the first in turn order
            share, rest = divmod(amount, len(powers))
            for i, p in enumerate(powers):
                state["treasury"][p] += share + (rest if i == 0 else 0)


def _forces(state: dict[str, Any], costs: dict[str, int]) -> dict[str, dict[str, Any]]:
    """Each power's units by kind (those `costs` prices) in the unit table's order, what transports
    carry included, and what they cost to buy: the army's value in IPCs."""
    counts: dict[str, dict[str, int]] = {}
    for by_power in (state.get("units") or {}).values():
        for power, units in (by_power or {}).items():
            for kind, n in units.items():
                counts.setdefault(power, {}).setdefault(kind, 0)
                counts[power][kind] += n
    for loads in (state.get("cargo") or {}).values():
        for load in loads:
            for power, units in load["units"].items():
                for kind, n in units.items():
                    counts.setdefault(power, {}).setdefault(kind, 0)
                    counts[power][kind] += n
    forces = {}
    for power in state.get("treasury") or {}:
        have = counts.get(power, {})
        units = {kind: have[kind] for kind in costs if have.get(kind)}
        forces[power] = {"units": units, "value": sum(costs[kind] * n for kind, n in units.items())}
    return forces


class AxisAllies(Ruleset):
    """The rules of one Axis & Allies edition, everything except the dice of a battle (see combat/)."""

    schema_package = "pbem.rulesets.axis_allies.schemas"

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.id = edition.ruleset_id
        self.name = edition.name
        self.powers = edition.board.powers

    def options(self) -> tuple[Option, ...]:
        return self.edition.options

    def rulings(self) -> tuple[Option, ...]:
        return self.edition.rulings

    def opening_state(self, game: str, options: dict[str, Any], hidden: Dice | None = None) -> dict[str, Any]:
        setup = self.edition.data("setup.yaml")
        b = self.edition.board
        state = {
            "format": FORMAT, "ruleset": self.id, "game": game,
            "options": chosen_options(self.edition.options, options),
            "round": 1, "next_power": b.powers[0], "dice": None,
            "treasury": dict(setup["treasury"]), "developments": {p: [] for p in b.powers},
            "control": dict(setup["control"]), "units": setup["units"], "cargo": setup.get("cargo") or {},
            "winner": None,
        }
        if self.edition.rules.cash_advance:
            _give_cash_advance(state, self.edition)
        # Rebuild through the position so the opening state is in canonical order too. `dice` is
        # left as a placeholder in its place of the canonical order; the core fills it in.
        canonical = Position.from_state(state, self.edition).to_state()
        canonical["dice"] = None
        return canonical

    def check_state(self, state: Document) -> list[Problem]:
        from pbem.rulesets.axis_allies.checkstate import check_state
        return check_state(state, self.edition)

    # A turn of Axis & Allies is one power's: its orders are the one submission.
    def check_orders(self, state: dict[str, Any], submissions: dict[str, Document],
                     standing: dict[str, Document]) -> list[Problem]:
        from pbem.rulesets.axis_allies.turn import check_turn
        return check_turn(self.edition, state, submissions[state["next_power"]], standing)

    def decisions(self, state: dict[str, Any], submissions: dict[str, Document],
                  standing: dict[str, Document]) -> Any:
        from pbem.rulesets.axis_allies.orders import decisions
        return decisions(submissions[state["next_power"]], standing, self.edition)

    def resolve(self, state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document],
                dice: Dice, log: EventLog, hidden: Dice | None = None) -> dict[str, Any]:
        from pbem.rulesets.axis_allies.turn import resolve_turn
        return resolve_turn(self.edition, state, submissions[state["next_power"]], standing, dice, log)

    def order_items(self, orders: dict[str, Any]) -> list[str]:
        """Every order of the file that something is done with: each move, rocket, placement, takeover
        and battle's decisions, and the purchase, research, battle order, casualty order, cash advance
        and Middle East payers as one item each (`power`, `round` and notes decide nothing)."""
        items = [key for key in ("research", "purchase", "casualty_order", "battle_order", "cash_advance",
                                 "middle_east_payers") if orders.get(key) not in (None, [], {})]
        for key in ("combat_move", "rockets", "noncombat_move", "patriotic_war", "place"):
            items += [f"{key}[{i}]" for i in range(len(orders.get(key) or []))]
        return items + [f"battles.{space}" for space in orders.get("battles") or {}]

    def check_standing_orders(self, state: dict[str, Any], standing: Document) -> list[Problem]:
        from pbem.rulesets.axis_allies.orders import read_standing
        return read_standing(standing, self.edition)[1]

    def spaces(self, name: str | None = None) -> list[dict[str, Any]]:
        b = self.edition.board
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
            if not land:
                line = "sea zone"
            elif b.is_neutral(space):
                line = "neutral territory"
            else:
                line = f"{b.ipc(space)} IPC, held by {land.original_owner or 'nobody'} at the start"
            facts.append({"name": space, "facts": line, "kind": "land" if land else "sea", "ipc": b.ipc(space),
                          "owner": land.original_owner if land else None, "neutral": b.is_neutral(space),
                          "land_neighbours": [n for n in b.neighbours[space] if b.is_land(n)],
                          "sea_neighbours": [n for n in b.neighbours[space] if b.is_sea(n)]})
        return facts

    def names(self) -> dict[str, dict[str, str]]:
        b, units = self.edition.board, self.edition.units
        return {"power": dict(b.power_table.spellings), "unit_type": dict(units.unit_names.spellings),
                "development": dict(units.development_names.spellings), "space": dict(b.space_names.spellings)}

    def summary(self, state: dict[str, Any]) -> dict[str, Any]:
        """Facts for the reports' position table and charts.

        Shape: ``{"powers": [{"power", "side", "production", "cities", "treasury", "units", "value"}],
        "sides": [{"name", "count"}], "needed": n, "costs": {unit type: IPC}}``: ``units`` counts a
        power's units by type (cargo included), ``value`` what they cost; ``cities`` are a power's
        victory cities, or where capitals decide the enemy capitals it holds; ``needed`` is the number of
        victory cities that wins, or None where capitals decide.
        """
        b, control = self.edition.board, state.get("control") or {}  # counts: no position of pieces
        # industrial complexes are not forces: they change hands with their territory and Europe prices none
        costs = {kind: unit.cost for kind, unit in self.edition.units.types.items() if unit.cls != "building"}
        forces = _forces(state, costs)
        if self.edition.rules.victory == "capitals":
            # enemy capitals, for a power as for its side: holding one (and one's own) wins (l.76-80)
            cities = {p: [b.capitals[q] for q in b.powers
                          if b.side[q] != b.side[p] and control.get(b.capitals[q]) == p] for p in b.powers}
            sides = [{"name": side.title(), "count": sum(len(cities[p]) for p in b.powers if b.side[p] == side)}
                     for side in b.sides]
            needed = None
        else:
            held = b.victory_cities_held(control)
            cities = {p: [city for owner, city in held if owner == p] for p in b.powers}
            sides = [{"name": side.title(), "count": sum(b.side[owner] == side for owner, _ in held)}
                     for side in b.sides]
            needed = int(state["options"]["victory_cities"])
        powers = [{"power": p, "side": b.side[p].title(), "production": production(self.edition, control, p),
                   "cities": cities[p], "treasury": int((state.get("treasury") or {}).get(p, 0)), **forces[p]}
                  for p in b.powers]
        return {"powers": powers, "sides": sides, "needed": needed, "costs": costs}

    def brief(self, state: dict[str, Any]) -> list[str]:
        summary, words = self.summary(state), self.words()
        one, many = ("victory city", "victory cities") if summary["needed"] else ("enemy capital", "enemy capitals")

        def counted(n: int) -> str:
            return f"{n} {one if n == 1 else many}"
        lines = [f"{words.power(p['power'])}: production {p['production']}, {counted(len(p['cities']))}"
                 for p in summary["powers"]]
        needed = f" of the {summary['needed']} needed" if summary["needed"] else " (one, with one's own, wins)"
        return lines + ["; ".join(f"{s['name']} {counted(s['count'])}" for s in summary["sides"]) + needed]

    def render_reports(self, before: dict[str, Any], after: dict[str, Any], log: EventLog,
                       inputs: Any) -> dict[str, bytes]:
        from pbem.rulesets.axis_allies.reports.report import render_reports
        return render_reports(before, after, log, inputs)

    def render_board(self, state: dict[str, Any], events: list[dict[str, Any]], title: str,
                     theatre: str | None = None) -> bytes | None:
        from pbem.rulesets.axis_allies.reports.report import render_map_png
        return render_map_png(state, events, title, theatre)

    def map_data(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The board facts and the drawing geometry and style the map image needs."""
        return self.edition.board_data, self.edition.graphics

    def words(self) -> Words:
        return self.edition.words

    def preview(self, view: dict[str, Any], orders: dict[str, Any], standing: dict[str, Any] | None,
                warn_below: float) -> dict[str, Any] | None:
        from pbem.rulesets.axis_allies.preview import preview
        return preview(self.edition, view, orders, standing, warn_below)

    def odds(self, request: OddsRequest) -> dict[str, Any]:
        """The outcome probabilities of a battle (`pbem odds`), as plain JSON data: at least
        ``attacker_win``, ``defender_win``, ``draw`` (summing to 1), ``attacker_survivors`` and
        ``defender_survivors`` ({unit type: expected number}), ``outcomes`` (the most likely ends, most
        likely first: ``probability``, ``winner`` (attacker, defender or draw), ``attackers`` and
        ``defenders`` {unit type: n}), ``attacker_ipc_lost`` and ``defender_ipc_lost`` (expected), and
        ``method``; an exact method may add ``error_bound``, how much any probability may be off.
        `InputError` when the request cannot be read or describes an impossible battle."""
        from pbem.rulesets.axis_allies.odds_request import odds_data
        return odds_data(request, self.edition)

