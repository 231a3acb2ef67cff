#!/usr/bin/env python3
"""Time checking a large orders file (`check_orders`): 1,000 and 9,000 one-unit noncombat moves.

Issue 8: a 9,000-move orders file took almost four minutes to validate. Each move sends one of
Germany's infantry (the position holds as many as there are moves) to Western Europe. Prints the
best of several runs after one warm-up. Run from the repository root::

    python bench/bench_validate.py [--runs 3] [--moves 1000 9000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as a plain script from a checkout

from pbem.core.yamlio import dump_yaml, parse_document  # noqa: E402
from pbem.rulesets import get_ruleset  # noqa: E402


def position(moves: int) -> dict:
    """The opening setup, Germany to move, with `moves` infantry in Germany."""
    state = get_ruleset("aa-revised").opening_state("bench", {})
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    state["next_power"] = "germany"
    state["units"]["Germany"]["germany"]["infantry"] = moves
    return state


def orders_text(moves: int) -> str:
    """Germany's orders: `moves` noncombat moves of one infantry each."""
    move = {"units": {"infantry": 1}, "from": "Germany", "path": ["Western Europe"]}
    return dump_yaml({"power": "germany", "noncombat_move": [move] * moves})


def best_check(moves: int, runs: int) -> float:
    """The best wall time of `check_orders` on `moves` moves (after one warm-up); the orders must pass."""
    ruleset = get_ruleset("aa-revised")
    state, text = position(moves), orders_text(moves)
    times = []
    for _ in range(runs + 1):
        doc = parse_document(text, "orders.yaml")
        start = time.perf_counter()
        problems = ruleset.check_orders(state, doc, {})
        times.append(time.perf_counter() - start)
        if problems:
            raise SystemExit(f"the benchmark's orders were refused: {problems[0]}")
    return min(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, nargs="+", default=[1000, 9000])
    args = parser.parse_args()
    for moves in args.moves:
        print(f"check_orders, {moves:>5} moves: {best_check(moves, args.runs):8.3f} s")


if __name__ == "__main__":
    main()
