"""The short names players type for spaces: a curated list that never guesses between two places."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.rulesets.axis_allies.board import Board
from pbem.rulesets.axis_allies.names import normalise
from pbem.rulesets.axis_allies.edition import edition

REVISED = edition("aa-revised")


@pytest.mark.parametrize("typed, space", [
    ("Karelia", "Karelia S.S.R."), ("W Russia", "West Russia"), ("w. russia", "West Russia"),
    ("E Europe", "Eastern Europe"), ("Egypt", "Anglo-Egypt"), ("UK", "United Kingdom"),
    ("Caucasus", "Caucasus"), ("Sinkiang", "Sinkiang"), ("Manchuria", "Manchuria"),
    ("French Indochina", "French Indochina"), ("FIC", "French Indochina"), ("Indochina", "French Indochina"),
    ("Ukraine", "Ukraine S.S.R."), ("Belorussia", "Belorussia"), ("SZ5", "SZ 5"), ("Sea Zone 5", "SZ 5"),
    ("Hawaii", "Hawaiian Islands"), ("US", "Eastern United States"), ("USA", "Eastern United States"),
    ("Moscow", "Russia"),
])
def test_short_names_players_type_find_their_space(typed, space):
    assert REVISED.board.space_names.get(typed) == space


def test_every_alias_names_one_existing_space_and_no_other_space():
    aliases = REVISED.data("aliases.yaml")
    plain = Board(REVISED.data("board.yaml"), REVISED.meta["powers"]).space_names  # the board's own names, without the list
    seen: dict[str, str] = {}
    for space, spellings in aliases.items():
        assert REVISED.board.is_space(space), f"{space!r} is not a space of the board"
        for alias in spellings:
            key = normalise(alias)
            assert plain.get(alias) in (None, space), f"{alias!r} is already a name of {plain.get(alias)!r}"
            assert seen.setdefault(key, space) == space, f"{alias!r} stands for {seen[key]!r} and {space!r}"
            assert REVISED.board.space_names.get(alias) == space


def test_an_unknown_name_is_refused_with_suggestions_not_guessed():
    names = REVISED.board.space_names
    assert names.get("Karelai") is None
    message, _ = names.unknown_message("Karelai")
    assert "did you mean 'Karelia S.S.R.'" in message
    assert names.get("Russ") is None  # West Russia or Russia: no guess


def test_orders_written_with_short_names_are_valid(tmp_path):
    example = Path(__file__).resolve().parents[1] / "examples" / "aa-revised"
    text = (example / "orders" / "01-ussr.yaml").read_text(encoding="utf-8")
    short = text.replace("path: [West Russia]", "path: [W Russia]").replace("Karelia S.S.R.", "Karelia")
    assert "[W Russia]" in short and "Karelia S.S.R." not in short
    orders = tmp_path / "orders.yaml"
    orders.write_text(short, encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(orders), "--state", str(example / "start" / "state.yaml")])
    assert result.exit_code == 0, result.output


EUROPE = edition("aa-europe")


@pytest.mark.parametrize("typed, space", [("E Poland", "East Poland"), ("Eastern Poland", "East Poland"),
                                          ("Eastern Med", "Eastern Mediterranean"), ("E Med", "Eastern Mediterranean"),
                                          ("Central Med", "Central Mediterranean"), ("Russia", "Russia")])
def test_europe_short_names_as_players_write_them(typed, space):
    assert EUROPE.board.space_names.get(typed) == space


@pytest.mark.parametrize("name", ["aa-revised", "aa-europe"])
def test_russia_is_the_ussr_where_a_power_is_named_and_the_territory_where_a_space_is(name):
    board = edition(name).board
    assert board.power_table.get("Russia") == "ussr" and board.space_names.get("Russia") == "Russia"


def test_a_numbered_sea_zone_on_europes_board_is_told_the_zones_have_names():
    message, allowed = EUROPE.board.space_names.unknown_message("SZ 14")
    assert message == "unknown space 'SZ 14': the sea zones of this board have names, not numbers"
    assert allowed.split(", ") == list(EUROPE.board.sea_zones)
    assert REVISED.board.space_names.get("SZ 14") == "SZ 14"  # Revised numbers its sea zones


MISSPELT = {"space": ["Karellia", "Wst Rusia", "Qqqq"], "power": ["Germny", "Soviets Union", "Xyz"],
            "unit type": ["infantery", "tnak", "zzz"], "development": ["jet fighter", "rockett", "qq"]}


@pytest.mark.parametrize("name", ["aa-revised", "aa-europe"])
def test_a_refused_name_always_gets_suggestions(name):
    ed = edition(name)
    tables = {"space": ed.board.space_names, "power": ed.board.power_table, "unit type": ed.units.unit_names,
              "development": ed.units.development_names}
    for kind, table in tables.items():
        for typed in MISSPELT[kind]:
            if table.get(typed) is None:
                message, _ = table.unknown_message(typed)
                said = "; did you mean '" if table.canonical else f": this game has no {kind}s"
                assert message.startswith(f"unknown {kind} {typed!r}{said}"), message


@pytest.mark.parametrize("name", ["aa-revised", "aa-europe"])
def test_every_space_and_power_the_map_writes_reads_in_orders(name):
    """What the map, its legend and the reports write for a space or a power is accepted in
    orders (issue 26). A sea zone's number is written inside the zone and read as `SZ n`."""
    from pbem.rulesets.axis_allies.reports.map_labels import make_labels
    ed = edition(name)
    for space, label in make_labels(ed.graphics, ed.board_data).items():
        written = f"SZ {label.text}" if label.text.isdigit() else label.text
        assert ed.board.space_names.get(written) == space, written
    for power, style in ed.graphics["style"]["powers"].items():
        assert ed.board.power_table.get(style["label"]) == power and ed.board.power_table.get(style["text"]) == power
