"""What the reports of the games with one public map share: every audience's report in every format,
the public one carrying the map, and the map as map.png."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from pbem.core.folder import REPORTS, private_reports

if TYPE_CHECKING:  # a game's report module imports this one; numpy and PIL only when a map is drawn
    import numpy as np

Formats = Callable[[str, "str | None"], dict[str, str]]
"""An audience's report in each format ("md", "bbcode", "html"), given the map as base64 PNG or None."""


def reports_with_map(pixels: np.ndarray, audiences: Iterable[str], formats: Formats) -> dict[str, bytes]:
    """map.png of `pixels` (RGB or opaque RGBA), the public report with the map in it and each of
    `audiences`' private report without it: the map is the same for everyone and travels once. The PNG
    is made on a second thread while the private reports are written (PIL quantises and compresses
    without holding the interpreter); it is the same bytes either way."""
    from concurrent.futures import ThreadPoolExecutor

    from pbem.render.palette import palette_image
    with ThreadPoolExecutor(max_workers=1) as pool:
        png = pool.submit(palette_image, pixels)
        private = {}
        for audience in audiences:
            texts = formats(audience, None)
            private.update({name: texts[name.rsplit(".", 1)[1]].encode("utf-8") for name in private_reports(audience)})
        drawing = png.result()
    public = formats("public", base64.b64encode(drawing).decode("ascii"))
    return {"map.png": drawing, **{name: public[name.rsplit(".", 1)[1]].encode("utf-8") for name in REPORTS},
            **private}
