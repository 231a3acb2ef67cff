"""Transports: land units going aboard and ashore, and amphibious assaults.

A transport loads land units from territories next to the sea zones of its path (`load`) and
unloads them into a territory next to the zone where it ends (`unload`). What it loads in the combat
move must go ashore there in an amphibious assault on an enemy territory; an AA gun may ride along
but stays aboard. In the noncombat move land units may also board a friendly transport, an ally's
too, waiting in the sea zone next to them, and cargo may leave its transport as a move of its own
from the sea zone. No transport loads or unloads in a sea zone with enemy units, unloads twice, or
after fighting both loads and unloads, or after retreating does either.
"""

from __future__ import annotations

from pbem.core.yamlio import FieldPath
from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.move_plan import Error, MovePlan
from pbem.rulesets.axis_allies.names import a
from pbem.rulesets.axis_allies.state import Unit


def check_cargo_ashore(turn: Turn, plan: MovePlan, land: list[Unit], phase: str, errors: list[Error]) -> None:
    """Land units written as moving from a sea zone: they leave their transport (own or an ally's)."""
    move, b = plan.move, turn.board
    if len(move.path) != 1 or not b.is_land(move.path[0]):
        errors.append((move.where + ("path",), "cargo goes ashore in one step, into a territory next to "
                                               "the sea zone", None))
        return
    target = move.path[0]
    transports = {u.aboard for u in land}
    for tid in transports:
        t = turn.pos.units[tid] if tid in turn.pos.units else None
        if t is None:
            continue
        if t.owner == turn.power and (t.unloaded or (phase == "noncombat" and t.moved and not t.fought)):
            errors.append((move.where + ("from",), f"the transport carrying them in {move.frm} already "
                                                   "unloaded or moved this turn", None))
            return
        if t.owner == turn.power and phase == "noncombat" and t.fought and (t.retreated or t.loaded):
            errors.append((move.where + ("from",), "a transport that fought may load or unload, not both, "
                                                   "and not after retreating"
                           + (turn.cite("load_fight_unload") if t.loaded else ""), None))
            return
    hostile_zone = turn.enemy_at_start(move.frm) if phase == "combat" else turn.hostile_zone_now(move.frm)
    if hostile_zone:
        errors.append((move.where + ("from",), _hostile_zone(turn, "unloading", move.frm), None))
        return
    if phase == "combat":
        if not turn.hostile_at_start(target):
            errors.append((move.where + ("path", 0), f"{target} is friendly: unload there in the noncombat move", None))
            return
        if any(u.type == "aa_gun" for u in land):
            errors.append((move.where + ("units", "aa_gun"), "an AA gun never attacks: it does not go ashore in "
                                                            "an amphibious assault; it stays aboard"
                           + turn.cite("aa_gun_in_assault"), None))
            return
        plan.assault = target
    elif not turn.friendly_territory_now(target):
        errors.append((move.where + ("path", 0), f"{target} is not friendly: cargo lands in enemy territory "
                                                 "only in an amphibious assault (combat move)", None))
        return
    if any(turn.pos.units[t].owner != turn.power for t in transports if t in turn.pos.units):
        turn.ruling("allied_transport")
    plan.unload_units = list(land)


def check_boarding(turn: Turn, plan: MovePlan, land: list[Unit], phase: str, errors: list[Error]) -> None:
    """Land units moving into a sea zone: they board a friendly transport waiting there."""
    move = plan.move
    if phase == "combat":
        errors.append((move.where + ("path",), "land units board a transport in the combat move only through "
                                               "the transport's `load` (they must then land in an amphibious "
                                               "assault)", None))
        return
    if len(move.path) != 1:
        errors.append((move.where + ("path",), "boarding is one step, from a territory into the sea zone next to it",
                       None))
        return
    zone = move.path[0]
    if turn.hostile_zone_now(zone):
        errors.append((move.where + ("path", 0), _hostile_zone(turn, "loading", zone), None))
        return
    transports = [t for t in turn.pos.units_in(zone, type="transport") if turn.board.friendly(t.owner, turn.power)
                  and not (t.owner == turn.power and ((t.moved and not t.fought) or t.unloaded
                                                      or (t.fought and t.retreated)))]
    loads = assign_cargo(turn, transports, land)
    if loads is None:
        errors.append((move.where + ("path", 0), f"no friendly transport in {zone} can take {turn.counts(land)} "
                                                 f"(room: {turn.edition.rules.transport_room} each; "
                                                 "your own transports only if they did not move or unload)", None))
        return
    if any(t.owner != turn.power for _, t in loads):
        turn.ruling("allied_transport")
    plan.board_transports = loads


def assign_cargo(turn: Turn, transports: list[Unit], land: list[Unit],
                 extra: dict[int, list[Unit]] | None = None) -> list[tuple[Unit, Unit]] | None:
    """Share land units out among transports (best fit, big units first); None when they do not fit."""
    table = turn.table
    room = {t.id: turn.pos.room_on(t) - sum(table[u.type].transport_size or 0 for u in (extra or {}).get(t.id, []))
            for t in transports}
    by_id = {t.id: t for t in transports}
    result = []
    for u in sorted(land, key=lambda u: (-(table[u.type].transport_size or 99), u.id)):
        size = table[u.type].transport_size
        if size is None:
            return None
        fits = [tid for tid in room if room[tid] >= size]
        if not fits:
            return None
        best = min(fits, key=lambda tid: (room[tid], tid))
        room[best] -= size
        result.append((u, by_id[best]))
    return result


def check_loads(turn: Turn, plan: MovePlan, transports: list[Unit], phase: str, errors: list[Error]) -> None:
    move, b = plan.move, turn.board
    stops = [move.frm, *move.path]
    before = len(errors)
    boarding: list[Unit] = []  # the land units the `load` entries take aboard
    taken: set[int] = set()
    for t in transports:
        if t.unloaded:
            errors.append((move.where + ("load",), "a transport that unloaded this turn does not load again", None))
            return
        if phase == "noncombat" and t.used and t.retreated:
            errors.append((move.where + ("load",), "a transport that retreated does not load", None))
            return
        if phase == "noncombat" and t.fought and (move.path or move.unload):
            errors.append((move.where + ("load",), "a transport that fought may load or unload, not both, "
                                                   "and without moving"
                           + (turn.cite("load_fight_unload") if move.unload else ""), None))
            return
    for load in move.load:
        where = load.where
        at = load.at or move.frm
        if at not in stops:
            errors.append((where + ("at",), f"{at} is not on the transport's path", ", ".join(stops)))
            continue
        if load.power is not None and load.power != turn.power:
            errors.append((where + ("power",), f"{load.power}'s land units board a transport on {load.power}'s own "
                                               "turn (a move of those units into the sea zone)", turn.power))
            continue
        if not b.adjacent(at, load.frm) or not b.is_land(load.frm):
            errors.append((where + ("from",), f"{load.frm} does not border {at}",
                           ", ".join(b.coasts(at))))
            continue
        hostile = turn.enemy_at_start(at) if phase == "combat" else turn.hostile_zone_now(at)
        if hostile:
            errors.append((where + ("at",) if load.at else where, _hostile_zone(turn, "loading", at), None))
            continue
        for utype, n in load.units.items():
            if turn.table.cls(utype) != "land" or turn.table[utype].transport_size is None:
                errors.append((where + ("units", utype), f"a transport cannot carry {a(utype)}",
                               "infantry, artillery, tank, aa_gun"))
                continue
            found = [u for u in turn.pos.units_in(load.frm, owner=turn.power, type=utype)
                     if u.id not in taken and not u.used and not u.moved_noncombat and not u.unloaded
                     and not u.placed]
            if len(found) < n:
                errors.append((where + ("units", utype), f"only {len(found)} {utype} in {load.frm} can board "
                                                         "(land units do not move before boarding)",
                               f"at most {len(found)}"))
                continue
            for u in sorted(found, key=lambda u: u.id)[:n]:
                taken.add(u.id)
                boarding.append(u)
    if len(errors) > before:
        return
    loads = assign_cargo(turn, transports, boarding)
    if loads is None:
        count = len(transports)
        errors.append((move.where + ("load",), f"{turn.words.units(turn.counts(boarding))} do not fit aboard "
                                               f"{count} transport{'s' if count != 1 else ''} with the cargo "
                                               "already aboard",
                       f"per transport: {turn.edition.rules.transport_room_in_full}"))
        return
    if phase == "combat" and not move.unload:
        errors.append((move.where + ("load",), "land units loaded in the combat move must go ashore in an "
                                               "amphibious assault (`unload:`); otherwise load them in the "
                                               "noncombat move", None))
        return
    plan.loads = loads


def check_unload(turn: Turn, plan: MovePlan, transports: list[Unit], phase: str, errors: list[Error]) -> None:
    move, b = plan.move, turn.board
    target = move.unload or ""
    where = move.where + ("unload",)
    if not b.is_land(target) or not b.adjacent(move.to, target):
        errors.append((where, f"{target} does not border {move.to}, where the transport ends",
                       ", ".join(b.coasts(move.to))))
        return
    for t in transports:
        if t.unloaded:
            errors.append((where, "this transport already unloaded this turn", None))
            return
        if phase == "noncombat" and t.fought and (t.retreated or t.loaded or move.path or plan.loads):
            both = turn.cite("load_fight_unload") if t.loaded or plan.loads else ""
            errors.append((where, "a transport that fought may load or unload in place, not both, and not after "
                                  "retreating" + both, None))
            return
    cargo = [u for t in transports for u in turn.pos.cargo_of(t) if u.owner == turn.power]
    cargo += [u for u, _ in plan.loads]
    if not cargo:
        errors.append((where, "these transports carry none of your land units", None))
        return
    allied = [u for t in transports for u in turn.pos.cargo_of(t) if u.owner != turn.power]
    if allied:
        turn.ruling("transport_unload")
    if move.unload_units:
        cargo = _named_cargo(turn, cargo, move.unload_units, where, errors)
        if cargo is None:
            return
    if phase == "combat":
        if not turn.hostile_at_start(target):
            errors.append((where, f"{target} is friendly: unload there in the noncombat move", None))
            return
        # an AA gun may ride a transport in the combat move [HR Appendix] but never attacks: it stays aboard
        if any(u.type == "aa_gun" for u in cargo):
            turn.ruling("aa_gun_in_assault")
        cargo = [u for u in cargo if u.type != "aa_gun"]
        if not cargo:
            errors.append((where, "an AA gun never attacks: it may ride a transport in the combat move but does "
                                  "not go ashore in an amphibious assault", None))
            return
        plan.assault = target
    else:
        if not turn.friendly_territory_now(target):
            errors.append((where, f"{target} is hostile: land units go ashore in enemy territory only in an "
                                  "amphibious assault (combat move)", None))
            return
        if turn.hostile_zone_now(move.to):
            errors.append((where, _hostile_zone(turn, "unloading", move.to), None))
            return
    plan.unload_units = cargo


def _named_cargo(turn: Turn, cargo: list[Unit], wanted: dict[str, int], where: FieldPath,
                 errors: list[Error]) -> list[Unit] | None:
    """The units of `cargo` an unload names (Europe, ruling partial_unload); None with an error."""
    turn.ruling("partial_unload")
    chosen = []
    for utype, n in wanted.items():
        aboard = sorted((u for u in cargo if u.type == utype), key=lambda u: u.id)
        if len(aboard) < n:
            errors.append((where[:-1] + ("unload_units", utype),
                           f"only {len(aboard)} {turn.words.unit(utype, len(aboard))} of yours are aboard to unload",
                           f"at most {len(aboard)}"))
            return None
        chosen += aboard[:n]
    return chosen


def _hostile_zone(turn: Turn, what: str, zone: str) -> str:
    """Why no transport loads or unloads in a sea zone with enemy units (it may sail out and do so in
    a friendly or empty one)."""
    return (f"no {what} in {zone}: enemy units are there; transports load and unload only in a sea zone "
            "without enemy units" + turn.cite("transport_hostile_zone"))
