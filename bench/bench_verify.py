#!/usr/bin/env python3
"""Time `pbem verify` (facts only: states, event logs, dice, seeds, digests) on a long game.

Issue 8's target: a 100-turn game verifies its facts in seconds. The game is built here: 20 rounds
in which every power buys as much infantry as its capital can take and places it there, so each
turn reads, checks and resolves real orders on a growing board. Building it writes each turn's
outputs without drawing (verify never draws; the reports are written as empty files, which is all
verify asks of them without --reports). Run from the repository root::

    python bench/bench_verify.py [--turns 100] [--runs 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from pbem.core.folder import REPORTS, START_STATE, TURNS_DIR
from pbem.core.chain import seed_for_turn
from pbem.core.game import ledger_entry, new_game, record_turn, verify_game
from pbem.core.turn import load_turn, resolve_turn, write_outputs
from pbem.core.yamlio import dump_yaml, load_document

CAPITALS = {"ussr": ("Russia", 8), "germany": ("Germany", 10), "uk": ("United Kingdom", 8),
            "japan": ("Japan", 8), "usa": ("Eastern United States", 12)}


def build_game(folder: Path, turns: int) -> None:
    """A game of `turns` turns in which every power buys and places infantry at its capital."""
    new_game("aa-revised", folder, "Bench", {})
    (folder / "orders").mkdir()
    # every power's standing orders are named in every turn: the defaults pbem new lays out
    state_path = folder / START_STATE
    for number in range(1, turns + 1):
        state = load_document(state_path).data
        power = state["next_power"]
        capital, limit = CAPITALS[power]
        bought = min(state["treasury"][power] // 3, limit)
        orders = {"power": power, "round": state["round"]}
        if bought:
            orders |= {"purchase": {"infantry": bought}, "place": [{"at": capital, "units": {"infantry": bought}}]}
        name = f"{number:03d}-{power}"
        (folder / "orders" / f"{name}.yaml").write_text(dump_yaml(orders), encoding="utf-8")
        turn_file = folder / TURNS_DIR / f"{name}.yaml"
        turn_file.write_text(dump_yaml({
            "ruleset": "aa-revised", "state": "../" + state_path.relative_to(folder).as_posix(),
            "orders": f"../orders/{name}.yaml",
            "standing_orders": {p: f"../standing/{p}.yaml" for p in CAPITALS if p != power}, "seed": seed_for_turn(folder, number), "output": f"../{name}"}),
            encoding="utf-8")
        inputs = load_turn(turn_file)
        result = resolve_turn(inputs)
        write_outputs(inputs, {**result.files, **{report: b"" for report in REPORTS}})
        record_turn(folder, ledger_entry(folder, turn_file, inputs, result))
        state_path = folder / name / "state.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "game"
        started = time.perf_counter()
        build_game(folder, args.turns)
        print(f"built a {args.turns}-turn game in {time.perf_counter() - started:.1f} s")
        best = float("inf")
        for _ in range(args.runs):
            started = time.perf_counter()
            done = verify_game(folder)
            best = min(best, time.perf_counter() - started)
        assert len(done) == args.turns
        print(f"verify, facts only: {best:.2f} s for {args.turns} turns ({best / args.turns * 1000:.0f} ms a turn), "
              f"best of {args.runs}")


if __name__ == "__main__":
    main()
