"""Map queries, the unit table and name lookup of Axis & Allies Revised."""

from __future__ import annotations

from pbem.rulesets.axis_allies.names import normalise
from pbem.rulesets.axis_allies.edition import edition

REVISED = edition("aa-revised")


def test_spaces_and_adjacency_are_symmetric():
    b = REVISED.board
    assert len(b.territories) == 79 and len(b.sea_zones) == 64
    for space, neighbours in b.neighbours.items():
        for n in neighbours:
            assert space in b.neighbours[n], f"{space} -> {n} is one-way"


def test_canals():
    b = REVISED.board
    suez = b.canal_between("SZ 15", "SZ 34")
    panama = b.canal_between("SZ 20", "SZ 19")
    assert suez and suez.territories == ("Anglo-Egypt", "Trans-Jordan")
    assert panama and panama.territories == ("Panama",)
    assert b.canal_between("SZ 14", "SZ 15") is None
    control = {"Anglo-Egypt": "uk", "Trans-Jordan": "usa", "Panama": "usa"}
    assert b.canal_open(suez, "allies", control) and not b.canal_open(suez, "axis", control)
    control["Trans-Jordan"] = "germany"
    assert not b.canal_open(suez, "allies", control) and not b.canal_open(suez, "axis", control)


def test_neutrals_capitals_and_victory_cities():
    b = REVISED.board
    assert all(b.is_neutral(t) for t in ("Turkey", "Mongolia", "Sahara", "Switzerland"))
    assert b.capitals == {"usa": "Eastern United States", "germany": "Germany", "japan": "Japan",
                          "ussr": "Russia", "uk": "United Kingdom"}
    assert sum(1 for t in b.territories.values() if t.victory_city) == 12
    assert b.ipc("India") == 3 and b.ipc("Gibraltar") == 0


def test_sides():
    b = REVISED.board
    assert b.powers == ("ussr", "germany", "uk", "japan", "usa")
    assert b.friendly("uk", "usa") and b.enemies("germany", "ussr") and not b.enemies("japan", "germany")


def test_distances_respect_what_may_be_entered():
    b = REVISED.board
    air = b.distances("Germany", lambda a, n: not b.is_neutral(n), 3)
    assert air["United Kingdom"] == 3 and "Switzerland" not in air


def test_unit_table():
    t = REVISED.units
    assert list(t.types) == ["infantry", "artillery", "tank", "aa_gun", "industrial_complex", "fighter", "bomber",
                             "battleship", "destroyer", "carrier", "transport", "submarine"]
    assert t.movement("fighter") == 4 and t.movement("fighter", ["long_range_aircraft"]) == 6
    assert t.movement("bomber", ["long_range_aircraft"]) == 8 and t.movement("tank", ["long_range_aircraft"]) == 2
    assert t.cost({"infantry": 2, "battleship": 1}) == 30
    assert [d.number for d in t.developments.values()] == [1, 2, 3, 4, 5, 6]


def test_names_and_suggestions():
    assert normalise("Sea Zone 07") == "sz7" and normalise("sz 7") == "sz7" and normalise("7 Sea Zone") == "sz7"
    b, t = REVISED.board, REVISED.units
    assert b.space_names.suggest("Karelia")[0] == "Karelia S.S.R."
    assert b.power_table.get("Soviet Union") == "ussr" and b.power_table.get("US") == "usa"
    assert t.unit_names.suggest("infantery")[0] == "infantry"
    assert t.development_names.get("Long-Range Aircraft") == "long_range_aircraft"
    assert t.development_names.get("super subs") == "super_submarines"
    message, _ = t.unit_names.unknown_message("tnak")
    assert "did you mean 'tank'" in message
