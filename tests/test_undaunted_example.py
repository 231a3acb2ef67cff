"""The bundled Undaunted: Stalingrad game (examples/undaunted-stalingrad): scenario #011 by email to
its end, in whose first round the rulebook's example of play happens, and the campaign's step into
the next scenario. It verifies; altered, it does not; its reports keep every hand private."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.game import verify_game
from pbem.render import render_turn
from pbem.rulesets.undaunted import Undaunted
from pbem.rulesets.undaunted.content import SIDES, other_side

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "undaunted-stalingrad"
PACK = Undaunted().pack
CARD_ID = re.compile(r"\b[SN]-[PZVR]-\d{3}\b")


def _events(output: str) -> list[dict]:
    return [json.loads(line) for line in (EXAMPLE / output / "events.jsonl").read_text().splitlines()]


def _outputs() -> list[Path]:
    return sorted(p.parent for p in EXAMPLE.glob("*/state.yaml") if p.parent.name != "start")


def pbem(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    copy = tmp_path / "game"
    shutil.copytree(EXAMPLE, copy)
    return copy


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, bytes]]:
    """Every turn's reports by output folder, as the example verifies with its reports (`pbem verify
    --reports`): its HTML reports are not committed, so they are rendered here."""
    rendered = {}

    def render(before, after, log, inputs):
        rendered[inputs.output.name] = render_turn(before, after, log, inputs)
        return rendered[inputs.output.name]
    assert len(verify_game(EXAMPLE, render)) == 32
    return rendered


def test_the_example_verifies_with_its_reports(reports: dict[str, dict[str, bytes]]) -> None:
    assert sorted(reports) == [output.name for output in _outputs()]


def test_round_one_is_the_rulebooks_example_of_play() -> None:
    (soviet_continues,) = [e for e in _events("03-011-r1-soviet") if e["type"] == "attack"]
    assert soviet_continues["defence"] == {"base": 4, "building cover": 3, "range": 2}
    assert soviet_continues["total"] == 9 and 0 in soviet_continues["dice"] and soviet_continues["success"]
    moves = [e for e in _events("03-011-r1-soviet") if e["type"] == "moved"]
    assert [(m["unit"], m["to_tile"]) for m in moves] == [("RIF-A", "504")]
    recon = _events("02-011-r1-soviet")
    assert [e["type"] for e in recon if e["type"] in ("fog_set_aside", "turn_continues")] == \
        ["fog_set_aside", "turn_continues"]
    drawn = next(e for e in recon if e["type"] == "cards_drawn_named")
    assert drawn["cards"] == ["Rifleman (A)"] and drawn["to"] == ["soviet"]
    german = _events("04-011-r1-german")
    assert [e.get("use") for e in german if e["type"] == "card_played"] == ["ready", "action"]
    assert [e["name"] for e in german if e["type"] == "bolstered"] == ["Rifleman (B)", "Machine Gunner (B)"]


def test_the_scenario_ends_and_the_campaign_steps_into_the_next() -> None:
    last = sorted(p for p in EXAMPLE.glob("*-011-*") if p.is_dir())[-1]
    kinds = [e["type"] for e in _events(last.name)]
    assert kinds.index("scenario_won") < kinds.index("victory_phase") < kinds.index("casualty_phase") \
        < kinds.index("upgrade_phase") < kinds.index("scenario_set_up")
    state = yaml.safe_load((last / "state.yaml").read_text())
    assert state["scenario"] == "D02" and state["phase"] == "bid"
    assert state["campaign"]["scenarios"] == [{"scenario": "011", "winner": "german", "code": "1a"}]
    assert state["campaign"]["code"] == "2b" and state["tiles"]["503"] == "B"


def test_no_report_shows_a_side_the_other_sides_hidden_cards(reports: dict[str, dict[str, bytes]]) -> None:
    for output in _outputs():
        state = yaml.safe_load((output / "state.yaml").read_text())
        files = {name: data.decode("utf-8") for name, data in reports[output.name].items() if name.startswith("report")}
        public = " ".join(files[f"report.{kind}"] for kind in ("md", "bbcode", "html"))
        assert "Your cards" not in public
        for side in SIDES:
            hidden = {c for zone in ("hand", "deck", "discard", "casualties")
                      for c in state["sides"][other_side(side)][zone]}
            mine = " ".join(files[f"report-{side}.{kind}"] for kind in ("md", "bbcode", "html"))
            assert not hidden & set(CARD_ID.findall(mine)), f"{output.name}: {side} sees a hidden card"
            assert not (hidden | {c for zone in ("hand", "deck", "discard", "casualties")
                                  for c in state["sides"][side][zone]}) & set(CARD_ID.findall(public))
            for card in state["sides"][side]["hand"]:
                assert card in mine, f"{output.name}: {side}'s private report lacks its card {card}"


def test_verify_notices_a_changed_die(game: Path) -> None:
    path = game / "03-011-r1-soviet" / "events.jsonl"
    path.write_text(path.read_text().replace('"dice":[3,9,0,7]', '"dice":[3,9,9,7]'))
    result = pbem("verify", game)
    assert result.exit_code == 1 and "03-011-r1-soviet/events.jsonl" in result.output


def test_verify_notices_a_changed_hand(game: Path) -> None:
    path = game / "05-011-r2-bids" / "state.yaml"
    state = yaml.safe_load(path.read_text())
    zones = state["sides"]["german"]
    zones["hand"][0], zones["deck"][0] = zones["deck"][0], zones["hand"][0]
    path.write_text(yaml.safe_dump(state, sort_keys=False))
    result = pbem("verify", game)
    assert result.exit_code == 1 and "05-011-r2-bids/state.yaml" in result.output


def test_verify_notices_a_changed_private_report(game: Path) -> None:
    path = game / "02-011-r1-soviet" / "report-soviet.md"
    path.write_text(path.read_text().replace("Rifleman (A)", "Rifleman (B)"))
    result = pbem("verify", game, "--reports")
    assert result.exit_code == 1 and "report-soviet.md" in result.output


def test_render_draws_the_public_map_of_a_state(tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    state = EXAMPLE / "03-011-r1-soviet" / "state.yaml"
    result = pbem("render", state, "--out", out, "--events", state.parent / "events.jsonl")
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000


def test_after_the_reveal_anyone_can_prove_every_shuffle(game: Path) -> None:
    refused = pbem("reveal", game)
    assert refused.exit_code == 1 and "not over" in refused.output  # the campaign goes on
    assert pbem("reveal", game, "--before-end").exit_code == 0
    (game / "secret.yaml").unlink()
    result = pbem("verify", game)
    assert result.exit_code == 0, result.output
    path = game / "02-011-r1-soviet" / "state.yaml"
    state = yaml.safe_load(path.read_text())
    deck = state["sides"]["german"]["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    path.write_text(yaml.safe_dump(state, sort_keys=False))
    result = pbem("verify", game)
    assert result.exit_code == 1 and "02-011-r1-soviet/state.yaml" in result.output
