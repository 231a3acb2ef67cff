"""pbem as a user installs it: a regular install (tools/test installs the wheel) that carries every
module and data file. Each game is created, played for its first turn and verified through the
installed `pbem` command alone, and that turn's position must be the bundled example's, the same
(same secret, same orders)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import pbem

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
PBEM = Path(sys.executable).parent / "pbem"


def _pbem(*args: str | Path) -> str:
    run = subprocess.run([str(PBEM), *map(str, args)], capture_output=True, text=True, cwd=Path.home())
    assert run.returncode == 0, f"pbem {' '.join(map(str, args))}:\n{run.stdout}{run.stderr}"
    assert "Traceback" not in run.stderr
    return run.stdout + run.stderr


def test_the_tests_run_an_installed_pbem_not_the_repository():
    if os.environ.get("CI") != "true" and ROOT in Path(pbem.__file__).resolve().parents:
        pytest.skip("an editable install: tools/test installs the wheel")
    assert ROOT not in Path(pbem.__file__).resolve().parents, pbem.__file__
    assert PBEM.is_file()


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()))
def test_a_game_from_new_to_its_first_turn_with_the_installed_command(example: str, tmp_path: Path):
    source = EXAMPLES / example
    game = yaml.safe_load((source / "game.yaml").read_text())
    options = [arg for name, value in game["options"].items()
               for arg in ("-o", f"{name}={json.dumps(value) if isinstance(value, bool) else value}")]
    folder = tmp_path / "game"
    _pbem("new", game["ruleset"], folder, "--game", game["game"], "--secret", source / "secret.yaml", *options)
    for standing in (source / "standing").iterdir():
        shutil.copy(standing, folder / "standing" / standing.name)
    first = json.loads((source / "ledger.jsonl").read_text().splitlines()[0])
    turn = yaml.safe_load((source / first["turn_file"]).read_text())
    orders = turn["orders"].values() if isinstance(turn["orders"], dict) else [turn["orders"]]
    for path in orders:
        _pbem("receive", folder, (source / "turns" / path).resolve())
    _pbem("next", folder)
    ledger = json.loads((folder / "ledger.jsonl").read_text())
    ours, example_state = (yaml.safe_load((where / "state.yaml").read_text())
                           for where in (folder / ledger["output"], source / first["output"]))
    # a game made today has every option; the example was made before some were added
    assert {**ours, "options": None} == {**example_state, "options": None}
    assert "verified 1 turn:" in _pbem("verify", folder, "--reports")


def test_the_mail_loop_is_installed():
    assert "One full pass" in _pbem("mail", "run", "--help")
