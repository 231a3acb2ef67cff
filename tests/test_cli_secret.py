"""`pbem secret` where the secret cannot be written: a one-line error and exit 1, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app


def pbem(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_a_secret_in_a_missing_folder_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = pbem("secret", Path("nowhere") / "alice.yaml")
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot write {Path('nowhere') / 'alice.yaml'}: No such file or directory\n"
    assert result.stdout == ""
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a folder the user cannot write")
def test_a_secret_in_a_read_only_folder_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        result = pbem("secret", Path("locked") / "alice.yaml")
    finally:
        locked.chmod(0o700)
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot write {Path('locked') / 'alice.yaml'}: Permission denied\n"
    assert not (locked / "alice.yaml").exists()


def test_a_secret_is_still_written_and_its_commitment_printed(tmp_path):
    result = pbem("secret", tmp_path / "alice.yaml")
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.strip()) == 64
    assert (tmp_path / "alice.yaml").stat().st_mode & 0o077 == 0


def test_a_secret_under_a_file_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    result = pbem("secret", Path("notes.txt") / "alice.yaml")
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot write {Path('notes.txt') / 'alice.yaml'}: Not a directory\n"
