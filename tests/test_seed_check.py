"""Every game's report says how to check its turn's seed against the commitment published before
the turn, with a command that works in a fresh shell (issue 26): `sha256sum` on the seed's text
gives another hash, as the commitment is of the seed's bytes."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"
COMMAND = re.compile(r"`(python3 -c \"[^`]+\")` prints it")


@pytest.mark.parametrize("game", sorted(p.name for p in EXAMPLES.iterdir() if (p / "game.yaml").exists()))
def test_the_report_gives_a_command_that_prints_the_seeds_commitment(game: str) -> None:
    turn = sorted(p for p in (EXAMPLES / game).iterdir() if (p / "events.jsonl").exists())[-1]
    start = json.loads((turn / "events.jsonl").read_text(encoding="utf-8").splitlines()[0])
    (command,) = COMMAND.findall((turn / "report.md").read_text(encoding="utf-8"))
    assert start["seed"] in command
    printed = subprocess.run(command, shell=True, capture_output=True, text=True, check=True).stdout
    assert printed.strip() == start["seed_commitment"]
    text_hash = subprocess.run(f"printf %s {start['seed']} | sha256sum", shell=True, capture_output=True,
                               text=True, check=True).stdout
    assert not text_hash.startswith(start["seed_commitment"])  # why the report gives its own command
