"""The war over time: production per power, army value per side and victory cities (or enemy
capitals) per side, one point after every turn of the game so far (`standing.game_history`).

One figure with the three charts stacked, so that it reads on a phone as well as on a desktop:
as SVG for the HTML report (it scales without blurring; its text stays text) and as a palette PNG
for forums and mail. Drawn with matplotlib's Agg and SVG backends, never pyplot; the same history
always gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from pbem.core.words import Words
from pbem.render.palette import palette_png
from pbem.rulesets.axis_allies.reports.standing import Point

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


def _turn_axis(points: Sequence[Point]) -> tuple[list[int], list[str]]:
    """Ticks at the opening and at the first turn of each round."""
    ticks, labels, seen = [], [], set()
    for i, p in enumerate(points):
        if p.power is None:
            ticks.append(i)
            labels.append("start" if p.turn == 0 else "before")
        elif p.round not in seen:
            seen.add(p.round)
            ticks.append(i)
            labels.append(f"R{p.round}")
    return ticks, labels


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

    for power, marker in zip(powers, MARKERS):  # markers tell apart powers whose lines run together
        production.plot(xs, by_power(power), marker=marker, markersize=4, linewidth=2,
                        color=colours.get(power, "#000000"), label=w.power(power))

    for side in sides:
        value = [sum(r["value"] for r in p.summary["powers"] if r["side"] == side) for p in points]
        army.plot(xs, value, marker="o", markersize=3, linewidth=2, color=side_colour[side], label=side)
        held = [next(s["count"] for s in p.summary["sides"] if s["name"] == side) for p in points]
        cities.step(xs, held, where="post", linewidth=2, color=side_colour[side], label=side)
    if last["needed"]:
        cities.axhline(last["needed"], color="#7a1b1b", linewidth=1, linestyle=(0, (4, 3)))
        cities.annotate(f"{last['needed']} win", (0, last["needed"]), xytext=(2, 2), textcoords="offset points",
                        fontsize=9, color="#7a1b1b", va="bottom")
        top = last["needed"] + 1
    else:
        top = max(2, *(s["count"] for p in points for s in p.summary["sides"])) + 1
    cities.set_ylim(0, top)
    cities.yaxis.get_major_locator().set_params(integer=True)
    ticks, labels = _turn_axis(points)
    titles = ("Production per power (IPC)", "Army value per side (IPC, units at cost)",
              "Victory cities per side" if last["needed"] else "Enemy capitals held per side")
    for ax, title in zip(axes, titles):
        # the legend sits in a row between the title and the chart, where it hides no line
        ax.set_title(title, loc="left", fontsize=12, fontweight="bold", pad=20)
        ax.legend(fontsize=9, ncols=5, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False,
                  handlelength=1.4, columnspacing=1.0, borderaxespad=0.1)
        ax.grid(axis="y", color="#e4e0d6", linewidth=0.8)
        ax.set_xlim(-0.3, max(1, len(points) - 1) + 0.3)
        ax.tick_params(labelsize=9)
    cities.set_xticks(ticks, labels)
    cities.set_xlabel("after each turn (R: round)", fontsize=9)
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
