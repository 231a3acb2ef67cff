"""Pictures drawn once and kept for the processes to come (in the user's cache, `pbem.core.cache`): the
unchanging layers of each board, the Axis & Allies map's pieces of writing and their sizes. An entry is
a few named numpy arrays; a reader checks they are what it expects and draws again otherwise.

An entry's key names everything its pixels follow from: the source of each module that draws it (its
code, colours and words), the versions of matplotlib and numpy, and the drawing's facts. A change to
any of them draws it again; the entries no process reads any more go when unused for a while
(`pbem.core.cache`)."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterable
from functools import cache
from importlib.util import find_spec
from pathlib import Path

import numpy as np
from matplotlib import __version__ as MATPLOTLIB

from pbem.core.cache import cache_key, read_cached, write_cached


def drawing_key(drawn_by: Iterable[str], *facts: str) -> str:
    """The key of a drawing of `facts` made by the modules `drawn_by` (their names)."""
    return cache_key("drawing/2", MATPLOTLIB, np.__version__, *map(_source_digest, drawn_by), *facts)


@cache
def _source_digest(module: str) -> str:
    spec = find_spec(module)
    return hashlib.sha256(Path(spec.origin).read_bytes()).hexdigest()


def read_arrays(kind: str, key: str) -> dict[str, np.ndarray] | None:
    """The arrays kept as `kind` under `key`, if a whole entry is there."""
    body = read_cached(kind, key)
    if body is None:
        return None
    try:
        with np.load(io.BytesIO(body), allow_pickle=False) as kept:
            return {name: kept[name] for name in kept.files}
    except Exception:  # not arrays: drawn again
        return None


def write_arrays(kind: str, key: str, arrays: dict[str, np.ndarray]) -> None:
    body = io.BytesIO()
    np.savez_compressed(body, **arrays)  # pictures are mostly flat colours: a twentieth of the bytes to read and check
    write_cached(kind, key, body.getvalue())
