"""Exact odds of a battle, and a seeded simulation to cross-check them (issue 4).

:func:`battle_odds` runs the combat rules of the ``combat`` package - the same volley functions,
casualty ranking and step-7 decision that :func:`~combat.resolve.resolve_battle` uses - with the dice
replaced by exact hit-count distributions: a volley is a sum of Bernoulli(value/6) dice and a step's hits are
the convolution of its volleys.

The battle is a Markov chain over the states at the start of a round: (round bucket, attacking
units, defending units), each side counted by unit class (type, owner, damage, cargo) and place
(on the board, submerged, retreated). Rounds matter only up to the later of round 2 (AA fire and
bombardment happen in round 1) and the retreat round, so later rounds share one bucket. A round
either removes something from the board or leaves the state as it was, so the states are
processed bucket by bucket from the most to the fewest units left, each passing its probability
on to its successors with the "nothing happened" loop summed as a geometric series: cell by cell
for a small battle (:meth:`BattleChain.walk_cells`), a row of cells at a time with numpy for a larger
one (odds_sweep.py, issue 13). The chain itself, its states and rounds, is odds_chain.py; the
dice as distributions odds_dice.py.

``resolve_battle``'s round cap is a safety net no legal battle needs; the exact odds ignore it.

:func:`battle_luck` places a battle's actual end in the same distribution (for the turn report).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .combat.battle import Battle, Piece, Side, check_battle, count_units
from .combat.decisions import BattleOrders
from .combat.resolve import BattleResult, resolve_battle, takes_territory
from .odds_chain import BattleChain, BattleTooLarge, check_covered
from .odds_dice import RETREATED, SUBMERGED


@dataclass(frozen=True)
class Stack:
    """One way a battle can end: what is left of each side (by type, all powers) and its chance.
    Units that retreated or submerged count as left."""

    probability: float
    winner: str
    attackers: Mapping[str, int]
    defenders: Mapping[str, int]


@dataclass(frozen=True)
class Odds:
    """The outcome probabilities of a battle.

    ``attacker_wins``: only the attacker has units on the board at the end; ``captures``: of
    those, a land battle won with a unit that can take the territory; ``defender_holds``: the
    defender has units on the board at the end (after a retreat too); ``draw``: nobody has.
    ``retreats``: the attacker retreated units (in an amphibious land battle these may be the
    aircraft of a battle the land units then win). Expected survivors count the units that
    fought (not cargo), wherever they ended; expected IPC lost counts cargo too.
    ``error_bound``: the probability the exact method dropped (cells below odds_sweep.DROP_BELOW);
    each probability is at most this much too low, and the survivors and IPC figures shift by
    at most this times the largest count or value. Zero for a simulation (its error is sampling).
    """

    attacker_wins: float
    captures: float
    defender_holds: float
    draw: float
    retreats: float
    expected_rounds: float
    expected_survivors: Mapping[Side, Mapping[str, float]]
    expected_ipc_lost: Mapping[Side, float]
    stacks: tuple[Stack, ...]
    method: str
    runs: int | None = None
    error_bound: float = 0.0


CELL_WALK_UP_TO = 24
"""Units (both sides) up to which a battle's chain is walked cell by cell: a handful of states
costs less in plain Python than numpy's calls for each row (about 20-30% at 10 against 10),
while from some 15 units a side the rows win, and by far."""

MAX_ODDS_WORK = 20_000_000_000
"""Bound on the exact odds' work for one battle of a turn, a preview or `pbem odds` (``max_work``, in
cells computed, see odds_sweep): some ten seconds. 300 land units a side take under 2 billion, 200 a
side with 40 aircraft against an AA gun about 7 billion; beyond the bound the report says the
odds were not computed rather than hold up the turn. Counting steps, not seconds, keeps the
event log the same everywhere."""


def _run(chain: BattleChain, max_work: int | None = None) -> tuple[dict[int, float], float, float]:
    """Spread the probability from the start to the ends; returns P(end), E[rounds] and the
    probability dropped on the way (the error bound of every figure).

    A battle of up to :data:`CELL_WALK_UP_TO` units goes cell by cell (:meth:`BattleChain.walk_cells`),
    a larger one row by row with numpy (odds_sweep.Sweep). ``max_work`` bounds the cells
    computed (the time taken grows with them): past it, :class:`BattleTooLarge` is raised.
    """
    if chain.retreat_below is not None:
        chain.value(chain.start)
    if len(chain.battle.attackers) + len(chain.battle.defenders) <= CELL_WALK_UP_TO:
        ends, rounds = chain.walk_cells(max_work)
        return ends, rounds, 0.0
    # numpy only here: a turn's small battles, `pbem validate` and `pbem receive` never load it (issue 27)
    from threadpoolctl import threadpool_limits

    from .odds_sweep import Sweep, TooManySteps
    sweep = Sweep(chain, max_work)
    try:
        # a row's products are small: a second BLAS thread only waits for a busy core (a
        # mail server's other game): 120 against 120 took 33 s instead of 1.5 s so (issue 27)
        with threadpool_limits(limits=1, user_api="blas"):
            ends, rounds = sweep.run()
    except TooManySteps as too_many:
        raise BattleTooLarge(str(too_many)) from None
    return ends, rounds, sweep.dropped


# --- results --------------------------------------------------------------------------------------


def _value_of(battle: Battle, pieces: Iterable[Piece]) -> int:
    return sum(battle.rules.units[q.type].cost for p in pieces for q in (p, *p.cargo))


@dataclass(frozen=True)
class _Left:
    """What one side has left at an end: units by type (retreated and submerged ones too, cargo
    not), their IPC value (cargo too), whether a unit on the board can take a territory, and
    whether some retreated."""

    units: tuple[tuple[str, int], ...]
    value: int
    captures: bool
    retreated: bool


def _left(battle: Battle, on_board: Sequence[Piece], retreated: Sequence[Piece], away: Sequence[Piece]) -> _Left:
    left = [*on_board, *retreated, *away]
    return _Left(tuple(count_units(battle.rules, left).items()), _value_of(battle, left),
                 takes_territory(battle, on_board), bool(retreated))


class _Tally:
    """Accumulates weighted outcomes into an :class:`Odds`."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.start_value = {side: _value_of(battle, pieces)
                            for side, pieces in (("attacker", battle.attackers), ("defender", battle.defenders))}
        self.p: Counter[str] = Counter()
        self.survivors: dict[Side, Counter[str]] = {"attacker": Counter(), "defender": Counter()}
        self.lost: Counter[str] = Counter()
        self.stacks: Counter[tuple] = Counter()

    def add(self, p: float, winner: str, attackers: _Left, defenders: _Left) -> None:
        self.p[winner] += p
        if winner == "attacker" and attackers.captures:
            self.p["captures"] += p
        if attackers.retreated:
            self.p["retreats"] += p
        for side, left in (("attacker", attackers), ("defender", defenders)):
            for unit, n in left.units:
                self.survivors[side][unit] += p * n
            self.lost[side] += p * (self.start_value[side] - left.value)
        self.stacks[(winner, attackers.units, defenders.units)] += p

    def odds(self, rounds: float, top: int, method: str, runs: int | None = None, total: float = 1.0,
             error_bound: float = 0.0) -> Odds:
        stacks = tuple(Stack(p / total, w, dict(a), dict(d)) for (w, a, d), p in
                       sorted(self.stacks.items(), key=lambda item: -item[1])[:top])
        return Odds(
            self.p["attacker"] / total, self.p["captures"] / total, self.p["defender"] / total,
            self.p["none"] / total, self.p["retreats"] / total, rounds,
            {side: {u: n / total for u, n in self.survivors[side].items()} for side in self.survivors},
            {side: self.lost[side] / total for side in ("attacker", "defender")}, stacks, method, runs, error_bound)


def _solve(battle: Battle, orders: BattleOrders, retreat_below: float | None,
           max_work: int | None) -> tuple[list[tuple[float, str, _Left, _Left]], float, float]:
    """Every end of ``battle`` with its exact probability (probability, winner, what each side
    has left), the expected number of rounds, and the probability dropped (see odds_sweep)."""
    check_battle(battle)
    check_covered(battle)
    chain = BattleChain(battle, orders, retreat_below)
    ends, rounds, dropped = _run(chain, max_work)
    att_left: dict[int, _Left] = {}
    dfn_left: dict[int, _Left] = {}
    found = []
    for end, p in ends.items():
        winner, a, d = chain.ends[-1 - end]
        if a not in att_left:
            away = chain.att.away[a]
            att_left[a] = _left(battle, chain.att.board[a], [q for q, place in away if place == RETREATED],
                                [q for q, place in away if place == SUBMERGED])
        if d not in dfn_left:
            dfn_left[d] = _left(battle, chain.dfn.board[d], (), [q for q, _ in chain.dfn.away[d]])
        found.append((p, winner, att_left[a], dfn_left[d]))
    return found, rounds, dropped


def battle_odds(battle: Battle, orders: BattleOrders | None = None, *, retreat_below: float | None = None,
                top: int = 10, max_work: int | None = None) -> Odds:
    """The exact outcome probabilities of ``battle`` under ``orders``.

    ``retreat_below`` (odds only): besides ``orders.retreat``, the attacker retreats at step 7
    whenever its chance of winning from there on (under the same rules) is below this bound.
    ``top``: how many of the most likely end stacks to list. ``max_work``: `BattleTooLarge` beyond it.
    """
    ends, rounds, dropped = _solve(battle, orders or BattleOrders(), retreat_below, max_work)
    tally = _Tally(battle)
    for end in ends:
        tally.add(*end)
    return tally.odds(rounds, top, "exact", error_bound=dropped)


# --- how lucky a battle was -------------------------------------------------------------------------

WINNER_RANK: Mapping[str, int] = {"defender": 0, "none": 1, "attacker": 2}
"""How good each winner of battle_winner is for the attacker: winning, then a draw (both wiped
out), then the defender holding (a retreat included)."""


def outcome_rank(battle: Battle, winner: str, attackers_left: Iterable[Piece],
                 defenders_left: Iterable[Piece]) -> tuple[int, int]:
    """How good an end of a battle is for the attacker; a higher rank is better.

    First who won (:data:`WINNER_RANK`), then the IPC value of the attacker's units left minus
    the defender's. Units left are those that retreated or submerged too, with their cargo.
    """
    return WINNER_RANK[winner], _value_of(battle, attackers_left) - _value_of(battle, defenders_left)


@dataclass(frozen=True)
class Luck:
    """The chances of a battle before it was fought, and where its actual end fell.

    ``this_good_or_better``: the probability of the ends whose :func:`outcome_rank` is at least
    that of the actual end (ties count), so the attacker's best end scores its own probability
    and its worst end scores 1. Small means the attacker was lucky, large that it was unlucky.
    ``error_bound``: as :attr:`Odds.error_bound`.
    """

    attacker_wins: float
    draw: float
    defender_holds: float
    this_good_or_better: float
    error_bound: float = 0.0


def battle_luck(battle: Battle, orders: BattleOrders, result: BattleResult, *,
                max_work: int | None = None) -> Luck:
    """How lucky ``result`` (``battle`` fought under ``orders``) was for the attacker, from the
    exact distribution of the battle's ends under the same orders.

    ``max_work``: see :meth:`BattleChain.run`; raises :class:`BattleTooLarge` past it.
    """
    ends, _, dropped = _solve(battle, orders, None, max_work)
    actual = outcome_rank(battle, result.winner,
                          [*result.attackers, *result.retreated_pieces, *result.submerged["attacker"]],
                          [*result.defenders, *result.submerged["defender"]])
    chance: Counter[str] = Counter()
    as_good = 0.0
    for p, winner, attackers, defenders in ends:
        chance[winner] += p
        if (WINNER_RANK[winner], attackers.value - defenders.value) >= actual:
            as_good += p
    return Luck(chance["attacker"], chance["none"], chance["defender"], min(as_good, 1.0), dropped)


def simulate(battle: Battle, orders: BattleOrders | None = None, n: int = 10_000, seed: int = 0,
             *, top: int = 10) -> Odds:
    """The same figures estimated by fighting the battle ``n`` times with resolve_battle and a
    random.Random(seed) dice stream (to cross-check :func:`battle_odds`)."""
    rng, orders = random.Random(seed), orders or BattleOrders()

    def roll(k: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(k)]

    tally = _Tally(battle)
    rounds = 0
    for _ in range(n):
        result = resolve_battle(battle, orders, roll)
        rounds += result.rounds
        tally.add(1.0, result.winner,
                  _left(battle, result.attackers, result.retreated_pieces, result.submerged["attacker"]),
                  _left(battle, result.defenders, (), result.submerged["defender"]))
    return tally.odds(rounds / n, top, "simulation", n, float(n))
