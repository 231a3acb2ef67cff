"""Where the board goes in the image: the image's width and resolution, the bands above and below
the map (title, legend), and ``View``, a window on the board (the whole board, or one of an
edition's theatres) with the arithmetic from board pixels to image pixels, the east-west wrap
included.

Board pixels are those of the edition's ``graphics.json`` (made by
``tools/convert_axis_allies_graphics.py``): origin top left, y downwards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.rulesets.axis_allies.reports.map_style import Style

#: Width of every image in pixels (its resolution is ``DPI``; both part of byte-identical output).
IMAGE_WIDTH = 2000
_TITLE_PX = 46
_LEGEND_PX = 92
#: How much of the opposite edge the full map repeats on each side (board pixels).
WRAP_STRIP = 150
#: Writing is this much larger on the (zoomed-in) theatre maps.
_THEATRE_TEXT_SCALE = 1.45


@dataclass(frozen=True)
class View:
    """A window on the board and the image it becomes.

    ``x0..x1``, ``y0..y1``: the window in board pixels (x may run past 0 or the board width, the
    board wraps); ``width_px``/``map_height_px``: the map area in image pixels, which starts
    ``top_px`` below the top of the image and has ``bottom_px`` (the legend) below it.
    """

    x0: float
    x1: float
    y0: float
    y1: float
    board_width: int
    width_px: int
    map_height_px: int
    top_px: int
    bottom_px: int
    style: Style
    text_scale: float = 1.0
    wrap_strips: bool = False

    @property
    def scale(self) -> float:
        """Image pixels per board pixel."""
        return self.width_px / (self.x1 - self.x0)

    @property
    def height_px(self) -> int:
        """Height of the whole image: title band, map, legend."""
        return self.top_px + self.map_height_px + self.bottom_px

    def unwrap_x(self, x: float) -> float:
        """The copy of board column ``x`` (shifted by whole board widths) that is in the window.

        When two copies are in view (the full map's repeated strips), the one on the board
        itself (0 <= x < width) wins; when none is, the nearest one.
        """
        width = self.board_width
        base = x % width
        copies = [base + k * width for k in (0, -1, 1)]
        inside = [c for c in copies if self.x0 <= c < self.x1]
        if inside:
            return inside[0]
        middle = (self.x0 + self.x1) / 2
        return min(copies, key=lambda c: abs(c - middle))

    def to_image(self, x: float, y: float) -> tuple[float, float]:
        """Image pixel (column, row from the top) at which board point ``(x, y)`` is drawn."""
        return ((self.unwrap_x(x) - self.x0) * self.scale,
                self.top_px + (y - self.y0) * self.scale)

    def offsets(self, xmin: float, xmax: float, margin: float = 0.0) -> list[float]:
        """The shifts (0 and +-board width) that bring board columns ``xmin..xmax`` into view."""
        width = self.board_width
        return [k * width for k in (0, -1, 1)
                if xmin + k * width <= self.x1 + margin and xmax + k * width >= self.x0 - margin]


def make_view(graphics: Mapping[str, Any], theatre: str | None = None,
              width_px: int = IMAGE_WIDTH) -> View:
    """The view of the full map (``theatre=None``) or of one of the edition's theatres."""
    board, style = graphics["board"], Style.of(graphics)
    width, height = int(board["width"]), int(board["height"])
    strip = WRAP_STRIP if style.wraps else 0
    if theatre is None:
        x0, x1, y0, y1 = -strip, width + strip, 0, height
    elif theatre in style.theatres:
        x0, x1, y0, y1 = style.theatres[theatre]
    else:
        known = ", ".join(sorted(style.theatres)) or "none: this board is drawn whole only"
        raise ValueError(f"unknown theatre {theatre!r}; known: {known}")
    map_height = round(width_px * (y1 - y0) / (x1 - x0))
    return View(x0, x1, y0, y1, width, width_px, map_height, _TITLE_PX, _LEGEND_PX, style,
                text_scale=1.0 if theatre is None else _THEATRE_TEXT_SCALE,
                wrap_strips=theatre is None and style.wraps)


def board_to_image(graphics: Mapping[str, Any], x: float, y: float,
                   theatre: str | None = None) -> tuple[float, float]:
    """Image pixel (column, row from the top) at which ``draw_map`` draws board point (x, y) at
    scale 1 (at another scale, times the scale)."""
    return make_view(graphics, theatre).to_image(x, y)


def near(x: float, reference: float, width: float) -> float:
    """The copy of column ``x`` (shifted by whole board widths) nearest to ``reference``."""
    return x + round((reference - x) / width) * width
