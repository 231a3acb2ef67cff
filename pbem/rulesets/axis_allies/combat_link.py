"""The bridge to the combat package: the position's units become battle pieces, the orders become
battle decisions, and the battle's result goes back onto the board.

The combat package (`combat/`) throws the dice of battles, bombing raids and rocket strikes and
knows nothing of the map or the turn; this module knows nothing of dice. See docs/combat-api.md.
"""

from __future__ import annotations

import math
from dataclasses import replace

from pbem.core.yamlio import field_name
from pbem.core.words import chance

from pbem.rulesets.axis_allies import odds
from pbem.rulesets.axis_allies.odds import MAX_ODDS_WORK
from pbem.rulesets.axis_allies.odds_chain import BattleTooLarge, StepsNotCovered
from pbem.rulesets.axis_allies.capture import take_territory
from pbem.rulesets.axis_allies.combat.battle import Battle as CombatBattle, Piece
from pbem.rulesets.axis_allies.combat.casualties import casualty_policies
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders, CasualtyOrder, Entry, PowerOrders, RetreatRule
from pbem.rulesets.axis_allies.combat.raids import RaidChoices, resolve_bombing_raid, resolve_rocket_strike
from pbem.rulesets.axis_allies.combat.resolve import BattleResult, resolve_battle, takes_territory
from pbem.rulesets.axis_allies.combat.volleys import aa_volley
from pbem.rulesets.axis_allies.convoys import take_convoy
from pbem.rulesets.axis_allies.context import NEVER_CASUALTIES, Battle, Outcome, Turn
from pbem.rulesets.axis_allies.orders import BattleDecisions, Rocket
from pbem.rulesets.axis_allies.retreats import retreat_options
from pbem.rulesets.axis_allies.state import Unit
from pbem.rulesets.axis_allies.stranded_fighters import rehouse_carrier_fighters


# --- pieces ----------------------------------------------------------------------------------

def _piece(turn: Turn, unit: Unit, fighting: set[int]) -> Piece:
    """A unit as a battle piece, with what it carries that does not fight (its cargo)."""
    cargo = tuple(Piece(c.id, c.type, c.owner) for c in turn.pos.cargo_of(unit) if c.id not in fighting)
    return Piece(unit.id, unit.type, unit.owner, damaged=unit.damage > 0, cargo=cargo)


def _developments(turn: Turn) -> dict[str, frozenset[str]]:
    return {p: frozenset(d) for p, d in turn.pos.developments.items()}


# --- decisions -------------------------------------------------------------------------------

def _casualty_order(types: list[Entry] | None, label: str, damage_first: bool = True,
                    keep_land_unit: bool = True) -> CasualtyOrder:
    if types:
        return CasualtyOrder(tuple(types), damage_first, keep_land_unit, label)
    return CasualtyOrder(damage_battleships_first=damage_first, keep_land_unit=keep_land_unit)


def defender_orders(turn: Turn, power: str, space: str) -> PowerOrders:
    """A defending power's standing orders for a battle (or an AA gun's fire) in `space`."""
    standing = turn.standing.get(power)
    if standing is None:
        turn.default("casualty order when defending", "the cheapest unit first",
                     f"{turn.board.power_names[power]} has no standing orders", power=power, once=True)
        return PowerOrders()
    override = standing.spaces.get(space)
    types = (override.casualty_order if override and override.casualty_order else standing.casualty_order)
    damage_first = (override.damage_battleships_first if override and override.damage_battleships_first
                    is not None else standing.damage_battleships_first)
    submerge = override.submerge if override and override.submerge else standing.submerge
    label = "standing orders" + (f" for {space}" if override and override.casualty_order else "")
    return PowerOrders(_casualty_order(types, label, damage_first, False),
                       submerge, standing.shared_casualties)  # type: ignore[arg-type]


def battle_orders(turn: Turn, battle: Battle, may_retreat: bool, retreat_to: str | None,
                  defending: set[str]) -> BattleOrders:
    """The attacker's decisions for this battle and each defender's standing orders.

    `may_retreat`: the retreat rule of the orders still applies; `retreat_to`: where land and sea
    units go (None when only aircraft leave)."""
    d: BattleDecisions | None = battle.decisions
    space = battle.space
    if d is not None and d.casualty_order:
        types, label = d.casualty_order, f"casualty order for {space}"
    elif turn.orders.casualty_order:
        types, label = turn.orders.casualty_order, "casualty order"
    else:
        types, label = None, ""
        turn.default("casualty order in its battles", "the cheapest unit first", "the orders give no casualty_order",
                     once=True)
    attacker = PowerOrders(
        _casualty_order(types, label, d.damage_battleships_first if d else True, d.keep_land_unit if d else True),
        d.submerge if d else "never")  # type: ignore[arg-type]
    defenders = {power: defender_orders(turn, power, space) for power in sorted(defending, key=turn.board.power_order)}
    retreat = RetreatRule()
    if d is not None and d.retreat is not None and may_retreat:
        retreat = RetreatRule(d.retreat.after_round, d.retreat.below_units, d.retreat.when_weaker, retreat_to)
    enemy = CasualtyOrder(label="pick of the defenders' losses, cheapest first")
    if d is not None and d.enemy_casualties:
        enemy = CasualtyOrder(tuple(d.enemy_casualties), label=f"pick of the defenders' losses in {space}")
    return BattleOrders(attacker, defenders, retreat, enemy)


# --- a battle --------------------------------------------------------------------------------

def aa_casualties(turn: Turn) -> str | None:
    """The game's ``aa_casualties`` option, None in an edition without it (the attacker picks)."""
    if any(o.name == "aa_casualties" for o in turn.edition.options):
        return turn.opt("aa_casualties")
    return None


def _stranded(turn: Turn, b: Battle) -> frozenset[int]:
    """The attacking fighters in a sea battle with no movement left to follow a retreat, where the
    edition loses them (ruling fighter_no_retreat)."""
    if not turn.edition.combat.stranded_fighters_lost_on_retreat or not turn.board.is_sea(b.space):
        return frozenset()
    return frozenset(u.id for u in b.attackers if u.type == "fighter" and u.movement_left == 0)


def _say(turn: Turn, name: str) -> None:
    """Log a ruling the edition has (the editions share the battle steps, not all their rulings)."""
    if turn.edition.has_option(name):
        turn.ruling(name)


def _log_rulings(turn: Turn, battle: CombatBattle) -> None:
    """The rulings of the edition's own battle steps that this battle uses (an edition whose
    steps are Revised's logs none of them)."""
    rules = battle.rules
    pieces = (*battle.attackers, *battle.defenders)
    subs = any(p.type == "submarine" for p in pieces)
    for side, other in ((battle.attackers, battle.defenders), (battle.defenders, battle.attackers)):
        if any(p.type == "submarine" for p in side):
            _say(turn, "submarine_hits")
            if any(p.type == "destroyer" for p in other):
                _say(turn, "destroyer_exception")
            if any(p.type == "battleship" for p in other):
                _say(turn, "first_strike_on_battleship")
    if len({p.owner for p in battle.defenders}) > 1:
        _say(turn, "allied_defenders")
    if subs and rules.submarine_first_strike == "attackers_only":
        turn.ruling("submarine_first_strike")
    if subs and rules.air_hits_on_submarines_need_destroyer and any(p.kind == "air" for p in pieces):
        turn.ruling("air_hits_on_submarines")
        turn.ruling("unassignable_hits")
    if battle.bystanders:
        turn.ruling("allied_ships_in_attacked_zone")
    if battle.stranded:
        turn.ruling("fighter_no_retreat")
    if aa_volley(battle, battle.attackers):
        turn.ruling("aa_casualties")  # Europe's option, Revised's ruling: who picks the aircraft shot down


def _retreat(turn: Turn, b: Battle) -> tuple[str | None, bool]:
    """(where land and sea units retreat to, whether the orders' retreat rule applies); a retreat that
    can no longer be made as ordered is said, with why, naming the battle's orders."""
    d = b.decisions
    if d is None or d.retreat is None:
        return None, False
    if d.retreat.to is None:
        return None, True  # aircraft only, checked with the orders
    item = field_name(d.where)
    if d.retreat.to not in retreat_options(turn, b.space):
        turn.default(f"retreat from {b.space}", "no retreat",
                     f"{d.retreat.to} is no longer a friendly space the attackers came from", order=item)
        return None, False
    if b.kind == "amphibious_land":
        turn.default(f"retreat from {b.space}", "aircraft only", "cargo went ashore in an amphibious assault: the land "
                     "units that landed or joined the landing fight on; only aircraft may retreat", order=item)
    return d.retreat.to, True


def _name_orders(turn: Turn, b: Battle, events: list[dict]) -> None:
    """The battle's events that account for items of the orders: the battle's end for its decisions,
    the attacker's losses taken by the orders' casualty order."""
    if b.decisions is not None:
        events[-1]["order"] = field_name(b.decisions.where)
    if turn.orders.casualty_order is None or (b.decisions is not None and b.decisions.casualty_order is not None):
        return
    for e in events:
        if e["type"] == "casualties" and e["side"] == "attacker" and e["chosen_by"] == turn.power == e["power"]:
            e["order"] = "casualty_order"


def run_battle(turn: Turn, b: Battle) -> None:
    """Fight one battle with the combat package and carry out its result."""
    pos, board = turn.pos, turn.board
    fighting = {u.id for u in b.attackers} | {u.id for u in b.defenders if u.type not in NEVER_CASUALTIES}
    attackers = [_piece(turn, u, fighting) for u in b.attackers]
    bystanders = [_piece(turn, u, fighting) for u in b.bystanders]
    defenders = [_piece(turn, u, fighting) for u in b.defenders if u.type not in NEVER_CASUALTIES]
    aa_owner = turn.aa_gun_owner(b.space) if board.is_land(b.space) else None
    bombarding = [Piece(u.id, u.type, u.owner) for u in b.bombarding]
    if bombarding:
        turn.ruling("bombardment_targets")
    retreat_to, may_retreat = _retreat(turn, b)
    battle = CombatBattle(
        b.id, b.space, "land" if board.is_land(b.space) else "sea", turn.power, tuple(attackers), tuple(defenders),
        aa_gun=aa_owner, bombarding=tuple(bombarding), amphibious=b.kind.startswith("amphibious"),
        developments=_developments(turn), bombardment_targets=turn.opt("bombardment_targets"),
        partial_retreat=turn.opt("partial_retreat"), aa_casualties=aa_casualties(turn),
        bystanders=tuple(bystanders), stranded=_stranded(turn, b), rules=turn.edition.combat)
    orders = battle_orders(turn, b, may_retreat, retreat_to, {p.owner for p in defenders})
    _log_rulings(turn, battle)
    result = resolve_battle(battle, orders, turn.roll)
    for u in b.attackers + b.bombarding:
        u.fought = True
    for side in ("attacker", "defender"):
        for piece in result.casualties[side]:
            if piece.id in pos.units:
                for rider in pos.cargo_of(pos.units[piece.id]):
                    if rider.id in fighting:
                        rider.aboard = None  # a fighter that defended in the air outlives its carrier
                pos.remove(pos.units[piece.id])
        for piece in result.submerged[side]:
            if piece.id in pos.units:
                pos.units[piece.id].submerged = True
    if result.attackers and result.defenders:
        turn.ruling("battle_end")  # over with both sides on the board: neither could hit the other
    if result.retreated and any(p.type == "submarine" for p in attackers):
        turn.ruling("partial_retreat")
    if (result.retreated and board.is_land(b.space) and turn.edition.has_option("air_partial_retreat")
            and any(p.kind == "air" for p in result.retreated_pieces)):
        turn.ruling("air_partial_retreat")
    for piece in result.retreated_pieces:
        unit = pos.units.get(piece.id)
        if unit is None:
            continue
        unit.retreated = True
        if turn.table.cls(unit.type) != "air" and retreat_to is not None:
            pos.move_unit(unit, retreat_to)
    won = result.winner == "attacker"
    captured = False
    if won and takes_territory(battle, result.attackers):
        holder = pos.control.get(b.space)
        captured = holder is not None and board.enemies(holder, turn.power)
    events = [dict(e) for e in result.events]
    end = events[-1]  # resolve_battle always ends its events with battle_end
    if captured:
        end["captured"] = True
    end["odds"] = battle_luck(battle, orders, result)
    _name_orders(turn, b, events)
    turn.log.extend(events)
    if captured:
        take_territory(turn, b.space, turn.power)
    turn.outcomes[b.space] = Outcome(won=won, captured=captured, retreated=result.retreated,
                                     lost=not won and not result.retreated)
    if board.is_sea(b.space):
        if won:
            take_convoy(turn, b.space, [pos.units[p.id] for p in result.attackers if p.id in pos.units])
        rehouse_carrier_fighters(turn, b.space)


def battle_luck(battle: CombatBattle, orders: BattleOrders, result: BattleResult) -> dict:
    """The ``odds`` field of a battle_end event: the attacker's chances before the battle under
    the orders it was fought with, and the share of the outcomes that were this good or better
    for the attacker (see odds.py's ``Luck``), rounded so that events.jsonl is byte-stable."""
    try:
        luck = odds.battle_luck(battle, orders, result, max_work=MAX_ODDS_WORK)
    except BattleTooLarge:
        return {"not_computed": "battle too large"}
    except StepsNotCovered:
        return {"not_computed": "steps not covered by the exact odds"}
    odds_field = {"attacker_win": chance(luck.attacker_wins, 6), "draw": chance(luck.draw, 6),
                  "defender_win": chance(luck.defender_holds, 6),
                  "this_good_or_better": chance(luck.this_good_or_better, 6)}
    if luck.error_bound >= 5e-7:  # it would show in the 6 decimals: say how far they may be off
        odds_field["error_bound"] = math.ceil(luck.error_bound * 1e6) / 1e6
    return odds_field


# --- bombing raids and rockets ----------------------------------------------------------------

def run_raid(turn: Turn, territory: str, raiders: list[Unit]) -> None:
    """A strategic bombing raid on the complex in `territory`: its bombers, with their fighter escorts
    where the edition has them (`raid_escorts`), against the defender's intercepting fighters."""
    pos, board, rules = turn.pos, turn.board, turn.edition.combat
    victim = pos.complex_owner(territory)
    if victim is None or not board.enemies(victim, turn.power):
        by_move: dict[str, list[Unit]] = {}
        for u in raiders:
            by_move.setdefault(field_name(turn.unit_moves[u.id].where), []).append(u)
        for item, units in by_move.items():
            turn.event("move_skipped", phase="combat", power=turn.power, units=turn.counts(units),
                       **{"from": units[0].start_space}, to=territory,
                       reason=f"no enemy industrial complex in {territory}", order=item)
        return
    bombers = [_raid_piece(u) for u in raiders if u.type == "bomber"]
    escorts = [_raid_piece(u) for u in raiders if u.type != "bomber"]
    interceptors = [_raid_piece(u) for u in _interceptors(turn, territory, raiders)] if rules.raid_escorts else []
    choices = _raid_choices(turn, territory, bombers + escorts, interceptors) if rules.raid_escorts else None
    aa_owner = turn.aa_gun_owner(territory)
    result = resolve_bombing_raid(
        territory, bombers, victim, board.ipc(territory) if rules.raid_cap_per_bomber else None,
        pos.treasury.get(victim, 0), turn.roll, aa_gun=aa_owner, developments=_developments(turn), battle=None,
        escorts=escorts, interceptors=interceptors, choices=choices)
    if aa_owner is not None and escorts:
        turn.ruling("aa_casualties")
    if any(e["type"] == "interception" and e["escort_hits"] for e in result.events):
        turn.ruling("escort_hit_choice")
    for piece in result.shot_down + result.interceptors_lost:
        if piece.id in pos.units:
            pos.remove(pos.units[piece.id])
    pos.treasury[victim] = pos.treasury.get(victim, 0) - result.paid
    events = [dict(e) for e in result.events]
    decisions = turn.orders.battles.get(territory)
    if decisions is not None:  # its decisions for the raided territory serve the raid (its losses)
        events[-1]["order"] = field_name(decisions.where)
    turn.log.extend(events)


def _raid_piece(u: Unit) -> Piece:
    return Piece(u.id, u.type, u.owner)


def _interceptors(turn: Turn, territory: str, raiders: list[Unit]) -> list[Unit]:
    """The defending side's fighters in `territory` that intercept the raid: as many of each power's
    as its standing orders say (ruling `interceptors`). Without a word: all when the territory is not
    also attacked this turn, none when it is. They sit out a land battle there (recorded in
    `turn.interceptors`, ruling `raid_and_attack_same_territory`)."""
    raider_ids = {u.id for u in raiders}
    attacked = any(u.id not in raider_ids for u in turn.pos.units_in(territory, owner=turn.power))
    if attacked:
        turn.ruling("raid_and_attack_same_territory")
    chosen: list[Unit] = []
    fighters = [u for u in turn.pos.enemy_units_in(territory, turn.power) if u.type == "fighter"]
    for power in sorted({u.owner for u in fighters}, key=turn.board.power_order):
        own = sorted((u for u in fighters if u.owner == power), key=lambda u: u.id)
        turn.ruling("interceptors")
        standing = turn.standing.get(power)
        wanted = standing.interceptors.get(territory) if standing is not None else None
        if wanted is None:
            wanted = 0 if attacked else "all"
            turn.default(f"interceptors over {territory}", "none" if attacked else "all its fighters there",
                         f"{turn.board.power_names[power]}'s standing orders name no interceptors for {territory}"
                         + (" and it is also attacked this turn" if attacked else ""), power=power)
        chosen += own if wanted == "all" else own[:wanted]
    turn.interceptors.update(u.id for u in chosen)
    return chosen


def _raid_choices(turn: Turn, territory: str, raiders: list[Piece],
                  interceptors: list[Piece]) -> RaidChoices:
    """Who picks the losses of the raid's air battle: the attacker's casualty order its raiders (for
    the AA gun too with `aa_casualties` attacker_chooses), the interceptors' own standing orders the
    interceptors the escorts hit (ruling `escort_hit_choice`), allies sharing as in a battle."""
    link = Battle(f"raid-{territory}", territory, "land", turn.power, [], [],
                  decisions=turn.orders.battles.get(territory))
    battle = CombatBattle(link.id, territory, "land", turn.power, tuple(raiders), tuple(interceptors),
                          rules=turn.edition.combat)
    orders = battle_orders(turn, link, False, None, {p.owner for p in interceptors})
    policies = casualty_policies(battle, orders)
    aa = policies["attacker"]
    if turn.opt("aa_casualties") == "defender_chooses":
        # the defender takes the aircraft that do the damage first: bombers, then escorts
        aa = replace(aa, orders={turn.power: CasualtyOrder(("bomber", "fighter"),
                                                            label="the defender's pick: bombers first")})
    return RaidChoices(aa, policies["attacker"], policies["defender"])


def run_rocket(turn: Turn, rocket: Rocket, victim: str) -> None:
    """One AA gun's rocket strike at the complex in its target."""
    pos = turn.pos
    result = resolve_rocket_strike(rocket.frm, rocket.target, turn.power, victim, turn.board.ipc(rocket.target),
                                   pos.treasury.get(victim, 0), turn.roll)
    pos.treasury[victim] = pos.treasury.get(victim, 0) - result.paid
    turn.log.add(**dict(result.event), order=field_name(rocket.where))
