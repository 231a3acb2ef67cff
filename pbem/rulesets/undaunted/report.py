"""Undaunted: Stalingrad reports: one public report and one private report per side.

Each report is built from one audience's view of the state and from the events that audience may
see (an event whose `to` lists sides is seen only by them). Public sentences name cards, never
card ids: the id of a card in a hand, draw deck or discard pile is its owner's to know.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pbem.core.dice import seed_check_command
from pbem.core.events import EventLog, seen_by
from pbem.core.turn import TurnInputs
from pbem.render.reports import reports_with_map
from pbem.render.templates import template, within_post_limit
from pbem.rulesets import get_ruleset
from pbem.rulesets.undaunted.content import SIDES, Pack, action_name, other_side
from pbem.rulesets.undaunted.turn import WINNING_POSITION

SIDE = {"soviet": "Soviet", "german": "German"}
PEOPLE = {"soviet": "the Soviets", "german": "the Germans"}
DEFENCE_WORDS = {"base": "defence", "tunnel": "tunnel defence"}
ZONE_WORDS = {"play_area": "play area", "hand": "hand", "discard": "discard pile", "deck": "draw deck"}
TAKEN_INTO = {"casualties": "goes to your casualty pile", "removed": "is removed for the campaign"}
CARD_ID = re.compile(r"\b[SN]-[PZVR]-[0-9]{3}\b")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Narrator:
    """Events as sentences, each tile named by the version it had at that moment of the exchange
    (a building hit mid-exchange changes its letter)."""

    def __init__(self, pack: Pack, tiles: dict[str, str]) -> None:
        self.pack, self.letters = pack, dict(tiles)

    def tile(self, number: str) -> str:
        return f"{number}-{self.letters[number]}"

    def unit(self, side: str, unit: str) -> str:
        return f"{SIDE[side]} {self.pack.units[side][unit].label}"

    def card(self, ref: str) -> str:
        """A card by its name; `ref` is an id, or a name as the orders wrote it."""
        return self.pack.cards[ref].label if ref in self.pack.cards else ref

    def edge(self, tiles: list[str]) -> str:
        return f"between {self.tile(tiles[0])} and {self.tile(tiles[1])}"

    def named(self, text: str) -> str:
        """Card ids in an event's free text (a reason may quote the orders) as card names."""
        return CARD_ID.sub(lambda m: self.card(m.group()), text)

    def attack(self, e: dict[str, Any]) -> str:
        side = e["side"]
        if e["action"] == "mine":
            who, what = f"A {SIDE[side]} mine", _plural(len(e["dice"]), "die")
        else:
            who = f"{self.unit(side, e['by'])} on {self.tile(e['from_tile'])}" if e["by"] else \
                f"{SIDE[side]} fire from off the map"
            what = f"{action_name(e['action'])} {len(e['dice'])}"
        target = e["target"]
        whom = self.unit(target["side"], target["unit"]) if target["kind"] == "unit" else f"the {target['kind']}"
        parts = " + ".join(f"{DEFENCE_WORDS.get(k, k)} {v}" for k, v in e["defence"].items())
        dice = ", ".join(str(d) for d in e["dice"])
        return f"{who}: {what} at {whom} on {self.tile(e['target_tile'])}: {parts} = {e['total']}; " \
               f"{'die' if len(e['dice']) == 1 else 'dice'} {dice}: {'success' if e['success'] else 'failure'}."

    def line(self, e: dict[str, Any]) -> str | None:
        """One event as a sentence; None for events the report shows elsewhere."""
        kind = e["type"]
        side = e.get("side")
        who = _cap(PEOPLE[side]) if side in PEOPLE else ""
        if kind == "bids_revealed":
            bids = "; ".join(f"{PEOPLE[s]} bid {bid['name']} (initiative {bid['initiative']})"
                             for s, bid in e["bids"].items())
            held = "keep" if e["tie"] else "take"
            return f"Bids of round {e['round']}: {bids}. {_cap(PEOPLE[e['initiative']])} {held} the initiative" + \
                (" (a tie leaves it where it was)." if e["tie"] else ".")
        if kind == "card_played":
            if e["use"] == "ready":
                return f"{who} play {self.card(e['card'])} to ready its unit."
            if e["use"] == "withdraw":
                return f"{who} withdraw {self.card(e['card'])} to their supply."
            return f"{who} play {self.card(e['card'])}: {e['action']}."
        if kind == "action_of_card":
            return f"{who} use {self.card(e['card'])}'s {e['action']}."
        if kind == "attack":
            return self.attack(e)
        if kind == "casualty":
            which = f"the {e['card']} card from the {ZONE_WORDS[e['zone']]}" if "zone" in e else "one of its cards"
            return f"{self.unit(side, e['unit'])} takes a casualty: {which} goes to the casualty pile " \
                   f"({e['casualties']} there)."
        if kind == "card_taken":
            return f"Your {self.card(e['card'])} {e['card']} from your {ZONE_WORDS[e['zone']]} " \
                   f"{TAKEN_INTO[e['into']]}."
        if kind == "routed":
            return f"{self.unit(side, e['unit'])} on {self.tile(e['tile'])} is routed{' again' if e['again'] else ''}."
        if kind == "pushed":
            return f"{who} push {self.unit(e['target_side'], e['unit'])} from {self.tile(e['from_tile'])} to " \
                   f"{self.tile(e['to_tile'])} ({e['cause']})."
        if kind == "push_refused":
            return f"{who} cannot push {self.unit(other_side(side), e['unit'])}: {e['why']}."
        if kind == "not_pushed":
            return f"{who} do not push {self.unit(e['target_side'], e['unit'])}."
        if kind == "suppressed":
            return f"{self.unit(side, e['unit'])} on {self.tile(e['tile'])} is suppressed."
        if kind == "readied":
            why = {"card": "a card of the unit", "Rally": "Rally", "pushed": "pushed"}.get(e["why"], e["why"])
            return f"{self.unit(side, e['unit'])} is ready again ({why})."
        if kind == "rout_cleared":
            return f"{self.unit(side, e['unit'])} is no longer routed."
        if kind == "no_effect":
            target = f" on {self.unit(side, e['unit'])}" if e.get("unit") else ""
            return f"No effect{target}: {e['why']}."
        if kind == "moved":
            via = ", through the tunnel" if e["tunnel"] else ""
            return f"{self.unit(side, e['unit'])} moves {self.tile(e['from_tile'])} → {self.tile(e['to_tile'])} " \
                   f"({e['how']}{via})."
        if kind == "deployed":
            return f"{self.unit(side, e['unit'])} deploys on {self.tile(e['tile'])}."
        if kind == "marker_placed":
            return f"{who} place a {e['face']} marker on {self.tile(e['tile'])}."
        if kind == "marker_flipped":
            return f"{who} turn their marker on {self.tile(e['tile'])} to {e['face']}."
        if kind == "fog_added":
            by = f" by {PEOPLE[e['by']]}" if e["by"] != side else ""
            return f"A Fog of War goes from the {SIDE[side]} supply to their discard pile ({e['why']}{by}; " \
                   f"{e['left']} left in the supply)."
        if kind == "no_fog_left":
            return f"The {SIDE[side]} supply has no Fog of War left ({e['why']})."
        if kind == "fog_set_aside":
            return f"{who} set a Fog of War aside."
        if kind == "cards_drawn":
            return f"{who} draw {_plural(e['count'], 'card')} ({e['reason']}; {e['deck_left']} left in the draw deck)."
        if kind == "cards_drawn_named":
            return "You drew: " + (", ".join(f"{self.card(c)} {c}" for c in e["ids"]) or "nothing") + "."
        if kind == "discard_reshuffled":
            return f"{who} shuffle their discard pile into a new draw deck ({_plural(e['count'], 'card')})."
        if kind == "deck_shuffled":
            return f"{who} shuffle their draw deck ({e['why']})."
        if kind == "bolstered":
            return f"{who} bolster: {self.card(e['card'])} from the supply to their {ZONE_WORDS[e['into']]}."
        if kind == "card_returned":
            return f"{who} return {self.card(e['card'])} to their supply."
        if kind == "bomber_removed":
            where = f" from their {ZONE_WORDS[e['zone']]}" if "zone" in e else ""
            return f"{who} remove a Bomber{where} for the campaign."
        if kind == "no_bomber":
            return f"{who} have no Bomber to remove."
        if kind == "mine_placed":
            return f"{self.unit(side, e['unit'])} lays an {e['face']} mine {self.edge(e['edge'])}."
        if kind == "mine_triggered":
            return f"A {SIDE[side]} {e['face']} mine {self.edge(e['edge'])} fires at " \
                   f"{self.unit(other_side(side), e['target'])}."
        if kind == "mine_removed":
            return f"The {SIDE[side]} mine {self.edge(e['edge'])} is removed."
        if kind == "smoke_placed":
            return f"{self.unit(side, e['unit'])} lays smoke on {self.tile(e['tile'])}."
        if kind == "fire_lane_placed":
            return f"{self.unit(side, e['unit'])} sets a fire lane on {self.tile(e['tile'])}."
        if kind == "fire_lane_removed":
            return f"The fire lane of {self.unit(side, e['unit'])} on {self.tile(e['tile'])} is lifted ({e['why']})."
        if kind == "fire_lane_triggered":
            return f"{self.unit(other_side(side), e['target'])} enters the fire lane of " \
                   f"{self.unit(side, e['unit'])} on {self.tile(e['tile'])}."
        if kind == "building_damaged":
            self.letters[e["tile"]] = e["after"].split("-")[1]
            return f"The building on {e['before']} is {'destroyed' if e['destroyed'] else 'damaged'}: the tile is " \
                   f"now {e['after']}."
        if kind == "tunnel_destroyed":
            return f"The tunnel on {self.tile(e['tile'])} is destroyed."
        if kind == "no_target":
            return f"{who} play {e['action']} on {self.tile(e['tile'])}: no target there."
        if kind == "play_failed":
            return f"{who} cannot play {self.card(e['card'])} ({e['order']}): {e['why']}; the card stays " \
                   f"{e['kept']}."
        if kind == "play_not_taken":
            return f"{who} do not play {self.card(e['card'])} ({e['order']}): {e['why']}."
        if kind == "play_outcome":
            return None  # the public lines tell the play; the event names its place in the orders
        if kind == "order_void":
            return f"{who}' {e['order']} is void: {e['why']}."
        if kind == "preference_used":
            return f"{who}' {e['order'].replace('_', ' ')}: {e['what']}."
        if kind == "action_failed":
            return f"{self.card(e['card'])}: {e['action']} fails: {e['why']}; the card is spent and stays " \
                   f"{e['spent']}."
        if kind == "action_ended":
            return f"{self.card(e['card'])}: the action ends: {e['why']}."
        if kind == "turn_continues":
            return f"The {SIDE[side]} turn continues after this report."
        if kind == "turn_ended":
            held = e["discarded"]
            return f"The {SIDE[side]} turn ends: {_plural(held['play_area'], 'played card')} and " \
                   f"{_plural(held['hand'], 'card')} left in the hand go to the discard pile."
        if kind == "withdrawal":
            return f"{who} withdraw from the scenario."
        if kind == "scenario_won":
            return f"{who} win the scenario: {e['how']}."
        return self.campaign_line(e)

    def campaign_line(self, e: dict[str, Any]) -> str | None:
        """The campaign's events between two scenarios."""
        kind, side = e["type"], e.get("side")
        if kind == "victory_phase":
            area = f"; they now hold {e['area']}" if e["area"] else ""
            return f"Victory phase of #{e['scenario']}: {PEOPLE[e['winner']]} win{area}. Game-state code " \
                   f"{e['code']} becomes {e['new_code'] or 'none (the scenario gives no next code)'}."
        if kind == "casualty_phase":
            return f"Casualty phase: {PEOPLE[side]} have {_plural(e['pile'], 'card')} in the casualty pile: " \
                   f"up to {e['up_to']} lost for good (never a reservist)."
        if kind == "permanent_casualties":
            lost = ", ".join(f"{self.card(c)} {c}" for c in e["cards"]) or "none"
            now = "; ".join(f"{old} is replaced by the reservist {new}" for old, new in e["reservists"].items())
            return f"Your permanent casualties: {lost}" + (f"; {now}." if now else ".")
        if kind == "upgrade_phase":
            return f"Upgrade phase: {PEOPLE[side]} upgrade up to {_plural(e['up_to'], 'regular unit card')}."
        if kind == "upgrades":
            done = ", ".join(f"{old} becomes {new} ({self.card(new)})" for old, new in e["cards"].items())
            return f"Your upgrades: {done or 'none'}."
        if kind == "content_missing":
            return f"The content pack lacks the {e['what']} cards {', '.join(e['cards'])}: they were passed over."
        if kind == "card_unlocked":
            return f"Unlocked for you: {e['name']} {e['card']}."
        if kind == "card_replaced":
            return f"{e['replaced']} is replaced by {e['name']} {e['card']}."
        if kind == "squads_merged":
            return f"{_cap(PEOPLE[side])} merge squads {' and '.join(e['squads'])} into one squad."
        if kind == "story":
            return f"Story {e['code']} leads to scenario #{e['scenario']}."
        if kind == "scenario_set_up":
            fortified = f"; fortified: {', '.join(e['fortified'])}" if e["fortified"] else ""
            return f"Scenario #{e['scenario']} {e['name']} is set up (game-state code {e['code']}; " \
                   f"{PEOPLE[e['initiative']]} hold the initiative{fortified})."
        if kind == "campaign_over":
            winner = f"{PEOPLE[e['epic_victory']]} hold every area: an epic victory" if e["epic_victory"] else \
                "no side holds every area: the final battle, which the rulebook leaves to the scenario books, decides"
            return f"The campaign is over at code {e['code']}: {winner}."
        return None


def _hand_card(pack: Pack, card_id: str) -> str:
    card = pack.cards[card_id]
    actions = " | ".join(a.label + (" (unavailable)" if a.unavailable else "") for a in card.actions)
    return f"{card.label} {card_id}: initiative {card.initiative}; {actions or 'no actions'}"


def _cards(pack: Pack, ids: list[str]) -> str:
    return ", ".join(f"{pack.cards[c].label} {c}" for c in ids) or "none"


def _count(zone: list[str] | int) -> int:
    return zone if isinstance(zone, int) else len(zone)


def _side_position(pack: Pack, seen: dict[str, Any], side: str, tile) -> dict[str, Any]:
    units = []
    for unit, token in seen["units"][side].items():
        state = [word for word, on in (("suppressed", token["suppressed"]), ("routed", token["routed"])) if on]
        units.append({"unit": unit, "name": pack.units[side][unit].label, "tile": tile(token["tile"]),
                      "state": ", ".join(state) or "ready"})
    markers = seen["markers"][side]
    zones = seen["sides"][side]
    supply = Counter(pack.cards[c].label for c in sorted(zones["supply"]))
    return {"name": SIDE[side], "units": units,
            "controlled": ", ".join(tile(t) for t, face in markers.items() if face == "controlled") or "none",
            "scouted": ", ".join(tile(t) for t, face in markers.items() if face == "scouted") or "none",
            "counts": {zone: _count(zones[zone]) for zone in ("hand", "deck", "discard", "casualties", "set_aside")},
            "supply": ", ".join(f"{n} {label}" for label, n in supply.items()) or "empty"}


def _on_the_map(seen: dict[str, Any], narrator: Narrator) -> list[str]:
    """Mines, smoke, fire lanes and tunnels, as sentences."""
    found = [f"{SIDE[m['side']]} {m['face']} mine {narrator.edge(m['edge'])}" for m in seen["mines"]]
    found += [f"Smoke on {narrator.tile(t)} ({narrator.unit(s['side'], s['unit'])})" for t, s in seen["smoke"].items()]
    found += [f"Fire lane of {narrator.unit(side, unit)} on {narrator.tile(t)}"
              for side in SIDES for unit, t in seen["fire_lanes"][side].items()]
    found += [f"Tunnel on {narrator.tile(t)}" for t in seen["tunnels"]]
    found += [f"{_plural(value, 'VP token')} on {narrator.tile(t)}" for t, value in seen["vp_tokens"].items()]
    found += [f"The {kind} token on {narrator.tile(t)}" for kind, t in seen["tokens"].items()]
    return found


def _exchange(before: dict[str, Any], events: list[dict[str, Any]]) -> tuple[str, str]:
    """What the exchange was, and how it left the turn."""
    if before["phase"] == "bid":
        return "the bids", "The bids were revealed."
    kinds = {e["type"] for e in events}
    turn = f"the {SIDE[before['next_power']]} turn"
    if "scenario_won" in kinds:
        following = next((e for e in events if e["type"] == "scenario_set_up"), None)
        return turn, "The scenario is over." + (
            f" The position shown is the one that won it; scenario #{following['scenario']} {following['name']} "
            "is set up for the next exchange." if following else "")
    if "turn_continues" in kinds:
        return turn, "The turn continues after this report."
    return turn, "The turn ended."


def _awaiting(after: dict[str, Any], awaited: list[str]) -> str:
    if not awaited:
        return "nobody"
    if after["phase"] == "bid":
        return f"{' and '.join(PEOPLE[s] for s in awaited)}, each with a bid for round {after['round']}"
    (side,) = awaited
    return f"{PEOPLE[side]}, with the orders of their turn"


def report_model(ruleset, before: dict[str, Any], after: dict[str, Any], log: EventLog, audience: str
                 ) -> dict[str, Any]:
    pack: Pack = ruleset.pack_for(after)
    start, end = log.events[0], log.events[-1]
    seen = shown(ruleset, after, log, audience)
    events = [e for e in log.events if seen_by(e, audience)]
    scenario = pack.scenarios[before["scenario"]]
    narrator = Narrator(pack, before["tiles"])
    lines = []
    for e in events:
        line = narrator.line(e)
        if line:
            lines.append(line if "to" in e else narrator.named(line))
    after_tiles = Narrator(pack, seen["tiles"])
    tile = after_tiles.tile
    markers = seen["markers"]
    objectives = [{"tile": tile(t), "value": value, **{s: markers[s].get(t, "—") for s in SIDES}}
                  for t, value in seen["objectives"].items()]
    now = pack.scenarios[seen["scenario"]]
    totals = [f"{SIDE[s]} {sum(v for t, v in seen['objectives'].items() if markers[s].get(t) == 'controlled')} of "
              f"the {now.objectives[s]['control_objectives']} needed"
              for s in SIDES if "control_objectives" in now.objectives[s]]
    title, outcome = _exchange(before, log.events)
    own = seen["sides"][audience] if audience in SIDES else None
    return {
        "game": seen["game"], "round": before["round"], "title": title, "outcome": outcome,
        "audience": SIDE.get(audience), "scenario": f"#{scenario.id} {scenario.name}",
        "turn": start["turn"], "seed": start["seed"], "commitment": start["seed_commitment"],
        "seed_check": seed_check_command(start["seed"]), "state_commitment": end["state_commitment"],
        "awaiting": _awaiting(after, end["awaiting"]),
        "winner": _cap(PEOPLE[seen["winner"]]) if seen["winner"] else None,
        "lines": lines,
        # a ruling told to one side first and to everyone later is one ruling to that side
        "rulings": list(dict.fromkeys(f"{e['name']}: {e['text']}" for e in events if e["type"] == "ruling")),
        "defaults": [f"{SIDE[e['side']]}: {e['what'] if 'to' in e else narrator.named(e['what'])}"
                     for e in events if e["type"] == "default_applied"],
        "sides": [_side_position(pack, seen, s, tile) for s in SIDES],
        "objectives": objectives, "totals": "; ".join(totals),
        "on_map": _on_the_map(seen, after_tiles),
        "own": own and {"hand": [_hand_card(pack, c) for c in own["hand"]],
                        "discard": _cards(pack, own["discard"]), "casualties": _cards(pack, own["casualties"])},
    }


def shown(ruleset, after: dict[str, Any], log: EventLog, audience: str) -> dict[str, Any]:
    """The audience's view after the exchange; when it won a scenario and the next was set up, with
    the map as the scenario ended (the next scenario's set-up is told by the events)."""
    seen = ruleset.view(after, audience)
    won = next((e for e in log.events if e["type"] == "winning_position"), None)
    return seen | {key: value for key, value in (won or {}).items() if key in WINNING_POSITION}


def render_formats(model: dict[str, Any], map_png: str | None = None) -> dict[str, str]:
    """The three formats of one audience's report; `map_png` (base64) is embedded in the HTML."""
    return {"md": within_post_limit(template(__package__, "undaunted.md.j2").render(r=model), "Markdown"),
            "bbcode": within_post_limit(template(__package__, "undaunted.bbcode.j2").render(r=model), "BBCode"),
            "html": template(__package__, "undaunted.html.j2").render(r=model, map_png=map_png)}


def render_reports(before: dict[str, Any], after: dict[str, Any], log: EventLog,
                   inputs: TurnInputs) -> dict[str, bytes]:
    """The public report and each side's private report, in every format, and the map."""
    from pbem.rulesets.undaunted.map_image import draw_map  # matplotlib is slow to import; only when drawing
    ruleset = get_ruleset(before["ruleset"])
    public = report_model(ruleset, before, after, log, "public")
    seen_events = [e for e in log.events if seen_by(e, "public")]
    pixels = draw_map(ruleset.pack_for(after), shown(ruleset, after, log, "public"), seen_events,
                      f"{after['game']} — round {public['round']}, {public['title']}")
    return reports_with_map(pixels, SIDES, lambda audience, map_png: render_formats(
        public if audience == "public" else report_model(ruleset, before, after, log, audience), map_png))
