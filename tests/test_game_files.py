"""game.yaml and secret.yaml that a moderator edited or someone else sent (issue 8): a missing or
malformed seed and an unbounded chain are located messages, and `pbem new` writes a whole game
folder or nothing."""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from pbem.core.chain import MAX_CHAIN_LENGTH
from test_cli_end_to_end import EXAMPLE, assert_problem, pbem, tree

SEED = "ab" * 32

BAD_SECRETS = {
    "no secret": ("{chain_length: 1000}\n", "(document)", "missing 'secret'"),
    "not hex": ("{secret: %s, chain_length: 1000}\n" % ("xy" * 32), "secret", "not a seed"),
    "too short": ("{secret: abcd, chain_length: 1000}\n", "secret", "not a seed"),
    "a number": ("{secret: 12, chain_length: 1000}\n", "secret", "not a seed"),
    "no chain length": ("{secret: %s}\n" % SEED, "chain_length", "not a usable chain length"),
    "endless chain": ("{secret: %s, chain_length: 1000000000000}\n" % SEED, "chain_length",
                      "not a usable chain length"),
    "chain of text": ("{secret: %s, chain_length: long}\n" % SEED, "chain_length", "not a usable chain length"),
    "a list": ("- secret\n", "(document)", "not a mapping"),
}


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "game"
    folder.mkdir()
    for name in ("game.yaml", "secret.yaml"):
        shutil.copy2(EXAMPLE / name, folder / name)
    shutil.copytree(EXAMPLE / "start", folder / "start")
    (folder / "turns").mkdir()
    return folder


@pytest.mark.parametrize("case", sorted(BAD_SECRETS))
def test_a_broken_secret_file_is_a_located_message(game, case):
    text, field, phrase = BAD_SECRETS[case]
    (game / "secret.yaml").write_text(text, encoding="utf-8")
    for command in (["seed", game, 1], ["verify", game]):
        result = pbem(*command)
        assert result.exit_code == 1
        line = assert_problem(result.stderr, "game/secret.yaml:1", field, phrase)
        if field == "chain_length":
            assert f"(allowed: a whole number from 1 to {MAX_CHAIN_LENGTH:,})" in line


@pytest.mark.parametrize("dice, field, phrase", [
    ("{chain_length: 1000}", "dice", "missing 'commitment'"),
    ("{chain_length: 1000, commitment: not-hex}", "dice.commitment", "not a seed"),
    ("{chain_length: 99999999999999, commitment: %s}" % SEED, "dice.chain_length", "not a usable chain length"),
    ("abc", "dice", "not a mapping"),
])
def test_a_broken_dice_block_in_game_yaml_is_a_located_message(game, dice, field, phrase):
    path = game / "game.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines, start=1) if line.startswith("dice:"))
    lines[number - 1] = f"dice: {dice}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = pbem("verify", game)
    assert result.exit_code == 1
    assert_problem(result.stderr, f"game/game.yaml:{number}", field, phrase)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_new_writes_a_whole_game_folder_or_nothing(tmp_path, monkeypatch, code):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    write_text = Path.write_text

    def fail_on_the_state(path: Path, *args, **kwargs) -> int:
        if path.name == "state.yaml":
            raise OSError(code, os.strerror(code), str(path))
        return write_text(path, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", fail_on_the_state)
    for folder in ("mygame", "empty"):
        result = pbem("new", "aa-revised", folder)
        assert result.exit_code == 1
        assert_problem(result.stderr, f".{folder}.pbem-new/start/state.yaml", "(document)",
                       "cannot write the game folder", os.strerror(code), "nothing was created")
        assert tree(tmp_path) == ["empty"]


def test_new_refuses_a_file_in_the_way(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").write_text("a file\n", encoding="utf-8")
    for folder, where, phrase in [("taken", "taken", "a file, not a folder"),
                                  ("taken/mygame", "taken", "cannot write the game folder")]:
        result = pbem("new", "aa-revised", folder)
        assert result.exit_code == 1
        assert_problem(result.stderr, where, "(document)", phrase)
    assert tree(tmp_path) == ["taken"]


def test_new_fills_the_empty_folder_it_stands_in(tmp_path, monkeypatch):
    """`pbem new aa-revised .` in a new empty folder: the folder itself stays (its rights, and a
    shell standing in it), and the game is made inside it."""
    folder = tmp_path / "club"
    folder.mkdir()
    inode = folder.stat().st_ino
    monkeypatch.chdir(folder)
    result = pbem("new", "aa-revised", ".")
    assert result.exit_code == 0, result.stderr
    assert folder.stat().st_ino == inode
    assert sorted(p.name for p in folder.iterdir()) == ["game.yaml", "secret.yaml", "standing", "start", "turns"]
    assert pbem("verify", ".").exit_code == 0


def test_verify_compares_an_html_report_without_its_drawings():
    from pbem.core.game import comparable
    page = (b'<p>Germany takes Karelia</p><img src="data:image/png;base64,iVBORw0KGgo=">'
            b'<svg viewBox="0 0 10 10"><path d="M0 0"/></svg><area coords="1,2,3.5" title="3 infantry">'
            b'<div data-action="10,20,30,40" data-label="Moscow">')
    redrawn = page.replace(b"iVBORw0KGgo=", b"AAAA").replace(b"M0 0", b"M1 1").replace(b"1,2,3.5", b"2,2,3")
    redrawn = redrawn.replace(b"10,20,30,40", b"11,20,30,40")
    assert comparable("report.html", page) == comparable("report.html", redrawn)
    for faked in (page.replace(b"Karelia", b"Moscow"), page.replace(b"3 infantry", b"4 infantry"),
                  page.replace(b'data-label="Moscow"', b'data-label="Berlin"')):
        assert comparable("report-germany.html", faked) != comparable("report-germany.html", page)
    assert comparable("report.md", page) == page
