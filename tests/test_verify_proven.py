"""`pbem verify` checks what it reads from disk, not what it re-played itself (issue 27): a state file
holding the very bytes a re-played turn produced is read back as that turn's data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pbem.core import turn as turn_module
from pbem.core.errors import InputError
from pbem.core.game import verify_game

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_only_the_opening_state_is_checked_as_read_from_disk(monkeypatch):
    checked = []
    validate = turn_module.validate
    monkeypatch.setattr(turn_module, "validate", lambda name, doc, *more: checked.append((name, doc.path))
                        or validate(name, doc, *more))
    assert len(verify_game(EXAMPLES / "aa-revised")) == 5
    (read,) = {path for name, path in checked if name == "state"}
    assert read.endswith("aa-revised/start/state.yaml")


def test_a_state_changed_on_disk_is_still_found(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES / "aa-revised", game)
    state = game / "02-germany" / "state.yaml"
    state.write_text(state.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    with pytest.raises(InputError) as raised:
        verify_game(game)
    assert "02-germany/state.yaml" in str(raised.value) and "does not match the re-played turn" in str(raised.value)
