"""The game folder knows where the game stands (`pbem status`), takes every version of a player's
orders without overwriting one (`pbem receive`), and plays the next turn from what it holds
(`pbem next`) exactly as the turn written by hand."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def pbem(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def _without_last_turns(game: str, count: int, tmp_path: Path) -> tuple[Path, list[dict]]:
    """A copy of an example game whose last `count` turns were not played yet, and their ledger entries."""
    copy = tmp_path / game
    shutil.copytree(EXAMPLES / game, copy)
    ledger = [json.loads(line) for line in (copy / "ledger.jsonl").read_text().splitlines()]
    for entry in ledger[-count:]:
        shutil.rmtree(copy / entry["output"])
        (copy / entry["turn_file"]).unlink()
    (copy / "ledger.jsonl").write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in ledger[:-count]))
    return copy, ledger[-count:]


def _events(output: Path) -> list[dict]:
    """A turn's events but the files it read, which name the version of the standing orders played."""
    return [{k: v for k, v in json.loads(line).items() if k != "inputs"}
            for line in (output / "events.jsonl").read_text().splitlines()]


def _orders_of(game: Path, entry: dict) -> dict[str, str]:
    import yaml
    turn = yaml.safe_load((EXAMPLES / game.name / entry["turn_file"]).read_text())
    orders = turn["orders"]
    return orders if isinstance(orders, dict) else {"one": orders}


@pytest.mark.parametrize("game", ["aa-revised", "aa-europe", "qmg", "undaunted-stalingrad"])
def test_status_says_who_is_awaited_and_how_the_game_stands(game: str) -> None:
    result = pbem("status", EXAMPLES / game, "--json")
    assert result.exit_code == 0, result.output
    facts = json.loads(result.stdout)
    assert facts["awaiting"] and all(a["received"] == 0 for a in facts["awaiting"])
    assert facts["brief"] and facts["last"].startswith("turns/")
    text = pbem("status", EXAMPLES / game).stdout
    assert f"game turn {facts['turn']} next" in text and "no valid orders yet" in text


@pytest.mark.parametrize("game,count", [("aa-revised", 1), ("undaunted-stalingrad", 2)])
def test_next_plays_the_turn_as_the_hand_written_turn_file_did(game: str, count: int, tmp_path: Path) -> None:
    folder, entries = _without_last_turns(game, count, tmp_path)
    for entry in entries:
        for path in _orders_of(folder, entry).values():
            received = pbem("receive", folder, (EXAMPLES / game / "turns" / path).resolve())
            assert received.exit_code == 0, received.output
        played = pbem("next", folder)
        assert played.exit_code == 0, played.output
        ours = json.loads((folder / "ledger.jsonl").read_text().splitlines()[-1])
        assert ours["turn"] == entry["turn"]
        assert ours["state_sha256"] == entry["state_sha256"]  # the same position, the same dice
        assert (folder / ours["output"] / "state.yaml").read_bytes() == \
            (EXAMPLES / game / entry["output"] / "state.yaml").read_bytes()
        # the same events, so the same drawings
        assert _events(folder / ours["output"]) == _events(EXAMPLES / game / entry["output"])
        # an Axis & Allies report names the files it read (pbem next names the version of the
        # standing orders it played): only those may differ
        for name in ("report.md", "report-german.md", "report-soviet.md"):
            if (folder / ours["output"] / name).exists():
                mine, theirs = ((root / ours_or_theirs / name).read_text().splitlines()
                                for root, ours_or_theirs in ((folder, ours["output"]),
                                                             (EXAMPLES / game, entry["output"])))
                assert [line for line in mine if "Orders of" not in line and "Standing orders of" not in line] == \
                    [line for line in theirs if "Orders of" not in line and "Standing orders of" not in line]
    assert pbem("verify", folder).exit_code == 0


def test_receive_keeps_every_version_and_next_takes_the_latest_valid(tmp_path: Path) -> None:
    folder, (entry,) = _without_last_turns("aa-revised", 1, tmp_path)
    good = (EXAMPLES / "aa-revised" / "orders" / "05-usa.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.replace("power: usa", "power: usa\npurchases: {battleship: 1}"))
    first = pbem("receive", folder, EXAMPLES / "aa-revised" / "orders" / "05-usa.yaml")
    assert first.exit_code == 0
    second = pbem("receive", folder, bad)
    assert second.exit_code == 1 and "usa.002.yaml, which does not count until it is valid" in second.output
    box = folder / "inbox" / "turn-05"
    assert sorted(p.name for p in box.iterdir()) == ["usa.001.yaml", "usa.002.yaml"]
    status = json.loads(pbem("status", folder, "--json").stdout)
    (usa,) = status["awaiting"]
    assert usa["received"] == 2 and usa["valid"].endswith("usa.001.yaml") and usa["problems"]
    assert pbem("next", folder).exit_code == 0
    assert "orders: ../inbox/turn-05/usa.001.yaml" in (folder / "turns" / "05-r1-usa.yaml").read_text()


def test_orders_of_a_role_not_awaited_are_stored_nowhere(tmp_path: Path) -> None:
    folder, _ = _without_last_turns("aa-revised", 1, tmp_path)
    result = pbem("receive", folder, EXAMPLES / "aa-revised" / "orders" / "04-japan.yaml")
    assert result.exit_code == 1 and "game turn 5 awaits no orders from 'japan'" in result.output
    assert "nothing was stored" in result.output and not (folder / "inbox").exists()


def test_next_waits_for_missing_orders_or_plays_standing_orders_alone(tmp_path: Path) -> None:
    folder, _ = _without_last_turns("aa-revised", 1, tmp_path)
    waiting = pbem("next", folder)
    assert waiting.exit_code == 1 and "no valid orders from usa for game turn 5: none received" in waiting.output
    assert not (folder / "turns" / "05-r1-usa.yaml").exists()
    played = pbem("next", folder, "--missing", "standing")
    assert played.exit_code == 0, played.output
    assert "orders: ../inbox/turn-05/usa.none.yaml" in (folder / "turns" / "05-r1-usa.yaml").read_text()
    again = pbem("next", folder)
    assert again.exit_code == 1 and "no valid orders from ussr for game turn 6" in again.output


def test_next_refuses_a_folder_that_is_no_game(tmp_path: Path) -> None:
    result = pbem("next", tmp_path)
    assert result.exit_code == 1 and "not a game folder" in result.output


def test_another_roles_broken_standing_orders_never_reach_a_player_nor_stop_the_turn(tmp_path: Path) -> None:
    """A moderator's typo in one country's standing orders: another player's orders are checked without
    that file and never quote it; `pbem status` names it to the moderator; the turn plays with the
    standing orders last played for that country, so it ends as it did in the example."""
    folder, (entry,) = _without_last_turns("qmg", 1, tmp_path)
    acting = entry["power"]
    other = next(p for p in ("soviet_union", "united_kingdom", "germany") if p != acting)
    (folder / "standing" / f"{other}.yaml").write_text(f"country: {other}\nforced_discards: [Stalingradd]\n")
    (orders,) = _orders_of(folder, entry).values()
    received = pbem("receive", folder, (EXAMPLES / "qmg" / "turns" / orders).resolve())
    assert received.exit_code == 0, received.output
    assert "Stalingradd" not in received.output and other not in received.output
    status = json.loads(pbem("status", folder, "--json").stdout)
    assert list(status["standing_problems"]) == [other] and "Stalingradd" in status["standing_problems"][other][0]
    assert pbem("next", folder).exit_code == 0
    ours = json.loads((folder / "ledger.jsonl").read_text().splitlines()[-1])
    assert ours["state_sha256"] == entry["state_sha256"]
