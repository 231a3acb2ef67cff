"""Time this checkout's pbem beside an older checkout's, in one run, and print the ratio.

Every benchmark of issue 27 on measures through here, so that each figure is the same kind of number: the
median of several runs, taken in turn (old, new, old, new, ...) so that a change in the machine's load
touches both sides alike. A measurement is either a whole command (`process`) or a piece of Python run
in a fresh interpreter that prints the seconds it measured (`in_process`); both run with the checkout's
folder first on the import path, so the same benchmark times either checkout's code.

    python bench/bench_turn.py --root /work/base27      # base27: a worktree at the commit before issue 27
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent.parent


def add_root_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, default=None,
                        help="an older checkout to compare with (e.g. `git worktree add --detach ../base COMMIT`); "
                             "without it, this checkout alone is timed")
    parser.add_argument("--runs", type=int, default=5, help="runs of each side (default 5; the median is shown)")
    parser.add_argument("--json", type=Path, default=None, help="also write every run's seconds to this file")


_SCRATCH = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
atexit.register(shutil.rmtree, _SCRATCH, True)


def environment(root: Path) -> dict[str, str]:
    """The environment that makes `import pbem` load `root`'s code (before any installed copy).

    As an installed copy runs: bytecode kept (pip compiles it at install; some machines set
    PYTHONDONTWRITEBYTECODE, which would charge both checkouts a compile in every process), and a cache
    folder of the benchmark's own, so no run reads what the user's games left there."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return env | {"PYTHONPATH": str(root.resolve()), "MPLBACKEND": "Agg",
                  "PYTHONPYCACHEPREFIX": str(_SCRATCH / "bytecode"), "PBEM_CACHE_DIR": str(_SCRATCH / "cache")}


PBEM = [sys.executable, "-c", "from pbem.cli import app; app()"]  # `pbem`, from the checkout on the import path


def process(command: list[str], cwd: Path | None = None) -> Callable[[Path], float]:
    """A measurement: the wall time of `pbem COMMAND...` as a new process in `cwd` (default the root)."""
    def measure(root: Path) -> float:
        start = time.perf_counter()
        done = subprocess.run(PBEM + command, cwd=cwd or root, env=environment(root),
                              capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"`pbem {' '.join(command)}` failed in {root}:\n{done.stdout}{done.stderr}")
        return seconds
    return measure


def in_process(code: str, setup: str = "", clock: str = "perf_counter") -> Callable[[Path], float]:
    """A measurement: Python `code` timed inside a fresh interpreter after `setup` (not timed).

    `setup` runs once; `code` runs once as a warm-up (imports, caches a long-running process holds),
    then once more timed: what the mail loop pays for a turn after its first. `clock`: the `time`
    function read, wall time by default; `process_time` counts the CPU of every thread of the process
    (threads waiting for a busy core spin on it), whatever else the machine runs."""
    program = (f"import time\n{setup}\ndef work():\n" + "".join(f"    {line}\n" for line in code.splitlines())
               + f"work()\nstart = time.{clock}()\nwork()\nprint(time.{clock}() - start)\n")

    def measure(root: Path) -> float:
        done = subprocess.run([sys.executable, "-c", program], cwd=root, env=environment(root),
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"a measurement failed in {root}:\n{done.stderr}")
        return float(done.stdout.strip().splitlines()[-1])
    return measure


@dataclass
class Figure:
    label: str
    new: list[float]
    old: list[float] | None

    def line(self) -> str:
        new = statistics.median(self.new)
        text = f"{self.label}: {new * 1000:.1f} ms"
        if self.old:
            old = statistics.median(self.old)
            text += f" (was {old * 1000:.1f} ms): {old / new:.2f}x"
        return text

    def as_json(self) -> dict:
        return {"label": self.label, "new": self.new, "old": self.old,
                "ratio": statistics.median(self.old) / statistics.median(self.new) if self.old else None}


def compare(label: str, measure: Callable[[Path], float], root: Path | None, runs: int) -> Figure:
    """`runs` measurements of this checkout and of `root`, taken in turn after one untimed run of each
    (which compiles the bytecode and fills the caches a club's server has long had); prints and returns
    the figure."""
    new: list[float] = []
    old: list[float] | None = [] if root else None
    for checkout in (root, HERE) if root else (HERE,):
        measure(checkout)
    for _ in range(runs):
        if old is not None:
            old.append(measure(root))
        new.append(measure(HERE))
    figure = Figure(label, new, old)
    print(figure.line(), flush=True)
    return figure


def save(figures: list[Figure], path: Path | None) -> None:
    """Every run's seconds as JSON, for a closing note's medians."""
    if path is not None:
        path.write_text(json.dumps([f.as_json() for f in figures], indent=1) + "\n", encoding="utf-8")
