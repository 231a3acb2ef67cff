"""The map image of the turn report: ``draw_map`` draws a position on an Axis & Allies edition's
board with matplotlib's Agg backend (no display, no pyplot), layer by layer.

In the order drawn: the spaces (``map_spaces``: land in its controller's colour, neutral land
hatched, sea blue, this turn's battles outlined, capitals, victory cities and IPC values); this
turn's moves and rocket strikes (``map_moves``); the writing at each space (``map_labels``: its
name, the tags of its battle or of the IPC that bombing and rockets cost, a unit box for each power
and one for the units placed this turn); where the board wraps east-west (Revised), its edges, and
on the full map a veiled strip of the opposite edge on each side (``map_spaces``); the title; the
legend (``map_legend``). The colours, fonts and sizes are ``map_style``'s, the arithmetic from
board to image pixels ``map_view``'s. Besides the pixels, ``draw_map`` returns what it drew where
(``map_info.MapInfo``), for a page that zooms into the image or shows tooltips; its ``scale`` draws
the same picture at a higher resolution.

The same inputs always give the same pixels: the fonts are bundled with matplotlib, and size and
dpi follow from the arguments alone; the reports make palette PNGs of them
(``palette.palette_image``), which carry no varying metadata. The drawing reads the state, the
board and the events; it never decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from pbem.rulesets.axis_allies.reports.map_info import MapInfo, map_info
from pbem.rulesets.axis_allies.reports.map_labels import draw_labels, layout, make_labels
from pbem.rulesets.axis_allies.reports.map_legend import Legend, draw_legend
from pbem.rulesets.axis_allies.reports.map_moves import draw_moves, draw_rockets
from pbem.rulesets.axis_allies.reports.map_spaces import draw_battle_outlines, draw_markers, draw_polygons, draw_wrap
from pbem.rulesets.axis_allies.reports.map_style import MAP_COLOURS, font
from pbem.rulesets.axis_allies.reports.map_view import DPI, make_view

_RC: dict[Any, Any] = {  # rcParams for this drawing only
    "text.hinting": "force_autohint",
    "text.antialiased": True,
    "lines.antialiased": True,
    "patch.antialiased": True,
    "path.simplify": False,
    "hatch.linewidth": 0.6,
    # the game's name and every other text drawn are shown as written: "$...$" in a player's
    # text must not be read as a formula (an unfinished one would stop the drawing)
    "text.parse_math": False,
}


def draw_map(state: Mapping[str, Any], board: Mapping[str, Any], graphics: Mapping[str, Any],
             events: Sequence[Mapping[str, Any]] | None, *, theatre: str | None = None,
             title: str, scale: float = 1.0) -> tuple[np.ndarray, MapInfo]:
    """Draw ``state`` on the board: the image's RGB pixels (rows from the top) and what was drawn
    where (``MapInfo``).

    ``state``: a position in the shape of ``state.yaml`` (``control``, ``units``, ``cargo`` are
    read); ``board``: the parsed ``board.yaml`` (territories' ``neutral``, ``capital``,
    ``victory_city``, ``ipc``; ``sea_zones``; the powers' display names); ``graphics``: the
    parsed ``graphics.json``; ``events``: this turn's event log or ``None`` (``move`` events
    become arrows along their path, ``battle_start``/``battle_end`` events outline the battle's
    space and tag it with the outcome, ``bombing`` and ``rocket`` events tag the damaged space with
    the IPC paid, ``place`` events add a box of the units placed). ``theatre``: ``None`` for the
    whole board (with a veiled copy of the opposite edge on each side when the board wraps) or one
    of the edition's theatres (``Style.theatres``).
    ``title`` is written above the map.

    The image is ``IMAGE_WIDTH`` pixels wide, or ``scale`` times that: the same picture at a
    higher (or lower) resolution, writing and lines included. The same arguments give the same
    pixels.
    """
    if not scale > 0:
        raise ValueError(f"scale must be above 0, not {scale!r}")
    view = make_view(graphics, theatre)
    territories = {t["name"]: t for t in board.get("territories", [])}
    names = {p: p for p in view.style.powers} | {p["id"]: p.get("name", p["id"])
                                            for p in board.get("powers", [])}
    events = list(events or [])
    labels = make_labels(graphics, board)
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(view.width_px / DPI, view.height_px / DPI), dpi=DPI,
                     facecolor="#ffffff")
        canvas = FigureCanvasAgg(fig)
        layout(labels, view, canvas.get_renderer(), state, events, territories)
        height = view.height_px
        ax = fig.add_axes((0, view.bottom_px / height, 1, view.map_height_px / height))
        ax.set_xlim(view.x0, view.x1)
        ax.set_ylim(view.y1, view.y0)
        ax.set_axis_off()
        ax.add_patch(Rectangle((view.x0, view.y0), view.x1 - view.x0, view.y1 - view.y0,
                               facecolor=MAP_COLOURS["background"], linewidth=0, zorder=0))
        convoy_zones = [z["name"] for z in board.get("sea_zones", []) if z.get("ipc")]
        draw_polygons(ax, view, labels, territories, state.get("control") or {}, convoy_zones)
        draw_battle_outlines(ax, view, labels)
        draw_markers(ax, view, labels, territories)
        draw_moves(ax, view, labels, events)
        draw_rockets(ax, view, labels, events)
        values = {t["name"]: t["ipc"] for t in board.get("territories", []) if t.get("ipc")}
        values |= {z["name"]: z["ipc"] for z in board.get("sea_zones", []) if z.get("ipc")}
        draw_labels(ax, view, labels, values)
        draw_wrap(ax, view)
        middle = 1 - (view.top_px / 2) / height
        fig.text(12 / view.width_px, middle, title, fontproperties=font("bold", 15),
                 ha="left", va="center")
        if theatre:
            fig.text(1 - 12 / view.width_px, middle, f"{theatre.capitalize()} theatre",
                     fontproperties=font("italic", 11), ha="right", va="center")
        draw_legend(fig, view, names, Legend.of_board(board), canvas.get_renderer())
        fig.set_dpi(DPI * scale)  # after the layout, which measured the writing at DPI
        canvas.draw()
        pixels = np.asarray(canvas.buffer_rgba())[:, :, :3].copy()
        return pixels, map_info(view, labels, state, events, canvas.get_width_height(physical=True), scale)
