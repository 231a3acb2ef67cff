#!/usr/bin/env python3
"""Time checking a large orders file (`check_orders`): 1,000 and 9,000 one-unit noncombat moves.

Issue 8: a 9,000-move orders file took almost four minutes to validate. Each move sends one of
Germany's infantry (the position holds as many as there are moves) to Western Europe. With
`--mixed`, every other move is a fighter's instead (aircraft are ranked by each move's range, and
landing moves come after the others); with `--refused`, the position holds a tenth as many
infantry, so most moves are refused as a hostile mailbox might send them. Prints the best of several
runs after one warm-up. Run from the repository root::

    python bench/bench_validate.py [--runs 3] [--moves 1000 9000] [--mixed | --refused]
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


def position(units: dict[str, int]) -> dict:
    """The opening setup, Germany to move, with these numbers of units of Germany's in Germany."""
    state = get_ruleset("aa-revised").opening_state("bench", {})
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    state["next_power"] = "germany"
    state["units"]["Germany"]["germany"].update(units)
    return state


def orders_text(types: list[str]) -> str:
    """Germany's orders: one noncombat move to Western Europe of one unit of each type listed."""
    return dump_yaml({"power": "germany", "noncombat_move": [
        {"units": {t: 1}, "from": "Germany", "path": ["Western Europe"]} for t in types]})


def workload(moves: int, kind: str) -> tuple[dict, str, bool]:
    """The position, the orders' text and whether they pass, for `moves` moves of this kind."""
    if kind == "mixed":
        types = ["infantry", "fighter"] * (moves // 2)
        return position({"infantry": moves // 2, "fighter": moves // 2}), orders_text(types), True
    if kind == "refused":
        return position({"infantry": moves // 10}), orders_text(["infantry"] * moves), False
    return position({"infantry": moves}), orders_text(["infantry"] * moves), True


def best_check(moves: int, runs: int, kind: str) -> float:
    """The best wall time of `check_orders` on `moves` moves (after one warm-up); the orders must pass
    or be refused as the kind of workload says."""
    ruleset = get_ruleset("aa-revised")
    state, text, valid = workload(moves, kind)
    times = []
    for _ in range(runs + 1):
        doc = parse_document(text, "orders.yaml")
        start = time.perf_counter()
        problems = ruleset.check_orders(state, doc, {})
        times.append(time.perf_counter() - start)
        if valid and problems:
            raise SystemExit(f"the benchmark's orders were refused: {problems[0]}")
        if not valid and not problems:
            raise SystemExit("the benchmark's orders should have been refused")
    return min(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, nargs="+", default=[1000, 9000])
    kinds = parser.add_mutually_exclusive_group()
    kinds.add_argument("--mixed", dest="kind", action="store_const", const="mixed")
    kinds.add_argument("--refused", dest="kind", action="store_const", const="refused")
    args = parser.parse_args()
    kind = args.kind or "infantry"
    for moves in args.moves:
        print(f"check_orders, {moves:>5} moves ({kind}): {best_check(moves, args.runs, kind):8.3f} s")


if __name__ == "__main__":
    main()
