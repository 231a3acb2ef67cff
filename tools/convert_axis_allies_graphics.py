#!/usr/bin/env python3
"""Convert TripleA's map geometry of an Axis & Allies edition into ``graphics.json``.

Reads, from the edition's TripleA map folder (``../shared/data/aa-revised`` or ``aa-europe``, see
``tools/axis_allies_editions.py``; or the directory given with ``--source``):

* ``polygons.txt``  -- each territory's outline(s) in board pixels;
* ``centers.txt``   -- the label centre of each territory;
* ``place.txt``     -- the unit placement points (top-left corners of TripleA's unit images);
* ``capitols.txt``, ``vc.txt``, ``pu_place.txt`` -- where the capital, victory city and
  IPC value markers are drawn (Revised only; Europe's map has none);
* ``map.properties`` -- the board size and whether it wraps east-west.

and writes ``pbem/rulesets/axis_allies/editions/<edition>/graphics.json``::

    {
      "board": {"width": 3500, "height": 2000, "wrap_x": true, "unit_slot": 48, ...},
      "spaces": {
        "Germany": {
          "centre": [x, y],                  # label centre
          "place": [[x, y], ...],            # unit slot centres, in TripleA's order of use
          "polygons": [[[x, y], ...], ...],  # simplified outlines, integers, ring not repeated
          "capital": [x, y],                 # optional: capital marker position
          "victory_city": [x, y],            # optional: victory city marker position
          "ipc": [x, y]                      # optional: IPC value position
        }, ...
      }
    }

Coordinates are board pixels, origin top left, y downwards. Where the board wraps east-west
(Revised), x and x + width are the same place. Outlines are simplified with Douglas-Peucker (``--tolerance``,
board pixels). Space names follow docs/architecture.md. The output is deterministic: sorted keys
and one space per line.

Run by hand from the repository root::

    python tools/convert_axis_allies_graphics.py revised|europe
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from axis_allies_editions import EDITIONS, Edition

Point = tuple[int, int]

#: TripleA draws a unit image of this many pixels with its top-left corner at a place point.
UNIT_SLOT = 48
#: Default Douglas-Peucker tolerance in board pixels (the full map is drawn at about 0.5 px/px).
DEFAULT_TOLERANCE = 1.6

_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
# A line is a name followed by its first point or polygon; names may contain dots and dashes.
_NAME = re.compile(r"^(.*?)\s*(?=[<(])")


def _split_line(line: str, path: Path, lineno: int, edition: Edition) -> tuple[str, str]:
    match = _NAME.match(line)
    if not match or not match.group(1):
        raise ValueError(f"{path}:{lineno}: cannot read a territory name in {line[:60]!r}")
    return edition.space_name(match.group(1)), line[match.end():]


def _points(text: str) -> list[Point]:
    return [(int(x), int(y)) for x, y in _POINT.findall(text)]


def read_points_file(path: Path, edition: Edition) -> dict[str, list[Point]]:
    """Read a ``Name (x,y) (x,y) ...`` file into {space: [points]}."""
    result: dict[str, list[Point]] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        name, rest = _split_line(line, path, lineno, edition)
        points = _points(rest)
        if not points:
            raise ValueError(f"{path}:{lineno}: no points for {name!r}")
        if name in result:
            raise ValueError(f"{path}:{lineno}: {name!r} appears twice")
        result[name] = points
    return result


def read_polygons(path: Path, edition: Edition) -> dict[str, list[list[Point]]]:
    """Read ``polygons.txt`` into {space: [ring, ...]}; each ring is a list of points."""
    result: dict[str, list[list[Point]]] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        name, rest = _split_line(line, path, lineno, edition)
        rings = [_points(chunk) for chunk in re.findall(r"<([^>]*)>", rest)]
        rings = [ring for ring in rings if len(ring) >= 3]
        if not rings:
            raise ValueError(f"{path}:{lineno}: no polygon for {name!r}")
        result[name] = rings
    return result


def read_properties(path: Path) -> dict[str, str]:
    """Read a Java ``.properties`` file (only ``key=value`` lines)."""
    props: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            props[key.strip()] = value.strip()
    return props


def _distance_sq_to_segment(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length_sq = dx * dx + dy * dy
    if length_sq == 0:
        return float((px - ax) ** 2 + (py - ay) ** 2)
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length_sq))
    qx, qy = ax + t * dx, ay + t * dy
    return (px - qx) ** 2 + (py - qy) ** 2


def douglas_peucker(points: list[Point], tolerance: float) -> list[Point]:
    """Simplify an open polyline, keeping its end points (iterative Douglas-Peucker)."""
    if len(points) < 3:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    tol_sq = tolerance * tolerance
    stack = [(0, len(points) - 1)]
    while stack:
        first, last = stack.pop()
        worst, worst_index = -1.0, -1
        for i in range(first + 1, last):
            d = _distance_sq_to_segment(points[i], points[first], points[last])
            if d > worst:
                worst, worst_index = d, i
        if worst > tol_sq:
            keep[worst_index] = True
            stack.append((first, worst_index))
            stack.append((worst_index, last))
    return [p for p, k in zip(points, keep) if k]


def simplify_ring(ring: list[Point], tolerance: float) -> list[Point]:
    """Simplify a closed ring: split it at its first point and the point farthest from it."""
    pts = [p for i, p in enumerate(ring) if i == 0 or p != ring[i - 1]]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    if len(pts) <= 4:
        return pts
    x0, y0 = pts[0]
    far = max(range(len(pts)), key=lambda i: ((pts[i][0] - x0) ** 2 + (pts[i][1] - y0) ** 2, -i))
    first = douglas_peucker(pts[: far + 1], tolerance)
    second = douglas_peucker(pts[far:] + [pts[0]], tolerance)
    simplified = first[:-1] + second[:-1]
    if len(simplified) < 3:  # a speck: keep its bounding triangle
        return pts[:: max(1, len(pts) // 3)][:3]
    return simplified


def build(edition: Edition, source: Path, tolerance: float) -> dict[str, Any]:
    """Read the edition's TripleA files in ``source`` and return the graphics document."""
    props = read_properties(source / "map.properties")
    width = int(props.get("map.width", "3500"))
    height = int(props.get("map.height", "2000"))
    polygons = read_polygons(source / "polygons.txt", edition)
    centres = read_points_file(source / "centers.txt", edition)
    places = read_points_file(source / "place.txt", edition)
    markers = {key: read_points_file(source / file, edition) for key, file in edition.markers.items()}
    for label, table in [("centers.txt", centres), ("place.txt", places)] + [
        (key, value) for key, value in markers.items()
    ]:
        unknown = sorted(set(table) - set(polygons))
        if unknown:
            raise ValueError(f"{label}: spaces without a polygon: {', '.join(unknown)}")
    stems = [file.removesuffix(".txt") for file in edition.markers.values()]
    half = UNIT_SLOT // 2
    spaces: dict[str, dict[str, Any]] = {}
    for name in sorted(polygons):
        rings = [simplify_ring(ring, tolerance) for ring in polygons[name]]
        if name not in centres:
            raise ValueError(f"centers.txt: no label centre for {name!r}")
        entry: dict[str, Any] = {
            "centre": list(centres[name][0]),
            "place": [[x + half, y + half] for x, y in places.get(name, [])],
            "polygons": [[list(p) for p in ring] for ring in rings],
        }
        for key, table in markers.items():
            if name in table:
                entry[key] = list(table[name][0])
        spaces[name] = entry
    return {
        "board": {
            "width": width,
            "height": height,
            "wrap_x": props.get("map.scrollWrapX", "true") == "true",  # TripleA's default wraps
            "unit_slot": UNIT_SLOT,
            "source": f"TripleA map {edition.triplea_map} "
                      f"({', '.join(['polygons', 'centers', 'place', *stems])}), "
                      "simplified with Douglas-Peucker",
            "tolerance": tolerance,
        },
        "spaces": spaces,
    }


def dumps(document: dict[str, Any]) -> str:
    """Serialise deterministically: sorted keys, compact, one space per line."""
    def compact(value: object) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    lines = ["{", f'"board":{compact(document["board"])},', '"spaces":{']
    names = sorted(document["spaces"])
    for i, name in enumerate(names):
        comma = "," if i < len(names) - 1 else ""
        lines.append(f"{compact(name)}:{compact(document['spaces'][name])}{comma}")
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", choices=sorted(EDITIONS), help="which edition to convert")
    parser.add_argument("--source", type=Path, help="TripleA map folder (default: the edition's)")
    parser.add_argument("--output", type=Path, help="output file (default: the edition's graphics.json)")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE,
                        help="Douglas-Peucker tolerance in board pixels (default %(default)s)")
    args = parser.parse_args(argv)
    edition = EDITIONS[args.edition]
    output = args.output or edition.data_dir / "graphics.json"
    document = build(edition, args.source or edition.source_dir, args.tolerance)
    text = dumps(document)
    json.loads(text)  # self-check
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    points = sum(len(r) for s in document["spaces"].values() for r in s["polygons"])
    print(f"wrote {output}: {len(document['spaces'])} spaces, {points} outline points, "
          f"{len(text.encode('utf-8'))} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
