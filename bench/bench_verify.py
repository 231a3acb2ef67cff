#!/usr/bin/env python3
"""Time `pbem verify` (facts only: states, event logs, dice, seeds, digests) on a long game.

Issue 8's target: a 100-turn game verifies its facts in seconds. The game is built here
(bench/long_game.py): rounds in which every power buys as much infantry as its capital can take
and places it there, so each turn reads, checks and resolves real orders on a growing board. Run
from the repository root::

    python bench/bench_verify.py [--turns 100] [--runs 3]

With `--root OLD_CHECKOUT` it compares instead (issue 27), each checkout on a still game of --turns
(default then 300) built by its own code, in which every power passes so the board never grows:
(c) `verify_game` in-process, after a first verification has paid the imports (target: at least
3x faster), and (d) its cost per turn over the last 50 turns against the first 50, from the time
between the turns it reports (target: at most 1.3x). --games keeps the built games and reuses them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import compare
from long_game import build_game, built_game

PER_TURN = """import json, time
from pathlib import Path
from pbem.core.game import verify_game
marks = []
def verify():
    marks.clear()
    marks.append(time.perf_counter())
    verify_game(Path({game!r}), progress=lambda verified: marks.append(time.perf_counter()))
    return marks[-1] - marks[0]
verify()
print(json.dumps({{"total": verify(), "turns": [b - a for a, b in zip(marks, marks[1:])]}}))
"""


def verification(games: dict[Path, Path], per_turn: dict[Path, list[float]]):
    """A measurement: verifying the checkout's own game; each run's ratio of the last 50 turns' cost
    over the first 50's goes to `per_turn`."""
    def measure(root: Path) -> float:
        done = subprocess.run([sys.executable, "-c", PER_TURN.format(game=str(games[root]))], cwd=root,
                              env=compare.environment(root), capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"verifying failed in {root}:\n{done.stderr}")
        found = json.loads(done.stdout.strip().splitlines()[-1])
        turns = found["turns"][1:]  # the first also checks the opening state
        per_turn.setdefault(root, []).append(sum(turns[-50:]) / sum(turns[:50]))
        return found["total"]
    return measure


def compared(args: argparse.Namespace) -> None:
    turns = args.turns or 300
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as scratch:
        where = args.games or Path(scratch)
        where.mkdir(parents=True, exist_ok=True)
        games = {root: built_game(root, where, turns) for root in [compare.HERE, args.root]}
        print(f"a still {turns}-turn Revised game; medians of {args.runs} runs each, taken in turn")
        per_turn: dict[Path, list[float]] = {}
        figure = compare.compare(f"(c) verify, {turns} turns", verification(games, per_turn), args.root, args.runs)
        print(f"(d) cost per turn, last 50 over first 50: {statistics.median(per_turn[compare.HERE]):.2f}x "
              f"(was {statistics.median(per_turn[args.root]):.2f}x); target at most 1.3x")
        compare.save([figure], args.json)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=None, help="default 100, with --root 300")
    parser.add_argument("--games", type=Path, default=None, help="with --root: keep the built games here")
    compare.add_root_option(parser)
    parser.set_defaults(runs=3)
    args = parser.parse_args()
    if args.root:
        return compared(args)
    from pbem.core.game import verify_game
    turns = args.turns or 100
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "game"
        started = time.perf_counter()
        build_game(folder, turns)
        print(f"built a {turns}-turn game in {time.perf_counter() - started:.1f} s")
        best = float("inf")
        for _ in range(args.runs):
            started = time.perf_counter()
            done = verify_game(folder)
            best = min(best, time.perf_counter() - started)
        assert len(done) == turns
        print(f"verify, facts only: {best:.2f} s for {turns} turns ({best / turns * 1000:.0f} ms a turn), "
              f"best of {args.runs}")


if __name__ == "__main__":
    main()
