"""This turn's moves and rocket strikes as arrows: each move along its path from the writing at
its first space to the writing at its last, through a point in each space between that keeps the
arrow off that space's own writing, across the east-west edge the short way; a move and its way
back side by side; rockets as dotted arcs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from pbem.rulesets.axis_allies.reports.map_labels import Label
from pbem.rulesets.axis_allies.reports.map_marks import arc_points, draw_arrow, trim
from pbem.rulesets.axis_allies.reports.map_style import DAMAGE_COLOURS, NONCOMBAT_DASHES, ROCKET_DOTS
from pbem.rulesets.axis_allies.reports.map_view import View, near

if TYPE_CHECKING:
    from pbem.render.sheet import Sheet

#: How far a move keeps to its right when another runs the same path backwards (image pixels).
_TWIN_OFFSET_PX = 4.5


def move_spaces(event: Mapping[str, Any]) -> list[str]:
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


def move_polyline(view: View, labels: Mapping[str, Label],
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
    names = move_spaces(event)
    points = move_polyline(view, labels, names)
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


def draw_moves(sheet: Sheet, view: View, labels: Mapping[str, Label],
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
    routes = {tuple(move_spaces(event)) for event in moves.values()}
    lanes_taken: dict[tuple[str, ...], int] = {}
    for event in moves.values():
        points = _move_arrow_points(view, labels, event)
        if points is None:
            continue
        route = tuple(move_spaces(event))
        # lanes a whole arrow's width apart; a route also run backwards starts half a lane out
        lane = 2 * lanes_taken.get(route, 0) + (tuple(reversed(route)) in routes)
        lanes_taken[route] = lanes_taken.get(route, 0) + 1
        if lane:
            points = _offset_right(points, lane * _TWIN_OFFSET_PX / view.scale)
        colour = view.style.colours(event.get("power"))["unit"]
        line_style = "-" if event.get("phase") == "combat" else NONCOMBAT_DASHES
        for dx in view.offsets(float(points[:, 0].min()), float(points[:, 0].max())):
            draw_arrow(sheet, points + (dx, 0.0), colour, line_style, view.scale)


def draw_rockets(sheet: Sheet, view: View, labels: Mapping[str, Label],
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
            draw_arrow(sheet, arc + (dx, 0.0), DAMAGE_COLOURS["ink"], ROCKET_DOTS, view.scale)
