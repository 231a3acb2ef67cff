#!/usr/bin/env python3
"""Time adjudicating one turn: resolution alone, with the Markdown report, and everything written.

Issue 2's target: the example German first turn, report included, in under 1 second. Prints the
best of several runs after one warm-up, for

0. loading and checking the turn file and every file it names (`load_turn`);
1. resolution only (`resolve_turn` without reports: the next state and the event log);
2. resolution + the Markdown report (`report_model` + `render_markdown`), for a game with one
   public report only;
3. resolution + every report `pbem adjudicate` writes (Markdown, BBCode, HTML and map.png; in a
   game with hidden cards, the public and every private report);
4. the whole in-process pipeline: load, resolve, render, write the files (to a temporary folder);

and then the whole `pbem adjudicate` command once, as a new process, on a temporary copy of the
game folder (so nothing in examples/ is rewritten). Run from the repository root::

    python bench/bench_turn.py [TURN_FILE] [--runs 5]

With `--root OLD_CHECKOUT` it compares instead (issue 27), on each checkout's own copy of its examples:
the Revised Germany turn and the Undaunted and QMG example turns below, each with every report,
in-process (after one warm-up turn in the same process, as the mail loop plays turns) and as a whole
`pbem adjudicate` process; medians of --runs each, and the ratios.

TURN_FILE defaults to examples/aa-revised/turns/02-germany.yaml; its game folder is taken to be
the folder above the turn file's folder (GAME/turns/TURN.yaml).
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as a plain script from a checkout
sys.path.insert(0, str(REPO / "bench"))

import compare  # noqa: E402

from pbem.core.turn import load_turn, resolve_turn, write_outputs  # noqa: E402
from pbem.render import render_turn  # noqa: E402
from pbem.rulesets.axis_allies.reports.report import render_markdown, report_model  # noqa: E402
from pbem.rulesets import get_ruleset  # noqa: E402

DEFAULT_TURN = REPO / "examples" / "aa-revised" / "turns" / "02-germany.yaml"


def best_of(runs: int, work: Callable[[], Any]) -> tuple[float, Any]:
    """One warm-up call, then the best wall time of `runs` calls, and the last call's result."""
    result = work()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def pbem_command() -> list[str]:
    """The installed console script beside this Python, else `python -m` on the CLI module."""
    script = Path(sys.executable).with_name("pbem")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from pbem.cli import app; app()"]


COMPARED = ("aa-revised/turns/02-germany.yaml", "undaunted-stalingrad/turns/16-011-r5-german.yaml",
            "qmg/turns/19-r4-germany.yaml")


def game_copy(root: Path, turn: str) -> Path:
    """A fresh copy of the example game of `turn` in `root`'s checkout; the path of its turn file."""
    game, inside = turn.split("/", 1)
    copy = Path(tempfile.mkdtemp(prefix="bench-turn-")) / game
    shutil.copytree(root / "examples" / game, copy)
    return copy / inside


def adjudicate_process(turn: str):
    """A measurement: `pbem adjudicate TURN --force` as a new process on a fresh copy of the game."""
    def measure(root: Path) -> float:
        copy = game_copy(root, turn)
        try:
            return compare.process(["adjudicate", str(copy), "--force"])(root)
        finally:
            shutil.rmtree(copy.parent.parent)
    return measure


def adjudicate_in_process(turn: str):
    """A measurement: the same inside one process, after a first turn has paid the imports."""
    def measure(root: Path) -> float:
        copy = game_copy(root, turn)
        try:
            return compare.in_process(
                "play_turn(turn, render_turn, True)",
                "from pathlib import Path\nfrom pbem.core.moderator import play_turn\n"
                f"from pbem.render import render_turn\nturn = Path({str(copy)!r})")(root)
        finally:
            shutil.rmtree(copy.parent.parent)
    return measure


def compared(root: Path, runs: int, json_path: Path | None) -> int:
    print(f"this checkout {REPO} against {root}: medians of {runs} runs each, taken in turn")
    figures = [compare.compare(f"{turn}, in-process after a first turn", adjudicate_in_process(turn), root, runs)
               for turn in COMPARED]
    figures += [compare.compare(f"{turn}, `pbem adjudicate` process", adjudicate_process(turn), root, runs)
                for turn in COMPARED]
    compare.save(figures, json_path)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("turn", nargs="?", type=Path, default=DEFAULT_TURN,
                        help=f"the turn file (default {DEFAULT_TURN.relative_to(REPO)})")
    compare.add_root_option(parser)
    args = parser.parse_args(argv)
    if args.root:
        return compared(args.root, args.runs, args.json)
    turn: Path = args.turn.resolve()
    if not turn.is_file():
        print(f"error: the turn file {args.turn} does not exist"
              + (" (the example German turn has not been added yet; name another turn file)"
                 if turn == DEFAULT_TURN else ""), file=sys.stderr)
        return 1

    from pbem.core.errors import InputError
    try:
        load_seconds, inputs = best_of(args.runs, lambda: load_turn(turn))
    except InputError as exc:
        print(f"error: the turn file does not load:\n{exc}", file=sys.stderr)
        return 1
    power = inputs.acting
    print(f"{turn.relative_to(REPO) if turn.is_relative_to(REPO) else turn}: {power}, round "
          f"{inputs.state.data['round']}; best of {args.runs} after one warm-up")

    # resolve_turn does not change its inputs, so the loaded files are reused
    def resolve_only():
        return resolve_turn(inputs)

    def with_markdown():
        result = resolve_turn(inputs)
        model = report_model(inputs.state.data, result.state, result.events, inputs.submissions[inputs.acting].data.get("note"))
        return result, render_markdown(model)

    def with_everything():
        return resolve_turn(inputs, render_turn)

    rows = [("load_turn (read and check every input file)", load_seconds)]
    seconds, resolved = best_of(args.runs, resolve_only)
    rows.append(("(1) resolution only (state + events)", seconds))
    if not get_ruleset(inputs.state.data["ruleset"]).hidden_information:  # one public report only
        seconds, _ = best_of(args.runs, with_markdown)
        rows.append(("(2) resolution + Markdown report", seconds))
    seconds, full = best_of(args.runs, with_everything)
    rows.append(("(3) resolution + all reports (and map.png where the game has one)", seconds))

    with tempfile.TemporaryDirectory(prefix="bench-turn-") as scratch:
        counter = iter(range(10**6))

        def pipeline():
            inputs = load_turn(turn)
            result = resolve_turn(inputs, render_turn)
            target = dataclasses.replace(inputs, output=Path(scratch) / f"out{next(counter)}")
            return write_outputs(target, result.files)

        seconds, written = best_of(args.runs, pipeline)
        rows.append(("(4) load + (3) + writing the files, in-process", seconds))
        on_disk = {p.name: p.read_bytes() for p in written.iterdir()}

    width = max(len(label) for label, _ in rows)
    for label, seconds in rows:
        print(f"  {label:{width}s}  {seconds * 1000:8.1f} ms")
    print(f"  dice rolled: {resolved.events.events[-1]['dice_rolled']}, events: {len(resolved.events.events)}, "
          f"report.md: {len(full.files['report.md'].decode()):,} chars, files: "
          + ", ".join(f"{name} {len(data) / 1024:.0f} KiB" for name, data in sorted(full.files.items())))
    if on_disk != full.files or resolved.files != {k: full.files[k] for k in resolved.files}:
        print("error: repeated runs gave different bytes", file=sys.stderr)
        return 1

    # the whole command once, as a user runs it, on a copy of the game folder
    game = turn.parent.parent
    with tempfile.TemporaryDirectory(prefix="bench-turn-cli-") as scratch:
        copy = Path(scratch) / game.name
        shutil.copytree(game, copy)
        command = pbem_command() + ["adjudicate", str(copy / turn.relative_to(game)), "--force"]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            print(f"error: `pbem adjudicate` failed:\n{done.stderr}", file=sys.stderr)
            return 1
        print(f"  {'`pbem adjudicate --force` as a new process':{width}s}  {seconds * 1000:8.1f} ms (one run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
