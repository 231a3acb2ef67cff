"""The spaces themselves: land in its controller's colour, neutral land hatched, sea blue, a convoy
zone's border in its holder's colour, this turn's battles outlined in their outcome's colour; the
capitals, victory cities and IPC values; and, where the board wraps, its east and west edges, with
the strips beyond them veiled on the full map (they repeat the opposite edge).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from matplotlib.collections import PolyCollection
from matplotlib.patches import Rectangle

from pbem.rulesets.axis_allies.reports.map_labels import Label
from pbem.rulesets.axis_allies.reports.map_marks import ipc_badge, victory_city
from pbem.rulesets.axis_allies.reports.map_style import BATTLE_COLOURS, MAP_COLOURS, font
from pbem.rulesets.axis_allies.reports.map_view import View

if TYPE_CHECKING:  # the map's layers, drawn anew, are an Axes'; a turn's drawing is a Sheet's
    from matplotlib.axes import Axes

    from pbem.render.sheet import Sheet


def _rings(view: View, label: Label) -> list:
    """The space's outline rings, once for each copy of it in view."""
    return [r + (dx, 0.0) for dx in view.offsets(label.xmin, label.xmax) for r in label.rings]


def draw_waters(ax: Axes, view: View, labels: Mapping[str, Label],
                territories: Mapping[str, Mapping[str, Any]]) -> None:
    """Sea and the hatching of neutral land: what no turn changes, under the land's owners."""
    sea, neutral = [], []
    for label in labels.values():
        if label.is_sea:
            sea.extend(_rings(view, label))
        elif territories.get(label.name, {}).get("neutral"):
            neutral.extend(_rings(view, label))
    ax.add_collection(PolyCollection(sea, facecolors=MAP_COLOURS["sea"],
                                     edgecolors=MAP_COLOURS["sea_edge"], linewidths=0.7,
                                     zorder=1))
    ax.add_collection(PolyCollection(neutral, facecolors=MAP_COLOURS["neutral"],
                                     edgecolors=MAP_COLOURS["neutral_hatch"], linewidths=0,
                                     hatch="////", zorder=2))


def draw_polygons(sheet: Sheet, view: View, labels: Mapping[str, Label],
                  territories: Mapping[str, Mapping[str, Any]],
                  control: Mapping[str, str], convoy_zones: Sequence[str]) -> None:
    """Land in its controller's colour, every land border (neutral ones too), and convoy zones' holders."""
    neutral, land, land_faces = [], [], []
    for label in labels.values():
        if label.is_sea:
            continue
        rings = _rings(view, label)
        if territories.get(label.name, {}).get("neutral"):
            neutral.extend(rings)
        else:
            land.extend(rings)
            land_faces.extend([view.style.land_colour(control.get(label.name)) if label.name in control
                               else MAP_COLOURS["uncontrolled"]] * len(rings))
    sheet.add_collection(PolyCollection(neutral + land, facecolors=["none"] * len(neutral)
                                     + land_faces, edgecolors=MAP_COLOURS["land_edge"],
                                     linewidths=0.6, zorder=2.1))
    # A convoy zone (Europe) is held like a territory: its border shows who holds it now.
    convoys, holders = [], []
    for zone in convoy_zones:
        label = labels.get(zone)
        if label is None or zone not in control:
            continue
        rings = _rings(view, label)
        convoys.extend(rings)
        holders.extend([view.style.colours(control[zone])["unit"]] * len(rings))
    if convoys:
        sheet.add_collection(PolyCollection(convoys, facecolors="none", edgecolors=holders,
                                         linewidths=2.4, zorder=2.2))


def draw_battle_outlines(sheet: Sheet, view: View, labels: Mapping[str, Label]) -> None:
    for label in labels.values():
        if label.outline is None:
            continue
        for dx in view.offsets(label.xmin, label.xmax):
            rings = [r + (dx, 0.0) for r in label.rings]
            sheet.add_collection(PolyCollection(rings, facecolors="none", edgecolors="#ffffff",
                                             linewidths=4.6, zorder=3))
            sheet.add_collection(PolyCollection(rings, facecolors="none",
                                             edgecolors=BATTLE_COLOURS[label.outline],
                                             linewidths=2.6, zorder=3.1))


def draw_markers(ax: Axes, view: View, labels: Mapping[str, Label],
                 territories: Mapping[str, Mapping[str, Any]]) -> None:
    caps: list[tuple[float, float, str]] = []
    vcs: list[tuple[float, float]] = []
    for label in labels.values():
        info = territories.get(label.name)
        if not info:
            continue
        if info.get("capital"):
            x, y = label.data.get("capital", label.centre)
            colour = view.style.colours(info["capital"])["unit"]
            caps += [(x + dx, y, colour) for dx in view.offsets(x, x, margin=30)]
        if info.get("victory_city"):
            x, y = label.data.get("victory_city", label.centre)
            vcs += [(x + dx, y) for dx in view.offsets(x, x, margin=30)]
        if info.get("ipc") and "ipc" in label.data:
            x, y = label.data["ipc"]
            for dx in view.offsets(x, x, margin=30):
                ipc_badge(str(info["ipc"]), view.text_scale).draw(ax, x + dx, y, 4.3)
    size = view.text_scale ** 2
    victory_city(ax, [x for x, _ in vcs], [y for _, y in vcs], size)
    ax.scatter([x for x, _, _ in caps], [y for _, y, _ in caps], s=150 * size, marker="*",
               facecolors=MAP_COLOURS["capital"], edgecolors=[c for _, _, c in caps],
               linewidths=1.4, zorder=4.2)


def draw_wrap(ax: Axes, view: View) -> None:
    """The board's east and west edges as dashed lines; on the full map, the strips beyond them
    (copies of the opposite edge) are veiled."""
    width = view.board_width
    if view.wrap_strips:
        for x0, x1 in ((view.x0, 0.0), (float(width), view.x1)):
            if x1 > x0:
                ax.add_patch(Rectangle((x0, view.y0), x1 - x0, view.y1 - view.y0,
                                       facecolor=MAP_COLOURS["wrap"], alpha=0.45, linewidth=0,
                                       zorder=9))
    for edge in (0, width):
        if not view.x0 < edge < view.x1:
            continue
        ax.axvline(edge, color="#000000", linewidth=1.2, linestyle=(0, (6, 4)), zorder=9.1)
        if view.wrap_strips:
            text = ("\u21e4 board edge: continues from the far right" if edge == 0
                    else "board edge: continues at the far left \u21e5")
        else:
            text = "\u21c6 board edge (the board wraps east-west)"
        ax.text(edge + (6 if edge == 0 else -6) / view.scale, view.y0 + 6 / view.scale, text,
                fontproperties=font("bold", 7 * view.text_scale),
                ha="left" if edge == 0 else "right", va="top", color="#000000", zorder=9.2,
                clip_on=True, bbox={"boxstyle": "round,pad=0.25", "facecolor": "#ffffff",
                                    "edgecolor": "#000000", "linewidth": 0.5, "alpha": 0.9})
