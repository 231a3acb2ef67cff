"""One round of a battle (steps 2 to 7) on the battle board between rounds (:class:`Board`): in
round 1 the AA gun's fire and shore bombardment, then the submarines' first strike and the
removal of their victims (unless a destroyer shields the side), the attacker's and the defender's
volleys, casualties, and step 7; every die is rolled in the canonical order and recorded in the
round's events (rolls, casualties, submerging, retreat).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from pbem.rulesets.axis_allies.combat.battle import Battle, Piece, Roll, Side, Target, count_by_power, count_units
from pbem.rulesets.axis_allies.combat.casualties import (
    Casualties, CasualtyPolicy, aa_policy, apply_casualties, casualty_policies, take_casualties,
)
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders
from pbem.rulesets.axis_allies.combat.step_seven import diving, press_or_retreat, transports_only
from pbem.rulesets.axis_allies.combat.volleys import (
    Volley, aa_volley, attack_volleys, bombardment_volleys, defence_volleys, has_destroyer, is_target,
    submarine_volleys,
)


def _with_cargo(pieces: Iterable[Piece]) -> list[Piece]:
    return [q for p in pieces for q in (p, *p.cargo)]


class _Log:
    """Builds the events of one round in the shapes of docs/architecture.md."""

    def __init__(self, battle: Battle, round_: int) -> None:
        self.battle, self.round, self.events = battle, round_, []

    def roll(self, volley: Volley, dice: list[int], hits: int) -> None:
        self.events.append({
            "type": "roll", "battle": self.battle.id, "round": self.round, "step": volley.step,
            "side": volley.side, "power": volley.power, "unit": volley.unit, "value": volley.value,
            "dice": dice, "hits": hits})

    def casualties(self, side: Side, casualties: Casualties, policy: CasualtyPolicy) -> None:
        rules = self.battle.rules
        lost = _with_cargo(casualties.killed)
        for power in rules.turn_order:
            units = count_units(rules, (p for p in lost if p.owner == power))
            damaged = count_units(rules, (p for p in casualties.damaged if p.owner == power))
            if not units and not damaged:
                continue
            carrier_owner = next((p.owner for p in casualties.killed
                                  if any(c.owner == power for c in p.cargo)), power)
            own = any(p.owner == power for p in casualties.killed + casualties.damaged)
            self.events.append({
                "type": "casualties", "battle": self.battle.id, "round": self.round, "side": side,
                "power": power, "units": units, "damaged": damaged,
                "chosen_by": policy.chosen_by.get(power if own else carrier_owner, carrier_owner),
                "rule": policy.rule if own else "cargo lost with its transport or carrier"})

    def moved(self, kind: str, side: Side, pieces: Sequence[Piece], to: str | None = None) -> None:
        for power, units in count_by_power(self.battle.rules, pieces).items():
            event = {"type": kind, "battle": self.battle.id, "round": self.round}
            event |= {"power": power, "units": units, "to": to} if kind == "retreat" else \
                {"side": side, "power": power, "units": units}
            self.events.append(event)


def _fire(volleys: Sequence[Volley], targets: Sequence[Piece], roll: Roll, log: _Log) -> Counter[Target]:
    """Roll the volleys that have a legal target and return the hits of each target class;
    record every die."""
    hits: Counter[Target] = Counter()
    for volley in volleys:
        if not any(is_target(t, volley.target) for t in targets):
            continue  # no legal target: no dice (e.g. submarines facing only aircraft)
        dice = roll(volley.dice)
        scored = sum(1 for d in dice if d <= volley.value)
        log.roll(volley, dice, scored)
        hits[volley.target] += scored
    return hits


@dataclass
class Board:
    """The battle board between rounds; :func:`fight_round` moves it on by one round."""

    attackers: list[Piece]
    defenders: list[Piece]
    round: int = 0
    over: bool = False
    submerged: dict[Side, list[Piece]] = field(default_factory=lambda: {"attacker": [], "defender": []})
    retreated: list[Piece] = field(default_factory=list)
    casualties: dict[Side, list[Piece]] = field(default_factory=lambda: {"attacker": [], "defender": []})
    bystanders: list[Piece] = field(default_factory=list)

    @classmethod
    def start(cls, battle: Battle) -> Board:
        """Step 1: every attacker and defender on the board (and the attacker's allies' ships)."""
        return cls(list(battle.attackers), list(battle.defenders), bystanders=list(battle.bystanders))


def fight_round(battle: Battle, orders: BattleOrders, board: Board, roll: Roll) -> list[dict]:
    """Fight one round (steps 2-7) on ``board`` and return its events.

    Dice are rolled in the canonical order (digest §11 case 23): round 1 only, AA (one die per
    attacking aircraft) and bombardment (per ship type); then attacking submarines, defending
    submarines (per power in turn order); step 4 by unit type in unit-table order (unpaired
    infantry before paired); step 5 per defending power in turn order, by unit type. A volley with
    no legal target is not rolled.
    """
    policies = casualty_policies(battle, orders)
    # the losses of earlier rounds count for the counted entries of the casualty orders
    attack_policy = policies["attacker"].after(board.casualties["attacker"])
    defence_policy = policies["defender"].after(board.casualties["defender"])
    board.round += 1
    log = _Log(battle, board.round)
    attackers, defenders = list(board.attackers), list(board.defenders)
    lost: dict[Side, list[Piece]] = {"attacker": [], "defender": []}
    fire_back: list[Piece] = []  # bombardment victims that still fire at step 5 (Europe)

    if board.round == 1:
        volley = aa_volley(battle, attackers)
        if volley:
            dice = roll(volley.dice)
            hits = sum(1 for d in dice if d <= volley.value)
            chooser = aa_policy(battle, orders, attack_policy)
            shot = take_casualties(attackers, hits, "air", chooser)
            event = {
                "type": "aa_fire", "space": battle.space, "power": volley.power,
                "targets": count_units(battle.rules, (p for p in attackers if p.kind == "air")), "dice": dice,
                "hits": hits, "casualties": count_units(battle.rules, shot.killed), "battle": battle.id}
            if battle.aa_casualties is not None:  # only editions with the option say who chose
                event["chosen_by"] = chooser.chosen_by[battle.attacker]
            log.events.append(event)
            attackers = apply_casualties(attackers, shot)
            attack_policy = attack_policy.after(shot.killed)
            lost["attacker"] += shot.killed
        shelling = bombardment_volleys(battle, defenders)
        hits = _fire(shelling, defenders, roll, log)
        if hits:
            shelled = take_casualties(defenders, hits, shelling[0].target, defence_policy)
            log.casualties("defender", shelled, defence_policy)
            defenders = apply_casualties(defenders, shelled)
            defence_policy = defence_policy.after(shelled.killed)
            lost["defender"] += shelled.killed
            if battle.rules.bombarded_fire_back:
                fire_back = list(shelled.killed)

    # Europe: attacking submarines that submerge do so at step 2, instead of firing.
    if battle.rules.submerge_instead_of_firing:
        dived = diving(battle, orders, "attacker", attackers)
        log.moved("submerge", "attacker", dived)
        board.submerged["attacker"] += dived
        attackers = [p for p in attackers if p not in dived]

    # Step 2d: submarines of both sides fire at once; step 3 removes their victims unless the hit
    # side has a destroyer in the battle (checked before the volley, so one hit in it counts).
    attack_shielded, defence_shielded = has_destroyer(attackers), has_destroyer(defenders)
    on_defenders = _fire(submarine_volleys(battle, attackers, "attacker"), defenders, roll, log)
    on_attackers = _fire(submarine_volleys(battle, defenders, "defender"), attackers, roll, log)
    torpedoed_d = take_casualties(defenders, on_defenders, "sea", defence_policy)
    torpedoed_a = take_casualties(attackers, on_attackers, "sea", attack_policy)
    log.casualties("defender", torpedoed_d, defence_policy)
    log.casualties("attacker", torpedoed_a, attack_policy)
    attackers_left = apply_casualties(attackers, torpedoed_a)
    defenders_left = apply_casualties(defenders, torpedoed_d)
    attack_policy, defence_policy = attack_policy.after(torpedoed_a.killed), defence_policy.after(torpedoed_d.killed)
    attackers_firing = attackers if attack_shielded else attackers_left
    defenders_firing = defenders if defence_shielded else defenders_left

    # Step 4, then step 5: the defender's step-4 casualties still fire back.
    hits = _fire(attack_volleys(battle, attackers_firing, board.bystanders), defenders_left, roll, log)
    shot_d = take_casualties(defenders_left, hits, "any", defence_policy)
    log.casualties("defender", shot_d, defence_policy)
    if battle.rules.submerge_instead_of_firing:
        # Europe: defending submarines not hit this round may submerge instead of firing; a hit
        # one fires its farewell shot (l.1117-1121).
        dived = diving(battle, orders, "defender", apply_casualties(defenders_left, shot_d))
        log.moved("submerge", "defender", dived)
        board.submerged["defender"] += dived
        defenders_left = [p for p in defenders_left if p not in dived]
        defenders_firing = [p for p in defenders_firing if p not in dived]
    hits = _fire(defence_volleys(battle, defenders_firing + fire_back), attackers_left + board.bystanders, roll, log)
    shot_a = take_casualties(attackers_left + board.bystanders, hits, "any", attack_policy)
    log.casualties("attacker", shot_a, attack_policy)
    board.bystanders = apply_casualties(board.bystanders, shot_a)

    # Step 6.
    attackers_left = apply_casualties(attackers_left, shot_a)
    defenders_left = apply_casualties(defenders_left, shot_d)
    lost["attacker"] += torpedoed_a.killed + shot_a.killed
    lost["defender"] += torpedoed_d.killed + shot_d.killed

    # Step 7.
    seven = press_or_retreat(battle, orders, attackers_left, defenders_left, board.round,
                             transports_only(attackers_firing), bystanders=board.bystanders)
    for side in ("attacker", "defender"):
        log.moved("submerge", side, seven.submerged[side])
        board.submerged[side] += seven.submerged[side]
        board.casualties[side] += lost[side]
    log.moved("retreat", "attacker", seven.retreated, orders.retreat.to)
    board.retreated += seven.retreated
    if seven.lost:
        log.casualties("attacker", Casualties(seven.lost), replace(
            attack_policy, rule="no movement left to follow the retreat (fighter_no_retreat)"))
        board.casualties["attacker"] += seven.lost
    board.attackers, board.defenders, board.over = list(seven.attackers), list(seven.defenders), seven.over
    return log.events
