"""The map's kept drawings (``pbem.render.kept``), so that a new process (each `pbem adjudicate`) need not
draw again what an earlier one drew: a board's layers (``map_layers``), the pieces of writing
(``map_sprites``) and the sizes of writing (``map_style``), each kept under the source of every module
of the map's drawing and the data it was drawn from."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from pbem.render.kept import drawing_key, read_arrays, write_arrays

_DRAWING_CODE = tuple(f"pbem.rulesets.axis_allies.reports.{module}" for module in (
    "map_image", "map_labels", "map_layers", "map_legend", "map_marks", "map_moves", "map_spaces", "map_sprites",
    "map_stacks", "map_store", "map_style", "map_view"))


def key(*parts: Any) -> str:
    """The key of a drawing made from ``parts`` (JSON data) by this code."""
    return drawing_key(_DRAWING_CODE, json.dumps(parts, sort_keys=True))


def read(kind: str, name: str) -> dict[str, np.ndarray] | None:
    return read_arrays(f"aa-map-{kind}", name)


def write(kind: str, name: str, arrays: dict[str, np.ndarray]) -> None:
    write_arrays(f"aa-map-{kind}", name, arrays)
