"""The small pieces that the map and its legend both draw: an IPC badge, a victory city, a tag (a
battle's outcome, damage done), a power's unit box, and an arrow with its outline.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.patches import FancyArrowPatch
from matplotlib.path import Path as MplPath

from pbem.rulesets.axis_allies.reports.map_style import (
    ARROW_HEAD_PT,
    ARROW_STYLE,
    BOX_PAD_PX,
    DPI,
    LINE_SPACING,
    HALO,
    MAP_COLOURS,
    PLACED_FACE,
    STACK_PT,
    TAG_PT,
    arrow_layers,
    font,
)

if TYPE_CHECKING:  # the map's layers, drawn anew, are an Axes'; a turn's drawing is a Sheet's
    from matplotlib.axes import Axes

    from pbem.render.sheet import Sheet


_ARROW_HEAD_PX = ARROW_HEAD_PT * DPI / 72


@dataclass
class Tag:
    """A note above a space's name (a battle's outcome, damage done): ``ink`` on ``face``."""

    text: str
    face: str
    ink: str
    height_px: float = 0.0


@dataclass(frozen=True)
class Writing:
    """A piece of writing as matplotlib draws it, apart from where: the map draws each one once and
    reuses its pixels (``map_sprites``), the legend draws it as it is (``draw``)."""

    text: str
    style: str
    size: float
    colour: str
    ha: str = "center"
    va: str = "center"
    box: tuple[tuple[str, Any], ...] | None = None  # the ``bbox`` of ``Axes.text``, as sorted items
    halo: bool = False
    linespacing: float | None = None

    def kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``Axes.text`` that draw it."""
        extra: dict[str, Any] = {"bbox": dict(self.box)} if self.box else {}
        if self.halo:
            extra["path_effects"] = HALO
        if self.linespacing is not None:
            extra["linespacing"] = self.linespacing
        return {"fontproperties": font(self.style, self.size), "ha": self.ha, "va": self.va,
                "color": self.colour, **extra}

    def draw(self, ax: Axes, x: float, y: float, zorder: float) -> None:
        ax.text(x, y, self.text, zorder=zorder, clip_on=True, **self.kwargs())


def _box(**bbox: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(bbox.items()))


def ipc_badge(text: str, text_scale: float) -> Writing:
    return Writing(text, "bold", 5.6 * text_scale, "#ffffff",
                   box=_box(boxstyle="circle,pad=0.2", facecolor="#2d2d2d", edgecolor="#ffffff", linewidth=0.5))


def victory_city(ax: Axes, xs: list[float], ys: list[float], size: float) -> None:
    ax.scatter(xs, ys, s=42 * size, marker="o", facecolors="#ffffff", edgecolors="#000000",
               linewidths=1.3, zorder=4)
    ax.scatter(xs, ys, s=6 * size, marker="o", facecolors="#000000", linewidths=0, zorder=4.1)


def tag_box(tag: Tag, text_scale: float, ha: str = "center", va: str = "bottom") -> Writing:
    return Writing(tag.text, "bold", TAG_PT * text_scale, tag.ink, ha, va,
                   _box(boxstyle="round,pad=0.25", facecolor=tag.face, edgecolor="#000000", linewidth=0.5))


def unit_box(text: str, text_scale: float, colours: Mapping[str, str], placed: bool, va: str = "top",
             ha: str = "center") -> Writing:
    """A power's unit box; the units it placed this turn are written on ``PLACED_FACE``, edged in
    its colour."""
    pad = BOX_PAD_PX * 72 / DPI / STACK_PT
    face, edge, ink, edge_width = ((PLACED_FACE, colours["unit"], MAP_COLOURS["name"], 1.4) if placed
                                   else (colours["unit"], "#000000", colours["text"], 0.6))
    return Writing(text, "bold", STACK_PT * text_scale, ink, ha, va,
                   _box(boxstyle=f"round,pad={pad:.3f},rounding_size=0.5", facecolor=face, edgecolor=edge,
                        linewidth=edge_width), linespacing=LINE_SPACING)


def trim(points: np.ndarray, start: float, end: float) -> np.ndarray | None:
    """The polyline without its first ``start`` and last ``end`` board units (None if nothing
    is left)."""
    seg = np.diff(points, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    total = float(lengths.sum())
    if total <= start + end + 1e-6:
        return None
    cum = np.concatenate([[0.0], np.cumsum(lengths)])

    def at(d: float) -> np.ndarray:
        i = min(int(np.searchsorted(cum, d, side="right")) - 1, len(lengths) - 1)
        return points[i] + (d - cum[i]) / lengths[i] * seg[i] if lengths[i] else points[i]

    a, b = start, total - end
    return np.asarray([at(a), *(points[i] for i in range(1, len(points) - 1)
                                if a < cum[i] < b), at(b)])


def draw_arrow(ax: Axes | Sheet, points: np.ndarray, colour: str, line_style: Any = "-", scale: float = 1.0,
               zorder: float = 7.5) -> None:
    """One arrow along the polyline ``points`` (data units, ``scale`` image pixels each): its
    body in ``colour`` and ``line_style`` over its outline. The head is drawn apart from the
    shaft, whole: dashes or dots would break its outline."""
    (outline, outline_width), (body, body_width) = arrow_layers(colour)
    tip, before = points[-1], points[-2]
    toward = (tip - before) / float(np.hypot(*(tip - before)))
    head = np.asarray([tip - toward * _ARROW_HEAD_PX / scale, tip])  # all head: no shaft left to draw
    shaft = trim(points, 0.0, _ARROW_HEAD_PX / scale)
    strokes = [(points, outline, outline_width, "-", ARROW_STYLE), (head, body, body_width, "-", ARROW_STYLE)]
    if shaft is not None:
        strokes.insert(1, (shaft, body, body_width, line_style, "-"))
    for i, (line, stroke, width, style, arrow_style) in enumerate(strokes):
        codes = [MplPath.MOVETO] + [MplPath.LINETO] * (len(line) - 1)
        # add_artist, not add_patch: the limits are set, and measuring each arrow for them is wasted work
        ax.add_artist(FancyArrowPatch(path=MplPath(line, codes), arrowstyle=arrow_style, color=stroke,
                                      linewidth=width, linestyle=style, zorder=zorder + 0.01 * i,
                                      clip_on=True, joinstyle="round", capstyle="butt"))


def arc_points(start: np.ndarray, end: np.ndarray, bulge: float = 0.2, steps: int = 24) -> np.ndarray:
    """Points along a gentle arc from ``start`` to ``end``, bowed to the left of the way by
    ``bulge`` times its length."""
    middle = (start + end) / 2 + bulge * np.array([end[1] - start[1], start[0] - end[0]])
    t = np.linspace(0.0, 1.0, steps)[:, None]
    return (1 - t) ** 2 * start + 2 * t * (1 - t) * middle + t ** 2 * end
