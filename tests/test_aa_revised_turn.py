"""Whole turns with the real dice stream: the players' guide examples, determinism, state validity."""

from __future__ import annotations

import copy
import re
from pathlib import Path

from pbem.core.dice import DiceStream
from pbem.core.events import EventLog
from pbem.core.yamlio import dump_yaml, parse_document
from pbem.rulesets import get_ruleset

RULES = get_ruleset("aa-revised")
GUIDE = Path(__file__).parents[1] / "docs" / "orders.md"

# the fields of every event type (docs/architecture.md); optional ones in the second set
EVENT_FIELDS = {
    "default": ({"power", "what", "applied", "why"}, {"order"}),
    "ruling": ({"rule", "text"}, set()),
    "research": ({"power", "development", "target", "dice", "success", "cost"}, {"order"}),
    "purchase": ({"power", "units", "cost", "treasury_after"}, {"order"}),
    "move": ({"phase", "power", "units", "from", "path", "to"}, {"cargo", "note", "order"}),
    "move_skipped": ({"phase", "power", "units", "from", "to", "reason"}, {"order"}),
    "aa_fire": ({"space", "power", "targets", "dice", "hits", "casualties", "battle"}, set()),
    "battle_start": ({"battle", "space", "kind", "attacker", "attackers", "defenders"}, {"aa_gun"}),
    "roll": ({"battle", "round", "step", "side", "power", "unit", "value", "dice", "hits"}, set()),
    "casualties": ({"battle", "round", "side", "power", "units", "damaged", "chosen_by", "rule"}, {"order"}),
    "submerge": ({"battle", "round", "side", "power", "units"}, set()),
    "retreat": ({"battle", "round", "power", "units", "to"}, set()),
    "battle_end": ({"battle", "space", "rounds", "winner", "attackers_left", "defenders_left", "captured", "odds"},
                   {"order"}),
    "capture": ({"space", "from", "to", "ipc", "liberated", "by"}, set()),
    "plunder": ({"power", "from", "ipc"}, set()),
    "bombing": ({"space", "power", "victim", "bombers", "dice", "damage", "cap_per_bomber", "paid"}, {"order"}),
    "rocket": ({"from", "target", "power", "victim", "die", "damage", "paid"}, {"order"}),
    "rocket_skipped": ({"from", "target", "power", "reason"}, {"order"}),
    "lost": ({"power", "space", "units", "reason"}, set()),
    "place": ({"power", "space", "units"}, {"order"}),
    "place_skipped": ({"power", "space", "units", "reason", "order"}, set()),
    "battle_order": ({"power", "spaces", "order"}, {"reason"}),
    "order_unused": ({"power", "order", "reason"}, set()),
    "income": ({"power", "amount", "treasury_after"}, {"reason"}),
    "victory_check": ({"round", "cities", "needed", "winner"}, set()),
}


def guide_blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)


def opening(next_power: str = "germany") -> dict:
    state = RULES.opening_state("guide", {})
    state["dice"] = {"commitment": "0" * 64, "turn": 2}
    state["next_power"] = next_power
    return state


def play(state: dict, orders_text: str, seed: str, standing: dict[str, str] | None = None):
    orders = parse_document(orders_text, "orders.yaml")
    docs = {p: parse_document(t, f"{p}.yaml") for p, t in (standing or {}).items()}
    assert RULES.check_orders(state, {state["next_power"]: orders}, docs) == []
    log = EventLog()
    after = RULES.resolve(state, {state["next_power"]: orders}, docs, DiceStream(seed, "test"), log)
    return after, log


def check_events(log: EventLog) -> None:
    for e in log.events:
        required, optional = EVENT_FIELDS[e["type"]]
        keys = set(e) - {"type"}
        assert required <= keys <= required | optional, f"{e['type']} has fields {sorted(keys)}"


def test_the_guide_example_orders_are_legal_and_play():
    example = next(b for b in guide_blocks() if b.startswith("power: germany"))
    standing = next(b for b in guide_blocks() if b.startswith("power: uk"))
    for seed in ("11" * 32, "22" * 32, "33" * 32):
        state = opening()
        before = copy.deepcopy(state)
        after, log = play(state, example, seed, {"uk": standing})
        assert state == before
        check_events(log)
        assert RULES.check_state(parse_document(dump_yaml(after), "state.yaml")) == []
        assert after["next_power"] == "uk" and after["round"] == 1
        again, log2 = play(state, example, seed, {"uk": standing})
        assert dump_yaml(again) == dump_yaml(after) and log2.to_jsonl() == log.to_jsonl()


def test_a_whole_round_of_empty_orders():
    state = opening("ussr")
    state["round"] = 1
    for power in ("ussr", "germany", "uk", "japan", "usa"):
        state, log = play(state, f"power: {power}\n", "44" * 32)
        check_events(log)
    assert state["round"] == 2 and state["next_power"] == "ussr"
    assert state["treasury"] == {"ussr": 48, "germany": 80, "uk": 60, "japan": 60, "usa": 84}
    assert log.of_type("victory_check")[0]["winner"] is None


def test_placement_example_of_the_guide():
    block = next(b for b in guide_blocks() if b.startswith("place:"))
    text = "power: germany\npurchase: {infantry: 4, tank: 2, carrier: 1, fighter: 1, industrial_complex: 1}\n" + block
    state = opening()
    state["treasury"]["germany"] = 100
    after, log = play(state, text, "55" * 32)
    assert after["units"]["SZ 5"]["germany"]["fighter"] == 2
    assert "fighter" not in after["units"]["Germany"]["germany"]
    assert after["units"]["Balkans"]["germany"]["industrial_complex"] == 1
