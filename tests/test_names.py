"""The short names players type for spaces: a curated list that never guesses between two places."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.rulesets.axis_allies.board import Board
from pbem.rulesets.axis_allies.names import normalise
from pbem.rulesets.axis_allies import edition

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
