"""The battle of the exact odds as a Markov chain between rounds (odds.py computes on it).

`SideStates` interns the states one side passes through (its units counted by class and place);
`BattleChain` holds a battle's states at the start of a round (round bucket, attacker state,
defender state) and the ends, what each round's volleys, casualties and step 7 make of a state
(the same functions of the combat package that a fought battle uses), and walks a small battle
cell by cell; odds_sweep.py walks a larger one a row at a time with numpy.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .combat.battle import Battle, CombatRules, Piece, Side, Target
from .combat.casualties import CasualtyPolicy, casualty_policies, casualty_ranking, take_casualties
from .combat.decisions import BattleOrders
from .combat.resolve import battle_winner
from .combat.step_seven import diving, press_or_retreat, transports_only
from .combat.volleys import (
    Volley, aa_volley, attack_volleys, bombardment_volleys, defence_volleys, has_destroyer, is_target,
    submarine_volleys,
)
from .odds_dice import BOARD, RETREATED, SUBMERGED, hit_distribution


# --- the units of one side ------------------------------------------------------------------------


def _cargo_key(piece: Piece) -> tuple:
    return tuple(sorted((c.type, c.owner) for c in piece.cargo))


class SideStates:
    """The states one side passes through, interned as small integers.

    A state counts the side's units per class (type, owner, damaged, cargo, place): units of one
    class are interchangeable under every rule of the combat package, so any pieces of those classes
    stand for the state.
    """

    def __init__(self, side: Side, pieces: Sequence[Piece], policy: CasualtyPolicy) -> None:
        self.side, self.policy = side, policy
        self.classes: list[tuple] = []
        self.class_ids: dict[tuple, int] = {}
        self.cargo: dict[tuple, tuple[Piece, ...]] = {}
        for p in pieces:
            self.cargo[_cargo_key(p)] = p.cargo
            for damaged in ((False, True) if p.type == "battleship" else (p.damaged,)):
                for place in (BOARD, SUBMERGED, RETREATED):
                    self._class_id((p.type, p.owner, damaged, _cargo_key(p), place))
        self.ids: dict[tuple[int, ...], int] = {}
        self.counts: list[tuple[int, ...]] = []
        self.board: list[list[Piece]] = []
        self.away: list[list[tuple[Piece, str]]] = []
        self.slots: list[int] = []
        self.destroyer: list[bool] = []
        self.transports_only: list[bool] = []
        self._chains: dict[tuple[int, Target], list[int]] = {}
        self._fire: dict[tuple[int, bool], list[float]] = {}
        self._taken: dict[tuple, int] = {}
        counts = [0] * len(self.classes)
        for p in pieces:
            counts[self.class_of(p, BOARD)] += 1
        self._fielded = Counter((p.owner, p.type) for p in pieces)
        # A counted casualty order ranks each state's units by the losses so far (ranking_of).
        self._ranked = [] if policy.counted else self._class_ranking()
        # A state k hits down a chain ranks what is left as the rest of the chain's ranking where
        # places do not depend on the losses so far; battleships change class when damaged, so
        # their sides walk every chain.
        self._ranked_as_rest = not policy.counted and all(p.type != "battleship" for p in pieces)
        self.start = self.intern(tuple(counts))

    def _class_ranking(self) -> list[tuple[int, bool, Piece]]:
        """casualties.casualty_ranking of one unit of every class on the board, as (class, damaging,
        the unit), without keeping a land unit back.

        Units of a class are ranked next to each other (they differ only in their ids), so a
        state's ranking is this list with each class repeated as many times as it has units,
        and then its last land unit moved to the end where the policy keeps one back.
        """
        units = {c: Piece(c, unit, owner, damaged, self.cargo[cargo])
                 for c, (unit, owner, damaged, cargo, place) in enumerate(self.classes) if place == BOARD}
        ranked = casualty_ranking(list(units.values()), replace(self.policy, keep_land_unit=False))
        return [(piece.id, damaging, piece) for piece, damaging in ranked]

    def policy_at(self, sid: int) -> CasualtyPolicy:
        """The casualty policy in state ``sid``: the units missing from it are the side's losses."""
        if not self.policy.counted:
            return self.policy
        present: Counter[tuple[str, str]] = Counter()
        for (unit, owner, *_), n in zip(self.classes, self.counts[sid], strict=True):
            present[(owner, unit)] += n
        return replace(self.policy, lost=self._fielded - present)

    def ranking_of(self, sid: int) -> list[tuple[int, bool, Piece]]:
        """casualties.casualty_ranking of the state's units, as (class, damaging, the unit)."""
        if self.policy.counted:
            return [(self.class_of(piece, BOARD), damaging, piece)
                    for piece, damaging in casualty_ranking(self.board[sid], self.policy_at(sid))]
        counts = self.counts[sid]
        ranking = [(c, damaging, piece) for c, damaging, piece in self._ranked for _ in range(counts[c])]
        if self.policy.keep_land_unit:
            land = [i for i, (_, _, piece) in enumerate(ranking) if piece.kind == "land"]
            if land:
                ranking.append(ranking.pop(land[-1]))
        return ranking

    def _class_id(self, key: tuple) -> int:
        if key not in self.class_ids:
            self.class_ids[key] = len(self.classes)
            self.classes.append(key)
        return self.class_ids[key]

    def class_of(self, piece: Piece, place: str, damaged: bool | None = None) -> int:
        return self.class_ids[(piece.type, piece.owner, piece.damaged if damaged is None else damaged,
                               _cargo_key(piece), place)]

    def intern(self, counts: tuple[int, ...]) -> int:
        sid = self.ids.get(counts)
        if sid is None:
            sid = self.ids[counts] = len(self.counts)
            board, away = [], []
            for (unit, owner, damaged, cargo, place), n in zip(self.classes, counts, strict=True):
                for _ in range(n):
                    piece = Piece(len(board) + len(away), unit, owner, damaged, self.cargo[cargo])
                    (board.append(piece) if place == BOARD else away.append((piece, place)))
            self.counts.append(counts)
            self.board.append(board)
            self.away.append(away)
            self.slots.append(sum(2 if p.type == "battleship" and not p.damaged else 1 for p in board))
            self.destroyer.append(has_destroyer(board))
            self.transports_only.append(transports_only(board))
        return sid

    def chain(self, sid: int, target: Target) -> list[int]:
        """The states after 0, 1, 2 ... hits of class ``target``, up to the last legal target.

        Hits take the first legal entries of casualties.casualty_ranking (as take_casualties does),
        and the ranking of what is left is the rest of the list, so one walk gives every count.
        """
        key = (sid, target)
        if key not in self._chains:
            counts = list(self.counts[sid])
            ranking = self.ranking_of(sid)
            # A sound battleship's first hit comes before its second, and the battleships of a
            # class take both in the same order: the first ones sunk are the ones damaged.
            chain, damaged, sunk = [sid], Counter(), Counter()
            for c, damaging, piece in ranking:
                if not is_target(piece, target):
                    continue
                hurt = self.class_of(piece, BOARD, True) if piece.type == "battleship" else c
                if damaging:
                    counts[c] -= 1
                    counts[hurt] += 1
                    damaged[c] += 1
                else:
                    counts[hurt if sunk[c] < damaged[c] else c] -= 1
                    sunk[c] += 1
                chain.append(self.intern(tuple(counts)))
            self._chains[key] = chain
            if self._ranked_as_rest:  # the walk's states need no walk of their own
                for k in range(1, len(chain)):
                    self._chains.setdefault((chain[k], target), chain[k:])
        return self._chains[key]

    def take(self, sid: int, hits: tuple[tuple[Target, int], ...]) -> int:
        """The state after hits of several classes (casualties.take_casualties on the state's pieces)."""
        key = (sid, hits)
        if key not in self._taken:
            lost = take_casualties(self.board[sid], dict(hits), "any", self.policy_at(sid))
            counts = list(self.counts[sid])
            for p in lost.killed:
                counts[self.class_of(p, BOARD)] -= 1
            for p in lost.damaged:
                counts[self.class_of(p, BOARD)] -= 1
                counts[self.class_of(p, BOARD, True)] += 1
            self._taken[key] = self.intern(tuple(counts))
        return self._taken[key]

    def leave(self, sid: int, pieces: Sequence[Piece], place: str) -> int:
        """The state after ``pieces`` left the board (submerged or retreated)."""
        if not pieces:
            return sid
        counts = list(self.counts[sid])
        for p in pieces:
            counts[self.class_of(p, BOARD)] -= 1
            counts[self.class_of(p, place)] += 1
        return self.intern(tuple(counts))

    def fire(self, sid: int, battle: Battle, submarines: bool) -> list[float]:
        """Hit distribution of this side's submarines (opening fire) or of its other units (step 4
        or 5), from the same volley functions resolve_battle rolls."""
        key = (sid, submarines)
        if key not in self._fire:
            self._fire[key] = hit_distribution(self.volleys(sid, battle, submarines))
        return self._fire[key]

    def volleys(self, sid: int, battle: Battle, submarines: bool) -> list[Volley]:
        """The volleys of this side's submarines striking first, or of its other units (step 4
        or 5), as resolve_battle rolls them."""
        board = self.board[sid]
        if submarines:
            return submarine_volleys(battle, board, self.side)
        return (attack_volleys if self.side == "attacker" else defence_volleys)(battle, board)


# --- the chain of rounds --------------------------------------------------------------------------

def revised_steps(rules: CombatRules) -> bool:
    """Whether an edition fights Revised's steps, which round_blocks models with its shortcuts."""
    return (rules.submarine_first_strike == "both_sides" and not rules.submerge_instead_of_firing
            and not rules.air_hits_on_submarines_need_destroyer and not rules.bombarded_fire_back)


def _outcomes(volleys: Sequence[Volley],
              targets: Sequence[Piece]) -> list[tuple[tuple[tuple[Target, int], ...], float]]:
    """Every count of hits per target class of ``volleys`` with its chance; as rounds._fire, a
    volley with no legal target among ``targets`` is not rolled."""
    by_target: dict[Target, list[Volley]] = defaultdict(list)
    for v in volleys:
        if any(is_target(t, v.target) for t in targets):
            by_target[v.target].append(v)
    out: list[tuple[tuple[tuple[Target, int], ...], float]] = [((), 1.0)]
    for target, group in sorted(by_target.items()):
        dist = hit_distribution(group)
        out = [(hits + ((target, k),), p * q) for hits, p in out for k, q in enumerate(dist) if q]
    return out


def _without(pieces: Sequence[Piece], leaving: Sequence[Piece]) -> list[Piece]:
    """``pieces`` less one piece of the same type and owner for each of ``leaving`` (pieces of two
    states of a side are different objects; units of a class are interchangeable)."""
    left = list(pieces)
    for p in leaving:
        left.remove(next(q for q in left if (q.type, q.owner, q.damaged) == (p.type, p.owner, p.damaged)))
    return left


class BattleTooLarge(Exception):
    """The exact odds would take more work than the caller allowed."""


class StepsNotCovered(Exception):
    """The exact odds do not follow this battle's steps (simulate it instead)."""


def check_covered(battle: Battle) -> None:
    """Raise :class:`StepsNotCovered` when ``battle`` needs steps the chain below does not model.

    Both step models take the attacker's casualty order for AA fire and have no allied ships
    standing by; battles with the option that lets the defender pick, or with such ships, are
    simulated.
    """
    reasons = []
    if battle.bystanders:
        reasons.append("allied ships standing by in the zone")
    if battle.stranded:
        reasons.append("fighters with no movement left")
    if battle.aa_gun is not None and battle.aa_casualties == "defender_chooses":
        reasons.append("AA casualties chosen by the defender")
    if not (revised_steps(battle.rules) or battle.rules.submarine_first_strike == "attackers_only"):
        reasons.append("this edition's combat steps")  # odds_sweep computes Revised's and Europe's
    if reasons:
        raise StepsNotCovered(f"the exact odds do not cover {' or '.join(reasons)} yet: simulate instead")


_SHIFT = 21  # side-state ids fit in 21 bits; a state code is (bucket, attacker, defender) packed


class BattleChain:
    """The battle as a Markov chain between rounds.

    States are packed in non-negative ints; ends (winner, attacker state, defender state) are
    numbered -1, -2, ...
    """

    def __init__(self, battle: Battle, orders: BattleOrders, retreat_below: float | None) -> None:
        self.battle, self.orders, self.retreat_below = battle, orders, retreat_below
        policies = casualty_policies(battle, orders)
        self.att = SideStates("attacker", battle.attackers, policies["attacker"])
        self.dfn = SideStates("defender", battle.defenders, policies["defender"])
        self.last_bucket = max(2, orders.retreat.after_round or 1)
        self.revised_steps = revised_steps(battle.rules)
        self.ends: list[tuple[str, int, int]] = []
        self._end_ids: dict[tuple[str, int, int], int] = {}
        self._step7: dict[tuple, int] = {}
        self._value: dict[int, float] = {}
        self._retreat_from: dict[int, bool] = {}
        self.start = self.code(1, self.att.start, self.dfn.start)

    @staticmethod
    def code(bucket: int, a: int, d: int) -> int:
        return (bucket << 2 * _SHIFT) | (a << _SHIFT) | d

    @staticmethod
    def decode(code: int) -> tuple[int, int, int]:
        mask = (1 << _SHIFT) - 1
        return code >> 2 * _SHIFT, (code >> _SHIFT) & mask, code & mask

    def opening(self, a: int, d: int) -> list[tuple[int, int, float]]:
        """Round 1 before the submarines: AA fire on aircraft and shore bombardment."""
        att, dfn = self.att, self.dfn
        outcomes = [(a, d, 1.0)]
        aa = aa_volley(self.battle, att.board[a])
        if aa:
            chain = att.chain(a, "air")
            outcomes = [(chain[min(k, len(chain) - 1)], d, p) for k, p in enumerate(hit_distribution([aa]))]
        volleys = bombardment_volleys(self.battle, dfn.board[d])
        if volleys:
            chain = dfn.chain(d, volleys[0].target)
            shelled = [(chain[min(k, len(chain) - 1)], q) for k, q in enumerate(hit_distribution(volleys))]
            outcomes = [(a2, d2, p * q) for a2, _, p in outcomes for d2, q in shelled]
        return outcomes

    def round_blocks(self, a: int, d: int) -> list[tuple[float, dict[int, float], dict[int, float], bool]]:
        """Steps 2d-6 from (a, d) as blocks (weight, attacker results, defender results, lone
        transports fired at); within a block the two sides' results are independent.

        Submarine hits tie the two sides together only when the hit side has no destroyer (its
        victims do not fire back), so only those hit counts are enumerated outside the blocks.
        """
        att, dfn, battle = self.att, self.dfn, self.battle
        sea_a, sea_d = att.chain(a, "sea"), dfn.chain(d, "sea")
        subs_a = dfn_subs = [1.0]
        if len(sea_d) > 1:
            subs_a = att.fire(a, battle, submarines=True)
        if len(sea_a) > 1:
            dfn_subs = dfn.fire(d, battle, submarines=True)
        att_shield, dfn_shield = att.destroyer[a], dfn.destroyer[d]
        blocks = []
        for sa, pa in ([(None, 1.0)] if dfn_shield else enumerate(subs_a)):
            for sd, pd in ([(None, 1.0)] if att_shield else enumerate(dfn_subs)):
                if not pa * pd:
                    continue
                pool_a = a if att_shield else sea_a[min(sd, len(sea_a) - 1)]
                pool_d = d if dfn_shield else sea_d[min(sa, len(sea_d) - 1)]
                blocks.append((pa * pd,
                               self._results(att, sea_a, sd, dfn_subs, dfn.fire(pool_d, battle, submarines=False)),
                               self._results(dfn, sea_d, sa, subs_a, att.fire(pool_a, battle, submarines=False)),
                               att.transports_only[pool_a]))
        return blocks

    @staticmethod
    def _results(side: SideStates, sea: list[int], sub_hits: int | None, subs: list[float],
                 hits: list[float]) -> dict[int, float]:
        """Where a side ends after the enemy's sub hits (fixed, or spread over ``subs``) and then
        the enemy's step 4/5 hits."""
        outcomes = [(sub_hits, 1.0)] if sub_hits is not None else list(enumerate(subs))
        if len(outcomes) == 1:  # the usual case (no enemy subs): build the results directly
            chain = side.chain(sea[min(outcomes[0][0], len(sea) - 1)], "any")
            last = len(chain) - 1
            out = dict(zip(chain[:last], hits[:last], strict=False))  # fewer dice than targets
            if len(hits) > last:  # more hits than targets all end the same way
                out[chain[last]] = sum(hits[last:])
            return out
        out = defaultdict(float)
        for s, q in outcomes:
            chain = side.chain(sea[min(s, len(sea) - 1)], "any")
            last = len(chain) - 1
            for h, r in enumerate(hits[:last]):
                out[chain[h]] += q * r
            if len(hits) > last:
                out[chain[last]] += q * sum(hits[last:])
        return out

    def step7(self, a: int, d: int, bucket: int, alone: bool, force: bool) -> int:
        """Step 7 after a round fought in ``bucket``: the code of the next state or of the end."""
        key = (a, d, bucket, alone, force)
        if key not in self._step7:
            att, dfn = self.att, self.dfn
            seven = press_or_retreat(self.battle, self.orders, att.board[a], dfn.board[d], bucket, alone, force)
            a2 = att.leave(att.leave(a, seven.submerged["attacker"], SUBMERGED), seven.retreated, RETREATED)
            d2 = dfn.leave(d, seven.submerged["defender"], SUBMERGED)
            if seven.over:
                self._step7[key] = self.end_code(a2, d2)
            else:
                self._step7[key] = self.code(min(bucket + 1, self.last_bucket), a2, d2)
        return self._step7[key]

    def end_code(self, a: int, d: int) -> int:
        """The code of the end where the sides are left in states ``a`` and ``d``."""
        end = (battle_winner(self.att.board[a], self.dfn.board[d]), a, d)
        if end not in self._end_ids:
            self._end_ids[end] = -1 - len(self.ends)
            self.ends.append(end)
        return self._end_ids[end]

    def round_from(self, state: int) -> list[tuple[float, dict[int, float], dict[int, float], bool]]:
        """The blocks of the round fought from ``state`` (see round_blocks); round 1 starts with
        AA fire and bombardment."""
        bucket, a, d = self.decode(state)
        if not self.revised_steps:
            return self.step_blocks(a, d, bucket == 1)
        starts = self.opening(a, d) if bucket == 1 else [(a, d, 1.0)]
        return [(w * weight, results_a, results_d, alone) for a0, d0, w in starts
                for weight, results_a, results_d, alone in self.round_blocks(a0, d0)]

    # An edition whose steps differ from Revised's (Europe) is followed step by step: each
    # defender result is a block of its own, since the defender's fire depends on it (submarines
    # that submerge instead of firing, bombarded units that fire back).
    def step_blocks(self, a: int, d: int, first: bool) -> list[tuple[float, dict[int, float], dict[int, float], bool]]:
        """The round from (a, d) in fight_round's order, as blocks with one defender result each."""
        att, dfn, battle, orders = self.att, self.dfn, self.battle, self.orders
        rules = battle.rules
        starts: list[tuple[int, int, list[Piece], float]] = [(a, d, [], 1.0)]
        if first:
            starts = [(a1, d1, [], p) for a1, d1, p in self.opening_aa(a, d)]
            starts = [(a1, d2, back, p * q) for a1, d1, _, p in starts
                      for d2, back, q in self.shelled(d1)]
        blocks = []
        for a0, d0, fire_back, w in starts:
            if rules.submerge_instead_of_firing:
                a0 = att.leave(a0, diving(battle, orders, "attacker", att.board[a0]), SUBMERGED)
            attackers = att.board[a0]
            shielded = has_destroyer(dfn.board[d0])
            for hits2, p2 in _outcomes(submarine_volleys(battle, attackers, "attacker"), dfn.board[d0]):
                d1 = dfn.take(d0, hits2)
                firing = dfn.board[d0] if shielded else dfn.board[d1]
                for hits4, p4 in _outcomes(attack_volleys(battle, attackers), dfn.board[d1]):
                    d2 = dfn.take(d1, hits4)
                    divers = diving(battle, orders, "defender", dfn.board[d2]) \
                        if rules.submerge_instead_of_firing else []
                    d3 = dfn.leave(d2, divers, SUBMERGED)
                    pool = _without(firing, divers) + fire_back
                    results: dict[int, float] = defaultdict(float)
                    for hits5, p5 in _outcomes(defence_volleys(battle, pool), attackers):
                        results[att.take(a0, hits5)] += p5
                    blocks.append((w * p2 * p4, dict(results), {d3: 1.0}, att.transports_only[a0]))
        return blocks

    def opening_aa(self, a: int, d: int) -> list[tuple[int, int, float]]:
        """AA fire of round 1 (the attacker's casualty order picks, see check_covered)."""
        aa = aa_volley(self.battle, self.att.board[a])
        if not aa:
            return [(a, d, 1.0)]
        chain = self.att.chain(a, "air")
        return [(chain[min(k, len(chain) - 1)], d, p) for k, p in enumerate(hit_distribution([aa]))]

    def shelled(self, d: int) -> list[tuple[int, list[Piece], float]]:
        """Bombardment of round 1: the defender's state after it, the victims that fire back at
        step 5 (where the edition says so), and the chance."""
        out = []
        for hits, q in _outcomes(bombardment_volleys(self.battle, self.dfn.board[d]), self.dfn.board[d]):
            d1 = self.dfn.take(d, hits)
            lost = take_casualties(self.dfn.board[d], dict(hits), "any", self.dfn.policy_at(d)).killed
            out.append((d1, list(lost) if self.battle.rules.bombarded_fire_back else [], q))
        return out

    def pairs(self, state: int) -> Iterable[tuple[int, int, int, bool, float]]:
        """Every (attacker state, defender state, bucket, lone transports, probability) a round
        from ``state`` reaches before step 7."""
        bucket = self.decode(state)[0]
        for w, results_a, results_d, alone in self.round_from(state):
            for a1, p in results_a.items():
                for d1, q in results_d.items():
                    yield a1, d1, bucket, alone, w * p * q

    # The odds-only rule "retreat when the chance to win falls below a bound" needs the value of
    # every state first: value() computes them backwards (recursively) and fixes the decisions.
    def value(self, state: int) -> float:
        """P(the attacker wins) from ``state`` (1 or 0 at an end), under the retreat rules."""
        if state < 0:
            return 1.0 if self.ends[-1 - state][0] == "attacker" else 0.0
        if state not in self._value:
            won, stay, loops = 0.0, 0.0, []
            for a1, d1, bucket, alone, p in self.pairs(state):
                nxt = self.step7(a1, d1, bucket, alone, False)
                if nxt == state:
                    stay += p
                    loops.append((a1, d1, bucket, alone, p))
                    continue
                if nxt >= 0 and self.retreats_from(nxt):
                    nxt = self.step7(a1, d1, bucket, alone, True)
                won += p * self.value(nxt)
            going_on = won / (1 - stay)
            self._retreat_from[state] = going_on < self.retreat_below
            if stay and going_on < self.retreat_below:
                stay = 0.0
                for a1, d1, bucket, alone, p in loops:
                    nxt = self.step7(a1, d1, bucket, alone, True)
                    if nxt == state:
                        stay += p
                    else:
                        won += p * self.value(nxt)
                going_on = won / (1 - stay)
            self._value[state] = going_on
        return self._value[state]

    def retreats_from(self, state: int) -> bool:
        """Whether the attacker retreats at the step 7 that leads to ``state`` (odds-only rule)."""
        self.value(state)
        return self._retreat_from[state]

    def advance(self, a1: int, d1: int, bucket: int, alone: bool) -> int:
        """Step 7 with every retreat rule: the code of the next state or of the end."""
        nxt = self.step7(a1, d1, bucket, alone, False)
        if self.retreat_below is not None and nxt >= 0 and self.retreats_from(nxt):
            nxt = self.step7(a1, d1, bucket, alone, True)
        return nxt

    def walk_cells(self, max_work: int | None) -> tuple[dict[int, float], float]:
        """:meth:`run` one state at a time in plain Python: P(end) and E[rounds].

        Each state or end has a one-element list holding the probability of reaching it; the
        cells of a round's results are cached per (attacker result, bucket, lone transports) and
        defender result, so a pair of results costs one lookup. The round that changes nothing
        adds to the cell of the state being processed, which has been read already: that loop is
        accounted for by dividing by (1 - stay) instead.
        """
        cells: dict[int, list[float]] = {self.start: [1.0]}
        levels: dict[tuple[int, int], list[int]] = {(1, 0): [self.start]}
        order = [(1, 0)]
        rows: dict[tuple[int, int, bool], dict[int, list[float]]] = {}
        att_slots, dfn_slots = self.att.slots, self.dfn.slots

        def cell_of(a1: int, d1: int, bucket: int, alone: bool) -> list[float]:
            nxt = self.advance(a1, d1, bucket, alone)
            cell = cells.get(nxt)
            if cell is None:
                cell = cells[nxt] = [0.0]
                if nxt >= 0:
                    nb, na, nd = self.decode(nxt)
                    level = (nb, -(att_slots[na] + dfn_slots[nd]))
                    if level not in levels:
                        levels[level] = []
                        heapq.heappush(order, level)
                    levels[level].append(nxt)
            return cell

        rounds, work = 0.0, 0
        while order:
            for state in levels.pop(heapq.heappop(order)):
                bucket, a, d = self.decode(state)
                blocks = self.round_from(state)
                stay = 0.0
                if bucket == self.last_bucket:
                    stay = sum(w * ra.get(a, 0.0) * rd.get(d, 0.0) for w, ra, rd, alone in blocks
                               if self.advance(a, d, bucket, alone) == state)
                visits = cells[state][0] / (1 - stay)
                rounds += visits
                for w, ra, rd, alone in blocks:
                    results_d = list(rd.items())
                    work += len(ra) * len(results_d)
                    if max_work is not None and work > max_work:
                        raise BattleTooLarge(f"the exact odds need more than {max_work:,} steps")
                    for a1, p in ra.items():
                        row = rows.get((a1, bucket, alone))
                        if row is None:
                            row = rows[(a1, bucket, alone)] = {}
                        vp = visits * w * p
                        for d1, q in results_d:
                            cell = row.get(d1)
                            if cell is None:
                                cell = row[d1] = cell_of(a1, d1, bucket, alone)
                            cell[0] += vp * q
        return {code: cell[0] for code, cell in cells.items() if code < 0}, rounds
