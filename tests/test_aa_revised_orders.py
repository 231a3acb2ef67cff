"""Illegal orders are reported with file, line and field, every one of them, not just the first."""

from __future__ import annotations

import pytest

from pbem.core.yamlio import parse_document
from pbem.rulesets import get_ruleset
from pbem.rulesets.axis_allies.edition import edition

REVISED = edition("aa-revised")

RULES = get_ruleset("aa-revised")


def opening(next_power: str = "germany", **changes) -> dict:
    state = RULES.opening_state("test", {})
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    state["next_power"] = next_power
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(state.get(key), dict):
            state[key].update(value)
        else:
            state[key] = value
    return state


def problems_of(text: str, state: dict | None = None, standing: dict[str, str] | None = None):
    doc = parse_document(text, "orders.yaml")
    docs = {p: parse_document(t, f"standing-{p}.yaml") for p, t in (standing or {}).items()}
    state = state or opening()
    return RULES.check_orders(state, {state["next_power"]: doc}, docs)


def find(problems, field: str, text: str = ""):
    hits = [p for p in problems if p.field == field and text.lower() in p.message.lower()]
    assert hits, f"no problem at {field} with {text!r} among:\n" + "\n".join(map(str, problems))
    return hits[0]


MANY_MISTAKES = """\
power: germany
round: 1
research: {development: jet fighter, dice: 1}
purchase: {infantery: 2, tank: 1}
combat_move:
  - units: {tank: 1}
    from: Ukrain
    path: [Caucasus]
  - units: {infantry: 3}
    from: West Russia
    path: [Caucasus, Russia]
  - units: {tank: 2}
    from: Libya
    path: [Anglo-Egypt]
  - units: {fighter: 1}
    from: Germany
    path: [Switzerland, Western Europe]
  - units: {destroyer: 1}
    from: SZ 5
    path: [SZ 7]
noncombat_move:
  - units: {infantry: 1}
    from: Germany
    path: [Balkans, Ukraine S.S.R.]
place:
  - at: Western Europe
    units: {tank: 1}
"""


def test_every_problem_is_listed_with_line_and_field():
    problems = problems_of(MANY_MISTAKES)
    text = "\n".join(map(str, problems))
    assert find(problems, "purchase.infantery", "unknown unit type").line == 4
    assert "did you mean 'infantry'" in find(problems, "purchase.infantery").message
    assert find(problems, "combat_move[0].from", "did you mean 'Ukraine S.S.R.'").line == 7
    assert find(problems, "combat_move[1].path", "moves 1 space").line == 11
    assert find(problems, "combat_move[2].units.tank", "only 1 tank").line == 12
    assert find(problems, "combat_move[3].path[0]", "Switzerland is neutral").line == 17
    assert find(problems, "combat_move[4].path[0]", "does not border SZ 5").line == 20
    assert find(problems, "noncombat_move[0].path", "moves 1 space").line == 24
    assert find(problems, "place[0].at", "cannot mobilize in Western Europe").line == 26
    assert all(p.file == "orders.yaml" for p in problems), text
    assert [p.line for p in problems] == sorted(p.line for p in problems), "problems come in document order"
    assert len(problems) == 8, text


def test_the_research_name_is_read_loosely():
    problems = problems_of("power: germany\nresearch: {development: Jet Fighters, dice: 1}\n")
    assert problems == []


def test_orders_of_the_wrong_power_or_round():
    problems = problems_of("power: japan\n")
    p = find(problems, "power", "it is germany's turn")
    assert p.line == 1 and p.allowed == "germany"
    p = find(problems_of("power: germany\nround: 3\n"), "round", "round 3")
    assert p.line == 2
    p = find(problems_of("power: prussia\n"), "power", "unknown power")
    assert p.allowed and "germany" in p.allowed


@pytest.mark.parametrize("name, expected", [
    ("sz5", "SZ 5"), ("Sea Zone 5", "SZ 5"), ("5 Sea Zone", "SZ 5"), ("anglo egypt", "Anglo-Egypt"),
    ("Philipine Islands", "Philippine Islands"), ("karelia ssr", "Karelia S.S.R."), ("Moscow", "Russia"),
])
def test_space_spellings(name, expected):
        assert REVISED.board.space_names.get(name) == expected


@pytest.mark.parametrize("name, expected", [
    ("armour", "tank"), ("AA", "aa_gun"), ("ic", "industrial_complex"), ("Battleships", "battleship"),
    ("subs", "submarine"), ("cv", "carrier"), ("Antiaircraft Gun", "aa_gun"),
])
def test_unit_spellings(name, expected):
        assert REVISED.units.unit_names.get(name) == expected


@pytest.mark.parametrize("edition_name", ["aa-revised", "aa-europe"])
def test_every_map_label_reads_as_its_unit(edition_name):
    """What the map and its legend write (Europe's `arm`, `tr`) is accepted in orders (issue 26)."""
    units = edition(edition_name).units
    assert {t.label: units.unit_names.get(t.label) for t in units.types.values()} == \
        {t.label: t.id for t in units.types.values()}


def test_research_problems():
    state = opening(developments={"germany": ["rockets"]})
    problems = problems_of("power: germany\nresearch: {development: rockets, dice: 9}\n", state)
    find(problems, "research.development", "already has rockets")
    find(problems, "research.dice", "the research dice cost 45 IPCs; Germany has 40")
    find(problems_of("power: germany\nresearch: {development: warp drive, dice: 1}\n"),
         "research.development", "unknown development")


def test_purchase_over_treasury_counts_research():
    problems = problems_of("power: germany\nresearch: {development: rockets, dice: 2}\npurchase: {tank: 7}\n"
                           "place: [{at: Germany, units: {tank: 7}}]\n")
    p = find(problems, "purchase", "45 IPCs in all")
    assert p.line == 3


def test_bombing_raid_needs_an_enemy_complex():
    problems = problems_of("""\
power: germany
combat_move:
  - units: {bomber: 1}
    from: Germany
    path: [Eastern Europe, Karelia S.S.R.]
    bombing_raid: true
""")
    find(problems, "combat_move[0].path[1]", "no enemy industrial complex")


def test_bombing_raid_on_an_enemy_complex_is_legal():
    problems = problems_of("""\
power: germany
combat_move:
  - units: {bomber: 1}
    from: Germany
    path: [Eastern Europe, Belorussia, West Russia, Russia]
    bombing_raid: true
""")
    assert problems == []


def test_noncombat_moves_stay_in_friendly_spaces():
    problems = problems_of("""\
power: germany
noncombat_move:
  - units: {infantry: 1}
    from: Ukraine S.S.R.
    path: [Caucasus]
  - units: {fighter: 1}
    from: Ukraine S.S.R.
    path: [Caucasus]
  - units: {destroyer: 1}
    from: SZ 5
    path: [SZ 6, SZ 3, SZ 2]
""")
    find(problems, "noncombat_move[0].path[0]", "Caucasus is not friendly")
    find(problems, "noncombat_move[1].path[0]", "may not land in Caucasus: it is hostile")
    find(problems, "noncombat_move[2].path", "moves 2 sea zones")


def test_noncombat_overfly_option_forbid():
    state = opening(options={"noncombat_overfly": "forbid"})
    text = """\
power: germany
noncombat_move:
  - units: {fighter: 1}
    from: Ukraine S.S.R.
    path: [Caucasus, West Russia]
"""
    find(problems_of(text, state), "noncombat_move[0].path[0]", "noncombat_overfly = forbid")
    assert problems_of(text) == []


def test_conditions_name_battles_of_this_turn():
    problems = problems_of("""\
power: germany
noncombat_move:
  - units: {infantry: 1}
    from: Belorussia
    path: [West Russia]
    if: {Karelia S.S.R.: captured}
""")
    find(problems, "noncombat_move[0].if.Karelia S.S.R.", "no battle in Karelia S.S.R.")


def test_conditional_moves_are_checked_for_the_hoped_outcome():
    state = opening()
    state["units"]["Karelia S.S.R."] = {}
    text = """\
power: germany
combat_move:
  - units: {infantry: 1}
    from: Belorussia
    path: [Karelia S.S.R.]
noncombat_move:
  - units: {infantry: 1}
    from: Eastern Europe
    path: [Karelia S.S.R.]
    if: {Karelia S.S.R.: captured}
  - units: {infantry: 1}
    from: Eastern Europe
    path: [Balkans, Ukraine S.S.R.]
    if: {Karelia S.S.R.: not_captured}
"""
    problems = problems_of(text, state)
    # the first is legal once Karelia is taken; the second is checked as far as it can be and the
    # path is too long only to be noticed when it is carried out: its adjacency is fine
    assert problems == []


def test_battle_decisions_name_attacks_and_legal_retreats():
    problems = problems_of("""\
power: germany
combat_move:
  - units: {infantry: 3, artillery: 1, tank: 1}
    from: Ukraine S.S.R.
    path: [Caucasus]
battles:
  Caucasus:
    retreat: {to: Belorussia, when_weaker: true}
  India:
    casualty_order: [infantry]
battle_order: [Caucasus, Persia]
""")
    find(problems, "battles.Caucasus.retreat.to", "adjacent friendly space")
    find(problems, "battles.India", "no attack on India")
    find(problems, "battle_order[1]", "no attack on Persia")


def test_standing_orders_are_checked():
    problems = problems_of("power: germany\n", standing={
        "uk": "power: uk\ncasualty_order: [infantry, tankz]\nspaces:\n  Londn: {submerge: always}\n",
        "ussr": "power: sovietz\n",
    })
    find(problems, "casualty_order[1]", "did you mean 'tank'")
    find(problems, "spaces.Londn", "unknown space")
    find(problems, "power", "unknown power")
    assert {p.file for p in problems} == {"standing-uk.yaml", "standing-ussr.yaml"}


def test_check_orders_does_not_change_the_state():
    state = opening()
    import copy
    before = copy.deepcopy(state)
    problems_of(MANY_MISTAKES, state)
    assert state == before
