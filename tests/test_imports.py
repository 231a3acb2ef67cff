"""No command imports what it does not use (issue 27): `pbem odds`, `validate`, `status` and `receive`
never load matplotlib, `status` and `receive` never numpy, and a small battle's odds need no numpy either;
no command loads pydantic (typer 0.29 would, for every option), and the card games' commands never load
the Axis & Allies engine (its `odds` command is an entry point every command reads); and no command
pays the interpreter's collections at its exit.

Each command runs in a fresh interpreter on an example game, which writes the modules it holds at
exit: what a whole `pbem` process pays for at its start."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
GAMES = ("aa-revised", "aa-europe", "qmg", "undaunted-stalingrad")
WATCHED = ("matplotlib", "numpy", "jinja2", "jsonschema", "imaplib", "pydantic", "pbem.rulesets.axis_allies.edition")

PROGRAM = """
import atexit, json, sys
watched_names = sys.argv[1].split(",")
atexit.register(lambda: print("MODULES " + json.dumps(sorted(
    watched for watched in watched_names
    if any(name == watched or name.startswith(watched + ".") for name in sys.modules))), file=sys.stderr))
sys.argv = ["pbem", *sys.argv[2:]]
from pbem.cli import app
app()
"""


def loaded(*args: object) -> set[str]:
    """The watched packages a whole `pbem ARGS` process of the installed pbem imported (run outside the
    checkout, whose folders `python -c` would import first); the command must succeed."""
    done = subprocess.run([sys.executable, "-c", PROGRAM, ",".join(WATCHED), *map(str, args)],
                          cwd=tempfile.gettempdir(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def last_turn(game: str) -> tuple[Path, dict]:
    """The example game's last turn file and what it names."""
    turn = sorted((EXAMPLES / game / "turns").glob("*.yaml"))[-1]
    return turn, yaml.safe_load(turn.read_text(encoding="utf-8"))


def test_odds_of_a_small_battle_import_neither_matplotlib_nor_numpy() -> None:
    found = loaded("odds", "--attacker", "6 infantry, 3 artillery, 3 tanks", "--defender",
                   "8 infantry, 2 artillery, 2 tanks", "--defender-power", "ussr")
    assert not found & {"matplotlib", "numpy", "jsonschema", "imaplib", "pydantic"}, found


@pytest.mark.parametrize("game", GAMES)
def test_validate_never_imports_matplotlib(game: str) -> None:
    turn, named = last_turn(game)
    orders = named["orders"] if isinstance(named["orders"], str) else next(iter(named["orders"].values()))
    found = loaded("validate", (turn.parent / orders).resolve(), "--state", (turn.parent / named["state"]).resolve())
    assert "matplotlib" not in found and "imaplib" not in found, found


@pytest.mark.parametrize("game", GAMES)
def test_status_imports_neither_matplotlib_nor_numpy(game: str) -> None:
    found = loaded("status", EXAMPLES / game)
    assert not found & {"matplotlib", "numpy", "jinja2", "imaplib", "pydantic"}, found
    if not game.startswith("aa-"):
        assert "pbem.rulesets.axis_allies.edition" not in found, found


@pytest.mark.parametrize("game", ["aa-revised", "undaunted-stalingrad"])
def test_receive_imports_neither_matplotlib_nor_numpy(game: str, tmp_path: Path) -> None:
    copy = tmp_path / game
    shutil.copytree(EXAMPLES / game, copy)
    ledger = [json.loads(line) for line in (copy / "ledger.jsonl").read_text().splitlines()]
    last = ledger[-1]
    shutil.rmtree(copy / last["output"])
    named = yaml.safe_load((copy / last["turn_file"]).read_text(encoding="utf-8"))
    (copy / last["turn_file"]).unlink()
    (copy / "ledger.jsonl").write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in ledger[:-1]))
    orders = named["orders"] if isinstance(named["orders"], str) else next(iter(named["orders"].values()))
    found = loaded("receive", copy, (EXAMPLES / game / "turns" / orders).resolve())
    assert not found & {"matplotlib", "numpy", "jinja2", "imaplib"}, found


@pytest.mark.parametrize("game", ["qmg", "undaunted-stalingrad"])
def test_adjudicating_again_checks_no_file_found_valid_before(game: str, tmp_path: Path) -> None:
    copy = tmp_path / game
    shutil.copytree(EXAMPLES / game, copy)
    turn, _ = last_turn(game)
    loaded("adjudicate", copy / "turns" / turn.name, "--force")
    assert "jsonschema" not in loaded("adjudicate", copy / "turns" / turn.name, "--force")


def test_a_command_leaves_its_imports_to_the_system() -> None:
    """Most of a command's objects are its libraries', which live to its end: the collector looks at the
    youngest objects every 10,000 new ones (not 700, which walked them again and again), and the
    interpreter's collections at exit would walk them all (0.1 s a command): `pbem` freezes them once its
    own exit callbacks run (this one, registered first, runs after)."""
    program = ("import atexit, gc, sys\n"
               "atexit.register(lambda: print('GC', gc.get_freeze_count(), gc.get_threshold()[0], file=sys.stderr))\n"
               "sys.argv = ['pbem', 'status', sys.argv[1]]\n"
               "from pbem.cli import app\napp()\n")
    done = subprocess.run([sys.executable, "-c", program, str(EXAMPLES / "qmg")],
                          cwd=tempfile.gettempdir(), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    frozen, youngest = map(int, next(line for line in done.stderr.splitlines() if line.startswith("GC ")).split()[1:])
    assert frozen > 10_000 and youngest == 10_000, (frozen, youngest)
