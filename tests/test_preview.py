"""The preview of valid orders (issue 26): `pbem validate` and the mail answer read the orders back
with the exact odds of each battle, seen from the player's view and its own standing orders only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.moderator import Position
from pbem.core.yamlio import load_document
from pbem.mail.answers import Answers
from pbem.rulesets import get_ruleset

REVISED = Path(__file__).parent.parent / "examples" / "aa-revised"
EUROPE = Path(__file__).parent.parent / "examples" / "aa-europe"
GERMANY = (REVISED / "orders" / "02-germany.yaml", REVISED / "01-ussr" / "state.yaml")


def _validate(*args: str):
    result = CliRunner().invoke(app, ["validate", *args])
    assert result.exit_code == 0, result.output
    return result


def test_validate_reads_back_a_revised_turn_and_previews_each_battle() -> None:
    orders, state = GERMANY
    out = _validate(str(orders), "--state", str(state)).stdout
    assert ("Combat move: 1 battleship, 1 transport from SZ 14 to SZ 15, loading 1 infantry, 1 artillery from "
            "Southern Europe, unloading in Anglo-Egypt") in out
    assert "Non-combat move: 2 tanks from Western Europe to Eastern Europe by Germany" in out
    assert "Place: 7 infantry, 1 artillery, 2 tanks in Germany" in out
    assert "Purchase: 8 infantry, 1 artillery, 2 tanks for 38 IPC (2 IPC left)" in out
    assert "Attack on Karelia S.S.R.: wins" in out
    assert "Attack on SZ 13: wins 94.5%, UK holds 2.3%, both wiped out 3.2%" in out
    assert "defender's standing orders unknown: defaults assumed" in out
    assert "Warning" not in out


def test_the_amphibious_assault_follows_its_sea_battle_and_json_holds_the_items() -> None:
    orders, state = GERMANY
    data = json.loads(_validate(str(orders), "--state", str(state), "--json").stdout)
    items = {i["space"]: i for i in data["preview"]["items"]}
    assert items["Anglo-Egypt"]["amphibious"] and items["Anglo-Egypt"]["after"] == "SZ 15"
    assert items["SZ 15"]["kind"] == "sea" and items["Anglo-Egypt"]["ipc"] == 2
    assert 0 < items["Anglo-Egypt"]["attacker_captures"] < 1


def test_an_amphibious_assault_is_linked_to_the_sea_battle_its_transports_must_win() -> None:
    orders, state = GERMANY
    data = json.loads(_validate(str(orders), "--state", str(state), "--json", "--warn-below", "65").stdout)
    items = {i["space"]: i for i in data["preview"]["items"]}
    sea, land = items["SZ 15"], items["Anglo-Egypt"]
    # winning with every transport afloat is one way of winning the sea battle, not all of them
    assert 0 < land["sea_battle_won_afloat"] < sea["attacker_win"]
    assert land["linked_win_at_least"] == pytest.approx(land["sea_battle_won_afloat"] * land["attacker_win"])
    # alone the assault clears the threshold; with its sea battle it does not
    assert land["attacker_win"] > 0.65 > land["linked_win_at_least"]
    warnings = data["preview"]["warnings"]
    assert any(w.startswith("Attack on Anglo-Egypt: wins at least ") for w in warnings), warnings
    odds = CliRunner().invoke(app, ["odds", "--state", str(state), "Anglo-Egypt", "--orders", str(orders)])
    assert "With the sea battle in SZ 15 first: the assault wins at least" in odds.stdout


def test_a_battle_below_the_threshold_is_warned_of() -> None:
    orders, state = GERMANY
    out = _validate(str(orders), "--state", str(state), "--warn-below", "95").stdout
    assert "Warning: Attack on SZ 13: wins 94.5% (below your 95% threshold)" in out
    assert "Warning: Attack on SZ 15" not in out


def test_europe_previews_its_battles_and_names_its_raids() -> None:
    out = _validate(str(EUROPE / "orders" / "05-germany.yaml"), "--state", str(EUROPE / "04-setup-usa" / "state.yaml")
                    ).stdout
    assert "Attack on Egypt: wins 69.4%" in out
    assert "Strategic bombing raid on United Kingdom: 1 bomber, 2 fighters" in out


def test_the_preview_does_not_depend_on_another_powers_standing_orders(tmp_path: Path) -> None:
    orders, state = GERMANY
    uk = yaml.safe_load((REVISED / "standing" / "uk.yaml").read_text())
    outs = []
    for order in (uk["casualty_order"], list(reversed(uk["casualty_order"]))):
        path = tmp_path / f"uk-{len(outs)}.yaml"
        path.write_text(yaml.safe_dump(uk | {"casualty_order": order}))
        outs.append(_validate(str(orders), "--state", str(state), "--standing", str(path)).stdout)
    assert outs[0] == outs[1] and "Preview:" in outs[0]


def test_the_mail_answer_shows_the_preview_with_the_players_own_threshold(tmp_path: Path) -> None:
    orders, state = GERMANY
    (tmp_path / "standing").mkdir()
    (tmp_path / "standing" / "germany.yaml").write_text("power: germany\nwarn_below: 97\n")
    (tmp_path / "standing" / "uk.yaml").write_text("power: uk\nwarn_below: 1\n")
    data = load_document(state).data
    position = Position(tmp_path, state, data, get_ruleset(data["ruleset"]), None)
    answer = Answers._preview(position, "germany", load_document(orders))
    assert answer.startswith("\nPreview:\n") and "Amphibious assault on Anglo-Egypt" in answer
    assert "Warning: Attack on SZ 15: wins 97.6%" not in answer
    assert "Warning: Attack on SZ 13: wins 94.5% (below your 97% threshold)" in answer


def test_pbem_odds_takes_the_battle_from_the_state_and_the_orders() -> None:
    orders, state = GERMANY
    result = CliRunner().invoke(app, ["odds", "--state", str(state), "anglo-egypt", "--orders", str(orders), "--json"])
    assert result.exit_code == 0, result.output
    sea, land = json.loads(result.stdout)
    assert (sea["space"], land["space"], land["after"]) == ("SZ 15", "Anglo-Egypt", "SZ 15")
    preview = json.loads(_validate(str(orders), "--state", str(state), "--json").stdout)["preview"]["items"]
    assert land["attacker_win"] == next(i for i in preview if i["space"] == "Anglo-Egypt")["attacker_win"]
    missing = CliRunner().invoke(app, ["odds", "--state", str(state), "Anglo-Egypt"])
    assert missing.exit_code == 1 and "need --orders ORDERS" in missing.output
    nowhere = CliRunner().invoke(app, ["odds", "--state", str(state), "Germany", "--orders", str(orders)])
    assert nowhere.exit_code == 1 and "move no unit into Germany" in nowhere.output
