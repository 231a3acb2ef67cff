"""Combat and noncombat movement: a move checked as a whole, then carried out.

Every move goes through `check_move`. It takes the move's units (`unit_choice`), checks that each
step borders the one before (`paths`) and what only the whole move shows (land units do not sail
with ships, only transports load and unload, only bombers raid, only fighters wait for a carrier,
only ships bombard), and hands the land units, ships and aircraft to `land_movement`,
`sea_movement` and `air_movement`. It lists what is wrong with the move (a path through a neutral,
a tank that must stop, a transport that would load in a hostile zone, ...) and, when nothing is,
returns a `MovePlan`; `apply_move` then changes the position (cargo aboard and ashore, a blitzed
territory and empty enemy convoy centres taken, amphibious assaults and raids noted for the
battles, AA fire on the way) and records the `move` event. While orders are being checked a wrong
move becomes a problem with its file, line and field; while the turn is played (only possible for
noncombat moves whose battles went differently than hoped) it becomes a `move_skipped` event with
the reason.
"""

from __future__ import annotations

from pbem.core.yamlio import field_name

from pbem.rulesets.axis_allies.air_movement import check_air
from pbem.rulesets.axis_allies.capture import take_territory
from pbem.rulesets.axis_allies.context import Assault, Outcome, Turn
from pbem.rulesets.axis_allies.convoys import take_convoy
from pbem.rulesets.axis_allies.flak import flak
from pbem.rulesets.axis_allies.land_movement import check_land
from pbem.rulesets.axis_allies.move_plan import Error, MovePlan, is_air, is_land, is_sea
from pbem.rulesets.axis_allies.orders import Move
from pbem.rulesets.axis_allies.paths import check_steps
from pbem.rulesets.axis_allies.sea_movement import check_sea
from pbem.rulesets.axis_allies.unit_choice import middle_east_guns, pick_units


# --- checking a move -------------------------------------------------------------------------

def check_move(turn: Turn, move: Move, phase: str, taken: dict[int, Move], errors: list[Error]) -> MovePlan | None:
    """Everything wrong with a move in this phase; a plan when nothing is."""
    missing: dict[str, int] = {}
    units = pick_units(turn, move, phase, taken, errors, missing)
    if errors:
        return None
    plan = MovePlan(move, units, missing=missing)
    if not check_steps(turn, move, move.frm, move.path, errors):
        return None
    air = [u for u in units if is_air(turn, u)]
    land = [u for u in units if is_land(turn, u)]
    sea = [u for u in units if is_sea(turn, u)]
    if land and sea:
        errors.append((move.where + ("units",), "land units do not sail with ships (transports carry them with "
                                                "`load`)", None))
        return None
    if (move.load or move.unload) and not any(u.type == "transport" for u in sea):
        key = "load" if move.load else "unload"
        errors.append((move.where + (key,), "only transports load and unload", None))
    # fighters fly a raid only as the bombers' escort, where the edition has escorts (Europe l.711)
    raiders = ("bomber", "fighter") if turn.edition.combat.raid_escorts else ("bomber",)
    if move.bombing_raid and (not air or any(u.type not in raiders for u in units)):
        errors.append((move.where + ("bombing_raid",), "only bombers make strategic bombing raids"
                       + (", fighters may escort them" if len(raiders) > 1 else ""), " or ".join(raiders)))
    if move.carrier and any(u.type != "fighter" for u in air) or (move.carrier and not air):
        errors.append((move.where + ("carrier",), "`carrier` is for fighters", None))
    if move.bombard and not sea:
        errors.append((move.where + ("bombard",), "only battleships (and destroyers with Combined "
                                                  "Bombardment) bombard", None))
    if errors:
        return None
    if sea:
        check_sea(turn, plan, sea, phase, errors)
    if land:
        check_land(turn, plan, land, phase, errors)
    if air:
        check_air(turn, plan, air, phase, bool(sea), errors)
    return None if errors else plan


# --- carrying a move out ---------------------------------------------------------------------

def apply_move(turn: Turn, plan: MovePlan, phase: str) -> None:
    """Change the position for a checked move and record it."""
    move, pos = plan.move, turn.pos
    b = turn.board
    for u, t in plan.loads:
        u.aboard = t.id
        u.loaded = True
        t.loaded = True
        u.space = t.space
        if phase == "combat":
            u.moved = True
        else:
            u.moved_noncombat = True
    for u in plan.units:
        if u.type == "aa_gun" and middle_east_guns(turn, move.frm) and move.path:
            turn.ruling("middle_east_aa_gun")
            u.owner = turn.power  # l.869: the mover owns the gun it moved
            if b.territories[move.to].middle_east:
                pos.aa_guns_moved[move.to] = pos.aa_guns_moved.get(move.to, 0) + 1
        if phase == "combat":
            turn.unit_moves[u.id] = move
        if is_air(turn, u) and u.aboard is not None:
            u.aboard = None  # takes off
        u.movement_left -= len(move.path)
        u.path += move.path
        if phase == "combat":
            u.moved = u.moved or bool(move.path) or bool(move.unload) or bool(move.bombard)
        else:
            u.moved_noncombat = True
        if move.path:
            pos.move_unit(u, move.to)
        for c in pos.cargo_of(u):
            if phase == "combat" and move.path and is_land(turn, c):
                c.moved = True  # the transport's move is its cargo's whole move
    if move.carrier:
        for u in plan.units:
            if u.type == "fighter":
                turn.pickups[u.id] = move.carrier
    cargo_units = [c for u in plan.units if u.type == "transport" for c in pos.cargo_of(u)]
    notes = []
    for load in move.load if plan.loads else []:
        notes.append(f"loads {turn.words.units(load.units)} from {load.frm}"
                     + (f" at {load.at}" if load.at and load.at != move.frm else ""))
    if plan.blitzed:
        notes.append(f"blitz through {plan.blitzed}")
    if plan.assault:
        notes.append(f"amphibious assault on {plan.assault}")
    elif move.unload and plan.unload_units:
        notes.append(f"unloads {turn.words.units(turn.counts(plan.unload_units))} in {move.unload}")
    if move.bombing_raid:
        notes.append(f"strategic bombing raid on {move.to}")
    if move.bombard:
        notes.append(f"to bombard {move.bombard}")
    if move.carrier:
        notes.append(f"carrier from {move.carrier} to pick up")
    if plan.missing:
        notes.append(f"of {turn.words.units(move.units)} ordered, {turn.words.units(plan.missing)} lost in battle "
                     "or to AA fire")
    if move.note:
        notes.append(move.note)
    if plan.units:
        event = {"phase": phase, "power": turn.power, "units": turn.counts(plan.units), "from": move.frm,
                 "path": list(move.path), "to": move.to, "order": field_name(move.where)}
        if cargo_units:
            event["cargo"] = turn.power_counts(cargo_units)
        if plan.missing:
            event["missing"] = dict(plan.missing)
        if notes:
            event["note"] = "; ".join(notes)
        turn.event("move", **event)
    # ships take the empty enemy convoy centres they pass (Europe, l.755, l.767)
    if phase == "combat" and move.path:
        for zone in move.path[:-1]:
            if b.is_sea(zone) and not pos.enemy_units_in(zone, turn.power):
                take_convoy(turn, zone, plan.units)
    # a tank that blitzes takes the empty territory at once, before it moves on
    if plan.blitzed:
        take_territory(turn, plan.blitzed, turn.power)
        turn.outcomes[plan.blitzed] = Outcome(won=True, captured=True)
    if move.bombing_raid:
        turn.raids.append((move, [u.id for u in plan.units]))
        for u in plan.units:
            u.fought = True
    if plan.board_transports:
        for u, t in plan.board_transports:
            u.aboard = t.id
            u.space = t.space
            u.moved_noncombat = True
            u.loaded = True
            if t.owner == turn.power:
                t.loaded = True
    if plan.unload_units:
        transports = {u.aboard for u in plan.unload_units if u.aboard is not None}
        for tid in transports:
            carrier = pos.units.get(tid)
            if carrier is not None and carrier.owner == turn.power:
                carrier.unloaded = True
        if phase == "combat":
            for u in plan.unload_units:
                u.moved = True
            turn.assaults.append(Assault(move.to, plan.assault or "", sorted(
                t for t in transports if pos.units.get(t) is not None and pos.units[t].owner == turn.power),
                [u.id for u in plan.unload_units], move))
        else:
            target = move.unload or move.path[-1]
            for u in plan.unload_units:
                u.aboard = None
                u.space = target
                u.unloaded = True
                u.moved_noncombat = True
    if plan.flak:
        flak(turn, [u for u in plan.units if is_air(turn, u)], plan.flak)
    if phase == "combat":
        # the spaces where this move makes a battle (or takes an empty territory), in listing order
        created = [] if move.bombing_raid else [move.to]
        if plan.assault:
            created.append(plan.assault)
        for space in created:
            if space not in turn.battle_spaces:
                turn.battle_spaces.append(space)
