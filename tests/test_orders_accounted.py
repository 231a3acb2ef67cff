"""Every item of a turn's orders ends in an event that names it (`order: FIELD`, the item's field as
problems name it) and says what became of it: carried out, partly, or not and why. Checked over every
catalogue case whose orders pass and every turn of the example games.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

import test_qmg_catalogue  # the catalogues' runners, as pytest imports them (tests/ on the path)
import test_turn_catalogue
import test_undaunted_catalogue
from pbem.rulesets import get_ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GAMES = ("aa-revised", "aa-europe", "qmg", "undaunted-stalingrad")


def _load(path: Path) -> dict[str, Any]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _example_turns(ruleset_id: str) -> list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]:
    """Each example turn: its name, its orders files and its events."""
    turns = []
    for turn in sorted((EXAMPLES / ruleset_id / "turns").glob("*.yaml")):
        spec = _load(turn)
        files = spec["orders"].values() if isinstance(spec["orders"], dict) else [spec["orders"]]
        events = [json.loads(line) for line in
                  (turn.parent / spec["output"] / "events.jsonl").read_text(encoding="utf-8").splitlines()]
        turns.append((f"examples/{ruleset_id}/{turn.stem}", [_load(turn.parent / f) for f in files], events))
    return turns


def _catalogue_turns(ruleset_id: str) -> list[tuple[str, list[dict[str, Any]], list[dict[str, Any]]]]:
    """Each catalogue case whose orders pass: its name, its orders and its events."""
    turns = []
    if ruleset_id == "qmg":
        for path in test_qmg_catalogue.CASES:
            case = _load(path)
            _, _, problems, log, after = test_qmg_catalogue._play(case)
            if after is not None:
                turns.append((path.stem, [case["orders"]], log.events))
    elif ruleset_id == "undaunted-stalingrad":
        for path in test_undaunted_catalogue.CASES:
            case = _load(path)
            _, problems, after, _, log = test_undaunted_catalogue._play(case)
            if after is not None:
                orders = case["orders"]
                bids = test_undaunted_catalogue.position(case)["phase"] == "bid"
                turns.append((path.stem, list(orders.values()) if bids else [orders], log.events))
    else:
        for path in test_turn_catalogue.CASES:
            if path.parents[1].name == ruleset_id:
                _, _, _, log, after = test_turn_catalogue.play_case(path)
                if after is not None:
                    turns.append((path.stem, [_load(path)["orders"]], log.events))
    return turns


def _unaccounted(ruleset_id: str) -> list[str]:
    ruleset = get_ruleset(ruleset_id)
    missing = []
    for name, orders, events in _example_turns(ruleset_id) + _catalogue_turns(ruleset_id):
        named = {e["order"] for e in events if "order" in e}
        missing += [f"{name}: {item}" for one in orders for item in ruleset.order_items(one) if item not in named]
    return missing


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_every_order_item_ends_in_an_event(ruleset_id: str) -> None:
    missing = _unaccounted(ruleset_id)
    assert not missing, "order items no event accounts for:\n" + "\n".join(missing)
