"""Playing cards: the zones of each side's cards, d10 fire, casualties, rout, movement with its mines
and fire lanes, and the scenario's end (seed l.560-1560; digest §2-§4.1).

`Turn` holds one exchange's state and log. Each rule is a method over the plain state; the orders
were read and checked before (orders.py), so what is left to decide here comes from the dice, the
hidden shuffles and the standing orders.
"""

from __future__ import annotations

from typing import Any, Callable

from pbem.core.events import EventLog
from pbem.rulesets.undaunted.board import Board, edge
from pbem.rulesets.undaunted.content import Card, Pack, Unit, other_side

CASUALTY_SEARCH = ("play_area", "hand", "discard", "deck")
HIDDEN_ZONES = ("deck", "hand", "discard", "casualties")
"""The zones whose cards only their owner sees; the other side knows their sizes (seed l.1501;
rulings discard_pile, hidden_zones)."""
SMOKE_BONUS, TUNNEL_DEFENCE = 2, 7
FIRE_LANE_SUPPRESS = 3
MINES_PER_UNIT, SMOKE_PER_UNIT = 4, 2
DEFAULT_PREFERENCE = ("reservist", "regular", "upgraded")


class ScenarioOver(Exception):
    """Raised when a side wins the scenario: the rest of the orders are void (digest §8 #52)."""

    def __init__(self, winner: str):
        super().__init__(winner)
        self.winner = winner


class ActionEnds(Exception):
    """A mine or fire lane stopped the unit: the action ends at once (seed l.1205, l.1215)."""


def d10(dice, count: int) -> list[int]:
    """`count` d10 read as the printed faces 0-9: the stream's 10 is the face 0."""
    return [face % 10 for face in dice.roll(count, 10)] if count else []


class Turn:
    def __init__(self, pack: Pack, state: dict[str, Any], log: EventLog, dice, hidden,
                 standing: dict[str, dict[str, Any]] | None = None) -> None:
        self.pack, self.state, self.log, self.dice, self.hidden = pack, state, log, dice, hidden
        self.board = Board(pack.layouts[pack.scenarios[state["scenario"]].layout])
        self.standing = standing or {}
        self.ruled: set[tuple[str, tuple[str, ...]]] = set()
        """The rulings said this exchange, each with its audience (none: public)."""
        self.acting: str | None = state.get("next_power")
        self.preferred = 0
        """How often the acting side's casualty preference chose among versions of a card."""
        self.pushes: dict[str, str | None] = {}
        """The pushes the acting side's current play chose: unit to tile (None: no push)."""

    # ---- looking things up -------------------------------------------------------------------
    def zones(self, side: str) -> dict[str, list[str]]:
        return self.state["sides"][side]

    def card(self, card_id: str) -> Card:
        return self.pack.cards[card_id]

    def unit(self, side: str, unit: str) -> Unit:
        return self.pack.units[side][unit]

    def token(self, side: str, unit: str) -> dict[str, Any] | None:
        """The unit's token on the map, or None when it is not deployed."""
        return self.state["units"][side].get(unit)

    def tile(self, number: str):
        return self.pack.tile(number, self.state["tiles"][number])

    def tile_id(self, number: str) -> str:
        return f"{number}-{self.state['tiles'][number]}"

    def marker(self, side: str, tile: str) -> str | None:
        return self.state["markers"][side].get(tile)

    def units_on(self, tile: str, side: str | None = None) -> list[tuple[str, str]]:
        """(side, unit) of every token on `tile`, Soviet first, in units.yaml order."""
        return [(s, u) for s in ("soviet", "german") if side in (None, s)
                for u in self.pack.units[s] if (self.token(s, u) or {}).get("tile") == tile]

    def ruling(self, name: str, text: str, to: list[str] | None = None) -> None:
        """Say in the report, once per exchange, that a ruling decided something: to `to` alone
        when what it decided is hidden from the others (a card that never left the hand)."""
        audience = tuple(to or ())
        if (name, ()) in self.ruled or (name, audience) in self.ruled:
            return
        self.ruled.add((name, audience))
        self.log.add("ruling", **({"to": list(audience)} if audience else {}), name=name, text=text)

    # ---- cards ---------------------------------------------------------------------------------
    def move_card(self, side: str, card_id: str, source: str, target: str) -> None:
        self.zones(side)[source].remove(card_id)
        self.zones(side)[target].append(card_id)

    def reshuffle(self, side: str) -> None:
        """An empty draw deck takes the discard pile, shuffled; never the play area (seed l.577)."""
        zones = self.zones(side)
        zones["deck"] = self.hidden.shuffle(sorted(zones["discard"]))
        zones["discard"] = []
        self.log.add("discard_reshuffled", side=side, count=len(zones["deck"]))

    def draw(self, side: str, count: int, reason: str) -> list[str]:
        """Draw up to `count` cards into the hand; fewer when deck and discard run out."""
        drawn = []
        zones = self.zones(side)
        for _ in range(count):
            if not zones["deck"] and zones["discard"]:
                self.reshuffle(side)
            if not zones["deck"]:
                break
            drawn.append(zones["deck"].pop(0))
        zones["hand"] += drawn
        self.log.add("cards_drawn", side=side, count=len(drawn), reason=reason, deck_left=len(zones["deck"]))
        self.log.add("cards_drawn_named", to=[side], side=side, cards=[self.card(c).label for c in drawn],
                     ids=drawn)
        return drawn

    def take(self, side: str, wanted: Callable[[Card], bool], zones: tuple[str, ...], into: str, what: str,
             event: str, **fields: Any) -> str | None:
        """Move one `wanted` card of the first of `zones` that holds one (the owner's choice among
        several) to `into`, shuffling a draw deck it came from (seed l.1490-1505, l.1366): the card,
        or None when no zone holds one. The public `event` names the zone and the card only when the
        zone is public, with the size of `into`; its owner alone hears where the card came from
        (ruling hidden_zones), so that nothing the others cannot see is said to them."""
        mine = self.zones(side)
        zone = next((z for z in zones if any(wanted(self.card(c)) for c in mine[z])), None)
        if zone is None:
            return None
        chosen = self.choose(side, [c for c in mine[zone] if wanted(self.card(c))], f"{what}, from the {zone}")
        self.move_card(side, chosen, zone, into)
        shown = {} if zone in HIDDEN_ZONES else {"zone": zone, "card": self.card(chosen).label}
        self.log.add(event, side=side, **fields, **shown, **{into: len(mine[into])})
        self.log.add("card_taken", to=[side], side=side, card=chosen, zone=zone, into=into)
        if zone in HIDDEN_ZONES:
            self.ruling("hidden_zones", "Which hidden zone a card is taken from, and which card, is told to its "
                        "owner alone; the others hear the unit and the zones' sizes.", to=[side])
        if zone == "discard":
            self.ruling("discard_pile", "A discard pile's size is public; its cards are seen by their owner only.",
                        to=[side])
        if zone == "deck":
            mine["deck"] = self.hidden.shuffle(mine["deck"])
            self.log.add("deck_shuffled", to=[side], side=side, why=f"{what} was taken from it")
        return chosen

    def preference(self, side: str) -> list[str]:
        return list(self.standing.get(side, {}).get("casualty_preference") or DEFAULT_PREFERENCE)

    def choose(self, side: str, matching: list[str], what: str) -> str:
        """The owner's choice among several matching cards in one zone (seed l.1495): by the tiers
        of its standing orders, then the lowest id (identical cards)."""
        order = self.preference(side)
        chosen = min(matching, key=lambda c: (order.index(self.card(c).tier), c))
        tiers = {self.card(c).tier for c in matching}
        self.preferred += len(tiers) > 1 and side == self.acting
        if len(tiers) > 1 and "casualty_preference" not in self.standing.get(side, {}):
            self.log.add("default_applied", to=[side], side=side,
                         what=f"{what}: {self.card(chosen).label} {chosen} ({self.card(chosen).tier}) by the "
                              f"default order {', '.join(DEFAULT_PREFERENCE)}")
        return chosen

    # ---- victory -------------------------------------------------------------------------------
    def objective_total(self, side: str) -> int:
        return sum(v for t, v in self.state["objectives"].items() if self.marker(side, t) == "controlled")

    def vp_total(self, side: str) -> int:
        return sum(v for t, v in self.state["vp_tokens"].items() if self.marker(side, t) == "controlled")

    def met(self, side: str, objective: dict[str, Any]) -> str | None:
        """How `side` meets one objective of its scenario (seed p. 30, l.1567-1600), or None."""
        (kind, arg), = objective.items()
        enemy = other_side(side)
        if kind == "control_objectives":
            total = self.objective_total(side)
            return f"controls objectives worth {total} of {arg}" if total >= arg else None
        if kind == "control_vp":
            total = self.vp_total(side)
            return f"controls tiles with {total} of {arg} VP" if total >= arg else None
        if kind == "total":
            counts = {"control_objectives": self.objective_total, "control_vp": self.vp_total}
            total = sum(counts[part](side) for part in arg["of"])
            if total < arg["at_least"]:
                return None
            self.ruling("and_or_objectives", "The amounts of an and/or objective count towards one total.")
            return f"holds {total} of {arg['at_least']} in objectives and VP"
        if kind == "rout_units":
            routed = [u for u, token in self.state["units"][enemy].items() if token["routed"]]
            if "units" in arg:
                return f"routed {', '.join(arg['units'])} at once" if set(arg["units"]) <= set(routed) else None
            return f"routed {len(routed)} enemy units at once" if len(routed) >= arg["count"] else None
        if kind == "move_units":
            tile = self.state["tokens"].get(arg["token"])
            there = all((self.token(side, u) or {}).get("tile") == tile and not self.token(side, u)["routed"]
                        for u in arg["units"])
            return f"brought {', '.join(arg['units'])} to the {arg['token']} token" if tile and there else None
        found = [self.met(side, part) for part in arg]
        if kind == "all":
            return "; ".join(found) if all(found) else None
        return next((how for how in found if how), None)  # any

    def check_end(self) -> None:
        """End the scenario the moment a side meets its objective or routs all enemy Riflemen
        (seed l.1560-1600); both at once: the acting side wins (ruling simultaneous_victory)."""
        scenario = self.pack.scenarios[self.state["scenario"]]
        acting = self.acting or "soviet"
        won = []
        for side in (acting, other_side(acting)):
            how = self.met(side, scenario.objectives[side])
            if how:
                won.append((side, how))
            enemy = other_side(side)
            riflemen = [u for u, unit in self.pack.units[enemy].items()
                        if unit.type == "riflemen" and self.token(enemy, u)]
            if scenario.total_rout and riflemen and all(self.token(enemy, u)["routed"] for u in riflemen):
                won.append((side, "routed every enemy Riflemen unit (total rout)"))
        if not won:
            return
        if len({w for w, _ in won}) > 1:
            self.ruling("simultaneous_victory", "Both sides met a victory condition in one event; the side whose "
                        "turn it is wins (the seed gives no order).")
        side, how = won[0]
        self.finish(side, how)

    def finish(self, winner: str, how: str) -> None:
        self.state["phase"] = "over"
        self.log.add("scenario_won", side=winner, how=how, scenario=self.state["scenario"])
        raise ScenarioOver(winner)

    # ---- fire ----------------------------------------------------------------------------------
    def defence(self, action: str, attacker_tile: str | None, target: dict[str, Any]) -> dict[str, int]:
        """The parts of the target's total defence (seed l.1441-1470, l.1226): base defence, cover
        (building cover from another tile, fortification cover on a tile its side controls; none
        against Demolition or a mine), range (none for Bombard or a mine), smoke (none against
        Demolition or a mine)."""
        kind = target["kind"]
        tile = target["tile"]
        version = self.tile(tile)
        if kind in ("building", "tunnel"):
            # a structure's base defence, plus range like any target (l.1441-1451): it has no cover to lose
            parts = {"durability": version.durability} if kind == "building" else {"tunnel": TUNNEL_DEFENCE}
            if action != "bombard" and attacker_tile is not None:
                parts["range"] = self.range_to(attacker_tile, tile)
            return parts
        unit = self.unit(target["side"], target["unit"])
        parts = {"armour" if unit.tank else "base": unit.defence}
        if action == "mine":
            return parts
        if action != "demolition":
            if version.fortification_cover is not None and self.marker(target["side"], tile) == "controlled":
                parts["fortification cover"] = version.fortification_cover
            elif version.building and attacker_tile != tile:
                parts["building cover"] = version.building_cover
                if attacker_tile is None:
                    self.ruling("bombard_cover", "An attack from off the map (Bombard) is an attack from another "
                                "tile: a building's cover counts.")
            else:
                parts["cover"] = version.cover
        if action != "bombard" and attacker_tile is not None:
            parts["range"] = self.range_to(attacker_tile, tile)
        if action != "demolition" and tile in self.state["smoke"]:
            parts["smoke"] = SMOKE_BONUS
        return parts

    def range_to(self, attacker_tile: str, tile: str) -> int:
        """The map distance from the attacker to the target, also between two tiles a tunnel joins."""
        reach = self.board.distance(attacker_tile, tile)
        if reach > 1 and self.tunnel_step(attacker_tile, tile):
            self.ruling("tunnels_and_range", "Range counts tiles on the map: a tunnel joins its tiles for movement "
                        "only, so it does not shorten the range.")
        return reach

    def fire(self, side: str, action: str, count: int, attacker: dict[str, Any] | None,
             target: dict[str, Any]) -> bool:
        """Roll `count` d10 against the target's total defence; any die at or above it, or a 0,
        succeeds (seed l.1475-1485). Records the attack."""
        parts = self.defence(action, attacker["tile"] if attacker else None, target)
        total = sum(parts.values())
        dice = d10(self.dice, count)
        success = any(d == 0 or d >= total for d in dice)
        self.log.add("attack", side=side, action=action, by=attacker["unit"] if attacker else None,
                     from_tile=attacker["tile"] if attacker else None, target=self.describe(target),
                     target_tile=target["tile"], defence=parts, total=total, dice=dice, success=success)
        return success

    def describe(self, target: dict[str, Any]) -> dict[str, Any]:
        if target["kind"] in ("building", "tunnel"):
            return {"kind": target["kind"], "tile": self.tile_id(target["tile"])}
        return {"kind": "unit", "side": target["side"], "unit": target["unit"]}

    def hit(self, attacker_side: str, action: str, target: dict[str, Any]) -> None:
        """The result of a successful combat action on its target (seed l.1487-1520)."""
        kind = target["kind"]
        if kind == "building":
            self.damage_building(target["tile"])
        elif kind == "tunnel":
            self.state["tunnels"].remove(target["tile"])
            self.state["tunnels_destroyed"].append(target["tile"])
            self.state["campaign"]["tunnels_destroyed"].append(target["tile"])
            self.log.add("tunnel_destroyed", tile=target["tile"])
        elif action in ("suppress", "suppressive_fire"):
            self.suppress(target["side"], target["unit"])
        else:
            routed = self.casualty(target["side"], target["unit"])
            if routed or action == "flamethrower":  # one push per action, even when both apply
                self.push(attacker_side, target["side"], target["unit"], "rout" if routed else "flamethrower")
            self.check_end()

    def damage_building(self, tile: str) -> None:
        """A hit building becomes the tile of the next letter, for the rest of the campaign (seed
        l.1073-1077)."""
        before = self.tile_id(tile)
        letter = chr(ord(self.state["tiles"][tile]) + 1)
        self.state["tiles"][tile] = letter
        self.state["campaign"]["city"][tile] = letter  # the city stays changed for the campaign
        destroyed = not self.tile(tile).building
        self.log.add("building_damaged", tile=tile, before=before, after=self.tile_id(tile), destroyed=destroyed)

    def suppress(self, side: str, unit: str) -> None:
        token = self.token(side, unit)
        if token["routed"]:
            self.ruling("suppress_routed", "Suppressing a routed unit has no effect.")
            self.log.add("no_effect", side=side, unit=unit, why="routed")
            return
        if token["suppressed"]:
            self.log.add("no_effect", side=side, unit=unit, why="already suppressed")
            return
        token["suppressed"] = True
        self.log.add("suppressed", side=side, unit=unit, tile=token["tile"])
        self.lift_fire_lane(side, unit, "suppressed")

    def lift_fire_lane(self, side: str, unit: str, why: str) -> None:
        if unit in self.state["fire_lanes"][side]:
            tile = self.state["fire_lanes"][side].pop(unit)
            self.log.add("fire_lane_removed", side=side, unit=unit, tile=tile, why=why)

    def casualty(self, side: str, unit: str) -> bool:
        """The owner loses one card of the hit unit: play area, hand, discard pile, then draw deck
        (shuffled after); with none the unit routs (seed l.1490-1505). True when it routs."""
        zones = self.zones(side)
        self.lift_fire_lane(side, unit, "casualty")
        if self.take(side, lambda card: card.unit == unit, CASUALTY_SEARCH, "casualties",
                     f"a casualty of {self.unit(side, unit).label}", "casualty", unit=unit):
            return False
        if zones["deck"]:
            self.ruling("fruitless_search", "A search of the draw deck that finds no card of the unit does not "
                        "shuffle it, and nothing of its order is shown.")
        token = self.token(side, unit)
        again = token["routed"]
        token["routed"] = True
        self.log.add("routed", side=side, unit=unit, tile=token["tile"], again=again)
        return True

    def push(self, by: str, side: str, unit: str, cause: str) -> None:
        """The attacker may move a routed or flamed unit to an adjacent tile that carries its owner's
        marker; a suppressed unit so moved is readied; never an anti-tank gun, never through a
        tunnel, no mine or fire lane triggers (seed l.1500-1520). The orders (for the mover) or
        standing orders (for a mine's owner) say where. The mover's orders are carried out in
        public; standing orders are their owner's secret, so when they push nobody, why is told to
        their owner alone and the others hear only that there was no push."""
        token = self.token(side, unit)
        if self.unit(side, unit).type == "at_gun":
            return
        standing = by != self.acting
        if standing:
            wanted, source = list(self.standing.get(by, {}).get("mine_push") or []), "standing orders"
        else:
            wanted, source = [self.pushes[f"{side}:{unit}"]] if self.pushes.get(f"{side}:{unit}") else [], "orders"
        marked = [t for t in self.board.neighbours[token["tile"]] if self.marker(side, t)]
        legal = [t for t in marked if not (self.unit(side, unit).tank and self.tile(t).impassable)]
        to = next((t for t in wanted if t in legal), None)
        if to is None:
            told = {"to": [by]} if standing else {}
            if set(wanted) & set(marked) - set(legal):
                self.ruling("tank_push", "A routed tank is never pushed onto an impassable tile.", **told)
            if not wanted:
                self.log.add("default_applied", **told, side=by,
                             what=f"no push of {side} {unit}: the {source} name no tile")
            else:
                self.log.add("push_refused", **told, side=by, unit=unit, wanted=wanted[0],
                             why=f"no tile of {', '.join(wanted)} is next to {token['tile']} with a {side} marker"
                                 + (" and open to a tank" if self.unit(side, unit).tank else ""))
            if standing:
                self.log.add("not_pushed", side=by, target_side=side, unit=unit)
            return
        before = token["tile"]
        token["tile"] = to
        self.log.add("pushed", side=by, target_side=side, unit=unit, from_tile=before, to_tile=to, cause=cause)
        if token["suppressed"]:
            token["suppressed"] = False
            self.log.add("readied", side=side, unit=unit, why="pushed")
        self.lift_fire_lane(side, unit, "moved")

    # ---- movement ------------------------------------------------------------------------------
    def tunnel_step(self, a: str, b: str) -> bool:
        return a in self.state["tunnels"] and b in self.state["tunnels"] and a != b

    def step(self, side: str, unit: str, to: str, how: str) -> None:
        """Move a token one tile: enemy mines on the edge first, then an enemy fire lane on the tile
        entered (ruling mine_before_fire_lane). `ActionEnds` when either stops it."""
        token = self.token(side, unit)
        here = token["tile"]
        tank = self.unit(side, unit).tank
        enemy = other_side(side)
        if not self.tunnel_step(here, to):
            for mine in list(self.state["mines"]):
                if mine["side"] == enemy and mine["edge"] == edge(here, to) and (mine["face"] == "AT") == tank:
                    self.trigger_mine(mine, side, unit)
        token["tile"] = to
        self.log.add("moved", side=side, unit=unit, from_tile=here, to_tile=to, how=how,
                     tunnel=self.tunnel_step(here, to))
        self.lift_fire_lane(side, unit, "moved")
        self.check_end()  # a unit may reach its mission or exit token
        for mg, lane in list(self.state["fire_lanes"][enemy].items()):
            if lane == to and not tank and self.token(enemy, mg):
                mg_token = self.token(enemy, mg)
                target = {"kind": "unit", "side": side, "unit": unit, "tile": to}
                self.log.add("fire_lane_triggered", side=enemy, unit=mg, tile=to, target=unit)
                if self.fire(enemy, "suppress", FIRE_LANE_SUPPRESS, {"unit": mg, "tile": mg_token["tile"]}, target):
                    self.suppress(side, unit)
                    raise ActionEnds(f"the fire lane of {enemy} {mg} suppressed it")

    def trigger_mine(self, mine: dict[str, Any], side: str, unit: str) -> None:
        """An enemy mine attacks a unit crossing its edge: Attack 1 (AP) or Demolition 1 (AT) against
        base defence alone; a casualty stops the unit before the edge, ends its action and lifts the
        mine (seed l.1195-1210)."""
        here = self.token(side, unit)["tile"]
        self.log.add("mine_triggered", side=mine["side"], edge=mine["edge"], face=mine["face"], target=unit)
        target = {"kind": "unit", "side": side, "unit": unit, "tile": here}
        if self.fire(mine["side"], "mine", 1, None, target):
            self.state["mines"].remove(mine)
            self.log.add("mine_removed", side=mine["side"], edge=mine["edge"])
            self.ruling("mine_after_rout", "A mine that routs the unit it hits is removed as after any casualty; "
                        "its owner pushes the routed unit (seed l.1499).")
            if self.casualty(side, unit):
                self.push(mine["side"], side, unit, "rout")
            self.check_end()
            raise ActionEnds("an enemy mine hit it")
        self.ruling("mines", "A mine that does not hit stays on its edge and triggers again on every crossing.")

    # ---- deployment ----------------------------------------------------------------------------
    def deploy_tiles(self, side: str, unit: str) -> list[str]:
        """Where an undeployed unit may be placed: the tile of its squad's Riflemen, any Riflemen
        without a squad, no impassable tile for a tank (seed l.640-660)."""
        u = self.unit(side, unit)
        anchors = [self.token(side, r)["tile"] for r, ru in self.pack.units[side].items()
                   if ru.type == "riflemen" and self.token(side, r)
                   and (u.squad is None or u.tank or ru.squad == u.squad)]
        if u.tank:
            anchors = [t for t in anchors if not self.tile(t).impassable]
        return sorted(set(anchors), key=self.board.tiles.index)
