"""AA fire at aircraft on their flight path, outside any battle.

The gun of a hostile territory fires at aircraft that fly over it in the combat move, and at
aircraft that fought flying back over it; only one gun per territory fires, however many stand
there. Who fires how many dice, and which aircraft the hits destroy (the owner's choice by its
`casualty_order`, else the default order; in Europe, by option `aa_casualties`, perhaps the gun
owner's), are the combat package's rules; this module only finds the guns on the path, in path
order.
"""

from __future__ import annotations

from pbem.rulesets.axis_allies.combat.battle import Battle, Piece
from pbem.rulesets.axis_allies.combat.casualties import aa_policy, casualty_policies, take_casualties
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders, CasualtyOrder, PowerOrders
from pbem.rulesets.axis_allies.combat.volleys import aa_volley
from pbem.rulesets.axis_allies.combat_link import aa_casualties, defender_orders
from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.state import Unit


def flak(turn: Turn, aircraft: list[Unit], spaces: list[str]) -> None:
    """Fire the AA guns of `spaces`, in path order, at the aircraft still flying."""
    if turn.checking:
        return
    for space in spaces:
        flying = [u for u in aircraft if u.id in turn.pos.units]
        if not flying:
            return
        gun_owner = turn.aa_gun_owner(space)
        if gun_owner is None:
            continue
        pieces = tuple(Piece(u.id, u.type, u.owner) for u in flying)
        # the flight as a one-step battle: the AA gun's volley and the owner's choice of losses
        who_picks = aa_casualties(turn)
        battle = Battle("flak", space, "land", turn.power, pieces, (), aa_gun=gun_owner, rules=turn.edition.combat,
                        aa_casualties=who_picks)  # type: ignore[arg-type]
        volley = aa_volley(battle, pieces)
        if volley is None:
            continue
        order = turn.orders.casualty_order
        casualties = CasualtyOrder(tuple(order), label="casualty order") if order else CasualtyOrder()
        gunner = {gun_owner: defender_orders(turn, gun_owner, space)} if who_picks == "defender_chooses" else {}
        orders = BattleOrders(PowerOrders(casualties), gunner)
        policy = aa_policy(battle, orders, casualty_policies(battle, orders)["attacker"])
        dice = turn.roll(volley.dice)
        hits = sum(1 for d in dice if d <= volley.value)
        shot = take_casualties(pieces, hits, volley.target, policy)
        if hits:
            turn.ruling("aa_casualties")
        lost = [turn.pos.units[p.id] for p in shot.killed]
        for u in lost:
            turn.pos.remove(u)
        turn.event("aa_fire", space=space, power=gun_owner, targets=turn.counts(flying), dice=dice, hits=hits,
                   casualties=turn.counts(lost), battle=None)
