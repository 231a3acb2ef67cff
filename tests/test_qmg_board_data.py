"""Checks on the Quartermaster General board content file.

The board is data, not code: these tests load the YAML directly and check that it
is well formed and that its sources say honestly where each fact comes from. The
rulebook's worked examples, the strait example and the supply example are played
on it by the engine in the catalogue (tests/catalogue/qmg: 52, 53, 54, 55).
"""

from collections import deque
from pathlib import Path

import pytest
import yaml

BOARD = Path(__file__).resolve().parent.parent / "pbem/rulesets/qmg/content/board.yaml"

HOMES = {"germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states"}


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
