"""Europe's movement facts that a turn catalogue case cannot show: what Revised keeps."""

from __future__ import annotations

from pbem.rulesets.axis_allies import edition


def test_revised_keeps_its_transport_words():
    rules = edition("aa-revised").rules
    assert (rules.transport_room, rules.transport_room_in_full) == (
        "1 land unit + 1 infantry", "1 land unit of any type and 1 more infantry")
