"""Europe's strategic bombing raids where the turn catalogue cannot show them: orders refused in the
other edition, and the raid's air battle on its own (seed l.709-745)."""

from pbem.core.yamlio import parse_document
from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies.combat.battle import Piece
from pbem.rulesets.axis_allies.combat.raids import resolve_bombing_raid
from pbem.rulesets.axis_allies.orders import read_standing


def standing(edition_id: str, text: str):
    return read_standing(parse_document(text, "standing.yaml"), edition(edition_id))


def test_interceptors_are_read_by_territory_in_europe():
    orders, problems = standing("aa-europe", "power: uk\ninterceptors: {UK: 1, Egypt: all}\n")
    assert problems == [] and orders.interceptors == {"United Kingdom": 1, "Egypt": "all"}


def test_interceptors_are_refused_in_revised_with_file_line_and_field():
    orders, problems = standing("aa-revised", "power: uk\ninterceptors: {United Kingdom: 1}\n")
    assert orders.interceptors == {}
    [problem] = problems
    assert (problem.file, problem.line, problem.field) == ("standing.yaml", 2, "interceptors")
    assert "has no interceptors" in problem.message


def test_revised_standing_orders_decide_nothing_new():
    # the decisions dice are bound to stay as they were in Revised games
    from pbem.rulesets.axis_allies.orders import _plain
    orders, _ = standing("aa-revised", "power: uk\n")
    assert "interceptors" not in _plain(orders)


def test_a_raid_without_interceptors_or_aa_has_no_air_battle_and_no_cap_when_none_is_given():
    bomber = Piece(1, "bomber", "germany")
    result = resolve_bombing_raid("United Kingdom", [bomber], "uk", None, 20, lambda n: [6] * n, aa_gun=None)
    assert [e["type"] for e in result.events] == ["bombing"] and result.paid == 6
    assert "cap_per_bomber" not in result.events[0]


def test_escorts_need_the_casualty_choices():
    bomber, escort = Piece(1, "bomber", "germany"), Piece(2, "fighter", "germany")
    try:
        resolve_bombing_raid("United Kingdom", [bomber], "uk", None, 20, lambda n: [6] * n, aa_gun=None,
                             escorts=[escort])
    except ValueError as e:
        assert "casualty choices" in str(e)
    else:
        raise AssertionError("a raid with escorts and no choices was flown")
