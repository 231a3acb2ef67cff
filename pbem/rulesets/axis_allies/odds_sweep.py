"""The walk of the exact odds' Markov chain (odds.py), vectorised with numpy (issue 13).

The probability of the states at the start of a round lives in one grid per round bucket:
attacker state by defender state (odds_chain.SideStates ids). A row of a grid - one attacker state and
every defender state holding probability - is handled at once (Sweep._round):

- each side's result of the round is a walk along its casualty chains, one class of hits after
  another in the order take_casualties applies them (submarines striking first, aircraft that
  may not hit submarines, the rest), so the attacker's results for every column form one
  matrix and the defender's another, and the cells reached are their product;
- where units sunk by submarines do not fire back, or submarines dive instead of firing, the
  round splits into parts, one per number of submarine hits or divers;
- step 7 is read from per-state features wherever it can only let the battle go on, end it
  because a side has nothing left, or retreat every attacker; every other cell (submarines
  going down, a partial retreat, sides that cannot hurt each other, the odds-only retreat rule)
  goes through odds_chain.BattleChain.advance, one cell at a time.

This follows the steps of odds_chain.BattleChain.round_blocks (Revised) and step_blocks (Europe), which
walk the same chain one cell at a time for small battles (odds.CELL_WALK_UP_TO) and for the
odds-only retreat rule; tests/test_odds.py checks both walks against every die enumerated
through rounds.fight_round, and against the figures of the engine before issue 13.

Rows are taken bucket by bucket, from the most attacking units left to the fewest: no round adds
units, so a row's probability is complete when its turn comes, except for what it sends back to
itself (the attacker took no hit): those cells join the row and all its visits solve one
triangular linear system, whose diagonal is the round that changes nothing.

A cell holding less than :data:`DROP_BELOW` is dropped, and the mass dropped is counted: every
probability is exact to within it (:attr:`Sweep.dropped`). The work is counted in cells computed
(:attr:`Sweep.steps`), which bounds it the same way on every machine.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np

from .combat.decisions import RetreatRule
from .combat.step_seven import diving, retreating
from .combat.volleys import Volley, air_target, attack_volleys, can_fire, defence_volleys, firepower, submarine_volleys
from .odds_dice import RETREATED, SUBMERGED, hit_distribution

if TYPE_CHECKING:
    from .odds_chain import BattleChain, SideStates

DROP_BELOW = 1e-18
"""Probability of a cell below which it is dropped (and counted in Sweep.dropped)."""

CELL_BY_HAND = 10_000
"""The steps counted for a cell whose step 7 goes through BattleChain.advance: about the time of ten
thousand cells computed with numpy."""

# What a side's units may hit (bits of a state's "fires at") and what it holds ("holds"); the
# classes are battle.Target's.
_TARGETS = ("any", "sea", "air", "land", "not_submarine")
_BIT = {target: 1 << i for i, target in enumerate(_TARGETS)}


Part = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]
"""Rows of a round (Sweep._round): columns, weights, attacker results, the attacker ids they
are over, defender results over defender ids, and whether lone transports were fired at."""


class TooManySteps(Exception):
    """The sweep would compute more cells than its caller allowed."""


class _Features:
    """Per-state facts of one side that step 7 reads, as numpy arrays over state ids."""

    def __init__(self, chain: BattleChain, side: SideStates) -> None:
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


def staged(volleys: list[Volley]) -> list[tuple[str, np.ndarray]]:
    """The hit distributions of ``volleys`` per target class, in the order take_casualties applies
    hits of several classes: the narrower classes first (by name), "any" last."""
    by_target: defaultdict[str, list[Volley]] = defaultdict(list)
    for volley in volleys:
        by_target[volley.target].append(volley)
    return [(t, np.array(hit_distribution(by_target[t], np.convolve)))  # hundreds of dice a volley
            for t in sorted(by_target, key=lambda t: (t == "any", t))]


class _Tables:
    """The defending side's chains and fire as padded numpy tables over state ids, filled as
    states are met: what a row needs about all of its columns at once.

    ``chains[target][d, k]``: the state after k hits of class ``target`` (a column for each hit
    the attacker can score); ``fire[(first, target)][d, k]``: P(k hits of class ``target``) of the
    defender's submarines striking first (``first``) or of its other fire, [1, 0, ...] where it
    has none of that class.
    """

    def __init__(self, chain: BattleChain, fire: Callable[[int, bool], list[tuple[str, np.ndarray]]]) -> None:
        self.chain, self.staged_fire = chain, fire
        att, dfn = chain.att, chain.dfn
        # Hits 0..dice: at most two dice a unit (heavy bombers).
        self.enemy_hits, self.hits = 1 + 2 * len(att.board[att.start]), 1 + 2 * len(dfn.board[dfn.start])
        self.size = 0
        self.filled = np.zeros(0, dtype=bool)
        self.chains: dict[str, np.ndarray] = {}
        self.fire: dict[tuple[bool, str], np.ndarray] = {}
        self.fire_targets: list[str] = []  # of the fire other than a first strike, in the order hits apply
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
                self._fill_chains(np.flatnonzero(self.filled).tolist(), target)
        unfilled = ~self.filled[ids]
        if not unfilled.any():
            return
        missing = np.unique(ids[unfilled]).tolist()
        self._grow(len(dfn.counts))
        for sid in missing:
            for first in (True, False):
                for target, dist in self.staged_fire(sid, first):
                    if (first, target) not in self.fire:
                        self.fire[(first, target)] = np.eye(1, self.hits).repeat(self.size, axis=0)
                        self.fire_targets = sorted({t for f, t in self.fire if not f}, key=lambda t: (t == "any", t))
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
    """Walks a :class:`odds_chain.BattleChain` from its start to its ends (see the module's docstring)."""

    def __init__(self, chain: BattleChain, max_steps: int | None) -> None:
        self.chain, self.max_steps = chain, max_steps
        self.att_features, self.dfn_features = _Features(chain, chain.att), _Features(chain, chain.dfn)
        self._staged_fire: dict[tuple[str, int, bool], list[tuple[str, np.ndarray]]] = {}
        self.tables = _Tables(chain, lambda sid, first: self._staged(chain.dfn, sid, first))
        self.last = chain.last_bucket
        battle = chain.battle
        self.defender_dives = battle.rules.submerge_instead_of_firing and any(
            p.type == "submarine" and chain.orders.for_defender(p.owner).submerge != "never" for p in battle.defenders)
        self._divers: dict[int, tuple[int, tuple]] = {}
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
        the battle (at state ``gone``); any other cell goes through BattleChain.advance."""
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
        ``mass``: into the next bucket's grid, the ends, or through BattleChain.advance."""
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
        if gone.any():
            rows, cols = np.nonzero(gone)
            np.add.at(self.ended, (fa["gone"][a_ids[rows]], d_ids[cols]), mass[rows, cols])
        for i in np.flatnonzero(going.any(axis=1)).tolist():
            self._queue(nxt, int(a_ids[i]))
        for i, j in zip(*np.nonzero(~(over | on | gone) & (mass > 0)), strict=True):
            self._count(CELL_BY_HAND)
            code = self.chain.advance(int(a_ids[i]), int(d_ids[j]), bucket, alone)
            if code < 0:
                self.ends[code] += float(mass[i, j])
                continue
            b2, a2, d2 = self.chain.decode(code)
            self._fit()
            self._grid(b2)[a2, d2] += mass[i, j]
            self._queue(b2, a2)

    # --- one row ----------------------------------------------------------------------------

    def _staged(self, side: SideStates, sid: int, first: bool) -> list[tuple[str, np.ndarray]]:
        """A side's submarines striking first (``first``) or its other fire, per target class."""
        key = (side.side, sid, first)
        if key not in self._staged_fire:
            self._staged_fire[key] = staged(side.volleys(sid, self.chain.battle, first))
        return self._staged_fire[key]

    def _round(self, a: int, cols: np.ndarray, fire_from: np.ndarray | None = None) -> list[Part]:
        """The round from (a, d) for every d of ``cols``, as parts (columns, weight, attacker
        results over the attacker ids ``reached``, defender results over defender ids, lone
        transports fired at), a row each; the cells reached from a column are the sum over the
        rows for it of weight x attacker result x defender result.

        Both editions' steps (odds_chain.BattleChain.round_blocks and step_blocks): submarines strike first
        at sea units; where the side they hit has no destroyer its units sunk do not fire back,
        so each number of submarine hits on it gets a row of its own, as the firing units depend
        on it; then each side's other fire, a class of targets after another (aircraft that may
        not hit submarines first), and Europe's defending submarines that dive instead of firing
        (:meth:`_dives`). ``fire_from``: the defender states that fire back instead of the
        columns (Europe's bombarded units fire back in round 1).
        """
        chain, tables = self.chain, self.tables
        att, battle = chain.att, chain.battle
        if battle.rules.submerge_instead_of_firing:  # Europe: they go down before the round
            a = att.leave(a, diving(battle, chain.orders, "attacker", att.board[a]), SUBMERGED)
        tables.need(cols, ("sea",))
        sea_a = att.chain(a, "sea")
        first_a = dict(self._staged(att, a, True)).get("sea", np.ones(1))
        first_d = tables.fire.get((True, "sea"))
        if first_d is None or len(sea_a) <= 1:
            first_d = np.eye(1, tables.hits).repeat(len(cols), 0)
        else:
            first_d = first_d[cols]
        # The rows: a row per column, or per column and number of hits by the submarines of a
        # side whose victims' enemies have no destroyer (sa: on the defender, sd: on the attacker).
        struck = (tables.sea_len[cols] > 1) & (len(first_a) > 1)  # submarines fire at sea units only
        unshielded = struck & ~self.dfn_features.get()["destroyer"][cols]
        sa_values = np.flatnonzero(first_a)
        where = np.repeat(np.arange(len(cols)), np.where(unshielded, len(sa_values), 1))
        sa = np.full(len(where), -1)
        sa[np.repeat(unshielded, np.where(unshielded, len(sa_values), 1))] = np.tile(sa_values, unshielded.sum())
        weight = np.where(sa >= 0, first_a[sa], 1.0)
        sd = np.full(len(where), -1)
        if not att.destroyer[a] and first_d[:, 1:].any():
            sd_values = np.flatnonzero(first_d.any(axis=0))
            where, sa, weight = (np.repeat(x, len(sd_values)) for x in (where, sa, weight))
            sd = np.tile(sd_values, len(where) // len(sd_values))
            weight = weight * first_d[where, sd]
            kept = weight > 0
            where, sa, sd, weight = where[kept], sa[kept], sd[kept], weight[kept]
        col = cols[where]
        # The defender's results: the attacker's first strike, then the rest of the attacker's
        # fire from the units that may fire back.
        starts = tables.chains["sea"][col, :len(first_a)]
        starts[sa >= 0, 0] = tables.chains["sea"][col[sa >= 0], sa[sa >= 0]]
        spread = struck[where] & (sa < 0)
        chances = np.where(spread[:, None], first_a[None, :], np.eye(1, len(first_a)))
        pool_a = np.where(sd >= 0, np.array(sea_a)[np.minimum(sd, len(sea_a) - 1)], a)
        dfn_results = self._walk_defender(starts, chances, self._fire_of(pool_a))
        # The attacker's results: the defender's first strike, then the rest of its fire.
        att_starts = np.where(sd >= 0, pool_a, a)
        their_first = np.where((sd >= 0)[:, None], np.eye(1, first_d.shape[1]), first_d[where])
        pool_d = np.where(sa >= 0, tables.chains["sea"][col, np.maximum(sa, 0)], col)
        if fire_from is not None:
            pool_d = fire_from[where]
        alone = np.array([att.transports_only[x] for x in pool_a.tolist()], dtype=bool)
        parts = []
        for firing, results in self._dives(pool_d, dfn_results):
            tables.need(firing)
            fire_d = [(target, tables.fire[(False, target)][firing]) for target in tables.fire_targets]
            att_results, reached = self._walk_attacker(att_starts, [("sea", their_first), *fire_d])
            for lone in (False, True):
                rows = np.flatnonzero(alone == lone)
                if len(rows):
                    parts.append((where[rows], weight[rows], att_results[rows], reached, results[rows], lone))
        return parts

    def _fire_of(self, pools: np.ndarray) -> list[tuple[str, np.ndarray]]:
        """The attacker's fire other than its submarines' first strike, from the state ``pools``
        of each row, per class of targets (one distribution per row)."""
        if (pools == pools[0]).all():  # the usual row: one attacking stack for all columns
            staged_fire = self._staged(self.chain.att, int(pools[0]), False)
            return [(t, np.tile(dist, (len(pools), 1))) for t, dist in staged_fire]
        fires = {x: dict(self._staged(self.chain.att, x, False)) for x in set(pools.tolist())}
        targets = sorted({t for fire in fires.values() for t in fire}, key=lambda t: (t == "any", t))
        stages = []
        for target in targets:
            width = max(len(fire.get(target, ())) for fire in fires.values())
            dist = np.zeros((len(pools), width))
            for x, fire in fires.items():
                hits = fire.get(target, np.ones(1))
                dist[pools == x, :len(hits)] = hits
            stages.append((target, dist))
        return stages

    def _dives(self, pools: np.ndarray, results: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Europe's defending submarines that go down instead of firing (odds_chain.BattleChain.step_blocks):
        the defender's results split by which submarines dive, each moved to the state where they
        are submerged, with the states that then fire back."""
        if not self.defender_dives:
            return [(pools, results)]
        chain, dfn = self.chain, self.chain.dfn
        split: defaultdict[tuple, list[tuple[int, int]]] = defaultdict(list)
        for d2 in np.flatnonzero(results.any(axis=0)).tolist():
            if d2 not in self._divers:
                divers = diving(chain.battle, chain.orders, "defender", dfn.board[d2])
                owners = tuple(sorted(Counter(p.owner for p in divers).items()))
                self._divers[d2] = (dfn.leave(d2, divers, SUBMERGED), owners)
            d3, key = self._divers[d2]
            split[key].append((d2, d3))
        out = []
        for key, moves in split.items():
            moved = np.zeros((len(results), len(dfn.counts)))
            d2s, d3s = (np.array(ids) for ids in zip(*moves, strict=True))
            moved[:, d3s] = results[:, d2s]
            firing = pools
            if key:
                firing = np.array([dfn.leave(pool, [p for owner, n in key for p in [
                    q for q in dfn.board[pool] if q.type == "submarine" and q.owner == owner][:n]], SUBMERGED)
                    for pool in pools.tolist()])
            out.append((firing, moved))
        return out

    def _walk_attacker(self, starts: np.ndarray, stages: list[tuple[str, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
        """The attacker's states after the hits of ``stages`` (class, P(k hits) per row) from
        ``starts`` (a state per row): their chances per row, and the states' ids."""
        att = self.chain.att
        ids = sorted(set(starts.tolist()))
        chances = (starts[:, None] == np.array(ids)[None, :]).astype(float)
        for target, dist in stages:
            chains = [att.chain(x, target) for x in ids]
            reached = sorted({y for places in chains for y in places})
            place = {y: i for i, y in enumerate(reached)}
            moved = np.zeros((len(starts), len(reached)))
            for j, places in enumerate(chains):
                laid = _laid_along(dist, len(places))
                moved[:, [place[y] for y in places[:laid.shape[1]]]] += chances[:, j:j + 1] * laid
            kept = np.flatnonzero(moved.any(axis=0))
            ids, chances = [reached[i] for i in kept.tolist()], moved[:, kept]
        return chances, np.array(ids)

    def _walk_defender(self, starts: np.ndarray, chances: np.ndarray,
                       stages: list[tuple[str, np.ndarray]]) -> np.ndarray:
        """The defender's states after the hits of ``stages`` (class, P(k hits) per row) from
        ``starts`` (states per row, with their ``chances``): the chance of each defender id per row."""
        tables = self.tables
        ids, weights = starts, chances
        for target, dist in stages:
            tables.need(ids.ravel(), (target,))
            ids = tables.chains[target][ids][..., :dist.shape[-1]]
            weights = weights[..., None] * dist.reshape(len(dist), *([1] * (weights.ndim - 1)), dist.shape[-1])
            keep = weights.reshape(len(weights), -1).any(axis=0)
            ids, weights = ids.reshape(len(ids), -1)[:, keep], weights.reshape(len(weights), -1)[:, keep]
        n = len(self.chain.dfn.counts)
        rows = len(starts)
        flat = (np.arange(rows)[:, None] * n + ids.reshape(rows, -1)).ravel()
        self._count(flat.size)
        return np.bincount(flat, weights=weights.ravel(), minlength=rows * n).reshape(rows, n)

    def _first_round(self, a: int) -> None:
        """Round 1 from the start: AA fire and bombardment spread it over states, and from each
        a round as in later buckets."""
        chain = self.chain
        grid = self.grids[1]
        # Where bombarded units fire back (Europe), the defender fires as it stood before the
        # bombardment: its units on the board and those the ships sank.
        fire_back = bool(chain.battle.bombarding) and chain.battle.rules.bombarded_fire_back
        starts: defaultdict[int, list[tuple[int, int, float]]] = defaultdict(list)
        for d in np.flatnonzero(grid[a]).tolist():
            mass = grid[a, d]
            for a0, d0, w in chain.opening(a, d):
                starts[a0].append((d0, d, mass * w))
        grid[a] = 0.0
        parts, visits = [], []
        for a0, cells in starts.items():
            before = np.array([d for _, d, _ in cells]) if fire_back else None
            parts += [(where + len(visits), *rest)
                      for where, *rest in self._round(a0, np.array([d0 for d0, _, _ in cells]), before)]
            visits += [m for _, _, m in cells]
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
        if bucket == 1:
            self._first_round(a)
            return
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
            parts = self._round(a, cols)
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
                    parts += [(where + len(cols), *rest) for where, *rest in self._round(a, more)]
                    cols, mass = np.concatenate([cols, more]), np.concatenate([mass, np.zeros(len(more))])
                sent = np.zeros((len(cols), len(cols)))
                for (where, *_), cells in zip(parts, own, strict=True):
                    inside = np.flatnonzero(cols < min(cells.shape[1], len(on)))
                    np.add.at(sent, (where[:, None], inside[None, :]), cells[:, cols[inside]])  # a column's rows
                visits = self._visits(sent, mass, cols)
                self._count(len(cols) ** 3)  # as the dense solve it replaced: the same battles stay within bounds
            self.rounds += float(visits.sum())
            solved = None
            if bucket == self.last:
                solved = np.zeros(len(self.chain.dfn.counts), dtype=bool)
                solved[cols] = True
                solved[:len(on)] &= on
            self._send_parts(bucket, a, parts, visits, solved)

    def _visits(self, sent: np.ndarray, mass: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The visits of the row's cells ``cols`` holding ``mass``, where ``sent[i, j]`` is the chance
        that a round from column i ends in column j of the same row.

        A round either leaves the defender as it is or takes units off its board, so with the
        columns by the defender's slots, most first, ``sent`` is upper triangular: its forward
        substitution, a column after another, is the row's linear system solved without LAPACK.
        """
        order = np.argsort(-np.array(self.chain.dfn.slots)[cols], kind="stable")
        sent = sent[np.ix_(order, order)]
        if np.tril(sent, -1).any():
            raise RuntimeError("the odds sweep met a round that adds defending units")
        visits = mass[order]
        stays = 1.0 - sent.diagonal()
        for j in range(len(visits)):
            visits[j] /= stays[j]
            visits[j + 1:] += sent[j, j + 1:] * visits[j]
        solved = np.empty_like(visits)
        solved[order] = visits
        return solved

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
