"""Every game's role colours stay apart for colour-blind players, and every piece of writing on a
board or legend reads against what it is drawn on (issue 26).

Colours are compared in CAM02-UCS (Luo, Cui & Li 2006), whose distance ΔE' is perceptually uniform:
about 1 is a just-noticeable difference between large patches side by side. Roles are told apart on
small chips, thin outlines and territories far apart on the map, where a difference must be seen at
a glance, not found by comparison; ΔE' >= 12 (about the step between neighbouring colours of a
12-colour categorical palette such as Okabe-Ito under the same simulations) is held for every pair
under normal vision and under full deuteranopia, protanopia and tritanopia as simulated by
colorspacious (Machado, Oliveira & Fernandes 2009, severity 100).

Writing is held to WCAG 2 AA, a contrast ratio of at least 4.5:1 with its background.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE
from matplotlib.colors import to_rgb

from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies.reports.map_style import (
    BATTLE_COLOURS,
    DAMAGE_COLOURS,
    MAP_COLOURS,
    PLACED_FACE,
    contrast_ratio,
    ink_on,
)
from pbem.rulesets.qmg import board_image as qmg_board
from pbem.rulesets.qmg import palette as qmg
from pbem.rulesets.undaunted import map_image as undaunted

THRESHOLD = 12.0
AA_TEXT = 4.5
VISIONS = ("normal", "deuteranomaly", "protanomaly", "tritanomaly")
AA_EDITIONS = ("aa-revised", "aa-europe")


def _seen(colour: str, vision: str) -> np.ndarray:
    rgb = np.array(to_rgb(colour))
    if vision == "normal":
        return rgb
    space = {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}
    return np.clip(cspace_convert(rgb, space, "sRGB1"), 0, 1)


def _role_sets() -> dict[str, dict[str, str]]:
    """Each game's sets of colours that name a role, from the data the drawing reads."""
    sets = {}
    for ruleset in AA_EDITIONS:
        powers = edition(ruleset).meta["powers"]
        # neutral territories are drawn as a role of their own among the powers' lands
        sets[f"{ruleset} land"] = {p: c["land"] for p, c in powers.items()} | {"neutral": MAP_COLOURS["neutral"]}
        sets[f"{ruleset} units"] = {p: c["unit"] for p, c in powers.items()}
    sets["qmg countries"] = {country: role.fill for country, role in qmg.ROLES.items()}
    sets["qmg teams"] = dict(qmg_board.TEAM_COLOURS)  # the straits' lines and the VP track
    sets["undaunted sides"] = dict(undaunted.COLOURS)
    sets["undaunted suppressed"] = dict(undaunted.SUPPRESSED)
    return sets


def _writing() -> list[tuple[str, str, str]]:
    """Every (what, writing colour, background colour) pair the boards and legends draw."""
    pairs = []
    for ruleset in AA_EDITIONS:
        for power, c in edition(ruleset).meta["powers"].items():
            pairs.append((f"{ruleset} {power} unit box", c["ink"], c["unit"]))
            pairs.append((f"{ruleset} {power} territory name", MAP_COLOURS["name"], c["land"]))
        pairs.append((f"{ruleset} placed units", MAP_COLOURS["name"], PLACED_FACE))
        pairs.append((f"{ruleset} neutral name", MAP_COLOURS["name"], MAP_COLOURS["neutral"]))
        pairs.append((f"{ruleset} sea zone name", MAP_COLOURS["sea_name"], MAP_COLOURS["sea"]))
        pairs.append((f"{ruleset} legend", "#000000", MAP_COLOURS["legend"]))
    for outcome, face in BATTLE_COLOURS.items():
        pairs.append((f"a&a battle tag {outcome}", ink_on(face), face))
    pairs.append(("a&a damage tag", DAMAGE_COLOURS["ink"], DAMAGE_COLOURS["face"]))
    for country, role in qmg.ROLES.items():
        pairs.append((f"qmg {country} piece letter", role.ink, role.fill))
    pairs.append(("qmg legend", qmg.LEGEND_INK, qmg.LEGEND_FACE))
    for side, colour in undaunted.COLOURS.items():
        pairs.append((f"undaunted {side} unit", undaunted.UNIT_INK, colour))
        pairs.append((f"undaunted {side} suppressed unit", undaunted.UNIT_INK, undaunted.SUPPRESSED[side]))
    return pairs


@pytest.mark.parametrize("vision", VISIONS)
@pytest.mark.parametrize("name", sorted(_role_sets()))
def test_every_pair_of_roles_stays_apart(name: str, vision: str) -> None:
    colours = _role_sets()[name]
    close = [(a, b, round(float(deltaE(_seen(colours[a], vision), _seen(colours[b], vision), input_space="sRGB1")), 1))
             for a, b in itertools.combinations(colours, 2)]
    assert [c for c in close if c[2] < THRESHOLD] == []


@pytest.mark.parametrize(("what", "ink", "face"), _writing(), ids=[w[0] for w in _writing()])
def test_writing_meets_wcag_aa(what: str, ink: str, face: str) -> None:
    assert contrast_ratio(ink, face) >= AA_TEXT


@pytest.mark.parametrize("ruleset", AA_EDITIONS)
def test_every_power_has_its_own_letter(ruleset: str) -> None:
    """Unit boxes name their owner by a letter as well as by colour (one letter, none shared)."""
    marks = [c["mark"] for c in edition(ruleset).meta["powers"].values()]
    assert all(len(m) == 1 for m in marks) and len(set(marks)) == len(marks)


def test_every_qmg_country_has_its_own_letter() -> None:
    letters = [role.letter for role in qmg.ROLES.values()]
    assert len(set(letters)) == len(letters) == 6
