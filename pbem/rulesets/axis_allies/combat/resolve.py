"""A whole battle fought to its end (:func:`resolve_battle`): the check that it can be fought,
``battle_start``, round after round until it is over, then ``battle_end`` and the result
(:class:`BattleResult`): who won (:func:`battle_winner`), what is left on the board, what retreated,
submerged or was lost. Taking the territory is the caller's (:func:`takes_territory` says whether
the attackers left can).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from pbem.rulesets.axis_allies.combat.battle import Battle, Piece, Roll, Side, check_battle, count_by_power
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders
from pbem.rulesets.axis_allies.combat.rounds import Board, fight_round

MAX_ROUNDS = 1000
"""Safety net only: with the unit table some side can always hit, so a battle ends long before."""


@dataclass(frozen=True)
class BattleResult:
    """The outcome of a battle. Surviving pieces are repaired (``damaged`` False)."""

    winner: Literal["attacker", "defender", "none"]
    rounds: int
    attackers: tuple[Piece, ...]
    """Attackers on the board at the end (neither retreated nor submerged)."""
    defenders: tuple[Piece, ...]
    retreated: bool
    retreated_pieces: tuple[Piece, ...]
    submerged: Mapping[Side, tuple[Piece, ...]]
    casualties: Mapping[Side, tuple[Piece, ...]]
    """Destroyed units in the order lost; their cargo died with them."""
    events: tuple[dict, ...]


def resolve_battle(battle: Battle, orders: BattleOrders, roll: Roll, *,
                   max_rounds: int = MAX_ROUNDS) -> BattleResult:
    """Fight ``battle`` to its end with the caller's dice and report everything that happened.

    The events are battle_start, then per round aa_fire, roll, casualties, submerge and retreat
    events, then battle_end (``captured`` is False: taking the territory is the caller's
    business, see :func:`takes_territory`). After ``max_rounds`` rounds the defender holds (a
    safety net; digest §11 case 36).
    """
    check_battle(battle)
    board = Board.start(battle)
    start = {
        "type": "battle_start", "battle": battle.id, "space": battle.space, "kind": battle.event_kind,
        "attacker": battle.attacker, "attackers": count_by_power(battle.rules, battle.attackers),
        "defenders": count_by_power(battle.rules, battle.defenders)}
    if battle.aa_gun is not None:  # it takes no hits, so the defenders above leave it out
        start["aa_gun"] = battle.aa_gun
    if battle.bystanders:  # only where the edition lets allied ships take hits
        start["bystanders"] = count_by_power(battle.rules, battle.bystanders)
    events: list[dict] = [start]
    while not board.over:
        events += fight_round(battle, orders, board, roll)
        board.over = board.over or board.round >= max_rounds

    def repaired(pieces: Iterable[Piece]) -> tuple[Piece, ...]:
        return tuple(replace(p, damaged=False) for p in pieces)

    submerged = {side: repaired(board.submerged[side]) for side in ("attacker", "defender")}
    retreated = repaired(board.retreated)
    attackers, defenders = repaired(board.attackers), repaired(board.defenders)
    winner = battle_winner(attackers, defenders)
    events.append({
        "type": "battle_end", "battle": battle.id, "space": battle.space, "rounds": board.round,
        "winner": winner,
        "attackers_left": count_by_power(battle.rules, attackers + retreated + submerged["attacker"]),
        "defenders_left": count_by_power(battle.rules, defenders + submerged["defender"]), "captured": False})
    return BattleResult(winner, board.round, attackers, defenders, bool(retreated), retreated, submerged,
                        {side: tuple(board.casualties[side]) for side in ("attacker", "defender")},
                        tuple(events))


def battle_winner(attackers: Sequence[Piece], defenders: Sequence[Piece]) -> str:
    """``attacker`` if only the attacker has units on the board at the end, ``none`` if neither
    has, else ``defender`` (it holds: the attacker retreated, or nobody could hit any more).
    Submerged and retreated units have left the board (digest §11 case 35)."""
    if attackers and not defenders:
        return "attacker"
    return "defender" if defenders else "none"


def takes_territory(battle: Battle, attackers: Sequence[Piece]) -> bool:
    """Whether attackers left on the board of a won land battle can take it (a land unit).

    Deciding the capture itself (and liberation) is the caller's business."""
    return battle.kind == "land" and any(p.kind == "land" for p in attackers)
