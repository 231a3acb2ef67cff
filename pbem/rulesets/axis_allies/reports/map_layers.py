"""What no turn changes on a map, drawn once for each board, window and scale and kept while the
process runs: under the land, the background, the sea and the hatching of neutral land, with the
theatre's name and the legend below the map; over the land, the capitals, victory cities and IPC
values (``marks``); over everything, where the board wraps, its edges and the veiled strips beyond
them (``edges``). ``draw_map`` draws each turn's land, battles, writing and moves between them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.patches import Rectangle

from pbem.rulesets.axis_allies.reports import map_store
from pbem.rulesets.axis_allies.reports.map_info import Outlines, space_outlines
from pbem.rulesets.axis_allies.reports.map_labels import Label
from pbem.rulesets.axis_allies.reports.map_legend import Legend, draw_legend
from pbem.rulesets.axis_allies.reports.map_spaces import draw_markers, draw_waters, draw_wrap
from pbem.rulesets.axis_allies.reports.map_style import DPI, MAP_COLOURS, font
from pbem.rulesets.axis_allies.reports.map_view import View
from pbem.render.sheet import Overlay, Sheet

if TYPE_CHECKING:  # a Figure and its Axes only where a layer is drawn anew: their import costs more than a turn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Layers:
    """``base``: the whole image's RGBA before the turn's drawing; ``marks`` and ``edges``: laid over it;
    ``outlines``: the spaces' outlines in the image (``map_info.space_outlines``)."""

    base: np.ndarray
    marks: Overlay
    edges: Overlay
    outlines: Outlines


def map_figure(view: View, scale: float, face: str = "#ffffff") -> tuple[Figure, Axes]:
    """A figure of the map's image at ``scale``, and the axes of the map in it (board pixels)."""
    from matplotlib.figure import Figure
    figure = Figure(figsize=_size(view), dpi=DPI * scale, facecolor=face)
    ax = figure.add_axes(_box(view))
    ax.set_xlim(view.x0, view.x1)
    ax.set_ylim(view.y1, view.y0)
    ax.set_axis_off()
    return figure, ax


def map_sheet(view: View, scale: float) -> Sheet:
    """The map's image at ``scale`` as a `Sheet`, its box the map's axes: what a turn draws on."""
    return Sheet(_size(view), DPI * scale, _box(view), (view.x0, view.x1, view.y1, view.y0))


def _size(view: View) -> tuple[float, float]:
    return view.width_px / DPI, view.height_px / DPI


def _box(view: View) -> tuple[float, float, float, float]:
    return 0, view.bottom_px / view.height_px, 1, view.map_height_px / view.height_px


def _pixels(figure: Figure) -> np.ndarray:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


_KEPT: dict[tuple[Any, ...], tuple[Mapping[str, Any], Mapping[str, Any], Layers]] = {}


def forget_layers() -> None:
    _KEPT.clear()


def static_layers(view: View, scale: float, board: Mapping[str, Any], graphics: Mapping[str, Any],
                  labels: Mapping[str, Label], theatre: str | None) -> Layers:
    """The layers of ``board`` drawn with ``graphics`` in ``view`` at ``scale``: kept in this process, else
    kept on disk by an earlier one, else drawn (and kept in both)."""
    memory = (id(board), id(graphics), theatre, scale)
    kept = _KEPT.get(memory)
    if kept is None or kept[0] is not board or kept[1] is not graphics:  # ids of objects since gone
        if len(_KEPT) >= 16:
            _KEPT.clear()
        name = map_store.key("layers", board, graphics, theatre, scale)
        layers = _from_disk(map_store.read("layers", name), map_sheet(view, scale))
        if layers is None:
            layers = _draw(view, scale, board, labels, theatre)
            map_store.write("layers", name, {"base": layers.base, "marks_index": layers.marks.index,
                                             "marks_rgba": layers.marks.rgba, "edges_index": layers.edges.index,
                                             "edges_rgba": layers.edges.rgba,
                                             "outlines": np.frombuffer(json.dumps(layers.outlines).encode(), np.uint8)})
        kept = _KEPT[memory] = (board, graphics, layers)
    return kept[2]


def _from_disk(arrays: dict[str, np.ndarray] | None, sheet: Sheet) -> Layers | None:
    """The layers kept on disk, if they are of the sheet's size."""
    if arrays is None:
        return None
    width, height = int(sheet.width), int(sheet.height)
    base = arrays.get("base")
    if base is None or base.dtype != np.uint8 or base.shape != (height, width, 4):
        return None
    overlays = [Overlay(arrays.get(f"{layer}_index"), arrays.get(f"{layer}_rgba")) for layer in ("marks", "edges")]
    if not all(o.fits(height * width) for o in overlays):
        return None
    try:
        outlines = tuple((str(name), tuple(tuple((int(x), int(y)) for x, y in ring) for ring in rings))
                         for name, rings in json.loads(bytes(arrays["outlines"]).decode()))
    except (KeyError, ValueError, TypeError):
        return None
    return Layers(base, *overlays, outlines)


def _draw(view: View, scale: float, board: Mapping[str, Any], labels: Mapping[str, Label],
          theatre: str | None) -> Layers:
    territories = {t["name"]: t for t in board.get("territories", [])}
    figure, ax = map_figure(view, scale)
    ax.add_patch(Rectangle((view.x0, view.y0), view.x1 - view.x0, view.y1 - view.y0,
                           facecolor=MAP_COLOURS["background"], linewidth=0, zorder=0))
    draw_waters(ax, view, labels, territories)
    if theatre:
        figure.text(1 - 12 / view.width_px, 1 - (view.top_px / 2) / view.height_px, f"{theatre.capitalize()} theatre",
                    fontproperties=font("italic", 11), ha="right", va="center")
    names = {p: p for p in view.style.powers} | {p["id"]: p.get("name", p["id"]) for p in board.get("powers", [])}
    draw_legend(figure, view, names, Legend.of_board(board))
    base = _pixels(figure)
    figure, ax = map_figure(view, scale, "none")
    draw_markers(ax, view, labels, territories)
    marks = Overlay.of(_pixels(figure))
    figure, ax = map_figure(view, scale, "none")
    draw_wrap(ax, view)
    return Layers(base, marks, Overlay.of(_pixels(figure)), space_outlines(view, labels, scale))
