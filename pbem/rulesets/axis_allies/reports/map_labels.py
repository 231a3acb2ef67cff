"""The writing at each space: its name, the tags above it (a battle's outcome, damage done) and its
unit boxes below, one per power in turn order. ``layout`` measures them and chooses where each
space's writing goes, among its label centre and its unit placement points (for nearly every
space TripleA's first placement point is the label centre), so that the writing covers as little
as it can of other writing and of the markers; ``writings`` says what to write where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pbem.rulesets.axis_allies.reports.map_marks import Tag, Writing, ipc_badge, tag_box, unit_box
from pbem.rulesets.axis_allies.reports.map_stacks import count_items, placements, unit_stack_lines, wrap_items
from pbem.rulesets.axis_allies.reports.map_style import (
    BATTLE_COLOURS,
    BOX_GAP_PX,
    BOX_PAD_PX,
    BURST,
    DPI,
    DAMAGE_COLOURS,
    LINE_SPACING,
    MAP_COLOURS,
    NAME_PT,
    SEA_NAME_PT,
    STACK_PT,
    STACK_TOP_PX,
    TAG_PT,
    ink_on,
    text_size,
)
from pbem.rulesets.axis_allies.reports.map_view import View


@dataclass
class _Box:
    """One power's units at a space; ``placed``: those it placed there this turn."""

    power: str
    text: str
    height_px: float
    placed: bool = False


@dataclass
class Label:
    """What is written at one space: name, tags and unit boxes, around ``anchor``.

    ``width``, ``top`` and ``bottom`` are image pixels relative to the anchor; the anchor is the
    label centre unless ``_place_labels`` moved it to one of the space's placement points.
    """

    name: str
    text: str
    is_sea: bool
    centre: tuple[float, float]
    rings: list[np.ndarray]
    xmin: float
    xmax: float
    data: Mapping[str, Any]
    anchor: tuple[float, float] = (0.0, 0.0)  # where the name is written (board pixels)
    name_size: float = 0.0
    name_h: float = 0.0
    name_w: float = 0.0
    width: float = 0.0          # widest line (name, tag or box)
    top: float = 0.0            # top of the writing (<= 0: above the anchor)
    bottom: float = 0.0         # bottom of the writing (below the anchor)
    boxes: list[_Box] = field(default_factory=list)
    tags: list[Tag] = field(default_factory=list)  # from the name upwards
    outline: str | None = None  # the outcome of a battle fought here

    def rect(self, scale: float, margin_px: float = 3.0) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the written area, board units relative to the anchor."""
        half = self.width / 2 + margin_px
        return (-half / scale, (self.top - margin_px) / scale, half / scale,
                (self.bottom + margin_px) / scale)


def make_labels(graphics: Mapping[str, Any], board: Mapping[str, Any]) -> dict[str, Label]:
    sea = {z["name"] for z in board.get("sea_zones", [])}
    labels = {}
    for name in sorted(graphics["spaces"]):
        data = graphics["spaces"][name]
        rings = [np.asarray(r, dtype=float) for r in data["polygons"]]
        xs = np.concatenate([r[:, 0] for r in rings])
        is_sea = name in sea or name.startswith("SZ ")
        centre = (float(data["centre"][0]), float(data["centre"][1]))
        labels[name] = Label(name, name[3:] if is_sea and name.startswith("SZ ") else name,
                             is_sea, centre, rings, float(xs.min()), float(xs.max()), data,
                             anchor=centre)
    return labels


def _battle_outcome(end: Mapping[str, Any]) -> str:
    winner = end.get("winner")
    if winner == "attacker":
        return "captured" if end.get("captured") else "attacker"
    return "defender" if winner == "defender" else "none"


def _damage_tags(events: Sequence[Mapping[str, Any]]) -> list[tuple[str, Tag]]:
    """The IPC each space's bombing raids and rocket strikes cost its owner (what was paid, not
    the dice), as one tag for the raids and one for the rockets."""
    paid: dict[tuple[str, str], int] = {}
    for event in events:
        if event.get("type") == "bombing":
            key = (event.get("space", ""), "bombed")
        elif event.get("type") == "rocket":
            key = (event.get("target", ""), "rocket")
        else:
            continue
        paid[key] = paid.get(key, 0) + int(event.get("paid") or 0)
    return [(space, Tag(f"{BURST} \u2212{ipc} IPC {what}", DAMAGE_COLOURS["face"], DAMAGE_COLOURS["ink"]))
            for (space, what), ipc in paid.items()]


def layout(labels: dict[str, Label], view: View, state: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
           territories: Mapping[str, Mapping[str, Any]]) -> None:
    """Measure names, tags and unit boxes; fill in each label's boxes and extent; choose where
    each label goes."""
    k = view.text_scale
    units = state.get("units") or {}
    cargo = state.get("cargo") or {}
    attackers = {e.get("battle"): e.get("attacker") for e in events
                 if e.get("type") == "battle_start"}
    for event in events:
        if event.get("type") == "battle_end" and event.get("space") in labels:
            outcome = _battle_outcome(event)
            who = view.style.labels.get(attackers.get(event.get("battle")) or "", "")
            tag = {"captured": f"taken by {who}" if who else "taken",
                   "attacker": f"{who} won" if who else "attacker won",
                   "defender": "held", "none": "no victor"}[outcome]
            label = labels[event["space"]]
            label.outline = outcome
            label.tags.append(Tag("\u2694 " + tag, BATTLE_COLOURS[outcome], ink_on(BATTLE_COLOURS[outcome])))
    for space, tag in _damage_tags(events):
        if space in labels:
            labels[space].tags.append(tag)
    placed = placements(events)
    line_px = STACK_PT * k * LINE_SPACING * DPI / 72
    tag_pad = 0.25 * TAG_PT * k * DPI / 72
    for label in labels.values():
        label.name_size = (SEA_NAME_PT if label.is_sea else NAME_PT) * k
        w, h = text_size(label.text, "italic" if label.is_sea else "regular",
                         label.name_size)
        label.name_h, label.name_w, label.width, label.top = h, w, w, -h
        for tag in label.tags:
            w, h = text_size(tag.text, "bold", TAG_PT * k)
            tag.height_px = h + 2 * tag_pad + 2
            label.width = max(label.width, w + 2 * tag_pad)
            label.top -= tag.height_px
        space_units = units.get(label.name) or {}
        bottom = STACK_TOP_PX * k
        new_here = placed.get(label.name, {})
        for power in view.style.ordered_powers(set(space_units) | set(new_here)):
            stack = unit_stack_lines(view.style, power, space_units.get(power, {}), cargo.get(label.name, ()))
            new = wrap_items(count_items(view.style, new_here.get(power, {})), 3)
            for lines, is_new in ((stack, False), (["+" + new[0], *new[1:]] if new else [], True)):
                if not lines:
                    continue
                lines = view.style.marked(power, lines)
                width = max(text_size(line, "bold", STACK_PT * k)[0] for line in lines)
                height = len(lines) * line_px + 2 * BOX_PAD_PX * k
                label.boxes.append(_Box(power, "\n".join(lines), height, is_new))
                label.width = max(label.width, width + 2 * BOX_PAD_PX * k)
                bottom += height + BOX_GAP_PX
        label.bottom = bottom
    _place_labels(labels, view, territories)


#: Radius in image pixels of the markers that labels try not to cover.
_MARKER_RADIUS_PX = {"capital": 8.0, "victory_city": 5.0, "ipc": 7.0}


def _place_labels(labels: dict[str, Label], view: View,
                  territories: Mapping[str, Mapping[str, Any]]) -> None:
    """Choose each label's anchor among its label centre and its unit placement points, so that
    labels overlap each other (and the markers) as little as possible.

    Greedy, in a fixed order: land before sea, then spaces with units, bigger writing first. A
    candidate that overlaps nothing is taken at once (the label centre is tried first); else
    the one with the least overlap. Overlaps across the east-west edge count too.
    """
    width = float(view.board_width)
    shifts = np.array([[0.0], [-width], [width]])
    placed = np.zeros((0, 4))  # x0, y0, x1, y1 of the labels already placed (board units)
    markers = []
    for label in labels.values():
        info = territories.get(label.name, {})
        for key, radius in _MARKER_RADIUS_PX.items():
            if info.get(key) and key in label.data:
                x, y = label.data[key]
                r = radius / view.scale
                markers.append((x - r, y - r, x + r, y + r))
    obstacles = np.asarray(markers, dtype=float).reshape(-1, 4)

    def overlap(rect: np.ndarray, others: np.ndarray) -> float:
        if not len(others):
            return 0.0
        w = np.minimum(rect[2] + shifts, others[:, 2]) - np.maximum(rect[0] + shifts, others[:, 0])
        h = np.minimum(rect[3], others[:, 3]) - np.maximum(rect[1], others[:, 1])
        total = 0.0
        for area in np.sum(np.clip(w, 0, None) * np.clip(h, 0, None), axis=1):  # each shift's, added in turn
            total += float(area)
        return total

    def order(label: Label) -> tuple[Any, ...]:
        return (label.is_sea, not label.boxes, -label.width * (label.bottom - label.top),
                label.name)

    for label in sorted(labels.values(), key=order):
        left, top, right, bottom = label.rect(view.scale)
        candidates = [label.centre] + [(float(x), float(y)) for x, y in label.data["place"]]
        best, best_cost = label.centre, np.inf
        for x, y in candidates:
            rect = np.array([x + left, y + top, x + right, y + bottom])
            cost = overlap(rect, placed) + 0.5 * overlap(rect, obstacles)
            if cost < best_cost - 1e-9:
                best, best_cost = (x, y), cost
            if cost == 0:
                break
        label.anchor = best
        x, y = best
        placed = np.vstack([placed, [x + left, y + top, x + right, y + bottom]])


def writings(view: View, labels: Mapping[str, Label],
             values: Mapping[str, int]) -> list[tuple[float, float, float, Writing]]:
    """Names, battle tags and unit boxes as (zorder, x, y, writing); the IPC value beside the name of a space
    whose drawing data has no place for it (Europe's map marks no values; its convoy zones have one too)."""
    k = view.text_scale
    drawn = []
    for label in labels.values():
        cx, cy = label.anchor
        value = values.get(label.name) if "ipc" not in label.data else None
        name = Writing(label.text, "italic" if label.is_sea else "regular", label.name_size,
                       MAP_COLOURS["sea_name" if label.is_sea else "name"], va="bottom", halo=True)
        for dx in view.offsets(cx, cx, margin=label.width / view.scale):
            x = cx + dx
            drawn.append((6, x, cy, name))
            if value:
                drawn.append((6.5, x + (label.name_w / 2 + 8 * k) / view.scale, cy - label.name_h / 2 / view.scale,
                              ipc_badge(str(value), k)))
            above = label.name_h + 4
            for tag in label.tags:
                drawn.append((8, x, cy - above / view.scale, tag_box(tag, k)))
                above += tag.height_px
            top = STACK_TOP_PX * k
            for box in label.boxes:
                drawn.append((7, x, cy + (top + BOX_PAD_PX * k) / view.scale,
                              unit_box(box.text, k, view.style.colours(box.power), box.placed)))
                top += box.height_px + BOX_GAP_PX
    return drawn
