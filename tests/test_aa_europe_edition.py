"""The Europe edition's data read through the family engine (editions/europe, issue 9).

Europe is not yet a ruleset players can choose; these tests check that the engine reads its data
and applies the rules it already carries to it: turn order, unit table, incomes.
"""

from __future__ import annotations

import pytest

from pbem.core.yamlio import parse_document
from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.state import Position
from pbem.rulesets.axis_allies.turn import check_turn

EUROPE = Edition("europe")


def opening(**changes) -> dict:
    setup = EUROPE.data("setup.yaml")
    state = {"format": "pbem-state/1", "ruleset": "aa-europe", "game": "test", "options": {}, "round": 1,
             "next_power": "germany", "dice": None, "treasury": dict(setup["treasury"]), "developments": {},
             "control": dict(setup["control"]), "units": setup["units"], "cargo": setup.get("cargo") or {},
             "winner": None}
    return state | changes


def test_europe_powers_and_turn_order() -> None:
    assert EUROPE.board.powers == ("germany", "ussr", "uk", "usa")  # seed l.372-379
    assert EUROPE.combat.turn_order == EUROPE.board.powers
    assert {p: EUROPE.board.side[p] for p in EUROPE.board.powers} == {
        "germany": "axis", "ussr": "allies", "uk": "allies", "usa": "allies"}
    assert EUROPE.units.developments == {}  # no weapons development in Europe


def test_starting_incomes_come_out_of_the_board() -> None:
    # seed l.350-358: USA 40, UK 25, Germany 40, USSR 24
    pos = Position.from_state(opening(), EUROPE)
    assert {p: pos.npl(p) for p in EUROPE.board.powers} == {"germany": 40, "ussr": 24, "uk": 25, "usa": 40}


def test_middle_east_and_convoys_held_by_germany_add_nothing_to_its_production() -> None:
    convoy = next(z for z, c in EUROPE.board.convoys.items() if c.original_owner == "uk")
    country = next(t for t, info in EUROPE.board.territories.items() if info.middle_east and info.ipc)
    before = Position.from_state(opening(), EUROPE)
    taken = Position.from_state(opening(control={**opening()["control"], convoy: "germany", country: "germany"}),
                                EUROPE)
    assert taken.npl("germany") == before.npl("germany")
    assert taken.npl("uk") == before.npl("uk") - EUROPE.board.ipc(convoy)
    assert EUROPE.board.ipc(convoy) > 0


@pytest.mark.parametrize("ed", [edition("aa-revised"), EUROPE], ids=["revised", "europe"])
def test_default_casualty_order_is_cheapest_first_weaker_at_equal_cost(ed: Edition) -> None:
    table = ed.units
    fighting = [t for t in table.types if table[t].battle_board]
    expected = sorted(fighting, key=lambda t: (table[t].cost, table[t].attack + table[t].defense))
    assert list(ed.combat.casualty_order) == expected


def test_an_industrial_complex_cannot_be_bought_in_europe() -> None:
    assert not EUROPE.units["industrial_complex"].buyable
    assert edition("aa-revised").units["industrial_complex"].buyable
    orders = parse_document("power: germany\npurchase: {industrial complex: 1}\n", "orders.yaml")
    problems = check_turn(EUROPE, opening(treasury={"germany": 40}), orders, {})
    assert any(p.field == "purchase.industrial_complex" and "cannot be bought in Axis & Allies Europe" in p.message
               for p in problems), problems


def test_reports_call_the_tank_armor_in_europe() -> None:
    assert EUROPE.words.units({"tank": 2}) == "2 armor"
    assert edition("aa-revised").words.units({"tank": 2}) == "2 tanks"


def test_no_ship_passes_the_turkish_straits() -> None:
    # seed l.320: ships may not pass Turkey's neutral waters between the Black Sea and the Aegean
    units = {**opening()["units"], "Black Sea": {"germany": {"destroyer": 1}}}
    orders = parse_document("power: germany\ncombat_move:\n  - {units: {destroyer: 1}, from: Black Sea, "
                            "path: [Aegean Sea]}\n", "orders.yaml")
    problems = check_turn(EUROPE, opening(units=units), orders, {})
    assert any(p.field == "combat_move[0].path[0]" and "Turkish Straits" in p.message and "closed to ships"
               in p.message for p in problems), problems
