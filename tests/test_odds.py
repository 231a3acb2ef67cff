"""The exact odds against a brute-force enumeration of all dice, and against simulation."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import pytest

from pbem.rulesets.axis_allies.combat.battle import Battle as CombatBattle, CombatRules, Piece, count_units, make_pieces
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders, CasualtyOrder, PowerOrders, RetreatRule
from pbem.rulesets.axis_allies.combat.resolve import battle_winner, resolve_battle
from pbem.rulesets.axis_allies.combat.rounds import Board, fight_round
from pbem.rulesets.axis_allies.combat.volleys import Volley
from pbem.rulesets.axis_allies.odds import Odds, battle_luck, battle_odds, simulate
from pbem.rulesets.axis_allies.odds_chain import BattleTooLarge
from pbem.rulesets.axis_allies.odds_dice import hit_distribution
from functools import partial
from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies import odds, odds_sweep

REVISED = edition("aa-revised")
RULES = REVISED.combat
Battle = partial(CombatBattle, rules=RULES)  # a battle under the Revised rules


def battle(kind, attacker, attackers, defenders, **kw) -> Battle:
    return Battle("b1", "X", kind, attacker, make_pieces(RULES, attackers), make_pieces(RULES, defenders, 100), **kw)


NO_DESTROYER_SUBS = battle("sea", "germany", {"germany": {"submarine": 2}}, {"uk": {"transport": 1, "carrier": 1}})
LOADED = Battle("b1", "SZ 7", "sea", "uk", [Piece(1, "destroyer", "uk"), Piece(2, "transport", "uk", cargo=(
    Piece(3, "infantry", "uk"), Piece(4, "tank", "uk")))], [Piece(5, "submarine", "germany")])

SMALL = {  # battles with at most 5 dice a round, so every die can be enumerated
    "land pairing": (battle("land", "germany", {"germany": {"infantry": 1, "artillery": 1}},
                            {"ussr": {"infantry": 2}}), BattleOrders()),
    "aa gun": (battle("land", "usa", {"usa": {"fighter": 1, "infantry": 1}}, {"germany": {"infantry": 1}},
                      aa_gun="germany"), BattleOrders()),
    "bombardment": (battle("land", "japan", {"japan": {"infantry": 1, "tank": 1}}, {"usa": {"infantry": 2}},
                           amphibious=True, bombarding=[Piece(300, "battleship", "japan")]), BattleOrders()),
    "subs and destroyer": (battle("sea", "germany", {"germany": {"submarine": 1, "destroyer": 1}},
                                  {"uk": {"submarine": 1, "transport": 1}}), BattleOrders()),
    "subs without destroyer": (NO_DESTROYER_SUBS, BattleOrders()),
    "battleship": (battle("sea", "japan", {"japan": {"battleship": 1}}, {"usa": {"destroyer": 1, "transport": 1}}),
                   BattleOrders()),
    "heavy bomber and aa": (battle("land", "germany", {"germany": {"bomber": 1, "infantry": 1}},
                                   {"uk": {"infantry": 1}}, aa_gun="uk",
                                   developments={"germany": frozenset({"heavy_bombers"})}), BattleOrders()),
    "retreat after round 2": (battle("land", "germany", {"germany": {"infantry": 2}},
                                     {"ussr": {"infantry": 1, "artillery": 1}}),
                              BattleOrders(retreat=RetreatRule(after_round=2))),
    "retreat when weaker": (battle("land", "germany", {"germany": {"infantry": 1, "tank": 1}},
                                   {"ussr": {"infantry": 2}}),
                            BattleOrders(retreat=RetreatRule(when_weaker=True))),
    "sub submerges when alone": (battle("sea", "germany", {"germany": {"submarine": 1, "transport": 1}},
                                        {"uk": {"carrier": 1}}),
                                 BattleOrders(PowerOrders(submerge="when_alone"))),
    "lone transport": (battle("sea", "uk", {"uk": {"destroyer": 1, "transport": 1}}, {"germany": {"destroyer": 1}}),
                       BattleOrders(PowerOrders(CasualtyOrder(("destroyer", "transport")), "never"),
                                    retreat=RetreatRule(below_units=2))),
    "allies disagree": (battle("land", "germany", {"germany": {"tank": 2}},
                               {"uk": {"infantry": 1}, "usa": {"fighter": 1}}),
                        BattleOrders(defenders={"uk": PowerOrders(shared_casualties="own_first"),
                                                "usa": PowerOrders(shared_casualties="own_first")},
                                     enemy_casualties=CasualtyOrder(("fighter",)))),
    "amphibious aircraft retreat": (battle("land", "japan", {"japan": {"infantry": 1, "fighter": 1}},
                                           {"usa": {"infantry": 2}}, amphibious=True),
                                    BattleOrders(retreat=RetreatRule(after_round=1))),
    "defender submerges": (battle("sea", "uk", {"uk": {"destroyer": 1, "fighter": 1}},
                                  {"germany": {"submarine": 1, "transport": 1}}),
                           BattleOrders(defenders={"germany": PowerOrders(submerge="always")})),
    "cargo": (LOADED, BattleOrders()),
    "counted entry": (battle("land", "germany", {"germany": {"infantry": 1, "tank": 2}}, {"ussr": {"infantry": 2}}),
                      BattleOrders(PowerOrders(CasualtyOrder((("tank", 1), "infantry", "tank"))))),
    "counted battleship": (battle("sea", "usa", {"usa": {"destroyer": 2, "fighter": 1}},
                                  {"japan": {"destroyer": 1, "battleship": 1}}),
                           BattleOrders(defenders={"japan": PowerOrders(CasualtyOrder(
                               (("battleship", 1), "destroyer"), damage_battleships_first=False))})),
}


class _NeedDice(Exception):
    def __init__(self, n: int) -> None:
        self.n = n


def _copy(board: Board) -> Board:
    return Board(list(board.attackers), list(board.defenders), board.round, board.over,
                 {k: list(v) for k, v in board.submerged.items()}, list(board.retreated),
                 {k: list(v) for k, v in board.casualties.items()})


def _units(pieces) -> tuple:
    return tuple(sorted((p.type, p.owner, p.damaged, tuple((c.type, c.owner) for c in p.cargo)) for p in pieces))


def _end(board: Board, rules: CombatRules) -> tuple:
    left_a = board.attackers + board.retreated + board.submerged["attacker"]
    left_d = board.defenders + board.submerged["defender"]
    return (battle_winner(board.attackers, board.defenders), tuple(count_units(rules, left_a).items()),
            tuple(count_units(rules, left_d).items()))


def brute_force(b: Battle, orders: BattleOrders) -> tuple[dict[tuple, float], float]:
    """Every die of every round, through rounds.fight_round; returns P(end) and E[rounds]."""
    last = max(2, orders.retreat.after_round or 1) - 1  # rounds fought beyond this behave alike
    solved: dict[tuple, tuple[dict[tuple, float], float]] = {}

    def key(board: Board) -> tuple:
        return (min(board.round, last), _units(board.attackers), _units(board.defenders),
                _units(board.submerged["attacker"]), _units(board.submerged["defender"]), _units(board.retreated))

    def one_round(board: Board) -> list[tuple[float, Board]]:
        out = []

        def explore(prefix: tuple[int, ...]) -> None:
            trial, used = _copy(board), [0]

            def roll(n: int) -> list[int]:
                if used[0] + n > len(prefix):
                    raise _NeedDice(n)
                used[0] += n
                return list(prefix[used[0] - n:used[0]])
            try:
                fight_round(b, orders, trial, roll)
            except _NeedDice as need:
                for more in itertools.product(range(1, 7), repeat=need.n):
                    explore(prefix + more)
                return
            out.append((6.0 ** -len(prefix), trial))
        explore(())
        return out

    def solve(board: Board) -> tuple[dict[tuple, float], float]:
        k = key(board)
        if k not in solved:
            ends: dict[tuple, float] = defaultdict(float)
            stay, rounds = 0.0, 1.0
            for p, nxt in one_round(board):
                if nxt.over:
                    ends[_end(nxt, b.rules)] += p
                elif key(nxt) == k:
                    stay += p
                else:
                    nxt.round = min(nxt.round, last)
                    sub_ends, sub_rounds = solve(nxt)
                    rounds += p * sub_rounds
                    for e, q in sub_ends.items():
                        ends[e] += p * q
            solved[k] = ({e: q / (1 - stay) for e, q in ends.items()}, rounds / (1 - stay))
        return solved[k]

    return solve(Board.start(b))


def _ends(odds: Odds) -> dict[tuple, float]:
    return {(s.winner, tuple(s.attackers.items()), tuple(s.defenders.items())): s.probability for s in odds.stacks}


EUROPE = edition("aa-europe").combat


def europe(kind, attacker, attackers, defenders, **kw) -> CombatBattle:
    """A battle under Europe's steps (first strike by attackers only, submerging instead of firing,
    aircraft that need a destroyer to hit submarines, bombarded units that fire back)."""
    return CombatBattle("b1", "X", kind, attacker, make_pieces(EUROPE, attackers), make_pieces(EUROPE, defenders, 100),
                        aa_casualties="attacker_chooses", rules=EUROPE, **kw)


EUROPE_SMALL = {  # Europe's own steps, every die enumerated through fight_round
    "first strike, no destroyer": (europe("sea", "germany", {"germany": {"submarine": 2}},
                                          {"uk": {"transport": 1, "fighter": 1, "carrier": 1}}), BattleOrders()),
    "first strike against a destroyer": (europe("sea", "germany", {"germany": {"submarine": 2}},
                                                {"usa": {"battleship": 1, "destroyer": 1}}), BattleOrders()),
    "aircraft and a submarine": (europe("sea", "usa", {"usa": {"fighter": 1, "carrier": 1}},
                                        {"germany": {"transport": 1, "submarine": 1}}), BattleOrders()),
    "aircraft with a destroyer": (europe("sea", "uk", {"uk": {"fighter": 1, "destroyer": 1}},
                                         {"germany": {"submarine": 2}}),
                                  BattleOrders(defenders={"germany": PowerOrders(submerge="always")})),
    "attacker submerges at step 2": (europe("sea", "germany", {"germany": {"submarine": 1, "destroyer": 1}},
                                            {"uk": {"destroyer": 1}}),
                                     BattleOrders(PowerOrders(submerge="when_alone"))),
    "defender submerges with a destroyer there": (europe("sea", "uk", {"uk": {"destroyer": 2}},
                                                         {"germany": {"submarine": 1, "transport": 1}}),
                                                  BattleOrders(defenders={"germany": PowerOrders(submerge="when_alone")})),
    "bombarded units fire back": (europe("land", "uk", {"uk": {"tank": 1, "fighter": 1}}, {"germany": {"infantry": 2}},
                                         amphibious=True, bombarding=make_pieces(EUROPE, {"uk": {"destroyer": 1}}, 300)),
                                  BattleOrders(retreat=RetreatRule(after_round=2))),
    "aa gun": (europe("land", "germany", {"germany": {"infantry": 1, "fighter": 1}}, {"ussr": {"infantry": 1}},
                      aa_gun="ussr"), BattleOrders()),
    "aa gun and counted entries": (europe("land", "germany", {"germany": {"infantry": 2, "fighter": 1}},
                                          {"ussr": {"infantry": 1}}, aa_gun="ussr"),
                                   BattleOrders(PowerOrders(CasualtyOrder(
                                       (("infantry", 1), ("fighter", 1), "infantry"))))),
}


@pytest.fixture(params=["cells", "rows"])
def walk(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both walks of the chain: cell by cell (small battles) and row by row with numpy."""
    if request.param == "rows":
        monkeypatch.setattr(odds, "CELL_WALK_UP_TO", 0)
    return request.param


@pytest.mark.parametrize("name", [*SMALL, *(f"europe: {n}" for n in EUROPE_SMALL)])
def test_exact_odds_equal_brute_force(name: str, walk: str) -> None:
    b, orders = SMALL[name] if name in SMALL else EUROPE_SMALL[name.removeprefix("europe: ")]
    expected, rounds = brute_force(b, orders)
    odds = battle_odds(b, orders, top=10_000)
    actual = _ends(odds)
    assert set(actual) == {e for e, p in expected.items() if p > 0}
    for end, p in expected.items():
        assert actual.get(end, 0.0) == pytest.approx(p, abs=1e-9), end
    assert odds.expected_rounds == pytest.approx(rounds, abs=1e-9)
    assert odds.attacker_wins + odds.defender_holds + odds.draw == pytest.approx(1.0, abs=1e-12)


MEDIUM = {  # (battle, orders) for the comparison with simulation
    "land mixed with aa": (battle("land", "germany", {"germany": {"infantry": 4, "artillery": 2, "tank": 2,
                                                                  "fighter": 2, "bomber": 1}},
                                  {"ussr": {"infantry": 6, "artillery": 1, "tank": 1, "fighter": 1}}, aa_gun="ussr"),
                           BattleOrders()),
    "sea subs destroyers carriers": (battle("sea", "japan", {"japan": {"battleship": 1, "destroyer": 1, "submarine": 2,
                                                                       "carrier": 1, "fighter": 2, "transport": 1}},
                                            {"usa": {"destroyer": 1, "submarine": 2, "carrier": 1, "fighter": 2,
                                                     "transport": 2}}), BattleOrders()),
    "amphibious bombardment": (battle("land", "japan", {"japan": {"infantry": 3, "artillery": 1, "fighter": 1}},
                                      {"usa": {"infantry": 4}}, amphibious=True, aa_gun="usa",
                                      bombarding=[Piece(300, "battleship", "japan"), Piece(301, "destroyer", "japan")],
                                      developments={"japan": frozenset({"combined_bombardment"})}),
                               BattleOrders(retreat=RetreatRule(when_weaker=True))),
    "heavy bombers and jets": (battle("land", "germany", {"germany": {"bomber": 2, "tank": 3}},
                                      {"uk": {"infantry": 3, "fighter": 2}, "usa": {"infantry": 2}}, aa_gun="uk",
                                      developments={"germany": frozenset({"heavy_bombers"}),
                                                    "uk": frozenset({"jet_fighters"})}),
                               BattleOrders(retreat=RetreatRule(below_units=3))),
    "battleships and submerging": (battle("sea", "uk", {"uk": {"battleship": 2, "fighter": 1}},
                                          {"germany": {"battleship": 1, "submarine": 2, "transport": 1}},
                                          developments={"germany": frozenset({"super_submarines"})}),
                                   BattleOrders(defenders={"germany": PowerOrders(submerge="when_alone")})),
}


EUROPE_MEDIUM = {
    "europe: sea with subs, aircraft and destroyers": (
        europe("sea", "uk", {"uk": {"battleship": 1, "destroyer": 1, "fighter": 2, "submarine": 1}},
               {"germany": {"destroyer": 1, "submarine": 3, "transport": 1, "fighter": 1}}),
        BattleOrders(defenders={"germany": PowerOrders(submerge="when_alone")})),
    "europe: amphibious with bombardment and aa": (
        europe("land", "uk", {"uk": {"infantry": 3, "tank": 1, "fighter": 1, "bomber": 1}},
               {"germany": {"infantry": 4, "artillery": 1}}, amphibious=True, aa_gun="germany",
               bombarding=make_pieces(EUROPE, {"uk": {"battleship": 1, "destroyer": 2}}, 300)),
        BattleOrders(retreat=RetreatRule(when_weaker=True))),
}


def side(rules: CombatRules, power: str, mix: dict[str, int], n: int, first_id: int) -> list[Piece]:
    """``n`` units of ``power`` in the proportions of ``mix`` (the rounding goes to its first type)."""
    counts = {unit: k * n // sum(mix.values()) for unit, k in mix.items()}
    counts[next(iter(mix))] += n - sum(counts.values())
    return make_pieces(rules, {power: counts}, first_id)


def large(rules: CombatRules, kind: str, attack: dict, defence: dict, n: int, **kw) -> CombatBattle:
    return CombatBattle("b1", "X", kind, "germany", side(rules, "germany", attack, n, 1),
                        side(rules, "uk", defence, n, 10_000), rules=rules, **kw)


LAND_ATTACK = {"infantry": 6, "artillery": 3, "tank": 3}
LAND_DEFENCE = {"infantry": 8, "artillery": 2, "tank": 2}
AIR_ATTACK = {"infantry": 5, "artillery": 2, "tank": 3, "fighter": 2}
SEA_ATTACK = {"submarine": 3, "destroyer": 3, "carrier": 1, "battleship": 1, "transport": 1, "fighter": 3}
SEA_DEFENCE = {"submarine": 2, "destroyer": 3, "carrier": 2, "battleship": 1, "transport": 1, "fighter": 3}
LARGE = {  # beyond what the engine before issue 13 could do in a turn (about 57 units a side)
    "land 80 a side": (large(RULES, "land", LAND_ATTACK, LAND_DEFENCE, 80), BattleOrders()),
    "land and air 60 a side, AA gun": (large(RULES, "land", AIR_ATTACK, LAND_DEFENCE, 60, aa_gun="uk"), BattleOrders()),
    "sea 40 a side, every kind of ship": (large(RULES, "sea", SEA_ATTACK, SEA_DEFENCE, 40), BattleOrders()),
    "europe: land and air 60 a side, retreat after round 3": (
        large(EUROPE, "land", AIR_ATTACK, LAND_DEFENCE, 60, aa_gun="uk", aa_casualties="attacker_chooses"),
        BattleOrders(retreat=RetreatRule(after_round=3))),
}


@pytest.mark.parametrize("name", [*MEDIUM, *EUROPE_MEDIUM, *LARGE])
def test_exact_odds_agree_with_simulation(name: str) -> None:
    b, orders = {**MEDIUM, **EUROPE_MEDIUM, **LARGE}[name]
    n = 1200 if name in LARGE else 4000
    exact, sim = battle_odds(b, orders), simulate(b, orders, n, seed=20240)
    for field in ("attacker_wins", "defender_holds", "draw", "retreats", "captures"):
        p, q = getattr(exact, field), getattr(sim, field)
        sigma = math.sqrt(max(p * (1 - p), 1e-4) / n)
        assert abs(p - q) < 4.5 * sigma, (field, p, q)
    assert sim.expected_rounds == pytest.approx(exact.expected_rounds, rel=0.05)
    for side in ("attacker", "defender"):
        assert sim.expected_ipc_lost[side] == pytest.approx(exact.expected_ipc_lost[side], rel=0.06, abs=0.3)


def test_hit_distribution_is_the_binomial_convolution() -> None:
    dist = hit_distribution([Volley("attack", "attacker", "uk", "tank", 3, 2, "any"),
                             Volley("attack", "attacker", "uk", "fighter", 1, 1, "any")])
    assert dist == pytest.approx([0.25 * 5 / 6, 0.25 / 6 + 0.5 * 5 / 6, 0.5 / 6 + 0.25 * 5 / 6, 0.25 / 6])
    assert sum(hit_distribution([Volley("attack", "attacker", "uk", "tank", 3, 30, "any")])) == pytest.approx(1.0)


@pytest.mark.parametrize("value", [0, 1, 3, 6])
def test_hit_distribution_of_thousands_of_dice(value) -> None:
    # past about 1,020 dice the binomial coefficients no longer fit a float
    dice = 5000
    dist = hit_distribution([Volley("attack", "attacker", "germany", "infantry", value, dice, "any")])
    assert len(dist) == dice + 1 and sum(dist) == pytest.approx(1.0)
    assert sum(k * q for k, q in enumerate(dist)) == pytest.approx(dice * value / 6)


def test_a_battle_of_thousands_of_units_is_too_large_not_an_error() -> None:
    b = Battle("b1", "X", "land", "germany", make_pieces(RULES, {"germany": {"infantry": 1100, "tank": 1100}}),
               make_pieces(RULES, {"ussr": {"infantry": 1200}}, 10_000))
    result = resolve_battle(b, BattleOrders(), lambda n: [1] * n)
    with pytest.raises(BattleTooLarge):
        battle_luck(b, BattleOrders(), result, max_work=10_000)


def assert_same_odds(odds: Odds, other: Odds) -> None:
    """Equal figures, up to the rounding of two ways of summing the same probabilities."""
    def figures(o: Odds) -> dict:
        flat = {name: getattr(o, name) for name in ("attacker_wins", "captures", "defender_holds", "draw",
                                                     "retreats", "expected_rounds")}
        flat |= {("lost", side): v for side, v in o.expected_ipc_lost.items()}
        flat |= {(side, unit): n for side, units in o.expected_survivors.items() for unit, n in units.items()}
        flat |= {(s.winner, tuple(s.attackers.items()), tuple(s.defenders.items())): s.probability for s in o.stacks}
        return flat
    assert figures(odds) == pytest.approx(figures(other), abs=1e-12)


def test_retreat_below_a_win_chance(walk: str) -> None:
    b = battle("land", "germany", {"germany": {"infantry": 3, "tank": 1}}, {"ussr": {"infantry": 4, "artillery": 1}})
    plain = battle_odds(b)
    assert_same_odds(battle_odds(b, retreat_below=0.0), plain)
    # Below 1, every state short of a sure win retreats: the same as retreating after round 1.
    after_round_1 = BattleOrders(retreat=RetreatRule(after_round=1))
    assert_same_odds(battle_odds(b, retreat_below=1.0), battle_odds(b, after_round_1))
    cautious = battle_odds(b, retreat_below=0.4)
    assert 0 < cautious.retreats < 1
    assert cautious.attacker_wins <= plain.attacker_wins
    assert cautious.expected_ipc_lost["attacker"] < plain.expected_ipc_lost["attacker"]
    assert cautious.attacker_wins + cautious.defender_holds + cautious.draw == pytest.approx(1.0)


def test_cargo_counts_in_ipc_lost_not_in_survivors(walk: str) -> None:
    odds = battle_odds(LOADED)
    assert set(odds.expected_survivors["attacker"]) <= {"destroyer", "transport"}
    worst = 12 + 8 + 3 + 5
    assert 0 < odds.expected_ipc_lost["attacker"] < worst


def test_capture_needs_a_land_unit() -> None:
    air = battle_odds(battle("land", "uk", {"uk": {"fighter": 2}}, {"germany": {"infantry": 1}}))
    assert air.attacker_wins > 0.5 and air.captures == 0
    tanks = battle_odds(battle("land", "uk", {"uk": {"tank": 2}}, {"germany": {"infantry": 1}}))
    assert tanks.captures == pytest.approx(tanks.attacker_wins)


def test_stacks_are_sorted_and_simulation_reports_runs() -> None:
    b, orders = SMALL["land pairing"]
    stacks = battle_odds(b, orders).stacks
    assert [s.probability for s in stacks] == sorted((s.probability for s in stacks), reverse=True)
    sim = simulate(b, orders, 50, seed=1)
    assert sim.method == "simulation" and sim.runs == 50
    assert simulate(b, orders, 50, seed=1) == sim


def test_luck_ranks_a_retreat_by_what_was_saved(walk: str) -> None:
    # A tank against an infantry, retreating after round 1: it wins 1/2 * 2/3, both die 1/2 * 1/3,
    # it retreats intact 1/2 * 2/3 (a defender hold, but better than losing the tank), it dies 1/6.
    b = battle("land", "germany", {"germany": {"tank": 1}}, {"ussr": {"infantry": 1}})
    orders = BattleOrders(retreat=RetreatRule(after_round=1))
    expected = {(1, 6): 1 / 3, (1, 1): 1 / 3 + 1 / 6, (6, 6): 1 / 3 + 1 / 6 + 1 / 3, (6, 1): 1.0}
    for dice, as_good in expected.items():
        rolled = iter(dice)
        result = resolve_battle(b, orders, lambda n: [next(rolled) for _ in range(n)])
        luck = battle_luck(b, orders, result)
        assert (luck.attacker_wins, luck.draw, luck.defender_holds) == pytest.approx((1 / 3, 1 / 6, 1 / 2))
        assert luck.this_good_or_better == pytest.approx(as_good), dice
    with pytest.raises(BattleTooLarge):
        battle_luck(b, orders, result, max_work=0)


# --- the engine before issue 13 --------------------------------------------------------------------

def revised(kind: str, attackers: dict, defenders: dict, **kw) -> CombatBattle:
    return CombatBattle("b1", "X", kind, "germany", make_pieces(RULES, {"germany": attackers}),
                        make_pieces(RULES, defenders, 1000), rules=RULES, **kw)


def europe_battle(kind: str, attackers: dict, defenders: dict, **kw) -> CombatBattle:
    return CombatBattle("b1", "X", kind, "germany", make_pieces(EUROPE, {"germany": attackers}),
                        make_pieces(EUROPE, defenders, 1000), aa_casualties="attacker_chooses", rules=EUROPE, **kw)


# P(attacker wins), P(defender holds), P(draw), P(retreat), E[rounds] as the engine before issue 13
# (pair by pair in plain Python, commit a4acc7e) computed them.
BEFORE_ISSUE_13 = {
    "revised land 40 a side": (
        revised("land", {"infantry": 20, "artillery": 10, "tank": 10},
                {"ussr": {"infantry": 28, "artillery": 6, "tank": 6}}),
        BattleOrders(), (0.5037692836418658, 0.490774282384225, 0.005456433973915751, 0.0, 4.700175411509765)),
    "revised land and air against an AA gun": (
        revised("land", {"infantry": 12, "artillery": 4, "tank": 6, "fighter": 5, "bomber": 3},
                {"ussr": {"infantry": 20, "tank": 4, "fighter": 4}}, aa_gun="ussr"),
        BattleOrders(), (0.5436690721150663, 0.4447620793671598, 0.011568848517776488, 0.0, 3.7262078054891137)),
    "revised sea, every kind of ship": (
        revised("sea", {"submarine": 5, "destroyer": 4, "carrier": 2, "battleship": 2, "transport": 1, "fighter": 4},
                {"uk": {"submarine": 3, "destroyer": 5, "carrier": 2, "battleship": 2, "transport": 2, "fighter": 4}}),
        BattleOrders(), (0.20194074305978568, 0.7831436589074923, 0.014915598032723267, 0.0, 3.3846021874539)),
    "revised sea, no destroyers": (
        revised("sea", {"submarine": 6, "battleship": 2, "carrier": 1, "fighter": 2},
                {"uk": {"submarine": 4, "transport": 3, "carrier": 2, "fighter": 3}}),
        BattleOrders(PowerOrders(submerge="when_alone"), defenders={"uk": PowerOrders(submerge="always")}),
        (0.9225670602488882, 0.06427385968949882, 0.01315908006161431, 0.0, 2.9930948280165808)),
    "revised amphibious, retreat after round 2": (
        revised("land", {"infantry": 8, "tank": 4, "fighter": 3}, {"usa": {"infantry": 10, "artillery": 2}},
                amphibious=True, bombarding=make_pieces(RULES, {"germany": {"battleship": 2}}, 500)),
        BattleOrders(retreat=RetreatRule(after_round=2)),
        (0.924644478321204, 0.06971832067307264, 0.005637201005725032, 0.6792233632374681, 3.1476000840661427)),
    "revised retreat when weaker": (
        revised("land", {"infantry": 10, "artillery": 5, "tank": 5}, {"ussr": {"infantry": 16, "artillery": 4}}),
        BattleOrders(retreat=RetreatRule(when_weaker=True)),
        (0.6209962569254789, 0.37560217044317007, 0.003401572631354613, 0.3625507619527647, 3.4145906521318463)),
    "europe land and air, AA gun and bombardment": (
        europe_battle("land", {"infantry": 10, "artillery": 4, "tank": 4, "fighter": 3, "bomber": 1},
                      {"ussr": {"infantry": 16, "artillery": 3, "tank": 2}}, amphibious=True, aa_gun="ussr",
                      bombarding=make_pieces(EUROPE, {"germany": {"battleship": 1, "destroyer": 2}}, 500)),
        BattleOrders(), (0.8846030355584102, 0.11173508358437662, 0.0036618808572163753, 0.0, 3.763142009453291)),
    "europe sea with submarines": (
        europe_battle("sea", {"submarine": 4, "destroyer": 2, "battleship": 1, "fighter": 2},
                      {"uk": {"submarine": 2, "destroyer": 2, "carrier": 1, "fighter": 2, "transport": 2}}),
        BattleOrders(defenders={"uk": PowerOrders(submerge="when_alone")}),
        (0.6502755544596277, 0.31628397454529683, 0.03344047099507609, 0.0, 2.9872322939637397)),
}


@pytest.mark.parametrize("name", BEFORE_ISSUE_13)
def test_the_figures_of_the_engine_before_issue_13(name: str) -> None:
    b, orders, before = BEFORE_ISSUE_13[name]
    odds = battle_odds(b, orders)
    now = (odds.attacker_wins, odds.defender_holds, odds.draw, odds.retreats, odds.expected_rounds)
    assert now == pytest.approx(before, abs=1e-9)
    assert odds.error_bound < 1e-12


def test_a_dropped_state_is_counted_in_the_error_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    b, orders, _ = BEFORE_ISSUE_13["revised land and air against an AA gun"]
    exact = battle_odds(b, orders)
    monkeypatch.setattr(odds_sweep, "DROP_BELOW", 1e-4)
    rough = battle_odds(b, orders)
    assert 1e-6 < rough.error_bound < 0.5
    for field in ("attacker_wins", "defender_holds", "draw"):  # each at most the bound too low
        assert 0 <= getattr(exact, field) - getattr(rough, field) <= rough.error_bound + 1e-12, field
    assert rough.attacker_wins + rough.defender_holds + rough.draw == pytest.approx(1 - rough.error_bound, abs=1e-12)


def test_the_largest_battles_stay_within_a_turns_work_bound() -> None:
    from pbem.rulesets.axis_allies import combat_link
    b = large(RULES, "land", LAND_ATTACK, LAND_DEFENCE, 200)
    result = resolve_battle(b, BattleOrders(), lambda n: [(7 * i) % 6 + 1 for i in range(n)])
    luck = battle_luck(b, BattleOrders(), result, max_work=combat_link.MAX_ODDS_WORK)
    assert luck.attacker_wins + luck.draw + luck.defender_holds == pytest.approx(1, abs=1e-12)
    in_turn = combat_link.battle_luck(b, BattleOrders(), result)
    assert in_turn["this_good_or_better"] == round(luck.this_good_or_better, 6)


def test_counted_entry_is_neither_bare_order() -> None:
    """One tank, then the infantry, then the other tank: neither priority list of types gives its ends."""
    b, orders = SMALL["counted entry"]
    counted = _ends(battle_odds(b, orders, top=10_000))
    for types in (("tank", "infantry"), ("infantry", "tank")):
        assert _ends(battle_odds(b, BattleOrders(PowerOrders(CasualtyOrder(types))), top=10_000)) != counted
