"""Casualty choice: who picks each side's casualties and by which order (:class:`CasualtyPolicy`,
for allied defenders that agree or disagree, the attacker's allies' ships standing by, and the
aircraft an AA gun shoots down), the ranking of every hit a side can absorb (a sound battleship
absorbs two, cargo dies with its transport or carrier, the attacker keeps a land unit to take the
territory), and taking the casualties a number of hits destroys.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from pbem.rulesets.axis_allies.combat.battle import Battle, CombatRules, Piece, Side, Target, by_power
from pbem.rulesets.axis_allies.combat.decisions import DEFAULT_ORDER, BattleOrders, CasualtyOrder
from pbem.rulesets.axis_allies.combat.volleys import is_target


@dataclass(frozen=True)
class CasualtyPolicy:
    """How one side's casualties are picked in a battle (built by :func:`casualty_policies`).

    ``merge`` says how units of several powers are ranked: ``priority`` (all of ``priority[0]``'s
    units, then the next power's), ``cost`` (cheapest unit first whoever owns it, ties by each
    power's own order then turn order) or ``order`` (the attacker's ``enemy_casualties`` order,
    ties by turn order). ``orders`` gives the casualty order applied to each power's units.
    ``lost`` counts the units the side has lost so far in the battle, by (owner, type), for the
    counted entries of the orders (:meth:`after` adds casualties).
    """

    rules: CombatRules
    orders: Mapping[str, CasualtyOrder]
    merge: Literal["priority", "cost", "order"]
    priority: tuple[str, ...]
    keep_land_unit: bool
    chosen_by: Mapping[str, str]
    rule: str
    lost: Mapping[tuple[str, str], int] = field(default_factory=dict)

    @property
    def counted(self) -> bool:
        """Whether an order counts units, so that a unit's place depends on the losses so far."""
        return any(order.counted for order in self.orders.values())

    def after(self, killed: Iterable[Piece]) -> CasualtyPolicy:
        """This policy once ``killed`` are lost too."""
        lost = Counter(self.lost)
        lost.update((p.owner, p.type) for p in killed)
        return replace(self, lost=lost)

    def order_of(self, power: str) -> CasualtyOrder:
        """The order applied to ``power``'s units (cargo owners not in the battle: the default)."""
        return self.orders.get(power) or DEFAULT_ORDER

    def rank(self, piece: Piece, lost_before: int = 0) -> int:
        """Where ``piece`` stands in its owner's order when ``lost_before`` units of its type go first."""
        return self.order_of(piece.owner).rank(piece.type, self.rules.casualty_order, lost_before)

    def lost_before(self, pieces: Sequence[Piece]) -> list[int]:
        """For each of ``pieces``, how many units of its type its order has taken before it: the
        side's losses so far, then the units of the type that go before it among ``pieces`` (as
        the battleship and cargo ties of :func:`casualty_ranking` rank them). One order picking
        among several powers' units (``merge`` ``order``) counts them all; else each power's own.
        """
        if not self.counted:
            return [0] * len(pieces)

        def group(owner: str) -> str | None:
            return None if self.merge == "order" else owner

        before: Counter[tuple[str | None, str]] = Counter()
        for (owner, unit), n in self.lost.items():
            before[(group(owner), unit)] += n
        result = [0] * len(pieces)
        for i in sorted(range(len(pieces)), key=lambda i: _twin_key(pieces[i], self.rules)):
            key = (group(pieces[i].owner), pieces[i].type)
            result[i] = before[key]
            before[key] += 1
        return result


@dataclass(frozen=True)
class Casualties:
    """The result of assigning hits: units destroyed and battleships that took a first hit."""

    killed: tuple[Piece, ...] = ()
    damaged: tuple[Piece, ...] = ()


def casualty_policies(battle: Battle, orders: BattleOrders) -> dict[Side, CasualtyPolicy]:
    """The casualty policy of each side of ``battle``.

    The attacker loses units by its own order (``keep_land_unit`` only counts in land battles).
    One defending power loses units by its own order. Allied defenders agree when all want
    ``cheapest_first`` (hits go to the cheapest unit whoever owns it) or when, of two powers, one
    says ``own_first`` and the other ``allies_first`` (the ``own_first`` power loses all its units
    first). Otherwise the attacker picks, by ``orders.enemy_casualties`` (digest §11 case 37).
    """
    attacker_order = orders.attacker.casualties
    policies: dict[Side, CasualtyPolicy] = {
        "attacker": CasualtyPolicy(
            battle.rules, {battle.attacker: attacker_order}, "priority", (battle.attacker,),
            attacker_order.keep_land_unit and battle.kind == "land",
            {battle.attacker: battle.attacker}, attacker_order.label)
    }
    allies = tuple(by_power(battle.rules, battle.bystanders))
    if allies:
        # The attacker's allies' ships in the zone (bystanders) share its losses: the attacker
        # picks among all of them by its casualty order (ruling allied_ships_in_attacked_zone).
        everyone = (battle.attacker, *allies)
        policies["attacker"] = CasualtyPolicy(
            battle.rules, {p: attacker_order for p in everyone}, "order", everyone, False,
            {p: battle.attacker for p in everyone},
            f"the attacker picks among its units and its allies' ships by {attacker_order.label}")
    powers = tuple(by_power(battle.rules, battle.defenders))
    own = {p: orders.for_defender(p).casualties for p in powers}
    wishes = {p: orders.for_defender(p).shared_casualties for p in powers}
    self_chosen = {p: p for p in powers}
    if not powers:  # only an AA gun (or nothing) defends: no casualties to choose
        policy = CasualtyPolicy(battle.rules, {}, "priority", (), False, {}, "no defending units")
    elif len(powers) == 1:
        policy = CasualtyPolicy(battle.rules, own, "priority", powers, False, self_chosen, own[powers[0]].label)
    elif all(w == "cheapest_first" for w in wishes.values()):
        policy = CasualtyPolicy(battle.rules, own, "cost", powers, False, self_chosen,
                                "allied defenders agree: cheapest unit first, whoever owns it")
    elif len(powers) == 2 and sorted(wishes.values()) == ["allies_first", "own_first"]:
        first = next(p for p in powers if wishes[p] == "own_first")
        priority = (first,) + tuple(p for p in powers if p != first)
        policy = CasualtyPolicy(battle.rules, own, "priority", priority, False, self_chosen,
                                f"allied defenders agree: {first} loses its own units first")
    else:
        said = ", ".join(f"{p}: {w}" for p, w in wishes.items())
        pick = orders.enemy_casualties
        policy = CasualtyPolicy(battle.rules, {p: pick for p in powers}, "order", powers, False,
                                {p: battle.attacker for p in powers},
                                f"allied defenders disagree ({said}); the attacker picks by {pick.label}")
    policies["defender"] = policy
    return policies


def aa_policy(battle: Battle, orders: BattleOrders, attack_policy: CasualtyPolicy) -> CasualtyPolicy:
    """Who picks the aircraft AA fire shoots down: the attacker, or (Europe option
    ``aa_casualties: defender_chooses``) the AA gun's owner by its own casualty order."""
    if battle.aa_casualties != "defender_chooses" or battle.aa_gun is None:
        return attack_policy
    order = orders.for_defender(battle.aa_gun).casualties
    return replace(attack_policy, orders={battle.attacker: order}, keep_land_unit=False,
                   chosen_by={battle.attacker: battle.aa_gun}, rule=f"AA casualties: {order.label}")


def _cargo_cost(rules: CombatRules, piece: Piece) -> int:
    return sum(rules.units[c.type].cost for c in piece.cargo)


def _twin_key(piece: Piece, rules: CombatRules) -> tuple:
    """Which of two units of a type at one place of an order is lost first (as :func:`_slot_key`
    ranks them): the owner first in turn order, a damaged battleship, the one carrying less; the
    id only separates twins."""
    cargo = tuple(sorted((c.type, c.owner) for c in piece.cargo))
    return (rules.power_rank(piece.owner), 0 if piece.damaged else 1, _cargo_cost(rules, piece), cargo, piece.id)


def _slot_key(piece: Piece, damaging: bool, lost_before: int, policy: CasualtyPolicy) -> tuple:
    rules = policy.rules
    phase = 0 if damaging and policy.order_of(piece.owner).damage_battleships_first else 1
    rank = policy.rank(piece, lost_before)
    turn = rules.power_rank(piece.owner)
    if policy.merge == "priority":
        head: tuple = (policy.priority.index(piece.owner), phase, rank)
    elif policy.merge == "cost":
        head = (phase, rules.units[piece.type].cost, rank, turn)
    else:
        head = (phase, rank, turn)
    # Among battleships: first hits on sound ones, then sink damaged ones, then the others.
    battleship = 0 if damaging else (1 if piece.damaged else 2)
    # Among equal units the one carrying less is lost first; the id only separates twins.
    cargo = tuple(sorted((c.type, c.owner) for c in piece.cargo))
    return head + (battleship, _cargo_cost(rules, piece), cargo, piece.id)


def casualty_ranking(pieces: Sequence[Piece], policy: CasualtyPolicy) -> list[tuple[Piece, bool]]:
    """Every hit a side can absorb, in the order it absorbs them.

    Each entry is ``(piece, damaging)``: a sound battleship has two entries (the first hit only
    damages it), every other unit one. Hits of a volley take the first legal entries, so a
    battleship may take both hits in one volley. The ranking of what is left after some hits is
    the same list without them, which makes casualty choice consistent from volley to volley.
    """
    before = policy.lost_before(pieces)
    keyed = [(p, True, n) for p, n in zip(pieces, before) if p.type == "battleship" and not p.damaged]
    keyed += [(p, False, n) for p, n in zip(pieces, before)]
    keyed.sort(key=lambda slot: _slot_key(*slot, policy))
    slots = [(p, damaging) for p, damaging, _ in keyed]
    if policy.keep_land_unit:
        capturing = [i for i, (p, _) in enumerate(slots) if p.kind == "land"]
        if capturing:
            slots.append(slots.pop(capturing[-1]))
    return slots


def take_casualties(pieces: Sequence[Piece], hits: int | Mapping[Target, int], target: Target,
                    policy: CasualtyPolicy) -> Casualties:
    """The units that ``hits`` hits of class ``target`` destroy or damage under ``policy``.

    ``hits`` may instead count the hits of each class (a step where aircraft may not hit
    submarines): the hits with the narrowest choice take their units first, then the others.
    Hits beyond the legal targets are lost (e.g. submarine hits with no enemy sea unit left).
    """
    counts = {target: hits} if isinstance(hits, int) else hits
    ranking = casualty_ranking(pieces, policy)
    chosen: list[tuple[Piece, bool]] = []
    for cls in sorted(counts, key=lambda t: t == "any"):
        free = [s for s in ranking if is_target(s[0], cls) and s not in chosen]
        chosen += free[:max(counts[cls], 0)]
    chosen.sort(key=ranking.index)
    killed = tuple(p for p, damaging in chosen if not damaging)
    killed_ids = {p.id for p in killed}
    damaged = tuple(p for p, damaging in chosen if damaging and p.id not in killed_ids)
    return Casualties(killed, damaged)


def apply_casualties(pieces: Sequence[Piece], casualties: Casualties) -> list[Piece]:
    """``pieces`` without the killed units and with the newly damaged battleships tipped over."""
    killed = {p.id for p in casualties.killed}
    damaged = {p.id for p in casualties.damaged}
    return [replace(p, damaged=True) if p.id in damaged else p for p in pieces if p.id not in killed]
