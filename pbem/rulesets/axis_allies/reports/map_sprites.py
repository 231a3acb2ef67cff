"""Pixels drawn once and laid on the map many times: a piece of writing (a space's name, a unit box, a
tag) as a ``Sprite`` (a layer of what no turn changes, markers and the wrapped edges, is an ``Overlay`` of
``pbem.render.sheet``).

Matplotlib's Agg draws a piece of writing moved by whole pixels as the same pixels moved, so each
``Writing`` is drawn once, alone on a clear pad at a whole-pixel anchor, and laid at the whole pixel
nearest to where the map writes it (at most half a pixel off). It is always laid that way, never drawn
in place: the map's pixels are the same whether the writing was just drawn or reused.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

import numpy as np
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.text import Text
from matplotlib.transforms import IdentityTransform

from pbem.render.sheet import Sheet, over
from pbem.rulesets.axis_allies.reports import map_store
from pbem.rulesets.axis_allies.reports.map_marks import Writing


@dataclass(frozen=True)
class Sprite:
    """A writing's pixels (RGBA, rows from the top, alpha not premultiplied) and where their top left
    corner is from the writing's anchor (columns right, rows down)."""

    pixels: np.ndarray
    left: int
    top: int


_SPRITES: dict[tuple[Writing, float], Sprite] = {}
_MOST_SPRITES = 20_000  # a process that draws many games forgets them all past this, rather than grow
_READ: set[float] = set()  # the resolutions whose writing kept on disk was read
_DRAWN: set[float] = set()  # the resolutions with writing drawn since it was last kept on disk


def sprite(writing: Writing, dpi: float) -> Sprite:
    """The pixels of ``writing`` drawn at ``dpi``: kept in this process, else kept on disk by an earlier
    one, else drawn."""
    if dpi not in _READ:
        _READ.add(dpi)
        _SPRITES.update(_from_disk(dpi))
    key = (writing, dpi)
    if key not in _SPRITES:
        if len(_SPRITES) >= _MOST_SPRITES:
            _SPRITES.clear()
        _SPRITES[key] = _draw(writing, dpi)
        _DRAWN.add(dpi)
    return _SPRITES[key]


def keep_sprites() -> None:
    """Keep on disk, for the processes to come, all the writing of each resolution that had some drawn."""
    for dpi in sorted(_DRAWN):
        kept = [(w, piece) for (w, at), piece in _SPRITES.items() if at == dpi]
        specs = [[w.text, w.style, w.size, w.colour, w.ha, w.va, w.box, w.halo, w.linespacing] for w, _ in kept]
        frames = np.array([[*piece.pixels.shape[:2], piece.left, piece.top] for _, piece in kept], np.int64)
        map_store.write("writing", map_store.key("writing", dpi), {
            "specs": np.frombuffer(json.dumps(specs).encode(), np.uint8), "frames": frames.reshape(-1, 4),
            "pixels": np.concatenate([piece.pixels.reshape(-1) for _, piece in kept] or [np.zeros(0, np.uint8)])})
    _DRAWN.clear()


def _from_disk(dpi: float) -> dict[tuple[Writing, float], Sprite]:
    arrays = map_store.read("writing", map_store.key("writing", dpi))
    try:
        specs = json.loads(bytes(arrays["specs"]).decode())
        frames, pixels = arrays["frames"], arrays["pixels"]
        if frames.shape != (len(specs), 4) or frames.dtype != np.int64 or pixels.dtype != np.uint8:
            return {}
        sizes = frames[:, 0] * frames[:, 1] * 4
        if (frames[:, :2] < 0).any() or int(sizes.sum()) != len(pixels):
            return {}
        ends = np.cumsum(sizes)
        return {(Writing(text, style, size, colour, ha, va, tuple(map(tuple, box)) if box else None, halo, spacing),
                 dpi): Sprite(pixels[end - n:end].reshape(h, w, 4), int(left), int(top))
                for (text, style, size, colour, ha, va, box, halo, spacing), (h, w, left, top), n, end
                in zip(specs, frames, sizes, ends)}
    except Exception:  # none kept, or not what this code keeps: drawn again
        return {}


def forget_sprites() -> None:
    _SPRITES.clear()
    _READ.clear()
    _DRAWN.clear()


def _draw(writing: Writing, dpi: float) -> Sprite:
    text = Text(0, 0, writing.text, transform=IdentityTransform(), **writing.kwargs())
    text.set_figure(Sheet((1, 1), dpi, (0, 0, 1, 1), (0, 1, 0, 1)))  # what writing needs of a figure: its dpi
    extent = text.get_window_extent(RendererAgg(1, 1, dpi))
    margin = math.ceil(writing.size * dpi / 72) + 8  # boxes, badges' circles and halos reach past the text
    x, y = margin + math.ceil(-extent.x0), margin + math.ceil(-extent.y0)
    width, height = math.ceil(extent.width) + 2 * margin + 1, math.ceil(extent.height) + 2 * margin + 1
    renderer = RendererAgg(width, height, dpi)
    text.set_position((x, y))
    text.draw(renderer)
    pixels = np.asarray(renderer.buffer_rgba())
    rows, cols = np.flatnonzero(pixels[:, :, 3].any(axis=1)), np.flatnonzero(pixels[:, :, 3].any(axis=0))
    if not len(rows):
        return Sprite(np.zeros((0, 0, 4), np.uint8), 0, 0)
    top, left = int(rows[0]), int(cols[0])
    return Sprite(pixels[top:rows[-1] + 1, left:cols[-1] + 1].copy(), left - x, top - (height - y))


def lay(image: np.ndarray, piece: Sprite, column: int, row: int, window: tuple[int, int, int, int]) -> None:
    """Lay ``piece`` over ``image`` (RGBA, opaque) with its anchor at pixel (``column``, ``row``), within
    ``window`` (first row, end row, first column, end column)."""
    height, width = piece.pixels.shape[:2]
    top, left = row + piece.top, column + piece.left
    r0, r1 = max(top, window[0]), min(top + height, window[1])
    c0, c1 = max(left, window[2]), min(left + width, window[3])
    if r0 >= r1 or c0 >= c1:
        return
    below = image[r0:r1, c0:c1, :3]
    below[...] = over(piece.pixels[r0 - top:r1 - top, c0 - left:c1 - left], below)
