"""Land units' moves: range, where they must stop, and the blitz.

Land units move from territory to territory within their movement and cross the sea only aboard a
transport. In the combat move they stop on entering a hostile territory and must end in one; AA
guns stay behind. A tank blitzes: it passes through one enemy territory that is empty (in Europe an
enemy industrial complex alone does not stop it unless an option says so) and takes it on the way.
In the noncombat move they enter only friendly territories. A move from a sea zone is cargo going
ashore, and a move into a sea zone is boarding a transport waiting there: `transports` checks those.
"""

from __future__ import annotations

from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.move_plan import Error, MovePlan
from pbem.rulesets.axis_allies.names import a
from pbem.rulesets.axis_allies.state import Unit
from pbem.rulesets.axis_allies.transports import check_boarding, check_cargo_ashore


def check_land(turn: Turn, plan: MovePlan, land: list[Unit], phase: str, errors: list[Error]) -> None:
    """Land units: range, where they must stop (a tank may blitz), boarding and leaving transports."""
    move, b = plan.move, turn.board
    if b.is_sea(move.frm):
        check_cargo_ashore(turn, plan, land, phase, errors)
        return
    if not move.path:
        errors.append((move.where + ("path",), "units that stay where they are need no move", None))
        return
    if b.is_sea(move.path[-1]):
        check_boarding(turn, plan, land, phase, errors)
        return
    for i, space in enumerate(move.path):
        if b.is_sea(space):
            errors.append((move.where + ("path", i), "land units cross the sea only aboard a transport", None))
            return
    for u in land:
        if len(move.path) > u.movement_left:
            errors.append((move.where + ("path",), f"{a(u.type)} moves {turn.table[u.type].movement} "
                                                   f"{'space' if turn.table[u.type].movement == 1 else 'spaces'}, "
                                                   f"this path has {len(move.path)}", f"{u.movement_left} or fewer"))
            return
    if phase == "combat":
        if any(u.type == "aa_gun" for u in land):
            errors.append((move.where + ("units", "aa_gun"), "AA guns move only in the noncombat move "
                                                            "(or aboard a transport)", None))
            return
        for i, space in enumerate(move.path[:-1]):
            if not turn.hostile_at_start(space):
                continue
            # a tank may pass through one hostile territory that is empty: the blitz
            if all(u.type == "tank" for u in land) and i == 0 and not _blocks_blitz(turn, space):
                plan.blitzed = space
                continue
            reason = (f"{space} holds enemy units ({', '.join(sorted(turn.enemy_types_at_start(space)))})"
                      if turn.enemy_at_start(space) else f"{space} is enemy territory")
            who = "tanks" if all(u.type == "tank" for u in land) else "land units"
            errors.append((move.where + ("path", i), f"{who} must stop in {space}: {reason}"
                           + (" (only a tank may blitz, through one empty enemy territory)"
                              if who == "land units" else ""), None))
            return
        dest = move.path[-1]
        if not turn.hostile_at_start(dest) and not plan.blitzed:
            errors.append((move.where + ("path", len(move.path) - 1),
                           f"{dest} is friendly: a combat move must end in a hostile space "
                           "(move there in the noncombat move)", None))
    else:
        for i, space in enumerate(move.path):
            if not turn.friendly_territory_now(space):
                errors.append((move.where + ("path", i), f"{space} is not friendly: no unit enters a hostile "
                                                         "territory in the noncombat move", None))
                return


def _blocks_blitz(turn: Turn, space: str) -> bool:
    """Whether enemy units that stood in `space` at the start of the turn stop a blitzing tank. In
    Europe an enemy industrial complex alone does not (option blitz_through_complex, l.949: only AA
    guns are named); in Revised any enemy unit does."""
    types = turn.enemy_types_at_start(space)
    if types == {"industrial_complex"} and turn.edition.has_option("blitz_through_complex"):
        turn.ruling("blitz_through_complex")
        return turn.opt("blitz_through_complex") == "stop"
    return bool(types)
