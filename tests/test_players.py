"""The players file: who plays which roles, game passwords kept as hashes, and deadlines that count
only the days the game counts."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.errors import InputError
from pbem.core.players import Deadline, read_players

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
QMG_ROLES = ("germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states")
GOOD = """\
moderator: {name: Mo, address: mo@example.org}
players:
  - {name: Alice, address: alice@example.org, roles: [germany, italy, japan]}
  - {name: Bob, address: bob@example.org, roles: [united_kingdom, soviet_union, united_states]}
deadline: {hours: 48, grace_hours: 6, weekdays: [mon, tue, wed, thu, fri], reminders: [24, 2]}
missing_orders: standing
"""


def pbem(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "qmg"
    shutil.copytree(EXAMPLES / "qmg", folder)
    (folder / "players.yaml").write_text(GOOD)
    return folder


def test_a_players_file_is_read(game: Path) -> None:
    found = read_players(game, QMG_ROLES)
    assert found.of_role("italy").name == "Alice" and found.by_address("BOB@example.org").name == "Bob"
    assert found.deadline.hours == 48 and found.missing_orders == "standing"


def test_every_problem_of_a_players_file_is_named(game: Path) -> None:
    (game / "players.yaml").write_text(GOOD.replace("roles: [united_kingdom, soviet_union, united_states]",
                                                    "roles: [germany, soviet_union, ussr]")
                                       .replace("bob@example.org", "bob-at-example"))
    with pytest.raises(InputError) as caught:
        read_players(game, QMG_ROLES)
    text = "\n".join(map(str, caught.value.problems))
    assert "players.yaml:4: players[1].address: 'bob-at-example' is not a mail address" in text
    assert "germany is played by Alice already" in text and "'ussr' is not a role of this game" in text
    assert "nobody plays united_kingdom" in text and "nobody plays united_states" in text


@pytest.mark.parametrize("name", ["Mo\nBcc: eve@example.org", "Mo\r", "Mo\x00", "Mo\x85", "Mo\u2028", "Mo\u2029",
                                  "Mo\u202e", "Mo\ufeff", "Mo\n"])
def test_a_name_or_address_that_would_break_a_mail_header_is_refused(game: Path, name: str) -> None:
    (game / "players.yaml").write_text(GOOD.replace("name: Mo", f"name: {json.dumps(name)}")
                                       .replace("alice@example.org", json.dumps("alice@example.org\n")))
    with pytest.raises(InputError) as caught:
        read_players(game, QMG_ROLES)
    allowed = "(allowed: one line of text, without control characters, line breaks or invisible format characters)"
    assert [str(p) for p in caught.value.problems] == [
        f"{game / 'players.yaml'}:1: moderator.name: {name!r} has the wrong form {allowed}",
        f"{game / 'players.yaml'}:3: players[0].address: 'alice@example.org\\n' has the wrong form {allowed}"]


def test_names_in_every_script_are_read(game: Path) -> None:
    (game / "players.yaml").write_text(GOOD.replace("name: Mo", "name: Zoë Ñúñez-李 (می\u200cخواهم)"))
    assert read_players(game, QMG_ROLES).moderator_name == "Zoë Ñúñez-李 (می\u200cخواهم)"


def test_a_new_password_is_shown_once_and_only_its_hash_kept(game: Path) -> None:
    result = pbem("players", game, "--new-password", "Alice")
    assert result.exit_code == 0, result.output
    password = result.stdout.split("password: ")[1].split()[0]
    kept = (game / "players.yaml").read_text()
    assert password not in kept and "sha256:" in kept
    alice = read_players(game, QMG_ROLES).of_role("germany")
    assert alice.knows(password) and not alice.knows(password + "x") and not alice.knows(None)
    assert read_players(game, QMG_ROLES).of_role("italy").knows(None) is False
    assert read_players(game, QMG_ROLES).of_role("soviet_union").knows(None)  # Bob has no password yet
    unknown = pbem("players", game, "--new-password", "Carol")
    assert unknown.exit_code == 1 and "no player is called 'Carol'" in unknown.output


@pytest.mark.parametrize("start,hours,weekdays,due", [
    ("2026-11-23 10:00", 48, "all", "2026-11-25 10:00"),              # Monday: two days on
    ("2026-11-27 18:00", 48, "weekdays", "2026-12-01 18:00"),         # Friday evening: the weekend does not count
    ("2026-11-28 12:00", 24, "weekdays", "2026-12-01 00:00"),         # Saturday noon: all of Monday
    ("2026-11-23 10:00", 72, "weekdays", "2026-11-26 10:00"),
])
def test_a_deadline_counts_only_the_days_the_game_counts(start: str, hours: int, weekdays: str, due: str) -> None:
    days = ("mon", "tue", "wed", "thu", "fri") if weekdays == "weekdays" else Deadline().weekdays
    policy = Deadline(hours=hours, grace_hours=6, weekdays=days)
    begin = datetime.fromisoformat(start)
    assert policy.due(begin) == datetime.fromisoformat(due)
    assert (policy.late(begin) - policy.due(begin)).total_seconds() == 6 * 3600
