"""The war over time: production per power, army value per side and victory cities (or enemy
capitals) per side, one point after every turn of the game so far (`pbem.core.history.game_history`).

One figure with the three charts stacked, so that it reads on a phone as well as on a desktop:
as SVG for the HTML report (it scales without blurring; its text stays text) and as a palette PNG
for forums and mail. Drawn with matplotlib's Agg and SVG backends, never pyplot; the same history
always gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.transforms import Affine2D, ScaledTranslation

from pbem.core.words import Words
from pbem.render.palette import palette_png
from pbem.core.history import Point

_RC = {
    "font.family": "DejaVu Sans",  # bundled with matplotlib: the same glyphs on every machine
    "font.size": 11,
    "svg.fonttype": "none",
    "svg.hashsalt": "pbem",  # element ids from the drawing, not from chance
    "text.parse_math": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
WIDTH_IN, PANEL_IN = 4.8, 2.6  # narrow, so that on a phone the writing is as large as it can be
PNG_DPI = 130
MARKERS = ("o", "s", "^", "D", "v", "P")
DASHES = ("-", (0, (5, 2)), (0, (1, 1.5)), (0, (6, 2, 1, 2)), (0, (3, 1, 1, 1, 1, 1)), (0, (9, 3)))
"""With the markers, what tells lines apart without their colours (a colour-blind reader, a grey print)."""
CAPITALS_TO_WIN = 1
"""Where capitals decide (Europe, l.76-80, l.613): one enemy capital held, with one's own, until one's
next turn wins."""


def _line_style(i: int) -> dict:
    """The marker and dashes of the i-th line of a chart; the legend shows both."""
    return {"marker": MARKERS[i % len(MARKERS)], "linestyle": DASHES[i % len(DASHES)], "markersize": 4}


def _turn_axis(points: Sequence[Point]) -> tuple[list[int], list[str], list[int]]:
    """Labelled ticks at the opening and at the first turn of each round, and a small tick at every turn."""
    ticks, labels, seen = [], [], set()
    for i, p in enumerate(points):
        if p.power is None:
            ticks.append(i)
            labels.append("start" if p.turn == 0 else "before")
        elif p.round not in seen:
            seen.add(p.round)
            ticks.append(i)
            labels.append(f"R{p.round}")
    return ticks, labels, [i for i in range(len(points)) if i not in ticks]


def _win_line(ax, win: int, label: str) -> None:
    """The count of the chart's last panel that wins the game, as a dashed line with its label."""
    ax.axhline(win, color="#7a1b1b", linewidth=1, linestyle=(0, (4, 3)))
    ax.annotate(label, (0, win), xytext=(2, 2), textcoords="offset points", fontsize=9, color="#7a1b1b",
                va="bottom")


_LEGEND_PT = 9


def _legend_row(figure: Figure, ax: Axes) -> None:
    """The chart's lines named in a row between its title and the chart, where ``ax.legend(ncols=5,
    loc="lower left", bbox_to_anchor=(0, 1), frameon=False, handlelength=1.4, columnspacing=1.0,
    borderaxespad=0.1)`` puts them (points from the chart's top left corner), drawn as plain lines and
    writing: a legend lays itself out again at every drawing, and took a third of the charts' time."""
    points = Affine2D().scale(1 / 72) + figure.dpi_scale_trans + ScaledTranslation(0, 1, ax.transAxes)
    measure = RendererAgg(1, 1, 72)  # a pixel at 72 dpi is a point
    x = 0.5 * _LEGEND_PT
    for line in [line for line in ax.get_lines() if not line.get_label().startswith("_")]:
        handle = Line2D([x, x + 0.7 * _LEGEND_PT, x + 1.4 * _LEGEND_PT], [1.09 * _LEGEND_PT] * 3)
        handle.update_from(line)
        handle.set(drawstyle="default", markevery=[1], transform=points, label="_legend")
        ax.add_artist(handle)
        handle.set_clip_on(False)
        x += 2.2 * _LEGEND_PT
        ax.text(x, 0.5 * _LEGEND_PT, line.get_label(), fontsize=_LEGEND_PT, va="bottom", transform=points)
        x += measure.get_text_width_height_descent(line.get_label(), FontProperties(size=_LEGEND_PT), False)[0]
        x += _LEGEND_PT


def _figure(points: Sequence[Point], w: Words, colours: Mapping[str, str]) -> Figure:
    xs = list(range(len(points)))
    last = points[-1].summary
    powers = [r["power"] for r in last["powers"]]
    sides = [s["name"] for s in last["sides"]]
    # a side is drawn in the colour of its first power in turn order
    side_colour = {side: colours.get(next(r["power"] for r in last["powers"] if r["side"] == side), "#000000")
                   for side in sides}
    figure = Figure(figsize=(WIDTH_IN, 3 * PANEL_IN), facecolor="#ffffff")
    axes = figure.subplots(3, 1, sharex=True)
    production, army, cities = axes

    def by_power(power: str) -> list[int]:
        return [next(r["production"] for r in p.summary["powers"] if r["power"] == power) for p in points]

    for i, power in enumerate(powers):  # markers and dashes tell apart powers whose lines run together
        production.plot(xs, by_power(power), linewidth=2, color=colours.get(power, "#000000"),
                        label=w.power(power), **_line_style(i))

    for i, side in enumerate(sides):
        value = [sum(r["value"] for r in p.summary["powers"] if r["side"] == side) for p in points]
        army.plot(xs, value, linewidth=2, color=side_colour[side], label=side, **_line_style(i))
        held = [next(s["count"] for s in p.summary["sides"] if s["name"] == side) for p in points]
        cities.step(xs, held, where="post", linewidth=2, color=side_colour[side], label=side, **_line_style(i))
    win = last["needed"] or CAPITALS_TO_WIN
    _win_line(cities, win, f"{win} win" if last["needed"] else f"{win} wins (with one's own capital)")
    top = max(win, *(s["count"] for p in points for s in p.summary["sides"])) + 1
    cities.set_ylim(0, top)
    cities.yaxis.get_major_locator().set_params(integer=True)
    ticks, labels, every_turn = _turn_axis(points)
    titles = ("Production per power (IPC)", "Army value per side (IPC, units at cost)",
              "Victory cities per side" if last["needed"] else "Enemy capitals held per side")
    for ax, title in zip(axes, titles):
        # the legend sits in a row between the title and the chart, where it hides no line
        # y given: nothing is above the chart, so matplotlib need not measure every tick to place the title
        ax.set_title(title, loc="left", fontsize=12, fontweight="bold", pad=20, y=1.0)
        _legend_row(figure, ax)
        ax.grid(axis="y", color="#e4e0d6", linewidth=0.8)
        ax.set_xlim(-0.3, max(1, len(points) - 1) + 0.3)
        ax.tick_params(labelsize=9)
        # no y label, and an x label only below the last chart: placing an empty one measures every tick label
        ax.yaxis.set_label_coords(0, 0)
        if ax is not cities:
            ax.xaxis.set_label_coords(0, 0)
    cities.set_xticks(ticks, labels)
    cities.set_xticks(every_turn, minor=True)
    cities.tick_params(which="minor", length=3)
    cities.set_xlabel("after each turn, a tick each (R: round)", fontsize=9)
    figure.tight_layout(h_pad=1.2)
    return figure


def render_charts(points: Sequence[Point], w: Words, colours: Mapping[str, str]) -> tuple[bytes, bytes]:
    """The charts as (SVG, palette PNG)."""
    with matplotlib.rc_context(_RC):
        figure = _figure(points, w, colours)
        svg = io.BytesIO()
        figure.savefig(svg, format="svg", metadata={"Date": None, "Creator": None})
        figure.set_dpi(PNG_DPI)
        FigureCanvasAgg(figure)
        png = palette_png(figure)
    return svg.getvalue(), png
