"""Checks of the Axis & Allies Europe data files against the rulebook (the seed) and its digest.

Reads only the project's own files with yaml and json, not through pbem's Board. The expected
numbers are copied here from the rulebook (starting incomes, the Middle East and convoy examples)
and, where the rulebook prints no map, from TripleA's europe_AAE.xml as the converter read it, so
a regenerated board that drifts from them fails loudly.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

DATA = Path(__file__).resolve().parents[1] / "pbem/rulesets/axis_allies/editions/europe"

TURN_ORDER = ["germany", "ussr", "uk", "usa"]
# Seed l.350-358 (digest §1.4): each power's starting income, "based on how many territories and
# convoys it controls".
STARTING_INCOME = {"germany": 40, "ussr": 24, "uk": 25, "usa": 40}
CAPITALS = {"Germany": "germany", "Moscow": "ussr", "United Kingdom": "uk", "United States": "usa"}
# Digest correction 8; the values match TripleA's file.
MIDDLE_EAST = {"Egypt": 1, "Palestine": 0, "Trans-Jordan": 2, "Syria": 1, "Iraq": 2, "Iran": 2}
SOVIET_RED = {"Moscow", "Russia", "Leningrad", "Archangel", "Karelia", "Belorussia", "Ukraine S.S.R.",
              "Stalingrad", "Caucasus", "Turkestan", "Siberia"}
SOVIET_PINK = {"East Poland", "Baltic States", "Vyborg", "Bessarabia"}
NEUTRALS = {"Eire", "Spain", "Spanish Morocco", "Sweden", "Switzerland", "Turkey", "Saudi Arabia"}
# Values and owners from TripleA's file; the seed prints only 4 British, 2 US, 1 Soviet (l.751).
CONVOYS = {
    "British Convoy 1": ("uk", 3), "British Convoy 2": ("uk", 3), "British Convoy 3": ("uk", 5),
    "British Convoy 4": ("uk", 5), "U.S. Convoy 1": ("usa", 4), "U.S. Convoy 2": ("usa", 6),
    "Soviet Convoy": ("ussr", 4),
}
# Names the seed uses (digest §7.2), each a space's name or one of its aliases.
SEED_NAMES = [
    "Germany", "Great Britain", "United Kingdom", "United States", "Canada", "Moscow", "Leningrad",
    "Stalingrad", "Archangel", "Belorussia", "East Poland", "Baltic States", "Poland", "Romania",
    "Norway", "Denmark", "France", "Greece", "Libya", "Egypt", "Trans-Jordan", "Syria", "Algeria",
    "Tunisia", "Sardinia", "Malta", "Gibraltar", "Turkey", "South Atlantic", "Central Atlantic",
    "Mid-Atlantic", "Azores Sea", "Celtic Sea", "Bay of Biscay", "English Channel", "North Sea",
    "Danish Sea", "Adriatic", "Central Mediterranean", "Eastern Mediterranean", "Sicilian Sea",
    "Tyrrhenian Sea", "Black Sea", "Aegean Sea", "U.S. Coast",
]
# Digest §7.3: borders the seed's worked examples rely on.
BORDERS = [
    ("Germany", "Poland"), ("South Atlantic", "Central Atlantic"), ("Poland", "Baltic States"),
    ("East Poland", "Baltic States"), ("East Poland", "Belorussia"), ("Belorussia", "Stalingrad"),
    ("United Kingdom", "Celtic Sea"), ("Bay of Biscay", "Celtic Sea"), ("English Channel", "United Kingdom"),
    ("Danish Sea", "North Sea"), ("North Sea", "Norway"), ("Adriatic Sea", "Central Mediterranean"),
    ("Central Mediterranean", "Libya"), ("Central Mediterranean", "Greece"),
    ("Central Mediterranean", "Eastern Mediterranean"), ("Malta", "Sicilian Sea"),
    ("Sicilian Sea", "Tyrrhenian Sea"), ("Tyrrhenian Sea", "Sardinia"), ("U.S. Eastern Coast", "Mid-Atlantic"),
    ("Danish Sea", "Germany"),
]
# Digest §7.3: (from, to, moves) with neutral land closed to every unit, as the examples count them.
DISTANCES = [
    ("Germany", "United Kingdom", 3),  # SBR example
    ("Celtic Sea", "Gibraltar", 3),  # a fighter: UK, Celtic Sea, then three moves to Gibraltar
    ("East Poland", "Stalingrad", 2),  # AA example, through Belorussia
    ("Davis Strait", "Celtic Sea", 2),  # transport example, from Canada's sea zone
    ("English Channel", "Denmark", 2),
    ("Egypt", "Trans-Jordan", 2),  # an armour's two moves
]


@cache
def load(name: str) -> Any:
    """Load one data file of the edition (cached: the files do not change during a test run)."""
    with open(DATA / name, encoding="utf-8") as f:
        return json.load(f) if name.endswith(".json") else yaml.safe_load(f)


def territories() -> dict[str, dict[str, Any]]:
    """board.yaml's land territories by name."""
    return {t["name"]: t for t in load("board.yaml")["territories"]}


def sea_zones() -> dict[str, dict[str, Any]]:
    """board.yaml's sea zones by name."""
    return {s["name"]: s for s in load("board.yaml")["sea_zones"]}


def spaces() -> dict[str, dict[str, Any]]:
    """Every space of the board by name, territories first."""
    return {**territories(), **sea_zones()}


def moves(start: str, goal: str) -> int | None:
    """Fewest moves from `start` to `goal` without entering neutral land, or None."""
    closed = {name for name, t in territories().items() if t["neutral"]}
    seen, queue = {start}, deque([(start, 0)])
    while queue:
        here, steps = queue.popleft()
        if here == goal:
            return steps
        for there in spaces()[here]["neighbours"]:
            if there not in seen and there not in closed:
                seen.add(there)
                queue.append((there, steps + 1))
    return None


def income(control: dict[str, str]) -> Counter:
    """Each power's income: its controlled territories and convoys, Middle East excluded (seed l.156)."""
    total = Counter()
    for name, holder in control.items():
        space = spaces()[name]
        if not space.get("middle_east"):
            total[holder] += space.get("ipc", 0)
    return total


def test_powers_play_in_the_seeds_order_germany_alone_against_the_allies():
    powers = load("board.yaml")["powers"]
    assert [p["id"] for p in powers] == TURN_ORDER
    assert {p["id"]: p["side"] for p in powers} == {
        "germany": "axis", "ussr": "allies", "uk": "allies", "usa": "allies"}


def test_starting_control_gives_the_seeds_starting_incomes():
    assert dict(income(load("setup.yaml")["control"])) == STARTING_INCOME


def test_starting_income_is_made_of_land_and_convoys():
    control = load("setup.yaml")["control"]
    convoys = Counter()
    for name, (owner, value) in CONVOYS.items():
        assert control[name] == owner
        convoys[owner] += value
    # USA: United States 30 + convoys 10; UK: United Kingdom 6 + Canada 3 + convoys 16;
    # USSR: land 20 + the Soviet convoy 4; Germany: land only (it never owns a convoy).
    assert dict(convoys) == {"uk": 16, "usa": 10, "ussr": 4}
    assert territories()["United States"]["ipc"] == 30


def test_treasury_starts_empty_because_the_cash_advance_is_a_rule():
    assert load("setup.yaml")["treasury"] == dict.fromkeys(TURN_ORDER, 0)


def test_capitals():
    assert {n: t["capital"] for n, t in territories().items() if "capital" in t} == CAPITALS


def test_no_victory_cities_in_the_1999_rules():
    assert not [n for n, t in territories().items() if "victory_city" in t]


def test_middle_east_countries_and_their_values_sum_to_eight():
    found = {n: t["ipc"] for n, t in territories().items() if t.get("middle_east")}
    assert found == MIDDLE_EAST
    assert sum(found.values()) == 8  # the 8 boxes of the Middle East track (seed l.841)


def test_middle_east_example_germany_holding_egypt_syria_trans_jordan_collects_four():
    # Seed l.849: the track goes from 1 (Egypt) to 4 after Syria and Trans-Jordan fall.
    assert sum(territories()[n]["ipc"] for n in ("Egypt", "Syria", "Trans-Jordan")) == 4


def test_red_and_pink_soviet_territories():
    colours = {n: t["soviet"] for n, t in territories().items() if "soviet" in t}
    assert {n for n, c in colours.items() if c == "red"} == SOVIET_RED
    assert {n for n, c in colours.items() if c == "pink"} == SOVIET_PINK
    assert all(territories()[n]["original_owner"] == "ussr" for n in colours)


def test_seven_convoy_centres_four_british_two_us_one_soviet():
    found = {n: (s["original_owner"], s["ipc"]) for n, s in sea_zones().items() if "ipc" in s}
    assert found == CONVOYS
    assert Counter(owner for owner, _ in found.values()) == {"uk": 4, "usa": 2, "ussr": 1}


def test_convoy_example_numbers_fit_the_map():
    """Seed l.767: US -4 from the Central Atlantic; UK -8 around the Azores Sea; UK +5 via Mid-Atlantic."""
    def convoys_next_to(zone: str, owner: str) -> set[int]:
        return {CONVOYS[n][1] for n in sea_zones()[zone]["neighbours"] if CONVOYS.get(n, ("",))[0] == owner}

    assert 4 in convoys_next_to("Central Atlantic", "usa")
    assert {5, 3} <= convoys_next_to("Azores Sea", "uk")
    assert 5 in convoys_next_to("Mid-Atlantic", "uk")
    assert any(n in CONVOYS for n in sea_zones()["South Atlantic"]["neighbours"])
    assert 4 in convoys_next_to("U.S. Eastern Coast", "usa")  # the US battleship's attack


def test_the_seven_neutrals_have_no_owner_value_or_units():
    neutral = {n for n, t in territories().items() if t["neutral"]}
    assert neutral == NEUTRALS
    assert all(territories()[n]["original_owner"] is None for n in neutral)
    setup = load("setup.yaml")
    assert not neutral & (set(setup["control"]) | set(setup["units"]))


def test_turkish_straits_closed_to_ships_open_to_aircraft():
    (strait,) = load("board.yaml")["straits"]
    assert strait == {"name": "Turkish Straits", "sea_zones": ["Aegean Sea", "Black Sea"],
                      "neutral": "Turkey", "ships": False, "aircraft": True}
    assert "Black Sea" in sea_zones()["Aegean Sea"]["neighbours"]
    assert territories()["Turkey"]["neutral"]
    assert load("board.yaml")["canals"] == []


def test_adjacency_is_symmetric_and_names_real_spaces():
    for name, space in spaces().items():
        for other in space["neighbours"]:
            assert name in spaces()[other]["neighbours"], f"{name} - {other} one way only"


def test_sea_zones_keep_triplea_names():
    assert sea_zones()["Baltic Sea"]["tripleA"] == "Baltic Sea Sea Zone"
    assert all(s["tripleA"] == f"{n} Sea Zone" for n, s in sea_zones().items())


@pytest.mark.parametrize("name", SEED_NAMES)
def test_names_the_seed_uses_are_spaces_or_aliases(name):
    aliases = {alias: space for space, spellings in load("aliases.yaml").items() for alias in spellings}
    assert name in spaces() or aliases.get(name) in spaces()


def test_aliases_name_existing_spaces_and_never_another_space():
    for space, spellings in load("aliases.yaml").items():
        assert space in spaces()
        assert not set(spellings) & set(spaces()), f"an alias of {space} is another space's name"


@pytest.mark.parametrize("a, b", BORDERS)
def test_borders_of_the_seeds_examples(a, b):
    assert b in spaces()[a]["neighbours"]


@pytest.mark.parametrize("start, goal, count", DISTANCES)
def test_distances_of_the_seeds_examples(start, goal, count):
    assert moves(start, goal) == count


def test_bomber_reaches_tunisia_from_the_united_kingdom_with_six_moves():
    # Seed l.1019 spends all six; TripleA's map has a five-move route (Celtic Sea, Azores Sea,
    # Strait of Gibraltar, Algeria), so only the reach is checked.
    assert moves("United Kingdom", "Tunisia") <= 6


def test_azores_sea_borders_only_sea_zones():
    # Seed l.1061: carrier fighters there have nowhere to land.
    assert all(n in sea_zones() for n in sea_zones()["Azores Sea"]["neighbours"])


def test_industrial_complexes_stand_where_the_seed_places_units():
    complexes = {n for n, by in load("setup.yaml")["units"].items()
                 if any(u.get("industrial_complex") for u in by.values())}
    # Germany, Moscow, Leningrad, Stalingrad, Archangel: seed l.813-905; the rest: TripleA's file.
    assert complexes == {"Germany", "Northern Italy", "Moscow", "Leningrad", "Stalingrad", "Archangel",
                         "United Kingdom", "Canada", "United States"}


def test_every_space_has_a_polygon_and_a_centre():
    drawn = load("graphics.json")["spaces"]
    assert set(drawn) == set(spaces())
    for name, space in drawn.items():
        assert space["polygons"] and all(len(ring) >= 3 for ring in space["polygons"]), name
        assert len(space["centre"]) == 2, name


def test_the_europe_board_does_not_wrap():
    assert load("graphics.json")["board"]["wrap_x"] is False
