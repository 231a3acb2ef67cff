"""The map image of the turn report.

Draws a position (``state.yaml`` as a dict) on an Axis & Allies edition's board with matplotlib's
Agg backend (no display, no pyplot): land filled in the controlling power's colour, neutral
territories hatched grey, sea blue; capitals, victory cities and IPC values; each space's units
as one compact box per power; from this turn's events, its moves as arrows (a move and its way
back side by side), its battles with their outcome, the IPC that bombing raids and rockets cost
(rockets as dotted arcs) and the units placed (a white box under the power's own); a legend and a
title. Where the board wraps east-west (Revised), the full map repeats a faded strip of the
opposite edge on each side and marks the board's edges. Besides the image, ``draw_map``
returns what it drew where (``MapInfo``: each space's outline in image pixels and its units in
words, and the box around the turn's action), for a page that zooms into the image or shows
tooltips; ``scale`` draws the same picture at a higher resolution.

The geometry comes from the edition's ``graphics.json`` (made by ``tools/convert_axis_allies_graphics.py``):
board pixels, origin top left, y downwards. Each space's name is written at its label centre
(for nearly every space TripleA's first unit placement point is that same spot) and its unit
boxes hang below the name, one per power in turn order.

The same inputs always give the same pixels: the fonts are the DejaVu files bundled with
matplotlib (not looked up on the system), and size and dpi follow from the arguments alone; the
reports make palette PNGs of them (``palette.palette_image``), which carry no varying metadata.
The renderer reads the state, the board and the events; it never decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from pbem.rulesets.axis_allies.reports.map_labels import Label, draw_labels, layout, make_labels, text_size
from pbem.rulesets.axis_allies.reports.map_marks import (
    Tag,
    arc_points,
    draw_arrow,
    draw_tag,
    ipc_badge,
    trim,
    unit_box,
    victory_city,
)
from pbem.rulesets.axis_allies.reports.map_stacks import placements, unit_stack_words
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
)
from pbem.rulesets.axis_allies.reports.map_view import DPI, View, make_view, near

__all__ = [
    "MapInfo",
    "MapSpace",
    "draw_map",
]

# ---------------------------------------------------------------------------------------------
# Drawing settings

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

#: How far a move keeps to its right when another runs the same path backwards (image pixels).
_TWIN_OFFSET_PX = 4.5


@dataclass(frozen=True)
class MapSpace:
    """One space as drawn: its ``name``; its outline as ``polygons`` of image pixels (x right, y
    down; a ring for each island, and for each copy of the space in view where the board wraps;
    simplified, and running past the image's edges where the space does); ``stack``: its units in
    words, a line for each power (``unit_stack_words``)."""

    name: str
    polygons: tuple[tuple[tuple[int, int], ...], ...]
    stack: tuple[str, ...]


@dataclass(frozen=True)
class MapInfo:
    """What ``draw_map`` drew, as plain data for a page that shows the image (tooltips, zoom):
    the image's size in pixels; every space with a part in view; ``action``: the box ``(x0, y0,
    x1, y1)`` in image pixels around this turn's moves (with their paths), battles, placements,
    bombing raids and rockets, or ``None`` when none of them is in view.
    ``dataclasses.asdict(info)`` is ready for ``json.dumps``."""

    width_px: int
    height_px: int
    spaces: tuple[MapSpace, ...]
    action: tuple[int, int, int, int] | None


#: How far ``MapSpace.polygons`` may stray from the outlines drawn (pixels of the image at scale 1,
#: so that every scale gets the same outline): a tooltip needs no finer one, and a board's
#: outlines stay some 50 kB of JSON.
OUTLINE_TOLERANCE_PX = 3.0


# ---------------------------------------------------------------------------------------------
# Drawing


def _draw_polygons(ax: Axes, view: View, labels: Mapping[str, Label],
                   territories: Mapping[str, Mapping[str, Any]],
                   control: Mapping[str, str], convoy_zones: Sequence[str]) -> None:
    sea, neutral, land, land_faces = [], [], [], []
    for label in labels.values():
        for dx in view.offsets(label.xmin, label.xmax):
            rings = [r + (dx, 0.0) for r in label.rings]
            if label.is_sea:
                sea.extend(rings)
            elif territories.get(label.name, {}).get("neutral"):
                neutral.extend(rings)
            else:
                land.extend(rings)
                land_faces.extend([view.style.land_colour(control.get(label.name)) if label.name in control
                                   else MAP_COLOURS["uncontrolled"]] * len(rings))
    ax.add_collection(PolyCollection(sea, facecolors=MAP_COLOURS["sea"],
                                     edgecolors=MAP_COLOURS["sea_edge"], linewidths=0.7,
                                     zorder=1))
    ax.add_collection(PolyCollection(neutral, facecolors=MAP_COLOURS["neutral"],
                                     edgecolors=MAP_COLOURS["neutral_hatch"], linewidths=0,
                                     hatch="////", zorder=2))
    ax.add_collection(PolyCollection(neutral + land, facecolors=["none"] * len(neutral)
                                     + land_faces, edgecolors=MAP_COLOURS["land_edge"],
                                     linewidths=0.6, zorder=2.1))
    # A convoy zone (Europe) is held like a territory: its border shows who holds it now.
    convoys, holders = [], []
    for zone in convoy_zones:
        label = labels.get(zone)
        if label is None or zone not in control:
            continue
        for dx in view.offsets(label.xmin, label.xmax):
            rings = [r + (dx, 0.0) for r in label.rings]
            convoys.extend(rings)
            holders.extend([view.style.colours(control[zone])["unit"]] * len(rings))
    if convoys:
        ax.add_collection(PolyCollection(convoys, facecolors="none", edgecolors=holders,
                                         linewidths=2.4, zorder=2.2))


def _draw_markers(ax: Axes, view: View, labels: Mapping[str, Label],
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
                ipc_badge(ax, x + dx, y, str(info["ipc"]), view.text_scale)
    size = view.text_scale ** 2
    victory_city(ax, [x for x, _ in vcs], [y for _, y in vcs], size)
    ax.scatter([x for x, _, _ in caps], [y for _, y, _ in caps], s=150 * size, marker="*",
               facecolors=MAP_COLOURS["capital"], edgecolors=[c for _, _, c in caps],
               linewidths=1.4, zorder=4.2)


def _draw_battle_outlines(ax: Axes, view: View, labels: Mapping[str, Label]) -> None:
    for label in labels.values():
        if label.outline is None:
            continue
        for dx in view.offsets(label.xmin, label.xmax):
            rings = [r + (dx, 0.0) for r in label.rings]
            ax.add_collection(PolyCollection(rings, facecolors="none", edgecolors="#ffffff",
                                             linewidths=4.6, zorder=3))
            ax.add_collection(PolyCollection(rings, facecolors="none",
                                             edgecolors=BATTLE_COLOURS[label.outline],
                                             linewidths=2.6, zorder=3.1))


def _move_spaces(event: Mapping[str, Any]) -> list[str]:
    """The spaces a move goes through: ``from``, then ``path`` (or just ``to``)."""
    names = [event.get("from")] + list(event.get("path") or [event.get("to")])
    return [n for i, n in enumerate(names) if n and (i == 0 or n != names[i - 1])]


def _distance_to_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-9), 0.0, 1.0))
    return float(np.hypot(*(a + t * ab - p)))


def _segment_hits_rect(a: np.ndarray, b: np.ndarray,
                       rect: tuple[float, float, float, float]) -> bool:
    """Whether the segment from ``a`` to ``b`` crosses the rectangle (Liang-Barsky)."""
    x0, y0, x1, y1 = rect
    d = b - a
    t0, t1 = 0.0, 1.0
    for p, q in ((-d[0], a[0] - x0), (d[0], x1 - a[0]), (-d[1], a[1] - y0), (d[1], y1 - a[1])):
        if abs(p) < 1e-12:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                return False
    return True


def _waypoint(view: View, label: Label, before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Where a move passes through a space on its way: the placement point (or the anchor) from
    which the arrow's two legs stay clear of the space's writing, nearest the straight line from
    ``before`` to ``after``."""
    left, top, right, bottom = label.rect(view.scale)
    ax, ay = label.anchor
    best, best_cost = np.array(label.anchor), np.inf
    for x, y in [label.anchor, *label.data.get("place", [])]:
        point = np.array([near(float(x), float(before[0]), view.board_width), float(y)])
        cost = _distance_to_segment(point, before, after)
        wx = ax + float(point[0]) - float(x)  # the anchor in the same copy as the point
        writing = (wx + left, ay + top, wx + right, ay + bottom)
        if _segment_hits_rect(before, point, writing) or _segment_hits_rect(point, after, writing):
            cost += 1e6  # the arrow would cross the space's own unit boxes
        if cost < best_cost:
            best, best_cost = point, cost
    return best


def _move_polyline(view: View, labels: Mapping[str, Label],
                   names: Sequence[str]) -> np.ndarray | None:
    """The points a move's arrow goes through: the label anchors of its first and last space,
    and a point clear of the writing in each space between. Each step goes to the nearer copy
    across the east-west edge."""
    if len(names) < 2 or any(n not in labels for n in names):
        return None
    width = view.board_width
    anchors = [np.array(labels[names[0]].anchor)]
    for name in names[1:]:
        x, y = labels[name].anchor
        anchors.append(np.array([near(x, float(anchors[-1][0]), width), y]))
    points = [anchors[0]]
    for i in range(1, len(names) - 1):
        points.append(_waypoint(view, labels[names[i]], points[-1], anchors[i + 1]))
        shift = points[-1][0] - anchors[i][0]  # keep the next anchor near this copy
        anchors[i + 1] = anchors[i + 1] + (round(shift / width) * width, 0.0)
    points.append(anchors[-1])
    return np.asarray(points)


def _exit_distance(rect: tuple[float, float, float, float], direction: np.ndarray) -> float:
    """Distance from the centre (inside ``rect``) along ``direction`` to the rectangle's edge."""
    left, top, right, bottom = rect
    t = np.inf
    for d, lo, hi in ((direction[0], left, right), (direction[1], top, bottom)):
        if d > 1e-9:
            t = min(t, hi / d)
        elif d < -1e-9:
            t = min(t, lo / d)
    return float(t)


def _move_arrow_points(view: View, labels: Mapping[str, Label],
                       event: Mapping[str, Any]) -> np.ndarray | None:
    """The move's polyline, starting and ending at the edges of what is written at its ends."""
    names = _move_spaces(event)
    points = _move_polyline(view, labels, names)
    if points is None:
        return None
    seg = np.diff(points, axis=0)
    lengths = np.hypot(seg[:, 0], seg[:, 1])
    if lengths[0] == 0 or lengths[-1] == 0:
        return None
    start_rect = labels[names[0]].rect(view.scale)
    end_rect = labels[names[-1]].rect(view.scale)
    start = min(_exit_distance(start_rect, seg[0] / lengths[0]), lengths[0])
    end = min(_exit_distance(end_rect, -seg[-1] / lengths[-1]), lengths[-1])
    trimmed = trim(points, start, end)
    if trimmed is None or float(np.hypot(*(trimmed[-1] - trimmed[0]))) < 14 / view.scale:
        # Neighbours whose writing touches: a short arrow between the centres instead.
        trimmed = trim(points, 4 / view.scale, 6 / view.scale)
    return trimmed


def _offset_right(points: np.ndarray, distance: float) -> np.ndarray:
    """The polyline moved ``distance`` to its right-hand side (board y grows downwards). Corners
    are mitred; where it turns back on itself, it crosses over with two points."""
    points = points[np.r_[True, np.hypot(*np.diff(points, axis=0).T) > 1e-9]]
    seg = np.diff(points, axis=0)
    normals = np.column_stack([-seg[:, 1], seg[:, 0]]) / np.hypot(seg[:, 0], seg[:, 1])[:, None]
    out = [points[0] + distance * normals[0]]
    for point, before, after in zip(points[1:-1], normals[:-1], normals[1:]):
        cosine = float(before @ after)
        if cosine > -0.5:
            out.append(point + distance * (before + after) / (1 + cosine))
        else:
            out += [point + distance * before, point + distance * after]
    out.append(points[-1] + distance * normals[-1])
    return np.asarray(out)


def _draw_moves(ax: Axes, view: View, labels: Mapping[str, Label],
                events: Sequence[Mapping[str, Any]]) -> None:
    """Each move once, as an arrow along its path. A move whose path another move (or itself)
    runs backwards, such as fighters that attack and fly home, keeps to its right-hand side, so
    that out and back read as two arrows side by side rather than one with two heads; a later move
    along the same path the same way (a combat move, then a noncombat one) takes the next lane to
    the right, so that neither hides the other."""
    moves: dict[tuple[Any, ...], Mapping[str, Any]] = {}
    for event in events:
        if event.get("type") == "move":
            moves.setdefault((event.get("power"), event.get("phase"), event.get("from"),
                              tuple(event.get("path") or ()), event.get("to")), event)
    routes = {tuple(_move_spaces(event)) for event in moves.values()}
    lanes_taken: dict[tuple[str, ...], int] = {}
    for event in moves.values():
        points = _move_arrow_points(view, labels, event)
        if points is None:
            continue
        route = tuple(_move_spaces(event))
        # lanes a whole arrow's width apart; a route also run backwards starts half a lane out
        lane = 2 * lanes_taken.get(route, 0) + (tuple(reversed(route)) in routes)
        lanes_taken[route] = lanes_taken.get(route, 0) + 1
        if lane:
            points = _offset_right(points, lane * _TWIN_OFFSET_PX / view.scale)
        colour = view.style.colours(event.get("power"))["unit"]
        line_style = "-" if event.get("phase") == "combat" else NONCOMBAT_DASHES
        for dx in view.offsets(float(points[:, 0].min()), float(points[:, 0].max())):
            draw_arrow(ax, points + (dx, 0.0), colour, line_style, view.scale)


def _draw_rockets(ax: Axes, view: View, labels: Mapping[str, Label],
                  events: Sequence[Mapping[str, Any]]) -> None:
    """Each rocket strike as a dotted arc from the AA gun that fired it to its target (the damage
    is tagged there), so that it does not read as a move."""
    for event in events:
        if event.get("type") != "rocket":
            continue
        points = _move_arrow_points(view, labels, {"from": event.get("from"), "to": event.get("target")})
        if points is None:
            continue
        arc = arc_points(points[0], points[-1])
        for dx in view.offsets(float(arc[:, 0].min()), float(arc[:, 0].max())):
            draw_arrow(ax, arc + (dx, 0.0), DAMAGE_COLOURS["ink"], ROCKET_DOTS, view.scale)


def _draw_wrap(ax: Axes, view: View) -> None:
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


@dataclass(frozen=True)
class _Legend:
    """Which of the board's kinds of marking the legend explains."""

    numbered_sea_zones: bool
    convoys: bool
    victory_cities: bool

    @classmethod
    def of_board(cls, board: Mapping[str, Any]) -> _Legend:
        zones = board.get("sea_zones", [])
        return cls(any(z["name"].startswith("SZ ") for z in zones), any(z.get("ipc") for z in zones),
                   any(t.get("victory_city") for t in board.get("territories", [])))


def _draw_legend(fig: Figure, view: View, names: Mapping[str, str], legend: _Legend,
                 renderer: RendererBase) -> None:
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
        unit_box(ax, x + 30, row1, "3inf", 1.0, colours, False, va="center", ha="left")
        ax.text(x + 62, row1, names.get(power, power), fontproperties=regular, ha="left",
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
    ipc_badge(ax, x + 10, row1, "6", 1.0)
    ax.text(x + 24, row1, "IPC value", fontproperties=regular, ha="left", va="center")

    x = 12.0
    ax.text(x, row2, "Units:", fontproperties=bold, ha="left", va="center")
    x += 52
    for unit, code in style.unit_labels.items():
        ax.text(x, row2, code, fontproperties=bold, ha="left", va="center")
        x += text_size(renderer, code, "bold", 8.0)[0] + 5
        ax.text(x, row2, style.words.unit(unit), fontproperties=regular, ha="left", va="center")
        x += text_size(renderer, style.words.unit(unit), "regular", 8.0)[0] + 18
    ax.text(x, row2, CARGO_MARK, fontproperties=bold, ha="left", va="center")
    ax.text(x + 14, row2, "aboard transports (suffix: another power's)",
            fontproperties=regular, ha="left", va="center")

    x = 12.0
    ax.text(x, row3, "This turn:", fontproperties=bold, ha="left", va="center")
    x += 80

    def explain(mark_width: float, text: str) -> None:
        nonlocal x
        ax.text(x + mark_width + 8, row3, text, fontproperties=regular, ha="left", va="center")
        x += mark_width + 8 + text_size(renderer, text, "regular", 8.0)[0] + 22

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
    unit_box(ax, x, row3, "+2inf", 1.0, {"unit": "#000000"}, True, va="center", ha="left")
    explain(text_size(renderer, "+2inf", "bold", STACK_PT)[0] + 2 * BOX_PAD_PX, "units placed")
    tag = Tag(f"{BURST} \u22123 IPC", DAMAGE_COLOURS["face"], DAMAGE_COLOURS["ink"])
    draw_tag(ax, x + 3, row3, tag, 1.0, ha="left", va="center")
    explain(text_size(renderer, tag.text, "bold", TAG_PT)[0] + 6, "bombing or rocket damage")
    draw_arrow(ax, arc_points(np.array([x, row3 + 3]), np.array([x + 44, row3 + 3]), bulge=0.1),
               DAMAGE_COLOURS["ink"], ROCKET_DOTS, zorder=1)
    explain(44, "rocket strike")
    if style.wraps:
        ax.text(view.width_px - 12, row3, "\u21c6 the board wraps east-west",
                fontproperties=font("italic", 8.0), ha="right", va="center")


def _action_spaces(events: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The spaces of each of the turn's actions, as a way (a move's, a rocket's) or one space."""
    ways = []
    for event in events:
        kind = event.get("type")
        if kind == "move":
            ways.append(_move_spaces(event))
        elif kind == "rocket":
            ways.append([event.get("from", ""), event.get("target", "")])
        elif kind in ("battle_start", "battle_end", "place", "bombing"):
            ways.append([event.get("space", "")])
    return ways


def _action_box(view: View, labels: Mapping[str, Label],
                events: Sequence[Mapping[str, Any]]) -> tuple[float, float, float, float] | None:
    """The board box ``(x0, y0, x1, y1)`` around the parts in view of the turn's action spaces'
    outlines: each way starts at the copy of its first space in view and goes on to the nearest
    copies, as the arrows do."""
    boxes = []
    for way in _action_spaces(events):
        x = None
        for name in way:
            label = labels.get(name)
            if label is None:
                continue
            x = view.unwrap_x(label.centre[0]) if x is None else near(label.centre[0], x, view.board_width)
            shift = x - label.centre[0]
            ys = np.concatenate([r[:, 1] for r in label.rings])
            box = (max(label.xmin + shift, view.x0), max(float(ys.min()), view.y0),
                   min(label.xmax + shift, view.x1), min(float(ys.max()), view.y1))
            if box[0] < box[2] and box[1] < box[3]:
                boxes.append(box)
    if not boxes:
        return None
    corners = np.asarray(boxes)
    return (float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 2].max()),
            float(corners[:, 3].max()))


def _to_pixels(view: View, points: np.ndarray, scale: float) -> np.ndarray:
    """Board points (this copy, not unwrapped) as pixels of the image drawn at ``scale``."""
    return np.column_stack([(points[:, 0] - view.x0) * view.scale,
                            view.top_px + (points[:, 1] - view.y0) * view.scale]) * scale


def _simplified(rings: Sequence[np.ndarray], tolerance: float) -> list[tuple[tuple[int, int], ...]]:
    """Each ring with only the points it needs to stay within ``tolerance`` of its outline
    (Douglas-Peucker), rounded to whole pixels; a ring smaller than that keeps three points.

    All rings are split together, a round for each level of the split, so that a board's some
    10,000 points cost a few numpy calls for each round rather than a few for each span."""
    closed = [np.vstack([ring, ring[:1]]) for ring in rings]
    points = np.concatenate(closed)
    ends = np.cumsum([len(ring) for ring in closed])
    keep = np.zeros(len(points), dtype=bool)
    keep[ends - 1] = keep[ends - np.array([len(ring) for ring in closed])] = True
    while True:
        kept = np.flatnonzero(keep)
        loose = np.flatnonzero(~keep)  # between two kept points of the same ring, in order
        if not len(loose):
            break
        span = np.searchsorted(kept, loose) - 1
        start, end = points[kept[span]], points[kept[span + 1]]
        chord, offset = end - start, points[loose] - start
        length = np.hypot(chord[:, 0], chord[:, 1])
        across = np.abs(chord[:, 0] * offset[:, 1] - chord[:, 1] * offset[:, 0]) / np.where(length > 0, length, 1)
        # a chord back to its own start measures how far each point strays from that start
        off = np.where(length > 0, across, np.hypot(offset[:, 0], offset[:, 1]))
        firsts = np.flatnonzero(np.r_[True, span[1:] != span[:-1]])
        farthest = np.maximum.reduceat(off, firsts)
        split = np.flatnonzero(farthest > tolerance)
        if not len(split):
            break
        in_span = np.repeat(np.arange(len(firsts)), np.diff(np.r_[firsts, len(loose)]))
        is_farthest = (off == farthest[in_span]) & np.isin(in_span, split)
        _, first_farthest = np.unique(in_span[is_farthest], return_index=True)
        keep[loose[np.flatnonzero(is_farthest)[first_farthest]]] = True
    outlines = []
    for ring, kept_ring in zip(rings, np.split(keep, ends[:-1])):
        kept_points = ring[kept_ring[:-1]]
        if len(kept_points) < 3:
            kept_points = ring[np.linspace(0, len(ring) - 1, 3).round().astype(int)]
        outlines.append(tuple(map(tuple, np.rint(kept_points).astype(int).tolist())))
    return outlines


def _map_info(view: View, labels: Mapping[str, Label], state: Mapping[str, Any],
              events: Sequence[Mapping[str, Any]], size: tuple[int, int], scale: float) -> MapInfo:
    """What was drawn where, for an image of ``size`` pixels drawn at ``scale``."""
    units, cargo = state.get("units") or {}, state.get("cargo") or {}
    placed = placements(events)
    drawn = []
    for label in labels.values():
        rings = [ring + (dx, 0.0) for dx in view.offsets(label.xmin, label.xmax) for ring in label.rings]
        rings = [ring for ring in rings if ring[:, 0].max() >= view.x0 and ring[:, 0].min() <= view.x1
                 and ring[:, 1].max() >= view.y0 and ring[:, 1].min() <= view.y1]
        if rings:
            drawn.append((label.name, [_to_pixels(view, ring, scale) for ring in rings]))
    outlines = iter(_simplified([ring for _, rings in drawn for ring in rings], OUTLINE_TOLERANCE_PX * scale))
    spaces = []
    for name, rings in drawn:
        here, new = units.get(name) or {}, placed.get(name, {})
        stack = tuple(unit_stack_words(view.style, power, here.get(power, {}), cargo.get(name, ()), new.get(power))
                      for power in view.style.ordered_powers(set(here) | set(new)))
        spaces.append(MapSpace(name, tuple(next(outlines) for _ in rings), stack))
    box = _action_box(view, labels, events)
    action = None
    if box is not None:
        (x0, y0), (x1, y1) = _to_pixels(view, np.array([box[:2], box[2:]]), scale)
        action = (max(int(np.floor(x0)), 0), max(int(np.floor(y0)), 0), min(int(np.ceil(x1)), size[0]),
                  min(int(np.ceil(y1)), size[1]))
    return MapInfo(size[0], size[1], tuple(spaces), action)


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
    names = {p: p for p in view.style.powers} | {p["id"]: p.get("name", p["id"])
                                            for p in board.get("powers", [])}
    events = list(events or [])
    labels = make_labels(graphics, board)
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(view.width_px / DPI, view.height_px / DPI), dpi=DPI,
                     facecolor="#ffffff")
        canvas = FigureCanvasAgg(fig)
        layout(labels, view, canvas.get_renderer(), state, events, territories)
        height = view.height_px
        ax = fig.add_axes((0, view.bottom_px / height, 1, view.map_height_px / height))
        ax.set_xlim(view.x0, view.x1)
        ax.set_ylim(view.y1, view.y0)
        ax.set_axis_off()
        ax.add_patch(Rectangle((view.x0, view.y0), view.x1 - view.x0, view.y1 - view.y0,
                               facecolor=MAP_COLOURS["background"], linewidth=0, zorder=0))
        convoy_zones = [z["name"] for z in board.get("sea_zones", []) if z.get("ipc")]
        _draw_polygons(ax, view, labels, territories, state.get("control") or {}, convoy_zones)
        _draw_battle_outlines(ax, view, labels)
        _draw_markers(ax, view, labels, territories)
        _draw_moves(ax, view, labels, events)
        _draw_rockets(ax, view, labels, events)
        values = {t["name"]: t["ipc"] for t in board.get("territories", []) if t.get("ipc")}
        values |= {z["name"]: z["ipc"] for z in board.get("sea_zones", []) if z.get("ipc")}
        draw_labels(ax, view, labels, values)
        _draw_wrap(ax, view)
        middle = 1 - (view.top_px / 2) / height
        fig.text(12 / view.width_px, middle, title, fontproperties=font("bold", 15),
                 ha="left", va="center")
        if theatre:
            fig.text(1 - 12 / view.width_px, middle, f"{theatre.capitalize()} theatre",
                     fontproperties=font("italic", 11), ha="right", va="center")
        _draw_legend(fig, view, names, _Legend.of_board(board), canvas.get_renderer())
        fig.set_dpi(DPI * scale)  # after the layout, which measured the writing at DPI
        canvas.draw()
        pixels = np.asarray(canvas.buffer_rgba())[:, :, :3].copy()
        return pixels, _map_info(view, labels, state, events, canvas.get_width_height(physical=True), scale)
