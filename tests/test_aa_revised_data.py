"""Checks of the Axis & Allies Revised data files against the rulebook and the rules digest.

Reads only the project's own files (board.yaml, setup.yaml, units.yaml). The expected numbers are
copied here from the rulebook and from the digest's Appendix E, so a regenerated board that drifts
from them fails loudly.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

DATA = Path(__file__).resolve().parents[1] / "pbem/rulesets/axis_allies/editions/revised"

TURN_ORDER = ["ussr", "germany", "uk", "japan", "usa"]
TURN_ORDER_TUPLE = tuple(TURN_ORDER)
SIDES = {"ussr": "allies", "germany": "axis", "uk": "allies", "japan": "axis", "usa": "allies"}
UNIT_ORDER = ["infantry", "artillery", "tank", "aa_gun", "industrial_complex", "fighter", "bomber",
              "battleship", "destroyer", "carrier", "transport", "submarine"]
STARTING_IPCS = {"ussr": 24, "germany": 40, "uk": 30, "japan": 30, "usa": 42}
CAPITALS = {"Eastern United States": "usa", "Russia": "ussr", "United Kingdom": "uk",
            "Germany": "germany", "Japan": "japan"}
VICTORY_CITIES = {
    "Eastern United States": "Washington", "Western United States": "Los Angeles",
    "United Kingdom": "London", "Karelia S.S.R.": "Leningrad", "Russia": "Moscow",
    "India": "Calcutta", "Germany": "Berlin", "Western Europe": "Paris", "Southern Europe": "Rome",
    "Kwantung": "Shanghai", "Philippine Islands": "Manila", "Japan": "Tokyo",
}

# Digest Appendix E.4, columns in unit-table order:
#           inf art tank aa  ic ftr bmb  bb  dd  cv trn sub
E4_TOTALS = {
    "ussr":    [24, 2, 4, 2, 2, 2, 0, 0, 0, 0, 0, 1],
    "germany": [25, 4, 10, 3, 2, 6, 1, 1, 1, 0, 2, 3],
    "uk":      [14, 1, 3, 2, 1, 4, 1, 2, 2, 1, 4, 1],
    "japan":   [21, 1, 1, 1, 1, 6, 1, 2, 1, 2, 2, 1],
    "usa":     [14, 1, 1, 2, 2, 5, 1, 1, 2, 1, 3, 1],
}

# Digest §3.1 (rulebook unit table): cost, attack, defense, movement.
UNIT_TABLE = {
    "infantry": (3, 1, 2, 1), "artillery": (4, 2, 2, 1), "tank": (5, 3, 3, 2),
    "aa_gun": (5, 0, 1, 1), "industrial_complex": (15, 0, 0, 0), "fighter": (10, 3, 4, 4),
    "bomber": (15, 4, 1, 6), "battleship": (24, 4, 4, 2), "destroyer": (12, 3, 3, 2),
    "carrier": (16, 1, 3, 2), "transport": (8, 0, 1, 2), "submarine": (8, 2, 2, 2),
}


@cache
def load(name: str) -> Any:
    """Load one data file of the ruleset (cached: the files do not change during a test run)."""
    with open(DATA / name, encoding="utf-8") as f:
        return yaml.safe_load(f)


def board() -> dict[str, Any]:
    """board.yaml."""
    return load("board.yaml")


def setup() -> dict[str, Any]:
    """setup.yaml."""
    return load("setup.yaml")


def territories() -> dict[str, dict[str, Any]]:
    """Land territories by name."""
    return {t["name"]: t for t in board()["territories"]}


def spaces() -> dict[str, dict[str, Any]]:
    """All spaces (land and sea) by name."""
    return territories() | {s["name"]: s for s in board()["sea_zones"]}


def natural_key(name: str) -> list[Any]:
    """Sort key with numbers compared as numbers (SZ 9 before SZ 10), as the converter sorts."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def test_powers_in_turn_order_with_sides() -> None:
    powers = board()["powers"]
    assert [p["id"] for p in powers] == TURN_ORDER
    assert {p["id"]: p["side"] for p in powers} == SIDES


def test_counts() -> None:
    lands = territories()
    assert len(lands) == 79
    assert sum(t["neutral"] for t in lands.values()) == 16
    assert len(board()["sea_zones"]) == 64
    assert [s["number"] for s in board()["sea_zones"]] == list(range(1, 65))
    assert all(s["name"] == f"SZ {s['number']}" for s in board()["sea_zones"])


def test_territories_sorted_by_name() -> None:
    names = [t["name"] for t in board()["territories"]]
    assert names == sorted(names)


def test_display_names_from_architecture() -> None:
    lands = territories()
    for name, triplea in [("Anglo-Egypt", "Anglo Egypt"), ("Philippine Islands", "Philipine Islands"),
                          ("Rio de Oro", "Rio De Oro")]:
        assert lands[name]["tripleA"] == triplea
    assert "Karelia S.S.R." in lands
    assert all("tripleA" not in t for n, t in lands.items()
               if n not in {"Anglo-Egypt", "Philippine Islands", "Rio de Oro"})


def test_starting_incomes() -> None:
    income = Counter()
    for t in board()["territories"]:
        if t["original_owner"]:
            income[t["original_owner"]] += t["ipc"]
    assert dict(income) == STARTING_IPCS
    assert setup()["treasury"] == STARTING_IPCS
    assert list(setup()["treasury"]) == TURN_ORDER


def test_known_ipc_values() -> None:
    assert territories()["India"]["ipc"] == 3
    assert territories()["Gibraltar"]["ipc"] == 0


def test_capitals() -> None:
    capitals = {t["name"]: t["capital"] for t in board()["territories"] if "capital" in t}
    assert capitals == CAPITALS


def test_victory_cities_split_six_six() -> None:
    cities = {t["name"]: t["victory_city"] for t in board()["territories"] if "victory_city" in t}
    assert cities == VICTORY_CITIES
    by_side = Counter(SIDES[setup()["control"][name]] for name in cities)
    assert by_side == {"allies": 6, "axis": 6}


def test_canals() -> None:
    assert board()["canals"] == [
        {"name": "Suez", "sea_zones": ["SZ 15", "SZ 34"], "territories": ["Anglo-Egypt", "Trans-Jordan"]},
        {"name": "Panama", "sea_zones": ["SZ 19", "SZ 20"], "territories": ["Panama"]},
    ]


def test_neighbours_exist_are_sorted_and_symmetric() -> None:
    everything = spaces()
    for name, space in everything.items():
        assert space["neighbours"] == sorted(space["neighbours"], key=natural_key), name
        assert len(set(space["neighbours"])) == len(space["neighbours"]), name
        assert name not in space["neighbours"]
        for other in space["neighbours"]:
            assert other in everything, f"{name} borders unknown {other}"
            assert name in everything[other]["neighbours"], f"{name} -> {other} is one-way"


def test_connection_count_matches_digest() -> None:
    """Appendix E counts 349 connections, including Western Canada - SZ 63 (missing from ww2v2.xml)."""
    assert sum(len(s["neighbours"]) for s in spaces().values()) == 2 * 349
    assert "SZ 63" in territories()["Western Canada"]["neighbours"]


def test_sea_zones_border_sea_zones_and_land_only_by_coast() -> None:
    lands = territories()
    for sz in board()["sea_zones"]:
        assert sz["neighbours"], sz["name"]
    for name in ["Russia", "Switzerland", "Sahara", "Central United States"]:  # landlocked
        assert all(n in lands for n in lands[name]["neighbours"]), name


def test_islands_have_no_land_neighbours() -> None:
    lands = territories()
    for name, t in lands.items():
        assert t["island"] == all(n not in lands for n in t["neighbours"]), name
    assert lands["Japan"]["island"] and lands["Australia"]["island"]
    assert not lands["United Kingdom"]["island"]  # borders Eire


def test_neutral_territories() -> None:
    for name, t in territories().items():
        if t["neutral"]:
            assert t["original_owner"] is None and t["ipc"] == 0, name
            assert "capital" not in t and "victory_city" not in t, name
    neutral = {n for n, t in territories().items() if t["neutral"]}
    assert {"Turkey", "Mongolia", "Sahara"} <= neutral
    assert not neutral & set(setup()["control"])
    assert not neutral & set(setup()["units"])


def test_control_is_every_non_neutral_territory_at_start() -> None:
    control = setup()["control"]
    expected = {t["name"]: t["original_owner"] for t in board()["territories"] if not t["neutral"]}
    assert control == expected
    assert list(control) == sorted(control)
    assert len(control) == 63


def test_units_in_canonical_order() -> None:
    board_order = [t["name"] for t in board()["territories"]] + [s["name"] for s in board()["sea_zones"]]
    units = setup()["units"]
    assert list(units) == [s for s in board_order if s in units]
    for space, by_power in units.items():
        assert list(by_power) == [p for p in TURN_ORDER if p in by_power], space
        for power, have in by_power.items():
            assert list(have) == [u for u in UNIT_ORDER if u in have], (space, power)
            assert all(isinstance(n, int) and n > 0 for n in have.values()), (space, power)


def test_units_stand_where_they_can() -> None:
    """Land units only on land, sea units only at sea, fighters at sea only aboard carriers."""
    kind = {u["id"]: u["class"] for u in load("units.yaml")["units"]}
    lands = territories()
    for space, by_power in setup()["units"].items():
        for power, have in by_power.items():
            classes = {kind[u] for u in have}
            assert classes <= ({"land", "building", "air"} if space in lands else {"sea", "air"}), space
            if space in lands:  # units on land belong to its controller at start
                assert setup()["control"][space] == power, space
        if space not in lands:
            fighters = sum(h.get("fighter", 0) for h in by_power.values())
            carriers = sum(h.get("carrier", 0) for h in by_power.values())
            assert "bomber" not in {u for h in by_power.values() for u in h}, space
            assert fighters <= 2 * carriers, space


def test_unit_totals_match_appendix_e4() -> None:
    totals = {p: Counter() for p in TURN_ORDER}
    for by_power in setup()["units"].values():
        for power, have in by_power.items():
            totals[power].update(have)
    assert {p: [totals[p][u] for u in UNIT_ORDER] for p in TURN_ORDER} == E4_TOTALS


def test_no_cargo_at_start() -> None:
    assert setup()["cargo"] == {}
    assert list(setup()) == ["treasury", "control", "units", "cargo"]


def test_unit_table() -> None:
    units = load("units.yaml")["units"]
    assert [u["id"] for u in units] == UNIT_ORDER
    for u in units:
        assert (u["cost"], u["attack"], u["defense"], u["movement"]) == UNIT_TABLE[u["id"]], u["id"]
        assert u["hits"] == (2 if u["id"] == "battleship" else 1)
        assert u["can_capture"] == (u["id"] in {"infantry", "artillery", "tank"})
    by_id = {u["id"]: u for u in units}
    assert {i: u["transport_size"] for i, u in by_id.items() if "transport_size" in u} == {
        "infantry": 2, "artillery": 3, "tank": 3, "aa_gun": 3}
    assert {i: u["carrier_size"] for i, u in by_id.items() if "carrier_size" in u} == {"fighter": 1}
    assert {i: u["capacity"] for i, u in by_id.items() if "capacity" in u} == {"transport": 5, "carrier": 2}
    assert {u["class"] for u in units} == {"land", "air", "sea", "building"}


@pytest.mark.parametrize("alias,unit", [
    ("armour", "tank"), ("armor", "tank"), ("tanks", "tank"), ("aa", "aa_gun"), ("aa gun", "aa_gun"),
    ("ic", "industrial_complex"), ("factory", "industrial_complex"), ("bb", "battleship"),
    ("dd", "destroyer"), ("sub", "submarine"), ("cv", "carrier"), ("ftr", "fighter"),
    ("bmb", "bomber"), ("trn", "transport"), ("inf", "infantry"), ("arty", "artillery"),
])
def test_unit_aliases(alias: str, unit: str) -> None:
    owner = {a: u["id"] for u in load("units.yaml")["units"] for a in u["aliases"]}
    assert owner[alias] == unit


def test_aliases_are_unambiguous() -> None:
    units = load("units.yaml")["units"]
    seen = [u["id"] for u in units] + [a for u in units for a in u["aliases"]]
    assert len(seen) == len(set(seen))
    assert all(a == a.lower() for a in seen)


def test_the_battle_engine_uses_the_unit_table_and_the_board() -> None:
    # The battle numbers, turn order and sides come from the edition's data; where each unit type
    # fights is the family's, and must agree with the unit table.
    from pbem.rulesets.axis_allies.edition import edition
    from pbem.rulesets.axis_allies.combat.battle import KINDS

    revised = edition("aa-revised")
    rules, table = revised.combat, revised.units
    assert list(rules.units) == UNIT_ORDER  # same types, same (rolling) order
    for unit, profile in rules.units.items():
        assert (profile.cost, profile.attack, profile.defence) == UNIT_TABLE[unit][:3], unit
        row = table[unit]
        assert KINDS[unit] == (row.cls if row.battle_board else "static"), unit
    assert rules.turn_order == TURN_ORDER_TUPLE
    assert dict(rules.side_of) == {p["id"]: p["side"] for p in board()["powers"]}
    assert rules.cargo == {"transport": {"infantry", "artillery", "tank", "aa_gun"}, "carrier": {"fighter"}}
