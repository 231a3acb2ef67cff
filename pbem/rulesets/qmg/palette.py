"""Each country's colours and mark on the Quartermaster General board, the one source that the
board, its pieces and its legend read (tests/test_palettes.py holds them apart under colour-blind
vision and holds the writing's contrast).

``fill`` is the country's pieces and home-space outline, ``ink`` the country's letter written on its
pieces (light on dark fills, dark on light ones), ``letter`` names the owner without colour."""

from __future__ import annotations

from typing import NamedTuple


class Role(NamedTuple):
    fill: str
    ink: str
    letter: str


#: Close to the game's own colours (Germany grey, UK yellow, Japan orange-brown, USSR red, Italy
#: violet, USA green) but spread in lightness and blue-yellow so that no two merge under
#: deuteranopia, protanopia or tritanopia.
ROLES: dict[str, Role] = {
    "germany": Role("#6f7876", "#ffffff", "G"),
    "united_kingdom": Role("#f7fd00", "#1a1a1a", "B"),
    "japan": Role("#a36404", "#ffffff", "J"),
    "soviet_union": Role("#761105", "#ffffff", "R"),
    "italy": Role("#3c2098", "#ffffff", "I"),
    "united_states": Role("#11d28d", "#1a1a1a", "U"),
}

#: Writing in the legend is dark on the figure's white, beside a swatch of the country's colour.
LEGEND_INK, LEGEND_FACE = "#1a1a1a", "#ffffff"
