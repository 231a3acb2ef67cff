"""The QMG preview: a country's orders read back with each card's effect and targets, and which of
its own side's face-down Responses may fire; it reads only the country's view, so another side's hand
cannot change it."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from pbem.rulesets import get_ruleset

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "qmg"


def _turn() -> tuple[dict, dict]:
    state = yaml.safe_load((EXAMPLE / "38-r7-united_kingdom" / "state.yaml").read_text(encoding="utf-8"))
    orders = yaml.safe_load((EXAMPLE / "orders" / "39-r7-japan.yaml").read_text(encoding="utf-8"))
    return state, orders


def test_the_play_and_effects_read_back_with_their_targets_and_responses() -> None:
    rules = get_ruleset("qmg")
    state, orders = _turn()
    shown = rules.preview(rules.view_state(state, "japan"), orders, None, 0.5)
    assert shown["lines"][0] == "You play Sea Battle: you conduct a sea battle in Bay of Bengal against the United " \
                                "Kingdom."
    assert any("Surprise Attack" in line and "Conduct another sea battle" in line for line in shown["lines"])
    assert "Your face-down Response Destroyer Support may fire this turn." in shown["lines"]
    assert shown["warnings"] == []
    orders["effects"] = orders["effects"][:1]
    unnamed = rules.preview(rules.view_state(state, "japan"), orders, None, 0.5)
    assert unnamed["warnings"] == ["Your face-down Response Destroyer Support is named by no entry under `effects`: "
                                   "it is not used this turn."]


def test_the_preview_does_not_depend_on_the_other_sides_hand() -> None:
    rules = get_ruleset("qmg")
    state, orders = _turn()
    other = copy.deepcopy(state)
    uk, ussr = other["countries"]["united_kingdom"], other["countries"]["soviet_union"]
    uk["hand"], ussr["hand"] = ussr["hand"], uk["hand"]
    uk["responses"], uk["deck"] = uk["deck"][:1], uk["deck"][1:]
    assert other["countries"]["united_kingdom"] != state["countries"]["united_kingdom"]
    assert rules.preview(rules.view_state(state, "japan"), orders, None, 0.5) == \
        rules.preview(rules.view_state(other, "japan"), orders, None, 0.5)
