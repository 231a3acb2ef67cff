"""The walk of the exact odds' Markov chain (odds.py), vectorised with numpy (issue 13).

The probability of the states at the start of a round lives in one grid per round bucket:
attacker state by defender state (odds._Side ids). A row of a grid - one attacker state and
every defender state holding probability - is handled at once:

- each side's result of the round is a hit distribution of the other side laid along its own
  casualty chains, so the attacker's results for every column form one matrix and the
  defender's another, and the cells reached are their product (a matrix product);
- step 7 is read from per-state features wherever it can only let the battle go on, or end it
  because a side has nothing left; every other cell (a retreat, submarines going down, two
  sides that cannot hurt each other) goes through odds._Battle.advance, one cell at a time.

Rows are taken bucket by bucket, from the most attacking units left to the fewest: no round adds
units, so a row's probability is complete when its turn comes, except for what the row sends
back to itself (the attacker took no hit), which the row takes again until none is left.
Within a cell, the round that changes nothing is summed as a geometric series.

Rounds that follow Revised's steps are computed this way whatever the submarines and destroyers
(odds._Battle.round_blocks says what they are); the first round (AA fire, bombardment) and the
rounds of another edition's steps where a submarine takes part come from odds._Battle.round_from
one cell at a time, since their casualties do not follow the chains alone.

A cell holding less than :data:`DROP_BELOW` is dropped, and the mass dropped is counted: every
probability is exact to within it (:attr:`Sweep.dropped`). The work is counted in cells computed
(:attr:`Sweep.steps`), which bounds it the same way on every machine.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np

from .combat import (
    RetreatRule, Volley, air_target, attack_volleys, can_fire, defence_volleys, diving, firepower, retreating,
    submarine_volleys,
)

if TYPE_CHECKING:
    from .odds import _Battle, _Side

BOARD, SUBMERGED, RETREATED = "board", "submerged", "retreated"  # the places of a unit in odds._Side

DROP_BELOW = 1e-18
"""Probability of a cell below which it is dropped (and counted in Sweep.dropped)."""

# What a side's units may hit (bits of a state's "fires at") and what it holds ("holds"); the
# classes are combat.Target's.
_TARGETS = ("any", "sea", "air", "land", "not_submarine")
_BIT = {target: 1 << i for i, target in enumerate(_TARGETS)}


class TooManySteps(Exception):
    """The sweep would compute more cells than its caller allowed."""


class _Features:
    """Per-state facts of one side that step 7 reads, as numpy arrays over state ids."""

    def __init__(self, chain: _Battle, side: _Side) -> None:
        self.chain, self.side = chain, side
        self.rows: list[tuple] = []
        self.arrays: dict[str, np.ndarray] = {}

    def _row(self, sid: int) -> tuple:
        chain, side, battle = self.chain, self.side, self.chain.battle
        board = side.board[sid]
        fires = 0
        for p in board:
            if can_fire(battle.rules, p, side.side):
                target = "sea" if p.type == "submarine" else air_target(battle, board) if p.kind == "air" else "any"
                fires |= _BIT[target]
        holds = 0
        if board:
            holds = _BIT["any"]
            for p in board:
                holds |= _BIT.get(p.kind, 0) | (_BIT["not_submarine"] if p.type != "submarine" else 0)
        dives = (not battle.rules.submerge_instead_of_firing
                 and bool(diving(battle, chain.orders, side.side, board)))
        power = 0
        if chain.orders.retreat.when_weaker:
            volleys = (attack_volleys(battle, board) if side.side == "attacker" else defence_volleys(battle, board))
            power = firepower(volleys + submarine_volleys(battle, board, side.side))
        # The attacker's state once all of it retreated, where a retreat takes every unit and so
        # ends the battle (not the land units of an amphibious assault, nor lone transports).
        gone = -1
        if (side.side == "attacker" and chain.orders.retreat != RetreatRule() and board
                and not side.transports_only[sid] and len(retreating(battle, board)) == len(board)):
            gone = side.leave(sid, board, RETREATED)
        return not board, fires, holds, dives, side.destroyer[sid], len(board), power, gone

    def get(self) -> dict[str, np.ndarray]:
        """The arrays, extended to every state interned so far."""
        if len(self.rows) == len(self.side.counts):
            return self.arrays
        while len(self.rows) < len(self.side.counts):  # a retreat met here may intern a state
            self.rows.append(self._row(len(self.rows)))
        columns = list(zip(*self.rows, strict=True))
        self.arrays = {name: np.array(column, dtype=dtype) for name, column, dtype in zip(
            ("empty", "fires", "holds", "dives", "destroyer", "units", "power", "gone"), columns,
            (bool, np.int64, np.int64, bool, bool, np.int64, np.int64, np.int64), strict=True)}
        return self.arrays


@functools.lru_cache(maxsize=4096)
def _binomial(n: int, p: float) -> np.ndarray:
    """P(k of n dice hit) for k = 0..n, each die hitting with probability p."""
    try:
        return np.array([math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)])
    except OverflowError:
        pass  # past about 1,020 dice some comb(n, k) exceeds the largest float: add logarithms instead
    if p in (0.0, 1.0):
        return np.array([float(k == n * p) for k in range(n + 1)])
    log_p, log_q, log_n = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return np.array([math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
                     for k in range(n + 1)])


def hit_distribution(volleys: Iterable[Volley]) -> list[float]:
    """P(k hits) for k = 0..dice: the convolution of every die's Bernoulli(value/6)."""
    dist = np.ones(1)
    for volley in volleys:
        dist = np.convolve(dist, _binomial(volley.dice, volley.value / 6))
    return dist.tolist()


def staged(volleys: list[Volley]) -> list[tuple[str, np.ndarray]]:
    """The hit distributions of ``volleys`` per target class, in the order take_casualties applies
    hits of several classes: the narrower classes first (by name), "any" last."""
    by_target: defaultdict[str, list[Volley]] = defaultdict(list)
    for volley in volleys:
        by_target[volley.target].append(volley)
    return [(t, np.array(hit_distribution(by_target[t]))) for t in sorted(by_target, key=lambda t: (t == "any", t))]


class _Tables:
    """The defending side's chains and fire as padded numpy tables over state ids, filled as
    states are met: what a row needs about all of its columns at once.

    ``chains[target][d, k]``: the state after k hits of class ``target`` (as many columns as the
    attacker has dice); ``fire[(first, target)][d, k]``: P(k hits of class ``target``) of the
    defender's submarines striking first (``first``) or of its other fire, [1, 0, ...] where it
    has none of that class.
    """

    def __init__(self, chain: _Battle, fire: Callable[[int, bool], list[tuple[str, np.ndarray]]]) -> None:
        self.chain, self.staged_fire = chain, fire
        att, dfn = chain.att, chain.dfn
        # Hits 0..dice: at most two dice a unit (heavy bombers).
        self.enemy_hits, self.hits = 1 + 2 * len(att.board[att.start]), 1 + 2 * len(dfn.board[dfn.start])
        self.size = 0
        self.filled = np.zeros(0, dtype=bool)
        self.chains: dict[str, np.ndarray] = {}
        self.fire: dict[tuple[bool, str], np.ndarray] = {}
        self.sea_len = np.zeros(0, dtype=np.int64)

    def _grow(self, n: int) -> None:
        if n <= self.size:
            return
        grow = max(n, 2 * self.size) - self.size
        self.size += grow
        self.filled = np.concatenate([self.filled, np.zeros(grow, dtype=bool)])
        self.sea_len = np.concatenate([self.sea_len, np.zeros(grow, dtype=np.int64)])
        for target, table in self.chains.items():
            self.chains[target] = np.concatenate([table, np.zeros((grow, table.shape[1]), dtype=np.int64)])
        for key, table in self.fire.items():
            self.fire[key] = np.concatenate([table, np.eye(1, table.shape[1]).repeat(grow, axis=0)])

    def need(self, ids: np.ndarray, targets: Iterable[str] = ()) -> None:
        """Fill the rows of ``ids`` (fire, the sea chain's length, the chains of ``targets``)."""
        dfn = self.chain.dfn
        self._grow(len(dfn.counts))
        for target in targets:
            if target not in self.chains:
                self.chains[target] = np.zeros((self.size, self.enemy_hits), dtype=np.int64)
                done = np.flatnonzero(self.filled)
                self.filled[done] = False  # refilled below where needed, now with this chain too
                self._fill_chains(done.tolist(), target)
                self.filled[done] = True
        missing = np.unique(ids[~self.filled[ids]]).tolist()
        if not missing:
            return
        self._grow(len(dfn.counts))
        for sid in missing:
            for first in (True, False):
                for target, dist in self.staged_fire(sid, first):
                    if (first, target) not in self.fire:
                        self.fire[(first, target)] = np.eye(1, self.hits).repeat(self.size, axis=0)
                    self.fire[(first, target)][sid] = 0.0
                    self.fire[(first, target)][sid, :len(dist)] = dist
            self.sea_len[sid] = len(dfn.chain(sid, "sea"))
        for target in self.chains:
            self._fill_chains(missing, target)
        self._grow(len(dfn.counts))
        self.filled[missing] = True

    def _fill_chains(self, ids: list[int], target: str) -> None:
        dfn = self.chain.dfn
        width = self.enemy_hits
        rows = []
        for sid in ids:
            chain = dfn.chain(sid, target)
            rows.append(chain[:width] + [chain[-1]] * (width - len(chain)))
        self._grow(len(dfn.counts))
        if rows:
            self.chains[target][ids] = rows


def _laid_along(hits: np.ndarray, length: int) -> np.ndarray:
    """Hit distributions (one per row) as the chance of each place of a chain of ``length``
    states: more hits than the chain holds all end at its last state."""
    if hits.shape[1] <= length:
        return hits
    return np.concatenate([hits[:, :length - 1], hits[:, length - 1:].sum(axis=1, keepdims=True)], axis=1)


def _joined(blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Blocks of cells (attacker ids, defender ids, mass) summed into one block."""
    if len(blocks) == 1:
        return blocks[0]
    a_ids = np.unique(np.concatenate([a for a, _, _ in blocks]))
    d_ids = np.unique(np.concatenate([d for _, d, _ in blocks]))
    total = np.zeros((len(a_ids), len(d_ids)))
    for a, d, mass in blocks:
        total[np.ix_(np.searchsorted(a_ids, a), np.searchsorted(d_ids, d))] += mass
    return a_ids, d_ids, total


class Sweep:
    """Walks a :class:`odds._Battle` from its start to its ends (see the module's docstring)."""

    def __init__(self, chain: _Battle, max_steps: int | None) -> None:
        self.chain, self.max_steps = chain, max_steps
        self.att_features, self.dfn_features = _Features(chain, chain.att), _Features(chain, chain.dfn)
        self._staged_fire: dict[tuple[str, int, bool], list[tuple[str, np.ndarray]]] = {}
        self.tables = _Tables(chain, lambda sid, first: self._staged(chain.dfn, sid, first))
        self.last = chain.last_bucket
        # The rounds _regular computes: Revised's steps, and Europe's where no defending submarine
        # submerges instead of firing (which ties the defender's fire to its own losses).
        battle = chain.battle
        self.regular = chain.revised_steps or (battle.rules.submarine_first_strike == "attackers_only" and not any(
            p.type == "submarine" and chain.orders.for_defender(p.owner).submerge != "never" for p in battle.defenders))
        self.grids: dict[int, np.ndarray] = {}
        self.ended = np.zeros((0, 0))
        self.ends: defaultdict[int, float] = defaultdict(float)
        self.queues: dict[int, list[tuple[int, int]]] = {b: [] for b in range(1, self.last + 1)}
        self.queued: set[tuple[int, int]] = set()
        self.dropped = 0.0
        self.rounds = 0.0
        self.steps = 0

    # --- storage ----------------------------------------------------------------------------

    def _fit(self) -> None:
        """Grow every grid to hold each state interned so far."""
        need = len(self.chain.att.counts), len(self.chain.dfn.counts)
        have = self.ended.shape
        if need[0] <= have[0] and need[1] <= have[1]:
            return
        shape = tuple(max(n, 2 * h) for n, h in zip(need, have, strict=True))

        def grown(grid: np.ndarray) -> np.ndarray:
            bigger = np.zeros(shape)
            bigger[:grid.shape[0], :grid.shape[1]] = grid
            return bigger
        self.ended = grown(self.ended)
        self.grids = {b: grown(g) for b, g in self.grids.items()}

    def _grid(self, bucket: int) -> np.ndarray:
        if bucket not in self.grids:
            self.grids[bucket] = np.zeros(self.ended.shape)
        return self.grids[bucket]

    def _queue(self, bucket: int, a: int) -> None:
        if (bucket, a) not in self.queued:
            self.queued.add((bucket, a))
            heapq.heappush(self.queues[bucket], (-self.chain.att.slots[a], a))

    def _count(self, steps: int) -> None:
        self.steps += steps
        if self.max_steps is not None and self.steps > self.max_steps:
            raise TooManySteps(f"the exact odds need more than {self.max_steps:,} steps")

    # --- step 7 -----------------------------------------------------------------------------

    def _step7(self, a: np.ndarray, d: np.ndarray, bucket: int) -> tuple[np.ndarray, np.ndarray]:
        """For cells (a column of attacker ids against a row of defender ids) with both sides on
        the board: those whose step 7 leaves them as they are (nobody submerges or retreats and
        one side can still hurt the other), and those where every attacker retreats and so ends
        the battle (at state ``gone``); any other cell goes through _Battle.advance."""
        fa, fd = self.att_features.get(), self.dfn_features.get()
        chain, rule = self.chain, self.chain.orders.retreat
        hurts = ((fa["fires"][a] & fd["holds"][d]) != 0) | ((fd["fires"][d] & fa["holds"][a]) != 0)
        calm = ~(fa["dives"][a] & ~fd["destroyer"][d]) & ~(fd["dives"][d] & ~fa["destroyer"][a])
        if chain.retreat_below is not None:
            nothing = np.zeros(np.broadcast_shapes(a.shape, d.shape), dtype=bool)
            return nothing, nothing
        due = np.zeros(np.broadcast_shapes(a.shape, d.shape), dtype=bool)
        if rule.after_round is not None and bucket >= rule.after_round:
            due |= True
        if rule.below_units is not None:
            due |= fa["units"][a] < rule.below_units
        if rule.when_weaker:
            due |= fa["power"][a] < fd["power"][d]
        return hurts & calm & ~due, calm & due & (fa["gone"][a] >= 0)

    def _send(self, bucket: int, alone: bool, a_ids: np.ndarray, d_ids: np.ndarray, mass: np.ndarray) -> None:
        """Step 7 of a round fought in ``bucket`` for the cells ``a_ids`` x ``d_ids`` holding
        ``mass``: into the next bucket's grid, the ends, or through _Battle.advance."""
        fa, fd = self.att_features.get(), self.dfn_features.get()
        self._fit()
        a, d = a_ids[:, None], d_ids[None, :]
        over = fa["empty"][a] | fd["empty"][d]
        on, gone = self._step7(a, d, bucket)
        on, gone = on & ~over, gone & ~over
        cells = np.ix_(a_ids, d_ids)
        nxt = min(bucket + 1, self.last)
        going = np.where(on, mass, 0.0)
        self._grid(nxt)[cells] += going
        self.ended[cells] += np.where(over, mass, 0.0)
        rows, cols = np.nonzero(gone)
        np.add.at(self.ended, (fa["gone"][a_ids[rows]], d_ids[cols]), mass[rows, cols])
        for i in np.flatnonzero(going.any(axis=1)).tolist():
            self._queue(nxt, int(a_ids[i]))
        for i, j in zip(*np.nonzero(~(over | on | gone) & (mass > 0)), strict=True):
            code = self.chain.advance(int(a_ids[i]), int(d_ids[j]), bucket, alone)
            if code < 0:
                self.ends[code] += float(mass[i, j])
                continue
            b2, a2, d2 = self.chain.decode(code)
            self._fit()
            self._grid(b2)[a2, d2] += mass[i, j]
            self._queue(b2, a2)

    # --- one row ----------------------------------------------------------------------------

    def _staged(self, side: _Side, sid: int, first: bool) -> list[tuple[str, np.ndarray]]:
        """A side's submarines striking first (``first``) or its other fire, per target class."""
        key = (side.side, sid, first)
        if key not in self._staged_fire:
            battle, board = self.chain.battle, side.board[sid]
            if first:
                volleys = submarine_volleys(battle, board, side.side)
            else:
                volleys = (attack_volleys if side.side == "attacker" else defence_volleys)(battle, board)
            self._staged_fire[key] = staged(volleys)
        return self._staged_fire[key]

    def _regular(self, bucket: int, a: int, cols: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]]:
        """The round from (a, d) for every d of ``cols``, as parts (columns, weight per column,
        attacker results per column over the attacker ids ``reached``, defender results per
        column over defender ids, lone transports fired at); the cells reached from a column are
        the sum over its parts of weight x attacker result x defender result.

        Both editions' steps (odds._Battle.round_blocks and step_blocks, where no defending
        submarine submerges instead of firing): submarines strike first at sea units; where the
        side they hit has no destroyer its units sunk do not fire back, so the submarine hits are
        enumerated, as the firing units depend on them; then each side's other fire, a class of
        targets after another (aircraft that may not hit submarines first).
        """
        chain, tables = self.chain, self.tables
        att, battle = chain.att, chain.battle
        if battle.rules.submerge_instead_of_firing:  # Europe: they go down before the round
            a = att.leave(a, diving(battle, chain.orders, "attacker", att.board[a]), SUBMERGED)
        tables.need(cols, ("sea",))
        sea_a = att.chain(a, "sea")
        first_a = dict(self._staged(att, a, True)).get("sea", np.ones(1))
        # Submarines fire only at sea units (odds._Battle.round_blocks).
        struck = (tables.sea_len[cols] > 1) & (len(first_a) > 1)
        first_d = tables.fire.get((True, "sea"))
        first_d = first_d[cols] if first_d is not None and len(sea_a) > 1 else np.eye(1, tables.hits).repeat(len(cols), 0)
        sd_values: list[int | None] = [None]
        if not att.destroyer[a] and first_d[:, 1:].any():
            sd_values = [s for s in range(first_d.shape[1]) if first_d[:, s].any()]
        unshielded = struck & ~self.dfn_features.get()["destroyer"][cols]
        parts = []
        for group, sa_values in ((~unshielded, [None]), (unshielded, range(len(first_a)))):
            where = np.flatnonzero(group)
            for sa in sa_values if len(where) else ():
                if sa is not None and not first_a[sa]:
                    continue
                for sd in sd_values:
                    weight = np.ones(len(where)) if sa is None else np.full(len(where), first_a[sa])
                    if sd is not None:
                        weight = weight * first_d[where, sd]
                    if weight.any():
                        parts.append(self._part(a, cols[where], where, sea_a, first_a, struck[where],
                                                first_d[where], sa, sd, weight))
        return parts

    def _part(self, a: int, col: np.ndarray, where: np.ndarray, sea_a: list[int], first_a: np.ndarray,
              struck: np.ndarray, first_d: np.ndarray, sa: int | None, sd: int | None,
              weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
        """One part of :meth:`_regular` for the columns ``col`` (``sa``/``sd``: the attacker's or
        defender's submarine hits where enumerated)."""
        chain, tables = self.chain, self.tables
        att = chain.att
        # The attacker's results: the defender's first strike, then the rest of its fire from
        # the units that may fire back.
        pool_d = col if sa is None else tables.chains["sea"][col, sa]
        tables.need(pool_d)
        fire_d = [(target, table[pool_d]) for (first, target), table in sorted(
            tables.fire.items(), key=lambda item: (item[0][1] == "any", item[0][1])) if not first]
        if sd is None:
            start, stages = a, [("sea", first_d), *fire_d]
        else:
            start, stages = sea_a[min(sd, len(sea_a) - 1)], fire_d
        att_results, reached = self._walk_attacker(start, stages, len(col))
        # The defender's results: the attacker's first strike, then the rest of its fire.
        pool_a = a if sd is None else sea_a[min(sd, len(sea_a) - 1)]
        fire_a = self._staged(att, pool_a, False)
        if sa is None:
            starts = col[:, None]
            stages_d = [("sea", np.where(struck[:, None], first_a[None, :], np.eye(1, len(first_a)))),
                        *fire_a]
        else:
            starts, stages_d = tables.chains["sea"][col, sa][:, None], fire_a
        dfn_results = self._walk_defender(starts, stages_d)
        return where, weight, att_results, reached, dfn_results, bool(att.transports_only[pool_a])

    def _walk_attacker(self, start: int, stages: list[tuple[str, np.ndarray]], n: int) -> tuple[np.ndarray, np.ndarray]:
        """The attacker's states after the hits of ``stages`` (class, P(k hits) per column), from
        ``start``: their chances per column, and the states' ids."""
        att = self.chain.att
        frontier = {start: np.ones(n)}
        for target, dist in stages:
            moved: dict[int, np.ndarray] = {}
            for x, w in frontier.items():
                places = att.chain(x, target)
                laid = _laid_along(dist, len(places))
                for k in np.flatnonzero(laid.any(axis=0)).tolist():
                    y = places[k]
                    moved[y] = moved[y] + w * laid[:, k] if y in moved else w * laid[:, k]
            frontier = moved
        reached = np.array(sorted(frontier))
        return np.array([frontier[x] for x in reached.tolist()]).T, reached

    def _walk_defender(self, starts: np.ndarray, stages: list[tuple[str, np.ndarray]]) -> np.ndarray:
        """The defender's states after the hits of ``stages`` (class, P(k hits), the same for all
        columns or one row per column) from ``starts`` (one row per column): the chance of each
        defender id per column."""
        tables = self.tables
        ids, weights = starts, np.ones(starts.shape)
        for target, dist in stages:
            tables.need(ids.ravel(), (target,))
            ids = tables.chains[target][ids][..., :dist.shape[-1]]
            if dist.ndim == 2:  # one distribution per column
                dist = dist.reshape(len(dist), *([1] * (weights.ndim - 1)), dist.shape[-1])
            weights = weights[..., None] * dist
            keep = weights.reshape(len(weights), -1).any(axis=0)
            if not keep.all():  # hit counts no column can reach
                ids = ids.reshape(len(ids), -1)[:, keep]
                weights = weights.reshape(len(weights), -1)[:, keep]
        n = len(self.chain.dfn.counts)
        columns = len(starts)
        flat = (np.arange(columns).reshape(-1, *([1] * (ids.ndim - 1))) * n + ids).ravel()
        self._count(flat.size)
        return np.bincount(flat, weights=weights.ravel(), minlength=columns * n).reshape(columns, n)

    def _generic(self, bucket: int, a: int, cols: np.ndarray) -> list:
        """The same parts from odds._Battle.round_from, one column at a time."""
        parts = []
        for i, d in enumerate(cols.tolist()):
            for w, results_a, results_d, alone in self.chain.round_from(self.chain.code(bucket, a, d)):
                n = len(self.chain.dfn.counts)
                dfn_results = np.zeros((1, n))
                dfn_results[0, list(results_d)] = list(results_d.values())
                parts.append((np.array([i]), np.array([w]), np.array([list(results_a.values())]),
                              np.array(list(results_a)), dfn_results, alone))
                self._count(len(results_a) * len(results_d))
        return parts

    def _first_round(self, a: int) -> None:
        """Round 1 from the start: AA fire and bombardment spread it over states, and from each
        a round as in later buckets (where bombarded units do not fire back)."""
        chain = self.chain
        grid = self.grids[1]
        starts: defaultdict[int, list[tuple[int, float]]] = defaultdict(list)
        for d in np.flatnonzero(grid[a]).tolist():
            mass = grid[a, d]
            for a0, d0, w in chain.opening(a, d):
                starts[a0].append((d0, mass * w))
        grid[a] = 0.0
        parts, visits = [], []
        for a0, cells in starts.items():
            parts += [(where + len(visits), *rest) for where, *rest in self._regular(1, a0, np.array([d for d, _ in cells]))]
            visits += [m for _, m in cells]
        self.rounds += sum(visits)
        self._send_parts(1, a, parts, np.array(visits), None)

    def _own_cells(self, bucket: int, a: int, cols: np.ndarray, parts: list) -> tuple[np.ndarray, np.ndarray]:
        """The cells of row ``a`` that its own round reaches and that go on as they are (the
        attacker took no hit): for each part, the chance of each per column over defender ids."""
        fd = self.dfn_features.get()
        n = len(self.chain.dfn.counts)
        ids = np.arange(n)
        on = self._step7(np.array([[a]]), ids[None, :], bucket)[0][0] & ~fd["empty"][:n]
        own = []
        for where, weight, att_results, reached, dfn_results, _ in parts:
            here = np.flatnonzero(reached == a)
            stay = weight * att_results[:, here[0]] if len(here) else np.zeros(len(where))
            own.append(stay[:, None] * dfn_results[:, :n] * on[None, :dfn_results.shape[1]])
        return on, own

    def _row(self, bucket: int, a: int) -> None:
        """Every round fought from row ``a`` of ``bucket``.

        In the last bucket, a round where the attacker takes no hit lands in the same row: the
        row's cells reached that way are added to the row first, and the visits of all of them
        solve one linear system (the row sent to itself is a triangular matrix, the round that
        changes nothing its diagonal). What step 7 sends back otherwise is taken again.
        """
        chain = self.chain
        if bucket == 1 and self.regular and not (chain.battle.bombarding and chain.battle.rules.bombarded_fire_back):
            self._first_round(a)
            return
        compute = self._regular if bucket > 1 and self.regular else self._generic
        while True:
            grid = self.grids[bucket]
            row = grid[a].copy()
            grid[a] = 0.0
            small = (row > 0) & (row < DROP_BELOW)
            self.dropped += float(row[small].sum())
            cols = np.flatnonzero(row >= DROP_BELOW)
            if not len(cols):
                return
            mass = row[cols]
            parts = compute(bucket, a, cols)
            if bucket != self.last:
                visits = mass
            else:
                while True:
                    on, own = self._own_cells(bucket, a, cols, parts)
                    reach = np.zeros(len(on))
                    for (where, *_), cells in zip(parts, own, strict=True):
                        reach[:cells.shape[1]] += mass[where] @ cells
                    reach[cols] = 0.0
                    more = np.flatnonzero(reach >= DROP_BELOW)
                    if not len(more):
                        break
                    parts += [(where + len(cols), *rest) for where, *rest in compute(bucket, a, more)]
                    cols, mass = np.concatenate([cols, more]), np.concatenate([mass, np.zeros(len(more))])
                sent = np.zeros((len(cols), len(cols)))
                for (where, *_), cells in zip(parts, own, strict=True):
                    width = min(cells.shape[1], len(on))
                    inside = cols < width
                    sent[np.ix_(where, np.flatnonzero(inside))] += cells[:, cols[inside]]
                visits = np.linalg.solve(np.eye(len(cols)) - sent.T, mass)
                self._count(len(cols) ** 3)
            self.rounds += float(visits.sum())
            solved = None
            if bucket == self.last:
                solved = np.zeros(len(self.chain.dfn.counts), dtype=bool)
                solved[cols] = True
                solved[:len(on)] &= on
            self._send_parts(bucket, a, parts, visits, solved)

    def _send_parts(self, bucket: int, a: int, parts: list, visits: np.ndarray, solved: np.ndarray | None) -> None:
        """The cells reached from ``visits`` of the columns of ``parts`` through step 7; the
        cells of row ``a`` marked ``solved`` were taken care of by the row's linear system."""
        sending: defaultdict[bool, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = defaultdict(list)
        for where, weight, att_results, reached, dfn_results, alone in parts:
            used = np.flatnonzero(dfn_results.any(axis=0))
            out = (att_results * (visits[where] * weight)[:, None]).T @ dfn_results[:, used]
            here = np.flatnonzero(reached == a)
            if solved is not None and len(here):
                out[here[0], solved[used]] = 0.0
            self._count(out.size)
            sending[alone].append((reached, used, out))
        for alone, blocks in sending.items():
            self._send(bucket, alone, *_joined(blocks))

    def run(self) -> tuple[dict[int, float], float]:
        """P(end) for every end reached, and the expected number of rounds."""
        chain = self.chain
        self._fit()
        self._grid(1)[chain.att.start, chain.dfn.start] = 1.0
        self._queue(1, chain.att.start)
        for bucket in range(1, self.last + 1):
            queue = self.queues[bucket]
            while queue:
                _, a = heapq.heappop(queue)
                self._row(bucket, a)
        left = sum(float(grid.sum()) for grid in self.grids.values())
        if left > 1e-9:  # every row was taken: anything left is a mistake in the walk
            raise RuntimeError(f"the odds sweep left {left} of the probability behind")
        for a, d in zip(*np.nonzero(self.ended), strict=True):
            self.ends[chain.end_code(int(a), int(d))] += float(self.ended[a, d])
        return dict(self.ends), self.rounds
