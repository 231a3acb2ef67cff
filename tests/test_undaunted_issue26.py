"""Undaunted as players meet it (issue 26): tile numbers unquoted in orders, the report of the turn that
wins a scenario, the board of a position."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.core.schemas import validate
from pbem.core.yamlio import parse_document
from pbem.rulesets.undaunted import Undaunted

RULESET = Undaunted()
EXAMPLE = Path(__file__).parent.parent / "examples" / "undaunted-stalingrad"


def test_a_tile_written_as_a_number_is_a_tile() -> None:
    """`to: 504` is an integer in YAML; it names tile 504 as "504" does (it was refused as 'is not text')."""
    state = parse_document((EXAMPLE / "17-011-r6-bids" / "state.yaml").read_text(encoding="utf-8"), "state.yaml").data
    orders = parse_document("side: soviet\nplays:\n- {card: S-P-006, action: move, to: 504}\n"
                            "- {card: S-P-007, action: control}\n", "soviet.yaml")
    assert not validate("orders", orders, RULESET.schema_package)
    assert not RULESET.check_orders(state, {"soviet": orders}, {})
    assert RULESET.decisions(state, {"soviet": orders}, {})["orders"]["soviet"]["plays"][0]["to"] == "504"


def test_the_turn_that_wins_shows_the_winning_position() -> None:
    """The example's turn 31 wins #011 for the Germans and sets up #D02: its report shows #011's map as it
    was won (Germans on 505-A, objectives 4 of 4), says what comes next, and not #D02's set-up."""
    from pbem.core.events import EventLog
    from pbem.rulesets.undaunted.report import report_model

    def state(folder: str) -> dict:
        return parse_document((EXAMPLE / folder / "state.yaml").read_text(encoding="utf-8"), "state.yaml").data

    log = EventLog()
    log.extend([json.loads(line) for line in (EXAMPLE / "31-011-r10-german" / "events.jsonl").read_text().splitlines()])
    after = state("31-011-r10-german")
    assert after["scenario"] == "D02"
    model = report_model(RULESET, state("30-011-r10-soviet"), after, log, "public")
    german = next(s for s in model["sides"] if s["name"] == "German")
    assert {"unit": "RIF-A", "tile": "505-A"} == {k: v for k, v in german["units"][0].items() if k in ("unit", "tile")}
    assert "German 4 of the 4 needed" in model["totals"]
    assert "scenario #D02" in model["outcome"] and "won it" in model["outcome"]


def test_the_board_of_a_position() -> None:
    """`pbem board --ruleset undaunted-stalingrad --state STATE`: every tile with its terrain, cover, markers,
    units, objective and neighbours; one tile by number or id; without a state, what to give."""
    from typer.testing import CliRunner

    from pbem.cli import app

    def board(*args: str):
        return CliRunner().invoke(app, ["board", "--ruleset", "undaunted-stalingrad", *args], catch_exceptions=False)

    state = str(EXAMPLE / "31-011-r10-german" / "state.yaml")
    tiles = json.loads(board("--state", state, "--json").output)["spaces"]
    assert len(tiles) == 20 and tiles[0]["name"] == "101-A"
    one = json.loads(board("504", "--state", str(EXAMPLE / "30-011-r10-soviet" / "view-german.yaml"), "--json").output)
    assert one["land_neighbours"] == ["106-A", "107-A", "503-A", "505-A", "201-A", "202-A"]
    assert {"side": "soviet", "unit": "RIF-A", "state": "ready"} in one["units"]
    assert one["markers"] == {"soviet": "controlled"} and one["terrain"] and "cover" in one["facts"]
    text = board("505-A", "--state", state).output
    assert text.startswith("505-A: ") and "objective worth 2" in text and "land: 107-A" in text
    refused = board()
    assert refused.exit_code == 1 and "--state STATE" in refused.output


def test_the_preview_reads_the_plays_back_and_gives_each_attack_its_exact_chance() -> None:
    """The example's turn 30 from the Soviet view: two Attack 2 at the German MG-A in a building next
    to them: base 4 + building cover 3 + range 1 = 8, so a die hits on 0, 8 or 9: 1 - 0.7² = 51%; what
    the view cannot know (the card a hit takes) is said and not counted; below warn_below, a warning."""
    from pbem.core.yamlio import load_document

    view = load_document(EXAMPLE / "29-011-r10-bids" / "view-soviet.yaml").data
    orders = load_document(EXAMPLE / "orders" / "30-011-r10-soviet.yaml").data
    out = RULESET.preview(view, orders, None, 0.5)
    assert out["lines"][:3] == ["plays[0]: Rifleman (A) S-P-005: Attack 2 at MG-A",
                                "plays[1]: Rifleman (A) S-P-008: Attack 2 at MG-A",
                                "plays[2]: Scout (B) S-P-017: Scout 2 through 109-A"]
    first = out["items"][0]
    assert first["defence"] == {"base": 4, "building cover": 3, "range": 1} and first["dice"] == 2
    assert abs(first["chance"] - 0.51) < 1e-9 and "51.0% to hit" in out["lines"][3]
    assert "not counted" in out["lines"][3] and not out["warnings"]
    assert len(RULESET.preview(view, orders, None, 0.6)["warnings"]) == 2
    bids = load_document(EXAMPLE / "orders" / "29-011-r10-bids-soviet.yaml").data
    seen = load_document(EXAMPLE / "28-011-r9-german" / "view-soviet.yaml").data
    assert RULESET.preview(seen, bids, None, 0.5)["lines"][0].startswith("Bid: ")
