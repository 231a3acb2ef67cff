"""Europe's movement facts that a turn catalogue case cannot show: what Revised keeps and refuses."""

from __future__ import annotations

from pbem.core.yamlio import parse_document
from pbem.rulesets import get_ruleset
from pbem.rulesets.axis_allies.edition import edition


def test_revised_keeps_its_transport_words():
    rules = edition("aa-revised").rules
    assert (rules.transport_room, rules.transport_room_in_full) == (
        "1 land unit + 1 infantry", "1 land unit of any type and 1 more infantry")


def test_revised_refuses_a_patriotic_war_order():
    revised = get_ruleset("aa-revised")
    state = revised.opening_state("test", {})
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    state["next_power"] = "ussr"
    orders = parse_document("power: ussr\npatriotic_war:\n  - {territory: Karelia S.S.R., power: uk, "
                            "units: {infantry: 1}}\n", "orders.yaml")
    problems = revised.check_orders(state, {state["next_power"]: orders}, {})
    assert [(p.line, p.field) for p in problems] == [(2, "patriotic_war")]
    assert "Patriotic War" in problems[0].message
