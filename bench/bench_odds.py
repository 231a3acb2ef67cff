"""Benchmarks of the exact odds (issues 4 and 13).

Run from the repository root: ``python bench/bench_odds.py``. It prints, for a series of land and
sea battles from 10 to 200 units a side, the best in-process time of ``battle_odds`` and the time
of a whole ``pbem odds`` process on the same battle, against the figure issue 13 asks for.

``--root DIR`` times the pbem of another checkout instead (for instance a worktree of the commit
before issue 13, to set the old engine's figures beside the new ones); ``--give-up S`` skips the
larger battles of a series once one takes longer than S seconds (default 60). ``--simulation``
prints instead how many simulated battles (``pbem odds --simulate N``) it takes to come within
±1 percentage point of the exact P(attacker wins) 95% of the time; ``--coverage`` checks that
claim on ten seeds of a 10 against 10 battle (about 100 s).

``--compare --root OLD`` compares this checkout with the older one OLD instead (issue 27, through
bench/compare.py: medians of ``--runs`` runs taken in turn, and the ratio old/new): (a) ``pbem odds``
12 against 12 (the land series at 12) as a whole process; (b) the mixed 120 against 120 of issue 27
(50 infantry, 20 artillery, 30 tanks, 20 fighters against 70 infantry, 20 artillery, 10 tanks, 20
fighters) in-process, with the other core idle and then kept busy by a CPU-bound process, with each
checkout's busy/idle, in wall time and in the CPU time of all the process's threads (on a machine
that runs more than the benchmark, wall time also counts the cores shared with it). Targets: (a)
at least 2x; (b) this checkout's busy within 1.5x of its idle.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "bench"))

import compare  # noqa: E402

# Mixes per 12 units: land battles are infantry, artillery and tanks (the "mixed land units" of
# issue 13), a second series adds fighters and an AA gun; sea battles hold every kind of ship.
LAND = {"infantry": 6, "artillery": 3, "tank": 3}
DEFENCE = {"infantry": 8, "artillery": 2, "tank": 2}
AIR_ATTACK = {"infantry": 5, "artillery": 2, "tank": 3, "fighter": 2}
AIR_DEFENCE = {"infantry": 7, "artillery": 2, "tank": 1, "fighter": 2}
SEA_ATTACK = {"submarine": 3, "destroyer": 3, "carrier": 1, "battleship": 1, "transport": 1, "fighter": 3}
SEA_DEFENCE = {"submarine": 2, "destroyer": 3, "carrier": 2, "battleship": 1, "transport": 1, "fighter": 3}

SERIES = {  # name: (attacker mix, defender mix, sea, AA gun, sizes, {size: in-process target in s})
    "land": (LAND, DEFENCE, False, False, (10, 20, 40, 60, 80, 120, 160, 200), {10: 0.01, 120: 0.3, 200: 1.0}),
    "land + air, AA gun": (AIR_ATTACK, AIR_DEFENCE, False, True, (10, 20, 40, 60, 80, 120), {10: 0.01}),
    "sea": (SEA_ATTACK, SEA_DEFENCE, True, False, (10, 20, 30, 40, 60, 80), {10: 0.01, 60: 0.5}),
}
PROCESS_TARGET = {("land", 120): 0.8}


def scaled(mix: dict[str, int], n: int) -> dict[str, int]:
    """``mix`` (per 12 units) scaled to ``n`` units, rounded by largest remainders (the first
    types win ties), so that a small battle still holds every kind it can."""
    counts = {unit: k * n // 12 for unit, k in mix.items()}
    by_remainder = sorted(mix, key=lambda unit: -(mix[unit] * n % 12))
    for unit in by_remainder[:n - sum(counts.values())]:
        counts[unit] += 1
    return {unit: k for unit, k in counts.items() if k}


def listed(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {unit}" for unit, k in counts.items())


def best_of(runs: int, work) -> float:
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


class Engine:
    """pbem's odds from a checkout: in-process calls and whole `pbem odds` processes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        sys.path.insert(0, str(root))
        self.combat_battle = importlib.import_module("pbem.rulesets.axis_allies.combat.battle")
        self.odds = importlib.import_module("pbem.rulesets.axis_allies.odds")
        self.rules = importlib.import_module("pbem.rulesets.axis_allies").edition("aa-revised").combat

    def battle(self, attackers: dict, defenders: dict, sea: bool, aa_gun: bool):
        make = self.combat_battle.make_pieces
        return self.combat_battle.Battle("b1", "SZ 5" if sea else "Karelia S.S.R.", "sea" if sea else "land", "germany",
                                         make(self.rules, {"germany": attackers}),
                                         make(self.rules, {"ussr": defenders}, 10_000),
                                         aa_gun="ussr" if aa_gun else None, rules=self.rules)

    def process(self, attackers: dict, defenders: dict, sea: bool, aa_gun: bool) -> float:
        command = [sys.executable, "-m", "pbem.cli", "odds", "--attacker", listed(attackers),
                   "--defender", listed(defenders), "--defender-power", "ussr"]
        command += ["--sea"] * sea + ["--aa"] * aa_gun
        env = dict(os.environ, PYTHONPATH=str(self.root))
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=self.root, check=True, capture_output=True)  # -m looks in cwd first
        return time.perf_counter() - start


def series(engine: Engine, give_up: float) -> None:
    print(f"pbem from {engine.root}; in-process: best of 3 runs of battle_odds (one past 5 s); "
          "process: one `pbem odds` run")
    print(f"{'series':20} {'units a side':>12} {'in-process s':>13} {'target':>7} {'process s':>10} "
          f"{'target':>7}  P(attacker wins)")
    for name, (attack, defence, sea, aa_gun, sizes, targets) in SERIES.items():
        for n in sizes:
            attackers, defenders = scaled(attack, n), scaled(defence, n)
            battle = engine.battle(attackers, defenders, sea, aa_gun)
            start = time.perf_counter()
            odds = engine.odds.battle_odds(battle)
            first = time.perf_counter() - start
            seconds = first if first > 5 else min(first, best_of(2, lambda: engine.odds.battle_odds(battle)))
            process = engine.process(attackers, defenders, sea, aa_gun)
            target, process_target = targets.get(n), PROCESS_TARGET.get((name, n))

            def verdict(value: float, goal: float | None) -> str:
                return "" if goal is None else f"<{goal:g} {'ok' if value < goal else 'MISSED'}"
            print(f"{name:20} {n:12d} {seconds:13.3f} {verdict(seconds, target):>7} {process:10.2f} "
                  f"{verdict(process, process_target):>7}  {odds.attacker_wins:.9f}", flush=True)
            if seconds > give_up:
                print(f"{name:20} {'(larger battles skipped: over the --give-up bound)':>40}")
                break


def runs_for_one_point(p: float) -> int:
    """Simulated battles needed for 95% of estimates of ``p`` to fall within ±1 percentage point."""
    return math.ceil(1.96 ** 2 * p * (1 - p) / 0.01 ** 2)


def simulation(engine: Engine, coverage: bool) -> None:
    print("exact: best of 5 runs of battle_odds; simulation: one timed run of simulate with the N that puts "
          "95% of estimates within ±1 point of the exact P(att)")
    print(f"{'battle':22} {'exact ms':>9}   P(att)  {'N':>6}  {'sim s':>6}  sim P(att)  x faster")
    for n, sea in ((10, False), (30, False), (10, True)):
        attack, defence = (SEA_ATTACK, SEA_DEFENCE) if sea else (AIR_ATTACK, AIR_DEFENCE)
        battle = engine.battle(scaled(attack, n), scaled(defence, n), sea, not sea)
        p = engine.odds.battle_odds(battle).attacker_wins
        seconds = best_of(5, lambda battle=battle: engine.odds.battle_odds(battle))
        runs = runs_for_one_point(p)
        start = time.perf_counter()
        estimate = engine.odds.simulate(battle, n=runs, seed=1).attacker_wins
        sim_seconds = time.perf_counter() - start
        name = f"{n}v{n} {'sea' if sea else 'land, AA gun'}"
        print(f"{name:22} {seconds * 1000:9.1f} {p:7.4f}  {runs:6d}  {sim_seconds:6.2f}  {estimate:10.4f}"
              f"  {sim_seconds / seconds:8.0f}")
    if coverage:
        battle = engine.battle(scaled(AIR_ATTACK, 10), scaled(AIR_DEFENCE, 10), False, True)
        p = engine.odds.battle_odds(battle).attacker_wins
        runs = runs_for_one_point(p)
        misses = sum(abs(engine.odds.simulate(battle, n=runs, seed=s).attacker_wins - p) > 0.01 for s in range(10))
        print(f"10v10: {misses} of 10 simulations of {runs} runs missed the exact P(att) by more than 1 point")


MIXED_ATTACK = {"infantry": 50, "artillery": 20, "tank": 30, "fighter": 20}
MIXED_DEFENCE = {"infantry": 70, "artillery": 20, "tank": 10, "fighter": 20}


def in_process_odds(attackers: dict[str, int], defenders: dict[str, int], clock: str = "perf_counter"):
    """A measurement: ``battle_odds`` of a land battle in a fresh interpreter, through the functions
    every checkout since issue 13 has."""
    setup = ("from pbem.rulesets.axis_allies.edition import edition\n"
             "from pbem.rulesets.axis_allies.combat.battle import Battle, make_pieces\n"
             "from pbem.rulesets.axis_allies.odds import battle_odds\n"
             "rules = edition('aa-revised').combat\n"
             "battle = Battle('b1', 'Karelia S.S.R.', 'land', 'germany', "
             f"make_pieces(rules, {{'germany': {attackers!r}}}), "
             f"make_pieces(rules, {{'ussr': {defenders!r}}}, 10_000), rules=rules)")
    return compare.in_process("battle_odds(battle)", setup, clock)


def busy_core():
    """A CPU-bound process keeping another core busy (a mail server's other game); kill it after."""
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


def compared(old: Path, runs: int, json_path: Path | None) -> None:
    print(f"this checkout {HERE} against {old}: medians of {runs} runs each, taken in turn")
    small = ["odds", "--attacker", listed(scaled(LAND, 12)), "--defender", listed(scaled(DEFENCE, 12)),
             "--defender-power", "ussr"]
    figures = [compare.compare("(a) `pbem odds` 12 against 12, whole process", compare.process(small), old, runs)]
    for clock, what in (("perf_counter", "wall"), ("process_time", "CPU of all threads")):
        mixed = in_process_odds(MIXED_ATTACK, MIXED_DEFENCE, clock)
        idle = compare.compare(f"(b) mixed 120 against 120 in-process, {what}, other core idle", mixed, old, runs)
        spinner = busy_core()
        try:
            busy = compare.compare(f"(b) mixed 120 against 120 in-process, {what}, other core busy", mixed, old, runs)
        finally:
            spinner.kill()
            spinner.wait()
        for name, side in (("this checkout", "new"), ("old checkout", "old")):
            ratio = statistics.median(getattr(busy, side)) / statistics.median(getattr(idle, side))
            print(f"(b) {name}, {what}: busy/idle {ratio:.2f}x{' (target <= 1.5x)' if side == 'new' else ''}")
        figures += [idle, busy]
    compare.save(figures, json_path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose pbem is timed")
    parser.add_argument("--give-up", type=float, default=60.0, help="skip larger battles past this many seconds")
    parser.add_argument("--simulation", action="store_true", help="exact odds against simulation instead")
    parser.add_argument("--coverage", action="store_true", help="with --simulation: check the ±1 point claim")
    parser.add_argument("--compare", action="store_true",
                        help="compare this checkout with the older one --root (issue 27's figures)")
    parser.add_argument("--runs", type=int, default=5, help="with --compare: runs of each side (the median is shown)")
    parser.add_argument("--json", type=Path, default=None, help="with --compare: also write every run's seconds here")
    args = parser.parse_args()
    if args.compare:
        if args.root.resolve() == HERE:
            parser.error("--compare needs --root: the older checkout to compare with")
        compared(args.root.resolve(), args.runs, args.json)
        return
    engine = Engine(args.root.resolve())
    if args.simulation:
        simulation(engine, args.coverage)
    else:
        series(engine, args.give_up)


if __name__ == "__main__":
    main()
