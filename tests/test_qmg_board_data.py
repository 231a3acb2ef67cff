"""Checks on the Quartermaster General board content file.

The board is data, not code: these tests load the YAML directly and check that it
is well formed, that its sources say honestly where each fact comes from, and
that the positions in the rulebook's worked examples (seed l.490-500,
l.1070-1228, the strait example l.340-349) play out as the seed says they do.
"""

from collections import deque
from pathlib import Path

import pytest
import yaml

BOARD = Path(__file__).resolve().parent.parent / "pbem/rulesets/qmg/content/board.yaml"

HOMES = {"germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states"}
AXIS = {"germany", "italy", "japan"}


@pytest.fixture(scope="module")
def board():
    with BOARD.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


@pytest.fixture(scope="module")
def spaces(board):
    return {s["name"]: s for s in board["spaces"]}


@pytest.fixture(scope="module")
def adjacency(board):
    adj = {s["name"]: set() for s in board["spaces"]}
    for pair in board["adjacent"]:
        a, b = pair["between"]
        adj[a].add(b)
        adj[b].add(a)
    return adj


def team_adjacency(board, adjacency, armies):
    """Adjacency for each team, given armies as {space: set of countries}.

    A strait joins its two seas for the Axis when an Axis army is on the
    anchor, otherwise for the Allies (seed l.326-339)."""
    result = {}
    for team in ("axis", "allies"):
        adj = {k: set(v) for k, v in adjacency.items()}
        for strait in board["straits"]:
            axis_holds = bool(armies.get(strait["anchor"], set()) & AXIS)
            if axis_holds == (team == "axis"):
                a, b = strait["seas"]
                adj[a].add(b)
                adj[b].add(a)
        result[team] = adj
    return result


def supplied(spaces, adj, country, armies, navies, friends):
    """Spaces of `country`'s pieces that are supplied (seed l.440-463).

    armies/navies: {space: set of countries}; friends: the countries of the
    country's team (any of their armies is a port)."""
    own = {s for s, cs in armies.items() if country in cs}
    own |= {s for s, cs in navies.items() if country in cs}
    sources = [s for s, cs in armies.items() if country in cs and spaces[s].get("star")]
    reach = set(sources)
    queue = deque(sources)
    while queue:
        here = queue.popleft()
        for nxt in adj[here]:
            if nxt in own and nxt not in reach:
                reach.add(nxt)
                queue.append(nxt)
    ok = set()
    for s in reach:
        if country in navies.get(s, set()):
            if not any(armies.get(n, set()) & friends for n in adj[s]):
                continue
        ok.add(s)
    return ok


def can_target(adj, space, supplied_spaces):
    """A battle or build on `space` needs an adjacent supplied own piece."""
    return bool(adj[space] & supplied_spaces)


# --------------------------------------------------------------- form


def test_format_key(board):
    assert board["format"] == "qmg-board/1"


def test_space_fields(board, spaces):
    assert len(spaces) == len(board["spaces"]), "space names must be unique"
    for s in board["spaces"]:
        assert s["kind"] in {"land", "sea"}, s["name"]
        assert s["czech"], s["name"]
        lon, lat = s["at"]
        assert -180 <= lon <= 180 and -90 <= lat <= 90, s["name"]
        if "star" in s:
            assert s["star"] is True, f"{s['name']}: omit star when false"
            assert s["kind"] == "land", f"{s['name']}: only land spaces carry stars"
            assert "star_source" in s, s["name"]
        else:
            assert "star_source" not in s, s["name"]


def test_sources_are_seed_lines_or_reconstructed(board):
    entries = list(board["spaces"]) + board["adjacent"] + board["not_adjacent"] + board["straits"]
    for e in entries:
        keys = ["source"] + (["star_source"] if "star_source" in e else [])
        for key in keys:
            value = e[key]
            assert value == "reconstructed" or value.startswith("seed l."), (e, key)


def test_names_exist(board, spaces):
    for section in ("adjacent", "not_adjacent"):
        for pair in board[section]:
            assert len(pair["between"]) == 2
            for name in pair["between"]:
                assert name in spaces, (section, name)
    for strait in board["straits"]:
        assert strait["anchor"] in spaces
        for name in strait["seas"]:
            assert name in spaces


def test_no_self_loops_or_repeats(board):
    seen = set()
    for section in ("adjacent", "not_adjacent"):
        for pair in board[section]:
            a, b = pair["between"]
            assert a != b, pair
            key = frozenset((a, b))
            assert key not in seen, f"{a} / {b} listed twice"
            seen.add(key)


def test_not_adjacent_pairs_are_printed(board):
    pairs = {frozenset(p["between"]): p for p in board["not_adjacent"]}
    assert frozenset(("Balkans", "Middle East")) in pairs
    assert frozenset(("Black Sea", "Mediterranean")) in pairs
    for p in pairs.values():
        assert p["source"].startswith("seed l."), "not_adjacent holds only printed facts"


def test_straits(board, spaces, adjacency):
    assert board["straits"], "the seed prints the North Africa strait"
    for strait in board["straits"]:
        assert spaces[strait["anchor"]]["kind"] == "land"
        a, b = strait["seas"]
        assert spaces[a]["kind"] == "sea" and spaces[b]["kind"] == "sea"
        assert b not in adjacency[a], "a strait's seas must not also be directly adjacent"
    north_africa = [s for s in board["straits"] if s["anchor"] == "North Africa"]
    assert len(north_africa) == 1
    assert set(north_africa[0]["seas"]) == {"North Sea", "Mediterranean"}
    assert north_africa[0]["source"].startswith("seed l.")


def test_six_home_spaces(board):
    homes = [s for s in board["spaces"] if "home" in s]
    assert {s["home"] for s in homes} == HOMES
    assert len(homes) == 6
    for s in homes:
        assert s.get("star") is True and s["kind"] == "land", s["name"]
    by_home = {s["home"]: s["name"] for s in homes}
    assert by_home["soviet_union"] == "Moscow"
    assert by_home["united_states"] == "Eastern United States"


def test_stars(spaces):
    stars = {n for n, s in spaces.items() if s.get("star")}
    assert {"Western United States", "Australia"} <= stars
    assert 15 <= len(stars) <= 20


def test_connected(spaces, adjacency):
    start = next(iter(spaces))
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in adjacency[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    assert seen == set(spaces), sorted(set(spaces) - seen)


def test_wrap_pairs(board):
    wraps = [p for p in board["adjacent"] if p.get("across_edge")]
    assert wraps
    for p in board["adjacent"]:
        if "across_edge" in p:
            assert p["across_edge"] is True
    assert frozenset(("East Pacific", "Western United States")) in {
        frozenset(p["between"]) for p in wraps
    }


# ------------------------------------------- facts the seed prints or needs


def test_touching_at_a_point_is_not_adjacent(adjacency):
    assert "Middle East" not in adjacency["Balkans"]
    assert "Mediterranean" not in adjacency["Black Sea"]


def test_example_1_germany(spaces, adjacency):
    """Seed l.1070-1158: Germany battles Ukraine, then Russia, builds there;
    Rasputica removes that army because Russia borders Moscow."""
    armies = {"Balkans": {"germany"}, "Eastern Europe": {"germany"}, "Germany": {"germany"},
              "Ukraine": {"soviet_union"}, "Russia": {"soviet_union"}, "Moscow": {"soviet_union"}}
    german = supplied(spaces, adjacency, "germany", armies, {}, AXIS)
    assert german == {"Balkans", "Eastern Europe", "Germany"}
    assert can_target(adjacency, "Ukraine", german)
    # Dive Bombers: another battle on the same or an adjacent space
    assert "Russia" in adjacency["Ukraine"]
    assert can_target(adjacency, "Russia", german)
    # Blitzkrieg builds on Russia once the Soviet army there is gone
    del armies["Russia"]
    armies["Russia"] = {"germany"}
    assert "Russia" in supplied(spaces, adjacency, "germany", armies, {}, AXIS)
    # Rasputica: an Axis army built in Moscow or a space adjacent to Moscow
    assert "Moscow" in adjacency["Russia"]


def test_example_2_japan(spaces, adjacency):
    """Seed l.1160-1228: Japan battles the Bay of Bengal, the South China Sea
    and India, and builds in India next to the Bay of Bengal."""
    allies = {"united_kingdom", "soviet_union", "united_states"}
    armies = {"Japan": {"japan"}, "China": {"japan"}, "Southeast Asia": {"japan"},
              "Australia": {"united_kingdom"}, "India": {"united_kingdom"}}
    navies = {"Sea of Japan": {"japan"}, "South China Sea": {"united_kingdom"},
              "Bay of Bengal": {"united_kingdom"}}
    japanese = supplied(spaces, adjacency, "japan", armies, navies, AXIS)
    assert japanese == {"Japan", "China", "Southeast Asia", "Sea of Japan"}
    # Destroyers protects a *supplied* UK navy in the Bay of Bengal
    british = supplied(spaces, adjacency, "united_kingdom", armies, navies, allies)
    assert "Bay of Bengal" in british
    for target in ("Bay of Bengal", "South China Sea", "India"):
        assert can_target(adjacency, target, japanese), target
    # Destroyer support builds on spaces adjacent to the battle's space
    assert "India" in adjacency["Bay of Bengal"]
    del navies["South China Sea"]
    armies["India"] = {"japan"}
    assert "India" in supplied(spaces, adjacency, "japan", armies, navies, AXIS)


def test_supply_example_pacific(spaces, adjacency):
    """Seed l.490-500: no US navy may be built in the Central Pacific until a
    friendly army gives it a port on Hawaii, New Guinea or the Philippines."""
    allies = {"united_kingdom", "soviet_union", "united_states"}
    armies = {"Western United States": {"united_states"}, "Australia": {"united_kingdom"}}
    navies = {"East Pacific": {"united_states"}, "South China Sea": {"united_kingdom"}}
    american = supplied(spaces, adjacency, "united_states", armies, navies, allies)
    assert american == {"Western United States", "East Pacific"}
    british = supplied(spaces, adjacency, "united_kingdom", armies, navies, allies)
    assert british == {"Australia", "South China Sea"}

    def us_navy_in_central_pacific(armies):
        trial = dict(navies, **{"Central Pacific": {"united_states"}})
        us = supplied(spaces, adjacency, "united_states", armies, navies, allies)
        return (can_target(adjacency, "Central Pacific", us)
                and "Central Pacific" in supplied(spaces, adjacency, "united_states",
                                                  armies, trial, allies))

    assert not us_navy_in_central_pacific(armies)
    assert {"Hawaii", "New Guinea", "Philippines"} <= adjacency["Central Pacific"]

    # one round: a US army on Hawaii; the next: the navy
    assert can_target(adjacency, "Hawaii", american)
    with_hawaii = dict(armies, Hawaii={"united_states"})
    assert "Hawaii" in supplied(spaces, adjacency, "united_states", with_hawaii, navies, allies)
    assert us_navy_in_central_pacific(with_hawaii)

    # or the UK builds an army on New Guinea or the Philippines
    for island in ("New Guinea", "Philippines"):
        assert can_target(adjacency, island, british), island
        with_uk = dict(armies, **{island: {"united_kingdom"}})
        assert island in supplied(spaces, adjacency, "united_kingdom", with_uk, navies, allies)
        assert us_navy_in_central_pacific(with_uk), island


def test_strait_example(board, spaces, adjacency):
    """Seed l.340-349: with a German army in North Africa the UK navy in the
    North Sea cannot battle the Mediterranean, and the Italian navy there can
    battle the North Sea; without it the strait is the Allies'."""
    assert "Mediterranean" not in adjacency["North Sea"]
    armies = {"North Africa": {"germany"}, "Italy": {"italy"}, "Germany": {"germany"},
              "United Kingdom": {"united_kingdom"}}
    navies = {"Mediterranean": {"germany", "italy"}, "North Sea": {"united_kingdom"}}
    allies = {"united_kingdom", "soviet_union", "united_states"}
    adj = team_adjacency(board, adjacency, armies)
    assert "North Sea" in supplied(spaces, adj["allies"], "united_kingdom", armies, navies, allies)
    italian = supplied(spaces, adj["axis"], "italy", armies, navies, AXIS)
    assert "Mediterranean" in italian
    assert can_target(adj["axis"], "North Sea", italian)
    assert "Mediterranean" not in adj["allies"]["North Sea"]

    del armies["North Africa"]
    adj = team_adjacency(board, adjacency, armies)
    assert "Mediterranean" in adj["allies"]["North Sea"]
    assert "North Sea" not in adj["axis"]["Mediterranean"]
