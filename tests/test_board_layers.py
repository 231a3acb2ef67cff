"""The card games' boards draw their unchanging layers once (pbem.render.sheet, kept in the user's
cache): a turn drawn with the layers cached gives the bytes of one that drew them, imports no
matplotlib Figure, and a bad cache entry is drawn again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PLAY = """
import json, sys
from pathlib import Path
from pbem.core.moderator import play_turn
from pbem.render import render_turn
_, files = play_turn(Path(sys.argv[1]), render_turn, True)
print(json.dumps({"map": files["map.png"].hex(), "figure": "matplotlib.figure" in sys.modules}))
"""


def play(turn: Path, cache: Path) -> dict:
    """The turn adjudicated in a new process with `cache` as its cache folder: its map and whether it
    imported matplotlib's Figure."""
    done = subprocess.run([sys.executable, "-c", PLAY, str(turn)], capture_output=True, text=True, check=True,
                          env={**os.environ, "PBEM_CACHE_DIR": str(cache), "MPLBACKEND": "Agg"},
                          cwd=cache.parent)  # not the checkout, whose folders `python -c` would import first
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("turn", ["undaunted-stalingrad/turns/16-011-r5-german.yaml",
                                  "qmg/turns/19-r4-germany.yaml"])
def test_a_cached_board_draws_the_same_map_without_a_figure(tmp_path, turn):
    game = turn.split("/")[0]
    shutil.copytree(EXAMPLES / game, tmp_path / game)
    cache = tmp_path / "cache"
    cold = play(tmp_path / turn, cache)
    assert cold["figure"]  # the layers are drawn with a whole Figure once
    warm = play(tmp_path / turn, cache)
    assert warm == {"map": cold["map"], "figure": False}
    for entry in (cache / "board-layers").iterdir():
        entry.write_bytes(entry.read_bytes()[:100])
    assert play(tmp_path / turn, cache) == cold  # a torn entry is drawn again, to the same bytes
