"""The board's small chart of each team's VP over the game, drawn as matplotlib's Axes would draw it
(the limits with their margins, the ticks, their labels and the legend at matplotlib's default sizes)
without an Axes, whose import costs more than the whole drawing (`pbem.render.sheet`)."""

from __future__ import annotations

from typing import Any

from matplotlib.lines import Line2D
from matplotlib.markers import TICKDOWN, TICKLEFT
from matplotlib.patches import Rectangle
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, BboxTransformTo

from pbem.render.axis import limits, tick_labels, ticks as axis_ticks
from pbem.render.sheet import FIGURE, Sheet

BOX = (0.04, 0.13, 0.2, 0.12)  # in the empty south-west of the board
FONT, TICK, PAD = 6, 3.5, 3.5  # points: the labels' size, a tick's length, a label's distance from it
TEAMS = (("axis", "-", "Axis"), ("allies", "--", "Allies"))


def vp_chart(sheet: Sheet, history: list[tuple[int, dict[str, int]]], colours: dict[str, str]) -> None:
    """Each team's VP after every turn of the game so far, a tick at each round's first turn."""
    values = [vp[team] for _, vp in history for team, _, _ in TEAMS]
    x_limits, y_limits = limits(0, len(history) - 1), limits(min(values), max(values))
    frame, data = sheet.place(BOX, (*x_limits, *y_limits))
    points = sheet.dpi / 72

    def add(artist: Any, transform: Any = data, clip: Any = False) -> None:
        sheet.add_artist(artist, clip=clip, transform=transform, above=FIGURE)
    add(Rectangle((0, 0), 1, 1, facecolor="white", edgecolor="none", zorder=0), BboxTransformTo(frame))
    starts = [i for i, (r, _) in enumerate(history) if i == 0 or history[i - 1][0] != r]
    add(Line2D(starts, [y_limits[0]] * len(starts), ls="none", marker=TICKDOWN, markersize=TICK,
               markeredgewidth=0.8, color="black", zorder=1.5))
    below = data + Affine2D().translate(0, -(TICK + PAD) * points)
    for i in starts:
        add(Text(i, y_limits[0], str(history[i][0]), fontsize=FONT, ha="center", va="top", zorder=1.5), below)
    ticks = axis_ticks(*y_limits, frame.height / points, FONT)
    add(Line2D([x_limits[0]] * len(ticks), ticks, ls="none", marker=TICKLEFT, markersize=TICK, markeredgewidth=0.8,
               color="black", zorder=1.5))
    left = data + Affine2D().translate(-(TICK + PAD) * points, 0)
    for tick, label in zip(ticks, tick_labels(ticks)):
        add(Text(x_limits[0], tick, label, fontsize=FONT, ha="right", va="center_baseline", zorder=1.5), left)
    # the axis label 1 point under its tick labels (a line of FONT points, as tall as 1.17 FONT)
    add(Text(frame.x0 + frame.width / 2, frame.y0 - (TICK + PAD + 1.17 * FONT + 1) * points, "round",
             fontsize=FONT, ha="center", va="top", zorder=1.5), Affine2D())
    for team, style, name in TEAMS:
        add(Line2D(range(len(history)), [vp[team] for _, vp in history], color=colours[team], ls=style, lw=1.6,
                   zorder=2), clip=frame)
    add(Rectangle((0, 0), 1, 1, facecolor="none", edgecolor="black", lw=0.8, zorder=2.5), BboxTransformTo(frame))
    sheet.title("VP over the game", fontsize=7, frame=frame, pad=2, above=FIGURE)
    _legend(add, frame, points, colours)


def _legend(add, frame: Any, points: float, colours: dict[str, str]) -> None:
    """The legend in the upper left corner: Legend's paddings (borderaxespad 0.5, borderpad 0.4,
    handlelength 2, handletextpad 0.8, labelspacing 0.5, each times the font size)."""
    inset = (0.5 + 0.4) * FONT * points
    row = 1.17 * FONT * points
    for n, (team, style, name) in enumerate(TEAMS):
        y = frame.y1 - inset - row / 2 - n * (row + 0.5 * FONT * points)
        x = frame.x0 + inset
        add(Line2D([x, x + 2 * FONT * points], [y, y], color=colours[team], ls=style, lw=1.6, zorder=5), Affine2D())
        add(Text(x + 2.8 * FONT * points, y, name, fontsize=FONT, va="center", zorder=5), Affine2D())
