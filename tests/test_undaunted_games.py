"""Whole Undaunted: Stalingrad games played by the engine with players who try anything: every
exchange keeps the rules' bookkeeping (no card lost or doubled, a valid state), and no side's view
or public event ever names a card the other side holds hidden."""

from __future__ import annotations

import json
import re

import pytest

from pbem.core.dice import DiceStream
from pbem.core.events import EventLog
from pbem.core.schemas import validate
from pbem.core.yamlio import dump_yaml, parse_document
from pbem.rulesets.undaunted import Undaunted
from pbem.rulesets.undaunted.content import SIDES, other_side
from undaunted_play import RULESET, documents, play
HIDDEN_ZONES = ("hand", "deck", "discard", "casualties")
CARD_ID = re.compile(r"\b[SN]-[PZVR]-\d{3}\b")
SHOWN = ("card_played", "fog_set_aside", "card_returned", "bolstered", "action_of_card")
"""Public events that show the card they move, as the table shows it."""


def _shown(events: list[dict]) -> set[str]:
    """Cards the exchange showed on the table: played, bid, set aside, taken from the supply."""
    cards = {e["card"] for e in events if e["type"] in SHOWN}
    return cards | {b["card"] for e in events if e["type"] == "bids_revealed" for b in e["bids"].values() if b["card"]}


def _hidden(state: dict, side: str) -> set[str]:
    return {c for zone in HIDDEN_ZONES for c in state["sides"][side][zone]}


def _check_bookkeeping(state: dict) -> None:
    for side in SIDES:
        zones = state["sides"][side]
        placed = [c for zone in zones.values() for c in zone]
        assert len(placed) == len(set(placed)), f"a {side} card is in two zones"
        assert set(placed) <= set(state["campaign"]["available"][side]) | set(zones["removed"]), \
            f"a {side} card in play is not among its available cards"
    assert not validate("state", parse_document(dump_yaml(state), "state.yaml"), RULESET.schema_package)


@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_the_books_and_the_secrets(seed: int) -> None:
    for step in play(seed, 60, steady=0):
        before, after = step.exchange.state, step.after
        _check_bookkeeping(after)
        for side in SIDES:
            enemy = other_side(side)
            secret = (_hidden(before, enemy) & _hidden(after, enemy)) - _shown(step.events)
            seen = json.dumps(RULESET.view(after, side))
            assert not secret & set(CARD_ID.findall(seen)), f"{side}'s view names a hidden {enemy} card"
            for event in step.events:
                if "to" in event and side not in event["to"]:
                    continue
                named = set(CARD_ID.findall(json.dumps(event)))
                assert not secret & named, f"{side} sees {event} naming a hidden {enemy} card"


@pytest.mark.parametrize("seed", range(4))
def test_steady_players_finish_a_scenario(seed: int) -> None:
    steps = list(play(seed, 200, steady=1))
    for step in steps:
        _check_bookkeeping(step.after)
    assert any(e["type"] == "scenario_won" for step in steps for e in step.events)


def test_a_state_naming_what_the_pack_lacks_is_refused() -> None:
    state = RULESET.opening_state("broken", {}, DiceStream("00" * 32, "opening"))
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    state["units"]["german"]["XYZ"] = {"tile": "999", "suppressed": False, "routed": False}
    state["sides"]["soviet"]["hand"].append(state["sides"]["soviet"]["deck"][0])
    state["fire_lanes"]["soviet"]["RIF-A"] = "504"
    text = "\n".join(str(p) for p in RULESET.check_state(parse_document(dump_yaml(state), "state.yaml")))
    assert "'XYZ' is not a german unit" in text
    assert "tile 999 is not on the map" in text
    assert "is in 2 zones" in text
    assert "'RIF-A' is not a Machine Gunners unit of soviet" in text
    fine = RULESET.opening_state("fine", {}, DiceStream("00" * 32, "opening"))
    assert not RULESET.check_state(parse_document(dump_yaml(fine), "state.yaml"))


def test_a_story_merges_two_squads_into_one_token() -> None:
    """A story's merge lasts for the campaign: the next scenario has one token per unit type for the
    two squads, bearing both letters, and the merged-in squad's cards belong to it."""
    from dataclasses import replace

    from pbem.rulesets.undaunted.content import Story
    ruleset = Undaunted()
    story = ruleset.pack.stories["2a"]
    ruleset.pack = replace(ruleset.pack, stories=ruleset.pack.stories | {"2a": Story(
        story.scenario, story.unlock, story.replace, {"soviet": ["A", "B"]})})
    state = ruleset.opening_state("merge", {}, DiceStream("00" * 32, "opening"))
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    bids = documents({side: {"side": side, "bid": state["sides"][side]["hand"][0]} for side in SIDES})
    state = ruleset.resolve(state, bids, {}, DiceStream("00" * 32, "d"), EventLog(), DiceStream("00" * 32, "h"))
    loser = other_side("soviet")
    if state["next_power"] != loser:  # let the Soviets end their turn so that the Germans may withdraw
        state = ruleset.resolve(state, documents({"soviet": {"side": "soviet"}}), {}, DiceStream("00" * 32, "d2"),
                                EventLog(), DiceStream("00" * 32, "h2"))
    log = EventLog()
    state = ruleset.resolve(state, documents({loser: {"side": loser, "withdraw": True}}), {},
                            DiceStream("00" * 32, "d3"), log, DiceStream("00" * 32, "h3"))
    assert state["campaign"]["merged"]["soviet"] == [["A", "B"]]
    assert "RIF-B" not in state["units"]["soviet"] and "RIF-A" in state["units"]["soviet"]
    pack = ruleset.pack_for(state)
    assert pack.units["soviet"]["RIF-A"].label == "Riflemen (A+B)"
    assert pack.cards["S-P-009"].unit == "RIF-A" and pack.cards["S-P-009"].squad == "A"
    assert any(e["type"] == "squads_merged" for e in log.events)
    assert not ruleset.check_state(parse_document(dump_yaml(state), "state.yaml"))
