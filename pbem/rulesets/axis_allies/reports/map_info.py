"""What the map drew where, as plain data for a page that shows the image: each space's outline in
image pixels (simplified) with its units in words, and the box around this turn's action, which a
page can zoom to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pbem.rulesets.axis_allies.reports.map_labels import Label
from pbem.rulesets.axis_allies.reports.map_moves import move_spaces
from pbem.rulesets.axis_allies.reports.map_stacks import placements, unit_stack_words
from pbem.rulesets.axis_allies.reports.map_view import View, near


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


def _action_spaces(events: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The spaces of each of the turn's actions, as a way (a move's, a rocket's) or one space."""
    ways = []
    for event in events:
        kind = event.get("type")
        if kind == "move":
            ways.append(move_spaces(event))
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


def space_outlines(view: View, labels: Mapping[str, Label], scale: float) -> Outlines:
    """Each space with a part in view and its simplified outlines in pixels of the image drawn at ``scale``:
    the same for every turn on a board."""
    drawn = []
    for label in labels.values():
        rings = [ring + (dx, 0.0) for dx in view.offsets(label.xmin, label.xmax) for ring in label.rings]
        rings = [ring for ring in rings if ring[:, 0].max() >= view.x0 and ring[:, 0].min() <= view.x1
                 and ring[:, 1].max() >= view.y0 and ring[:, 1].min() <= view.y1]
        if rings:
            drawn.append((label.name, [_to_pixels(view, ring, scale) for ring in rings]))
    outlines = iter(_simplified([ring for _, rings in drawn for ring in rings], OUTLINE_TOLERANCE_PX * scale))
    return tuple((name, tuple(next(outlines) for _ in rings)) for name, rings in drawn)


Outlines = tuple[tuple[str, tuple[tuple[tuple[int, int], ...], ...]], ...]


def map_info(view: View, labels: Mapping[str, Label], outlines: Outlines, state: Mapping[str, Any],
             events: Sequence[Mapping[str, Any]], size: tuple[int, int], scale: float) -> MapInfo:
    """What was drawn where, for an image of ``size`` pixels drawn at ``scale`` (``outlines``: its
    ``space_outlines``)."""
    units, cargo = state.get("units") or {}, state.get("cargo") or {}
    placed = placements(events)
    spaces = []
    for name, polygons in outlines:
        here, new = units.get(name) or {}, placed.get(name, {})
        stack = tuple(unit_stack_words(view.style, power, here.get(power, {}), cargo.get(name, ()), new.get(power))
                      for power in view.style.ordered_powers(set(here) | set(new)))
        spaces.append(MapSpace(name, polygons, stack))
    box = _action_box(view, labels, events)
    action = None
    if box is not None:
        (x0, y0), (x1, y1) = _to_pixels(view, np.array([box[:2], box[2:]]), scale)
        action = (max(int(np.floor(x0)), 0), max(int(np.floor(y0)), 0), min(int(np.ceil(x1)), size[0]),
                  min(int(np.ceil(y1)), size[1]))
    return MapInfo(size[0], size[1], tuple(spaces), action)
