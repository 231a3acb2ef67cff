"""Benchmarks of the exact odds calculator (issue 4), and what simulation needs to match it.

Run from the repository root: ``python bench/bench_odds.py``. Times are the best of several runs.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a plain script from a checkout

from pbem.rulesets.aa_revised.combat import Battle, make_pieces  # noqa: E402
from pbem.rulesets.aa_revised.odds import battle_odds, simulate  # noqa: E402


def land(attackers: dict, defenders: dict, aa_gun: str | None = None) -> Battle:
    return Battle("b1", "Ukraine S.S.R.", "land", "germany", make_pieces({"germany": attackers}),
                  make_pieces({"ussr": defenders}, 1000), aa_gun=aa_gun)


BATTLES = {  # name: (battle, target in ms or None)
    "10v10 mixed land, AA gun": (land({"infantry": 4, "artillery": 2, "tank": 2, "fighter": 1, "bomber": 1},
                                      {"infantry": 6, "artillery": 1, "tank": 2, "fighter": 1}, "ussr"), 20),
    "30v30 mixed land+air": (land({"infantry": 12, "artillery": 6, "tank": 6, "fighter": 4, "bomber": 2},
                                  {"infantry": 16, "artillery": 4, "tank": 6, "fighter": 4}), 200),
    "30v30 mixed land+air, AA gun": (land({"infantry": 12, "artillery": 6, "tank": 6, "fighter": 4, "bomber": 2},
                                          {"infantry": 16, "artillery": 4, "tank": 6, "fighter": 4}, "ussr"), None),
    "sea 10 ships + 4 fighters a side": (Battle(
        "b1", "SZ 30", "sea", "japan",
        make_pieces({"japan": {"battleship": 2, "carrier": 2, "destroyer": 2, "submarine": 3, "transport": 1,
                               "fighter": 4}}),
        make_pieces({"usa": {"battleship": 1, "carrier": 2, "destroyer": 3, "submarine": 2, "transport": 2,
                             "fighter": 4}}, 1000)), 500),
}


def best_of(runs: int, work) -> float:
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"{'battle':36} {'exact ms':>9} {'target':>7}  P(att)  runs±1pp  sim s/1000  sim time ±1pp")
    for name, (battle, target) in BATTLES.items():
        exact = battle_odds(battle)
        seconds = best_of(5, lambda battle=battle: battle_odds(battle))
        p = exact.attacker_wins
        runs = math.ceil(1.96 ** 2 * p * (1 - p) / 0.01 ** 2)  # 95% of estimates within ±1 point
        per_thousand = best_of(1, lambda battle=battle: simulate(battle, n=1000, seed=1))
        verdict = "" if target is None else ("ok" if seconds * 1000 < target else "MISSED")
        print(f"{name:36} {seconds * 1000:9.1f} {'' if target is None else target:>7} {verdict:>3} {p:6.3f}"
              f" {runs:9d} {per_thousand:10.2f} {per_thousand * runs / 1000:12.1f} s")
    battle = BATTLES["10v10 mixed land, AA gun"][0]
    exact = battle_odds(battle).attacker_wins
    misses = sum(abs(simulate(battle, n=9604, seed=s).attacker_wins - exact) > 0.01 for s in range(10))
    print(f"10v10: {misses} of 10 simulations of 9604 runs missed the exact P(att) by more than 1 point")


if __name__ == "__main__":
    main()
