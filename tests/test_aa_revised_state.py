"""The position in memory, the canonical state, the opening setup and the state checks."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.core.yamlio import dump_yaml, parse_document
from pbem.rulesets import RULESETS, get_ruleset
from pbem.rulesets.axis_allies.state import Position
from pbem.rulesets.axis_allies.edition import edition

REVISED = edition("aa-revised")

RULES = get_ruleset("aa-revised")


def opening() -> dict:
    state = RULES.opening_state("test", {})
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    return state


def test_registry():
    assert "aa-revised" in RULESETS
    assert get_ruleset("aa-revised") is RULES
    assert RULES.powers == REVISED.board.powers
    try:
        get_ruleset("chess")
    except KeyError as exc:
        assert "aa-revised" in exc.args[0]
    else:
        raise AssertionError("an unknown ruleset must raise KeyError")


def test_opening_state_is_canonical_and_valid():
    state = opening()
    assert state["next_power"] == "ussr" and state["round"] == 1
    assert state["options"] == {o.name: o.default for o in REVISED.options if o.legacy is None}
    assert state["treasury"] == {"ussr": 24, "germany": 40, "uk": 30, "japan": 30, "usa": 42}
    assert Position.from_state(state, REVISED).to_state() == state
    assert dump_yaml(Position.from_state(state, REVISED).to_state()) == dump_yaml(state)
    assert RULES.check_state(parse_document(dump_yaml(state), "state.yaml")) == []


def test_opening_production_levels_match_the_starting_treasuries():
    pos = Position.from_state(opening(), REVISED)
    assert {p: pos.npl(p) for p in REVISED.board.powers} == {"ussr": 24, "germany": 40, "uk": 30, "japan": 30, "usa": 42}


def test_options_and_rulings_are_documented():
    names = [o.name for o in (*REVISED.options, *REVISED.rulings)]
    assert len(names) == len(set(names))
    for o in (*REVISED.options, *REVISED.rulings):
        assert o.default in o.allowed and o.text
    assert {o.name for o in REVISED.options} >= {"victory_cities", "research_rule", "noncombat_overfly", "bombardment_targets"}


def test_new_games_name_partial_retreat_and_older_games_keep_their_reading(tmp_path):
    """`pbem new` writes the rulebook reading; a game whose options do not name the option (made before
    it existed) keeps its opening state and plays the reading it was played with."""
    from pbem.core.game import new_game
    from pbem.rulesets.axis_allies.options import chosen_options

    folder = new_game("aa-revised", tmp_path / "g", "g", {})
    assert "partial_retreat: subs_submerge" in (folder / "game.yaml").read_text(encoding="utf-8")
    assert "partial_retreat" not in chosen_options(REVISED.options, {"victory_cities": 10})
    assert REVISED.option("partial_retreat").value_in({}) == "subs_with_fleet"
    assert chosen_options(REVISED.options, {"partial_retreat": "subs_submerge"})["partial_retreat"] == "subs_submerge"


def test_cargo_and_fighters_at_sea_round_trip():
    state = opening()
    state["units"]["SZ 2"] = {"uk": {"battleship": 1, "transport": 2}, "usa": {"transport": 1}}
    state["cargo"] = {"SZ 2": [{"transport": "usa", "units": {"uk": {"infantry": 1}}},
                               {"transport": "uk", "units": {"uk": {"infantry": 1, "tank": 1}}},
                               {"transport": "uk", "units": {"uk": {"infantry": 2}, "usa": {"tank": 0}}}]}
    state["cargo"]["SZ 2"][2]["units"] = {"uk": {"infantry": 2}}
    state["units"]["SZ 35"] = {"uk": {"fighter": 1, "carrier": 1}, "usa": {"fighter": 1}}
    pos = Position.from_state(state, REVISED)
    out = pos.to_state()
    assert out["cargo"]["SZ 2"] == [
        {"transport": "uk", "units": {"uk": {"infantry": 1, "tank": 1}}},
        {"transport": "uk", "units": {"uk": {"infantry": 2}}},
        {"transport": "usa", "units": {"uk": {"infantry": 1}}},
    ]
    assert out["units"]["SZ 35"] == {"uk": {"fighter": 1, "carrier": 1}, "usa": {"fighter": 1}}
    fighters = [u for u in pos.units_in("SZ 35", type="fighter")]
    assert all(u.aboard is not None for u in fighters)
    assert Position.from_state(out, REVISED).to_state() == out


def test_check_state_finds_bad_names_and_impossible_positions():
    state = opening()
    state["units"]["Atlantis"] = {"uk": {"infantry": 1}}
    state["units"]["SZ 7"] = {"uk": {"tank": 1}}
    state["units"]["Germany"]["germany"]["industrial_complex"] = 2
    state["units"]["SZ 8"] = {"germany": {"fighter": 1}}
    state["units"]["Turkey"] = {"uk": {"infantry": 1}}
    state["control"].pop("India")
    state["cargo"] = {"SZ 9": [{"transport": "uk", "units": {"uk": {"tank": 2}}}]}
    problems = RULES.check_state(parse_document(dump_yaml(state), "state.yaml"))
    text = "\n".join(map(str, problems))
    for expected in ("unknown space 'Atlantis'", "land units at sea", "at most one industrial complex",
                     "room on carriers for 0", "neutral territory", "India is missing",
                     "more cargo than one transport", "0 in SZ 9"):
        assert expected in text, text


def test_check_state_refuses_enemy_units_in_a_controlled_territory():
    state = opening()
    state["units"]["Karelia S.S.R."]["germany"] = {"tank": 2}  # Karelia is the USSR's
    state["units"]["United Kingdom"]["usa"] = {"infantry": 1}  # an ally of the UK, its controller: allowed
    problems = RULES.check_state(parse_document(dump_yaml(state), "state.yaml"))
    assert [(p.field, p.message, p.allowed) for p in problems] == [(
        "units.Karelia S.S.R..germany",
        "germany units stand in Karelia S.S.R., which ussr controls: between turns a territory holds only "
        "units of its controller and its allies", "units of powers on ussr's side")]


def test_check_state_refuses_more_units_than_a_game_can_build():
    state = opening()
    state["units"]["Germany"]["germany"]["infantry"] = 4000
    assert RULES.check_state(parse_document(dump_yaml(state), "state.yaml")) == []
    state["cargo"] = {"SZ 7": [{"transport": "germany", "units": {"germany": {"infantry": 1, "tank": 1}}}]}
    state["units"].setdefault("SZ 7", {})["germany"] = {"transport": 1}
    state["units"]["Russia"]["ussr"]["infantry"] = 10**12
    problems = RULES.check_state(parse_document(dump_yaml(state), "state.yaml"))
    assert [(p.field, p.allowed) for p in problems] == [("units", "5,000 units or fewer, cargo included")]
    assert "1,000,000,004,202 units on the board" in problems[0].message


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(REVISED.board.territories)),
                       st.dictionaries(st.sampled_from(["infantry", "tank", "artillery"]), st.integers(1, 30),
                                       min_size=1),
                       max_size=8),
       st.permutations(list(REVISED.board.powers)))
def test_writing_is_canonical_whatever_the_input_order(extra, powers):
    state = opening()
    for space, counts in extra.items():
        if REVISED.board.is_neutral(space):
            continue
        owner = state["control"][space]
        state["units"][space] = {owner: dict(counts)}
    shuffled = copy.deepcopy(state)
    shuffled["units"] = dict(reversed(list(shuffled["units"].items())))
    shuffled["treasury"] = {p: shuffled["treasury"][p] for p in powers}
    a = dump_yaml(Position.from_state(state, REVISED).to_state())
    b = dump_yaml(Position.from_state(shuffled, REVISED).to_state())
    assert a == b


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(["SZ 2", "SZ 3", "SZ 5", "SZ 7"]),
                          st.booleans()), max_size=40))
def test_units_by_space_follow_every_move_and_removal(steps):
    """`units_in` reads the position's index of units by space: whatever pieces move (cargo with its
    transport, or a piece set down directly) or leave the board, it gives what a look at every piece does."""
    pos = Position.from_state(opening(), REVISED)
    for pick, zone, remove in steps:
        unit = list(pos.all_units())[pick % len(pos.units)]
        if remove:
            pos.remove(unit)
        elif unit.aboard is None:
            pos.move_unit(unit, zone)
        else:
            unit.space = zone
    for space in {u.space for u in pos.all_units()}:
        every = [u for u in pos.all_units() if u.space == space]
        assert pos.units_in(space, include_cargo=True) == every
