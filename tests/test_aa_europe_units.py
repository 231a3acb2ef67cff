"""Checks of Axis & Allies Europe's unit table against the numbers the Czech rulebook prints.

Reads only editions/europe/units.yaml (yaml.safe_load), so it holds before the engine reads Europe.
The expected numbers are copied from the rulebook's unit profiles (seed 000, l.857-1159).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

DATA = Path(__file__).resolve().parents[1] / "pbem/rulesets/axis_allies/editions"

# id: (cost, attack, defense, movement, rulebook lines); cost None = cannot be bought
PRINTED = {
    "infantry": (3, 1, 2, 1, "l.913-919"),
    "artillery": (4, 2, 2, 1, "l.953-959"),
    "tank": (5, 3, 2, 2, "l.925-931"),
    "aa_gun": (5, 0, 1, 1, "l.859-865"),
    "industrial_complex": (None, 0, 0, 0, "l.891-897"),
    "fighter": (12, 3, 4, 4, "l.991-997"),
    "bomber": (25, 4, 1, 6, "l.977-983"),
    "carrier": (18, 1, 3, 2, "l.1029-1035"),
    "battleship": (24, 4, 4, 2, "l.1065-1071"),
    "submarine": (8, 2, 2, 2, "l.1081-1087"),
    "destroyer": (12, 3, 3, 2, "l.1135-1141"),
    "transport": (8, 0, 1, 2, "l.1151-1157"),
}


@cache
def units(edition: str) -> dict[str, dict[str, Any]]:
    """The unit table of an edition, by unit id."""
    with open(DATA / edition / "units.yaml", encoding="utf-8") as f:
        return {u["id"]: u for u in yaml.safe_load(f)["units"]}


def test_same_units_and_fields_as_revised() -> None:
    """One reader serves both editions: Europe has Revised's units in its order and every field
    Revised gives a unit (the complex, which cannot be bought, has no cost), plus only `buyable`
    and the report fields main added to Revised's file."""
    europe, revised = units("europe"), units("revised")
    assert list(europe) == list(revised)
    for uid, unit in europe.items():
        missing = set(revised[uid]) - set(unit) - ({"cost"} if uid == "industrial_complex" else set())
        assert not missing, f"{uid}: fields Revised has and Europe lacks: {missing}"
        extra = set(unit) - set(revised[uid]) - {"buyable", "words", "label", "battle_board"}
        assert not extra, f"{uid}: fields no reader knows: {extra}"


@pytest.mark.parametrize("uid", PRINTED)
def test_printed_values(uid: str) -> None:
    cost, attack, defense, movement, _ = PRINTED[uid]
    unit = units("europe")[uid]
    assert (unit.get("cost"), unit["attack"], unit["defense"], unit["movement"]) == (cost, attack, defense, movement)


def test_industrial_complex_cannot_be_bought() -> None:
    table = units("europe")
    assert table["industrial_complex"]["buyable"] is False
    assert [uid for uid, u in table.items() if u.get("buyable", True) is False] == ["industrial_complex"]


def _loads(sizes: dict[str, int], capacity: int) -> set[tuple[str, ...]]:
    """Every full-or-partial load (as sorted unit ids) that fits in `capacity` points."""
    found: set[tuple[str, ...]] = set()

    def extend(load: tuple[str, ...], room: int) -> None:
        found.add(load)
        for uid, size in sizes.items():
            if size <= room and (not load or uid >= load[-1]):
                extend(load + (uid,), room - size)
    extend((), capacity)
    return found


def test_transport_carries_one_tank_or_two_other_land_units() -> None:
    """l.1159, l.1161: 'either one armor or two other land units (AA guns included)'."""
    table = units("europe")
    sizes = {uid: u["transport_size"] for uid, u in table.items() if "transport_size" in u}
    assert set(sizes) == {"infantry", "artillery", "tank", "aa_gun"}
    small = ("aa_gun", "artillery", "infantry")
    expected = {(), ("tank",)} | {(a,) for a in small} | {tuple(sorted((a, b))) for a in small for b in small}
    assert _loads(sizes, table["transport"]["capacity"]) == expected


def test_carrier_takes_two_fighters_and_nothing_else() -> None:
    table = units("europe")
    assert table["carrier"]["capacity"] == 2
    assert [uid for uid, u in table.items() if "carrier_size" in u] == ["fighter"]
    assert table["fighter"]["carrier_size"] == 1


def test_battleship_takes_two_hits() -> None:
    assert {uid: u["hits"] for uid, u in units("europe").items() if u["hits"] != 1} == {"battleship": 2}


def test_armor_names() -> None:
    """The rulebook calls the tank 'armor' (l.199, l.1235); orders may use either spelling."""
    aliases = units("europe")["tank"]["aliases"]
    assert {"armor", "armour"} <= set(aliases)
