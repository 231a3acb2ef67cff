"""`pbem odds` (issue 4): reading the battle, the JSON and text output, simulation against the exact
odds; and the luck of each battle in the event log and the turn report."""

from __future__ import annotations

import copy
import json
import math
import re
from fractions import Fraction
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem import rulesets
from pbem.cli import app
from pbem.core.dice import FixedDice
from pbem.core.events import EventLog
from pbem.core.ruleset import Ruleset
from pbem.core.yamlio import parse_document
from pbem.rulesets.axis_allies.reports.report import render_bbcode, render_html, render_markdown, report_model

KEYS = {"attacker_win", "defender_win", "draw", "attacker_survivors", "defender_survivors", "outcomes",
        "attacker_ipc_lost", "defender_ipc_lost"}
BATTLE = ("--attacker", "3 infantry, 1 artillery, 2 tanks", "--defender", "4 infantry, 1 fighter")


def pbem(*args: object):
    """Run the CLI in-process; stderr is kept apart from stdout."""
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def odds_json(*args: object) -> dict[str, Any]:
    result = pbem("odds", *args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def one_against_one(attack: Fraction, defence: Fraction) -> dict[str, Fraction]:
    """One unit against one: each round both fire once, until someone hits."""
    ends = 1 - (1 - attack) * (1 - defence)
    return {"attacker_win": attack * (1 - defence) / ends, "draw": attack * defence / ends,
            "defender_win": (1 - attack) * defence / ends, "expected_rounds": 1 / ends}


# --- reading the battle -------------------------------------------------------------------------


@pytest.mark.parametrize("attacker", ["3 infantry, 2 tanks", "3 inf, 2 armour", "infantry x3, 2x Tank",
                                      "2 Infantry, inf, tank, armor", "3 INFANTRY,2 tnk"])
def test_unit_names_in_singular_plural_and_aliases(attacker: str) -> None:
    data = odds_json("--attacker", attacker, "--defender", "2 infantry, 1 fighters")
    assert data == odds_json("--attacker", "3 infantry, 2 tank", "--defender", "2 inf, 1 fighter")
    assert set(data["attacker_survivors"]) == {"infantry", "tank"}


def test_sea_units_and_aliases() -> None:
    data = odds_json("--sea", "--attacker", "bb, 2 subs, dd", "--defender", "1 aircraft carrier, 2 ftrs, 1 trn",
                     "--attacker-power", "Japan", "--defender-power", "USA")
    assert (data["attacker"], data["defender"], data["kind"]) == ("japan", "usa", "sea")
    assert set(data["attacker_survivors"]) == {"battleship", "destroyer", "submarine"}
    assert set(data["defender_survivors"]) == {"fighter", "carrier", "transport"}
    assert data["attacker_captures"] is None


def test_an_unknown_unit_is_an_error_with_a_suggestion() -> None:
    result = pbem("odds", "--attacker", "3 infantry, 2 tnaks", "--defender", "1 infantry")
    assert result.exit_code != 0 and result.stdout == ""
    assert "--attacker: unknown unit type 'tnaks'; did you mean 'tank'" in result.stderr


@pytest.mark.parametrize("args, message", [
    (("--attacker", "1 battleship", "--defender", "1 infantry"), "add --sea"),
    (("--attacker", "1 infantry", "--defender", "1 destroyer", "--sea"), "cannot fight in a sea battle"),
    (("--attacker", "1 tank", "--defender", "1 infantry", "--attacker-power", "ussr", "--defender-power", "uk"),
     "uk is not an enemy of ussr"),
    (("--attacker", "1 tank", "--defender", "1 infantry", "--bombard", "1 battleship"), "add --amphibious"),
    (("--attacker", "1 tank", "--defender", "1 infantry", "--amphibious", "--bombard", "1 destroyer"),
     "combined_bombardment"),
    (("--attacker", "1 tank", "--defender", "1 infantry", "--attacker-tech", "rockets"),
     "rockets does not change a battle"),
    (("--attacker", "1 sub", "--defender", "1 destroyer", "--sea", "--attacker-submerge", "sometimes"),
     "unknown choice 'sometimes' (allowed: never, always, when_alone)"),
    (("--attacker", "1 tank", "--defender", "1 infantry", "--retreat-below-chance", "0.5", "--simulate", "100"),
     "cannot be simulated"),
    (("--attacker", "", "--defender", "1 infantry"), "the attacker needs at least one unit"),
    (("--attacker", "2 tanks", "--defender", "1 infantry", "--attacker-order", "0 tanks, tank"),
     "'0 tanks' loses no unit first (allowed: a number of 1 or more, e.g. 1 tank)"),
    (("--attacker", "1 tank", "--defender", "1 infantry", "--ruleset", "chess"), "unknown ruleset 'chess'"),
])
def test_impossible_battles_are_errors_that_say_why(args: tuple[str, ...], message: str) -> None:
    result = pbem("odds", *args)
    assert result.exit_code != 0 and result.stdout == ""
    assert message in result.stderr


def test_a_ruleset_without_a_battle_calculator_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoDice(Ruleset):  # only what the ABC demands: no battle calculator
        id, name, powers = "no-dice", "No dice", ()
        options = opening_state = check_state = check_orders = decisions = resolve = lambda *args: None  # type: ignore

    monkeypatch.setitem(rulesets.RULESETS, "no-dice", NoDice)
    result = pbem("odds", *BATTLE, "--ruleset", "no-dice")
    assert result.exit_code != 0 and "has no battle calculator (allowed: aa-europe, aa-revised)" in result.stderr


# --- the output ---------------------------------------------------------------------------------


def test_json_has_the_promised_keys_and_its_probabilities_sum_to_one() -> None:
    data = odds_json(*BATTLE)
    assert KEYS <= set(data) and data["method"] == "exact" and data["retreat"] is None
    assert data["attacker_win"] + data["defender_win"] + data["draw"] == pytest.approx(1, abs=1e-8)
    assert 0 < data["attacker_captures"] <= data["attacker_win"]
    outcomes = [o["probability"] for o in data["outcomes"]]
    assert len(outcomes) == 10 and outcomes == sorted(outcomes, reverse=True) and sum(outcomes) <= 1
    assert {o["winner"] for o in data["outcomes"]} <= {"attacker", "defender", "draw"}
    assert 0 < data["attacker_survivors"]["tank"] < 2 and 0 < data["defender_survivors"]["fighter"] < 1
    assert 0 < data["attacker_ipc_lost"] < 3 * 3 + 4 + 2 * 5 and 0 < data["defender_ipc_lost"] < 4 * 3 + 10
    every = odds_json(*BATTLE, "--top", "1000")["outcomes"]
    assert sum(o["probability"] for o in every) == pytest.approx(1, abs=1e-8)
    assert pbem("odds", *BATTLE, "--json").stdout == pbem("odds", *BATTLE, "--json").stdout


def test_one_infantry_against_one_infantry() -> None:
    data = odds_json("--attacker", "1 infantry", "--defender", "1 infantry")
    expected = one_against_one(Fraction(1, 6), Fraction(2, 6))
    for key, value in expected.items():
        assert data[key] == pytest.approx(float(value), abs=1e-9), key
    assert data["attacker_survivors"] == {"infantry": pytest.approx(float(expected["attacker_win"]))}
    assert data["attacker_ipc_lost"] == pytest.approx(3 * float(1 - expected["attacker_win"]))


def test_a_retreat_after_the_first_round() -> None:
    data = odds_json("--attacker", "1 tank", "--defender", "1 infantry", "--retreat-after", "1")
    hit, block = Fraction(3, 6), Fraction(2, 6)
    assert data["attacker_win"] == pytest.approx(float(hit * (1 - block)))
    assert data["draw"] == pytest.approx(float(hit * block))
    assert data["retreat"] == pytest.approx(float((1 - hit) * (1 - block)))  # both missed: the tank leaves
    assert data["expected_rounds"] == 1


def test_options_change_the_odds() -> None:
    plain = odds_json(*BATTLE)["attacker_win"]
    assert odds_json(*BATTLE, "--defender-tech", "jets")["attacker_win"] < plain
    fighters = ("--attacker", "2 tanks, 2 fighters", "--defender", "4 infantry")
    assert odds_json(*fighters, "--aa")["attacker_win"] < odds_json(*fighters)["attacker_win"]
    assert odds_json(*fighters, "--defender", "4 inf, aa gun") == odds_json(*fighters, "--aa")
    landing = ("--attacker", "2 infantry", "--defender", "2 infantry", "--amphibious")
    assert odds_json(*landing, "--bombard", "bb")["attacker_win"] > odds_json(*landing)["attacker_win"]
    cautious = odds_json(*BATTLE, "--retreat-below-chance", "0.5")
    assert 0 < cautious["retreat"] < 1 and cautious["attacker_ipc_lost"] < odds_json(*BATTLE)["attacker_ipc_lost"]
    tanks_first = odds_json(*BATTLE, "--attacker-order", "tank, artillery")
    assert tanks_first["attacker_survivors"]["tank"] < odds_json(*BATTLE)["attacker_survivors"]["tank"]
    one_tank_first = odds_json(*BATTLE, "--attacker-order", "1 tank, infantry, artillery, tank")
    assert plain != one_tank_first["attacker_win"] != tanks_first["attacker_win"]


def test_text_output() -> None:
    result = pbem("odds", *BATTLE)
    assert result.exit_code == 0, result.stderr
    data = odds_json(*BATTLE)
    text = result.stdout
    assert re.search(rf"\n  Germany wins +{100 * data['attacker_win']:.1f}%\n", text)
    assert "USSR holds" in text and "both wiped out" in text and "and takes the territory" in text
    assert "Expected survivors" in text and "Most likely outcomes" in text and "Method: exact" in text


def test_simulation_agrees_with_the_exact_odds() -> None:
    n = 2000
    exact, sim = odds_json(*BATTLE), odds_json(*BATTLE, "--simulate", n, "--seed", 7)
    assert (sim["method"], sim["runs"], sim["seed"]) == ("simulation", n, 7)
    p = exact["attacker_win"]
    assert sim["attacker_win_stderr"] == pytest.approx(math.sqrt(sim["attacker_win"] * (1 - sim["attacker_win"]) / n))
    for key in ("attacker_win", "defender_win", "draw"):
        sigma = math.sqrt(exact[key] * (1 - exact[key]) / n)
        assert abs(sim[key] - exact[key]) < 4 * sigma, key
    assert abs(sim["attacker_win"] - p) < 4 * sim["attacker_win_stderr"]

    few = odds_json(*BATTLE, "--simulate", 200, "--seed", 7)
    assert few == odds_json(*BATTLE, "--simulate", 200, "--seed", 7)
    assert few != odds_json(*BATTLE, "--simulate", 200, "--seed", 8)


# --- luck in a real turn ------------------------------------------------------------------------

RULES = rulesets.get_ruleset("aa-revised")
ATTACK = """power: germany
combat_move:
  - units: {infantry: 1, tank: 1}
    from: Eastern Europe
    path: [Karelia S.S.R.]
"""


def karelia_turn(dice: list[int]) -> tuple[dict, dict, EventLog]:
    """Germany's infantry and tank against one Soviet infantry in Karelia, with fixed dice."""
    state = RULES.opening_state("luck", {})
    state["dice"] = {"commitment": "0" * 64, "turn": 2}
    state["next_power"] = "germany"
    state["units"]["Karelia S.S.R."] = {"ussr": {"infantry": 1}}
    before = copy.deepcopy(state)
    orders = parse_document(ATTACK, "orders.yaml")
    assert RULES.check_orders(state, {state["next_power"]: orders}, {}) == []
    log = EventLog()
    log.add("turn_start", round=1, power="germany", turn=2, seed="1" * 64, seed_commitment="0" * 64,
            orders_digest="0" * 64)
    fixed = FixedDice(dice)
    after = RULES.resolve(state, {state["next_power"]: orders}, {}, fixed, log)
    assert fixed.unused == 0
    log.add("turn_end", round=1, power="germany", next_power=after["next_power"], dice_rolled=fixed.rolled,
            next_seed_commitment="1" * 64)
    return before, after, log


# Per round the attacker hits with 1 - 5/6 * 3/6 = 7/12 and the infantry with 1/3; the attacker's
# infantry dies first. Ends, best first for Germany: wins with both units 7/13, with the tank
# 7/26 + 5/26 * 1/2, both wiped out 5/26 * 1/4, Karelia holds 5/26 * 1/4.
BOTH_LEFT, TANK_LEFT, DRAW = Fraction(7, 13), Fraction(7, 26) + Fraction(5, 52), Fraction(5, 104)


@pytest.mark.parametrize("dice, winner, as_good", [
    ([1, 6, 6], "attacker", BOTH_LEFT),  # the best end: only its own chance is as good
    ([6, 6, 1, 1, 6], "attacker", BOTH_LEFT + TANK_LEFT),
    ([6, 6, 1, 1, 1], "none", BOTH_LEFT + TANK_LEFT + DRAW),
    ([6, 6, 1, 6, 1], "defender", Fraction(1)),  # the worst end: every end is as good or better
])
def test_each_battle_end_says_how_lucky_it_was(dice: list[int], winner: str, as_good: Fraction) -> None:
    _, _, log = karelia_turn(dice)
    (end,) = log.of_type("battle_end")
    assert end["winner"] == winner
    odds = end["odds"]
    assert set(odds) == {"attacker_win", "draw", "defender_win", "this_good_or_better"}
    assert odds["attacker_win"] == pytest.approx(float(BOTH_LEFT + TANK_LEFT), abs=1e-6)
    assert odds["draw"] == odds["defender_win"] == pytest.approx(float(DRAW), abs=1e-6)
    assert odds["this_good_or_better"] == pytest.approx(float(as_good), abs=1e-6)
    assert odds == {k: round(v, 6) for k, v in odds.items()}  # rounded, so events.jsonl is byte-stable


def test_a_battle_too_large_for_a_turn_has_no_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.rulesets.axis_allies import combat_link
    monkeypatch.setattr(combat_link, "MAX_ODDS_WORK", 1)
    _, _, log = karelia_turn([1, 6, 6])
    assert log.of_type("battle_end")[0]["odds"] == {"not_computed": "battle too large"}


def test_the_report_shows_the_luck_of_each_battle() -> None:
    model = report_model(*karelia_turn([6, 6, 1, 1, 6]))
    # won with the tank left: only the draw and the defender holding were worse, 5/104 each
    line = ("Odds before the battle: Germany wins 90.4%, both sides wiped out 4.8%, the defender holds 4.8%. "
            "Luck: Germany was luckier than 9.6% of the possible outcomes.")
    assert model["battles"][0]["luck"] == line
    assert line in render_markdown(model) and line in render_bbcode(model) and line in render_html(model, None)


@pytest.mark.parametrize("dice, luckier_than", [
    ([1, 6, 6], f"{100 * float(1 - BOTH_LEFT):.1f}%"),  # the best end: every other end was worse
    ([6, 6, 1, 6, 1], "0%"),  # the worst end: no outcome was worse
])
def test_the_luck_is_a_percentile_that_grows_with_luck(dice: list[int], luckier_than: str) -> None:
    line = report_model(*karelia_turn(dice))["battles"][0]["luck"]
    assert line.endswith(f"Luck: Germany was luckier than {luckier_than} of the possible outcomes.")


def test_a_near_certainty_reads_as_pbem_odds_prints_it() -> None:
    from pbem.core.words import chance, percent
    assert [percent(chance(p, 6)) for p in (0.9999997, 2e-7, 1.0, 0.0, 1 - 1e-15)] == \
        [">99.9%", "<0.1%", "100%", "0%", "100%"]
    # pbem odds (and the preview) keep a chance of 1 - 2.4e-11 off certainty too
    sure = odds_json("--attacker", "5 infantry, 1 tank, 2 fighters", "--defender", "1 infantry")
    assert 0 < sure["defender_win"] < 1e-8 and percent(sure["attacker_win"]) == ">99.9%"


def test_odds_of_an_edition_not_yet_registered_follow_its_steps() -> None:
    # Europe (aa-europe) is weighed before it is a registered ruleset: two submarines against a
    # transport and a fighter. Only attacking submarines strike first, and a fighter cannot hit a
    # submarine without a destroyer of its side: the defender always holds with its fighter.
    europe = odds_json("--ruleset", "aa-europe", "--sea", "--attacker", "2 submarines",
                       "--defender", "1 transport, 1 fighter")
    assert europe["method"] == "exact"
    assert europe["defender_win"] == 1
    revised = odds_json("--ruleset", "aa-revised", "--sea", "--attacker", "2 submarines",
                        "--defender", "1 transport, 1 fighter")
    # Revised's fighter hunts the submarines down; Europe's only the transport's shot hurts them.
    assert revised["attacker_survivors"]["submarine"] < europe["attacker_survivors"]["submarine"]


def test_europe_destroyers_bombard_without_a_development() -> None:
    args = ("--attacker", "2 infantry", "--defender", "2 infantry", "--amphibious", "--bombard", "1 destroyer")
    assert odds_json("--ruleset", "aa-europe", *args)["method"] == "exact"
    refused = pbem("odds", "--ruleset", "aa-revised", *args)
    assert refused.exit_code != 0 and "combined_bombardment" in refused.stderr


def test_the_exact_odds_state_their_error_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    data = odds_json("--attacker", "30 infantry, 10 tanks", "--defender", "40 infantry")
    assert 0 < data["error_bound"] < 1e-12
    assert "so every figure is exact to the digits shown" in pbem("odds", "--attacker", "30 infantry, 10 tanks",
                                                                  "--defender", "40 infantry").stdout
    assert odds_json("--attacker", "1 infantry", "--defender", "1 infantry")["error_bound"] == 0
    assert "over every die of every round" in pbem("odds", "--attacker", "1 tank", "--defender", "1 infantry").stdout
    from pbem.rulesets.axis_allies import odds, odds_sweep
    monkeypatch.setattr(odds, "CELL_WALK_UP_TO", 0)  # a small battle is walked cell by cell, dropping nothing
    monkeypatch.setattr(odds_sweep, "DROP_BELOW", 0.01)
    rough = odds_json(*BATTLE)
    assert rough["error_bound"] >= 0.0005
    text = pbem("odds", *BATTLE).stdout
    assert f"so any chance may be up to {100 * rough['error_bound']:.1f}% higher" in text


def test_a_turn_report_says_when_the_odds_may_be_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.rulesets.axis_allies import odds, odds_sweep
    monkeypatch.setattr(odds, "CELL_WALK_UP_TO", 0)
    monkeypatch.setattr(odds_sweep, "DROP_BELOW", 0.5)  # every state after round 1 is left out
    before, after, log = karelia_turn([6, 6, 1, 1, 6])
    odds = log.of_type("battle_end")[0]["odds"]
    assert odds["error_bound"] >= 5e-7 and odds["error_bound"] == round(odds["error_bound"], 6)
    line = report_model(before, after, log)["battles"][0]["luck"]
    assert line.endswith(f"Each chance may be up to {100 * odds['error_bound']:.1f}% higher (states too unlikely "
                         "to follow were left out).")


def test_every_request_s_work_is_bounded_with_what_is_allowed() -> None:
    """A million units, or a billion simulated battles, are refused before any work (issue 27)."""
    huge = pbem("odds", "--attacker", "1000000 infantry", "--defender", "12 infantry")
    assert huge.exit_code == 1 and "Traceback" not in huge.output
    assert "1,000,000 units: more than any board holds on one side (allowed: at most 1,000 units a side)" in \
        " ".join(huge.output.split())
    endless = pbem("odds", "--attacker", "12 infantry", "--defender", "12 infantry", "--simulate", "1000000000")
    assert endless.exit_code == 1
    assert "(allowed: at most --simulate 125,000 for this battle)" in " ".join(endless.output.split())
