"""Tests of the map image (pbem/rulesets/axis_allies/reports/map_*.py).

Renders the opening position (setup.yaml on board.yaml, drawn with graphics.json) and reads the PNG
back: image size, colours sampled around label centres, byte-identical re-rendering, theatre crops,
and the drawing of this turn's moves and battles. Reads only the project's own files.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from matplotlib.colors import to_rgb
from matplotlib.image import imread
from matplotlib.path import Path as MplPath
from PIL import Image

from pbem.core.cache import UNUSED_DAYS
from pbem.render.palette import palette_image
from pbem.rulesets import get_ruleset
from pbem.rulesets.axis_allies.reports.map_image import draw_map, forget_drawings
from pbem.rulesets.axis_allies.reports.map_info import MapInfo
from pbem.rulesets.axis_allies.reports.map_labels import layout, make_labels
from pbem.rulesets.axis_allies.reports.map_moves import move_polyline
from pbem.rulesets.axis_allies.reports.map_stacks import unit_stack_lines, unit_stack_words
from pbem.rulesets.axis_allies.reports.map_style import (
    ARROW_OUTLINES,
    BATTLE_COLOURS,
    DAMAGE_COLOURS,
    MAP_COLOURS,
    Style,
    arrow_layers,
    contrast_ratio,
)
from pbem.rulesets.axis_allies.reports.map_view import IMAGE_WIDTH, board_to_image, make_view

DATA = Path(__file__).resolve().parents[1] / "pbem/rulesets/axis_allies/editions/revised"

#: One territory per owner in the opening position, big enough to show its fill around the writing.
OWNED = {
    "ussr": "Novosibirsk",
    "germany": "Ukraine S.S.R.",
    "uk": "French Equatorial Africa",
    "japan": "Manchuria",
    "usa": "Brazil",
}
NEUTRAL = ["Sahara", "Saudi Arabia", "Mongolia"]
SEA = ["SZ 31", "SZ 44", "SZ 22", "SZ 57"]


@cache
def _load() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    board, graphics = get_ruleset("aa-revised").map_data()
    setup = yaml.safe_load((DATA / "setup.yaml").read_text(encoding="utf-8"))
    return board, setup, graphics


def _style() -> Style:
    return Style.of(_load()[2])


def opening_state() -> dict[str, Any]:
    """The opening position in the shape of state.yaml."""
    _, setup, _ = _load()
    state: dict[str, Any] = {"format": "pbem-state/1", "ruleset": "aa-revised", "game": "Test",
                             "round": 1, "next_power": "ussr"}
    state.update(copy.deepcopy(setup))
    state.setdefault("cargo", {})
    state.setdefault("developments", {p: [] for p in OWNED})
    state["winner"] = None
    return state


def _render(tmp_path: Path, name: str, state: dict[str, Any] | None = None,
            events: list[dict[str, Any]] | None = None, theatre: str | None = None) -> Path:
    board, _, graphics = _load()
    out = tmp_path / name
    pixels, _ = draw_map(opening_state() if state is None else state, board, graphics, events,
                         theatre=theatre, title="Test game — opening position")
    Image.fromarray(pixels).save(out, format="png")
    return out


@pytest.fixture(scope="module")
def full_map(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _render(tmp_path_factory.mktemp("map"), "opening.png")


def _pixels(path: Path) -> np.ndarray:
    """The PNG as an (h, w, 3) uint8 array."""
    image = imread(path)
    if image.dtype != np.uint8:
        image = np.round(image * 255).astype(np.uint8)
    return image[:, :, :3]


def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(round(c * 255) for c in to_rgb(colour))


def _colour_near_centre(image: np.ndarray, space: str, theatre: str | None = None,
                        radius: float = 90.0, step: float = 6.0) -> tuple[int, ...]:
    """The commonest colour of the pixels around a space's label centre that lie inside it.

    Sampling a disc (board pixels) around the label centre, not only the centre itself, keeps
    the answer clear of the name and unit boxes written there.
    """
    _, _, graphics = _load()
    data = graphics["spaces"][space]
    cx, cy = data["centre"]
    offsets = np.arange(-radius, radius + step, step)
    grid = np.array([(cx + dx, cy + dy) for dx in offsets for dy in offsets
                     if dx * dx + dy * dy <= radius * radius])
    inside = np.zeros(len(grid), dtype=bool)
    for ring in data["polygons"]:
        inside |= MplPath(np.asarray(ring, dtype=float)).contains_points(grid, radius=-3.0)
    counts: Counter[tuple[int, ...]] = Counter()
    for x, y in grid[inside]:
        col, row = board_to_image(graphics, x, y, theatre)
        counts[tuple(int(v) for v in image[int(row), int(col)])] += 1
    assert counts, f"no sample point inside {space}"
    colour, n = counts.most_common(1)[0]
    assert n >= 0.5 * sum(counts.values()), f"{space}: no dominant colour in {counts}"
    return colour


def test_size(full_map: Path) -> None:
    _, _, graphics = _load()
    image = _pixels(full_map)
    view = make_view(graphics)
    assert image.shape[1] == IMAGE_WIDTH == 2000
    assert image.shape[0] == view.height_px
    assert 900 < image.shape[0] < 1400  # a 3500x2000 board plus title and legend


@pytest.mark.parametrize("power", sorted(OWNED))
def test_land_in_owner_colour(full_map: Path, power: str) -> None:
    space = OWNED[power]
    assert opening_state()["control"][space] == power
    assert _colour_near_centre(_pixels(full_map), space) == _rgb(_style().powers[power]["land"])


def test_power_colours_distinct() -> None:
    fills = [_style().land_colour(p) for p in OWNED] + [MAP_COLOURS["neutral"], MAP_COLOURS["sea"]]
    assert len({_rgb(c) for c in fills}) == len(fills)
    assert len({_rgb(_style().powers[p]["unit"]) for p in OWNED}) == len(OWNED)


@pytest.mark.parametrize("space", NEUTRAL)
def test_neutral_grey(full_map: Path, space: str) -> None:
    board, _, _ = _load()
    assert next(t for t in board["territories"] if t["name"] == space)["neutral"]
    assert _colour_near_centre(_pixels(full_map), space) == _rgb(MAP_COLOURS["neutral"])


@pytest.mark.parametrize("space", SEA)
def test_sea_blue(full_map: Path, space: str) -> None:
    assert _colour_near_centre(_pixels(full_map), space) == _rgb(MAP_COLOURS["sea"])


def test_control_changes_colour(tmp_path: Path) -> None:
    state = opening_state()
    state["control"]["Novosibirsk"] = "japan"
    image = _pixels(_render(tmp_path, "changed.png", state))
    assert _colour_near_centre(image, "Novosibirsk") == _rgb(_style().powers["japan"]["land"])


def test_wrap_strips_repeat_the_opposite_edge(full_map: Path) -> None:
    """The full map shows each edge's far side: left of x=0 lies the east edge, veiled."""
    _, _, graphics = _load()
    image = _pixels(full_map)
    width = graphics["board"]["width"]
    view = make_view(graphics)
    assert view.x0 < 0 and view.x1 > width
    # Western Canada (east edge of the board) reappears, veiled, left of the west edge.
    x, y = 3450, 200
    col, row = view.to_image(x, y)  # the copy on the board
    ghost = (x - width - view.x0) * view.scale
    assert ghost < view.to_image(0, y)[0]
    on_board = image[int(row), int(col)].astype(int)
    veiled = image[int(row), int(ghost)].astype(int)
    white = np.array([255, 255, 255])
    assert (on_board == _rgb(_style().powers["uk"]["land"])).all()
    assert np.abs(veiled - (0.55 * on_board + 0.45 * white)).max() <= 3


def test_byte_identical(tmp_path: Path, full_map: Path) -> None:
    again = _render(tmp_path, "again.png")
    assert again.read_bytes() == full_map.read_bytes()
    # the reports' PNG, made from those pixels, names no software and no date
    report_png = palette_image(_pixels(full_map), 256)
    assert report_png == palette_image(_pixels(again), 256)
    assert b"Software" not in report_png[:4096] and b"tIME" not in report_png[:4096]


@pytest.mark.parametrize("theatre", ["europe", "pacific"])
def test_theatre_crop(tmp_path: Path, theatre: str) -> None:
    _, _, graphics = _load()
    path = _render(tmp_path, f"{theatre}.png", theatre=theatre)
    image = _pixels(path)
    view = make_view(graphics, theatre)
    assert image.shape[:2] == (view.height_px, IMAGE_WIDTH)
    assert view.scale > make_view(graphics).scale  # zoomed in
    expected = {"europe": {"germany": "Ukraine S.S.R.", "uk": "Anglo-Egypt", "ussr": "Archangel"},
                "pacific": {"japan": "Manchuria", "uk": "Australia", "usa": "Panama"}}[theatre]
    for power, space in expected.items():
        assert _colour_near_centre(image, space, theatre, radius=50, step=4) == \
            _rgb(_style().powers[power]["land"]), (theatre, space)


def test_pacific_crosses_the_wrap() -> None:
    """Panama (west edge of the board) is drawn right of Western United States (east edge)."""
    _, _, graphics = _load()
    panama = graphics["spaces"]["Panama"]["centre"]
    west_us = graphics["spaces"]["Western United States"]["centre"]
    assert panama[0] < 100 < 3000 < west_us[0]
    assert board_to_image(graphics, panama[0], panama[1], "pacific")[0] > \
        board_to_image(graphics, west_us[0], west_us[1], "pacific")[0]


def test_unknown_theatre() -> None:
    _, _, graphics = _load()
    with pytest.raises(ValueError, match="unknown theatre 'africa'; known: europe, pacific"):
        make_view(graphics, "africa")
    europe = get_ruleset("aa-europe").map_data()[1]  # a board without theatre maps says so
    with pytest.raises(ValueError, match="known: none: this board is drawn whole only"):
        make_view(europe, "europe")


def test_unit_stack_lines() -> None:
    assert unit_stack_lines(_style(), "germany", {"infantry": 3, "tank": 2, "artillery": 1}) == \
        ["3inf 1art 2tnk"]
    assert unit_stack_lines(_style(), "uk", {"transport": 1, "battleship": 1},
                            [{"transport": "uk", "units": {"uk": {"infantry": 1},
                                                           "usa": {"tank": 1}}},
                             {"transport": "usa", "units": {"usa": {"infantry": 2}}}]) == \
        ["1bb 1tr", "\u25b81inf 1tnk USA"]
    assert unit_stack_lines(_style(), "usa", {"infantry": 0}) == []


def test_move_crosses_the_wrap() -> None:
    """A move over the east-west edge goes to the nearer copy, not across the whole board."""
    board, _, graphics = _load()
    view = make_view(graphics)
    labels = make_labels(graphics, board)  # anchors at the label centres
    points = move_polyline(view, labels, ["Mexico", "Panama"])
    assert points is not None
    assert abs(points[1][0] - points[0][0]) < 400
    assert points[1][0] > graphics["board"]["width"]  # Panama's copy east of the edge


def test_moves_and_battles(tmp_path: Path, full_map: Path) -> None:
    state = opening_state()
    state["control"]["Ukraine S.S.R."] = "ussr"
    state["units"]["Ukraine S.S.R."] = {"ussr": {"infantry": 3, "tank": 1}}
    state["units"]["Panama"] = {"usa": {"tank": 1}}
    events: list[dict[str, Any]] = [
        {"type": "move", "phase": "combat", "power": "ussr", "units": {"infantry": 3, "tank": 1},
         "from": "Caucasus", "path": ["Ukraine S.S.R."], "to": "Ukraine S.S.R."},
        {"type": "move", "phase": "noncombat", "power": "usa", "units": {"tank": 1},
         "from": "Mexico", "path": ["Panama"], "to": "Panama"},
        {"type": "move", "phase": "combat", "power": "uk", "units": {"bomber": 1},
         "from": "United Kingdom", "path": ["SZ 6", "Western Europe"], "to": "Western Europe"},
        {"type": "battle_start", "battle": "b1", "space": "Ukraine S.S.R.", "kind": "land",
         "attacker": "ussr", "attackers": {}, "defenders": {}},
        {"type": "battle_end", "battle": "b1", "space": "Ukraine S.S.R.", "rounds": 2,
         "winner": "attacker", "attackers_left": {}, "defenders_left": {}, "captured": True},
        {"type": "battle_start", "battle": "b2", "space": "Western Europe", "kind": "land",
         "attacker": "uk", "attackers": {}, "defenders": {}},
        {"type": "battle_end", "battle": "b2", "space": "Western Europe", "rounds": 1,
         "winner": "defender", "attackers_left": {}, "defenders_left": {}, "captured": False},
    ]
    first = _render(tmp_path, "turn.png", state, events)
    second = _render(tmp_path, "turn-again.png", state, events)
    assert first.read_bytes() == second.read_bytes()
    image = _pixels(first)
    assert image.shape == _pixels(full_map).shape
    assert _colour_near_centre(image, "Ukraine S.S.R.") == _rgb(_style().powers["ussr"]["land"])
    view = make_view(_load()[2])
    rows = slice(view.top_px, view.top_px + view.map_height_px)  # the map, not the legend
    opening = _pixels(full_map)[rows]
    for outcome in ("captured", "defender"):  # the battles' outlines and tags
        colour = np.array(_rgb(BATTLE_COLOURS[outcome]))
        assert (image[rows] == colour).all(axis=2).sum() > 200, outcome
        assert (opening == colour).all(axis=2).sum() == 0, outcome


def test_graphics_cover_the_board() -> None:
    """graphics.json draws exactly the board's spaces, each with an outline and a label centre."""
    board, _, graphics = _load()
    names = {t["name"] for t in board["territories"]} | {z["name"] for z in board["sea_zones"]}
    assert set(graphics["spaces"]) == names
    width, height = graphics["board"]["width"], graphics["board"]["height"]
    for name, data in graphics["spaces"].items():
        assert data["polygons"] and all(len(ring) >= 3 for ring in data["polygons"]), name
        x, y = data["centre"]
        assert 0 <= x < width and 0 <= y < height, name


def test_dollar_signs_in_the_title_are_text_not_a_formula(tmp_path: Path) -> None:
    # the title holds the game's name, which the moderator chose: an unfinished "$...$" formula
    # stopped the drawing of every later turn
    board, _, graphics = _load()
    pixels, _ = draw_map(opening_state(), board, graphics, None, title="Club $\\frac{1}{$ game")
    assert pixels.shape[1] == IMAGE_WIDTH


def _europe_board() -> dict[str, Any]:
    from pbem.rulesets.axis_allies.edition import edition
    from pbem.rulesets.axis_allies.ruleset import AxisAllies
    return AxisAllies(edition("aa-europe")).map_data()[0]


def _europe_map(tmp_path: Path, control: dict[str, str]) -> tuple[np.ndarray, dict[str, Any]]:
    from pbem.rulesets.axis_allies.edition import edition
    from pbem.rulesets.axis_allies.ruleset import AxisAllies
    europe = AxisAllies(edition("aa-europe"))
    board, graphics = europe.map_data()
    state = europe.opening_state("Europe", {})
    state["control"].update(control)
    pixels, _ = draw_map(state, board, graphics, None, title="Europe")
    return pixels, graphics


def _border_colours(image: np.ndarray, graphics: dict[str, Any], zone: str) -> Counter:
    """The colours of the image along the first outline of `zone`."""
    ring = np.asarray(graphics["spaces"][zone]["polygons"][0], dtype=float)
    counts: Counter[tuple[int, ...]] = Counter()
    for a, b in zip(ring, np.roll(ring, -1, axis=0)):
        x, y = (a + b) / 2
        col, row = board_to_image(graphics, x, y)
        counts[tuple(int(v) for v in image[int(row), int(col)])] += 1
    return counts


def test_europe_convoy_zone_border_shows_its_holder(tmp_path: Path) -> None:
    image, graphics = _europe_map(tmp_path, {"British Convoy 3": "germany"})
    style = Style.of(graphics)
    german, british = _rgb(style.colours("germany")["unit"]), _rgb(style.colours("uk")["unit"])
    assert _border_colours(image, graphics, "British Convoy 3").most_common(1)[0][0] == german
    assert _border_colours(image, graphics, "British Convoy 2").most_common(1)[0][0] == british


def test_europe_ipc_values_beside_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Europe's drawing data has no place for IPC values: the badge is drawn beside the name, for
    territories and convoy zones alike."""
    from pbem.rulesets.axis_allies.reports import map_labels, map_legend, map_spaces
    from pbem.rulesets.axis_allies.reports.map_marks import ipc_badge
    drawn: list[str] = []

    def record(text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return ipc_badge(text, *args, **kwargs)

    for layer in (map_spaces, map_labels, map_legend):  # each imported the badge: patch it where it is drawn
        monkeypatch.setattr(layer, "ipc_badge", record)
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "cache"))
    forget_drawings()  # the board's markers and legend are drawn again, not reused
    _europe_map(tmp_path, {})
    board = _europe_board()
    values = [str(s["ipc"]) for s in (*board["territories"], *board["sea_zones"]) if s.get("ipc")]
    assert sorted(drawn) == sorted(values + ["6"])  # and the legend's sample badge


def _move(power: str, phase: str, *spaces: str) -> dict[str, Any]:
    return {"type": "move", "phase": phase, "power": power, "units": {"infantry": 1},
            "from": spaces[0], "path": list(spaces[1:]), "to": spaces[-1]}


def _arrow_crossings(image: np.ndarray, first: str, second: str, colour: str) -> list[float]:
    """Where the line across the middle of the way from `first` to `second` (label centres) meets
    arrow bodies in `colour`: the centre of each run of that colour, in pixels from the way."""
    _, _, graphics = _load()
    a, b = (np.array(board_to_image(graphics, *graphics["spaces"][n]["centre"])) for n in (first, second))
    along = (b - a) / np.hypot(*(b - a))
    across = np.array([-along[1], along[0]])
    steps = np.arange(-20, 20.25, 0.25)
    hits = [bool((np.abs(image[round(y), round(x)].astype(int) - _rgb(colour)) <= 2).all())
            for x, y in ((a + b) / 2 + t * across for t in steps)]
    runs, start = [], None
    for t, hit in zip([*steps, np.inf], [*hits, False]):
        if hit and start is None:
            start = t
        elif not hit and start is not None:
            runs.append((start + t - 0.25) / 2)
            start = None
    return runs


def test_out_and_back_are_two_arrows(tmp_path: Path) -> None:
    """Fighters that attack and fly home, or a path run backwards: each move is its own arrow,
    beside the other, not one line with a head at each end."""
    body = _style().powers["ussr"]["unit"]
    one_way = _pixels(_render(tmp_path, "one-way.png", events=[
        _move("ussr", "combat", "Novosibirsk", "Kazakh S.S.R.")]))
    (single,) = _arrow_crossings(one_way, "Novosibirsk", "Kazakh S.S.R.", body)
    both_ways = _pixels(_render(tmp_path, "both-ways.png", events=[
        _move("ussr", "combat", "Novosibirsk", "Kazakh S.S.R."),
        _move("ussr", "combat", "Kazakh S.S.R.", "Novosibirsk")]))
    out, back = _arrow_crossings(both_ways, "Novosibirsk", "Kazakh S.S.R.", body)
    assert back - out >= 6  # apart, with the outlines between them
    assert out < single < back


def test_the_same_way_twice_is_two_arrows(tmp_path: Path) -> None:
    """Units sent into a space in the combat move and others after them in the noncombat move:
    two arrows side by side, neither hidden under the other."""
    body = _style().powers["ussr"]["unit"]
    twice = _pixels(_render(tmp_path, "twice.png", events=[
        _move("ussr", "combat", "Novosibirsk", "Kazakh S.S.R."),
        _move("ussr", "noncombat", "Novosibirsk", "Kazakh S.S.R.")]))
    first, second = _arrow_crossings(twice, "Novosibirsk", "Kazakh S.S.R.", body)
    assert second - first >= 6


def test_contrast_ratio() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21)
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21)
    assert contrast_ratio("#3a7bd5", "#3a7bd5") == pytest.approx(1)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)  # WCAG's own grey


@pytest.mark.parametrize("edition", ["aa-revised", "aa-europe"])
def test_every_arrow_reads_on_every_fill(edition: str) -> None:
    """Japan's yellow arrows on Japan's yellow land: an arrow's outline or its body must stand out
    against every land and sea fill of both editions, whoever's arrow it is, and the outline from
    the body."""
    styles = [Style.of(get_ruleset(e).map_data()[1]) for e in ("aa-revised", "aa-europe")]
    fills = {MAP_COLOURS["neutral"], MAP_COLOURS["uncontrolled"], MAP_COLOURS["sea"]}
    fills |= {colours["land"] for style in styles for colours in style.powers.values()}
    style = Style.of(get_ruleset(edition).map_data()[1])
    for power, colours in style.powers.items():
        (outline, _), (body, _) = arrow_layers(colours["unit"])
        assert body == colours["unit"] and outline in ARROW_OUTLINES
        assert contrast_ratio(body, outline) >= 3, power  # the body stands out of its outline
        for fill in fills:
            assert max(contrast_ratio(outline, fill), contrast_ratio(body, fill)) >= 3, (power, fill)


RAID = {"type": "bombing", "space": "United Kingdom", "power": "germany", "victim": "uk", "bombers": 2,
        "dice": [6, 5], "damage": 11, "paid": 9}
ROCKET = {"type": "rocket", "power": "germany", "from": "Western Europe", "target": "Russia", "die": 4,
          "damage": 4, "paid": 4}
PLACED = {"type": "place", "power": "germany", "space": "Germany", "units": {"tank": 1, "infantry": 2}}


def _laid_out(events: list[dict[str, Any]]) -> dict[str, Any]:
    board, _, graphics = _load()
    labels = make_labels(graphics, board)
    territories = {t["name"]: t for t in board["territories"]}
    layout(labels, make_view(graphics), opening_state(), events, territories)
    return labels


def test_damage_and_placements_are_written_at_their_spaces() -> None:
    labels = _laid_out([RAID, ROCKET, PLACED, {**PLACED, "units": {"infantry": 1}}])
    assert [t.text for t in labels["United Kingdom"].tags] == ["\u2739 \u22129 IPC bombed"]  # what was paid
    assert [t.text for t in labels["Russia"].tags] == ["\u2739 \u22124 IPC rocket"]
    germany = labels["Germany"].boxes
    assert [(b.power, b.placed) for b in germany] == [("germany", False), ("germany", True)]
    assert germany[1].text == "G +3inf 1tnk"  # both placements, in unit table order, after the owner's letter
    assert not any(b.placed for label in labels.values() if label.name != "Germany" for b in label.boxes)


def test_damage_drawn(tmp_path: Path, full_map: Path) -> None:
    """The damage tags and the rocket's arc are drawn in the damage colour, which the map has nowhere else."""
    ink = np.array(_rgb(DAMAGE_COLOURS["ink"]))
    view = make_view(_load()[2])
    rows = slice(view.top_px, view.top_px + view.map_height_px)  # the map, not the legend

    def inked(path: Path) -> int:
        return int((_pixels(path)[rows] == ink).all(axis=2).sum())

    raid = inked(_render(tmp_path, "raid.png", events=[RAID]))
    both = inked(_render(tmp_path, "rocket.png", events=[RAID, ROCKET]))
    assert inked(full_map) == 0 < raid
    assert both > 2 * raid  # a second tag and the rocket's arc


def _drawn(events: list[dict[str, Any]] | None = None, theatre: str | None = None,
           scale: float = 1.0) -> tuple[np.ndarray, MapInfo]:
    board, _, graphics = _load()
    return draw_map(opening_state(), board, graphics, events, theatre=theatre, title="Test", scale=scale)


def _info(events: list[dict[str, Any]] | None = None, theatre: str | None = None, scale: float = 1.0) -> MapInfo:
    return _drawn(events, theatre, scale)[1]


def _inside(info: MapInfo, space: str, point: tuple[float, float]) -> bool:
    (drawn,) = [s for s in info.spaces if s.name == space]
    return any(MplPath(np.array(ring)).contains_point(point) for ring in drawn.polygons)


@pytest.mark.parametrize("scale", [1.0, 1.4])
def test_map_info_matches_the_image(scale: float) -> None:
    """The image is `scale` times as large, and MapInfo's outlines lie where the spaces are drawn."""
    _, _, graphics = _load()
    pixels, info = _drawn(scale=scale)
    assert pixels.shape[:2] == (info.height_px, info.width_px)
    assert info.width_px == round(IMAGE_WIDTH * scale)
    assert abs(info.height_px - make_view(graphics).height_px * scale) < 1
    for space in ("Germany", "Brazil", "SZ 7"):
        x, y = board_to_image(graphics, *graphics["spaces"][space]["centre"])
        assert _inside(info, space, (x * scale, y * scale)), space
    assert {s.name for s in info.spaces} == set(graphics["spaces"])  # the whole board is in view
    assert info.action is None  # no events


def test_map_info_is_the_same_for_the_same_inputs() -> None:
    events = [_move("germany", "combat", "Germany", "Eastern Europe", "Ukraine S.S.R.")]
    (first, info), (second, again) = _drawn(events, scale=1.4), _drawn(events, scale=1.4)
    assert info == again and np.array_equal(first, second)


def test_map_info_outlines_and_stacks() -> None:
    """Small enough for a page (a few tens of kB of JSON), with the copies the wrap shows and the
    stacks in words."""
    info = _info([PLACED])
    assert len(json.dumps(dataclasses.asdict(info), separators=(",", ":"))) < 64_000
    assert all(len(ring) >= 3 for space in info.spaces for ring in space.polygons)
    panama = next(s for s in info.spaces if s.name == "Panama")
    assert len(panama.polygons) == 2 * len(_load()[2]["spaces"]["Panama"]["polygons"])  # in the east strip too
    germany = next(s for s in info.spaces if s.name == "Germany")
    assert germany.stack[0].startswith("Germany: ") and "placed this turn: 2 infantry, 1 tank" in germany.stack[0]
    pacific = _info(theatre="pacific")
    assert "Germany" not in {s.name for s in pacific.spaces} and "Japan" in {s.name for s in pacific.spaces}


def test_map_info_action_covers_the_turn() -> None:
    _, _, graphics = _load()
    events = [_move("germany", "combat", "Germany", "Eastern Europe", "Ukraine S.S.R."), RAID]
    info = _info(events)
    assert info.action is not None
    x0, y0, x1, y1 = info.action
    for space in ("Germany", "Eastern Europe", "Ukraine S.S.R.", "United Kingdom"):
        x, y = board_to_image(graphics, *graphics["spaces"][space]["centre"])
        assert x0 <= x <= x1 and y0 <= y <= y1, space
    x, y = board_to_image(graphics, *graphics["spaces"]["Japan"]["centre"])
    assert not x0 <= x <= x1
    everywhere = _info([_move("usa", "noncombat", "Western United States", "Central United States",
                              "Eastern United States")], theatre="pacific")
    assert everywhere.action is not None
    assert everywhere.action[2] == everywhere.width_px  # cut at the image's edge, not past it
    assert _info(events, theatre="pacific").action is None  # nothing of it in view there


def test_unit_stack_words() -> None:
    cargo = [{"transport": "uk", "units": {"uk": {"infantry": 1}, "usa": {"tank": 1}}},
             {"transport": "usa", "units": {"usa": {"infantry": 2}}}]
    assert unit_stack_words(_style(), "uk", {"transport": 2, "battleship": 1}, cargo) == \
        "UK: 1 battleship, 2 transports; aboard: 1 infantry, 1 tank (USA)"
    assert unit_stack_words(_style(), "germany", {"infantry": 3}, placed={"infantry": 2}) == \
        "Germany: 3 infantry; placed this turn: 2 infantry"


def test_scale_must_be_positive() -> None:
    with pytest.raises(ValueError, match="scale"):
        _info(scale=0)


def test_a_map_is_the_same_drawn_anew_or_from_what_was_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's layers and the writing are drawn once and kept, in the process and on disk: a map
    drawn with them kept, with them forgotten, in another process from the disk, or from a kept file
    that is cut short, has the same pixels; what no process read for a month is removed, what another
    version of the code uses is not (two pbem versions may share the folder)."""
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "cache"))
    program = f"""
import json, sys, yaml
from pbem.rulesets import get_ruleset
from pbem.rulesets.axis_allies.reports.map_image import draw_map
example = {str(Path(__file__).resolve().parents[1] / "examples/aa-revised/02-germany")!r}
state = yaml.safe_load(open(example + "/state.yaml", encoding="utf-8"))
events = [json.loads(line) for line in open(example + "/events.jsonl", encoding="utf-8")]
board, graphics = get_ruleset("aa-revised").map_data()
maps = b"".join(draw_map(state, board, graphics, events, theatre=theatre, title="Kept", scale=scale)[0].tobytes()
                for theatre, scale in ((None, 1.4), ("europe", 1.0)))
"""

    def drawn(process: bool = False) -> bytes:
        if process:
            # and without pyplot, the heaviest part of matplotlib, which no drawing needs
            check = 'assert "matplotlib.pyplot" not in sys.modules\nsys.stdout.buffer.write(maps)'
            return subprocess.run([sys.executable, "-c", program + check], capture_output=True, check=True).stdout
        forget_drawings()
        done: dict[str, Any] = {}
        exec(program, done)
        return done["maps"]

    unused, other = (tmp_path / "cache" / "aa-map-layers" / name for name in ("unused", "other-version"))
    unused.parent.mkdir(parents=True)
    for entry in (unused, other):
        entry.write_bytes(b"kept")
    month_ago = time.time() - (UNUSED_DAYS + 1) * 86400
    os.utime(unused, (month_ago, month_ago))
    anew = drawn()  # and kept on disk
    assert not unused.exists() and other.exists()
    assert drawn(process=True) == anew
    forget_drawings()
    assert drawn() == anew  # from the disk
    for kept in (tmp_path / "cache").rglob("*"):
        if kept.is_file():
            kept.write_bytes(kept.read_bytes()[:1000])
    assert drawn(process=True) == anew
    shutil.rmtree(tmp_path / "cache")
    assert drawn() == anew
