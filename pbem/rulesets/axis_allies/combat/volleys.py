"""Who fires at what: the volleys of each step of a battle round, each a unit type of one power
rolling together at its value against a class of target (:class:`Volley`): the AA gun's opening
fire, shore bombardment, the submarines' first strike, the attacker's step 4 and the defender's
step 5; what a hit may be assigned to (submarines hit only ships; aircraft hit submarines only with
a destroyer of their side, where the edition says so); and whether a side can still hurt the other.

The turn engine rolls these volleys with dice, the odds calculator with hit distributions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from pbem.rulesets.axis_allies.combat.battle import KINDS, Battle, CombatRules, Piece, Side, Target, by_power


@dataclass(frozen=True)
class Volley:
    """Dice rolled together: one unit type of one power in one step.

    Each die hits on ``value`` or less; hits may only be assigned to ``target`` units.
    """

    step: Literal["aa", "bombardment", "submarines", "attack", "defence"]
    side: Side
    power: str
    unit: str
    value: int
    dice: int
    target: Target


def attack_value(battle: Battle, unit: str, power: str) -> int:
    """Attack value of a unit (super submarines attack at 3)."""
    if unit == "submarine" and battle.has(power, "super_submarines"):
        return 3
    return battle.rules.units[unit].attack


def defence_value(battle: Battle, unit: str, power: str) -> int:
    """Defence value of a unit (jet fighters defend at 5)."""
    if unit == "fighter" and battle.has(power, "jet_fighters"):
        return 5
    return battle.rules.units[unit].defence


def is_target(piece: Piece, target: Target) -> bool:
    """Whether a hit of class ``target`` may be assigned to ``piece``."""
    if target == "not_submarine":
        return piece.type != "submarine"
    return target == "any" or piece.kind == target


def has_destroyer(pieces: Iterable[Piece]) -> bool:
    """Whether a side has a destroyer in the battle (any power of the side counts)."""
    return any(p.type == "destroyer" for p in pieces)


def air_target(battle: Battle, own: Iterable[Piece]) -> Target:
    """What aircraft hits may take: anything, or no submarine when the edition wants a destroyer
    of their side in the battle for that and there is none (checked before each volley)."""
    if battle.rules.air_hits_on_submarines_need_destroyer and not has_destroyer(own):
        return "not_submarine"
    return "any"


def aa_volley(battle: Battle, attackers: Sequence[Piece]) -> Volley | None:
    """AA opening fire (round 1 of a land battle): one die per attacking aircraft, hits on 1."""
    aircraft = sum(1 for p in attackers if p.kind == "air")
    if battle.kind != "land" or battle.aa_gun is None or not aircraft:
        return None
    return Volley("aa", "defender", battle.aa_gun, "aa_gun", 1, aircraft, "air")


def bombardment_volleys(battle: Battle, defenders: Sequence[Piece]) -> list[Volley]:
    """Shore bombardment (round 1 of an amphibious land battle): one die per ship at its attack.

    Without enemy land units the ships do not fire, whatever ``bombardment_targets`` lets the
    hits take (both rulebooks: "if there are no enemy land units, skip this step").
    """
    if not any(p.kind == "land" for p in defenders):
        return []
    target: Target = "land" if battle.bombardment_targets == "land_units" else "any"
    counts = Counter(p.type for p in battle.bombarding)
    return [
        Volley("bombardment", "attacker", battle.attacker, unit, attack_value(battle, unit, battle.attacker),
               counts[unit], target)
        for unit in battle.rules.units if counts[unit]
    ]


def submarine_volleys(battle: Battle, pieces: Sequence[Piece], side: Side) -> list[Volley]:
    """Submarine opening fire (every round), per power in turn order, at sea units only.

    Where only attacking submarines strike first, defending ones fire at step 5 instead."""
    if side == "defender" and battle.rules.submarine_first_strike == "attackers_only":
        return []
    volleys = []
    for power, counts in by_power(battle.rules, (p for p in pieces if p.type == "submarine")).items():
        value = (attack_value if side == "attacker" else defence_value)(battle, "submarine", power)
        volleys.append(Volley("submarines", side, power, "submarine", value, counts["submarine"], "sea"))
    return volleys


def attack_volleys(battle: Battle, attackers: Sequence[Piece], bystanders: Sequence[Piece] = ()) -> list[Volley]:
    """Step 4: every attacking unit but submarines and transports, by type in unit-table order.

    Infantry paired 1:1 with artillery attacks at 2 (pairing counted from the units firing now);
    unpaired infantry rolls first at 1. Heavy bombers roll two dice each.
    """
    power = battle.attacker
    counts = Counter(p.type for p in attackers if p.type != "submarine")
    volleys = []
    for unit in battle.rules.units:
        n, value = counts[unit], attack_value(battle, unit, power)
        if not n or not value:
            continue
        if unit == "infantry":
            paired = min(n, counts["artillery"])
            volleys += [Volley("attack", "attacker", power, unit, v, k, "any")
                        for v, k in ((value, n - paired), (value + 1, paired)) if k]
            continue
        dice = 2 * n if unit == "bomber" and battle.has(power, "heavy_bombers") else n
        target = air_target(battle, [*attackers, *bystanders]) if KINDS[unit] == "air" else "any"
        volleys.append(Volley("attack", "attacker", power, unit, value, dice, target))
    return volleys


def defence_volleys(battle: Battle, defenders: Sequence[Piece]) -> list[Volley]:
    """Step 5: every defending unit, per power in turn order, by unit type; submarines only where
    they do not strike first (then at sea units only)."""
    subs_here = battle.rules.submarine_first_strike == "attackers_only"
    volleys = []
    for power, counts in by_power(battle.rules, (p for p in defenders if subs_here or p.type != "submarine")).items():
        for unit in battle.rules.units:
            if counts[unit]:
                value = defence_value(battle, unit, power)
                target: Target = ("sea" if unit == "submarine" else
                                  air_target(battle, defenders) if KINDS[unit] == "air" else "any")
                volleys.append(Volley("defence", "defender", power, unit, value, counts[unit], target))
    return volleys


def firepower(volleys: Iterable[Volley]) -> int:
    """Sum of the values of all dice: the measure ``RetreatRule.when_weaker`` compares."""
    return sum(v.value * v.dice for v in volleys)


def can_fire(rules: CombatRules, piece: Piece, side: Side) -> bool:
    """Whether a unit rolls dice in a normal round (transports never do on attack)."""
    profile = rules.units[piece.type]
    return (profile.attack if side == "attacker" else profile.defence) > 0


def can_hurt(battle: Battle, pieces: Sequence[Piece], side: Side, enemies: Sequence[Piece],
             bystanders: Sequence[Piece] = ()) -> bool:
    """Whether ``pieces`` can hit any of ``enemies`` in a normal round (subs hit sea units only;
    aircraft hit submarines only with a destroyer of their side, ``bystanders`` included, where
    the edition says so)."""
    for piece in pieces:
        if not can_fire(battle.rules, piece, side):
            continue
        target: Target = ("sea" if piece.type == "submarine" else
                          air_target(battle, [*pieces, *bystanders]) if piece.kind == "air" else "any")
        if any(is_target(e, target) for e in enemies):
            return True
    return False
