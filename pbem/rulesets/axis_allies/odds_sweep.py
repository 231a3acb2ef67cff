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

import heapq
from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from .combat import (
    RetreatRule, air_target, attack_volleys, can_fire, defence_volleys, diving, firepower, retreating,
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


class _Tables:
    """The defending side's fire, submarine fire and chains as padded numpy tables over state ids,
    filled as states are met: what a row needs about all of its columns at once."""

    def __init__(self, chain: _Battle) -> None:
        self.chain = chain
        att, dfn, battle = chain.att, chain.dfn, chain.battle
        self.hits = len(dfn.fire(dfn.start, battle, submarines=False))  # defender hits 0..n
        self.sub_hits = len(dfn.fire(dfn.start, battle, submarines=True))
        self.enemy_hits = len(att.fire(att.start, battle, submarines=False))
        self.enemy_sub_hits = len(att.fire(att.start, battle, submarines=True))
        self.filled = np.zeros(0, dtype=bool)
        self.fire = np.zeros((0, self.hits))
        self.subs = np.zeros((0, self.sub_hits))
        self.any = np.zeros((0, self.enemy_hits), dtype=np.int64)
        self.sea = np.zeros((0, self.enemy_sub_hits), dtype=np.int64)
        self.sea_len = np.zeros(0, dtype=np.int64)

    @staticmethod
    def _padded(values: list, width: int) -> list:
        return values[:width] + [values[-1]] * (width - len(values))

    def need(self, ids: np.ndarray) -> None:
        """Fill the tables for ``ids`` (and make room for every state interned so far)."""
        dfn, battle = self.chain.dfn, self.chain.battle
        n = len(dfn.counts)
        if len(self.filled) < n:
            grow = max(n, 2 * len(self.filled)) - len(self.filled)
            self.filled = np.concatenate([self.filled, np.zeros(grow, dtype=bool)])
            for name in ("fire", "subs", "any", "sea", "sea_len"):
                table = getattr(self, name)
                setattr(self, name, np.concatenate([table, np.zeros((grow, *table.shape[1:]), dtype=table.dtype)]))
        for sid in np.unique(ids[~self.filled[ids]]).tolist():
            fire = dfn.fire(sid, battle, submarines=False)
            self.fire[sid, :len(fire)] = fire
            subs = dfn.fire(sid, battle, submarines=True)
            self.subs[sid, :len(subs)] = subs
            self.any[sid] = self._padded(dfn.chain(sid, "any"), self.enemy_hits)
            sea = dfn.chain(sid, "sea")
            self.sea[sid] = self._padded(sea, self.enemy_sub_hits)
            self.sea_len[sid] = len(sea)
            self.filled[sid] = True


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
        self.tables = _Tables(chain)
        self.last = chain.last_bucket
        self.submarines = any(p.type == "submarine" for p in (*chain.battle.attackers, *chain.battle.defenders))
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

    def _regular(self, bucket: int, a: int, cols: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]]:
        """The round from (a, d) for every d of ``cols`` in Revised's steps, as parts
        (weight per column, attacker results per column over attacker ids, defender results per
        column over defender ids, lone transports fired at); the cells reached from a column are
        the sum over parts of weight x attacker result x defender result."""
        chain, tables = self.chain, self.tables
        att, battle = chain.att, chain.battle
        tables.need(cols)
        sea_a = att.chain(a, "sea")
        subs_a = np.array(att.fire(a, battle, submarines=True))
        # Submarines fire only when the enemy has sea units (odds._Battle.round_blocks).
        struck = (tables.sea_len[cols] > 1) & (len(subs_a) > 1)
        their_subs = tables.subs[cols] if len(sea_a) > 1 else np.eye(1, tables.sub_hits).repeat(len(cols), 0)
        # Without a destroyer, a side's units sunk by submarines do not fire back: the other
        # side's submarine hits are then enumerated, as the firing units depend on them.
        sd_values: list[int | None] = [None]
        if not att.destroyer[a] and their_subs[:, 1:].any():
            sd_values = [s for s in range(their_subs.shape[1]) if their_subs[:, s].any()]
        unshielded = struck & ~self.dfn_features.get()["destroyer"][cols]
        parts = []
        for group, sa_values in ((~unshielded, [None]), (unshielded, range(len(subs_a)))):
            if not group.any():
                continue
            where = np.flatnonzero(group)
            for sa in sa_values:
                if sa is not None and not subs_a[sa]:
                    continue
                for sd in sd_values:
                    weight = np.ones(len(where)) if sa is None else np.full(len(where), subs_a[sa])
                    if sd is not None:
                        weight = weight * their_subs[where, sd]
                    if weight.any():
                        parts.append(self._part(a, cols, where, sea_a, subs_a, struck, their_subs, sa, sd, weight))
        return parts

    def _part(self, a: int, cols: np.ndarray, where: np.ndarray, sea_a: list[int], subs_a: np.ndarray,
              struck: np.ndarray, their_subs: np.ndarray, sa: int | None, sd: int | None,
              weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
        """One part of :meth:`_regular` (the columns ``where``; ``sa``/``sd``: the attacker's or
        defender's submarine hits when enumerated)."""
        chain, tables = self.chain, self.tables
        att, battle = chain.att, chain.battle
        col = cols[where]
        # The attacker's results: the defender's hits after its submarines' hits.
        pool_d = col if sa is None else tables.sea[col, sa]
        tables.need(pool_d)
        fire_d = tables.fire[pool_d]
        if sd is None:
            starts = [(s, their_subs[where, s]) for s in range(min(len(sea_a), their_subs.shape[1]))]
            if their_subs.shape[1] > len(sea_a):  # more submarine hits than sea units: all gone
                starts[-1] = (len(sea_a) - 1, their_subs[where, len(sea_a) - 1:].sum(axis=1))
        else:
            starts = [(min(sd, len(sea_a) - 1), np.ones(len(where)))]
        chains = [att.chain(sea_a[s], "any") for s, _ in starts]
        reached = sorted({x for c in chains for x in c})
        place = {x: i for i, x in enumerate(reached)}
        att_results = np.zeros((len(where), len(reached)))
        for (_, w), c in zip(starts, chains, strict=True):
            laid = _laid_along(fire_d, len(c))
            att_results[:, [place[x] for x in c[:laid.shape[1]]]] += w[:, None] * laid
        # The defender's results: the attacker's hits after its submarines' hits.
        pool_a = a if sd is None else sea_a[min(sd, len(sea_a) - 1)]
        fire_a = np.array(att.fire(pool_a, battle, submarines=False))
        if sa is None:
            starts_d = np.where(struck[where, None], tables.sea[col, :len(subs_a)], col[:, None])
            weights_d = np.where(struck[where, None], subs_a[None, :], np.eye(1, len(subs_a)))
        else:
            starts_d, weights_d = tables.sea[col, sa][:, None], np.ones((len(where), 1))
        tables.need(starts_d.ravel())
        reached_d = tables.any[starts_d][:, :, :len(fire_a)]  # columns x starts x hits
        n = len(self.chain.dfn.counts)
        flat = (np.arange(len(where))[:, None, None] * n + reached_d).ravel()
        w = (weights_d[:, :, None] * fire_a[None, None, :]).ravel()
        dfn_results = np.bincount(flat, weights=w, minlength=len(where) * n).reshape(len(where), n)
        self._count(reached_d.size)
        return where, weight, att_results, np.array(reached), dfn_results, bool(att.transports_only[pool_a])

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
        # Without submarines, another edition's steps come to the same round as Revised's.
        regular_steps = chain.revised_steps or not self.submarines
        if bucket == 1 and regular_steps and not (chain.battle.bombarding and chain.battle.rules.bombarded_fire_back):
            self._first_round(a)
            return
        compute = self._regular if bucket > 1 and regular_steps else self._generic
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
