"""A turn's outputs are all old or all new (issue 8): `--force` swaps a whole folder, one run at a
time writes a game, no turn writes into the folder of the start or of another turn, and a write
error is a message that leaves nothing behind.

Every test works in a copy of the example game under a temporary folder (see
test_cli_end_to_end.py, whose helpers and fixtures these are).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core import turn as turn_module
from pbem.core.turn import LOCK_FILE, staging_folder
from test_cli_end_to_end import (EXAMPLE, TURN, assert_nothing_written, assert_problem, game,  # noqa: F401
                                 line_of, output_of, pbem, played, played_copy, snapshot)

ASIDE = ".01-ussr.pbem-old"  # where a two-step swap puts the old outputs for a moment


def set_field(path: Path, name: str, value: str) -> None:
    """Rewrite one top-level `name:` line of a YAML file."""
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(rf"(?m)^{name}: .*$", f"{name}: {value}", text), encoding="utf-8")


def hidden(folder: Path) -> list[str]:
    """Dot-files and dot-folders anywhere under `folder`: staging folders, lock files."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(".*"))


def output_problem(game: Path, result, *phrases: str) -> str:
    """The run failed with a problem on the turn file's `output:` line saying every phrase."""
    assert result.exit_code == 1, result.stderr
    return assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line_of(game / TURN, 'output:')}",
                          "output", *phrases)


# ---------------------------------------------------------------------------------------------
# --force swaps the whole folder


def two_steps(monkeypatch) -> None:
    """Make the swap take the way of a system without an atomic exchange of folders."""
    monkeypatch.setattr(turn_module, "_exchange", lambda a, b: False)


@pytest.mark.parametrize("swap", ["exchange", "two steps"])
def test_force_replaces_the_whole_output_folder(played_copy, monkeypatch, swap):
    if swap == "two steps":
        two_steps(monkeypatch)
    out = output_of(played_copy)
    fresh = snapshot(out)
    (out / "report.md").write_text("edited by hand\n", encoding="utf-8")
    (out / "map.png").unlink()
    result = pbem("adjudicate", played_copy / TURN, "--force")
    assert result.exit_code == 0, result.stderr
    assert snapshot(out) == fresh, "a file of the old outputs was kept"
    assert hidden(played_copy) == []


def test_force_never_replaces_a_folder_holding_other_files(played_copy):
    """--force replaces an output folder whole, so one holding anything else (the turns folder,
    the orders, a player's notes) is refused instead of swept away."""
    out = output_of(played_copy)
    (out / "notes-of-the-moderator.txt").write_text("not an output\n", encoding="utf-8")
    before = snapshot(played_copy)
    result = pbem("adjudicate", played_copy / TURN, "--force")
    assert result.exit_code == 1
    assert_problem(result.stderr, "game/turns/01-ussr.yaml:11", "output", "holds notes-of-the-moderator.txt",
                   "which no turn writes")
    assert snapshot(played_copy) == before
    set_field(played_copy / TURN, "output", ".")  # the turns folder itself
    result = pbem("adjudicate", played_copy / TURN, "--force")
    assert result.exit_code == 1 and "which no turn writes" in result.stderr
    assert sorted(p.name for p in (played_copy / "turns").iterdir()) == ["01-ussr.yaml"]


def test_folders_exchange_in_one_step(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x").write_text("a", encoding="utf-8")
    (tmp_path / "b").mkdir()
    assert turn_module._exchange(tmp_path / "a", tmp_path / "b")  # Linux and its usual file systems
    assert [p.name for p in (tmp_path / "b").iterdir()] == ["x"] and not any((tmp_path / "a").iterdir())


@pytest.mark.parametrize("died", ["after setting the old outputs aside", "after the swap"])
def test_a_run_that_died_while_swapping_is_finished_by_the_next(played_copy, died):
    out = output_of(played_copy)
    old = snapshot(out)
    if died == "after the swap":
        shutil.copytree(out, played_copy / ASIDE)
    else:
        out.rename(played_copy / ASIDE)
    staging_folder(out).mkdir()
    (staging_folder(out) / "state.yaml").write_text("half writ", encoding="utf-8")
    result = pbem("adjudicate", played_copy / TURN)
    # the old outputs are back (or were never gone), so without --force they are not replaced
    output_problem(played_copy, result, "already holds")
    assert snapshot(out) == old
    assert hidden(played_copy) == []


# ---------------------------------------------------------------------------------------------
# one run at a time


HOLD_THE_LOCK = """
import sys
from pbem.core.turn import turn_lock
with turn_lock(sys.argv[1]):
    print("locked", flush=True)
    sys.stdin.read()
"""


def test_a_second_run_is_refused_while_another_holds_the_game(game):
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, str(game / TURN)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True, cwd=game)  # not the repository's pbem/
    try:
        assert holder.stdout.readline() == "locked\n"
        before = snapshot(game)
        result = pbem("adjudicate", game / TURN)
        assert result.exit_code == 1
        assert_problem(result.stderr, f"game/{LOCK_FILE}", "(document)", "another pbem run is writing this game")
        assert snapshot(game) == before
    finally:
        holder.communicate("")
    assert holder.returncode == 0
    assert not (game / LOCK_FILE).exists(), "the lock file outlived the run that held it"
    result = pbem("adjudicate", game / TURN)
    assert result.exit_code == 0, result.stderr
    assert hidden(game) == []


# ---------------------------------------------------------------------------------------------
# folders no turn may write


def other_turn(game: Path, state: str, output: str) -> Path:
    """A second turn file in the game, reading `state` and writing `output`."""
    path = game / "turns" / "00-other.yaml"
    shutil.copy2(game / TURN, path)
    set_field(path, "state", state)
    set_field(path, "output", output)
    return path


@pytest.mark.parametrize("output, other, phrase", [
    ("..", None, "lies outside the game folder"),  # the game folder itself: outputs lie strictly inside
    ("../start/inner", None, "holds the input state"),
    ("../theirs", ("../elsewhere/state.yaml", "../theirs"), "is where game/turns/00-other.yaml writes"),
    ("../theirs", ("../elsewhere/state.yaml", "../theirs/inner"), "is where game/turns/00-other.yaml writes"),
    ("../theirs", ("../theirs/inner/state.yaml", "../next"), "holds the state that game/turns/00-other.yaml"),
])
def test_a_turn_never_writes_where_the_start_or_another_turn_lives(game, output, other, phrase):
    if other:
        other_turn(game, *other)
    set_field(game / TURN, "output", output)
    before = snapshot(game)
    for force in ([], ["--force"]):
        result = pbem("adjudicate", game / TURN, *force)
        output_problem(game, result, phrase)
        assert snapshot(game) == before


def test_a_turn_file_changed_since_the_last_turn_is_read_again(game):
    """The turn files' names are kept between turns of one process (the mail loop): a file rewritten to
    the same size in place is read again."""
    other = other_turn(game, "../elsewhere/state.yaml", "../aaaaaa")
    set_field(game / TURN, "output", "../theirs")
    assert pbem("adjudicate", game / TURN).exit_code == 0
    set_field(other, "output", "../theirs")
    output_problem(game, pbem("adjudicate", game / TURN, "--force"), "is where game/turns/00-other.yaml writes")


def test_a_later_turn_never_writes_where_the_game_starts(played_copy):
    later = played_copy / "turns" / "02-germany.yaml"
    shutil.copy2(EXAMPLE / "turns" / "02-germany.yaml", later)
    shutil.copy2(EXAMPLE / "orders" / "02-germany.yaml", played_copy / "orders")
    set_field(later, "output", "../start")
    before = snapshot(played_copy)
    result = pbem("adjudicate", later, "--force")
    assert result.exit_code == 1
    assert_problem(result.stderr, f"game/turns/02-germany.yaml:{line_of(later, 'output:')}", "output",
                   "game/start is or encloses game/start, which is the folder of the game's opening state")
    assert snapshot(played_copy) == before


def test_re_adjudicating_a_turn_that_a_later_turn_starts_from(played_copy):
    later = played_copy / "turns" / "02-germany.yaml"
    shutil.copy2(EXAMPLE / "turns" / "02-germany.yaml", later)
    out = output_of(played_copy)
    # the same orders give the same state: the later turn still follows, the reports are redrawn
    assert pbem("adjudicate", played_copy / TURN, "--force").exit_code == 0
    (played_copy / "orders" / "01-ussr.yaml").write_text("power: ussr\n", encoding="utf-8")
    before = snapshot(played_copy)
    result = pbem("adjudicate", played_copy / TURN, "--force")
    output_problem(played_copy, result, "game/turns/02-germany.yaml starts from game/01-ussr/state.yaml",
                   "fork the game")
    assert snapshot(played_copy) == before
    assert out.is_dir()


# ---------------------------------------------------------------------------------------------
# write errors


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES, errno.EROFS])
@pytest.mark.parametrize("replacing", [False, True])
def test_a_write_error_is_a_message_and_leaves_nothing_behind(game, played, monkeypatch, code, replacing):
    if replacing:
        shutil.rmtree(game)
        shutil.copytree(played, game)
    before = snapshot(game)
    write_bytes = Path.write_bytes

    def fail_on_the_report(path: Path, data: bytes) -> int:
        if path.name == "report.html":
            raise OSError(code, os.strerror(code), str(path))
        return write_bytes(path, data)

    monkeypatch.setattr(Path, "write_bytes", fail_on_the_report)
    result = pbem("adjudicate", game / TURN, *(["--force"] if replacing else []))
    output_problem(game, result, "cannot write", "report.html", os.strerror(code), "old outputs are as they were")
    if replacing:
        assert snapshot(game) == before
        assert hidden(game) == []
    else:
        assert_nothing_written(game, before, result)


def test_a_file_in_the_way_of_the_output_folder(game):
    (game / "outputs").write_text("a file, not a folder\n", encoding="utf-8")
    set_field(game / TURN, "output", "../outputs/01-ussr")
    before = snapshot(game)
    result = pbem("adjudicate", game / TURN)
    output_problem(game, result, "game/outputs is a file, where game/outputs/01-ussr needs a folder")
    assert snapshot(game) == before
