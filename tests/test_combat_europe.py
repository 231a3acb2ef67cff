"""Europe's own battle steps at the level of the combat package's functions (the worked examples are in
tests/catalogue/aa-europe/battles/): what the edition data switches on, and what it refuses."""

from __future__ import annotations

import pytest

from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies.combat.battle import Battle, Piece, check_battle, make_pieces
from pbem.rulesets.axis_allies.combat.casualties import casualty_policies, take_casualties
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders
from pbem.rulesets.axis_allies.combat.volleys import attack_volleys

EUROPE, REVISED = edition("aa-europe").combat, edition("aa-revised").combat


def sea_battle(rules, **kw) -> Battle:
    return Battle("b1", "X", "sea", "usa", make_pieces(rules, {"usa": {"fighter": 1}}),
                  make_pieces(rules, {"germany": {"submarine": 1, "transport": 1}}, 100), rules=rules, **kw)


def test_the_editions_differ_by_their_data() -> None:
    assert (REVISED.submarine_first_strike, EUROPE.submarine_first_strike) == ("both_sides", "attackers_only")
    for key in ("submerge_instead_of_firing", "air_hits_on_submarines_need_destroyer", "destroyers_bombard",
                "bombarded_fire_back", "allied_ships_take_hits", "stranded_fighters_lost_on_retreat"):
        assert (getattr(REVISED, key), getattr(EUROPE, key)) == (False, True), key


def test_aircraft_hits_skip_submarines_and_the_narrowest_hits_go_first() -> None:
    battle = sea_battle(EUROPE)
    [volley] = attack_volleys(battle, battle.attackers)
    assert volley.target == "not_submarine"
    policy = casualty_policies(battle, BattleOrders())["defender"]
    lost = take_casualties(battle.defenders, {"not_submarine": 2}, "any", policy)
    assert [p.type for p in lost.killed] == ["transport"]  # the second hit has no legal target
    mixed = take_casualties(battle.defenders, {"not_submarine": 1, "any": 1}, "any", policy)
    assert sorted(p.type for p in mixed.killed) == ["submarine", "transport"]
    assert attack_volleys(sea_battle(REVISED), sea_battle(REVISED).attackers)[0].target == "any"


def test_an_allied_destroyer_standing_by_lets_aircraft_hit_submarines() -> None:
    destroyer = (Piece(401, "destroyer", "uk"),)
    battle = sea_battle(EUROPE, bystanders=destroyer)
    assert attack_volleys(battle, battle.attackers, battle.bystanders)[0].target == "any"


@pytest.mark.parametrize("rules, kw, message", [
    (REVISED, {"bystanders": (Piece(401, "destroyer", "uk"),)}, "stand by"),
    (EUROPE, {"bystanders": (Piece(401, "destroyer", "germany"),)}, "stand by"),
    (EUROPE, {"stranded": frozenset({100})}, "stranded"),
    (REVISED, {"stranded": frozenset({1})}, "stranded"),
])
def test_impossible_bystanders_and_stranded_fighters_are_refused(rules, kw, message) -> None:
    with pytest.raises(ValueError, match=message):
        check_battle(sea_battle(rules, **kw))
