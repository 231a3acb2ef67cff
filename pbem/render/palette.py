"""A drawn figure as a palette PNG: the boards are a few dozen flat colours, so a 64-colour palette
PNG is a third of the size and looks the same, small enough for forums and every report that
carries it; the same drawing always gives the same bytes."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image


def palette_png(figure) -> bytes:
    canvas = figure.canvas
    canvas.draw()
    return palette_image(np.asarray(canvas.buffer_rgba()))


def palette_image(pixels: np.ndarray, colours: int = 64, width: int | None = None) -> bytes:
    """RGB or opaque RGBA pixels as a palette PNG of at most `colours` colours, made `width` pixels wide
    first when they are wider (averaging each pixel's area: smoother filters make more shades, and bigger
    files)."""
    image = Image.fromarray(pixels)
    if image.mode == "RGBA":  # as drawn: PIL drops the alpha four times faster than numpy copies RGB out
        image = image.convert("RGB")
    if width is not None and image.width > width:
        image = image.resize((width, round(image.height * width / image.width)), Image.Resampling.BOX)
    image = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


FORUM_MAP_BYTES = 300_000  # what forums commonly accept as one attached image


def forum_png(png: bytes) -> bytes:
    """A PNG as a 256-colour palette PNG small enough for forums (one that is already, as is)."""
    if len(png) <= FORUM_MAP_BYTES:
        return png
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
