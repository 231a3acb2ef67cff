#!/usr/bin/env python3
"""Time the map image: the full board in the opening position, with a few moves (one of them
flown back), a battle, a bombing raid and placements.

Prints the best of several runs (seconds) for the full map at scale 1 and 1.4 and for each
theatre. Budget: a turn's report, its charts and its map together, within 0.5 s more than without
them. Run from the repository root::

    python bench/bench_map.py [--runs 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from pbem.rulesets.axis_allies.reports.map_image import draw_map  # noqa: E402
from pbem.render.palette import palette_image  # noqa: E402
from pbem.rulesets.axis_allies.edition import edition  # noqa: E402
from pbem.rulesets.axis_allies.ruleset import AxisAllies  # noqa: E402

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
    {"type": "bombing", "space": "Russia", "power": "germany", "victim": "ussr", "bombers": 1,
     "dice": [5], "damage": 5, "paid": 5},
    {"type": "move", "phase": "noncombat", "power": "germany", "units": {"fighter": 1},
     "from": "Caucasus", "path": ["West Russia", "Belorussia", "Eastern Europe"], "to": "Eastern Europe"},
    {"type": "place", "power": "germany", "space": "Germany", "units": {"infantry": 3, "tank": 1}},
]


def best_of(runs: int, state: dict[str, Any], board: dict[str, Any], graphics: dict[str, Any],
            theatre: str | None, scale: float) -> tuple[float, int]:
    """Best wall time over ``runs`` drawings made into a 256-colour PNG, as the reports' map.png
    is, and the PNG's size in bytes."""
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        pixels, _ = draw_map(state, board, graphics, EVENTS, theatre=theatre, scale=scale,
                             title="Benchmark — round 1, after Germany's turn")
        png = palette_image(pixels, 256)
        times.append(time.perf_counter() - start)
        size = len(png)
    return min(times), size


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    revised = AxisAllies(edition("aa-revised"))
    board, graphics = revised.map_data()
    state = revised.opening_state("Benchmark", {})
    views = [(None, 1.0), (None, 1.4), *((theatre, 1.0) for theatre in sorted(graphics["style"]["theatres"]))]
    for theatre, scale in views:
        seconds, size = best_of(args.runs, state, board, graphics, theatre, scale)
        print(f"map {theatre or 'full':8s} scale {scale:.1f} best of {args.runs}: {seconds:.3f} s "
              f"({size / 1024:.0f} KiB PNG)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
