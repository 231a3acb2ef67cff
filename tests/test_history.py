"""The game's history comes from the ledger's summaries, kept when each turn was adjudicated and
checked by `pbem verify`; a ledger from before summaries were kept still plays and verifies, its
history read from the states as before."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.core.errors import InputError
from pbem.core.game import verify_game
from pbem.core.history import game_history
from pbem.core.turn import load_turn, resolve_turn

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _copy(tmp_path: Path, game: str = "aa-revised") -> Path:
    copy = tmp_path / game
    shutil.copytree(EXAMPLES / game, copy)
    return copy


def _ledger(game: Path) -> list[dict]:
    return [json.loads(line) for line in (game / "ledger.jsonl").read_text(encoding="utf-8").splitlines()]


def _write_ledger(game: Path, entries: list[dict]) -> None:
    text = "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n" for e in entries)
    (game / "ledger.jsonl").write_text(text, encoding="utf-8")


def _without_summaries(game: Path, turns=None) -> None:
    """The ledger as pbem wrote it before it kept summaries (for the game turns in `turns`, else all)."""
    _write_ledger(game, [{k: v for k, v in e.items() if k != "summary" or (turns and e["turn"] not in turns)}
                         for e in _ledger(game)])


def _history(turn: Path):
    inputs = load_turn(turn)
    return game_history(inputs, resolve_turn(inputs).state)


@pytest.mark.parametrize("game,turn", [("aa-revised", "05-usa"), ("qmg", "19-r4-germany")])
def test_every_summarised_turn_is_recorded_and_no_earlier_state_is_read(tmp_path, game, turn):
    copy = _copy(tmp_path, game)
    assert all("summary" in entry for entry in _ledger(copy))
    expected = _history(copy / "turns" / f"{turn}.yaml")
    starts_from = load_turn(copy / "turns" / f"{turn}.yaml").turn.data["state"]
    for entry in _ledger(copy):
        if not starts_from.endswith(f"/{entry['output']}/state.yaml"):
            (copy / entry["output"] / "state.yaml").unlink()
    assert _history(copy / "turns" / f"{turn}.yaml") == expected


@pytest.mark.parametrize("game,turn", [("aa-revised", "05-usa"), ("qmg", "19-r4-germany")])
def test_a_ledger_without_summaries_gives_the_same_history_from_the_states(tmp_path, game, turn):
    copy = _copy(tmp_path, game)
    expected = _history(copy / "turns" / f"{turn}.yaml")
    _without_summaries(copy, turns={1, 3})
    assert _history(copy / "turns" / f"{turn}.yaml") == expected
    _without_summaries(copy)
    assert _history(copy / "turns" / f"{turn}.yaml") == expected


def test_a_ledger_without_summaries_verifies(tmp_path):
    copy = _copy(tmp_path)
    _without_summaries(copy, turns={2, 5})  # a game begun before summaries and played on after
    assert len(verify_game(copy)) == 5
    _without_summaries(copy)
    assert len(verify_game(copy)) == 5


def test_verify_names_the_turn_whose_summary_was_changed(tmp_path):
    copy = _copy(tmp_path)
    entries = _ledger(copy)
    entries[1]["summary"]["powers"][1]["treasury"] += 10
    _write_ledger(copy, entries)
    with pytest.raises(InputError) as raised:
        verify_game(copy)
    (problem,) = raised.value.problems
    assert (problem.line, problem.field) == (2, "summary.powers")
    assert "summary of game turn 2" in problem.message and "ledger was changed" in problem.message


def test_a_summary_that_is_not_a_mapping_is_a_clear_error(tmp_path):
    copy = _copy(tmp_path)
    entries = _ledger(copy)
    entries[2]["summary"] = [1, 2]
    _write_ledger(copy, entries)
    with pytest.raises(InputError) as raised:
        _history(copy / "turns" / "05-usa.yaml")
    (problem,) = raised.value.problems
    assert problem.line == 3 and "not a ledger entry" in problem.message and "summary" in problem.message
