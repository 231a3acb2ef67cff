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

What no turn changes (the sea, neutral land, markers, legend, the wrapped edges) is drawn once for
each board, window and scale (``map_layers``), and each piece of writing once (``map_sprites``); a
turn draws its land, battles and arrows on a `pbem.render.sheet.Sheet` (Agg's renderer, without the
Figure and Axes whose import costs more than the turn's drawing) between those layers and lays its
writing on them. The same inputs always give the same pixels, whether the layers and writing were
just drawn or kept: the fonts are bundled with matplotlib, size and dpi follow from the arguments
alone, and the kept pixels are always laid the same way; the reports make palette PNGs of them
(``palette.palette_image``), which carry no varying metadata. The drawing reads the state, the
board and the events; it never decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import RendererAgg

from pbem.render.sheet import Sheet
from pbem.rulesets.axis_allies.reports.map_info import MapInfo, map_info
from pbem.rulesets.axis_allies.reports.map_labels import layout, make_labels, writings
from pbem.rulesets.axis_allies.reports.map_layers import Layers, forget_layers, map_sheet, static_layers
from pbem.rulesets.axis_allies.reports.map_marks import Writing
from pbem.rulesets.axis_allies.reports.map_moves import draw_moves, draw_rockets
from pbem.rulesets.axis_allies.reports.map_spaces import draw_battle_outlines, draw_polygons
from pbem.rulesets.axis_allies.reports.map_sprites import forget_sprites, keep_sprites, lay, sprite
from pbem.rulesets.axis_allies.reports.map_style import font, keep_text_sizes
from pbem.rulesets.axis_allies.reports.map_view import make_view

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
    events = list(events or [])
    labels = make_labels(graphics, board)
    with matplotlib.rc_context(_RC):
        layers = static_layers(view, scale, board, graphics, labels, theatre)
        layout(labels, view, state, events, territories)
        sheet = map_sheet(view, scale)
        convoy_zones = [z["name"] for z in board.get("sea_zones", []) if z.get("ipc")]
        draw_polygons(sheet, view, labels, territories, state.get("control") or {}, convoy_zones)
        draw_battle_outlines(sheet, view, labels)
        draw_moves(sheet, view, labels, events)
        draw_rockets(sheet, view, labels, events)
        sheet.figure_text(12 / view.width_px, 1 - (view.top_px / 2) / view.height_px, title,
                          fontproperties=font("bold", 15), ha="left", va="center")  # over everything
        values = {t["name"]: t["ipc"] for t in board.get("territories", []) if t.get("ipc")}
        values |= {z["name"]: z["ipc"] for z in board.get("sea_zones", []) if z.get("ipc")}
        _draw_turn(sheet, layers, writings(view, labels, values))
        image = sheet.pixels(layers.base)
        keep_sprites()
        keep_text_sizes()
        info = map_info(view, labels, layers.outlines, state, events, image.shape[1::-1], scale)
        return image[:, :, :3].copy(), info


def forget_drawings() -> None:
    """Forget every board's layers and every piece of writing drawn so far: the next map draws them anew."""
    forget_layers()
    forget_sprites()


def _draw_turn(sheet: Sheet, layers: Layers, written: list[tuple[float, float, float, Writing]]) -> None:
    """The turn's drawing in the order of its layers: the land's owners and battles (matplotlib's
    artists), the markers, the writing under the moves' arrows, the arrows, the writing over them (tags),
    the wrapped edges."""
    height = int(sheet.height)
    x0, y0, x1, y1 = sheet.frame.extents
    window = (round(height - y1), round(height - y0), round(x0), round(x1))
    anchors = sheet.data.transform(np.array([(x, y) for _, x, y, _ in written]).reshape(-1, 2))
    sheet.layer(layers.marks, 4)
    for (zorder, _, _, writing), (x, y) in zip(written, anchors):
        sheet.add_drawing(zorder, _laid(lay, sprite(writing, sheet.dpi), round(x), round(height - y), window))
    sheet.layer(layers.edges, 9)


def _laid(action: Callable[..., None], *arguments: Any) -> Callable[[RendererAgg], None]:
    """Pixels laid straight onto what the renderer has drawn so far, by ``action(image, *arguments)``."""
    return lambda renderer: action(np.asarray(renderer.buffer_rgba()), *arguments)
