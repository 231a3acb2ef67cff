"""Undaunted: Stalingrad reports and tile map: a game of #011 played through `pbem adjudicate` (the
bids, a Soviet turn in two exchanges with an attack and moves, a German turn whose Recon draws),
its sentences, each side's private report keeping the other's cards out, and the map drawn the
same every time."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml
from PIL import Image
from typer.testing import CliRunner

from pbem.cli import app
from pbem.render.templates import POST_LIMIT
from pbem.rulesets.undaunted.map_image import render_map
from pbem.rulesets.undaunted.report import Narrator
from pbem.rulesets.undaunted import Undaunted

RULESET = Undaunted()
PACK = RULESET.pack
SIDES = ("soviet", "german")
EXCHANGES = ("01-bids", "02-soviet", "03-soviet", "04-german")
CARD_ID = re.compile(r"\b[SN]-[PZVR]-[0-9]{3}\b")


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def _write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _events(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]


def _state(folder: Path) -> dict:
    return yaml.safe_load((folder / "state.yaml").read_text())


def _pick(cards: list[str], label: str) -> str:
    return next(c for c in cards if PACK.cards[c].label == label)


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A new game whose hands are set for the test, then four exchanges adjudicated."""
    folder = tmp_path_factory.mktemp("undaunted") / "ug"
    secret = folder.parent / "secret.yaml"
    _write(secret, {"secret": "5a" * 32, "chain_length": 20})
    assert pbem("new", "undaunted-stalingrad", folder, "--secret", secret).exit_code == 0
    start = _state(folder / "start")
    hands = {"soviet": ["Platoon Sergeant", "Machine Gunner (A)", "Rifleman (A)", "Scout (A)"],
             "german": ["Squad Leader (A)", "Fog of War", "Scout (A)", "Rifleman (B)"]}
    for side, labels in hands.items():
        zones = start["sides"][side]
        cards = sorted(zones["hand"] + zones["deck"])
        zones["hand"] = [_pick(cards, label) for label in labels]
        zones["deck"] = [c for c in cards if c not in zones["hand"]]
    _write(folder / "start" / "state.yaml", start)
    hand = {side: {label: _pick(start["sides"][side]["hand"], label) for label in hands[side]} for side in SIDES}
    plays = {
        "01-bids": {"soviet": {"bid": hand["soviet"]["Platoon Sergeant"]},
                    "german": {"bid": hand["german"]["Squad Leader (A)"]}},
        "02-soviet": {"soviet": {"plays": [
            {"card": hand["soviet"]["Machine Gunner (A)"], "action": "suppress", "target": "MG-A"},
            {"card": hand["soviet"]["Rifleman (A)"], "action": "move", "to": "504"}], "await_report": True}},
        "03-soviet": {"soviet": {"plays": [{"card": hand["soviet"]["Scout (A)"], "action": "scout", "path": ["503"]}]}},
        "04-german": {"german": {"plays": [
            {"card": hand["german"]["Scout (A)"], "action": "recon"},
            {"card": hand["german"]["Rifleman (B)"], "action": "attack", "target": "RIF-A"}]}},
    }
    state = "../start/state.yaml"
    for turn, (name, orders) in enumerate(plays.items(), start=1):
        named = {}
        for side, data in orders.items():
            _write(folder / "orders" / f"{name}-{side}.yaml", {"side": side, **data})
            named[side] = f"../orders/{name}-{side}.yaml"
        turn_file = {"ruleset": "undaunted-stalingrad", "state": state, "orders": named,
                     "seed": pbem("seed", folder, turn).output.strip(), "output": f"../{name}"}
        if len(named) == 1:
            other = "german" if "soviet" in named else "soviet"
            _write(folder / "standing" / f"{other}.yaml", {"side": other})
            turn_file["standing_orders"] = {other: f"../standing/{other}.yaml"}
        _write(folder / "turns" / f"{name}.yaml", turn_file)
        result = pbem("adjudicate", folder / "turns" / f"{name}.yaml")
        assert result.exit_code == 0, result.output
        state = f"../{name}/state.yaml"
    return folder


def _report(game: Path, exchange: str, audience: str = "public", kind: str = "md") -> str:
    name = "report" if audience == "public" else f"report-{audience}"
    return (game / exchange / f"{name}.{kind}").read_text(encoding="utf-8")


def test_the_bids_are_revealed_and_both_sides_see_their_hands(game: Path) -> None:
    start = _state(game / "start")
    soviet, german = (start["sides"][s]["hand"][0] for s in SIDES)
    text = _report(game, "01-bids")
    assert "# ug — round 1, the bids\n" in text
    assert "scenario \\#011 9 January Square - 27 September 1942; game turn 1. The bids were revealed. Next to " \
           "submit: the Soviets, with the orders of their turn." in text
    assert PACK.cards[soviet].initiative > PACK.cards[german].initiative
    assert f"- Bids of round 1: the Soviets bid Platoon Sergeant (initiative {PACK.cards[soviet].initiative}); " \
           f"the Germans bid Squad Leader (A) (initiative {PACK.cards[german].initiative}). The Soviets take the " \
           "initiative.\n" in text
    after = _state(game / "01-bids")
    for side in SIDES:
        own = _report(game, "01-bids", side)
        assert f"(private report of the {side.title()} side)" in own
        for card in after["sides"][side]["hand"]:
            assert f"- {PACK.cards[card].label} {card}: initiative {PACK.cards[card].initiative}; " in own
        assert f"Discard pile: {PACK.cards[after['sides'][side]['discard'][0]].label} " \
               f"{after['sides'][side]['discard'][0]}\n" in own
    assert "- Machine Gunner (A) " + _pick(after["sides"]["soviet"]["hand"], "Machine Gunner (A)") + \
           ": initiative 1; Suppress 4 \\| Fire lane \\| Move 1\n" in _report(game, "01-bids", "soviet")
    assert "Your cards" not in text


def test_the_soviet_turn_reads_its_attack_and_its_move_and_continues(game: Path) -> None:
    text = _report(game, "02-soviet")
    (attack,) = [e for e in _events(game / "02-soviet") if e["type"] == "attack"]
    dice = ", ".join(str(d) for d in attack["dice"])
    assert "# ug — round 1, the Soviet turn\n" in text
    assert "- The Soviets play Machine Gunner (A): Suppress 4.\n" in text
    assert "- Soviet Machine Gunners (A) on 203-A: Suppress 4 at German Machine Gunners (A) on 107-A: defence 4 + " \
           f"building cover 3 + range 2 = 9; dice {dice}: {'success' if attack['success'] else 'failure'}.\n" in text
    assert ("- German Machine Gunners (A) on 107-A is suppressed.\n" in text) == attack["success"]
    assert "- Soviet Riflemen (A) moves 202-A → 504-A (move).\n" in text
    assert "- The Soviet turn continues after this report.\n" in text
    assert "The turn continues after this report. Next to submit: the Soviets, with the orders of their turn." in text
    assert "| MG-A Machine Gunners (A) | 107-A | " + ("suppressed" if attack["success"] else "ready") + " |" in text
    start = next(e for e in _events(game / "02-soviet") if e["type"] == "turn_start")
    end = _events(game / "02-soviet")[-1]
    assert f"game turn {start['turn']}." in text and f"`{start['seed']}`" in text
    assert f"`{end['state_commitment']}`" in text


def test_the_continued_turn_scouts_and_ends(game: Path) -> None:
    text = _report(game, "03-soviet")
    assert "- Soviet Scouts (A) moves 201-A → 503-A (scout).\n" in text
    assert "- The Soviets place a scouted marker on 503-A.\n" in text
    assert "- A Fog of War goes from the Soviet supply to their discard pile (scouting; 7 left in the supply).\n" \
        in text
    assert "- The Soviet turn ends: 3 played cards and 0 cards left in the hand go to the discard pile.\n" in text
    assert "Next to submit: the Germans, with the orders of their turn." in text
    assert "| 503-A | 1 | scouted | — |" in text
    assert "- Markers: controlled 201-A, 202-A, 203-A, 204-A, 205-A; scouted 504-A, 503-A\n" in text
    assert "Objectives controlled: Soviet 0 of the 4 needed; German 0 of the 4 needed." in text
    assert "- Supply: 4 Rifleman (A), 4 Rifleman (B), 2 Scout (A), 2 Scout (B), 2 Machine Gunner (A), " \
           "2 Machine Gunner (B), 7 Fog of War\n" in text


def test_the_german_recon_draws_a_card_only_the_germans_see(game: Path) -> None:
    before, after = _state(game / "03-soviet"), _state(game / "04-german")
    drawn = before["sides"]["german"]["deck"][0]
    public = _report(game, "04-german")
    assert "- The Germans play Scout (A): Recon.\n" in public
    assert "- The Germans set a Fog of War aside.\n" in public
    assert f"- The Germans draw 1 card (Recon; {len(before['sides']['german']['deck']) - 1} left in the draw deck).\n" \
        in public
    german = _report(game, "04-german", "german")
    assert f"- You drew: {PACK.cards[drawn].label} {drawn}.\n" in german
    assert "You drew" not in public and drawn not in _report(game, "04-german", "soviet")
    (attack,) = [e for e in _events(game / "04-german") if e["type"] == "attack"]
    assert "- German Riflemen (B) on 104-A: Attack 2 at Soviet Riflemen (A) on 504-A: defence 2 + cover 0 + " \
           f"range 3 = 5; dice {', '.join(map(str, attack['dice']))}: " \
           f"{'success' if attack['success'] else 'failure'}.\n" in public
    assert "Next to submit: the Soviets and the Germans, each with a bid for round 2." in public
    assert "- Cards: hand 4, draw deck" in public and "set aside 1\n" in public
    for side in SIDES:  # the next round's four cards, each to its owner
        own = _report(game, "04-german", side)
        assert own.count("- You drew: ") == 1 + (side == "german")
        for card in after["sides"][side]["hand"]:
            assert f"- {PACK.cards[card].label} {card}: " in own


def _private_ids(state: dict, side: str) -> set[str]:
    """The ids only `side` may know: its hand, draw deck, discard pile and casualty pile, less what
    lies open (the supply and the play area)."""
    zones = state["sides"][side]
    hidden = {c for zone in ("hand", "deck", "discard", "casualties") for c in zones[zone]}
    return hidden - set(zones["supply"]) - set(zones["play_area"])


def test_no_report_shows_a_card_id_of_another_sides_hidden_cards(game: Path) -> None:
    for exchange in EXCHANGES:
        state = _state(game / exchange)
        for audience in ("public", *SIDES):
            others = {c for side in SIDES if side != audience for c in _private_ids(state, side)}
            for kind in ("md", "bbcode", "html"):
                text = _report(game, exchange, audience, kind)
                shown = set(CARD_ID.findall(text))
                assert not shown & others, (exchange, audience, kind, sorted(shown & others))
                if audience != "public":
                    assert set(_state(game / exchange)["sides"][audience]["hand"]) <= shown


def test_the_reports_are_self_contained_and_fit_a_post(game: Path) -> None:
    for exchange in EXCHANGES:
        for audience in ("public", *SIDES):
            html = _report(game, exchange, audience, "html")
            links = re.findall(r"""(?:src|href)\s*=\s*["']?([^"'\s>]*)""", html, re.IGNORECASE)
            assert all(link.startswith("data:") for link in links), links
            assert ("data:image/png;base64," in html) == (audience == "public")
            # the board viewer's own inline script only (zoom and pan on a phone): nothing fetched
            assert {tag.lower() for tag in re.findall(r"<script[^>]*>", html, re.IGNORECASE)} <= {"<script>"}
            assert "@import" not in html and "url(" not in html
            for kind in ("md", "bbcode"):
                text = _report(game, exchange, audience, kind)
                assert len(text) <= POST_LIMIT and not text.startswith("(This")


def test_the_map_is_drawn_the_same_every_time(game: Path) -> None:
    state = RULESET.view(_state(game / "04-german"), "public")
    events = [e for e in _events(game / "04-german") if not isinstance(e.get("to"), list)]
    first = render_map(PACK, state, events, "ug — round 1, the German turn")
    assert first == render_map(PACK, state, events, "ug — round 1, the German turn")
    assert first == (game / "04-german" / "map.png").read_bytes()
    image = Image.open(io.BytesIO(first))
    assert 1400 <= image.size[0] <= 1800 and image.size[1] < image.size[0]
    assert not image.info  # no metadata: no software version or date in the file
    moved = dict(state, units={**state["units"], "soviet": {**state["units"]["soviet"],
                                                            "RIF-A": {"tile": "505", "suppressed": True,
                                                                      "routed": False}}})
    assert render_map(PACK, moved, events, "ug — round 1, the German turn") != first


def test_a_damaged_building_is_named_by_its_new_version_from_then_on() -> None:
    narrator = Narrator(PACK, {"107": "A", "203": "A"})
    lines = [narrator.line(e) for e in (
        {"type": "building_damaged", "tile": "107", "before": "107-A", "after": "107-B", "destroyed": False},
        {"type": "attack", "side": "soviet", "action": "bombard", "by": None, "from_tile": None,
         "target": {"kind": "building", "tile": "107-B"}, "target_tile": "107", "defence": {"durability": 4},
         "total": 4, "dice": [7], "success": True})]
    assert lines == ["The building on 107-A is damaged: the tile is now 107-B.",
                     "Soviet fire from off the map: Bombard 1 at the building on 107-B: durability 4 = 4; die 7: "
                     "success."]


def test_every_event_the_engine_logs_has_its_sentence() -> None:
    engine = Path(__file__).resolve().parents[1] / "pbem" / "rulesets" / "undaunted"
    logged = {kind for path in engine.glob("*.py") for kind in re.findall(r'\.add\("(\w+)"', path.read_text())}
    report = (Path(__file__).resolve().parents[1] / "pbem" / "rulesets" / "undaunted" / "report.py").read_text()
    handled = set(re.findall(r'kind == "(\w+)"', report)) | set(re.findall(r'e\["type"\] == "(\w+)"', report))
    assert logged and not logged - handled
