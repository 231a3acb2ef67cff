"""What a moderator meets first at the command line: help, version, board, validate, JSON output."""

from __future__ import annotations

import json
import re
import shutil
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.errors import display_path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "aa-revised"
START = str(EXAMPLE / "start" / "state.yaml")
COMMANDS = [c.name or c.callback.__name__ for c in app.registered_commands]


def pbem(*args: str, columns: int = 80):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)}, terminal_width=columns)


def test_version():
    result = pbem("--version")
    assert result.exit_code == 0
    assert result.stdout == f"pbem {metadata.version('pbem')}\n"


@pytest.mark.parametrize("command", [None, *COMMANDS])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_every_help_answers_both_flags_and_fits_80_columns(command, flag):
    result = pbem(*([command] if command else []), flag)
    assert result.exit_code == 0, result.output
    assert "Usage" in result.stdout
    too_long = [line for line in result.stdout.splitlines() if len(line) > 80]
    assert too_long == []


def test_shell_completion_is_offered():
    help_text = pbem("--help").stdout
    assert "--install-completion" in help_text and "--show-completion" in help_text


# --- pbem board ------------------------------------------------------------------------------

def test_board_lists_every_space_with_value_owner_and_neighbours():
    result = pbem("board", "--ruleset", "aa-revised")
    assert result.exit_code == 0, result.output
    assert "Karelia S.S.R.: 2 IPC, held by ussr at the start" in result.stdout
    assert "Afghanistan: neutral territory" in result.stdout
    assert "SZ 64: sea zone" in result.stdout
    data = json.loads(pbem("board", "--ruleset", "aa-revised", "--json").stdout)
    assert len(data["spaces"]) == 79 + 64 and data["spaces"][0]["name"] == "Afghanistan"


def test_board_of_one_space_by_its_short_name():
    result = pbem("board", "Karelia", "--ruleset", "aa-revised")
    assert result.exit_code == 0, result.output
    assert result.stdout == ("Karelia S.S.R.: 2 IPC, held by ussr at the start\n"
                             "  land: Archangel, Belorussia, Eastern Europe, Norway, West Russia\n"
                             "  sea: SZ 4, SZ 5\n")
    data = json.loads(pbem("board", "sz 5", "--ruleset", "aa-revised", "--json").stdout)
    assert data["name"] == "SZ 5" and data["kind"] == "sea" and data["sea_neighbours"] == ["SZ 6"]
    assert "Karelia S.S.R." in data["land_neighbours"]


def test_board_of_an_unknown_space_suggests_names():
    result = pbem("board", "Karelai", "--ruleset", "aa-revised")
    assert result.exit_code == 1
    assert "unknown space 'Karelai'; did you mean 'Karelia S.S.R.'" in result.output
    assert result.stdout == ""


def test_board_of_an_unknown_ruleset():
    result = pbem("board", "--ruleset", "chess")
    assert result.exit_code == 1 and "unknown ruleset 'chess'" in result.output


# --- pbem validate ---------------------------------------------------------------------------

def test_validate_checks_standing_orders_on_their_own():
    result = pbem("validate", str(EXAMPLE / "standing" / "uk.yaml"), "--state", START)
    assert result.exit_code == 0, result.output
    assert "the standing orders are valid" in result.output


def test_validate_finds_what_is_wrong_in_standing_orders(tmp_path):
    standing = tmp_path / "uk.yaml"
    standing.write_text("power: uk\nsubmerge: always\ncasualty_order: [infantry, tnak]\n"
                        "carrier_fighters_land: [Indai]\n", encoding="utf-8")
    result = pbem("validate", str(standing), "--state", START)
    assert result.exit_code == 1
    assert "standing orders are not valid" in result.output
    assert ":3: casualty_order[1]: unknown unit type 'tnak'" in result.output
    assert ":4: carrier_fighters_land[0]: unknown space 'Indai'" in result.output


def test_validate_takes_the_kind_from_the_flag(tmp_path):
    standing = tmp_path / "uk.yaml"
    standing.write_text("power: uk\ncasualty_order: [infantry]\n", encoding="utf-8")
    as_standing = pbem("validate", str(standing), "--state", START, "--kind", "standing-orders")
    assert as_standing.exit_code == 0 and "the standing orders are valid" in as_standing.output
    # nothing only standing orders have, and not the UK's turn: read as its standing orders
    assert "the standing orders are valid" in pbem("validate", str(standing), "--state", START).output
    as_orders = pbem("validate", str(standing), "--state", START, "--kind", "orders")
    assert as_orders.exit_code == 1 and "it is ussr's turn, not uk's" in as_orders.output
    wrong = pbem("validate", str(standing), "--state", START, "--kind", "order")
    assert wrong.exit_code == 1 and "unknown kind 'order'" in wrong.output


def test_validate_json():
    good = pbem("validate", str(EXAMPLE / "orders" / "01-ussr.yaml"), "--state", START, "--json")
    assert good.exit_code == 0, good.output
    facts = json.loads(good.stdout)
    assert re.fullmatch("[0-9a-f]{64}", facts.pop("decisions_digest"))
    assert any("Attack on Belorussia" in line for line in facts.pop("preview")["lines"])  # valid orders: a preview
    assert facts == {"ok": True, "file": display_path(EXAMPLE / "orders" / "01-ussr.yaml"),
                     "kind": "orders", "problems": []}
    bad = pbem("validate", str(EXAMPLE / "orders" / "02-germany.yaml"), "--state", START, "--json")
    assert bad.exit_code == 1
    data = json.loads(bad.stdout)
    assert data["ok"] is False and data["kind"] == "orders"
    assert data["problems"][0] == {"file": display_path(EXAMPLE / "orders" / "02-germany.yaml"), "line": 1,
                                   "field": "power", "message": "it is ussr's turn, not germany's",
                                   "allowed": "ussr"}


# --- pbem verify --json ----------------------------------------------------------------------

def test_verify_json_lists_every_turn_verified():
    result = pbem("verify", str(EXAMPLE), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    recorded = sorted((EXAMPLE / "turns").glob("*.yaml"))
    assert data["ok"] is True and data["problems"] == []
    assert [t["turn_file"] for t in data["turns"]] == [display_path(t) for t in recorded]
    assert [t["turn"] for t in data["turns"]] == list(range(1, len(recorded) + 1))
    assert data["turns"][0]["power"] == "ussr" and isinstance(data["turns"][0]["dice"], int)


def test_verify_json_gives_the_problems_of_a_game_that_does_not_verify(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(EXAMPLE, game)
    state = game / "01-ussr" / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8").replace("round: 1", "round: 2", 1), encoding="utf-8")
    result = pbem("verify", str(game), "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["ok"] is False and data["problems"]
    assert set(data["problems"][0]) == {"file", "line", "field", "message", "allowed"}
    assert all(t["turn"] != 1 for t in data["turns"])


def test_a_refused_field_does_not_hide_the_other_problems(tmp_path: Path) -> None:
    """A misspelt field is left out and the rest checked: the overspend shows at once, said to be
    found without the refused field; the mail answer checks the same way (moderator.check)."""
    orders = tmp_path / "orders.yaml"
    orders.write_text("power: germany\nround: 1\npurchase: {infantry: 30}\ncombat_moves:\n"
                      "  - {units: {infantry: 3}, from: Norway, path: [Karelia S.S.R.]}\n")
    state = Path(__file__).parent.parent / "examples" / "aa-revised" / "01-ussr" / "state.yaml"
    result = pbem("validate", str(orders), "--state", str(state))
    assert result.exit_code == 1
    assert "combat_moves: unknown field 'combat_moves'; did you mean 'combat_move'?" in result.output
    assert ("purchase: the units cost 90 IPCs; Germany has 40 (found with combat_moves left out, as refused "
            "above)") in " ".join(result.output.split())
    from pbem.core.moderator import Position, check
    from pbem.core.yamlio import load_document
    from pbem.rulesets import get_ruleset
    data = load_document(state).data
    position = Position(tmp_path, state, data, get_ruleset(data["ruleset"]), None)
    found = [p.message for p in check(position, "germany", load_document(orders))]
    assert found[0].startswith("unknown field 'combat_moves'")
    assert "the units cost 90 IPCs; Germany has 40 (found with combat_moves left out, as refused above)" in found
