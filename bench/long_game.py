#!/usr/bin/env python3
"""A long Axis & Allies Revised game built for the history and verify benchmarks.

Each turn's outputs are written without drawing (the reports as empty files, which is all `pbem
verify` asks of them without --reports) and entered in the ledger, through functions every checkout
since issue 8 has, so that the same builder makes the game with an older checkout's code: run it as

    PYTHONPATH=CHECKOUT python bench/long_game.py FOLDER TURNS [--still]

In a growing game every power buys as much infantry as its capital can take and places it there;
in a `--still` one every power passes, so the board never grows (only the treasuries do).
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

import compare

CAPITALS = {"ussr": ("Russia", 8), "germany": ("Germany", 10), "uk": ("United Kingdom", 8),
            "japan": ("Japan", 8), "usa": ("Eastern United States", 12)}


def turn_name(number: int, power: str) -> str:
    """The turn file's name (without .yaml) and output folder of game turn `number`."""
    return f"{number:03d}-{power}"


def build_game(folder: Path, turns: int, grow: bool = True) -> None:
    """A game of `turns` turns; every power buys and places infantry at its capital when `grow`."""
    from pbem.core.chain import seed_for_turn  # the checkout on the import path: see built_game
    from pbem.core.folder import REPORTS, START_STATE, TURNS_DIR
    from pbem.core.game import ledger_entry, new_game, record_turn
    from pbem.core.turn import load_turn, resolve_turn, write_outputs
    from pbem.core.yamlio import dump_yaml, load_document
    new_game("aa-revised", folder, "Bench", {})
    (folder / "orders").mkdir()
    # every power's standing orders are named in every turn: the defaults pbem new lays out
    state_path = folder / START_STATE
    for number in range(1, turns + 1):
        state = load_document(state_path).data
        power = state["next_power"]
        capital, limit = CAPITALS[power]
        bought = min(state["treasury"][power] // 3, limit) if grow else 0
        orders = {"power": power, "round": state["round"]}
        if bought:
            orders |= {"purchase": {"infantry": bought}, "place": [{"at": capital, "units": {"infantry": bought}}]}
        name = turn_name(number, power)
        (folder / "orders" / f"{name}.yaml").write_text(dump_yaml(orders), encoding="utf-8")
        turn_file = folder / TURNS_DIR / f"{name}.yaml"
        turn_file.write_text(dump_yaml({
            "ruleset": "aa-revised", "state": "../" + state_path.relative_to(folder).as_posix(),
            "orders": f"../orders/{name}.yaml",
            "standing_orders": {p: f"../standing/{p}.yaml" for p in CAPITALS if p != power},
            "seed": seed_for_turn(folder, number), "output": f"../{name}"}), encoding="utf-8")
        inputs = load_turn(turn_file)
        result = resolve_turn(inputs)
        write_outputs(inputs, {**result.files, **{report: b"" for report in REPORTS}})
        record_turn(folder, ledger_entry(folder, turn_file, inputs, result))
        state_path = folder / name / "state.yaml"


def built_game(root: Path, games: Path, turns: int) -> Path:
    """A still game of `turns` turns built by `root`'s code in `games` (kept there: built once)."""
    label = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:8]
    folder = games / f"still-{turns}-{label}"
    if not (folder / "ledger.jsonl").exists():
        print(f"building a still {turns}-turn game with {root}'s code...", flush=True)
        done = subprocess.run([sys.executable, __file__, str(folder), str(turns), "--still"],
                              env=compare.environment(root), capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"building the game failed in {root}:\n{done.stderr}")
    return folder


def turn_file(game: Path, number: int) -> Path:
    """The turn file of game turn `number`."""
    (path,) = (game / "turns").glob(f"{number:03d}-*.yaml")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a new game folder")
    parser.add_argument("turns", type=int)
    parser.add_argument("--still", action="store_true", help="every power passes: a board that does not grow")
    args = parser.parse_args()
    build_game(args.folder, args.turns, grow=not args.still)


if __name__ == "__main__":
    main()
