"""Unit and property tests of pbem.rulesets.axis_allies.combat (the catalogue has the worked cases)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.rulesets.axis_allies.combat.battle import Battle as CombatBattle, Piece, check_battle, make_pieces
from pbem.rulesets.axis_allies.combat.casualties import casualty_policies, casualty_ranking, take_casualties
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders, CasualtyOrder, PowerOrders, RetreatRule
from pbem.rulesets.axis_allies.combat.resolve import resolve_battle
from pbem.rulesets.axis_allies.combat.volleys import attack_volleys, defence_volleys
from functools import partial
from pbem.rulesets.axis_allies.edition import edition

REVISED = edition("aa-revised")
RULES = REVISED.combat
Battle = partial(CombatBattle, rules=RULES)  # a battle under the Revised rules

LAND = ("infantry", "artillery", "tank", "fighter", "bomber")
SEA = ("battleship", "destroyer", "carrier", "transport", "submarine", "fighter", "bomber")
DEVELOPMENTS = ("jet_fighters", "super_submarines", "heavy_bombers", "combined_bombardment")


def land_battle(attackers, defenders, **kw) -> Battle:
    return Battle("b1", "Somewhere", "land", "germany", make_pieces(RULES, attackers), make_pieces(RULES, defenders, 100), **kw)


def policy(battle: Battle, side: str = "defender"):
    return casualty_policies(battle, BattleOrders())[side]


# --- casualty choice --------------------------------------------------------------------------


def test_battleship_absorbs_first_hit_then_sinks_last() -> None:
    battle = Battle("b", "SZ 1", "sea", "germany", make_pieces(RULES, {"germany": {"fighter": 1}}),
                    make_pieces(RULES, {"uk": {"battleship": 2, "destroyer": 1}}, 10))
    pol = policy(battle)
    ranking = [(p.type, dmg) for p, dmg in casualty_ranking(battle.defenders, pol)]
    assert ranking == [("battleship", True), ("battleship", True), ("destroyer", False),
                       ("battleship", False), ("battleship", False)]
    four = take_casualties(battle.defenders, 4, "any", pol)
    assert [p.type for p in four.killed] == ["destroyer", "battleship"]
    assert [p.type for p in four.damaged] == ["battleship"]


def test_damaged_battleship_sinks_before_a_sound_one() -> None:
    defenders = [Piece(1, "battleship", "uk"), Piece(2, "battleship", "uk", damaged=True)]
    battle = Battle("b", "SZ 1", "sea", "germany", [Piece(9, "fighter", "germany")], defenders)
    pol = casualty_policies(battle, BattleOrders(defenders={"uk": PowerOrders(
        CasualtyOrder(damage_battleships_first=False))}))["defender"]
    assert take_casualties(defenders, 1, "any", pol).damaged == (defenders[0],)
    assert take_casualties(defenders, 2, "any", pol).killed == (defenders[1],)


def test_keep_land_unit_moves_the_last_capturing_unit_to_the_end() -> None:
    battle = land_battle({"germany": {"infantry": 2, "tank": 1, "fighter": 1}}, {"ussr": {"infantry": 1}})
    pol = policy(battle, "attacker")
    assert [p.type for p, _ in casualty_ranking(battle.attackers, pol)] == ["infantry", "infantry", "fighter", "tank"]
    sea = Battle("b", "SZ 1", "sea", "germany", make_pieces(RULES, {"germany": {"transport": 1, "fighter": 1}}),
                 make_pieces(RULES, {"uk": {"destroyer": 1}}, 10))
    assert not casualty_policies(sea, BattleOrders())["attacker"].keep_land_unit


def test_hits_only_reach_their_class_of_target_and_extra_hits_are_lost() -> None:
    battle = Battle("b", "SZ 1", "sea", "germany", make_pieces(RULES, {"germany": {"submarine": 1}}),
                    make_pieces(RULES, {"usa": {"carrier": 1, "fighter": 2}}, 10))
    pol = policy(battle)
    assert [p.type for p in take_casualties(battle.defenders, 3, "sea", pol).killed] == ["carrier"]
    assert [p.type for p in take_casualties(battle.defenders, 3, "air", pol).killed] == ["fighter", "fighter"]
    assert take_casualties(battle.defenders, 0, "any", pol).killed == ()


def test_empty_transport_goes_before_a_loaded_one() -> None:
    loaded = Piece(1, "transport", "uk", cargo=(Piece(5, "tank", "uk"),))
    empty = Piece(2, "transport", "uk")
    battle = Battle("b", "SZ 1", "sea", "germany", [Piece(9, "destroyer", "germany")], [loaded, empty])
    assert take_casualties(battle.defenders, 1, "any", policy(battle)).killed == (empty,)


def test_cargo_dies_with_its_transport_and_is_reported() -> None:
    transport = Piece(1, "transport", "uk", cargo=(Piece(2, "infantry", "usa"), Piece(3, "tank", "uk")))
    battle = Battle("b", "SZ 1", "sea", "uk", [transport], make_pieces(RULES, {"germany": {"destroyer": 1}}, 10))
    result = resolve_battle(battle, BattleOrders(), lambda n: [1] * n)
    assert result.casualties["attacker"] == (transport,)
    lost = {e["power"]: e for e in result.events if e["type"] == "casualties"}
    assert lost["uk"]["units"] == {"tank": 1, "transport": 1}
    assert lost["usa"]["units"] == {"infantry": 1} and lost["usa"]["chosen_by"] == "uk"


@pytest.mark.parametrize("wishes, merge, first", [
    (("cheapest_first", "cheapest_first"), "cost", None),
    (("own_first", "allies_first"), "priority", "uk"),
    (("allies_first", "own_first"), "priority", "usa"),
    (("own_first", "own_first"), "order", None),
    (("allies_first", "allies_first"), "order", None),
    (("own_first", "cheapest_first"), "order", None),
])
def test_multinational_agreement(wishes, merge, first) -> None:
    battle = land_battle({"germany": {"tank": 1}}, {"uk": {"infantry": 1}, "usa": {"infantry": 1}})
    orders = BattleOrders(defenders={"uk": PowerOrders(shared_casualties=wishes[0]),
                                     "usa": PowerOrders(shared_casualties=wishes[1])})
    pol = casualty_policies(battle, orders)["defender"]
    assert pol.merge == merge
    if first:
        assert pol.priority[0] == first
    assert set(pol.chosen_by.values()) == ({"germany"} if merge == "order" else {"uk", "usa"})


# --- who fires ----------------------------------------------------------------------------------


def test_attack_volleys_pair_infantry_and_roll_heavy_bombers_twice() -> None:
    battle = land_battle({"germany": {"infantry": 3, "artillery": 2, "bomber": 1}}, {"ussr": {"infantry": 1}},
                         developments={"germany": frozenset({"heavy_bombers"})})
    assert [(v.unit, v.value, v.dice) for v in attack_volleys(battle, battle.attackers)] == [
        ("infantry", 1, 1), ("infantry", 2, 2), ("artillery", 2, 2), ("bomber", 4, 2)]


def test_defence_volleys_by_power_in_turn_order_and_jets() -> None:
    battle = land_battle({"germany": {"tank": 1}}, {"usa": {"fighter": 1}, "uk": {"infantry": 1}},
                         developments={"usa": frozenset({"jet_fighters"})})
    assert [(v.power, v.unit, v.value) for v in defence_volleys(battle, battle.defenders)] == [
        ("uk", "infantry", 2), ("usa", "fighter", 5)]


@pytest.mark.parametrize("change, message", [
    ({"attackers": ()}, "needs attacking units"),
    ({"attackers": (Piece(1, "battleship", "germany"),)}, "cannot fight in a land battle"),
    ({"attackers": (Piece(1, "tank", "japan"),)}, "allies never attack together"),
    ({"defenders": (Piece(2, "tank", "japan"),)}, "enemies of the attacker"),
    ({"defenders": (Piece(1, "tank", "uk"),)}, "unique"),
    ({"aa_gun": "japan"}, "enemy AA gun"),
    ({"bombarding": (Piece(3, "battleship", "germany"),)}, "amphibious"),
    ({"amphibious": True, "bombarding": (Piece(3, "destroyer", "germany"),)}, "cannot bombard"),
    ({"attackers": (Piece(1, "tank", "germany", damaged=True),)}, "only battleships"),
    ({"attackers": (Piece(1, "flying_saucer", "germany"),)}, "unknown unit type"),
])
def test_check_battle_refuses_impossible_battles(change, message) -> None:
    base = dict(id="b", space="X", kind="land", attacker="germany",
                attackers=(Piece(1, "tank", "germany"),), defenders=(Piece(2, "tank", "uk"),))
    with pytest.raises(ValueError, match=message):
        check_battle(Battle(**(base | change)))


def test_unknown_type_in_casualty_order_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown unit types"):
        CasualtyOrder(("infantry", "cavalry"))


# --- properties of whole battles ------------------------------------------------------------------


@st.composite
def casualty_entries(draw) -> tuple:
    """A casualty order's entries: the unit types in any order, some counted entries among them."""
    entries: list = list(draw(st.permutations(list(RULES.units)[5:] + list(RULES.units)[:3])))
    for unit, n in draw(st.lists(st.tuples(st.sampled_from(sorted(RULES.units)), st.integers(1, 3)), max_size=4)):
        entries.insert(draw(st.integers(0, len(entries))), (unit, n))
    return tuple(entries)


@st.composite
def battles(draw) -> tuple[Battle, BattleOrders]:
    kind = draw(st.sampled_from(["land", "sea"]))
    types = LAND if kind == "land" else SEA
    counts = st.dictionaries(st.sampled_from(types), st.integers(1, 3), min_size=1, max_size=4)
    attacker = draw(st.sampled_from(["germany", "japan"]))
    attackers = make_pieces(RULES, {attacker: draw(counts)})
    defending = draw(st.lists(st.sampled_from(["ussr", "uk", "usa"]), min_size=1, max_size=2, unique=True))
    defenders = make_pieces(RULES, {p: draw(counts) for p in defending}, 100)
    if kind == "sea" and draw(st.booleans()):  # load a transport
        i = next((i for i, p in enumerate(attackers) if p.type == "transport"), None)
        if i is not None:
            attackers[i] = Piece(attackers[i].id, "transport", attacker,
                                 cargo=(Piece(500, "infantry", attacker), Piece(501, "tank", attacker)))
    amphibious = kind == "land" and draw(st.booleans())
    developments = {p: frozenset(draw(st.sets(st.sampled_from(DEVELOPMENTS))))
                    for p in (attacker, *defending)}
    bombarding = make_pieces(RULES, {attacker: {"battleship": draw(st.integers(0, 2))}}, 300) if amphibious else []
    battle = Battle("b1", "X", kind, attacker, attackers, defenders,
                    aa_gun=defending[0] if kind == "land" and draw(st.booleans()) else None,
                    bombarding=bombarding, amphibious=amphibious, developments=developments,
                    bombardment_targets=draw(st.sampled_from(["land_units", "any"])))
    submerge = st.sampled_from(["never", "always", "when_alone"])
    order = st.builds(CasualtyOrder, casualty_entries(), st.booleans(), st.booleans())
    orders = BattleOrders(
        PowerOrders(draw(order), draw(submerge)),
        {p: PowerOrders(draw(order), draw(submerge),
                        draw(st.sampled_from(["own_first", "allies_first", "cheapest_first"])))
         for p in defending},
        RetreatRule(draw(st.none() | st.integers(1, 4)), draw(st.none() | st.integers(1, 5)), draw(st.booleans())))
    return battle, orders


def ids(pieces) -> list[int]:
    return [q.id for p in pieces for q in (p, *p.cargo)]


@settings(max_examples=300, deadline=None)
@given(battles(), st.integers(0, 2**32))
def test_units_are_conserved_and_every_die_is_recorded(case, seed) -> None:
    battle, orders = case
    rng = random.Random(seed)
    rolled: list[int] = []

    def roll(n: int) -> list[int]:
        dice = [rng.randint(1, 6) for _ in range(n)]
        rolled.extend(dice)
        return dice

    result = resolve_battle(battle, orders, roll)
    for side, start in (("attacker", battle.attackers), ("defender", battle.defenders)):
        end = (result.attackers + result.retreated_pieces if side == "attacker" else result.defenders)
        end += result.submerged[side] + result.casualties[side]
        assert sorted(ids(end)) == sorted(ids(start))
    recorded = [d for e in result.events if e["type"] in ("roll", "aa_fire") for d in e["dice"]]
    assert recorded == rolled
    for e in result.events:
        if e["type"] == "roll":
            assert e["hits"] == sum(1 for d in e["dice"] if d <= e["value"])
    assert result.winner == ("attacker" if result.attackers and not result.defenders
                             else "defender" if result.defenders else "none")
    assert not any(p.damaged for p in result.attackers + result.defenders + result.retreated_pieces)
    if battle.amphibious:
        assert all(p.kind == "air" for p in result.retreated_pieces)
    replay = iter(rolled)
    again = resolve_battle(battle, orders, lambda n: [next(replay) for _ in range(n)])
    assert again == result


@settings(max_examples=300, deadline=None)
@given(battles(), st.integers(0, 12), st.sampled_from(["any", "air", "sea", "land"]))
def test_casualties_equal_the_hits_that_have_a_legal_target(case, hits, target) -> None:
    battle, orders = case
    for side, pieces in (("attacker", battle.attackers), ("defender", battle.defenders)):
        pol = casualty_policies(battle, orders)[side]
        legal = sum(2 if p.type == "battleship" and not p.damaged else 1
                    for p in pieces if target == "any" or p.kind == target)
        taken = take_casualties(pieces, hits, target, pol)
        absorbed = len(taken.damaged) + sum(2 if p.type == "battleship" and not p.damaged else 1
                                            for p in taken.killed)
        assert absorbed == min(hits, legal)
        assert all(target == "any" or p.kind == target for p in taken.killed + taken.damaged)
        # Choosing in two volleys picks the same units as choosing at once.
        first = take_casualties(pieces, hits // 2, target, pol)
        rest = [p for p in pieces if p not in first.killed]
        rest = [Piece(p.id, p.type, p.owner, True, p.cargo) if p in first.damaged else p for p in rest]
        second = take_casualties(rest, hits - hits // 2, target, pol.after(first.killed))
        assert sorted(p.id for p in first.killed + second.killed) == sorted(p.id for p in taken.killed)
