"""Card plays and every card action (seed l.600-720, l.1150-1240, l.1350-1560; digest §2.4-§2.10).

A play is read and checked by orders.py; here it is carried out. What only the moment can tell
(the card is not in hand, the unit is suppressed, the tile lacks a marker) makes the play fail
with a reason in the report, as an order that cannot be carried out fails in an email game; the
rest of the orders go on. Whatever could refuse a card still in the hand is checked before the
card is shown or anything is logged, so that such a refusal, and the ruling that decided it, are
told to the side alone: the enemy never learns what the hand held.
"""

from __future__ import annotations

from typing import Any

from pbem.rulesets.undaunted.board import edge
from pbem.rulesets.undaunted.campaign import remove_from_campaign
from pbem.rulesets.undaunted.content import COMBAT, Action, action_name, other_side
from pbem.rulesets.undaunted.orders import recon_performed
from pbem.rulesets.undaunted.play import HIDDEN_ZONES, MINES_PER_UNIT, SMOKE_PER_UNIT, ActionEnds, Turn


class Refused(Exception):
    """The play or action cannot be carried out now; its text says why, and `ruling` (name, text)
    the ruling that decided it, which is told to whoever hears the refusal."""

    def __init__(self, why: str, ruling: tuple[str, str] | None = None) -> None:
        super().__init__(why)
        self.ruling = ruling

    def tell(self, turn: Turn, event: str, to: list[str] | None = None, **fields: Any) -> None:
        """Log the refusal as `event`, after the ruling that decided it, both to `to` (None:
        everyone)."""
        if self.ruling:
            turn.ruling(*self.ruling, to=to)
        turn.log.add(event, **({"to": to} if to else {}), **fields, why=str(self))


def find_card(turn: Turn, side: str, ref: str, zone: str) -> str | None:
    """The card `ref` (an id, or a name such as "Rifleman (A)") in one of the side's zones."""
    cards = turn.zones(side)[zone]
    if ref in cards:
        return ref
    return next((c for c in cards if turn.card(c).label == ref), None)


def play_card(turn: Turn, side: str, play: dict[str, Any], order: str) -> str:
    """Carry out one play of the orders (the item `order`): 'success' or 'failure' for a combat
    action, 'done', or 'skipped' (with a `play_failed` event saying why). A play refused before its
    card is shown keeps the card in the hand; one refused during its action has spent it: the card
    stays in the play area."""
    card_id = find_card(turn, side, play["card"], "hand")
    try:
        if card_id is None:
            raise Refused(f"{play['card']} is not in the hand")
        card = turn.card(card_id)
        use = play.get("use", "action")
        if use == "ready":
            token = turn.token(side, card.unit) if card.unit else None
            if token is None or not token["suppressed"]:
                raise Refused(f"{card.label} has no suppressed unit to ready")
            turn.move_card(side, card_id, "hand", "play_area")
            token["suppressed"] = False
            turn.log.add("card_played", side=side, card=card_id, name=card.label, use="ready")
            turn.log.add("readied", side=side, unit=card.unit, why="card")
            return "done"
        if use == "withdraw":
            if card.kind == "fog_of_war":
                raise Refused("a Fog of War card cannot be withdrawn to the supply")
            turn.move_card(side, card_id, "hand", "supply")
            turn.log.add("card_played", side=side, card=card_id, name=card.label, use="withdraw")
            return "done"
        if card.kind == "fog_of_war":
            raise Refused("a Fog of War card cannot be played in a turn")
        action = card.actions[play["index"]]
        if action.unavailable:
            raise Refused(f"{action.label} is unavailable on this reservist card")
        _ready_to_act(turn, side, card_id)
        _needs_from_hand(turn, side, play)
        _deploy(turn, side, card_id, play)
        turn.move_card(side, card_id, "hand", "play_area")
        turn.log.add("card_played", side=side, card=card_id, name=card.label, use="action", action=action.label)
        turn.check_end()  # a unit just deployed may complete its side's objective (l.1565)
    except Refused as why:
        # a card that was never played stays a secret of the hand: only its owner hears why
        why.tell(turn, "play_failed", [side], side=side, card=play["card"], order=order, kept="in the hand")
        return "skipped"
    try:
        return perform(turn, side, card_id, action, play)
    except Refused as why:
        why.tell(turn, "action_failed", side=side, card=card_id, action=action.label, spent="in the play area")
        return "failure"
    except ActionEnds as why:
        turn.log.add("action_ended", side=side, card=card_id, why=str(why))
        return "done"


def _needs_from_hand(turn: Turn, side: str, play: dict[str, Any]) -> None:
    """Refuse while the card is still in the hand an action that could fail only for what the
    hand holds: Recon, also the one Inspire or Exertion performs, needs a Fog of War there (seed
    l.1386). Failing after the card is shown would tell the enemy that the hand holds none."""
    hand = turn.zones(side)["hand"]
    if recon_performed(play) == "recon" and not any(turn.card(c).kind == "fog_of_war" for c in hand):
        raise Refused("Recon needs a Fog of War card in the hand, and it holds none")


def _deploy(turn: Turn, side: str, card_id: str, play: dict[str, Any]) -> None:
    """A unit card played for an action puts its token on the map first (seed l.640-660); it is
    the last check of a card in the hand, and logs nothing unless it deploys."""
    card = turn.card(card_id)
    if not card.unit or turn.token(side, card.unit):
        return
    places = turn.deploy_tiles(side, card.unit)
    if not places:
        raise Refused(f"{turn.unit(side, card.unit).label} has no Riflemen tile to deploy to",
                      ("deploy_without_riflemen", "A unit whose Riflemen are not on the map (for a tank: not on a "
                       "passable tile) cannot be deployed, so its card cannot be played for an action."))
    wanted = play.get("deploy")
    if wanted is None:
        wanted = places[0]
        if len(places) > 1:
            turn.log.add("default_applied", side=side,
                         what=f"{card.unit} deploys on {wanted}, the first Riflemen tile: the orders name none")
    elif wanted not in places:
        raise Refused(f"{card.unit} may deploy only on {', '.join(places)}")
    turn.state["units"][side][card.unit] = {"tile": wanted, "suppressed": False, "routed": False}
    turn.log.add("deployed", side=side, unit=card.unit, tile=wanted)


def _ready_to_act(turn: Turn, side: str, card_id: str) -> None:
    card = turn.card(card_id)
    token = turn.token(side, card.unit) if card.unit else None
    if token and token["suppressed"]:
        raise Refused(f"{turn.unit(side, card.unit).label} is suppressed and cannot act")


def perform(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> str:
    name = action.action
    if name in COMBAT:
        return "success" if combat(turn, side, card_id, action, params) else "failure"
    if name == "attack_and_stealth_move":
        result = _card_combat(turn, side, card_id, params["combat"])
        if params.get("to"):
            _move(turn, side, _actor(turn, side, card_id), params["to"], "stealth move", need_marker=False)
        return result
    if name == "sally":
        turn.ruling("sally_move", "Sally's Move 1 must be made; its combat action may not.")
        _move(turn, side, _actor(turn, side, card_id), params["to"], "sally", need_marker=True)
        return _card_combat(turn, side, card_id, params["combat"]) if params.get("combat") else "done"
    handler = SUPPORT_AND_MOVEMENT[name]
    handler(turn, side, card_id, action, params)
    return "done"


def _card_combat(turn: Turn, side: str, card_id: str, params: dict[str, Any]) -> str:
    card = turn.card(card_id)
    action = next((a for a in card.actions if a.action == params["action"] and a.action in COMBAT), None)
    if action is None:
        raise Refused(f"{card.label} has no {params['action'].replace('_', ' ')} action")
    return "success" if combat(turn, side, card_id, action, params) else "failure"


def _actor(turn: Turn, side: str, card_id: str) -> str:
    unit = turn.card(card_id).unit
    if unit is None:
        raise Refused(f"{turn.card(card_id).label} has no unit on the map")
    return unit


# ---- movement ------------------------------------------------------------------------------------
def _passable(turn: Turn, side: str, unit: str, here: str, to: str) -> None:
    if not (turn.board.adjacent(here, to) or turn.tunnel_step(here, to)):
        raise Refused(f"{turn.tile_id(to)} is not next to {turn.tile_id(here)}")
    if turn.tunnel_step(here, to) and turn.unit(side, unit).tank:
        raise Refused("a tank cannot move through a tunnel")
    if turn.unit(side, unit).tank and turn.tile(to).impassable:
        raise Refused(f"a tank cannot enter {turn.tile_id(to)}, which is impassable")


def _move(turn: Turn, side: str, unit: str, to: str, how: str, need_marker: bool) -> None:
    token = turn.token(side, unit)
    _passable(turn, side, unit, token["tile"], to)
    if need_marker and not turn.marker(side, to):
        raise Refused(f"{turn.tile_id(to)} carries no {side} marker")
    turn.step(side, unit, to, how)


def move(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    _move(turn, side, _actor(turn, side, card_id), params["to"], "move", need_marker=True)


def stealth_move(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    _move(turn, side, _actor(turn, side, card_id), params["to"], "stealth move", need_marker=False)


def scout(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any], limit: int | None = None
          ) -> None:
    """Up to X tiles; each tile without the side's marker gets one scouted, for one Fog of War from
    the supply into the discard pile each (seed l.1370-1380)."""
    unit = _actor(turn, side, card_id)
    path = params["path"]
    if len(path) > (limit or action.value):
        raise Refused(f"the path has {len(path)} tiles; Scout {limit or action.value} allows no more")
    for to in path:
        _passable(turn, side, unit, turn.token(side, unit)["tile"], to)
        try:
            turn.step(side, unit, to, "scout")
        except ActionEnds:
            if turn.token(side, unit)["tile"] == to and not turn.marker(side, to):
                turn.ruling("scout_suppressed_on_entry", "A Scout suppressed by a fire lane on the tile it enters "
                            "places no marker there and takes no Fog of War: its action ends at once (l.1215).")
            raise
        if not turn.marker(side, to):
            turn.state["markers"][side][to] = "scouted"
            turn.log.add("marker_placed", side=side, tile=to, face="scouted")
            _fog_to_discard(turn, side, side, "scouting")


def _fog_to_discard(turn: Turn, side: str, by: str, why: str) -> None:
    fog = next((c for c in turn.zones(side)["supply"] if turn.card(c).kind == "fog_of_war"), None)
    if fog is None:
        turn.log.add("no_fog_left", side=side, why=why)
        return
    turn.move_card(side, fog, "supply", "discard")
    turn.log.add("fog_added", side=side, by=by, why=why,
                 left=sum(turn.card(c).kind == "fog_of_war" for c in turn.zones(side)["supply"]))


def maneuver(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    """Move one own unit 1 tile onto a tile with the side's marker; not suppressed, routed, or an
    anti-tank gun (seed l.1384; ruling maneuver_own_units)."""
    unit = params["unit"]
    token = turn.token(side, unit)
    u = turn.unit(side, unit)
    if token is None:
        raise Refused(f"{unit} is not on the map")
    if action.squad and u.squad != action.squad:
        raise Refused(f"Maneuver ({action.squad}) moves only squad {action.squad}")
    if token["suppressed"] or token["routed"] or u.type == "at_gun":
        raise Refused(f"{unit} is {'an anti-tank gun' if u.type == 'at_gun' else 'suppressed or routed'}")
    _move(turn, side, unit, params["to"], "maneuver", need_marker=True)


# ---- support -------------------------------------------------------------------------------------
def _take_from_supply(turn: Turn, side: str, ref: str, squad: str | None, target: str) -> None:
    card_id = find_card(turn, side, ref, "supply")
    if card_id is None:
        raise Refused(f"{ref} is not in the supply")
    if squad and turn.card(card_id).squad != squad:
        raise Refused(f"{turn.card(card_id).label} is not of squad {squad}")
    turn.move_card(side, card_id, "supply", target)
    turn.log.add("bolstered", side=side, card=card_id, name=turn.card(card_id).label, into=target)
    unit = turn.card(card_id).unit
    token = turn.token(side, unit) if unit else None
    if token and token["routed"]:
        token["routed"] = False
        turn.log.add("rout_cleared", side=side, unit=unit)
        turn.check_end()  # a unit no longer routed may complete its side's objective (l.1565, l.1593)


def bolster(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    cards = params.get("cards") or []
    if len(cards) > action.value:
        raise Refused(f"Bolster {action.value} takes no more than {action.value} cards")
    for ref in cards:
        _take_from_supply(turn, side, ref, action.squad, "discard")


def immediate_bolster(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    _take_from_supply(turn, side, params["take"], action.squad, "hand")


def follow_me(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    count = params.get("draw", action.value)
    if "draw" not in params:
        turn.log.add("default_applied", side=side, what=f"Follow me! draws all {action.value}: the orders say "
                                                        "no fewer")
    turn.ruling("follow_me", f"Follow me! {action.value} draws as many cards as the orders say, up to "
                f"{action.value}.")
    turn.draw(side, min(count, action.value), "Follow me!")


def confuse_the_enemy(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    _fog_to_discard(turn, other_side(side), side, "Confuse the Enemy")


def control(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    """Flip the side's scouted marker on the unit's tile to controlled, and an enemy controlled
    marker there to scouted; not while the enemy controls it with a unit that is not routed
    (seed l.1390-1400)."""
    tile = turn.token(side, _actor(turn, side, card_id))["tile"]
    enemy = other_side(side)
    if turn.marker(side, tile) != "scouted":
        raise Refused(f"{turn.tile_id(tile)} has no scouted {side} marker")
    if turn.marker(enemy, tile) == "controlled" and any(
            not turn.token(enemy, u)["routed"] for _, u in turn.units_on(tile, enemy)):
        raise Refused(f"the enemy controls {turn.tile_id(tile)} and holds it with a unit that is not routed")
    turn.state["markers"][side][tile] = "controlled"
    turn.log.add("marker_flipped", side=side, tile=tile, face="controlled")
    if turn.marker(enemy, tile) == "controlled":
        turn.state["markers"][enemy][tile] = "scouted"
        turn.log.add("marker_flipped", side=enemy, tile=tile, face="scouted")
    turn.check_end()


def _chosen_in_play(turn: Turn, side: str, card_id: str, params: dict[str, Any]) -> str:
    chosen = find_card(turn, side, params["chosen"], "play_area")
    if chosen is None:
        raise Refused(f"{params['chosen']} is not among the cards played this turn")
    return chosen


def _perform_chosen(turn: Turn, side: str, chosen: str, params: dict[str, Any], upgraded_allowed: bool) -> str:
    card = turn.card(chosen)
    perform_params = params["perform"]
    action = next((a for a in card.actions if a.action == perform_params["action"]
                   and (upgraded_allowed or not a.upgraded) and not a.unavailable), None)
    if action is None:
        raise Refused(f"{card.label} has no {action_name(perform_params['action'])} action that may be used so")
    try:
        _ready_to_act(turn, side, chosen)
    except Refused as why:
        raise Refused(str(why), ("inspire_ready_unit", "The unit of the card Inspire or Exertion chooses must be "
                                 "ready.")) from None
    turn.log.add("action_of_card", side=side, card=chosen, name=card.label, action=action.label)
    return perform(turn, side, chosen, action, perform_params)


def inspire(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    """Perform a non-upgraded action of a card played this turn of the squad (seed l.704,
    l.1360). The chosen card stays in the play area."""
    chosen = _chosen_in_play(turn, side, card_id, params)
    if action.squad and turn.card(chosen).squad != action.squad:
        raise Refused(f"{turn.card(chosen).label} is not of squad {action.squad}")
    if chosen == card_id:
        if not turn.state["options"].get("inspire_own_card", True):
            raise Refused("this game's option inspire_own_card forbids Inspire to choose its own card")
        turn.ruling("inspire_own_card", "Inspire may choose its own card, as the seed words it (l.704).")
    _perform_chosen(turn, side, chosen, params, upgraded_allowed=False)


def exertion(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    """Perform any action (upgraded too) of an infantry card played this turn, then its unit is
    suppressed (seed l.1212, l.1364; correction 3: a Machine Gunner's fire lane goes at once)."""
    chosen = _chosen_in_play(turn, side, card_id, params)
    card = turn.card(chosen)
    if not card.unit or turn.unit(side, card.unit).tank:
        raise Refused(f"{card.label} is not an infantry card")
    try:
        _perform_chosen(turn, side, chosen, params, upgraded_allowed=True)
    except ActionEnds:  # a mine or fire lane stopped it: the unit still acted, and is spent
        turn.suppress(side, card.unit)
        raise
    if card.unit in turn.state["fire_lanes"][side]:
        turn.ruling("exertion_machine_gunner", "Exertion suppresses its unit, so a fire lane placed with it is "
                    "lifted at once (correction 3).")
    turn.suppress(side, card.unit)


def recon(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    """Set aside a Fog of War from the hand and draw a card (seed l.1386). Fog of War cards are all
    alike, but everyone sees the id of the one set aside: it is the lowest of those the side holds
    face down (which ids these are, everyone can tell from the supply and the cards set aside), a
    Fog of War of the hand changing places with it, so that the id tells nothing of the hand."""
    zones = turn.zones(side)
    fog = next((c for c in zones["hand"] if turn.card(c).kind == "fog_of_war"), None)
    if fog is None:
        raise Refused("no Fog of War card in the hand")
    alike = min(c for zone in HIDDEN_ZONES for c in zones[zone] if turn.card(c).kind == "fog_of_war")
    holder = next(zone for zone in HIDDEN_ZONES if alike in zones[zone])
    if holder != "hand":
        zones[holder][zones[holder].index(alike)] = fog
        zones["hand"][zones["hand"].index(fog)] = alike
    turn.move_card(side, alike, "hand", "set_aside")
    turn.log.add("fog_set_aside", side=side, card=alike)
    turn.draw(side, 1, "Recon")


def secure_recon(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    try:
        recon(turn, side, card_id, action, params)
    except Refused as why:
        turn.ruling("secure_recon_without_fog", "Secure Recon without a Fog of War in the hand still allows its "
                    "Scout 1.")
        turn.log.add("action_failed", side=side, card=card_id, action="Recon", why=str(why))
    if params.get("path"):
        scout(turn, side, card_id, action, params, limit=1)


def rally(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    unit = params["unit"]
    token = turn.token(side, unit)
    if token is None or not token["suppressed"]:
        raise Refused(f"{unit} is not a suppressed unit on the map")
    if action.squad and turn.unit(side, unit).squad != action.squad:
        raise Refused(f"Rally ({action.squad}) readies only squad {action.squad}")
    token["suppressed"] = False
    turn.log.add("readied", side=side, unit=unit, why="Rally")


def smoke(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    unit = _actor(turn, side, card_id)
    tile = turn.token(side, unit)["tile"]
    laid = turn.state["laid"][side].setdefault(unit, {"mines": 0, "smoke": 0})
    if laid["smoke"] >= SMOKE_PER_UNIT:
        raise Refused(f"{unit} has laid its {SMOKE_PER_UNIT} smoke tokens this scenario")
    if tile in turn.state["smoke"]:
        raise Refused(f"{turn.tile_id(tile)} already has smoke")
    laid["smoke"] += 1
    turn.state["smoke"][tile] = {"side": side, "unit": unit}
    turn.log.add("smoke_placed", side=side, unit=unit, tile=tile)


def mines(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    """Up to X mines on edges of the unit's tile, AP or AT side up, not where the side has one;
    4 per unit per scenario, lifted mines counted (seed l.1190-1200)."""
    unit = _actor(turn, side, card_id)
    here = turn.token(side, unit)["tile"]
    wanted = params.get("mines") or []
    if len(wanted) > action.value:
        raise Refused(f"Mines {action.value} lays no more than {action.value}")
    laid = turn.state["laid"][side].setdefault(unit, {"mines": 0, "smoke": 0})
    for mine in wanted:
        toward = mine["toward"]
        if not turn.board.adjacent(here, toward):
            raise Refused(f"{toward} does not share an edge with {here}")
        if any(m["side"] == side and m["edge"] == edge(here, toward) for m in turn.state["mines"]):
            raise Refused(f"the edge {here}-{toward} already has a {side} mine")
        if laid["mines"] >= MINES_PER_UNIT:
            raise Refused(f"{unit} has laid its {MINES_PER_UNIT} mines this scenario")
        laid["mines"] += 1
        turn.state["mines"].append({"side": side, "unit": unit, "edge": edge(here, toward), "face": mine["face"]})
        turn.log.add("mine_placed", side=side, unit=unit, edge=edge(here, toward), face=mine["face"])


def fire_lane(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    unit = _actor(turn, side, card_id)
    if turn.unit(side, unit).type != "machine_gunners":
        raise Refused("only a Machine Gunners unit has a fire lane")
    turn.state["fire_lanes"][side][unit] = params["tile"]
    turn.log.add("fire_lane_placed", side=side, unit=unit, tile=params["tile"])


def anti_aircraft(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> None:
    """The enemy removes a Bomber for the campaign from hand, discard pile or draw deck (shuffled
    after); with none, the card may go back to the supply (seed l.1366, l.1420)."""
    enemy = other_side(side)
    bomber = turn.take(enemy, lambda card: card.name == "Bomber", ("hand", "discard", "deck"), "removed",
                       "a Bomber", "bomber_removed")
    if bomber:
        remove_from_campaign(turn.state["campaign"], enemy, bomber)
        return
    back = params.get("return_to_supply")
    if back is None:
        back = True
        turn.log.add("default_applied", side=side, what="the Anti-Aircraft card goes back to the supply: the enemy "
                                                        "has no Bomber, and the orders do not say to keep it")
    turn.log.add("no_bomber", side=enemy)
    if back:
        turn.move_card(side, card_id, "play_area", "supply")
        turn.log.add("card_returned", side=side, card=card_id)


SUPPORT_AND_MOVEMENT = {
    "move": move, "scout": scout, "stealth_move": stealth_move, "maneuver": maneuver, "bolster": bolster,
    "immediate_bolster": immediate_bolster, "follow_me": follow_me, "confuse_the_enemy": confuse_the_enemy,
    "control": control, "inspire": inspire, "recon": recon, "secure_recon": secure_recon, "rally": rally,
    "exertion": exertion, "smoke": smoke, "mines": mines, "fire_lane": fire_lane, "anti_aircraft": anti_aircraft,
}


# ---- combat --------------------------------------------------------------------------------------
AREA = ("bombard", "grenades", "suppressive_fire")
AGAINST_STRUCTURES = ("anti_tank", "demolition")
STRUCTURES_VS_INFANTRY = "Anti-Tank and Demolition may target infantry only where the card prints an infantry value."


def _targets(turn: Turn, side: str, action: Action, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The action's targets in the order they are resolved (seed l.1430-1440)."""
    name = action.action
    enemy = other_side(side)
    target = params["target"]
    if name in AREA:
        tile = target
        found = []
        version = turn.tile(tile)
        if name == "bombard" and not version.building:
            reading = turn.state["options"].get("bombard_open_ground", "units")
            turn.ruling("bombard_open_ground", f"Bombard on a tile without a building: {reading} (option "
                        "bombard_open_ground; the seed's 'no effect on them', l.1071).")
            if reading == "no effect":
                return []
        if name == "bombard":
            if version.building:
                found.append({"kind": "building", "tile": tile, "key": "building"})
            if tile in turn.state["tunnels"]:
                found.append({"kind": "tunnel", "tile": tile, "key": "tunnel"})
        for s, u in turn.units_on(tile):
            if (s == enemy or name == "bombard") and not turn.unit(s, u).tank:
                found.append({"kind": "unit", "side": s, "unit": u, "tile": tile, "key": f"{s}:{u}"})
        order = params.get("order")
        if order:
            rank = {key: i for i, key in enumerate(order)}
            found.sort(key=lambda t: rank.get(t["key"], len(rank)))
        elif len(found) > 1:
            turn.log.add("default_applied", side=side, what=f"{action_name(name)} on {turn.tile_id(tile)} resolves "
                         "the building, the tunnel, then the units in map order: the orders give no order")
        return found
    if target.startswith("tunnel "):
        tile = target.split()[1]
        if name not in AGAINST_STRUCTURES or tile not in turn.state["tunnels"]:
            raise Refused(f"{action_name(name)} cannot target a tunnel on {tile}")
        return [{"kind": "tunnel", "tile": tile, "key": "tunnel"}]
    if target in turn.state["tiles"]:
        if name not in AGAINST_STRUCTURES or not turn.tile(target).building:
            raise Refused(f"{action_name(name)} cannot target {turn.tile_id(target)}: no building it may attack")
        return [{"kind": "building", "tile": target, "key": "building"}]
    token = turn.token(enemy, target)
    if token is None:
        raise Refused(f"the enemy's {target} is not on the map")
    tank = turn.unit(enemy, target).tank
    if tank and name not in AGAINST_STRUCTURES:
        raise Refused(f"{action_name(name)} cannot target a tank")
    if not tank and name in AGAINST_STRUCTURES:
        if action.dice_against("infantry") is None:
            raise Refused(f"{action_name(name)} cannot target infantry: the card prints no value against it",
                          ("structures_vs_infantry", STRUCTURES_VS_INFANTRY))
        turn.ruling("structures_vs_infantry", STRUCTURES_VS_INFANTRY)
    return [{"kind": "unit", "side": enemy, "unit": target, "tile": token["tile"], "key": f"{enemy}:{target}"}]


def combat(turn: Turn, side: str, card_id: str, action: Action, params: dict[str, Any]) -> bool:
    """A combat action against its target or, for an area action, each target in turn; True when
    any roll succeeded."""
    card = turn.card(card_id)
    # the pushes belong to the combat action's own parameters, also inside a composite action,
    # Inspire or Exertion
    turn.pushes = {f"{p['side']}:{p['unit']}": p["to"] for p in params.get("pushes") or []}
    attacker = None
    if card.unit:
        attacker = {"unit": card.unit, "tile": turn.token(side, card.unit)["tile"]}
    elif action.action != "bombard":
        turn.ruling("command_card_fire", "A command card fires from off the map: no range bonus.")
    targets = _targets(turn, side, action, params)
    if not targets:
        turn.log.add("no_target", side=side, action=action.label, tile=params["target"])
        return False
    any_success = False
    for target in targets:
        if attacker and action.action != "bombard":
            reach = turn.range_to(attacker["tile"], target["tile"])
            if (action.range_max is not None and reach > action.range_max) or \
                    (action.range_min is not None and reach < action.range_min):
                raise Refused(f"{turn.tile_id(target['tile'])} is out of range of {action.label}: range {reach}")
        kind = "infantry" if target["kind"] == "unit" and not turn.unit(target["side"], target["unit"]).tank else \
            "tank" if target["kind"] == "unit" else "building"
        count = action.dice_against(kind)
        if count is None:
            turn.log.add("no_effect", side=target.get("side", side), unit=target.get("unit"),
                         why=f"{action.label} has no value against a {kind}")
            continue
        if turn.fire(side, action.action, count, attacker, target):
            any_success = True
            turn.hit(side, action.action, target)
    return any_success
