"""Players for whole Undaunted: Stalingrad games in tests and for the example: each looks at its own
side's view of the state and writes orders as a player would send them. `random_orders` tries
anything the orders format allows (to shake the engine); `steady_orders` plays towards the
objectives (to finish a scenario); `standing_orders` are a side's decisions in the other's turn."""

from __future__ import annotations

import random
from typing import Any

from pbem.rulesets.undaunted.actions import AREA
from pbem.rulesets.undaunted.board import Board
from pbem.rulesets.undaunted.content import COMBAT, Pack, other_side
from pbem.rulesets.undaunted.orders import recon_performed
from pbem.rulesets.undaunted.reach import check_reach

TIERS = ("reservist", "regular", "upgraded")


def bid_orders(pack: Pack, view: dict[str, Any], side: str, rng: random.Random) -> dict[str, Any]:
    hand = view["sides"][side]["hand"]
    if not hand:
        return {"side": side}
    return {"side": side, "bid": rng.choice(sorted(hand))}


def action_params(pack: Pack, board: Board, view: dict[str, Any], side: str, card_id: str, action: str,
                  rng: random.Random) -> dict[str, Any] | None:
    """The parameters of one action of a card, anything the orders format allows; None when the
    action has nothing to aim at."""
    enemy = other_side(side)
    card = pack.cards[card_id]
    mine = view["units"][side].get(card.unit or "")
    here = mine["tile"] if mine else rng.choice(board.tiles)
    near = list(board.neighbours[here])
    enemies = sorted(view["units"][enemy])
    if action in ("move", "stealth_move", "sally"):
        out: dict[str, Any] = {"to": rng.choice(near)}
        if action == "sally" and enemies:
            combat = next((a.action for a in card.actions if a.action in COMBAT), None)
            if combat and combat not in AREA:
                out["combat"] = {"action": combat, "target": rng.choice(enemies)}
        return out
    if action in ("scout", "secure_recon"):
        path = [rng.choice(near)]
        if action == "scout" and rng.random() < 0.5:
            path.append(rng.choice(board.neighbours[path[0]]))
        return {"path": path}
    if action == "maneuver":
        own = sorted(view["units"][side])
        return {"unit": rng.choice(own), "to": rng.choice(board.tiles)} if own else None
    if action == "rally":
        own = sorted(view["units"][side])
        return {"unit": rng.choice(own)} if own else None
    if action == "bolster":
        supply = sorted(view["sides"][side]["supply"])
        return {"cards": rng.sample(supply, k=min(2, len(supply)))}
    if action == "immediate_bolster":
        supply = sorted(view["sides"][side]["supply"])
        return {"take": rng.choice(supply)} if supply else None
    if action == "follow_me":
        return {"draw": rng.randint(0, 2)}
    if action in ("inspire", "exertion"):
        played = sorted(view["sides"][side]["play_area"])
        usable = [(c, a.action) for c in played for a in pack.cards[c].actions
                  if a.action in ("move", "control", "recon")]
        if not usable:
            return None
        chosen, act = rng.choice(usable)
        perform: dict[str, Any] = {"action": act}
        if act == "move":
            unit = view["units"][side].get(pack.cards[chosen].unit or "")
            perform["to"] = rng.choice(board.neighbours[unit["tile"]] if unit else board.tiles)
        return {"chosen": chosen, "perform": perform}
    if action == "mines":
        return {"mines": [{"toward": rng.choice(near), "face": rng.choice(["AP", "AT"])}]}
    if action == "fire_lane":
        return {"tile": rng.choice(board.tiles)}
    if action == "anti_aircraft":
        return {"return_to_supply": rng.random() < 0.5}
    if action == "attack_and_stealth_move":
        return {"combat": {"action": "attack", "target": rng.choice(enemies)}, "to": rng.choice(near)} if enemies \
            else None
    if action in AREA:
        return {"target": rng.choice(board.tiles)}
    if action in COMBAT:
        if action in ("anti_tank", "demolition") and rng.random() < 0.5:
            return {"target": rng.choice(board.tiles)}
        if not enemies:
            return None
        target = rng.choice(enemies)
        out = {"target": target}
        if rng.random() < 0.5:
            out["push"] = rng.choice(board.tiles)
        return out
    return {}


def random_orders(pack: Pack, view: dict[str, Any], side: str, rng: random.Random) -> dict[str, Any]:
    """A turn of anything the format allows with the cards in hand, often illegal in the moment."""
    board = Board(pack.layouts[pack.scenarios[view["scenario"]].layout])
    if rng.random() < 0.01 and not (view["turn"] or {}).get("played"):
        return {"side": side, "withdraw": True}
    plays = []
    # each Recon takes a Fog of War of the hand, in whatever order the plays come; orders without
    # one for it are refused when checked (Secure Recon may go without)
    fogs = sum(pack.cards[c].kind == "fog_of_war" for c in view["sides"][side]["hand"])
    for card_id in sorted(view["sides"][side]["hand"]):
        card = pack.cards[card_id]
        roll = rng.random()
        if roll < 0.1:
            plays.append({"card": card_id, "use": "withdraw"})
        elif roll < 0.2:
            plays.append({"card": card_id, "use": "ready"})
        elif card.actions:
            action = rng.choice(card.actions).action
            params = action_params(pack, board, view, side, card_id, action, rng)
            play = {"card": card_id, "action": action} | (params or {})
            recon = recon_performed(play)
            if params is None or recon == "recon" and not fogs:
                continue
            fogs -= bool(recon and fogs)
            plays.append(play)
    rng.shuffle(plays)
    orders: dict[str, Any] = {"side": side, "plays": on_the_map(pack, view, side, plays)}
    if rng.random() < 0.2:
        orders["await_report"] = True
    return orders


def steady_orders(pack: Pack, view: dict[str, Any], side: str) -> dict[str, Any]:
    """A plain plan: ready what is suppressed, take control where the unit stands on a scouted
    tile, scout and move towards the nearest objective not yet held, fire at the nearest enemy,
    bolster from the supply, and recon away Fog of War."""
    board = Board(pack.layouts[pack.scenarios[view["scenario"]].layout])
    enemy = other_side(side)
    markers = view["markers"][side]
    plays = []
    hand = sorted(view["sides"][side]["hand"], key=lambda c: (pack.cards[c].kind != "command", c))
    for card_id in hand:
        card = pack.cards[card_id]
        actions = [a for a in card.actions if not a.unavailable]
        if not actions:
            continue
        token = view["units"][side].get(card.unit or "")
        if token and token["suppressed"]:
            plays.append({"card": card_id, "use": "ready"})
            continue
        names = [a.action for a in actions]
        here = token["tile"] if token else None
        goals = [t for t in view["objectives"] if markers.get(t) != "controlled"]
        if here and "control" in names and markers.get(here) == "scouted" and here in view["objectives"]:
            plays.append({"card": card_id, "action": "control"})
            continue
        if here and goals:
            goal = min(goals, key=lambda t: (board.distance(here, t), t))
            step = min(board.neighbours[here], key=lambda t: (board.distance(t, goal), t))
            if "scout" in names and board.distance(here, goal) > 0:
                plays.append({"card": card_id, "action": "scout", "path": [step]})
                continue
            if "move" in names and markers.get(step) and board.distance(here, goal) > 0 and \
                    card.unit and pack.units[side][card.unit].type == "riflemen":
                plays.append({"card": card_id, "action": "move", "to": step})
                continue
        targets = [u for u, t in sorted(view["units"][enemy].items())
                   if not t["routed"] and not pack.units[enemy][u].tank]
        fire = next((a for a in actions if a.action in ("attack", "suppress")), None)
        if here and fire and targets:
            target = min(targets, key=lambda u: board.distance(here, view["units"][enemy][u]["tile"]))
            if board.distance(here, view["units"][enemy][target]["tile"]) <= 3:
                plays.append({"card": card_id, "action": fire.action, "target": target})
                continue
        if "recon" in names and any(pack.cards[c].kind == "fog_of_war" for c in view["sides"][side]["hand"]):
            plays.append({"card": card_id, "action": "recon"})
            continue
        if "bolster" in names:
            squad = next(a.squad for a in actions if a.action == "bolster")
            wanted = [c for c in sorted(view["sides"][side]["supply"]) if pack.cards[c].kind == "unit"
                      and (squad is None or pack.cards[c].squad == squad)]
            plays.append({"card": card_id, "action": "bolster", "cards": wanted[:2]})
    return {"side": side, "plays": on_the_map(pack, view, side, plays)}


def on_the_map(pack: Pack, view: dict[str, Any], side: str, plays: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays less those `pbem validate` refuses against the map (a step to a tile not next to
    the unit, an attack out of range), as a player who checks the orders first sends them; again
    until none is refused, since a play left out moves what the later plays start from."""
    while True:
        refused: set[int] = set()
        check_reach(pack, view, side, plays, lambda field, *_: refused.add(field[1]))
        if not refused:
            return plays
        plays = [play for i, play in enumerate(plays) if i not in refused]


def standing_orders(pack: Pack, view: dict[str, Any], side: str, rng: random.Random) -> dict[str, Any]:
    """Standing orders as a player might leave them: each part or none, its tiers in any order, and
    mines that push towards tiles near the enemy or anywhere."""
    board = Board(pack.layouts[pack.scenarios[view["scenario"]].layout])
    orders: dict[str, Any] = {"side": side}
    for part in ("casualty_preference", "draw_deck_preference"):
        if rng.random() < 0.6:
            orders[part] = rng.sample(TIERS, k=3)
    if rng.random() < 0.7:
        near = sorted({t for u in view["units"][other_side(side)].values() for t in board.neighbours[u["tile"]]})
        orders["mine_push"] = rng.sample(near or board.tiles, k=min(len(near or board.tiles), rng.randint(1, 3)))
    return orders
