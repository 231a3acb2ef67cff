"""The map's kept drawings in the user's cache (``pbem.core.cache``), so that a new process (each `pbem
adjudicate`) need not draw again what an earlier one drew: a board's layers (``map_layers``), the pieces
of writing (``map_sprites``) and the sizes of writing (``map_style``), as numpy arrays.

An entry's key is everything its pixels follow from: the drawing's data, the source of the code that
draws it, and the versions of matplotlib and numpy. An entry that is missing, torn or not of the shapes
expected is drawn again, never trusted; the entries of another code or version are removed when one of
the same kind is written, so that upgrades do not pile up drawings never read again.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
from functools import cache
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np

from pbem.core.cache import cache_dir, cache_key, read_cached, write_cached

_DRAWING_CODE = ("map_image", "map_labels", "map_layers", "map_legend", "map_marks", "map_moves", "map_spaces",
                 "map_sprites", "map_stacks", "map_store", "map_style", "map_view")


@cache
def _code() -> str:
    """What the drawing's code and its libraries are in this process."""
    digest = hashlib.sha256(f"{matplotlib.__version__} {np.__version__}".encode())
    for module in _DRAWING_CODE:
        digest.update((Path(__file__).with_name(f"{module}.py")).read_bytes())
    return digest.hexdigest()[:16]


def key(*parts: Any) -> str:
    """The key of a drawing made from ``parts`` (JSON data) by this code; it begins with the code's."""
    return f"{_code()}-{cache_key(json.dumps(parts, sort_keys=True))}"


def read(kind: str, name: str) -> dict[str, np.ndarray] | None:
    """The arrays kept under ``name`` (a ``key``), if a whole entry is there."""
    body = read_cached(f"aa-map-{kind}", name)
    if body is None:
        return None
    try:
        with np.load(io.BytesIO(body), allow_pickle=False) as kept:
            return {field: kept[field] for field in kept.files}
    except Exception:  # not arrays: drawn again
        return None


def write(kind: str, name: str, arrays: dict[str, np.ndarray]) -> None:
    body = io.BytesIO()
    np.savez_compressed(body, **arrays)  # a layer is mostly flat colours: a twentieth of the bytes to read and check
    write_cached(f"aa-map-{kind}", name, body.getvalue())
    with contextlib.suppress(OSError):
        for older in (cache_dir() / f"aa-map-{kind}").iterdir():
            if not older.name.startswith((f"{_code()}-", ".")):  # another code's, not another process's new one
                older.unlink()
