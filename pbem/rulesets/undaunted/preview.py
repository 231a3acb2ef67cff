"""What a side's valid orders will do, forecast from its own view (issue 26): each play read back,
and each attack's exact chance to hit from the seed's roll (any d10 at or above the total defence,
or a 0, l.1475-1485) against base defence, cover and range as the view shows them."""

from __future__ import annotations

from typing import Any

from pbem.core.events import EventLog
from pbem.core.yamlio import dump_yaml, parse_document
from pbem.rulesets.undaunted.content import Pack, action_name, other_side
from pbem.rulesets.undaunted.orders import read_bid, read_turn
from pbem.rulesets.undaunted.play import Turn
from pbem.rulesets.undaunted.reach import check_reach

UNKNOWN = ("not counted: which card a hit takes from the enemy's hand, discard pile or deck, and so whether the "
           "unit routs, is the enemy's secret")


def hit_chance(dice: int, total: int) -> float:
    """At least one of `dice` d10 shows 0 or a face at or above `total` (faces 0-9)."""
    faces = 1 + sum(1 for face in range(1, 10) if face >= total)
    return 1 - (1 - faces / 10) ** dice


def preview(pack: Pack, view: dict[str, Any], orders: dict[str, Any], warn_below: float) -> dict[str, Any]:
    side = orders["side"]
    doc = parse_document(dump_yaml(orders), "orders.yaml")
    if view["phase"] == "bid":
        bid = read_bid(pack, view, doc, side)[0].get("bid")
        line = f"Bid: {pack.cards[bid].label} {bid}, initiative {pack.cards[bid].initiative}" if bid else "No bid"
        return {"lines": [line], "warnings": [], "items": [{"bid": bid}]}
    plays = read_turn(pack, view, doc, side)[0]["plays"]
    shots: list[dict[str, Any]] = []
    check_reach(pack, view, side, plays, lambda *_: None, shots)
    turn = Turn(pack, view, EventLog(), None, None)
    lines = ["Withdraw from the scenario"] if orders.get("withdraw") else []
    lines += [f"plays[{i}]: {_read_back(pack, turn, play)}" for i, play in enumerate(plays)]
    warnings, items = [], []
    for shot in shots:
        for target in _targets(turn, side, shot):
            item = _forecast(turn, shot, target)
            items.append(item)
            where = f" (from {turn.tile_id(shot['from'])}" + (", if a die has not moved it or its target)"
                                                              if shot["unsure"] else ")") if shot["from"] else ""
            lines.append(f"plays[{shot['play']}]: {shot['action'].label} at {item['target']}{where}: "
                         f"{item['dice']} d10 against defence {item['total']} ({_parts(item['defence'])}): "
                         f"{item['chance']:.1%} to hit; {UNKNOWN}")
            if item["chance"] < warn_below:
                warnings.append(f"plays[{shot['play']}]: {shot['action'].label} at {item['target']} hits only "
                                f"{item['chance']:.1%} of the time, below {warn_below:.0%}")
    return {"lines": lines, "warnings": warnings, "items": items}


def _parts(parts: dict[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in parts.items())


def _read_back(pack: Pack, turn: Turn, play: dict[str, Any]) -> str:
    card = next((c for c in pack.cards.values() if play["card"] in (c.id, c.label)), None)
    label = f"{card.label} {play['card']}" if card and card.id == play["card"] else str(play["card"])
    if play["use"] != "action":
        return f"{label}: " + ("withdrawn to the supply" if play["use"] == "withdraw" else "readies its unit")
    when = f" when {play['when']['play']} {play['when'].get('result', 'is played')}" if play.get("when") else ""
    deploy = f", deployed on {turn.tile_id(play['deploy'])}" if play.get("deploy") else ""
    printed = next((a.label for a in (card.actions if card else ()) if a.action == play["action"]), None)
    return f"{label}: {_action_words(turn, play, printed)}{deploy}{when}"


def _action_words(turn: Turn, params: dict[str, Any], printed: str | None = None) -> str:
    """The action as the card prints it (or by name), then its parameters in words."""
    words = [printed or action_name(params["action"])]
    for key, value in params.items():
        if key in ("to", "tile") and value:
            words.append(f"{'to' if key == 'to' else 'on'} {turn.tile_id(value)}")
        elif key == "path":
            words.append("through " + ", ".join(turn.tile_id(t) for t in value if t))
        elif key == "target":
            words.append(f"at {turn.tile_id(value) if value in turn.state['tiles'] else value}")
        elif key in ("unit", "chosen", "take", "draw"):
            words.append(f"{key} {turn.tile_id(value) if value in turn.state['tiles'] else value}")
        elif key == "cards":
            words.append("cards " + ", ".join(map(str, value)))
        elif key in ("perform", "combat"):
            words.append(f"{key}: {_action_words(turn, value)}")
    return " ".join(words)


def _targets(turn: Turn, side: str, shot: dict[str, Any]) -> list[dict[str, Any]]:
    """What the attack rolls against as the view shows it: the enemy unit, or each enemy infantry
    unit (and for Bombard the building) on an area action's tile, or the building it names."""
    action, target, enemy = shot["action"], str(shot["params"].get("target")), other_side(side)
    if action is None:
        return []
    if target in turn.state["units"][enemy]:
        token = turn.token(enemy, target)
        return [{"kind": "unit", "side": enemy, "unit": target, "tile": token["tile"]}] if token else []
    if target in turn.state["tiles"]:
        found = [{"kind": "unit", "side": s, "unit": u, "tile": target} for s, u in turn.units_on(target)
                 if (s == enemy or action.action == "bombard") and not turn.unit(s, u).tank]
        building = turn.tile(target).building and action.action in ("bombard", "anti_tank", "demolition")
        return found + [{"kind": "building", "tile": target}] * building
    return []


def _forecast(turn: Turn, shot: dict[str, Any], target: dict[str, Any]) -> dict[str, Any]:
    action = shot["action"]
    attacker = None if action.action == "bombard" else shot["from"]
    kind = target["kind"] if target["kind"] != "unit" else "tank" if turn.unit(target["side"], target["unit"]).tank \
        else "infantry"
    parts = turn.defence(action.action, attacker, target)
    dice = action.dice_against(kind) or 0
    total = sum(parts.values())
    name = f"{target['side']} {target['unit']}" if target["kind"] == "unit" else f"the building on " \
        f"{turn.tile_id(target['tile'])}"
    return {"play": shot["play"], "action": action.label, "target": name, "tile": target["tile"], "dice": dice,
            "defence": parts, "total": total, "chance": hit_chance(dice, total), "not_counted": UNKNOWN}
