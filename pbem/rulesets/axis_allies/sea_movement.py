"""Ships' moves: sea zones, canals, where ships must stop, carriers' pick-ups and shore bombardment.

Ships sail from sea zone to sea zone within their movement, through a canal only where their side
held it at the start of the turn. In the combat move they stop on entering a zone with enemy units
(submarines sail on unless an enemy destroyer is there; in Europe only by option) and end where a
battle is, leave a zone where enemy units were, sail into or through an enemy convoy centre, or
support a transport of theirs that unloads there for an amphibious assault. In the noncombat move
they sail only through friendly zones (in Revised submarines may pass enemy ones) and only ships
that did not move or fight go: a transport that fought may still load or unload in place, a carrier
that fought moves only to pick up a fighter declared in the combat move, and the carriers of a
declared pick-up may not all sail elsewhere. Battleships (in Europe destroyers too, elsewhere with
Combined Bombardment) bombard the territory of an amphibious assault from the zone where its
transport unloads. What transports load and unload on the way, `transports` checks.
"""

from __future__ import annotations

from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.convoys import enemy_convoy
from pbem.rulesets.axis_allies.move_plan import Error, MovePlan
from pbem.rulesets.axis_allies.names import a
from pbem.rulesets.axis_allies.paths import canal_errors
from pbem.rulesets.axis_allies.state import Unit
from pbem.rulesets.axis_allies.transports import check_loads, check_unload


def check_sea(turn: Turn, plan: MovePlan, sea: list[Unit], phase: str, errors: list[Error]) -> None:
    """Ships: sea zones only, canals, range, where they must stop; then loading, unloading, bombardment."""
    move, b = plan.move, turn.board
    for i, space in enumerate(move.path):
        if not b.is_sea(space):
            errors.append((move.where + ("path", i), f"{space} is land: ships stay at sea", None))
            return
    canal_errors(turn, move, errors)
    if errors:
        return
    for u in sea:
        if move.path and len(move.path) > u.movement_left:
            errors.append((move.where + ("path",), f"{a(u.type)} moves 2 sea zones a turn, this path has "
                                                   f"{len(move.path)}", f"{u.movement_left} or fewer"))
            return
    transports = [u for u in sea if u.type == "transport"]
    if phase == "combat":
        _check_sea_combat(turn, plan, sea, errors)
    else:
        _check_sea_noncombat(turn, plan, sea, errors)
    if move.load:
        check_loads(turn, plan, transports, phase, errors)
    if move.unload and not any(w[:len(move.where) + 1] == move.where + ("load",) for w, _, _ in errors):
        check_unload(turn, plan, transports, phase, errors)
    if move.bombard:
        _check_bombard(turn, plan, sea, phase, errors)


def _check_sea_combat(turn: Turn, plan: MovePlan, sea: list[Unit], errors: list[Error]) -> None:
    move = plan.move
    for i, space in enumerate(move.path[:-1]):
        enemies = turn.enemy_types_at_start(space)
        if not enemies:
            continue
        if all(u.type == "submarine" for u in sea) and _submarines_pass(turn):
            if "destroyer" in enemies:
                errors.append((move.where + ("path", i), f"submarines must stop in {space}: an enemy destroyer "
                                                         "is there", None))
                return
            continue
        errors.append((move.where + ("path", i), f"ships must stop in {space}: enemy units are there "
                                                 f"({', '.join(sorted(enemies))}); "
                                                 + ("only submarines sail on" if _submarines_pass(turn) else
                                                    "submarines too (option hostile_zone_passage = all_stop, l.422)"),
                       None))
        return
    dest = move.to
    if turn.enemy_at_start(dest) and move.path:
        return  # into a sea battle
    if not move.path and turn.enemy_at_start(dest):
        return  # staying in a zone with enemy units: they attack there
    if move.path and turn.enemy_at_start(move.frm):
        return  # leaving a zone where enemy units were at the start of the turn
    if move.unload or move.bombard:
        return  # checked with the unload or the bombardment
    if any(enemy_convoy(turn, z, turn.start_control) for z in move.path):
        return  # into or through an enemy convoy centre, taken on the way (Europe, ruling convoy_transit)
    if dest in turn.assault_zones:
        turn.ruling("combat_move_support")
        return
    if not move.path:
        errors.append((move.where + ("path",), "ships that stay where they are need no move", None))
    else:
        errors.append((move.where + ("path", len(move.path) - 1),
                       f"{dest} holds no enemy units: a combat move must end in a hostile space (or where one of "
                       "your transports unloads for an amphibious assault); move there in the noncombat move", None))


def _check_sea_noncombat(turn: Turn, plan: MovePlan, sea: list[Unit], errors: list[Error]) -> None:
    move = plan.move
    for u in sea:
        if u.type == "transport":
            if move.path and (u.used):
                errors.append((move.where + ("path",), "a transport that moved or fought in the combat phase "
                                                       "does not move again (it may only load or unload in place "
                                                       "if it fought)", None))
                return
        elif u.type == "carrier" and u.used:
            if not move.path or not _is_pickup(turn, u, move.to):
                errors.append((move.where + ("units", u.type), "a carrier that fought moves in the noncombat "
                                                               "move only to pick up a fighter declared in the "
                                                               "combat move" + turn.cite("carrier_pickup"), None))
                return
            turn.ruling("carrier_pickup")
        elif u.used:
            errors.append((move.where + ("units", u.type), f"this {u.type} moved or fought in the combat phase", None))
            return
    carriers = [u for u in sea if u.type == "carrier"]
    for start, zone in _pickups_left_behind(turn, carriers, move.to):
        errors.append((move.where + ("path",), f"a fighter in {zone} waits for the carrier declared in the combat "
                                               f"move: a carrier from {start} must end its move in {zone} (it stops "
                                               "where the fighter lands)", zone))
        return
    for i, space in enumerate(move.path):
        last = i == len(move.path) - 1
        if enemy_convoy(turn, space):
            errors.append((move.where + ("path", i), f"{space} is a convoy centre held by the enemy: no ship enters "
                                                     "it in the noncombat move, only in the combat move to take it"
                                                     + turn.cite("noncombat_sea_hostile", "l.787"), None))
            return
        if turn.hostile_zone_now(space):
            # own ships there do not make the zone friendly
            shared = turn.cite("hostile_sea_zone") if turn.pos.units_in(space, owner=turn.power) else ""
            subs_pass = turn.edition.rules.noncombat_submarines_pass
            if last or not all(u.type == "submarine" for u in sea) or not subs_pass:
                who = (" (submarines may pass, not stop)" if subs_pass else
                       ", submarines too" + turn.cite("noncombat_sea_hostile", "l.787"))
                errors.append((move.where + ("path", i), f"{space} holds enemy units{shared}: in the noncombat move "
                                                         f"ships sail only through friendly sea zones{who}", None))
                return
            if any(u.type == "destroyer" for u in turn.pos.enemy_units_in(space, turn.power)):
                errors.append((move.where + ("path", i), f"submarines must stop in {space}: an enemy destroyer is "
                                                         "there", None))
                return


def _pickups_left_behind(turn: Turn, carriers: list[Unit], dest: str) -> list[tuple[str, str]]:
    """Zones of declared pick-ups that no carrier could make any more if these carriers went to `dest`.

    The declaration binds (both rulebooks: 'you must do so unless the fighter or the carrier is
    destroyed first'), and a carrier stops where a fighter lands, so it cannot pass through."""
    left: list[tuple[str, str]] = []  # (start zone of the carriers, zone of the waiting fighter)
    for start in sorted({c.start_space for c in carriers}):
        staying = [c for c in turn.pos.units_in(start, owner=turn.power, type="carrier")
                   if c not in carriers and not c.moved and not c.moved_noncombat]
        if staying:
            continue  # another carrier from that zone can still go
        for fid, declared in sorted(turn.pickups.items()):
            fighter = turn.pos.units.get(fid)
            if (declared != start or fighter is None or fighter.aboard is not None or fighter.space == dest
                    or not turn.board.is_sea(fighter.space)):
                continue
            if any(c not in carriers and turn.board.friendly(c.owner, turn.power) and turn.pos.room_on(c) > 0
                   for c in turn.pos.units_in(fighter.space, type="carrier")):
                continue  # a carrier that stays there takes it
            left.append((start, fighter.space))
    return left


def _is_pickup(turn: Turn, carrier: Unit, zone: str) -> bool:
    return any(turn.pos.units.get(f) is not None and turn.pos.units[f].space == zone and start == carrier.start_space
               for f, start in turn.pickups.items())


def _check_bombard(turn: Turn, plan: MovePlan, sea: list[Unit], phase: str, errors: list[Error]) -> None:
    move = plan.move
    where = move.where + ("bombard",)
    if phase != "combat":
        errors.append((where, "shore bombardment is part of an amphibious assault (combat move)", None))
        return
    target = move.bombard or ""
    for u in sea:
        if may_bombard(turn, u.type) or (u.type == "transport" and move.unload == target):
            continue  # a move may carry the transport whose landing its ships bombard
        need = " (destroyers need Combined Bombardment)" if u.type == "destroyer" else ""
        errors.append((move.where + ("units", u.type), f"{a(u.type)} cannot bombard{need}",
                       ", ".join(t for t in ("battleship", "destroyer") if may_bombard(turn, t))))
        return
    if not turn.board.adjacent(move.to, target):
        errors.append((where, f"{target} does not border {move.to}", ", ".join(turn.board.coasts(move.to))))
        return
    assaults = [m for m in turn.orders.combat_moves if m.to == move.to and
                (m.unload == target or (turn.board.is_sea(m.frm) and m.frm == move.to and m.path == [target]))]
    if not assaults:
        errors.append((where, f"no transport of yours unloads from {move.to} into {target}: ships bombard only "
                              "from the zone of the transport that unloads", None))


def may_bombard(turn: Turn, unit_type: str) -> bool:
    """Battleships bombard; destroyers where the edition lets them or with Combined Bombardment."""
    return unit_type == "battleship" or (unit_type == "destroyer" and (
        turn.edition.combat.destroyers_bombard or "combined_bombardment" in turn.developments))


def _submarines_pass(turn: Turn) -> bool:
    """Whether submarines sail through sea zones with enemy units in the combat move: Revised's rule;
    in Europe only by option hostile_zone_passage."""
    if not turn.edition.has_option("hostile_zone_passage"):
        return True
    turn.ruling("hostile_zone_passage")
    return turn.opt("hostile_zone_passage") == "submarines_pass"
