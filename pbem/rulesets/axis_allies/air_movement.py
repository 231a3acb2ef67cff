"""Aircraft moves: range, where a combat move may end, strategic bombing raids, where a noncombat
move lands, and the AA guns on the way.

An aircraft's movement covers the whole turn. In the combat move aircraft fly into a battle, along
with ships, to a bombing raid on an enemy industrial complex, or (fighters) over a sea zone where a
transport unloads for an amphibious assault; the enemy AA guns they pass fire at them. In the
noncombat move they land in a territory their side held at the start of the turn and still holds,
or (fighters) on a friendly carrier with room; on the way the enemy AA guns fire again in Revised at
aircraft that fought, in Europe only at those that retreated. Whether aircraft can still reach a
landing place after the combat move, and where those given no landing move come down, is for
`landing`.
"""

from __future__ import annotations

from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.move_plan import Error, MovePlan
from pbem.rulesets.axis_allies.names import a
from pbem.rulesets.axis_allies.state import Unit


def check_air(turn: Turn, plan: MovePlan, air: list[Unit], phase: str, with_ships: bool, errors: list[Error]) -> None:
    """Aircraft: range, where a combat move may end (bombing raids too), where a noncombat move may land,
    and the AA guns on the way."""
    move, b = plan.move, turn.board
    if not move.path:
        if phase == "combat" and turn.enemy_at_start(move.frm):
            return
        errors.append((move.where + ("path",), "aircraft that stay where they are need no move", None))
        return
    for u in air:
        if len(move.path) > u.movement_left:
            full = turn.table.movement(u.type, turn.developments)
            errors.append((move.where + ("path",), f"{a(u.type)} has {u.movement_left} of its {full} spaces of "
                                                   f"movement left this turn, this path has {len(move.path)}",
                           f"{u.movement_left} or fewer"))
            return
    dest = move.to
    if phase == "combat":
        plan.flak = [s for s in move.path[:-1] if _enemy_aa(turn, s)]
        if move.bombing_raid:
            owner = turn.pos.complex_owner(dest)
            if owner is None or not b.enemies(owner, turn.power):
                errors.append((move.where + ("path", len(move.path) - 1),
                               f"{dest} has no enemy industrial complex to bomb", None))
            return
        if turn.hostile_at_start(dest) or with_ships:
            return  # into a battle, or flying along with ships whose own move is checked
        if b.is_sea(dest) and dest in turn.assault_zones and all(u.type == "fighter" for u in air):
            turn.ruling("combat_move_support")
            return
        errors.append((move.where + ("path", len(move.path) - 1),
                       f"{dest} is friendly: a combat move must end in a hostile space "
                       "(aircraft land in the noncombat move)", None))
        return
    # noncombat: fly to a landing place
    fought = any(u.moved or u.fought for u in air)
    if turn.opt("noncombat_overfly") == "forbid" and not fought:
        for i, s in enumerate(move.path[:-1]):
            if b.is_land(s) and not turn.friendly_territory_now(s):
                turn.ruling("noncombat_overfly")
                errors.append((move.where + ("path", i), f"{s} is hostile: in the noncombat move aircraft do not "
                                                         "fly over hostile territory (option noncombat_overfly = "
                                                         "forbid)", None))
                return
    elif not fought and any(b.is_land(s) and not turn.friendly_territory_now(s) for s in move.path[:-1]):
        turn.ruling("noncombat_overfly")
    if fought:
        guns = [s for s in move.path[:-1] if _enemy_aa(turn, s, now=True)]
        if turn.edition.rules.aa_fires_in_noncombat or any(u.retreated for u in air):
            plan.flak = guns  # Europe: only aircraft that retreated are fired at on their way (l.480)
        if guns and not turn.edition.rules.aa_fires_in_noncombat:
            turn.ruling("aa_on_return")
    for u in air:
        if b.is_land(dest):
            if not (turn.friendly_at_start(dest) and turn.friendly_territory_now(dest)):
                why = ("it was taken this turn" if dest in turn.captured or turn.friendly_territory_now(dest)
                       else "it is hostile")
                if dest in turn.liberated:
                    why += ", freed for its owner, which counts as taking it" + turn.cite("liberated_landing", "l.789")
                errors.append((move.where + ("path", len(move.path) - 1),
                               f"aircraft may not land in {dest}: {why}; they land only where their side "
                               "was at the start of the turn", None))
                return
        elif u.type != "fighter":
            errors.append((move.where + ("path", len(move.path) - 1), f"{a(u.type)} cannot land at sea", None))
            return
    if b.is_sea(dest) and not with_ships:
        fighters = [u for u in air if u.type == "fighter"]
        room = sum(turn.pos.room_on(c) for c in turn.pos.units_in(dest, type="carrier")
                   if b.friendly(c.owner, turn.power))
        # fighters that came down there earlier in this phase, or wait there for a declared pick-up,
        # board at the end of the phase but take their places already
        room -= sum(1 for f in turn.pos.units_in(dest, owner=turn.power, type="fighter")
                    if f.aboard is None and f not in fighters and (f.moved_noncombat or f.id in turn.pickups))
        if len(fighters) > room:
            errors.append((move.where + ("path", len(move.path) - 1),
                           f"the carriers in {dest} have room for {max(room, 0)} more fighter(s) when these land "
                           "(two a carrier, counting those that come down there before them; carriers move before "
                           "aircraft land)", None))


def _enemy_aa(turn: Turn, space: str, now: bool = False) -> bool:
    """An enemy AA gun stands in this territory (at the start of the turn, or now)."""
    if not turn.board.is_land(space):
        return False
    if now:
        return turn.aa_gun_owner(space) is not None
    return "aa_gun" in turn.enemy_types_at_start(space)
