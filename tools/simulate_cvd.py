"""A board picture as a colour-blind player sees it, to check a palette by eye (issue 26):

    python tools/simulate_cvd.py MAP.png --kind deuteranopia --out MAP-deuteranopia.png

Uses the simulation tests/test_palettes.py measures with (colorspacious, after Machado, Oliveira &
Fernandes 2009, at full severity); needs the test extras (`pip install -e '.[test]'`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from colorspacious import cspace_convert
from matplotlib import image

KINDS = {"deuteranopia": "deuteranomaly", "protanopia": "protanomaly", "tritanopia": "tritanomaly"}


def simulate(rgb: np.ndarray, kind: str) -> np.ndarray:
    """``rgb`` (floats 0..1, height x width x 3) as seen with ``kind`` of dichromacy."""
    space = {"name": "sRGB1+CVD", "cvd_type": KINDS[kind], "severity": 100}
    return np.clip(cspace_convert(rgb, space, "sRGB1"), 0, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("png", type=Path)
    parser.add_argument("--kind", choices=sorted(KINDS), default="deuteranopia")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    pixels = image.imread(args.png)[..., :3].astype(float)
    image.imsave(args.out, simulate(pixels, args.kind))


if __name__ == "__main__":
    main()
