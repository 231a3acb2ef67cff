"""The bundled Quartermaster General game (examples/qmg): six countries over seven rounds, in which
the rulebook's worked examples 1 and 2 happen. It verifies, and its reports keep every hand private."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from pbem.core.game import verify_game
from pbem.render import render_turn
from pbem.rulesets.qmg import Qmg
from pbem.rulesets.qmg.content import COUNTRIES

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "qmg"
PACK = Qmg().pack


def _events(turn: str) -> list[dict]:
    return [json.loads(line) for line in (EXAMPLE / turn / "events.jsonl").read_text().splitlines()]


def _used(turn: str) -> list[tuple[str, str]]:
    return [(e["country"], e["card"]) for e in _events(turn) if e["type"] == "effect_used"]


def test_the_example_verifies_with_its_reports() -> None:
    done = verify_game(EXAMPLE, render_turn)
    assert len(done) == 43 and done[0].power == ", ".join(COUNTRIES)


def test_worked_example_1_happens_in_germanys_fifth_turn() -> None:
    assert _used("25-r5-germany") == [("soviet_union", "Stalingrad"), ("germany", "Dive Bombers"),
                                      ("germany", "Blitzkrieg"), ("soviet_union", "Rasputitsa")]
    after = yaml.safe_load((EXAMPLE / "25-r5-germany" / "state.yaml").read_text())
    german = sorted(s for s, here in after["pieces"].items() for p in here if p["country"] == "germany")
    soviet = sorted(s for s, here in after["pieces"].items() for p in here if p["country"] == "soviet_union")
    assert german == ["Balkans", "Eastern Europe", "Germany"] and soviet == ["Moscow", "Ukraine"]


def test_worked_example_2_happens_in_japans_seventh_turn() -> None:
    assert _used("39-r7-japan") == [("united_kingdom", "Destroyers"), ("japan", "Surprise Attack"),
                                    ("japan", "Destroyer Support"), ("united_kingdom", "Loyalty to the Crown")]
    after = yaml.safe_load((EXAMPLE / "39-r7-japan" / "state.yaml").read_text())
    assert after["pieces"]["India"] == [{"country": "japan", "piece": "army"}]
    assert after["pieces"]["Bay of Bengal"] == [{"country": "united_kingdom", "piece": "navy"}]


def test_every_private_report_shows_its_own_hand_only() -> None:
    for output in sorted(p.parent for p in EXAMPLE.glob("*/state.yaml") if p.parent.name != "start"):
        state = yaml.safe_load((output / "state.yaml").read_text())
        assert "Your cards" not in (output / "report.md").read_text()
        for country in COUNTRIES:
            text = (output / f"report-{country}.md").read_text()
            hand = ", ".join(sorted(PACK.name(country, c) for c in state["countries"][country]["hand"])) or "none"
            assert f"- Hand: {hand}\n" in text and text.count("- Hand:") == 1
