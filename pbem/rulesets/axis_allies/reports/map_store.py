"""The map's kept drawings on disk, so that a new process (each `pbem adjudicate`) need not draw again what
an earlier one drew: a board's layers (``map_layers``) and the pieces of writing (``map_sprites``).

They live in the user's cache folder (``PBEM_CACHE_DIR``, else ``$XDG_CACHE_HOME/pbem``, else
``~/.cache/pbem``), one file for each key, and the key is everything their pixels follow from: the
drawing's data, the source of the code that draws it, and the versions of matplotlib and numpy; the
files of another code or version are removed when a file of the same kind is written. A file is
written whole under a temporary name and then renamed into place, so that a reader sees all of it or
none; one that is missing, unreadable, of another key or not of the shapes expected is drawn again, never
trusted. Nothing is lost when the folder cannot be written: the drawing is then made in each process.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np

_DRAWING_CODE = ("map_image", "map_labels", "map_layers", "map_legend", "map_marks", "map_moves", "map_spaces",
                 "map_sprites", "map_stacks", "map_store", "map_style", "map_view")


def folder() -> Path:
    if os.environ.get("PBEM_CACHE_DIR"):
        return Path(os.environ["PBEM_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbem"


@cache
def _code() -> str:
    """What the drawing's code and its libraries are in this process."""
    digest = hashlib.sha256(f"{matplotlib.__version__} {np.__version__}".encode())
    for module in _DRAWING_CODE:
        digest.update((Path(__file__).with_name(f"{module}.py")).read_bytes())
    return digest.hexdigest()


def key(*parts: Any) -> str:
    """The key of a drawing made from ``parts`` (JSON data) by this code."""
    return hashlib.sha256(json.dumps([_code(), *parts], sort_keys=True).encode()).hexdigest()


def _prefix(kind: str) -> str:
    """How the names of this code's files of ``kind`` begin: those of older code can be told and removed."""
    return f"{kind}-{_code()[:16]}-"


def _file(kind: str, name: str) -> str:
    return f"{_prefix(kind)}{name}.npz"


def read(kind: str, name: str) -> dict[str, np.ndarray] | None:
    """The arrays kept under ``name`` (a key), if a readable file of that key is there."""
    try:
        with np.load(folder() / _file(kind, name), allow_pickle=False) as kept:
            arrays = {field: kept[field] for field in kept.files}
        return arrays if bytes(arrays.pop("key")).decode() == name else None
    except Exception:  # missing, cut short, foreign or corrupt: drawn again
        return None


def write(kind: str, name: str, arrays: dict[str, np.ndarray]) -> None:
    where = folder()
    try:
        where.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=where, prefix=f".{kind}-", suffix=".npz")
    except OSError:  # a folder that cannot be written: the drawing is made again next time
        return
    try:
        with os.fdopen(handle, "wb") as out:
            np.savez(out, key=np.frombuffer(name.encode(), np.uint8), **arrays)
        os.replace(temporary, where / _file(kind, name))
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return
    for older in where.glob(f"{kind}-*.npz"):  # what older code (or an older matplotlib) kept
        if not older.name.startswith(_prefix(kind)):
            with contextlib.suppress(OSError):
                older.unlink()
