"""The preview of a power's valid orders (`pbem validate`, the mail answer): its purchase read back,
and the exact odds of every battle its combat move makes, from its view of the board only. The
defenders' standing orders are not the player's to see: the defaults stand in for them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.core.errors import InputError, Problem, choices
from pbem.core.words import percent
from pbem.rulesets.axis_allies.odds import MAX_ODDS_WORK
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.names import normalise
from pbem.rulesets.axis_allies.odds_chain import BattleTooLarge
from pbem.rulesets.axis_allies.odds_request import OddsRequest, odds_data

UNKNOWN_DEFENCE = "defender's standing orders unknown: defaults assumed"
NOT_FIGHTING = ("industrial_complex",)  # on the board, never in a battle's stacks


def _text(units: dict[str, int]) -> str:
    return ", ".join(f"{n} {unit}" for unit, n in units.items() if n and unit not in NOT_FIGHTING)


def _end(move: dict[str, Any]) -> str:
    """Where a move's units end: the last space of its path, or where they are (an empty path)."""
    return (move.get("path") or [move["from"]])[-1]


def _attack(found: dict[str, dict[str, Any]], space: str) -> dict[str, Any]:
    return found.setdefault(space, {"units": Counter(), "bombard": Counter(), "raid": False, "amphibious": False,
                                    "before": None, "carries": 0})


def attacks(orders: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each space the combat move attacks: its attacking and bombarding units, whether it is an
    amphibious assault (cargo unloaded), with the sea zone its transports must clear first, or a
    strategic bombing raid."""
    found: dict[str, dict[str, Any]] = {}
    for move in orders.get("combat_move") or []:
        if move.get("bombard"):
            _attack(found, move["bombard"])["bombard"].update(move["units"])
            continue
        if move.get("unload"):
            cargo = Counter()
            for load in move.get("load") or []:
                cargo.update(load["units"])
            at_sea = _attack(found, _end(move))
            at_sea["units"].update(move["units"])
            at_sea["carries"] += move["units"].get("transport", 0)
            attack = _attack(found, move["unload"])
            attack.update(amphibious=True, before=_end(move))
            attack["units"].update(cargo)
            continue
        attack = _attack(found, _end(move))
        attack["units"].update(move["units"])
        attack["raid"] = attack["raid"] or bool(move.get("bombing_raid"))
    return found


def _casualty_order(orders: dict[str, Any], standing: dict[str, Any] | None, space: str) -> str:
    own = (orders.get("battles") or {}).get(space, {}).get("casualty_order") or orders.get("casualty_order") \
        or (standing or {}).get("casualty_order") or []
    return ", ".join(str(e) for e in own)


EVERY_END = 10 ** 6
"""Enough end stacks to list them all: a sea battle's ends say whether every transport came through."""


def defenders(edition: Edition, view: dict[str, Any], power: str, space: str) -> dict[str, dict[str, int]]:
    """The enemy units in `space` that fight, by power: none, no battle."""
    there = (view.get("units") or {}).get(space, {})
    return {p: u for p, u in there.items() if edition.board.enemies(p, power) and _text(u)}


def battle_preview(edition: Edition, view: dict[str, Any], orders: dict[str, Any], standing: dict[str, Any] | None,
                   space: str, attack: dict[str, Any]) -> dict[str, Any] | None:
    """The odds of the battle in `space`, or None when no enemy unit is there (no battle)."""
    board, power = edition.board, orders["power"]
    defending = defenders(edition, view, power, space)
    if not defending:
        return None
    defender = max(defending, key=lambda p: sum(defending[p].values()))
    units: Counter[str] = Counter()
    for own in defending.values():
        units.update(own)
    request = OddsRequest(_text(attack["units"]), _text(units), power, defender, sea=board.is_sea(space),
                          amphibious=attack["amphibious"], bombard=_text(attack["bombard"]),
                          attacker_casualty_order=_casualty_order(orders, standing, space),
                          top=EVERY_END if attack["carries"] else 1,
                          max_work=MAX_ODDS_WORK)
    data = odds_data(request, edition)
    return {"space": space, "defenders": sorted(defending), "ipc": 0 if board.is_sea(space) else board.ipc(space),
            "amphibious": attack["amphibious"], "after": attack["before"], **data}


def _unopposed(edition: Edition, view: dict[str, Any], power: str, space: str) -> str:
    """A move into a space without enemy units: no battle, and an enemy territory is taken."""
    board = edition.board
    owner = (view.get("control") or {}).get(space)
    if not board.is_sea(space) and board.enemies(owner, power):
        return f"Move into {space}: no enemy unit there, taken without a battle ({board.ipc(space)} IPC)"
    return f"Move into {space}: no enemy unit there, no battle"


def afloat(sea: dict[str, Any], transports: int) -> float:
    """The chance that the attacker wins the sea battle with all `transports` that sailed into it
    still afloat, summed over the battle's every end."""
    return sum(end["probability"] for end in sea["outcomes"]
               if end["winner"] == "attacker" and end["attackers"].get("transport", 0) >= transports)


def link(item: dict[str, Any], sea: dict[str, Any], transports: int) -> None:
    """An amphibious assault's chances with the sea battle its transports must win first: the two
    battles together take the territory at least this often (every transport afloat, then the
    assault with all its cargo; ends where some cargo sank and the rest still lands are not counted)."""
    first = afloat(sea, transports)
    item["sea_battle_won_afloat"] = round(first, 9)
    item["linked_win_at_least"] = round(first * item["attacker_win"], 9)
    if item.get("attacker_captures") is not None:
        item["linked_captures_at_least"] = round(first * item["attacker_captures"], 9)


def move_text(w, move: dict[str, Any]) -> str:
    """A move of the orders read back: what goes where, by which way, with what it carries."""
    text = f"{w.units(move['units'])} from {move['from']}"
    path = move.get("path") or []
    if move.get("bombard"):
        return text + f" bombard {move['bombard']}"
    text += f" to {path[-1]}" + (f" by {', '.join(path[:-1])}" if len(path) > 1 else "") if path else " stay"
    for load in move.get("load") or []:
        text += f", loading {w.units(load['units'])} from {load['from']}"
    if move.get("unload"):
        text += f", unloading in {move['unload']}"
    return text + (" (strategic bombing raid)" if move.get("bombing_raid") else "")


def read_back(w, orders: dict[str, Any], field: str, what: str) -> list[str]:
    """Each move of `field` as a line."""
    return [f"{what}: {move_text(w, move)}" for move in orders.get(field) or []]


def _line(w, item: dict[str, Any]) -> str:
    what = "Amphibious assault on" if item["amphibious"] else "Attack on"
    line = (f"{what} {item['space']}: wins {percent(item['attacker_win'])}, {w.power(item['defender'])} holds "
            f"{percent(item['defender_win'])}, both wiped out {percent(item['draw'])}")
    if item.get("attacker_captures") is not None:
        line += f"; takes it ({item['ipc']} IPC) {percent(item['attacker_captures'])}"
    if item["after"]:
        line += (f" once the sea battle in {item['after']} is won; with it, at least "
                 f"{percent(item['linked_win_at_least'])} (the sea battle won with every transport afloat "
                 f"{percent(item['sea_battle_won_afloat'])})")
    return line + (f"; expected IPC lost: you {item['attacker_ipc_lost']:.1f}, "
                   f"defenders {item['defender_ipc_lost']:.1f}")


def preview(edition: Edition, view: dict[str, Any], orders: dict[str, Any], standing: dict[str, Any] | None,
            warn_below: float) -> dict[str, Any]:
    """Lines, warnings and items of the interface of `Ruleset.preview`."""
    w, power = edition.words, orders["power"]
    lines, warnings, items, fought = [], [], [], {}
    bought = orders.get("purchase") or {}
    if bought:
        cost = edition.units.cost(bought)
        left = (view.get("treasury") or {}).get(power, 0) - cost
        lines.append(f"Purchase: {w.units(bought)} for {cost} IPC" + (f" ({left} IPC left)" if left >= 0 else ""))
    research = orders.get("research")
    if research:
        lines.append(f"Research: {research['dice']} dice for {research['development']}")
    lines += read_back(w, orders, "combat_move", "Combat move")
    found = attacks(orders)
    for space, attack in found.items():
        if attack["raid"]:
            lines.append(f"Strategic bombing raid on {space}: {w.units(dict(attack['units']))} (no odds: the battle "
                         "calculator does not compute raids)")
            continue
        try:
            item = battle_preview(edition, view, orders, standing, space, attack)
        except InputError as exc:
            lines.append(f"Attack on {space}: odds not computed ({exc.problems[0].message})")
            continue
        except BattleTooLarge:
            lines.append(f"Attack on {space}: odds not computed (too large a battle for the exact odds of a turn)")
            continue
        if item is None:
            lines.append(_unopposed(edition, view, power, space))
            continue
        if item["after"] not in fought:
            item["after"] = None  # the transports' sea zone holds no enemy: nothing to win first
        else:
            link(item, fought[item["after"]], found[item["after"]]["carries"])
        fought[space] = item
        items.append(item)
        lines.append(_line(w, item))
        chance = item.get("linked_win_at_least", item["attacker_win"])
        if chance < warn_below:
            warnings.append(f"Attack on {space}: wins {'at least ' if item['after'] else ''}{percent(chance)} "
                            f"(below your {100 * warn_below:g}% threshold)")
    lines += read_back(w, orders, "noncombat_move", "Non-combat move")
    lines += [f"Place: {w.units(place['units'])} in {place['at']}" for place in orders.get("place") or []]
    if items:
        lines.append(UNKNOWN_DEFENCE)
    return {"lines": lines, "warnings": warnings, "items": [_few_ends(item) for item in items]}


def space_odds(edition: Edition, view: dict[str, Any], orders: dict[str, Any], space: str) -> list[dict[str, Any]]:
    """`pbem odds --state STATE SPACE --orders ORDERS`: the battle the orders make in `space`, after
    the sea battle its transports must win first if any, as the preview computes them; `InputError`
    when the orders make none there."""
    found = attacks(orders)
    named = next((s for s in found if normalise(s) == normalise(space)), None)
    if named is None:
        raise InputError([Problem("command line", None, "SPACE", f"the orders move no unit into {space} in their "
                                  "combat move", ", ".join(found) or "no space: the combat move is empty")])
    chain = [found[named]["before"], named] if found[named]["before"] else [named]
    battles = [battle_preview(edition, view, orders, None, s, found[s]) for s in chain]
    if battles[-1] is None:
        raise InputError([Problem("command line", None, "SPACE", f"no enemy unit is in {named}: no battle there",
                                  choices((s for s in found if defenders(edition, view, orders["power"], s)),
                                          "the orders attack no space that holds enemy units"))])
    if len(battles) == 2 and battles[0] is not None:
        link(battles[1], battles[0], found[chain[0]]["carries"])
    return [_few_ends(b) for b in battles if b is not None]


def _few_ends(item: dict[str, Any]) -> dict[str, Any]:
    """The item with the most likely end only: every end of a sea battle was needed to link it."""
    return {**item, "outcomes": item["outcomes"][:1]}
