"""The card games' boards draw their unchanging layers once (pbem.render.sheet, kept in the user's
cache): a turn drawn with the layers cached gives the bytes of one that drew them, imports no
matplotlib Figure, and a bad cache entry is drawn again."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from pbem.core.cache import write_cached
from pbem.render.kept import read_arrays, write_arrays

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


def test_kept_arrays_read_back_as_written_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    arrays = {"pixels": np.arange(24, dtype=np.uint8).reshape(2, 3, 4), "index": np.array([5, -1], np.int64),
              "none": np.zeros(0, np.uint8)}
    write_arrays("kind", "key", arrays)
    kept = read_arrays("kind", "key")
    assert list(kept) == list(arrays)
    assert all(kept[name].dtype == arrays[name].dtype and np.array_equal(kept[name], arrays[name]) for name in arrays)
    kept["pixels"][0, 0, 0] = 9  # writable, as drawn
    objects = b'[["x", "|O", [1]]]'
    for body in (b"not compressed", zlib.compress(b"\x02\x00\x00\x00[]left over"),
                 zlib.compress(len(objects).to_bytes(4, "little") + objects + bytes(8)),
                 zlib.compress(b"\x10\x00\x00\x00" + b'[["x", "|u1", [9]]]' + bytes(3))):
        write_cached("kind", "key", body)
        assert read_arrays("kind", "key") is None
