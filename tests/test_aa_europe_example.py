"""The Axis & Allies Europe example game (examples/aa-europe): the set-up round of the cash advance
and a whole first round of all four powers.

It must verify, re-adjudicate from `pbem new aa-europe` turn by turn to the same bytes, hold the
events the issue asks the example to show, and fail verification with a clear message when any
part of it is altered.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.yamlio import dump_yaml
from test_cli_end_to_end import alter_a_die

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "aa-europe"
TURNS = sorted(p.stem for p in (EXAMPLE / "turns").glob("*.yaml"))


def pbem(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def events(turn: str) -> list[dict]:
    return [json.loads(line) for line in (EXAMPLE / turn / "events.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return Path(shutil.copytree(EXAMPLE, tmp_path / "game"))


def test_the_example_verifies_with_its_reports(game: Path) -> None:
    result = pbem("verify", game, "--reports")
    assert result.exit_code == 0, result.stderr
    assert f"verified {len(TURNS)} turns" in result.stderr


def test_a_new_game_replays_the_example_turn_by_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`pbem new aa-europe` opens the example's position; with the example's secret, its orders
    adjudicate turn by turn to the committed bytes."""
    monkeypatch.chdir(tmp_path)
    result = pbem("new", "aa-europe", "game", "--game", "Europe example game")
    assert result.exit_code == 0, result.stderr
    fresh = yaml.safe_load((tmp_path / "game" / "start" / "state.yaml").read_text(encoding="utf-8"))
    example = yaml.safe_load((EXAMPLE / "start" / "state.yaml").read_text(encoding="utf-8"))
    assert {k: v for k, v in fresh.items() if k != "dice"} == {k: v for k, v in example.items() if k != "dice"}
    assert fresh["round"] == 0 and fresh["cash_advance"] == {"allies": 12}
    game = tmp_path / "game"
    for name in ("game.yaml", "secret.yaml", "start/state.yaml"):
        shutil.copy2(EXAMPLE / name, game / name)
    for folder in ("orders", "standing", "turns"):
        shutil.copytree(EXAMPLE / folder, game / folder, dirs_exist_ok=True)
    for turn in TURNS:
        result = pbem("adjudicate", game / "turns" / f"{turn}.yaml")
        assert result.exit_code == 0, result.stderr
        for name in ("state.yaml", "events.jsonl", "report.md", "report.bbcode"):
            assert (game / turn / name).read_bytes() == (EXAMPLE / turn / name).read_bytes(), f"{turn}/{name}"


def test_the_example_shows_what_the_issue_asks_for() -> None:
    """The cash advance, a convoy raid and a convoy freed, a raid met by interceptors, a Middle East
    capture the Allies pay for, and a Patriotic War takeover."""
    by_type = {t: [e for turn in TURNS for e in events(turn) if e["type"] == t]
               for t in ("cash_advance", "interception", "bombing", "middle_east_payment", "patriotic_war", "capture")}
    assert [e["power"] for e in by_type["cash_advance"]] == ["ussr", "uk", "usa"]
    assert by_type["interception"] and by_type["bombing"][0]["paid"] > 0
    assert by_type["middle_east_payment"][0]["countries"] == ["Egypt"]
    assert by_type["patriotic_war"][0]["from"] == "uk"
    convoys = [(e["space"], e["to"]) for e in by_type["capture"] if e.get("convoy")]
    assert ("British Convoy 3", "germany") in convoys and ("British Convoy 3", "uk") in convoys
    assert ("British Convoy 2", "uk") in convoys


def alter_yaml(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(dump_yaml(data), encoding="utf-8")


@pytest.mark.parametrize("alter, file, phrase", [
    (lambda g: alter_a_die(g / "05-germany" / "events.jsonl"), "game/05-germany/events.jsonl",
     "does not match the re-played turn"),
    (lambda g: alter_yaml(g / "07-uk" / "state.yaml", lambda s: s["control"].update({"British Convoy 3": "germany"})),
     "game/07-uk/state.yaml", "does not match the re-played turn"),
    # a smaller claim no longer pays for the purchase: the re-play stops at that file
    (lambda g: alter_yaml(g / "orders" / "03-setup-uk.yaml", lambda o: o.update(cash_advance=8)),
     "game/orders/03-setup-uk.yaml", "United Kingdom has 8"),
    (lambda g: alter_yaml(g / "standing" / "uk.yaml", lambda o: o.update(middle_east_offer=0)),
     "game/standing/uk.yaml", "not the"),
], ids=["die", "convoy-control", "cash-advance-claim", "middle-east-offer"])
def test_verify_fails_clearly_when_the_example_is_altered(game: Path, alter, file: str, phrase: str) -> None:
    alter(game)
    result = pbem("verify", game)
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr
    assert any(line.strip().startswith(file) and phrase in line for line in result.stderr.splitlines()), result.stderr
