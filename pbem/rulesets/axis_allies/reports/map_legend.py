"""The legend below the map: the powers' colours, the kinds of space and marker the board has, the
units' short labels, and the marks of this turn's moves, battles, placements and damage.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.patches import Rectangle

from pbem.rulesets.axis_allies.reports.map_marks import (
    Tag,
    arc_points,
    draw_arrow,
    ipc_badge,
    tag_box,
    unit_box,
    victory_city,
)
from pbem.rulesets.axis_allies.reports.map_style import (
    BATTLE_COLOURS,
    BOX_PAD_PX,
    BURST,
    CARGO_MARK,
    DAMAGE_COLOURS,
    MAP_COLOURS,
    NONCOMBAT_DASHES,
    ROCKET_DOTS,
    STACK_PT,
    TAG_PT,
    font,
    text_size,
)
from pbem.rulesets.axis_allies.reports.map_view import View

if TYPE_CHECKING:  # drawn in a board's layer, anew
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Legend:
    """Which of the board's kinds of marking the legend explains."""

    numbered_sea_zones: bool
    convoys: bool
    victory_cities: bool

    @classmethod
    def of_board(cls, board: Mapping[str, Any]) -> Legend:
        zones = board.get("sea_zones", [])
        return cls(any(z["name"].startswith("SZ ") for z in zones), any(z.get("ipc") for z in zones),
                   any(t.get("victory_city") for t in board.get("territories", [])))


def draw_legend(fig: Figure, view: View, names: Mapping[str, str], legend: Legend) -> None:
    ax = fig.add_axes((0, 0, 1, view.bottom_px / view.height_px))
    ax.set_xlim(0, view.width_px)
    ax.set_ylim(view.bottom_px, 0)
    ax.set_axis_off()
    ax.add_patch(Rectangle((0, 0), view.width_px, view.bottom_px,
                           facecolor=MAP_COLOURS["legend"], edgecolor="none", zorder=0))
    regular, bold = font("regular", 8.0), font("bold", 8.0)
    x, row1, row2, row3 = 12.0, 18.0, 46.0, 74.0

    def swatch(x: float, face: str, hatch: str | None = None) -> None:
        ax.add_patch(Rectangle((x, row1 - 8), 22, 16, facecolor=face, hatch=hatch,
                               edgecolor=MAP_COLOURS["neutral_hatch"] if hatch else "#2b2b2b",
                               linewidth=0.6))

    style = view.style
    for power, colours in style.powers.items():
        swatch(x, colours["land"])
        unit_box(style.marked(power, ["3inf"])[0], 1.0, colours, False, va="center", ha="left").draw(
            ax, x + 30, row1, 7)
        ax.text(x + 72, row1, names.get(power, power), fontproperties=regular, ha="left",
                va="center")
        x += 180
    sea_text = "sea zone (its number)" if legend.numbered_sea_zones else "sea zone"
    for text, face, hatch in (("neutral", MAP_COLOURS["neutral"], "////"),
                              (sea_text, MAP_COLOURS["sea"], None)):
        swatch(x, face, hatch)
        ax.text(x + 30, row1, text, fontproperties=regular, ha="left", va="center")
        x += 170
    if legend.convoys:
        ax.add_patch(Rectangle((x, row1 - 8), 22, 16, facecolor=MAP_COLOURS["sea"],
                               edgecolor="#000000", linewidth=2.0))
        ax.text(x + 30, row1, "convoy zone (border: who holds it)", fontproperties=regular,
                ha="left", va="center")
        x += 265
    ax.scatter([x + 10], [row1], s=150, marker="*", facecolors=MAP_COLOURS["capital"],
               edgecolors="#000000", linewidths=1.2)
    ax.text(x + 24, row1, "capital", fontproperties=regular, ha="left", va="center")
    x += 90
    if legend.victory_cities:
        victory_city(ax, [x + 10], [row1], 1.0)
        ax.text(x + 24, row1, "victory city", fontproperties=regular, ha="left", va="center")
        x += 120
    ipc_badge("6", 1.0).draw(ax, x + 10, row1, 4.3)
    ax.text(x + 24, row1, "IPC value", fontproperties=regular, ha="left", va="center")

    x = 12.0
    ax.text(x, row2, "Units:", fontproperties=bold, ha="left", va="center")
    x += 52
    for unit, code in style.unit_labels.items():
        ax.text(x, row2, code, fontproperties=bold, ha="left", va="center")
        x += text_size(code, "bold", 8.0)[0] + 5
        ax.text(x, row2, style.words.unit(unit), fontproperties=regular, ha="left", va="center")
        x += text_size(style.words.unit(unit), "regular", 8.0)[0] + 18
    ax.text(x, row2, CARGO_MARK, fontproperties=bold, ha="left", va="center")
    ax.text(x + 14, row2, "aboard transports (suffix: another power's)",
            fontproperties=regular, ha="left", va="center")

    x = 12.0
    ax.text(x, row3, "This turn:", fontproperties=bold, ha="left", va="center")
    x += 80

    def explain(mark_width: float, text: str) -> None:
        nonlocal x
        ax.text(x + mark_width + 8, row3, text, fontproperties=regular, ha="left", va="center")
        x += mark_width + 8 + text_size(text, "regular", 8.0)[0] + 22

    for line_style, text in (("-", "combat move"), (NONCOMBAT_DASHES, "non-combat move")):
        draw_arrow(ax, np.array([[x, row3], [x + 40, row3]]), "#000000", line_style, zorder=1)
        explain(40, text)
    for outcome, text in (("captured", "battle: attacker took the territory"),
                          ("attacker", "attacker won, did not take it"),
                          ("defender", "defender held"),
                          ("none", "no victor")):
        ax.add_patch(Rectangle((x, row3 - 7), 22, 14, facecolor="none",
                               edgecolor=BATTLE_COLOURS[outcome], linewidth=2.6))
        explain(22, text)
    unit_box("+2inf", 1.0, {"unit": "#000000"}, True, va="center", ha="left").draw(ax, x, row3, 7)
    explain(text_size("+2inf", "bold", STACK_PT)[0] + 2 * BOX_PAD_PX, "units placed")
    tag = Tag(f"{BURST} \u22123 IPC", DAMAGE_COLOURS["face"], DAMAGE_COLOURS["ink"])
    tag_box(tag, 1.0, ha="left", va="center").draw(ax, x + 3, row3, 8)
    explain(text_size(tag.text, "bold", TAG_PT)[0] + 6, "bombing or rocket damage")
    draw_arrow(ax, arc_points(np.array([x, row3 + 3]), np.array([x + 44, row3 + 3]), bulge=0.1),
               DAMAGE_COLOURS["ink"], ROCKET_DOTS, zorder=1)
    explain(44, "rocket strike")
    if style.wraps:
        ax.text(view.width_px - 12, row3, "\u21c6 the board wraps east-west",
                fontproperties=font("italic", 8.0), ha="right", va="center")
