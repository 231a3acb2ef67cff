"""The war over time: production per power, army value per side and victory cities (or enemy
capitals) per side, one point after every turn of the game so far (`pbem.core.history.game_history`).

One sheet with the three charts stacked, so that it reads on a phone as well as on a desktop: as SVG
for the HTML report (it scales without blurring; its text stays text) and as a palette PNG for forums
and mail. Each chart is drawn as matplotlib's Axes would draw it (limits, ticks, grid, legend) onto a
`Sheet`, without the Figure and Axes whose import and layout cost more than the drawing; the margins
that `tight_layout` found are computed from the writing they hold. The same history always gives the
same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.markers import TICKDOWN, TICKLEFT
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, Bbox, BboxTransformTo, Transform, blended_transform_factory

from pbem.core.history import Point
from pbem.core.words import Words
from pbem.render.axis import limits as axis_limits, tick_labels, ticks
from pbem.render.palette import palette_image
from pbem.render.sheet import Sheet

_RC = {
    "font.family": "DejaVu Sans",  # bundled with matplotlib: the same glyphs on every machine
    "font.size": 11,
    "svg.fonttype": "none",
    "svg.hashsalt": "pbem",  # element ids from the drawing, not from chance
    "text.parse_math": False,
}
WIDTH_IN, PANEL_IN = 4.8, 2.6  # narrow, so that on a phone the writing is as large as it can be
PNG_DPI = 130
MARKERS = ("o", "s", "^", "D", "v", "P")
DASHES = ("-", (0, (5, 2)), (0, (1, 1.5)), (0, (6, 2, 1, 2)), (0, (3, 1, 1, 1, 1, 1)), (0, (9, 3)))
"""With the markers, what tells lines apart without their colours (a colour-blind reader, a grey print)."""
ROUND_LABELS = 12
"""At most this many rounds named under the charts: more would overlap on a chart this wide."""
MARKED = 40
"""At most about this many markers a line: more would run together into a thicker line on a chart this
wide, and each is an element of the SVG, whose drawing would grow with the game's length."""
CAPITALS_TO_WIN = 1
"""Where capitals decide (Europe, l.76-80, l.613): one enemy capital held, with one's own, until one's
next turn wins."""
WIN_COLOUR = "#7a1b1b"
TURN_AXIS = "after each turn, a tick each (R: round)"
# points, as matplotlib's defaults and tight_layout(h_pad=1.2) have them for 11-point writing
LABEL_PT, TITLE_PT, LEGEND_PT = 9, 12, 9
SUBPLOTS, HSPACE = (0.125, 0.9, 0.11, 0.88), 0.2  # where a Figure puts its charts (left, right, bottom, top)
EDGE, BETWEEN = 1.08 * 11, 1.2 * 11  # the sheet's margin, and the space between one chart and the next
TICK, TICK_PAD, TITLE_PAD, LABEL_PAD = 3.5, 3.5, 20, 4
MINOR_TICKS = 2, 3  # over the charts, and under the last one: longer where the turn labels are


@dataclass
class Panel:
    """One chart: its title, its lines (x, y, Line2D style), its value axis and, on the last, the
    count that wins."""
    title: str
    lines: list[tuple[list[int], list[int], dict]] = field(default_factory=list)
    low: float | None = None
    high: float | None = None
    integer: bool = False
    win: tuple[int, str] | None = None

    def limits(self) -> tuple[float, float]:
        if self.low is not None:
            return self.low, self.high
        values = [y for _, ys, _ in self.lines for y in ys]
        return axis_limits(min(values), max(values))


def _line_style(i: int) -> dict:
    """The marker and dashes of the i-th line of a chart; the legend shows both."""
    return {"marker": MARKERS[i % len(MARKERS)], "linestyle": DASHES[i % len(DASHES)], "markersize": 4}


def _turn_axis(points: Sequence[Point]) -> tuple[list[int], list[str], list[int]]:
    """Labelled ticks at the opening and at the first turn of a round (of every round, or where more
    would not fit of every 2nd, 5th, 10th... round: R10, R20...), and a small tick at every other turn."""
    ticks, labels, starts = [], [], []
    for i, p in enumerate(points):
        if p.power is None:
            ticks.append(i)
            labels.append("start" if p.turn == 0 else "before")
        elif not starts or points[starts[-1]].round != p.round:
            starts.append(i)
    step = _round_step(len(starts))
    for i in (i for i in starts if step == 1 or points[i].round % step == 0):
        ticks.append(i)
        labels.append(f"R{points[i].round}")
    return ticks, labels, [i for i in range(len(points)) if i not in ticks]


def _round_step(rounds: int) -> int:
    """Name every round, or every 2nd, 5th, 10th, 20th... so that at most `ROUND_LABELS` are named."""
    step = 1
    while -(-rounds // step) > ROUND_LABELS:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step


def _panels(points: Sequence[Point], w: Words, colours: Mapping[str, str]) -> list[Panel]:
    xs = list(range(len(points)))
    last = points[-1].summary
    powers = [r["power"] for r in last["powers"]]
    sides = [s["name"] for s in last["sides"]]
    # a side is drawn in the colour of its first power in turn order
    side_colour = {side: colours.get(next(r["power"] for r in last["powers"] if r["side"] == side), "#000000")
                   for side in sides}
    production = Panel("Production per power (IPC)")
    army = Panel("Army value per side (IPC, units at cost)")
    cities = Panel("Victory cities per side" if last["needed"] else "Enemy capitals held per side", integer=True)

    def by_power(power: str) -> list[int]:
        return [next(r["production"] for r in p.summary["powers"] if r["power"] == power) for p in points]

    for i, power in enumerate(powers):  # markers and dashes tell apart powers whose lines run together
        production.lines.append((xs, by_power(power), {"color": colours.get(power, "#000000"),
                                                       "label": w.power(power), **_line_style(i)}))
    for i, side in enumerate(sides):
        style = {"color": side_colour[side], "label": side, **_line_style(i)}
        value = [sum(r["value"] for r in p.summary["powers"] if r["side"] == side) for p in points]
        army.lines.append((xs, value, style))
        held = [next(s["count"] for s in p.summary["sides"] if s["name"] == side) for p in points]
        cities.lines.append((xs, held, {**style, "drawstyle": "steps-post"}))
    win = last["needed"] or CAPITALS_TO_WIN
    cities.win = win, f"{win} win" if last["needed"] else f"{win} wins (with one's own capital)"
    cities.low, cities.high = 0, max(win, *(s["count"] for p in points for s in p.summary["sides"])) + 1
    return [production, army, cities]


@dataclass
class Layout:
    """Where the charts sit on the sheet, in points from its lower left corner."""
    left: float
    width: float
    bottoms: list[float]
    height: float
    line: float  # the height of a line of tick labels
    size: tuple[float, float] = (WIDTH_IN, 3 * PANEL_IN)

    def box(self, i: int) -> tuple[float, float, float, float]:
        w, h = self.size[0] * 72, self.size[1] * 72
        return self.left / w, self.bottoms[i] / h, self.width / w, self.height / h


_MEASURE = RendererAgg(1, 1, 72)  # a pixel at 72 dpi is a point
LAYOUT_DPI = 100  # a Figure's, at which tight_layout measured the writing
_LAYOUT = RendererAgg(1, 1, LAYOUT_DPI)  # one renderer for every measure: matplotlib keeps text sizes per renderer


def _extent(text: Text) -> tuple[float, float, float]:
    """A piece of writing's width, and its height above and below its anchor, in points, as
    tight_layout measured it."""
    text.set_figure(Sheet((1, 1), LAYOUT_DPI, (0, 0, 1, 1), (0, 1, 0, 1)))
    text.set_transform(Affine2D().scale(LAYOUT_DPI / 72))
    box = text.get_window_extent(_LAYOUT).transformed(Affine2D().scale(72 / LAYOUT_DPI))
    return box.width, box.y1, -box.y0


def _layout(panels: list[Panel], turns: Sequence[Point]) -> Layout:
    """The charts' place, as tight_layout finds it: each chart's writing within the sheet's margin,
    BETWEEN points from the next chart's, the charts of one height and width."""
    width, height = WIDTH_IN * 72, 3 * PANEL_IN * 72
    above = max(_extent(Text(0, TITLE_PAD, p.title, fontsize=TITLE_PT, fontweight="bold"))[1]
                for p in panels)
    line = max(_extent(Text(0, 0, label, fontsize=LABEL_PT, va="top"))[2] for label in _turn_axis(turns)[1])
    # the last chart's turn labels and the axis label under them
    below = TICK + TICK_PAD + line + LABEL_PAD + _extent(Text(0, 0, TURN_AXIS, fontsize=LABEL_PT, va="top"))[2]
    bottom = EDGE + below
    # between two charts: the upper one's ticks, the space, the lower one's title
    chart = (height - EDGE - above - bottom - 2 * (BETWEEN + TICK + above)) / 3
    left, right = _beside(panels, turns)
    return Layout(EDGE + left, width - left - right - 2 * EDGE,
                  [bottom + i * (chart + BETWEEN + TICK + above) for i in (2, 1, 0)], chart, line)


def _beside(panels: list[Panel], turns: Sequence[Point]) -> tuple[float, float]:
    """How far the charts' writing reaches left and right of them, in points, as tight_layout measured
    it: on the charts where a Figure first puts them (``SUBPLOTS``), once, the titles by their middle alone."""
    width = (SUBPLOTS[1] - SUBPLOTS[0]) * WIDTH_IN * 72
    height = (SUBPLOTS[3] - SUBPLOTS[2]) * 3 * PANEL_IN * 72 / (3 + 2 * HSPACE)  # three charts, two spaces
    labels = [label for p in panels for label in tick_labels(ticks(*p.limits(), height, LABEL_PT, p.integer))]
    left = TICK + TICK_PAD + max(_extent(Text(0, 0, label, fontsize=LABEL_PT))[0] for label in labels)
    turn = width / (max(1, len(turns) - 1) + 0.6)  # points from one turn to the next
    labelled, names, _ = _turn_axis(turns)
    halves = [_extent(Text(0, 0, name, fontsize=LABEL_PT))[0] / 2 for name in names]
    left = max(left, *((half - (at + 0.3) * turn) for at, half in zip(labelled, halves)))
    reach = [(at + 0.3) * turn + half for at, half in zip(labelled, halves)]
    reach += [_legend_places(p)[-1][1] + _extent(Text(0, 0, p.lines[-1][2]["label"], fontsize=LEGEND_PT))[0]
              for p in panels]
    reach += [0.3 * turn + 2 + _extent(Text(0, 0, p.win[1], fontsize=9))[0] for p in panels if p.win]
    return left, max(0, max(reach) - width)


def _chart(sheet: Sheet, panel: Panel, box: tuple[float, float, float, float], turns: Sequence[Point],
           last: float | None) -> None:
    """One chart drawn as an Axes draws it: grid and ticks under the lines, the left and bottom spines
    over them, the title and legend row above; turn labels and the axis label under the `last` (the
    height of a line of its labels)."""
    low, high = panel.limits()
    frame, data = sheet.place(box, (-0.3, max(1, len(turns) - 1) + 0.3, low, high))
    pt = sheet.dpi / 72  # pixels in a point
    corner = BboxTransformTo(frame)
    across = blended_transform_factory(corner, data)
    _value_axis(sheet, frame, across, ticks(low, high, frame.height / pt, LABEL_PT, panel.integer))
    _turn_axis_marks(sheet, frame, blended_transform_factory(data, corner), turns, last)
    spread = {"markevery": math.ceil(len(turns) / MARKED)} if len(turns) > MARKED else {}
    for xs, ys, style in panel.lines:
        sheet.add_artist(Line2D(xs, ys, linewidth=2, zorder=2, **style, **spread), clip=frame, transform=data)
    if panel.win:
        win, label = panel.win
        sheet.add_artist(Line2D([0, 1], [win, win], color=WIN_COLOUR, linewidth=1, linestyle=(0, (4, 3)), zorder=2),
                         clip=frame, transform=across)
        sheet.add_artist(Text(0, win, label, fontsize=9, color=WIN_COLOUR, va="bottom"), clip=False,
                         transform=data + Affine2D().translate(2 * pt, 2 * pt))
    for spine in (([0, 0], [0, 1]), ([0, 1], [0, 0])):
        sheet.add_artist(Line2D(*spine, color="black", linewidth=0.8, solid_capstyle="projecting", zorder=2.5),
                         clip=False, transform=corner)
    top_left = Affine2D().scale(pt).translate(frame.x0, frame.y1)
    sheet.add_artist(Text(0, TITLE_PAD, panel.title, fontsize=TITLE_PT, fontweight="bold"), clip=False,
                     transform=top_left)
    _legend_row(sheet, panel, top_left)


def _value_axis(sheet: Sheet, frame: Bbox, across: Transform, values: list[float]) -> None:
    """The grid line, tick and label of each value, on the chart's left."""
    for value in values:
        sheet.add_artist(Line2D([0, 1], [value, value], color="#e4e0d6", linewidth=0.8, zorder=1.5), clip=frame,
                         transform=across)
    sheet.add_artist(Line2D([0] * len(values), values, ls="none", marker=TICKLEFT, markersize=TICK,
                            markeredgewidth=0.8, color="black", zorder=1.5), clip=False, transform=across)
    beside = across + Affine2D().translate(-(TICK + TICK_PAD) * sheet.dpi / 72, 0)
    for value, label in zip(values, tick_labels(values)):
        sheet.add_artist(Text(0, value, label, fontsize=LABEL_PT, ha="right", va="center_baseline"), clip=False,
                         transform=beside)


def _turn_axis_marks(sheet: Sheet, frame: Bbox, along: Transform, turns: Sequence[Point], last: float | None) -> None:
    """A tick at every turn along the chart's foot; under the `last` chart, the labels and the axis label."""
    labelled, labels, every_turn = _turn_axis(turns)
    for at, size, width in ((labelled, TICK, 0.8), (every_turn, MINOR_TICKS[last is not None], 0.6)):
        sheet.add_artist(Line2D(at, [0] * len(at), ls="none", marker=TICKDOWN, markersize=size,
                                markeredgewidth=width, color="black", zorder=1.5), clip=False, transform=along)
    if last is None:
        return
    pt = sheet.dpi / 72
    under = along + Affine2D().translate(0, -(TICK + TICK_PAD) * pt)
    for at, label in zip(labelled, labels):
        sheet.add_artist(Text(at, 0, label, fontsize=LABEL_PT, ha="center", va="top"), clip=False, transform=under)
    axis_label = frame.y0 - (TICK + TICK_PAD + last + LABEL_PAD) * pt
    sheet.add_artist(Text(frame.x0 + frame.width / 2, axis_label, TURN_AXIS, fontsize=LABEL_PT, ha="center",
                          va="top"), clip=False, transform=Affine2D())


def _legend_row(sheet: Sheet, panel: Panel, top_left: Affine2D) -> None:
    """The chart's lines named in a row between its title and the chart, where it hides no line (where
    ``ax.legend(ncols=5, loc="lower left", bbox_to_anchor=(0, 1), frameon=False, handlelength=1.4,
    columnspacing=1.0, borderaxespad=0.1)`` puts them, points from the chart's top left corner)."""
    for (x, at), (_, _, style) in zip(_legend_places(panel), panel.lines):
        handle = Line2D([x, x + 0.7 * LEGEND_PT, x + 1.4 * LEGEND_PT], [1.09 * LEGEND_PT] * 3, linewidth=2,
                        zorder=2, markevery=[1], **{**style, "drawstyle": "default"})
        sheet.add_artist(handle, clip=False, transform=top_left)
        sheet.add_artist(Text(at, 0.5 * LEGEND_PT, style["label"], fontsize=LEGEND_PT, va="bottom"), clip=False,
                         transform=top_left)


def _legend_places(panel: Panel) -> list[tuple[float, float]]:
    """Where each line's handle and name start in the legend row, in points from the chart's left."""
    places, x = [], 0.5 * LEGEND_PT
    for _, _, style in panel.lines:
        places.append((x, x + 2.2 * LEGEND_PT))
        x += 2.2 * LEGEND_PT + LEGEND_PT
        x += _MEASURE.get_text_width_height_descent(style["label"], FontProperties(size=LEGEND_PT), False)[0]
    return places


def _sheet(panels: list[Panel], layout: Layout, turns: Sequence[Point], dpi: float) -> Sheet:
    sheet = Sheet(layout.size, dpi, layout.box(0), (0, 1, 0, 1))
    sheet.add_artist(Rectangle((0, 0), 1, 1, facecolor="#ffffff", edgecolor="none", zorder=0), clip=False,
                     transform=sheet.fractions)  # the page under the charts, also where the SVG is shown on dark
    for i, panel in enumerate(panels):
        _chart(sheet, panel, layout.box(i), turns, last=layout.line if i == len(panels) - 1 else None)
    return sheet


def render_charts(points: Sequence[Point], w: Words, colours: Mapping[str, str]) -> tuple[bytes, bytes]:
    """The charts as (SVG, palette PNG)."""
    with matplotlib.rc_context(_RC):
        panels = _panels(points, w, colours)
        layout = _layout(panels, points)
        svg = _sheet(panels, layout, points, 72).svg()
        sheet = _sheet(panels, layout, points, PNG_DPI)
        png = palette_image(sheet.pixels(np.full((round(sheet.height), round(sheet.width), 4), 255, np.uint8)))
    return svg, png
