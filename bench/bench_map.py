#!/usr/bin/env python3
"""Time the map image: the full board in the opening position, with a few moves and a battle.

Prints the best of several runs (seconds) for the full map and each theatre. Target: the full map
in under 2 s. Run from the repository root::

    python bench/bench_map.py [--runs 5]
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pbem.render.mapimage import THEATRES, render_map  # noqa: E402

DATA = REPO / "pbem" / "rulesets" / "axis_allies" / "editions" / "revised"

EVENTS: list[dict[str, Any]] = [
    {"type": "move", "phase": "combat", "power": "germany", "units": {"tank": 1},
     "from": "Ukraine S.S.R.", "path": ["Caucasus"], "to": "Caucasus"},
    {"type": "move", "phase": "combat", "power": "germany", "units": {"fighter": 1},
     "from": "Eastern Europe", "path": ["Belorussia", "West Russia", "Caucasus"],
     "to": "Caucasus"},
    {"type": "move", "phase": "noncombat", "power": "germany", "units": {"infantry": 2},
     "from": "Germany", "path": ["Western Europe"], "to": "Western Europe"},
    {"type": "battle_start", "battle": "b1", "space": "Caucasus", "kind": "land",
     "attacker": "germany", "attackers": {}, "defenders": {}},
    {"type": "battle_end", "battle": "b1", "space": "Caucasus", "rounds": 2,
     "winner": "defender", "attackers_left": {}, "defenders_left": {}, "captured": False},
]


def best_of(runs: int, state: dict[str, Any], board: dict[str, Any], graphics: dict[str, Any],
            theatre: str | None) -> tuple[float, int]:
    """Best wall time over ``runs`` renders, and the PNG's size in bytes."""
    times, size = [], 0
    for _ in range(runs):
        buffer = io.BytesIO()
        start = time.perf_counter()
        render_map(state, board, graphics, EVENTS, buffer, theatre=theatre,
                   title="Benchmark — round 1, after Germany's turn")
        times.append(time.perf_counter() - start)
        size = len(buffer.getvalue())
    return min(times), size


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    board = yaml.safe_load((DATA / "board.yaml").read_text(encoding="utf-8"))
    setup = yaml.safe_load((DATA / "setup.yaml").read_text(encoding="utf-8"))
    graphics = json.loads((DATA / "graphics.json").read_text(encoding="utf-8"))
    state = copy.deepcopy(setup)
    for theatre in [None, *sorted(THEATRES)]:
        seconds, size = best_of(args.runs, state, board, graphics, theatre)
        print(f"map {theatre or 'full':8s} best of {args.runs}: {seconds:.3f} s "
              f"({size / 1024:.0f} KiB PNG)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
