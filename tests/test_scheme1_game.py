"""Games recorded before dice scheme 2 keep verifying (issue 8: "old games keep verifying").

tests/fixtures/scheme1-game is the bundled example's first round as it was adjudicated under dice
scheme 1, kept with what `pbem verify` reads (the maps are left out: verify never compares them).
Every test verifies a copy under a temporary folder; nothing is written into the fixture.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from test_cli_end_to_end import alter_a_die

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "scheme1-game"
TURNS = ("01-ussr", "02-germany", "03-uk", "04-japan", "05-usa")


def pbem(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture
def game(tmp_path) -> Path:
    return Path(shutil.copytree(FIXTURE, tmp_path / "game"))


def test_the_fixture_is_a_scheme_1_game():
    """Guards the fixture itself: re-adjudicated or upgraded, it would no longer prove anything."""
    for path in (FIXTURE / "game.yaml", FIXTURE / "start" / "state.yaml",
                 *(FIXTURE / turn / "state.yaml" for turn in TURNS)):
        dice = yaml.safe_load(path.read_text(encoding="utf-8"))["dice"]
        assert "scheme" not in dice, path
    assert not (FIXTURE / "ledger.jsonl").exists()


def test_a_scheme_1_game_verifies(game):
    result = pbem("verify", game)
    assert result.exit_code == 0, result.stderr
    assert "verified 5 turns" in result.stderr
    for number, turn in enumerate(TURNS, start=1):
        assert f"ok  turn {number} ({turn[3:]})" in result.stderr


def test_an_altered_die_in_a_scheme_1_game_fails(game):
    """A die of the fourth turn: the three turns before it still verify, then the chain breaks."""
    line = alter_a_die(game / "04-japan" / "events.jsonl")
    result = pbem("verify", game)
    assert result.exit_code == 1
    assert "ok  turn 3 (uk)" in result.stderr and "ok  turn 4" not in result.stderr
    assert "04-japan/events.jsonl: (document): does not match the re-played turn" in result.stderr
    assert f"events.jsonl line {line} differs" in result.stderr
