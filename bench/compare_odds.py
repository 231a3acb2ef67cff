"""The exact odds of this checkout against another's, over random battles (issue 13).

Run from the repository root: ``python bench/compare_odds.py --root DIR [--battles N] [--seed S]``,
where DIR is another checkout (for instance ``git worktree add /tmp/before a4acc7e``, the engine
before issue 13). Each battle is a random ``pbem odds --json`` command line of either edition:
land or sea, AA guns, amphibious assaults with bombardment, retreat rules, submerging
submarines, casualty orders; both checkouts answer it in a process of their own, and the script
prints the largest difference of any probability, expected count or IPC figure, the battles
that differ by more than the 9 decimals of the JSON can hide, and the time each side took.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
LAND = ("infantry", "artillery", "tank", "fighter", "bomber")
SEA = ("submarine", "destroyer", "carrier", "battleship", "transport", "fighter")
POLICIES = ("never", "always", "when_alone")


def army(rng: random.Random, kinds: tuple[str, ...], most: int) -> str:
    counts: dict[str, int] = {}
    for _ in range(rng.randint(1, most)):
        unit = rng.choice(kinds)
        counts[unit] = counts.get(unit, 0) + 1
    return ", ".join(f"{n} {unit}" for unit, n in counts.items())


def battle(rng: random.Random, most: int) -> list[str]:
    """A random `pbem odds` command line (without --json)."""
    sea = rng.random() < 0.5
    kinds = SEA if sea else LAND
    args = ["--ruleset", rng.choice(("aa-revised", "aa-europe")),
            "--attacker", army(rng, kinds, most), "--defender", army(rng, kinds, most)]
    if sea:
        args += ["--sea", "--attacker-submerge", rng.choice(POLICIES), "--defender-submerge", rng.choice(POLICIES)]
    else:
        if rng.random() < 0.3:
            args.append("--aa")
        if rng.random() < 0.2:
            args += ["--amphibious", "--bombard", f"{rng.randint(1, 2)} battleship"]
    rule = rng.random()
    if rule < 0.15:
        args += ["--retreat-after", str(rng.randint(1, 4))]
    elif rule < 0.25:
        args += ["--retreat-below-units", str(rng.randint(1, 4))]
    elif rule < 0.35:
        args.append("--retreat-when-weaker")
    elif rule < 0.40:
        args += ["--retreat-below-chance", f"{rng.random():.2f}"]
    if rng.random() < 0.2:
        args += ["--attacker-order", ", ".join(rng.sample(kinds, 2))]
    return args


def figures(data: dict) -> dict[str, float]:
    """Every number of an answer, by a name that says where it is."""
    flat = {key: data[key] for key in ("attacker_win", "defender_win", "draw", "expected_rounds",
                                       "attacker_ipc_lost", "defender_ipc_lost")}
    for key in ("attacker_captures", "retreat"):
        if data.get(key) is not None:
            flat[key] = data[key]
    for side in ("attacker", "defender"):
        flat |= {f"{side} {unit}": n for unit, n in data[f"{side}_survivors"].items()}
    flat |= {f"outcome {o['winner']} {sorted(o['attackers'].items())} {sorted(o['defenders'].items())}":
             o["probability"] for o in data["outcomes"]}
    return flat


def answer(root: Path, args: list[str]) -> tuple[dict | str, float]:
    """What the checkout at ``root`` says, and how long its process took."""
    env = dict(os.environ, PYTHONPATH=str(root))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pbem.cli", "odds", *args, "--json", "--top", "1000"],
                          env=env, cwd=root, capture_output=True, text=True)  # -m looks in cwd first
    took = time.perf_counter() - start
    return (json.loads(done.stdout) if done.returncode == 0 else done.stderr.strip().splitlines()[-1]), took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="the other checkout")
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--most", type=int, default=9, help="at most this many units a side")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    worst, compared, times = 0.0, 0, [0.0, 0.0]
    for _ in range(args.battles):
        command = battle(rng, args.most)
        ours, t_ours = answer(HERE, command)
        theirs, t_theirs = answer(args.root.resolve(), command)
        times[0] += t_ours
        times[1] += t_theirs
        if isinstance(ours, str) or isinstance(theirs, str):
            if ours != theirs:
                print(f"answered differently: pbem odds {' '.join(command)}\n  here: {ours}\n  there: {theirs}")
            continue
        a, b = figures(ours), figures(theirs)
        difference = max(abs(a.get(k, 0.0) - b.get(k, 0.0)) for k in a.keys() | b.keys())
        compared += 1
        worst = max(worst, difference)
        if difference > 1.5e-9:  # both sides round to 9 decimals
            print(f"differs by {difference:.3g}: pbem odds {' '.join(command)}")
    print(f"{compared} battles compared; largest difference {worst:.3g}; "
          f"processes took {times[0]:.1f} s here and {times[1]:.1f} s there")


if __name__ == "__main__":
    main()
