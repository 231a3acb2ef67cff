"""The look of the Axis & Allies board: the colours of all that is not a power's, of battles'
outcomes and of damage; an edition's ``Style`` (each power's colours and label, the units' short
labels and words, the theatres, whether the board wraps); the fonts and the sizes of writing, unit
boxes and arrows; and which outline an arrow of a given colour gets.

The fonts are the DejaVu files bundled with matplotlib, not looked up on the system, so that the
same inputs give the same pixels on every machine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
from matplotlib import patheffects
from matplotlib.backends.backend_agg import RendererAgg
from matplotlib.colors import to_rgb
from matplotlib.font_manager import FontProperties

from pbem.core.words import Words
from pbem.rulesets.axis_allies.reports import map_store

#: Colours of everything that is not a power's.
MAP_COLOURS: dict[str, str] = {
    "neutral": "#dcdad2",       # neutral territories (hatched)
    "neutral_hatch": "#b9b6aa",
    "uncontrolled": "#ffffff",  # a land territory missing from state['control']
    "sea": "#a7c6e5",
    "sea_edge": "#d9e7f5",
    "land_edge": "#2b2b2b",
    "background": "#7d9fc4",    # lakes, and the hair-line gaps between simplified outlines
    "name": "#1e1e1e",
    "sea_name": "#1f4a7a",
    "capital": "#fff36b",
    "wrap": "#ffffff",          # veil over the repeated strips of the full map
    "legend": "#f4f2ec",
}

#: Battle outcome -> colour of the battle's outline and tag.
BATTLE_COLOURS: dict[str, str] = {
    "captured": "#e8112d",  # the attacker won and took the territory
    "attacker": "#ff7f00",  # the attacker won without taking it (sea battle, only aircraft left)
    "defender": "#1f5fd6",  # the defender held
    "none": "#8e44ad",      # nobody left standing (or both sides left)
}

#: Bombing and rocket damage: its tag, and the rocket's arrow (in the ink).
DAMAGE_COLOURS: dict[str, str] = {"face": "#1a1a1a", "ink": "#ffc61a"}

#: The face of the box of units placed this turn (edged in the power's colour).
PLACED_FACE = "#ffffff"

CARGO_MARK = "\u25b8"
BURST = "\u2739"


@dataclass(frozen=True)
class Style:
    """An edition's map style, from the ``style`` of its drawing data (``Ruleset.map_data``).

    ``powers``: each power's colours, close to the board's own (``land`` fills the territories it
    controls, ``unit`` its unit boxes, move arrows and capital star outline, ``text`` the writing
    on its boxes) and ``mark``, the letter that names it on its boxes, in turn order; ``labels``:
    each power's short label; ``unit_labels``: unit type -> short label in the unit boxes, in
    unit-table order; ``theatres``: board windows ``(x0, x1,
    y0, y1)`` of the theatre maps, where x may run past the board's edges when the board wraps
    (the renderer then draws the wrapped copy); ``wraps``: the board wraps east-west.
    """

    powers: Mapping[str, Mapping[str, str]]
    labels: Mapping[str, str]
    unit_labels: Mapping[str, str]
    words: Words
    theatres: Mapping[str, tuple[int, int, int, int]]
    wraps: bool

    @classmethod
    def of(cls, graphics: Mapping[str, Any]) -> Style:
        """The style carried by ``graphics``."""
        style = graphics["style"]
        powers = {p: {"land": c["land"], "unit": c["unit"], "text": c["ink"], "mark": c["mark"]}
                  for p, c in style["powers"].items()}
        return cls(powers, {p: c["label"] for p, c in style["powers"].items()}, dict(style["unit_labels"]),
                   Words({p: c["text"] for p, c in style["powers"].items()},
                         {u: tuple(w) for u, w in style["unit_words"].items()}),
                   {t: tuple(w) for t, w in style["theatres"].items()}, bool(style["wraps"]))

    def land_colour(self, owner: str | None) -> str:
        """Fill colour of a land territory controlled by ``owner`` (``None``: neutral)."""
        if owner is None:
            return MAP_COLOURS["neutral"]
        colours = self.powers.get(owner)
        return colours["land"] if colours else MAP_COLOURS["uncontrolled"]

    def colours(self, power: str | None) -> Mapping[str, str]:
        """The colours of ``power``'s boxes and arrows (black for a power without any)."""
        return self.powers.get(power or "", {"land": MAP_COLOURS["uncontrolled"], "unit": "#000000",
                                              "text": "#ffffff"})

    def marked(self, power: str, lines: list[str]) -> list[str]:
        """A unit box's ``lines`` with its owner's letter in front, so that colour is not the only
        clue to whose units they are."""
        mark = self.powers.get(power, {}).get("mark")
        return [f"{mark} {lines[0]}", *lines[1:]] if mark and lines else lines

    def ordered_powers(self, powers: Iterable[str]) -> list[str]:
        """``powers`` in turn order (unknown ones last, by name)."""
        rank = {p: i for i, p in enumerate(self.powers)}
        return sorted(powers, key=lambda p: (rank.get(p, len(rank)), p))


#: The resolution at which the writing is measured and laid out (image pixels at scale 1).
DPI = 100
_MEASURE = RendererAgg(1, 1, DPI)
_FONT_DIR = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
_FONT_FILES = {
    "regular": _FONT_DIR / "DejaVuSans.ttf",
    "bold": _FONT_DIR / "DejaVuSans-Bold.ttf",
    "italic": _FONT_DIR / "DejaVuSans-Oblique.ttf",
}


@cache
def font(style: str, size: float) -> FontProperties:
    return FontProperties(fname=_FONT_FILES[style], size=size)


_SIZES: dict[tuple[str, str, float, str], tuple[float, float]] = {}
_SIZES_STATE = {"read": False, "measured": False}


def text_size(text: str, style: str, size: float) -> tuple[float, float]:
    """Width and height in pixels at ``DPI`` of one line of ``text`` (the hinting of the moment changes
    them), measured once: kept in this process and on disk (``keep_text_sizes``)."""
    if not _SIZES_STATE["read"]:
        _SIZES_STATE["read"] = True
        _SIZES.update(_sizes_from_disk())
    key = (text, style, size, matplotlib.rcParams["text.hinting"])
    if key not in _SIZES:
        if len(_SIZES) >= 20_000:  # a process that draws many games forgets them all past this, rather than grow
            _SIZES.clear()
        w, h, _ = _MEASURE.get_text_width_height_descent(text, font(style, size), ismath=False)
        _SIZES[key] = (w, h)
        _SIZES_STATE["measured"] = True
    return _SIZES[key]


def keep_text_sizes() -> None:
    if _SIZES_STATE["measured"]:
        sizes = json.dumps([[*key, *size] for key, size in _SIZES.items()])
        map_store.write("sizes", map_store.key("sizes", DPI), {"sizes": np.frombuffer(sizes.encode(), np.uint8)})
        _SIZES_STATE["measured"] = False


def _sizes_from_disk() -> dict[tuple[str, str, float, str], tuple[float, float]]:
    arrays = map_store.read("sizes", map_store.key("sizes", DPI))
    try:
        return {(text, style, float(size), hinting): (float(w), float(h))
                for text, style, size, hinting, w, h in json.loads(bytes(arrays["sizes"]).decode())
                if isinstance(text, str) and style in _FONT_FILES and isinstance(hinting, str)}
    except Exception:  # none kept, or not what this code keeps: measured again
        return {}


# Sizes of writing (points; at 100 dpi a point is 1.39 px) and boxes (image pixels).
NAME_PT = 6.0
SEA_NAME_PT = 6.6
STACK_PT = 6.6
TAG_PT = 6.4
LINE_SPACING = 1.18
BOX_PAD_PX = 2.2
BOX_GAP_PX = 2.0
STACK_TOP_PX = 2.0

#: The two outlines of an arrow: dark around a light body, light around a dark one.
ARROW_OUTLINES = ("#1a1a1a", "#ffffff")
_ARROW_OUTLINE_PT, _ARROW_BODY_PT = 3.8, 2.0
ARROW_HEAD_PT = 7
ARROW_STYLE = f"-|>,head_length={ARROW_HEAD_PT},head_width=3.5"
NONCOMBAT_DASHES = (0, (3.5, 2))
ROCKET_DOTS = (0, (1, 1.2))

#: A light outline behind the names, so that they read on every fill colour.
HALO = [patheffects.withStroke(linewidth=2.2, foreground="#ffffff", alpha=0.55)]


def contrast_ratio(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two colours: 1 (the same lightness) to 21 (black on white)."""
    def luminance(colour: str) -> float:
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    darker, lighter = sorted((luminance(first), luminance(second)))
    return (lighter + 0.05) / (darker + 0.05)


def ink_on(face: str) -> str:
    """Writing on ``face``: white or the names' near-black, whichever reads better (a battle's tag
    on orange or on blue)."""
    return max(("#ffffff", MAP_COLOURS["name"]), key=lambda ink: contrast_ratio(ink, face))


def arrow_layers(colour: str) -> list[tuple[str, float]]:
    """The strokes of an arrow whose body is ``colour``, outline first, as (colour, width in
    points). The outline is whichever of ``ARROW_OUTLINES`` stands out more from the body: where
    the land is as light as a light body (Japan's arrows on Japan's land) the dark outline shows,
    where it is as dark as a dark body the light one does."""
    outline = max(ARROW_OUTLINES, key=lambda c: contrast_ratio(colour, c))
    return [(outline, _ARROW_OUTLINE_PT), (colour, _ARROW_BODY_PT)]
