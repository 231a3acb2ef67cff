"""Pictures drawn once and kept for the processes to come (in the user's cache, `pbem.core.cache`): the
unchanging layers of each board, the Axis & Allies map's pieces of writing and their sizes. An entry is
a few named numpy arrays; a reader checks they are what it expects and draws again otherwise.

An entry's key names everything its pixels follow from: the source of each module that draws it (its
code, colours and words), the versions of matplotlib and numpy, and the drawing's facts. A change to
any of them draws it again; the entries no process reads any more go when unused for a while
(`pbem.core.cache`)."""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Iterable

import numpy as np
from matplotlib import __version__ as MATPLOTLIB

from pbem.core.cache import cache_key, read_cached, source_digest, write_cached


def drawing_key(drawn_by: Iterable[str], *facts: str) -> str:
    """The key of a drawing of `facts` made by the modules `drawn_by` (their names)."""
    return cache_key("drawing/2", MATPLOTLIB, np.__version__, *map(source_digest, drawn_by), *facts)


def read_arrays(kind: str, key: str) -> dict[str, np.ndarray] | None:
    """The arrays kept as `kind` under `key`, if a whole entry of plain arrays is there."""
    body = read_cached(kind, key)
    if body is None:
        return None
    try:
        data = bytearray(zlib.decompress(body))  # writable arrays, as drawn
        size = int.from_bytes(data[:4], "little")
        arrays, offset = {}, 4 + size
        for name, dtype, shape in json.loads(data[4:offset]):
            dtype = np.dtype(dtype)
            count = math.prod(shape)
            if dtype.hasobject or offset + count * dtype.itemsize > len(data):
                return None
            arrays[name] = np.frombuffer(data, dtype, count, offset).reshape(shape)
            offset += count * dtype.itemsize
        return arrays if offset == len(data) else None
    except (zlib.error, ValueError, TypeError):  # not an entry of this form: drawn again
        return None


def write_arrays(kind: str, key: str, arrays: dict[str, np.ndarray]) -> None:
    """Keep `arrays` as `kind` under `key`: a list of names, types and shapes, then their bytes, compressed
    as fast as zlib goes (a picture is mostly flat colours: a fiftieth of its bytes, read back in a few ms)."""
    header = json.dumps([[name, array.dtype.str, array.shape] for name, array in arrays.items()]).encode()
    parts = [len(header).to_bytes(4, "little"), header, *(np.ascontiguousarray(a).tobytes() for a in arrays.values())]
    write_cached(kind, key, zlib.compress(b"".join(parts), 1))
