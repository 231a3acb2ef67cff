"""A board drawn without matplotlib's Figure and Axes, whose import alone cost half a second of every
card game's turn: the artists of what changes from turn to turn (patches, texts, lines, markers) drawn
in zorder straight onto the Agg renderer through the transform an Axes would give them, over the
unchanging layers of the board (drawn once with a whole Figure and kept in the user's cache): its ground,
an RGBA picture of the whole sheet under everything (`board_layer`), and overlays laid at their zorder,
each the pixels of a clear sheet that are not clear (`board_overlay`)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, Bbox, BboxTransform, IdentityTransform

from pbem.render.kept import drawing_key, read_arrays, write_arrays

Box = tuple[float, float, float, float]  # left, bottom, width, height as fractions of the sheet
FIGURE = 1000  # the zorders of what a Figure holds outside its Axes start here


@dataclass(frozen=True)
class Overlay:
    """The pixels of a drawing on a clear background that are not clear: their indices in the image's
    flattened pixels, and their RGBA. A board's writing is a twentieth of its sheet: laid with numpy, it
    costs a twentieth of compositing the whole sheet, and keeps in a twentieth of the bytes."""

    index: np.ndarray
    rgba: np.ndarray

    @classmethod
    def of(cls, rgba: np.ndarray) -> Overlay:
        flat = rgba.reshape(-1, 4)
        index = np.flatnonzero(flat[:, 3])
        return cls(index, flat[index].copy())

    def fits(self, pixels: int) -> bool:
        """Whether it is an overlay of an image of ``pixels`` pixels (one read from disk may not be)."""
        index, rgba = self.index, self.rgba
        return (isinstance(index, np.ndarray) and isinstance(rgba, np.ndarray) and index.dtype == np.int64
                and index.ndim == 1 and rgba.dtype == np.uint8 and rgba.shape == (len(index), 4)
                and (not len(index) or 0 <= index.min() and index.max() < pixels))

    def lay(self, image: np.ndarray) -> None:
        """Lay it over ``image`` (RGBA, opaque, contiguous)."""
        flat = image.reshape(-1, 4)
        flat[self.index, :3] = over(self.rgba, flat[self.index, :3])


def over(source: np.ndarray, below: np.ndarray) -> np.ndarray:
    """``source`` (RGBA) over the opaque colours ``below``, rounded to the nearest."""
    alpha = source[..., 3:4].astype(np.uint16)
    return ((source[..., :3] * alpha + below * (255 - alpha) + 127) // 255).astype(np.uint8)


class Sheet:
    """The pixels of a figure `size` inches at `dpi`, with one Axes-like box `box` (figure fractions)
    showing `limits` (left, right, bottom, top, in board units)."""

    def __init__(self, size: tuple[float, float], dpi: float, box: Box, limits: Box):
        self.dpi = dpi
        self.width, self.height = size[0] * dpi, size[1] * dpi
        self.bbox = Bbox.from_bounds(0, 0, self.width, self.height)  # what a collection asks of its figure
        self.fractions = BboxTransform(Bbox.unit(), self.bbox)
        self.frame, self.data = self.place(box, limits)
        self._drawn: list[tuple[float, int, Callable[[RendererAgg], None]]] = []

    def place(self, box: Box, limits: Box) -> tuple[Bbox, BboxTransform]:
        """A box's pixels and its transform from board units, as an Axes at `box` showing `limits` has."""
        left, right, bottom, top = limits
        frame = Bbox.from_bounds(box[0] * self.width, box[1] * self.height, box[2] * self.width, box[3] * self.height)
        return frame, BboxTransform(Bbox.from_extents(left, bottom, right, top), frame)

    def get_figure(self, root: bool = False) -> Sheet:
        """What a text or marker asks of its figure (its dpi): the sheet stands in for it."""
        return self

    def add_drawing(self, zorder: float, draw: Callable[[RendererAgg], None]) -> None:
        """Something drawn onto the renderer at `zorder` that is no artist (pixels laid over it)."""
        self._drawn.append((zorder, len(self._drawn), draw))

    def add_artist(self, artist: Any, clip: Bbox | bool = True, transform: Any = None, above: float = 0) -> Any:
        """An artist in board units (`transform` else), clipped to the box as an Axes clips it (or to
        the box `clip`, or not at all)."""
        artist.set_transform(self.data if transform is None else transform)
        artist.set_figure(self)
        if clip:
            artist.set_clip_box(self.frame if clip is True else clip)
        self.add_drawing(above + artist.get_zorder(), artist.draw)
        return artist

    add_patch = add_collection = add_artist

    def text(self, x: float, y: float, text: str, **style: Any) -> Text:
        """As `Axes.text`: at board point (x, y), not clipped."""
        return self.add_artist(Text(x, y, text, **style), clip=False)

    def figure_text(self, x: float, y: float, text: str, **style: Any) -> Text:
        """As `Figure.text`: at figure fractions (x, y), over everything in the box (a Figure draws its
        Axes first)."""
        return self.add_artist(Text(x, y, text, **style), clip=False, transform=self.fractions, above=FIGURE)

    def title(self, text: str, fontsize: float, frame: Bbox | None = None, pad: float = 6, above: float = 0) -> Text:
        """As `Axes.set_title`: centred `pad` points above the box (`frame`, else the sheet's)."""
        frame = frame or self.frame
        lift = Affine2D().translate(frame.x0 + frame.width / 2, frame.y1 + pad * self.dpi / 72)
        return self.add_artist(Text(0, 0, text, fontsize=fontsize, ha="center", va="baseline"), clip=False,
                               transform=lift, above=above)

    def plot(self, xs: list[float], ys: list[float], **style: Any) -> Line2D:
        return self.add_artist(Line2D(xs, ys, **style))

    def lines(self, segments: list[list[tuple[float, float]]], **style: Any) -> LineCollection:
        return self.add_artist(LineCollection(segments, **style))

    def scatter(self, xs: list[float], ys: list[float], s: float, marker: str = "o", c: Any = None,
                edgecolors: Any = None, linewidths: Any = 1.5, zorder: float = 1, **style: Any) -> PathCollection:
        """As `Axes.scatter` with colours given (no colour map): markers of area `s` points² at board points."""
        shape = MarkerStyle(marker)
        if not shape.is_filled():  # a cross is all edge: its colour is the edge's, as Axes.scatter has it
            edgecolors = "face"
        markers = PathCollection((shape.get_path().transformed(shape.get_transform()),), sizes=[s],
                                 facecolors=c, edgecolors=edgecolors, linewidths=linewidths,
                                 offsets=np.column_stack([xs, ys]), offset_transform=self.data, zorder=zorder,
                                 **style)
        self.add_artist(markers, transform=IdentityTransform())
        return markers

    def layer(self, overlay: Overlay, zorder: float) -> None:
        """An overlay of the whole sheet (of its pixels, rows from the top) laid over what is drawn below
        `zorder` (on an opaque ground)."""
        self.add_drawing(zorder, lambda renderer: overlay.lay(np.asarray(renderer.buffer_rgba())))

    def pixels(self, ground: np.ndarray) -> np.ndarray:
        """Everything drawn in zorder (in the order added within one) over `ground` (opaque); RGBA rows from
        the top."""
        renderer = RendererAgg(self.width, self.height, self.dpi)
        np.asarray(renderer.buffer_rgba())[:] = ground
        self._draw(renderer)
        return np.asarray(renderer.buffer_rgba())

    def svg(self) -> bytes:
        """Everything drawn in zorder as SVG, its writing kept as text; a sheet at 72 dpi, whose pixels
        are the SVG's points. No date, and ids from the drawing (the `svg.hashsalt` in force): the same
        drawing is the same bytes."""
        from matplotlib.backends.backend_svg import RendererSVG  # only for a sheet drawn as SVG
        out = io.StringIO()
        renderer = RendererSVG(self.width, self.height, out, metadata={"Date": None, "Creator": None})
        self._draw(renderer)
        renderer.finalize()
        return out.getvalue().encode("utf-8")

    def _draw(self, renderer: Any) -> None:
        for _, _, draw in sorted(self._drawn, key=lambda drawn: drawn[:2]):
            draw(renderer)


def board_figure(size: tuple[float, float], dpi: float, box: Box, limits: Box, ground: bool) -> tuple[Any, Any]:
    """A Figure with the one Axes of a `Sheet(size, dpi, box, limits)`, to draw a layer of its board in:
    the `ground` (white, as a Figure is) or a clear sheet for what lies over the turn's drawing."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # a Figure only when a layer is drawn anew
    from matplotlib.figure import Figure
    figure = Figure(figsize=size, dpi=dpi)
    FigureCanvasAgg(figure)
    if not ground:
        figure.patch.set_alpha(0)
    axes = figure.add_axes(box)
    axes.set_xlim(limits[0], limits[1])
    axes.set_ylim(limits[2], limits[3])
    axes.axis("off")
    return figure, axes


def figure_pixels(figure: Any) -> np.ndarray:
    """A whole Figure's RGBA pixels, rows from the top (a board layer drawn with matplotlib's Figure)."""
    figure.canvas.draw()
    return np.array(figure.canvas.buffer_rgba())


_LAYERS: dict[str, np.ndarray | Overlay] = {}  # this process's last layers: the mail loop draws many turns of a board
KEPT = 8


def board_layer(drawn_by: tuple[str, ...], made_of: str, draw: Callable[[], np.ndarray]) -> np.ndarray:
    """The ground of a board: `draw()`'s RGBA pixels, made once for every process (`pbem.render.kept`) and
    kept under the modules that draw it (`drawn_by`, module names: its code, colours and words) and
    `made_of` (every fact of the board the layer shows)."""
    def read(arrays: dict[str, np.ndarray]) -> np.ndarray | None:
        pixels = arrays.get("pixels")
        fits = pixels is not None and pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 4
        return pixels if fits else None
    return _kept(drawing_key(drawn_by, made_of), draw, read, lambda pixels: {"pixels": pixels})


def board_overlay(drawn_by: tuple[str, ...], made_of: str, draw: Callable[[], np.ndarray], sheet: Sheet) -> Overlay:
    """An unchanging overlay of a board: the pixels of `draw()` (on a clear `sheet`) that are not clear, kept
    as `board_layer` keeps the ground."""
    def read(arrays: dict[str, np.ndarray]) -> Overlay | None:
        overlay = Overlay(arrays.get("index"), arrays.get("rgba"))
        return overlay if overlay.fits(round(sheet.width) * round(sheet.height)) else None
    return _kept(drawing_key(drawn_by, "overlay", made_of), lambda: Overlay.of(draw()), read,
                 lambda overlay: {"index": overlay.index, "rgba": overlay.rgba})


def _kept(key: str, draw: Callable[[], Any], read: Callable[[dict[str, np.ndarray]], Any],
          arrays: Callable[[Any], dict[str, np.ndarray]]) -> Any:
    if key not in _LAYERS:
        kept = read_arrays("board-layers", key)
        layer = read(kept) if kept is not None else None
        if layer is None:
            layer = draw()
            write_arrays("board-layers", key, arrays(layer))
        if len(_LAYERS) >= KEPT:
            del _LAYERS[next(iter(_LAYERS))]
        _LAYERS[key] = layer
    return _LAYERS[key]
