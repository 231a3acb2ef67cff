"""Benchmarks of the exact odds calculator (issue 4), and what simulation needs to match it.

Run from the repository root: ``python bench/bench_odds.py [--coverage]``. Exact times are the best
of five runs; each simulation is timed once, with as many battles as it takes to come within ±1
percentage point of the exact P(attacker wins) 95% of the time. ``--coverage`` checks that claim
on ten seeds of the 10v10 battle.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a plain script from a checkout

from pbem.rulesets.axis_allies.combat import Battle, make_pieces  # noqa: E402
from pbem.rulesets.axis_allies.odds import battle_odds, simulate  # noqa: E402
from pbem.rulesets.axis_allies import edition

REVISED = edition("aa-revised")
RULES = REVISED.combat


def land(attackers: dict, defenders: dict, aa_gun: str | None = None) -> Battle:
    return Battle("b1", "Ukraine S.S.R.", "land", "germany", make_pieces(RULES, {"germany": attackers}),
                  make_pieces(RULES, {"ussr": defenders}, 1000), aa_gun=aa_gun)


BATTLES = {  # name: (battle, target in ms or None)
    "10v10 mixed land, AA gun": (land({"infantry": 4, "artillery": 2, "tank": 2, "fighter": 1, "bomber": 1},
                                      {"infantry": 6, "artillery": 1, "tank": 2, "fighter": 1}, "ussr"), 20),
    "30v30 mixed land+air": (land({"infantry": 12, "artillery": 6, "tank": 6, "fighter": 4, "bomber": 2},
                                  {"infantry": 16, "artillery": 4, "tank": 6, "fighter": 4}), 200),
    "30v30 mixed land+air, AA gun": (land({"infantry": 12, "artillery": 6, "tank": 6, "fighter": 4, "bomber": 2},
                                          {"infantry": 16, "artillery": 4, "tank": 6, "fighter": 4}, "ussr"), None),
    "sea 10 ships + 4 fighters a side": (Battle(
        "b1", "SZ 30", "sea", "japan",
        make_pieces(RULES, {"japan": {"battleship": 2, "carrier": 2, "destroyer": 2, "submarine": 3, "transport": 1,
                               "fighter": 4}}),
        make_pieces(RULES, {"usa": {"battleship": 1, "carrier": 2, "destroyer": 3, "submarine": 2, "transport": 2,
                             "fighter": 4}}, 1000)), 500),
}


def best_of(runs: int, work) -> float:
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def runs_for_one_point(p: float) -> int:
    """Simulated battles needed for 95% of estimates of ``p`` to fall within ±1 percentage point."""
    return math.ceil(1.96 ** 2 * p * (1 - p) / 0.01 ** 2)


def main() -> None:
    coverage = "--coverage" in sys.argv[1:]
    print("exact: best of 5 runs of battle_odds; simulation: one timed run of simulate (what `pbem odds "
          "--simulate N` does) with the N that puts 95% of estimates within ±1 point of the exact P(att)")
    print(f"{'battle':34} {'exact ms':>9} {'target':>6}     P(att)  {'N':>6}  {'sim s':>6}  sim P(att)  x faster")
    for name, (battle, target) in BATTLES.items():
        p = battle_odds(battle).attacker_wins
        seconds = best_of(5, lambda battle=battle: battle_odds(battle))
        runs = runs_for_one_point(p)
        start = time.perf_counter()
        estimate = simulate(battle, n=runs, seed=1).attacker_wins
        sim_seconds = time.perf_counter() - start
        verdict = "" if target is None else ("ok" if seconds * 1000 < target else "MISSED")
        print(f"{name:34} {seconds * 1000:9.1f} {'' if target is None else target:>6} {verdict:>3} {p:7.4f}"
              f"  {runs:6d}  {sim_seconds:6.2f}  {estimate:10.4f}  {sim_seconds / seconds:8.0f}")
    if coverage:  # slow (about 100 s): does the N above really give ±1 point 95% of the time?
        battle = BATTLES["10v10 mixed land, AA gun"][0]
        p = battle_odds(battle).attacker_wins
        runs = runs_for_one_point(p)
        misses = sum(abs(simulate(battle, n=runs, seed=s).attacker_wins - p) > 0.01 for s in range(10))
        print(f"10v10: {misses} of 10 simulations of {runs} runs missed the exact P(att) by more than 1 point")


if __name__ == "__main__":
    main()
