"""Moves and ranges checked against the map before the turn is played (issue 26): each play from
where its unit stands after the earlier plays of the turn, as far as no die decides it. A step that
an enemy mine or fire lane may stop, a play with a `when`, and a target an earlier attack may rout
leave the unit's later plays to be checked when they are played."""

from __future__ import annotations

from typing import Any

from pbem.core.errors import choices
from pbem.rulesets.undaunted.board import Board, edge
from pbem.rulesets.undaunted.content import COMBAT, Pack, other_side

MOVES = ("move", "stealth_move", "maneuver", "sally")
PATHS = ("scout", "secure_recon")


class Map:
    """The acting side's units as the earlier plays of the turn leave them."""

    def __init__(self, pack: Pack, state: dict[str, Any], side: str) -> None:
        self.pack, self.state, self.side = pack, state, side
        self.board = Board(pack.layouts[pack.scenarios[state["scenario"]].layout])
        self.at = {u: t["tile"] for u, t in state["units"][side].items() if t}
        self.unsure: set[str] = set()
        """Own units whose tile a die may have decided, and enemy units an earlier attack may have pushed."""

    def name(self, tile: str) -> str:
        return f"{tile}-{self.state['tiles'][tile]}"

    def card_unit(self, ref: str | None) -> str | None:
        return next((c.unit for c in self.pack.cards.values() if c.side == self.side and ref in (c.id, c.label)), None)

    def card_action(self, ref: str | None, name: str):
        return next((a for c in self.pack.cards.values() if c.side == self.side and ref in (c.id, c.label)
                     for a in c.actions if a.action == name), None)

    def step_refusal(self, unit: str, here: str, to: str) -> tuple[str, str] | None:
        """Why a step is refused (seed: a move goes to an adjacent tile, digest §1.4; tunnels join their
        tiles for infantry; a tank enters no impassable tile), with what is allowed; None when it may go."""
        tank = self.pack.units[self.side][unit].tank
        tunnels = self.state["tunnels"]
        near = [t for t in self.board.neighbours[here] if not (tank and self.pack.tile(t, self.state["tiles"][t])
                                                               .impassable)]
        if here in tunnels and not tank:
            near += [t for t in tunnels if t != here and t not in near]
        allowed = choices((self.name(t) for t in near), "every tile next to it is closed to it")
        if to not in self.board.neighbours[here] and not (here in tunnels and to in tunnels and to != here):
            return (f"{self.name(to)} is not next to {self.name(here)}: each step goes to a tile next to the unit's, "
                    "or along a tunnel", f"next to {self.name(here)}: {allowed}")
        if tank and here in tunnels and to in tunnels and not self.board.adjacent(here, to):
            return "a tank cannot move through a tunnel", allowed
        if tank and self.pack.tile(to, self.state["tiles"][to]).impassable:
            return f"a tank cannot enter {self.name(to)}, which is impassable", allowed
        return None

    def dice_may_stop(self, unit: str, here: str, to: str) -> bool:
        enemy = other_side(self.side)
        tank = self.pack.units[self.side][unit].tank
        mined = any(m["side"] == enemy and m["edge"] == edge(here, to) for m in self.state["mines"])
        return mined or (not tank and to in self.state["fire_lanes"][enemy].values())


def check_reach(pack: Pack, state: dict[str, Any], side: str, plays: list[dict[str, Any]], problem,
                shots: list[dict[str, Any]] | None = None) -> None:
    """Problems (through `problem(field, message, allowed)`) for every step off the map's adjacency
    and every attack out of range, the plays taken in turn; each attack also into `shots` (the play,
    the attacker's tile, None from off the map, and whether a die may have moved it or its target)."""
    where = Map(pack, state, side)
    for i, play in enumerate(plays):
        if play.get("action") is None:
            continue
        unit = where.card_unit(play["card"])
        if play.get("deploy") and unit:
            where.at[unit] = play["deploy"]
        field = ("plays", i)
        name, params, card = play["action"], play, play["card"]
        if name in ("inspire", "exertion") and play.get("perform") and play.get("chosen"):
            card, params, field = play["chosen"], play["perform"], field + ("perform",)
            name, unit = params["action"], where.card_unit(play["chosen"])
        if name == "maneuver":
            unit = params.get("unit")
        moved = _check_moves(where, unit, name, params, field, problem)
        combat = params.get("combat") if name in ("sally", "attack_and_stealth_move") else params
        if combat and combat.get("action") in COMBAT or name in COMBAT:
            inner = combat.get("action", name)
            if shots is not None:
                shots.append({"play": i, "action": where.card_action(card, inner), "params": combat,
                              "from": where.at.get(unit) if unit else None,
                              "unsure": unit in where.unsure or combat.get("target") in where.unsure})
            at = field + (("combat",) if combat is not params else ())
            _check_target(where, where.card_action(card, inner), combat, at, problem)
            _check_range(where, unit, where.card_action(card, inner), combat, at, problem)
        if play.get("when"):
            where.unsure |= moved


def _check_moves(where: Map, unit: str | None, name: str, params: dict[str, Any], field: tuple,
                 problem) -> set[str]:
    """The play's steps checked one by one; the units it moved."""
    steps = [("to", params["to"])] if name in MOVES + ("attack_and_stealth_move",) and params.get("to") else \
        [(("path", k), t) for k, t in enumerate(params.get("path") or [])] if name in PATHS else []
    if not steps or unit is None or unit not in where.at or unit in where.unsure:
        return set()
    for key, to in steps:
        if to is None:
            return set()
        here = where.at[unit]
        refusal = where.step_refusal(unit, here, to)
        if refusal:
            problem(field + (key if isinstance(key, tuple) else (key,)), *refusal)
            where.unsure.add(unit)
            return {unit}
        where.at[unit] = to
        if where.dice_may_stop(unit, here, to):
            where.unsure.add(unit)
            break
    return {unit}


def _check_target(where: Map, action, params: dict[str, Any], field: tuple, problem) -> None:
    """An enemy unit as the target: on the map, and a tank only for Anti-Tank and Demolition (seed
    l.1430-1440); the enemy's units do not move in this side's turn but by its own attacks' pushes."""
    target, enemy = params.get("target"), other_side(where.side)
    if action is None or target is None or target in where.state["tiles"] or target.startswith("tunnel "):
        return
    tokens = where.state["units"][enemy]
    if not tokens.get(target):
        problem(field + ("target",), f"the enemy's {target} is not on the map",
                ", ".join(u for u, t in tokens.items() if t) or "no enemy unit is on the map")
    elif where.pack.units[enemy][target].tank and action.action not in ("anti_tank", "demolition"):
        problem(field + ("target",), f"{action.label} cannot target a tank: only Anti-Tank and Demolition can",
                choices((u for u, t in tokens.items() if t and not where.pack.units[enemy][u].tank),
                        "every enemy unit on the map is a tank"))


def _check_range(where: Map, unit: str | None, action, params: dict[str, Any], field: tuple, problem) -> None:
    """A unit's attack against the target's tile: within the card's range (seed l.1441-1451; Bombard
    comes from off the map). An enemy unit an earlier attack targeted may have been pushed: unsure."""
    target = params.get("target")
    enemy = other_side(where.side)
    if action is None or target is None or unit is None or unit not in where.at or unit in where.unsure:
        return
    tokens = where.state["units"][enemy]
    tile = target if target in where.state["tiles"] else (tokens.get(target) or {}).get("tile")
    if target.startswith("tunnel "):
        tile = target.split()[1]
    if target in tokens:
        if target in where.unsure:
            return
        where.unsure.add(target)
    if tile is None or action.action == "bombard":
        return
    if target in where.state["tiles"] or action.action in ("grenades", "suppressive_fire", "bombard"):
        where.unsure |= {u for u, t in tokens.items() if t and t["tile"] == tile}
    reach = where.board.distance(where.at[unit], tile)
    low, high = action.range_min or 0, action.range_max
    if reach < low or (high is not None and reach > high):
        here = where.at[unit]
        inside = [t for t in where.board.tiles
                  if low <= where.board.distance(here, t) and (high is None or where.board.distance(here, t) <= high)]
        reads = f"{low}-{high}" if high is not None else f"{low} or more"
        problem(field + ("target",), f"{where.name(tile)} is out of range of {action.label} from "
                f"{where.name(here)}: range {reach}", f"tiles at range {reads} of {where.name(here)}: "
                + ", ".join(where.name(t) for t in inside[:12]) + (" ..." if len(inside) > 12 else ""))
