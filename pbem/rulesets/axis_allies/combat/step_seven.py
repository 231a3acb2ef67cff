"""Step 7 of a battle round: submarines submerge, the attacker presses on or retreats (by its
retreat rule; a lone transport only after it has survived a defender volley; in an amphibious land
battle only aircraft leave; submarines left behind submerge instead), or the battle is over because
a side has nothing left or neither side can hurt the other. Also which submarines go down at their
own firing step where the edition has them submerge instead of firing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from pbem.rulesets.axis_allies.combat.battle import Battle, Piece, Side, by_power
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders, RetreatRule
from pbem.rulesets.axis_allies.combat.volleys import (
    attack_volleys, can_fire, can_hurt, defence_volleys, firepower, has_destroyer, submarine_volleys,
)


def transports_only(pieces: Sequence[Piece]) -> bool:
    """Whether every unit left is a transport (which must survive a defender volley first)."""
    return bool(pieces) and all(p.type == "transport" for p in pieces)


def submerging(battle: Battle, orders: BattleOrders, side: Side, own: Sequence[Piece],
               enemies: Sequence[Piece]) -> list[Piece]:
    """The submarines of ``side`` that submerge at this step 7 (none with an enemy destroyer;
    none where submarines submerge at their firing step instead, see :func:`diving`)."""
    if battle.rules.submerge_instead_of_firing or has_destroyer(enemies):
        return []
    return diving(battle, orders, side, own)


def diving(battle: Battle, orders: BattleOrders, side: Side, own: Sequence[Piece]) -> list[Piece]:
    """The submarines of ``side`` among ``own`` whose power's ``submerge`` policy says to go down
    now (``own``: the side's units on the board)."""
    subs = [p for p in own if p.type == "submarine"]
    if not subs:
        return []
    alone = all(p.type == "submarine" for p in own if can_fire(battle.rules, p, side))
    going = []
    for power in by_power(battle.rules, subs):
        policy = orders.attacker.submerge if side == "attacker" else orders.for_defender(power).submerge
        if policy == "always" or (policy == "when_alone" and alone):
            going += [p for p in subs if p.owner == power]
    return going


def retreat_due(battle: Battle, rule: RetreatRule, attackers: Sequence[Piece],
                defenders: Sequence[Piece], round_: int) -> bool:
    """Whether the attacker's retreat rule asks for a retreat at the step 7 of ``round_``."""
    if rule.after_round is not None and round_ >= rule.after_round:
        return True
    if rule.below_units is not None and len(attackers) < rule.below_units:
        return True
    if rule.when_weaker:
        attack = firepower(attack_volleys(battle, attackers) + submarine_volleys(battle, attackers, "attacker"))
        defence = firepower(defence_volleys(battle, defenders) + submarine_volleys(battle, defenders, "defender"))
        return attack < defence
    return False


def retreating(battle: Battle, attackers: Sequence[Piece]) -> list[Piece]:
    """The attackers that leave on a retreat: all of them, or only aircraft in an amphibious
    land battle (land units that landed or joined it fight on), and without submarines when they
    retreat only by submerging (see :func:`press_or_retreat`)."""
    if battle.amphibious and battle.kind == "land":
        return [p for p in attackers if p.kind == "air"]
    if battle.partial_retreat == "subs_submerge":
        return [p for p in attackers if p.type != "submarine"]
    return list(attackers)


@dataclass(frozen=True)
class StepSeven:
    """What happens at step 7 of a round."""

    attackers: tuple[Piece, ...]
    """Attackers still on the board."""
    defenders: tuple[Piece, ...]
    submerged: Mapping[Side, tuple[Piece, ...]]
    retreated: tuple[Piece, ...]
    over: bool
    lost: tuple[Piece, ...] = ()
    """Stranded fighters that could not follow the retreat."""


def _others(pieces: Sequence[Piece], leaving: Iterable[Piece]) -> list[Piece]:
    """``pieces`` without ``leaving`` (by id: a side's pieces have distinct ids, and comparing
    whole pieces costs a battle of hundreds of units more than its dice)."""
    gone = {p.id for p in leaving}
    return [p for p in pieces if p.id not in gone]


def press_or_retreat(battle: Battle, orders: BattleOrders, attackers: Sequence[Piece],
                     defenders: Sequence[Piece], round_: int, lone_transports_fired_at: bool,
                     force_retreat: bool = False, bystanders: Sequence[Piece] = ()) -> StepSeven:
    """Step 7: submarines submerge, the attacker presses on or retreats, or the battle ends.

    ``lone_transports_fired_at``: the attacker's units at this round's step 5 were already only
    transports (they survived a defender volley alone, so they may now retreat).
    ``force_retreat`` lets a caller (the odds calculator) retreat for its own reasons; the lone
    transport rule still holds. The battle is over when a side has nothing left on the board or
    when neither side can hit the other (digest §11 case 36); ``bystanders`` (the attacker's
    allies' ships still afloat) can be hit and lend their destroyers.
    """
    attackers, defenders = list(attackers), list(defenders)
    submerged: dict[Side, tuple[Piece, ...]] = {"attacker": (), "defender": ()}
    retreated: tuple[Piece, ...] = ()
    lost: tuple[Piece, ...] = ()
    if attackers and defenders:
        down_a = submerging(battle, orders, "attacker", attackers, defenders)
        down_d = submerging(battle, orders, "defender", defenders, attackers)
        submerged = {"attacker": tuple(down_a), "defender": tuple(down_d)}
        attackers, defenders = _others(attackers, down_a), _others(defenders, down_d)
    if attackers and defenders and (force_retreat or retreat_due(battle, orders.retreat, attackers,
                                                                 defenders, round_)):
        if lone_transports_fired_at or not transports_only(attackers):
            retreated = tuple(retreating(battle, attackers))
            attackers = _others(attackers, retreated)
            lost = tuple(p for p in retreated if p.id in battle.stranded)
            retreated = tuple(p for p in retreated if p not in lost)
            # Submarines left behind by the retreat submerge instead, unless an enemy destroyer
            # stops them: then they fight on alone.
            staying = [p for p in attackers if p.type == "submarine" and (
                battle.rules.submerge_instead_of_firing or not has_destroyer(defenders))]
            submerged["attacker"] += tuple(staying)
            attackers = _others(attackers, staying)
    over = (not attackers or not defenders
            or not (can_hurt(battle, attackers, "attacker", defenders, bystanders)
                    or can_hurt(battle, defenders, "defender", [*attackers, *bystanders])))
    return StepSeven(tuple(attackers), tuple(defenders), submerged, retreated, over, lost)
