"""Phase 4, conduct combat: which battles there are, in which order, and what follows from each.

The dice of a battle are thrown by the combat package (`combat/`); this module decides what it is
given (the space, the attacking and defending units, the bombarding ships, the attacker's and the
defenders' decisions) and carries out what it returns: casualties, retreats, submerged submarines,
captured territory, cargo lost with its transport, fighters of a sunk defending carrier.

Order (ruling `battle_order`): strategic bombing raids, rocket strikes, the sea battles of amphibious
assaults, then every other battle in the attacker's `battle_order`, unnamed ones in the order of the
combat moves that made them. Flak on the way was fired during the combat move.

While orders are checked there are no dice: every battle is assumed won by the attacker, so that
the noncombat moves can be checked against the position the attacker hopes for.
"""

from __future__ import annotations

from pbem.core.errors import choices
from pbem.core.yamlio import field_name

from pbem.rulesets.axis_allies.capture import take_territory
from pbem.rulesets.axis_allies.combat_link import run_battle, run_raid, run_rocket
from pbem.rulesets.axis_allies.context import NEVER_CASUALTIES, Assault, Battle, Outcome, Turn
from pbem.rulesets.axis_allies.convoys import take_convoy
from pbem.rulesets.axis_allies.orders import Rocket
from pbem.rulesets.axis_allies.retreats import held_clause, only_aircraft_leave, retreat_options
from pbem.rulesets.axis_allies.sea_movement import may_bombard
from pbem.rulesets.axis_allies.state import Unit
from pbem.rulesets.axis_allies.stranded_fighters import rehouse_interceptors

# --- order of battles --------------------------------------------------------------------------

def battle_sequence(turn: Turn) -> tuple[list[str], list[str]]:
    """(amphibious sea battles, other battle spaces) in the order they are fought."""
    pos, b = turn.pos, turn.board
    spaces = list(turn.battle_spaces)
    shared_zone_rule = turn.edition.has_option("shared_zone_battle")
    for space in b.sort_spaces({u.space for u in pos.all_units() if u.owner == turn.power}):
        if space not in spaces and pos.enemy_units_in(space, turn.power) and b.is_sea(space):
            if shared_zone_rule and not any(turn.table[u.type].attack for u in pos.units_in(space, owner=turn.power)):
                # Europe: transports alone do not attack; they may leave in the noncombat move (l.1190)
                turn.ruling("shared_zone_battle")
                continue
            spaces.append(space)  # units that stayed in a zone with enemy units attack them
            if shared_zone_rule:
                turn.ruling("shared_zone_battle")
    listed = [s for s in turn.orders.battle_order if s in spaces]
    ordered = listed + [s for s in spaces if s not in listed]
    assault_zones = {a.zone for a in turn.assaults}
    sea_first = [s for s in ordered if s in assault_zones]
    return sea_first, [s for s in ordered if s not in assault_zones]


def conduct_combat(turn: Turn) -> None:
    """Phase 4."""
    if turn.checking:
        for i, space in enumerate(turn.orders.battle_order):
            if space not in turn.battle_spaces:
                turn.problem(("battle_order", i), f"{_knock_on(turn, space)}you make no attack on {space}",
                             choices(turn.battle_spaces, NO_ATTACK))
        _check_battle_decisions(turn)
        _check_escorts(turn)
    if turn.orders.battle_order or len(turn.battle_spaces) > 1:
        turn.ruling("battle_order")
    for territory, raider_ids in _raids_by_territory(turn):
        bombing_raid(turn, territory, [turn.pos.units[i] for i in raider_ids if i in turn.pos.units])
    rocket_strikes(turn)
    sea_first, rest = battle_sequence(turn)
    if turn.orders.battle_order:
        unfought = [s for s in turn.orders.battle_order if s not in sea_first + rest]
        turn.event("battle_order", power=turn.power, spaces=sea_first + rest, order="battle_order",
                   **({"reason": f"no attack is left on {', '.join(unfought)}"} if unfought else {}))
    for space in sea_first + rest:
        fight(turn, space)
    if not turn.checking:
        _unused_battle_orders(turn)


def _unused_battle_orders(turn: Turn) -> None:
    """Say which battle decisions and casualty order of the orders no battle needed, and why."""
    named = {e.get("order") for e in turn.log.events}
    for space, d in turn.orders.battles.items():
        if field_name(d.where) not in named:
            outcome = turn.outcomes.get(space)
            why = "no attacker reached it" if outcome is None or outcome.lost else "it was entered without a battle"
            turn.event("order_unused", power=turn.power, order=field_name(d.where),
                       reason=f"there was no battle in {space}: {why}")
    if turn.orders.casualty_order is not None and "casualty_order" not in named:
        turn.event("order_unused", power=turn.power, order="casualty_order",
                   reason="no loss in this turn's battles was chosen by it")


def _check_battle_decisions(turn: Turn) -> None:
    for space, d in turn.orders.battles.items():
        if space not in turn.battle_spaces and not any(a.zone == space for a in turn.assaults):
            turn.problem(d.where, f"{_knock_on(turn, space)}you make no attack on {space}",
                         choices(turn.battle_spaces, NO_ATTACK))
            continue
        if d.retreat is not None:
            options = retreat_options(turn, space)
            if only_aircraft_leave(turn, space):
                if d.retreat.to is not None:
                    turn.problem(d.where + ("retreat", "to"), f"{_knock_on(turn, space)}only aircraft can retreat "
                                 f"from {space}; they fly to a landing place in the noncombat move", "no `to`")
            elif d.retreat.to is None:
                turn.problem(d.where + ("retreat",), f"say where the attackers in {space} retreat to",
                             "`to:` " + (" or ".join(options) or "none: they cannot retreat"))
            elif d.retreat.to not in options:
                turn.problem(d.where + ("retreat", "to"),
                             f"attackers in {space} can retreat only to an adjacent friendly space that one of them "
                             f"came from{held_clause(turn)}",
                             choices(options, f"no space the attackers in {space} came from is friendly and "
                                              "next to it"))
        if d.cancel_landing and not any(a.target == space for a in turn.assaults):
            turn.problem(d.where + ("cancel_landing",), f"there is no amphibious assault on {space}")


NO_ATTACK = "you make no attack this turn"


def _knock_on(turn: Turn, space: str) -> str:
    """For a battle decision that an earlier refused move left without its object, the cause it
    follows from, said first: "combat_move[0] was refused, so "."""
    refused = [field_name(m.where) for m in turn.refused if space in (m.to, m.unload)]
    return f"{', '.join(refused)} {'was' if len(refused) == 1 else 'were'} refused, so " if refused else ""


# --- one battle --------------------------------------------------------------------------------

def fight(turn: Turn, space: str) -> None:
    """Resolve whatever happens in `space`: a battle, or an uncontested entry into enemy territory."""
    b, pos = turn.board, turn.pos
    assaults = [a for a in turn.assaults if a.target == space]
    # Ships bombard only from the zones where cargo actually went ashore (see _setup).
    landed = _land_cargo(turn, space, assaults) if b.is_land(space) else []
    attackers = attacking_units(turn, space)
    if not attackers:
        if b.is_land(space) and assaults:
            turn.outcomes.setdefault(space, Outcome(lost=True))
        return
    # fighters that intercepted a raid here do not defend in the land battle (l.717)
    defenders = [u for u in pos.enemy_units_in(space, turn.power) if u.id not in turn.interceptors]
    combatants = [u for u in defenders if u.type not in NEVER_CASUALTIES]
    aircraft = [u for u in attackers if turn.table.cls(u.type) == "air"]
    has_aa = any(u.type == "aa_gun" for u in defenders)
    if not combatants and not (has_aa and aircraft):
        # nobody to fight: an empty enemy territory (or one with only an AA gun or a complex) is taken
        if defenders and turn.edition.has_option("aa_only_territory"):
            turn.ruling("aa_only_territory")
        _after_uncontested(turn, space, attackers)
    elif turn.checking:
        _assume_won(turn, space, attackers, defenders)
    else:
        battle = _setup(turn, space, attackers, defenders, landed)
        run_battle(turn, battle)
    if space in turn.captured:
        rehouse_interceptors(turn, space)


def attacking_units(turn: Turn, space: str) -> list[Unit]:
    """The acting power's units that fight in `space`: not cargo, not submerged, not bombing."""
    raiders = {i for _, ids in turn.raids for i in ids}
    result = []
    for u in turn.pos.units_in(space, owner=turn.power):
        if u.id in raiders or u.submerged or u.type in NEVER_CASUALTIES:
            continue
        if u.aboard is not None and turn.table.cls(u.type) == "air":
            continue  # a fighter that did not take off is cargo and does not fight
        if turn.board.is_land(space) and not (u.moved or u.fought):
            continue
        if u.type == "transport" and not u.moved:
            turn.ruling("transport_in_attacked_zone")
        elif turn.table.cls(u.type) == "sea" and not u.moved:
            turn.ruling("ships_in_attacked_zone")
        result.append(u)
    return result


def _bombarding(turn: Turn, space: str, landed: list[Assault]) -> list[Unit]:
    """The ships ordered to bombard `space` that do: those of a zone whose cargo went ashore and that
    fought no sea battle there; each that does not is told, with why."""
    zones = {a.zone for a in landed}
    bombarding: list[Unit] = []
    lost: dict[tuple[str, str, str], list[Unit]] = {}
    for u in turn.pos.all_units():
        move = turn.unit_moves.get(u.id)
        if u.owner != turn.power or move is None or move.bombard != space or not may_bombard(turn, u.type):
            continue  # the transport of a move that unloads and bombards
        item = field_name(move.where)
        if u.fought:
            lost.setdefault((item, u.space, f"it fought the sea battle in {u.space}, so it does not bombard"),
                            []).append(u)
        elif u.space not in zones:
            lost.setdefault((item, u.space, f"no land units came ashore from {u.space}, so there is no bombardment"),
                            []).append(u)
        else:
            bombarding.append(u)
    for (item, zone, reason), ships in lost.items():
        turn.event("move_skipped", phase="combat", power=turn.power, units=turn.counts(ships), **{"from": zone},
                   to=space, reason=reason, order=item)
    return bombarding


def _land_cargo(turn: Turn, territory: str, assaults: list[Assault]) -> list[Assault]:
    """Cargo of an amphibious assault goes ashore, unless its sea battle was not won or it is cancelled.

    Returns the assaults whose cargo landed."""
    decisions = turn.orders.battles.get(territory)
    landed = []
    for a in assaults:
        cargo = [turn.pos.units[i] for i in a.cargo if i in turn.pos.units]
        if not cargo:
            continue
        if turn.pos.enemy_units_in(a.zone, turn.power):
            turn.ruling("transport_hostile_zone")
            turn.event("move_skipped", phase="combat", power=turn.power, units=turn.counts(cargo),
                       **{"from": a.zone}, to=territory,
                       reason=f"the landing is blocked: enemy units are still in {a.zone}",
                       order=field_name(a.move.where))
            continue
        if decisions is not None and decisions.cancel_landing:
            turn.event("move_skipped", phase="combat", power=turn.power, units=turn.counts(cargo),
                       **{"from": a.zone}, to=territory, reason="landing cancelled by the attacker's orders",
                       order=field_name(a.move.where))
            continue
        if (any(u.loaded for u in cargo) and any(turn.pos.units[t].fought for t in a.transports if t in turn.pos.units)
                and turn.edition.has_option("load_fight_unload")):
            turn.ruling("load_fight_unload")  # loaded, fought its sea battle, now unloads (Europe l.681-687)
        for u in cargo:
            u.aboard = None
            u.space = territory
            u.unloaded = True
            u.path.append(territory)
        landed.append(a)
    return landed


def _after_uncontested(turn: Turn, space: str, attackers: list[Unit]) -> None:
    b = turn.board
    for u in attackers:
        u.fought = u.fought or b.is_land(space) and turn.hostile_at_start(space)
    captured = False
    if b.is_sea(space):
        take_convoy(turn, space, attackers)
    if b.is_land(space):
        holder = turn.pos.control.get(space)
        if holder is not None and b.enemies(holder, turn.power) and any(
                turn.table[u.type].can_capture for u in attackers):
            take_territory(turn, space, turn.power)
            captured = True
    turn.outcomes[space] = Outcome(won=True, captured=captured or space in turn.captured)


def _assume_won(turn: Turn, space: str, attackers: list[Unit], defenders: list[Unit]) -> None:
    """While checking: the attacker wins with every unit, as the noncombat orders hope."""
    for u in defenders:
        if u.type not in NEVER_CASUALTIES:
            turn.pos.remove(u)
    for u in attackers:
        u.fought = True
    _after_uncontested(turn, space, attackers)


def _setup(turn: Turn, space: str, attackers: list[Unit], defenders: list[Unit],
           landed: list[Assault]) -> Battle:
    """The battle in `space`; `landed` are the amphibious assaults whose cargo went ashore there.

    Ships bombard "from the same sea zone as the transport unloading the attacking land units"
    [both]: a zone whose landing was cancelled or blocked gives no bombardment. Without any landing
    the battle is an ordinary land battle (the land part of an assault begins with the unloading)."""
    b = turn.board
    turn.battle_count += 1
    if b.is_sea(space):
        kind = "amphibious_sea" if any(a.zone == space for a in turn.assaults) else "sea"
    else:
        kind = "amphibious_land" if landed else "land"
    bombarding: list[Unit] = []
    if b.is_land(space):
        bombarding = _bombarding(turn, space, landed)
    bystanders: list[Unit] = []
    if b.is_sea(space) and turn.edition.combat.allied_ships_take_hits:
        bystanders = [u for u in turn.pos.units_in(space) if u.owner != turn.power and not b.enemies(u.owner, turn.power)
                      and turn.table.cls(u.type) == "sea" and not u.submerged]
    return Battle(f"b{turn.battle_count}", space, kind, turn.power, attackers, defenders, bombarding,
                  turn.orders.battles.get(space), bystanders)


# --- economic attacks ----------------------------------------------------------------------------

def _raids_by_territory(turn: Turn) -> list[tuple[str, list[int]]]:
    """The raids, in the order of their first move. Where raids have an air battle (`raid_escorts`),
    all bombers and escorts over one complex fly one raid against the interceptors (l.711-723);
    otherwise each raiding move is its own raid, as Revised has always played them."""
    if not turn.edition.combat.raid_escorts:
        return [(move.to, ids) for move, ids in turn.raids]
    raids: dict[str, list[int]] = {}
    for move, ids in turn.raids:
        raids.setdefault(move.to, []).extend(ids)
    return list(raids.items())


def _check_escorts(turn: Turn) -> None:
    """Fighters escort bombers: a raid of fighters alone is refused (l.709, l.713)."""
    bombed = {move.to for move, ids in turn.raids if any(turn.pos.units[i].type == "bomber" for i in ids)}
    for move, _ in turn.raids:
        if move.to not in bombed:
            turn.problem(move.where + ("bombing_raid",), f"no bomber raids {move.to}: fighters only escort bombers",
                         "a bomber's raid on the same territory")


def bombing_raid(turn: Turn, territory: str, raiders: list[Unit]) -> None:
    """A strategic bombing raid: the defender's AA gun fires at each raider, its fighters intercept where
    the edition has them, surviving bombers roll damage."""
    for u in raiders:
        u.fought = True
    if turn.checking or not raiders:
        return
    run_raid(turn, territory, raiders)


def rocket_strikes(turn: Turn) -> None:
    """Rocket strikes (with Rockets): each declared AA gun rolls one die of damage at a complex in reach."""
    orders = turn.orders
    if not orders.rockets:
        return
    b = turn.board
    used_guns: dict[str, int] = {}
    targets: dict[str, int] = {}
    for r in orders.rockets:
        where = r.where
        ok = True
        if "rockets" not in turn.developments:
            ok = _rocket_problem(turn, r, where, "Rockets has not been developed")
        guns = [u for u in turn.pos.units_in(r.frm, owner=turn.power, type="aa_gun")]
        if ok and not guns:
            ok = _rocket_problem(turn, r, where + ("from",), f"you have no AA gun in {r.frm}")
        if ok and used_guns.get(r.frm, 0) >= len(guns):
            ok = _rocket_problem(turn, r, where + ("from",), f"every AA gun in {r.frm} already fires this turn")
        if ok and r.frm in turn.captured and turn.opt("rockets_from_captured") == "forbid":
            turn.ruling("rockets_from_captured")
            ok = _rocket_problem(turn, r, where + ("from",), f"{r.frm} was taken this turn: its AA guns fire no rockets")
        complex_owner = turn.pos.complex_owner(r.target)
        if ok and (complex_owner is None or not b.enemies(complex_owner, turn.power)):
            ok = _rocket_problem(turn, r, where + ("target",), f"{r.target} has no enemy industrial complex")
        if ok:
            over_sea = turn.opt("rocket_range") == "land_and_sea"
            turn.ruling("rocket_range")
            reach = b.distances(r.frm, lambda a, n: not b.is_neutral(n) and (over_sea or b.is_land(n)), 3)
            if r.target not in reach:
                ok = _rocket_problem(turn, r, where + ("target",), f"{r.target} is more than 3 spaces from {r.frm}")
        if ok and targets.get(r.target) and turn.opt("rockets_per_complex") == "one":
            turn.ruling("rockets_per_complex")
            ok = _rocket_problem(turn, r, where + ("target",), f"{r.target} is already the target of a rocket strike")
        if not ok:
            continue
        if targets.get(r.target):
            turn.ruling("rockets_per_complex")
        used_guns[r.frm] = used_guns.get(r.frm, 0) + 1
        targets[r.target] = targets.get(r.target, 0) + 1
        if not turn.checking:
            run_rocket(turn, r, complex_owner or "")


def _rocket_problem(turn: Turn, rocket: Rocket, where: tuple, message: str) -> bool:
    """Report a rocket strike that cannot be made: a problem while checking, a skip in play."""
    if turn.checking:
        turn.problem(where, message)
    else:
        turn.event("rocket_skipped", power=turn.power, **{"from": rocket.frm}, target=rocket.target, reason=message,
                   order=field_name(rocket.where))
    return False
