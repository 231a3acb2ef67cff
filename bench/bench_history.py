#!/usr/bin/env python3
"""Time reading a game's history, and adjudicating a late turn against an early one (issue 27).

Builds, with each checkout's own code (the ledger it writes differs), a Revised game of --turns turns
in which every power passes, so that the board never grows (bench/long_game.py), and prints

(a) reading the history at the last turn: `game_history` for that turn's inputs, as a turn's reports
    read it in a new process (nothing cached from an earlier turn); target at least 50x faster;
(b) adjudicating the last turn and turn 10 in-process, resolution and every report (the map
    included), after a first turn has paid the imports, and for each checkout the ratio of the
    two; target: the last turn costs at most 1.2x turn 10.

Medians of --runs runs of each side, taken in turn (bench/compare.py). Run from the repository root::

    python bench/bench_history.py --root /work/base27 [--turns 300] [--runs 3] [--games DIR]

--games keeps the built games in DIR (one folder per checkout and length) and reuses them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import compare
from long_game import built_game, turn_file

SETUP = """from pathlib import Path
from pbem.core.history import _summary_of, game_history
from pbem.core.turn import load_turn, resolve_turn
from pbem.render import render_turn
inputs = load_turn(Path({turn!r}))
after = resolve_turn(inputs).state"""

# the cache of earlier states' summaries is emptied, as a new `pbem adjudicate` process finds it
HISTORY = "_summary_of.cache_clear()\ngame_history(inputs, after)"
ADJUDICATION = "_summary_of.cache_clear()\nresolve_turn(inputs, render_turn)"


def measure_at(games: dict[Path, Path], number: int, code: str):
    """A measurement: `code` on game turn `number` of the checkout's own game."""
    def measure(root: Path) -> float:
        return compare.in_process(code, SETUP.format(turn=str(turn_file(games[root], number))))(root)
    return measure


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--games", type=Path, default=None, help="keep the built games here and reuse them")
    compare.add_root_option(parser)
    parser.set_defaults(runs=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-history-") as scratch:
        where = args.games or Path(scratch)
        where.mkdir(parents=True, exist_ok=True)
        roots = [compare.HERE] + ([args.root] if args.root else [])
        games = {root: built_game(root, where, args.turns) for root in roots}
        print(f"a still {args.turns}-turn Revised game; medians of {args.runs} runs each, taken in turn")
        last = args.turns
        figures = [compare.compare(f"(a) reading the history at turn {last}", measure_at(games, last, HISTORY),
                                   args.root, args.runs),
                   compare.compare(f"(b) adjudicating turn {last}, every report", measure_at(games, last, ADJUDICATION),
                                   args.root, args.runs),
                   compare.compare("(b) adjudicating turn 10, every report", measure_at(games, 10, ADJUDICATION),
                                   args.root, args.runs)]
        late, early = figures[1], figures[2]
        print(f"(b) turn {last} over turn 10: {statistics.median(late.new) / statistics.median(early.new):.2f}x"
              + (f" (was {statistics.median(late.old) / statistics.median(early.old):.2f}x)" if late.old else "")
              + "; target at most 1.2x")
        compare.save(figures, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
