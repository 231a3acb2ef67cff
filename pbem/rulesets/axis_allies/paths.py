"""The spaces a move passes through, and where aircraft and ships may go.

Every step of a path must border the space before it. Aircraft fly anywhere but over a neutral
territory; ships sail from sea zone to sea zone, through a canal only when their side controlled
its territories at the start of the turn. A ship's shortest noncombat path (through friendly sea
zones) is what a carrier's pick-up of a fighter follows when the orders leave it out.
"""

from __future__ import annotations

from typing import Callable

from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.move_plan import Error
from pbem.rulesets.axis_allies.orders import Move
from pbem.rulesets.axis_allies.state import Unit


def air_can_enter(turn: Turn) -> Callable[[str, str], bool]:
    """Air steps: anywhere but a neutral territory."""
    b = turn.board
    return lambda _, n: not b.is_neutral(n)


def sea_can_enter(turn: Turn) -> Callable[[str, str], bool]:
    """Sea steps, closing canals the side did not control at the start of the turn."""
    b = turn.board

    def enter(here: str, n: str) -> bool:
        if not b.is_sea(n):
            return False
        canal = b.canal_between(here, n)
        return canal is None or b.canal_open(canal, turn.side, turn.start_control)
    return enter


def check_steps(turn: Turn, move: Move, start: str, path: list[str], errors: list[Error]) -> bool:
    """Each space of the path must border the one before it."""
    here = start
    for i, space in enumerate(path):
        if not turn.board.adjacent(here, space):
            errors.append((move.where + ("path", i), f"{space} does not border {here}",
                           ", ".join(turn.board.sort_spaces(n for n in turn.board.neighbours[here]
                                                            if not turn.board.is_neutral(n)))))
            return False
        here = space
    return True


def canal_errors(turn: Turn, move: Move, errors: list[Error]) -> None:
    """A problem for each canal on the path that the side did not control at the start of the turn."""
    b = turn.board
    here = move.frm
    for i, space in enumerate(move.path):
        canal = b.canal_between(here, space)
        if canal is not None and any(b.is_neutral(t) for t in canal.territories):
            errors.append((move.where + ("path", i),
                           f"the {canal.name} between {here} and {space} are closed to ships: "
                           f"{' and '.join(canal.territories)} is neutral", None))
        elif canal is not None and not b.canal_open(canal, turn.side, turn.start_control):
            holders = ", ".join(f"{t}: {turn.start_control.get(t)}" for t in canal.territories)
            errors.append((move.where + ("path", i),
                           f"the {canal.name} canal between {here} and {space} is closed to the {turn.side}: "
                           f"they did not control {' and '.join(canal.territories)} at the start of the turn "
                           f"({holders})", None))
        here = space


def sea_noncombat_path(turn: Turn, ship: Unit, dest: str) -> list[str] | None:
    """A shortest noncombat path for a ship to `dest` through friendly sea zones, or None."""
    b = turn.board
    enter = sea_can_enter(turn)
    routes = {ship.space: [ship.space]}
    frontier = [ship.space]
    for _ in range(ship.movement_left):
        nxt = []
        for here in frontier:
            for n in b.neighbours[here]:
                if n in routes or not enter(here, n) or turn.hostile_zone_now(n):
                    continue
                routes[n] = routes[here] + [n]
                nxt.append(n)
        frontier = nxt
    if dest == ship.space:
        return []
    return routes[dest][1:] if dest in routes else None
