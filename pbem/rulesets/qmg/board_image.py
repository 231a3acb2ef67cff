"""The Quartermaster General board as a picture: every space where its `at` point lies (the map is a
cylinder cut along the Americas' Pacific coast), its neighbours joined by lines, the pieces in their
country's colour (unsupplied ones crossed), the straits in the colour of the team they are open to,
this turn's battles and builds ringed, and the VP track. Drawn with matplotlib's Agg backend: the board
(lines, spaces, names, the legend's key) once per board (`pbem.render.sheet`), the rest each turn."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from pbem.core.words import Words
from pbem.render.palette import palette_image
from pbem.render.sheet import FIGURE, Sheet, board_figure, board_layer, board_overlay, figure_pixels
from pbem.rulesets.qmg.content import COUNTRIES, TEAMS, Board, Pack
from pbem.rulesets.qmg.palette import LEGEND_INK, ROLES
from pbem.rulesets.qmg.supply import axis_armies, supply_chains
from pbem.rulesets.qmg.vp_chart import vp_chart

COLOURS = {country: role.fill for country, role in ROLES.items()}
TEAM_COLOURS = {"axis": "#444444", "allies": "#1f5fa8"}
LAND, SEA = "#e8dcc0", "#cfe3f2"
EDGE_LONGITUDE = -120  # spaces west of this longitude are drawn at the board's eastern (Pacific) edge
# Europe holds a third of the spaces in a tenth of the world: the drawing widens it (piecewise linear)
LONGITUDES, XS = (-120, -30, 55, 75, 125, 240), (-120, -30, 150, 175, 255, 350)
LATITUDES, YS = (-60, 35, 70), (-60, 35, 112)
W = Words()


def _at(longitude: float, latitude: float) -> tuple[float, float]:
    unrolled = longitude + 360 if longitude < EDGE_LONGITUDE else longitude
    return float(np.interp(unrolled, LONGITUDES, XS)), float(np.interp(latitude, LATITUDES, YS))


SIZE, DPI, BOX = (16, 8.6), 100, (0.01, 0.1, 0.98, 0.84)


def render_board(pack: Pack, state: dict[str, Any], events: list[dict[str, Any]], title: str,
                 vp_history: list[tuple[int, dict[str, int]]] | None = None) -> bytes:
    """The board after a turn as PNG; `vp_history`, each turn's (round, team VP) so far, adds the VP chart."""
    return palette_image(draw_board(pack, state, events, title, vp_history))


def draw_board(pack: Pack, state: dict[str, Any], events: list[dict[str, Any]], title: str,
               vp_history: list[tuple[int, dict[str, int]]] | None = None) -> Any:
    """`render_board`'s pixels (RGBA, rows from the top)."""
    board = pack.board
    at = {name: _at(*space.at) for name, space in board.spaces.items()}
    limits = (min(x for x, _ in at.values()) - 12, max(x for x, _ in at.values()) + 12, -62, 118)
    sheet = Sheet(SIZE, DPI, BOX, limits)
    facts = repr((limits, [(n, at[n], s.kind, s.home, s.star, sorted(board.neighbours[n]))
                           for n, s in board.spaces.items()]))
    # the layers show the countries' colours and letters (palette) and names (words) too
    drawn_by = (__name__, "pbem.rulesets.qmg.palette", "pbem.core.words")
    ground = board_layer(drawn_by, repr(("ground", facts)), partial(_board, "ground", board, at, limits))
    marks = board_overlay(drawn_by, repr(("marks", facts)), partial(_board, "marks", board, at, limits), sheet)
    sheet.layer(marks, zorder=3)  # the spaces and their names: over supply lines and rings, under the pieces
    sheet.title(title, fontsize=14)
    axis_on = axis_armies(state["pieces"])
    straits: list[tuple[str, str, str]] = []
    for strait in board.straits:
        team = "axis" if strait["anchor"] in axis_on else "allies"
        (x1, y1), (x2, y2) = (at[s] for s in strait["seas"])
        sheet.plot([x1, x2], [y1, y2], color=TEAM_COLOURS[team], lw=2.2, ls=(0, (4, 2)), zorder=2)
        straits.append((strait["anchor"], f"strait open to the {team.title()}", TEAM_COLOURS[team]))
    _rings(sheet, at, events)
    # the straits' names go where the spaces' names (drawn with the board) left room
    labels = _space_labels(board) + straits
    for (x, y, ha, va), (_, text, colour) in list(zip(label_places(at, labels), labels))[len(board.order):]:
        sheet.text(x, y, text, ha=ha, va=va, fontsize=7, color=colour, zorder=6)
    supplied = {c: supply_chains(board, state["pieces"], c, state["options"]) for c in COUNTRIES}
    _supply_lines(sheet, at, state["pieces"], supplied)
    drawn: dict[str, list[list[Any]]] = {"army": [[], [], [], []], "navy": [[], [], [], []]}
    cut_off: list[tuple[float, float]] = []
    for name, here in state["pieces"].items():
        x, y = at[name]
        for i, piece in enumerate(here):
            px = x - 2.2 * (len(here) - 1) / 2 + 2.2 * i
            points = drawn[piece["piece"]]
            points[0].append(px)
            points[1].append(y)
            points[2].append(COLOURS[piece["country"]])
            points[3].append(piece["country"])
            if name not in supplied[piece["country"]]:
                cut_off.append((px, y))
    for piece, marker in (("army", "s"), ("navy", "^")):
        px, py, colours, owners = drawn[piece]
        if px:
            sheet.scatter(px, py, s=95, marker=marker, c=colours, edgecolors="black", linewidths=0.6, zorder=7)
            _owner_letters(sheet, px, py, owners, piece)
    if cut_off:
        sheet.scatter([x for x, _ in cut_off], [y for _, y in cut_off], s=60, marker="x", c="white",
                      linewidths=1.4, zorder=8)
    _vp_track(sheet, state, events)
    if vp_history:
        vp_chart(sheet, vp_history, TEAM_COLOURS)
    return sheet.pixels(ground)


def _space_labels(board: Board) -> list[tuple[str, str, str]]:
    return [(n, n, "black") for n in board.order]


def _board(kind: str, board: Board, at: dict[str, tuple[float, float]], limits: tuple[float, ...]):
    """The layer of what a board always shows: the `ground` (its neighbours' lines) or, on a clear
    sheet, its `marks` (the spaces, supply stars and names, the legend's key)."""
    figure, axes = board_figure(SIZE, DPI, BOX, limits, ground=kind == "ground")
    if kind == "ground":
        _neighbours(axes, board, at, limits[0], limits[1])
        return figure_pixels(figure)
    names = board.order
    xs, ys = [at[n][0] for n in names], [at[n][1] for n in names]
    spaces = [board.spaces[n] for n in names]
    axes.scatter(xs, ys, s=520, zorder=3, c=[LAND if s.kind == "land" else SEA for s in spaces],
                 edgecolors=[COLOURS[s.home] if s.home else "#7a7a7a" for s in spaces],
                 linewidths=[3 if s.home else 0.8 for s in spaces])
    stars = [at[n] for n in names if board.spaces[n].star]
    axes.scatter([x + 3.2 for x, _ in stars], [y + 3.0 for _, y in stars], s=70, marker="*", c="#d4a017",
                 edgecolors="#6b5200", linewidths=0.5, zorder=5)
    labels = _space_labels(board)
    for (x, y, ha, va), (_, text, colour) in zip(label_places(at, labels), labels):
        axes.text(x, y, text, ha=ha, va=va, fontsize=7, color=colour, zorder=6)
    _legend(figure)
    return figure_pixels(figure)


def _neighbours(axes: Any, board: Board, at: dict[str, tuple[float, float]], left: float, right: float) -> None:
    lines, stubs = [], []
    for name in board.order:
        for other in sorted(board.neighbours[name], key=board.order.index):
            if board.order.index(other) < board.order.index(name):
                continue
            (x1, y1), (x2, y2) = at[name], at[other]
            if abs(x1 - x2) > 250:  # across the cylinder's edge: a stub to each side of the board
                stubs += [[(x1, y1), (left if x1 < x2 else right, y1)], [(x2, y2), (left if x2 < x1 else right, y2)]]
            else:
                lines.append([(x1, y1), (x2, y2)])
    axes.add_collection(LineCollection(lines, colors="#9a9a9a", linewidths=0.8, zorder=1))
    axes.add_collection(LineCollection(stubs, colors="#8a8a8a", linewidths=0.8, linestyles="dotted", zorder=1))


def _owner_letters(sheet: Sheet, xs: list[float], ys: list[float], owners: list[str], piece: str) -> None:
    """Each piece's owner by its letter, so that colour is not the only clue (a navy's letter sits low,
    in the triangle's wide part)."""
    for x, y, owner in zip(xs, ys, owners):
        sheet.text(x, y - (0.35 if piece == "navy" else 0), ROLES[owner].letter, ha="center", va="center",
                   fontsize=5, fontweight="bold", color=ROLES[owner].ink, zorder=7.5)


# where a label may sit around its space's point (offset, alignment), the first that is clear wins
PLACES = ((0, -4.6, "center", "top"), (0, 4.6, "center", "bottom"), (5.6, 0, "left", "center"),
          (-5.6, 0, "right", "center"), (0, -9.5, "center", "top"), (0, 9.5, "center", "bottom"))
CHAR_WIDTH, LINE_HEIGHT, DOT = 1.55, 2.6, (5.2, 4.4)  # a 7-point letter and a space's dot, in board units


def label_places(at: dict[str, tuple[float, float]], labels: list[tuple[str, str, str]]
                 ) -> list[tuple[float, float, str, str]]:
    """Where each (space, text, colour) label is drawn: the first place around its space whose text
    overlaps no space's dot and no label placed before it (else the first place)."""
    taken = [(x - DOT[0], y - DOT[1], x + DOT[0], y + DOT[1]) for x, y in at.values()]
    chosen = []
    for space, text, _ in labels:
        x, y = at[space]
        boxes = [_box(x + dx, y + dy, ha, va, len(text)) for dx, dy, ha, va in PLACES]
        clear = [i for i, box in enumerate(boxes) if not any(_overlap(box, t) for t in taken)]
        i = clear[0] if clear else 0
        taken.append(boxes[i])
        dx, dy, ha, va = PLACES[i]
        chosen.append((x + dx, y + dy, ha, va))
    return chosen


def _box(x: float, y: float, ha: str, va: str, letters: int) -> tuple[float, float, float, float]:
    width = CHAR_WIDTH * letters
    left = {"center": x - width / 2, "left": x, "right": x - width}[ha]
    bottom = {"top": y - LINE_HEIGHT, "bottom": y, "center": y - LINE_HEIGHT / 2}[va]
    return left, bottom, left + width, bottom + LINE_HEIGHT


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _supply_lines(sheet: Sheet, at: dict[str, tuple[float, float]], pieces: dict[str, list[dict[str, str]]],
                  chains: dict[str, dict[str, list[str]]]) -> None:
    """Each supplied piece's chain back to its supply source, in its country's colour, each country's
    lines a little apart so that two chains through the same spaces both show."""
    for i, (country, supplied) in enumerate(chains.items()):
        shift = (i - (len(chains) - 1) / 2) * 0.7
        links = {tuple(chain[j:j + 2]) for space, chain in supplied.items()
                 if any(p["country"] == country for p in pieces.get(space, [])) for j in range(len(chain) - 1)}
        lines = [[(at[a][0] + shift, at[a][1] + shift), (at[b][0] + shift, at[b][1] + shift)]
                 for a, b in sorted(links) if abs(at[a][0] - at[b][0]) < 250]  # none drawn across the cut
        sheet.lines(lines, colors=COLOURS[country], linewidths=2.4, alpha=0.75, zorder=2)


def _rings(sheet: Sheet, at: dict[str, tuple[float, float]], events: list[dict[str, Any]]) -> None:
    """This turn's battles and builds ringed; a battle's ring is the wider, so a space both built in and
    fought over shows both rings."""
    for kinds, colour, style, size in ((("battle",), "#c62828", "--", 1500), (("built", "recruited"), "#2e7d32",
                                                                           "-", 1000)):
        ringed = sorted({e["space"] for e in events if e["type"] in kinds and e.get("space") in at})
        if ringed:
            sheet.scatter([at[n][0] for n in ringed], [at[n][1] for n in ringed], s=size, c="none",
                          edgecolors=colour, linewidths=2, linestyles=style, zorder=2)


def shown_round(state: dict[str, Any], events: list[dict[str, Any]]) -> int:
    """The round this turn was played in: a turn that ends a round leaves the state in the next one."""
    return min((e["round"] for e in events if e["type"] == "round_end"), default=state["round"])


def _legend(figure: Any) -> None:
    """The countries' colours and letters, and the symbols."""
    for i, country in enumerate(COUNTRIES):
        figure.text(0.02 + 0.105 * i, 0.075, "■", fontsize=10, color=COLOURS[country], va="center")
        figure.text(0.031 + 0.105 * i, 0.075, f"{ROLES[country].letter} {W.power(country)} "
                    f"({TEAMS[country].title()})", fontsize=8, color=LEGEND_INK, va="center")
    figure.text(0.66, 0.075, "■ army   ▲ navy   × unsupplied   ★ supply space   thick lines: supply chains\n"
                "rings: battle (red, dashed), built or recruited (green)", fontsize=7.5, va="center")


def _vp_track(sheet: Sheet, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """The VP track, each team's share of the VP in its colour, and the round."""
    axis, allies = state["vp"]["axis"], state["vp"]["allies"]
    total = max(max(axis, 0) + max(allies, 0), 1)
    # a bar 0.8 high in a track as tall as the bar and a twentieth more each way, as a bar chart has it
    frame, track = sheet.place((0.25, 0.018, 0.5, 0.035), (0, total, -0.44, 0.44))
    for left, width, team in ((0, max(axis, 0), "axis"), (max(axis, 0), max(allies, 0), "allies")):
        sheet.add_artist(Rectangle((left, -0.4), width, 0.8, facecolor=TEAM_COLOURS[team], edgecolor="none"),
                         clip=frame, transform=track, above=FIGURE)
    for x, text, align in ((0, f" Axis {axis} VP", "left"), (total, f"Allies {allies} VP ", "right")):
        sheet.add_artist(Text(x, 0, text, va="center", ha=align, color="white", fontsize=9, fontweight="bold"),
                         clip=False, transform=track, above=FIGURE)
    sheet.figure_text(0.76, 0.035, f"round {shown_round(state, events)} of 20; sudden victory at a lead of 30",
                      fontsize=8, va="center")
