"""The Undaunted: Stalingrad tile map as a picture: pointy-top hexagons where `Board.at` puts them
(odd rows half a tile to the right, the German edge at the top), each with its id, name and cover;
objectives, control markers, unit tokens, mines, smoke, fire lanes and tunnels; and this exchange's
moves, pushes and attacks. Drawn from the public view only, with matplotlib's Agg backend: the tiles,
their writing and the legend once per layout and tile faces (`pbem.render.sheet`), the rest each turn."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch, Patch, Polygon, Rectangle
from matplotlib.patheffects import withStroke

from pbem.render.palette import palette_image
from pbem.render.sheet import Sheet, board_figure, board_layer, board_overlay, figure_pixels
from pbem.rulesets.undaunted.board import Board
from pbem.rulesets.undaunted.content import SIDES, Pack, TileVersion, action_name

COLOURS = {"soviet": "#b22222", "german": "#5b5b5b"}
SUPPRESSED = {"soviet": "#7a1a0a", "german": "#1e1e1e"}
# Both sides use the same unit names (RIF-A...): a side mark on each token names its owner beyond colour
SIDE_MARKS = {"soviet": "\u2605", "german": "\u2720"}
UNIT_INK = "#ffffff"  # on every side colour, suppressed or not
HIT, MISS = "#e07b00", "#1f5fa8"
GROUND, BUILDING, OBJECTIVE, IMPASSABLE = "#efe6cf", "#cdb98f", "#d4a017", "#a3916b"
ROOT3 = math.sqrt(3)
WIDTH_INCHES, DPI = 16, 100
UNIT_W, UNIT_H = 0.56, 0.21
NAME, MARKS, UNITS, COVER = 0.49, 0.27, 0.0, -0.68  # heights of a tile's bands above its centre
OUTLINE = [withStroke(linewidth=5.5, foreground="white")]  # lines and arrows stay visible on any colour


def _centre(row: int, col: int) -> tuple[float, float]:
    return ROOT3 * (col + 0.5 * (row & 1)), -1.5 * row


def _hexagon(x: float, y: float, radius: float = 0.98) -> list[tuple[float, float]]:
    return [(x + radius * math.cos(math.radians(30 + 60 * k)), y + radius * math.sin(math.radians(30 + 60 * k)))
            for k in range(6)]


def _cover(version: TileVersion) -> str:
    parts = [f"cover {version.cover}"]
    if version.building_cover is not None:
        parts.append(f"bldg {version.building_cover}")
    if version.fortification_cover is not None:
        parts.append(f"fort {version.fortification_cover}")
    if version.durability is not None:
        parts.append(f"dur {version.durability}")
    return " / ".join(parts)


def render_map(pack: Pack, state: dict[str, Any], events: list[dict[str, Any]], title: str) -> bytes:
    """The map of a public view after an exchange, with that exchange's public events, as PNG."""
    return palette_image(draw_map(pack, state, events, title))


def draw_map(pack: Pack, state: dict[str, Any], events: list[dict[str, Any]], title: str) -> Any:
    """`render_map`'s pixels (RGBA, rows from the top)."""
    board = Board(pack.layouts[pack.scenarios[state["scenario"]].layout])
    at = {t: _centre(*rc) for t, rc in board.at.items()}
    tiles = [(f"{tile}-{state['tiles'][tile]}", x, y, pack.tile(tile, state["tiles"][tile]))
             for tile, (x, y) in at.items()]
    frame = _frame(at)
    sheet = Sheet((WIDTH_INCHES, frame[0]), DPI, frame[1], frame[2])
    ground = board_layer((__name__,), repr(("ground", frame, tiles)), partial(_board, "ground", frame, tiles))
    writing = board_overlay((__name__,), repr(("writing", frame, tiles)), partial(_board, "writing", frame, tiles),
                            sheet)
    sheet.layer(writing, zorder=2)  # over fire lanes and attack lines, under everything else
    sheet.figure_text(0.5, 1 - 0.28 / frame[0], title, ha="center", va="center", fontsize=15)
    # a tile in bands: id and name, then markers, tunnel and objective, then the units, then the cover
    for tile, value in state["objectives"].items():
        x, y = at[tile]
        sheet.add_patch(Circle((x + 0.5, y + MARKS), 0.14, facecolor=OBJECTIVE, edgecolor="#6b5200", lw=1.2, zorder=4))
        sheet.text(x + 0.5, y + MARKS, str(value), ha="center", va="center", fontsize=11, fontweight="bold", zorder=5)
    for tile, value in state["vp_tokens"].items():
        x, y = at[tile]
        sheet.text(x + 0.15, y + MARKS - 0.2, f"{value} VP", ha="center", va="center", fontsize=9, fontweight="bold",
                   zorder=5, bbox={"boxstyle": "square,pad=0.15", "facecolor": "#f6e7a8", "edgecolor": "#6b5200"})
    for kind, tile in state["tokens"].items():
        x, y = at[tile]
        sheet.text(x - 0.3, y + MARKS - 0.2, kind, ha="center", va="center", fontsize=8, fontweight="bold",
                   color="white", zorder=5, bbox={"boxstyle": "round,pad=0.15", "facecolor": "#2f5f8a",
                                                  "edgecolor": "black"})
    for i, side in enumerate(SIDES):
        for tile, face in state["markers"][side].items():
            x, y = at[tile]
            sheet.add_patch(Rectangle((x - 0.62 + 0.22 * i, y + MARKS - 0.075), 0.15, 0.15, lw=1.6, zorder=4,
                                      facecolor=COLOURS[side] if face == "controlled" else "white",
                                      edgecolor=COLOURS[side]))
    for tile in state["smoke"]:
        x, y = at[tile]
        sheet.add_patch(Circle((x, y - 0.1), 0.5, facecolor="#9a9a9a", alpha=0.45, edgecolor="#6a6a6a", lw=1,
                               ls="--", zorder=3))
    for tile in state["tunnels"]:
        x, y = at[tile]
        sheet.add_patch(Circle((x + 0.15, y + MARKS), 0.12, facecolor="#6d4c2f", edgecolor="black", zorder=4))
        sheet.text(x + 0.15, y + MARKS, "T", ha="center", va="center", fontsize=9, color="white", zorder=5)
    for mine in state["mines"]:
        _mine(sheet, at, mine)
    for side in SIDES:
        for unit, lane in state["fire_lanes"][side].items():
            _fire_lane(sheet, at[state["units"][side][unit]["tile"]], at[lane], side)
    rows = _units(sheet, state, at)
    _events(sheet, at, events, rows)
    return sheet.pixels(ground)


Frame = tuple[float, tuple[float, ...], tuple[float, ...]]  # the figure's height, the map's box and limits


def _frame(at: dict[str, tuple[float, float]]) -> Frame:
    xs, ys = [x for x, _ in at.values()], [y for _, y in at.values()]
    left, right, bottom, top = min(xs) - 1.1, max(xs) + 1.1, min(ys) - 1.15, max(ys) + 1.15
    # the map keeps its proportions: the figure is as tall as the map needs, plus title and legend
    map_height = WIDTH_INCHES * 0.98 * (top - bottom) / (right - left)
    height = map_height + 2.1
    return height, (0.01, 1.6 / height, 0.98, map_height / height), (left, right, bottom, top)


def _board(kind: str, frame: Frame, tiles: list[tuple[str, float, float, TileVersion]]):
    """The layer of what a layout with these tile faces always shows: the `ground` (the tiles) or, on
    a clear sheet, the `writing` (the tiles' names and cover, the edges' names, the legend)."""
    height, box, limits = frame
    figure, axes = board_figure((WIDTH_INCHES, height), DPI, box, limits, ground=kind == "ground")
    if kind == "ground":
        for _, x, y, version in tiles:
            _tile(axes, version, x, y)
        return figure_pixels(figure)
    left, right, bottom, top = limits
    axes.text((left + right) / 2, top - 0.08, "German edge", ha="center", va="top", fontsize=9, color="#555555")
    axes.text((left + right) / 2, bottom + 0.08, "Soviet edge", ha="center", va="bottom", fontsize=9,
              color="#555555")
    for tile_id, x, y, version in tiles:
        _tile_writing(axes, version, tile_id, x, y)
    _legend(figure, height)
    return figure_pixels(figure)


def _tile(axes, version: TileVersion, x: float, y: float) -> None:
    axes.add_patch(Polygon(_hexagon(x, y), closed=True, facecolor=BUILDING if version.building else GROUND,
                           edgecolor="#6f6650", lw=1.5, zorder=1))
    if version.impassable:  # a hatch takes its colour from the edge: a pale one, under the text
        axes.add_patch(Polygon(_hexagon(x, y, 0.9), closed=True, facecolor="none", edgecolor=IMPASSABLE, lw=0,
                               hatch="//", zorder=1))


def _tile_writing(axes, version: TileVersion, tile_id: str, x: float, y: float) -> None:
    label = {"boxstyle": "round,pad=0.12", "facecolor": "white", "edgecolor": "none", "alpha": 0.75}
    axes.text(x, y + 0.68, tile_id, ha="center", va="center", fontsize=12, fontweight="bold", zorder=2, bbox=label)
    axes.text(x, y + NAME, version.name, ha="center", va="center", fontsize=8, color="#333333", zorder=2,
              bbox=label)
    axes.text(x, y + COVER, _cover(version), ha="center", va="center", fontsize=8.5, zorder=2, bbox=label)


def _units(sheet: Sheet, state: dict[str, Any], at: dict[str, tuple[float, float]]) -> dict[str, int]:
    """Each tile's tokens in rows of two, Soviet first: side colour, darker when suppressed,
    a white flag when routed. Returns the rows of tokens on each tile."""
    here: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}
    for side in SIDES:
        for unit, token in state["units"][side].items():
            here.setdefault(token["tile"], []).append((side, unit, token))
    for tile, tokens in here.items():
        x, y = at[tile]
        for i, (side, unit, token) in enumerate(tokens):
            in_row = min(2, len(tokens) - 2 * (i // 2))
            ux = x + (i % 2 - (in_row - 1) / 2) * (UNIT_W + 0.06)
            uy = y + UNITS - (i // 2) * (UNIT_H + 0.05)
            face = SUPPRESSED[side] if token["suppressed"] else COLOURS[side]
            sheet.add_patch(Rectangle((ux - UNIT_W / 2, uy - UNIT_H / 2), UNIT_W, UNIT_H, facecolor=face,
                                      edgecolor="black", lw=1, zorder=6,
                                      hatch="xx" if token["suppressed"] else None))
            marks = ("S" if token["suppressed"] else "") + ("R" if token["routed"] else "")
            sheet.text(ux - (0.05 if marks else 0), uy, SIDE_MARKS[side] + unit + (f" {marks}" if marks else ""),
                       ha="center", va="center", fontsize=8.5, fontweight="bold", color=UNIT_INK, zorder=7,
                       bbox={"boxstyle": "square,pad=0.05", "facecolor": face, "edgecolor": "none"})
            if token["routed"]:
                fx, fy = ux + UNIT_W / 2 - 0.06, uy - UNIT_H / 2 + 0.02
                sheet.plot([fx, fx], [fy, fy + 0.24], color="black", lw=1.2, zorder=8)
                sheet.add_patch(Rectangle((fx, fy + 0.13), 0.11, 0.11, facecolor="white", edgecolor="black", lw=0.8,
                                          zorder=8))
    return {tile: (len(tokens) + 1) // 2 for tile, tokens in here.items()}


def _mine(sheet: Sheet, at: dict[str, tuple[float, float]], mine: dict[str, Any]) -> None:
    (x1, y1), (x2, y2) = (at[t] for t in mine["edge"])
    # along the shared edge, the sides' mines sit apart so both show on one edge
    length = math.hypot(x2 - x1, y2 - y1)
    shift = 0.16 if mine["side"] == "soviet" else -0.16
    mx, my = (x1 + x2) / 2 - shift * (y2 - y1) / length, (y1 + y2) / 2 + shift * (x2 - x1) / length
    sheet.scatter([mx], [my], s=260, marker="^", c=COLOURS[mine["side"]], edgecolors="black", linewidths=1,
                  zorder=12)
    sheet.text(mx, my - 0.13, mine["face"], ha="center", va="top", fontsize=7, fontweight="bold", zorder=12,
               bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none"})


def _fire_lane(sheet: Sheet, start: tuple[float, float], end: tuple[float, float], side: str) -> None:
    sheet.plot([start[0], end[0]], [start[1], end[1]], color=COLOURS[side], lw=2.2, ls=(0, (5, 3)), zorder=1.5)
    sheet.scatter([end[0]], [end[1]], s=220, marker="X", c=COLOURS[side], edgecolors="white", linewidths=0.8,
                  zorder=5)


def _arrow(sheet: Sheet, start: tuple[float, float], end: tuple[float, float], colour: str, dashed: bool) -> None:
    # the head stops short of the tile's centre, where its unit tokens are
    sheet.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=24, color=colour, lw=3,
                                    ls="--" if dashed else "-", shrinkA=30, shrinkB=42, zorder=10,
                                    connectionstyle="arc3,rad=0.12", path_effects=OUTLINE))


def _events(sheet: Sheet, at: dict[str, tuple[float, float]], events: list[dict[str, Any]],
            rows: dict[str, int]) -> None:
    """Moves and pushes as arrows; attacks as lines coloured by success, their dice on the target's
    tile below its tokens."""
    labels: dict[str, int] = {}
    for e in events:
        if e["type"] == "moved":
            _arrow(sheet, at[e["from_tile"]], at[e["to_tile"]], COLOURS[e["side"]], dashed=False)
        elif e["type"] == "pushed":
            _arrow(sheet, at[e["from_tile"]], at[e["to_tile"]], COLOURS[e["side"]], dashed=True)
        elif e["type"] == "attack":
            colour = HIT if e["success"] else MISS
            tx, ty = at[e["target_tile"]]
            if e["from_tile"] and e["from_tile"] != e["target_tile"]:
                fx, fy = at[e["from_tile"]]
                # under the tiles' texts and the tokens, which stay readable on their pale boxes
                sheet.plot([fx, tx], [fy, ty], color=colour, lw=2.5, zorder=1.5, solid_capstyle="round",
                           path_effects=OUTLINE)
            n = labels[e["target_tile"]] = labels.get(e["target_tile"], -1) + 1
            what = "mine" if e["action"] == "mine" else action_name(e["action"])
            text = f"{what}: {' '.join(str(d) for d in e['dice'])} vs {e['total']} " \
                   f"{'hit' if e['success'] else 'miss'}"
            below = UNITS - 0.3 - 0.26 * max(rows.get(e["target_tile"], 1) - 1, 0) - 0.2 * n
            sheet.text(tx, ty + below, text, ha="center", va="center", fontsize=8.5, fontweight="bold",
                       color=colour, zorder=11,
                       bbox={"boxstyle": "round,pad=0.2", "facecolor": "white", "edgecolor": colour, "lw": 1.5})


def _legend(figure, height: float) -> None:
    handles = [
        Patch(facecolor=COLOURS["soviet"], edgecolor="black", label=f"{SIDE_MARKS['soviet']} Soviet unit"),
        Patch(facecolor=COLOURS["german"], edgecolor="black", label=f"{SIDE_MARKS['german']} German unit"),
        Patch(facecolor=SUPPRESSED["german"], edgecolor="black", hatch="xx", label="suppressed (S)"),
        Line2D([], [], marker="$⚐$", color="black", ls="none", markersize=12, label="routed (R), white flag"),
        Line2D([], [], marker="s", ls="none", markersize=10, markerfacecolor=COLOURS["soviet"],
               markeredgecolor=COLOURS["soviet"], label="control marker, controlled (filled)"),
        Line2D([], [], marker="s", ls="none", markersize=10, markerfacecolor="white", markeredgewidth=1.6,
               markeredgecolor=COLOURS["german"], label="control marker, scouted (outline)"),
        Line2D([], [], marker="o", ls="none", markersize=13, markerfacecolor=OBJECTIVE, markeredgecolor="#6b5200",
               label="objective and its value"),
        Patch(facecolor=BUILDING, edgecolor="#6f6650", label="building"),
        Patch(facecolor=GROUND, edgecolor=IMPASSABLE, hatch="//", label="impassable"),
        Line2D([], [], marker="^", ls="none", markersize=11, markerfacecolor=COLOURS["german"],
               markeredgecolor="black", label="mine on an edge (AP/AT)"),
        Line2D([], [], marker="o", ls="none", markersize=14, markerfacecolor="#9a9a9a", alpha=0.6,
               markeredgecolor="#6a6a6a", label="smoke"),
        Line2D([], [], marker="o", ls="none", markersize=11, markerfacecolor="#6d4c2f", markeredgecolor="black",
               label="tunnel (T)"),
        Line2D([], [], color=COLOURS["soviet"], lw=2.2, ls=(0, (5, 3)), marker="X", markersize=9,
               label="fire lane: MG to its tile"),
        Line2D([], [], color=COLOURS["soviet"], lw=3, marker=">", markersize=8, label="move this exchange"),
        Line2D([], [], color=COLOURS["german"], lw=3, ls="--", marker=">", markersize=8, label="push this exchange"),
        Line2D([], [], color=HIT, lw=2.5, label="attack: success (dice vs defence)"),
        Line2D([], [], color=MISS, lw=2.5, label="attack: failure"),
    ]
    figure.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 0.1 / height), ncol=6, fontsize=9,
                  frameon=False, handlelength=2.6, columnspacing=1.6)
