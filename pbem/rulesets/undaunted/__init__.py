"""Undaunted: Stalingrad: two sides, secret hands and bids, d10 fire on a tile map, and a campaign
of linked scenarios (seed 002; docs/undaunted-rules.md)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError, Problem
from pbem.core.events import EventLog
from pbem.core.ruleset import UNSEEN, Dice, Option, Ruleset
from pbem.core.yamlio import Document
from pbem.rulesets.undaunted.checkstate import check_state
from pbem.rulesets.undaunted.content import SIDES, Pack, check_pack, demo_pack, load_pack, merged_pack
from pbem.rulesets.undaunted.orders import read_bid, read_standing, read_turn
from pbem.rulesets.undaunted.play import HIDDEN_ZONES
from pbem.rulesets.undaunted.tiles import tile_spaces
from pbem.rulesets.undaunted.turn import awaiting, opening, resolve_bids, resolve_turn

OPTIONS = (
    Option("bombard_open_ground", "units", ("units", "no effect"),
           "units: Bombard on a tile without a building attacks the infantry there (the seed's 'Bombard has no "
           "effect on them', l.1071, read as on such tiles as buildings); no effect: Bombard does nothing there."),
    Option("inspire_own_card", True, (True, False),
           "true: Inspire may choose its own card, as the seed words it (l.704, l.1360); false: only another "
           "card of the play area, as earlier Undaunted games are often played."),
)

RULINGS = (
    Option("discard_pile", "counts public", ("counts public",),
           "A discard pile's size is public, its cards are seen by their owner only (the seed is silent)."),
    Option("hidden_zones", "owner only", ("owner only",),
           "Which of the hand, discard pile and draw deck a casualty or a Bomber is taken from, and which card, is "
           "told to its owner only, as is the shuffle of the deck it came from: the enemy hears the unit, the "
           "casualty pile's size and each zone's size after the exchange (seed l.1501; the digest leaves it open)."),
    Option("deploy_without_riflemen", "no action", ("no action",),
           "A unit whose Riflemen are not on the map cannot be deployed, so its card cannot be played for an "
           "action; it may still be withdrawn to the supply."),
    Option("bombard_cover", "building cover", ("building cover",),
           "Bombard comes from off the map, so a building's cover counts; a target resolved after its building "
           "was damaged sees the damaged tile."),
    Option("structures_vs_infantry", "printed value only", ("printed value only",),
           "Anti-Tank and Demolition target infantry only where the card prints an infantry value."),
    Option("tunnels_and_range", "map distance", ("map distance",),
           "Range counts tiles on the map; tunnels join tiles for movement only."),
    Option("maneuver_own_units", "own units", ("own units",), "Maneuver moves the side's own units only."),
    Option("inspire_ready_unit", "ready unit", ("ready unit",),
           "The unit of the card Inspire or Exertion chooses must be ready; command cards may be chosen."),
    Option("secure_recon_without_fog", "scout still allowed", ("scout still allowed",),
           "Secure Recon without a Fog of War in the hand still allows its Scout 1."),
    Option("sally_move", "mandatory", ("mandatory",), "Sally's Move 1 must be made; its combat action may not."),
    Option("follow_me", "orders say how many", ("orders say how many",),
           "Follow me! X draws as many cards as the orders say, up to X (default all X)."),
    Option("mines", "every crossing", ("every crossing",),
           "A mine that does not hit stays and triggers again on every crossing; mines lie only on edges "
           "between two tiles; on one step a mine is resolved before a fire lane."),
    Option("suppress_routed", "no effect", ("no effect",), "Suppressing a routed unit has no effect."),
    Option("tank_push", "never impassable", ("never impassable",),
           "A routed tank is never pushed onto an impassable tile."),
    Option("simultaneous_victory", "acting side", ("acting side",),
           "When both sides meet a victory condition in one event, the side whose turn it is wins."),
    Option("mine_after_rout", "removed", ("removed",),
           "A mine that routs the unit it hits is removed as after any casualty; its owner pushes (seed l.1499)."),
    Option("exertion_machine_gunner", "fire lane lifted", ("fire lane lifted",),
           "Exertion suppresses the unit, so a Machine Gunners' fire lane placed with it is lifted at once."),
    Option("fruitless_search", "no shuffle", ("no shuffle",),
           "A casualty search of the draw deck that finds nothing does not shuffle it and shows nothing."),
    Option("empty_hand_bid", "loses", ("loses",),
           "A side with no card in hand bids nothing and loses the bid to any card; two empty hands tie."),
    Option("german_table", "same as soviet", ("same as soviet",),
           "Scenario #011's supply and draw deck, printed for the Soviets, apply to the Germans alike."),
    Option("command_card_fire", "no range bonus", ("no range bonus",),
           "A command card that fires from off the map has no tile to count the range from: no range bonus."),
    Option("scout_suppressed_on_entry", "no marker", ("no marker",),
           "A Scout suppressed by a fire lane on the tile it enters places no marker there and takes no Fog of "
           "War: its action ends at once (seed l.1215)."),
    Option("and_or_objectives", "one total", ("one total",),
           "The amounts of an and/or objective (objectives and VP) count towards one total."),
)


class Undaunted(Ruleset):
    id = "undaunted-stalingrad"
    name = "Undaunted: Stalingrad"
    powers = SIDES
    role_field = "side"
    schema_package = "pbem.rulesets.undaunted.schemas"
    hidden_information = True

    def __init__(self) -> None:
        self.pack = demo_pack()

    def pack_for(self, state: dict[str, Any]) -> Pack:
        """The pack as this campaign sees it: with its merged squads."""
        return merged_pack(self.pack, state["campaign"].get("merged") or {})

    def options(self) -> tuple[Option, ...]:
        return OPTIONS

    def rulings(self) -> tuple[Option, ...]:
        return RULINGS

    def opening_state(self, game: str, options: dict[str, Any], hidden: Dice | None = None) -> dict[str, Any]:
        if hidden is None:
            raise ValueError("Undaunted: Stalingrad shuffles and deals from the game's hidden randomness")
        chosen = {o.name: o.value_in(options) for o in OPTIONS}
        return opening(self.pack, game, chosen, hidden)

    def order_items(self, orders: dict[str, Any]) -> list[str]:
        """A bids file's `bid`; a turn's `withdraw`, each of its `plays`, `await_report` and each
        preference it gives."""
        flags = [key for key in ("bid", "withdraw") if orders.get(key)]
        plays = [f"plays[{i}]" for i in range(len(orders.get("plays") or []))]
        rest = [key for key in ("await_report", "casualty_preference", "draw_deck_preference") if orders.get(key)]
        return flags + plays + rest

    def awaiting(self, state: dict[str, Any]) -> tuple[str, ...]:
        return awaiting(state)

    def view_state(self, state: dict[str, Any], audience: str) -> dict[str, Any]:
        """Hands, decks, discard piles and casualty piles unseen but by their owner, who does not see
        its deck either; the supply, the play area and set-aside cards are public (seed l.556, l.1500;
        ruling discard_pile). The campaign's card pools and the results of a turn's plays are their
        owner's."""
        if audience == "moderator":
            return state
        seen = copy.deepcopy(state)
        for side in SIDES:
            zones = seen["sides"][side]
            own = audience == side
            for zone in HIDDEN_ZONES:
                if not own or zone == "deck":
                    zones[zone] = [UNSEEN] * len(zones[zone])
            if not own:
                for pool in ("available", "removed"):
                    seen["campaign"][pool][side] = [UNSEEN] * len(seen["campaign"][pool][side])
        if seen["turn"] and audience != seen["turn"]["side"]:
            # the labels of the acting side's plays and their results are its orders': a play that
            # was skipped (refused in the hand, a `when` not met) shows nowhere else
            seen["turn"]["results"] = {}
        return seen

    def view(self, state: dict[str, Any], audience: str) -> dict[str, Any]:
        """The unseen zones and pools by their size only."""
        seen = self.view_state(state, audience)
        if audience == "moderator":
            return seen
        for side in SIDES:
            own = audience == side
            zones = seen["sides"][side]
            for zone in HIDDEN_ZONES:
                if not own or zone == "deck":
                    zones[zone] = len(zones[zone])
            if not own:
                for pool in ("available", "removed"):
                    seen["campaign"][pool][side] = len(seen["campaign"][pool][side])
        return seen

    def private_brief(self, state: dict[str, Any], role: str) -> list[str]:
        cards = self.pack_for(state).cards
        hand = state["sides"][role]["hand"]
        return [f"your hand: {', '.join(f'{cards[c].label} {c}' for c in hand) or 'empty'}",
                f"your deck: {len(state['sides'][role]['deck'])} cards"]

    def render_reports(self, before: dict[str, Any], after: dict[str, Any], log: EventLog,
                       inputs: Any) -> dict[str, bytes]:
        from pbem.rulesets.undaunted.report import render_reports
        return render_reports(before, after, log, inputs)

    def render_board(self, state: dict[str, Any], events: list[dict[str, Any]], title: str,
                     theatre: str | None = None) -> bytes | None:
        from pbem.rulesets.undaunted.map_image import render_map
        return render_map(self.pack_for(state), self.view(state, "public"), events, title)

    def spaces(self, name: str | None = None, state: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """The tiles of a position (a state or a side's view: only the map, which is public);
        Undaunted's map is the scenario's, so a state is needed."""
        if state is None:
            raise InputError([Problem("pbem board", None, "--state", "the Undaunted map is the scenario's: name "
                                      "the position to show", "--state STATE (a game's state.yaml or a view file)")])
        return tile_spaces(self.pack_for(state), state, name)

    def preview(self, view: dict[str, Any], orders: dict[str, Any], standing: dict[str, Any] | None,
                warn_below: float) -> dict[str, Any] | None:
        """Each play read back and each attack's exact chance to hit, from the side's view alone (the
        enemy's standing orders do not change a roll)."""
        from pbem.rulesets.undaunted.preview import preview
        return preview(self.pack_for(view), view, orders, warn_below)

    def check_state(self, state: Document) -> list[Problem]:
        return check_state(self.pack_for(state.data), state)

    def _read(self, state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document]
              ) -> tuple[dict[str, Any], list[Problem]]:
        problems: list[Problem] = []
        decided: dict[str, Any] = {"orders": {}, "standing": {}}
        reader = read_bid if state["phase"] == "bid" else read_turn
        for side, doc in sorted(submissions.items()):
            decided["orders"][side], found = reader(self.pack_for(state), state, doc, side)
            problems += found
        for side, doc in sorted(standing.items()):
            if side in submissions:
                continue
            decided["standing"][side], found = read_standing(self.pack_for(state), state, doc, side)
            problems += found
        return decided, problems

    def check_orders(self, state: dict[str, Any], submissions: dict[str, Document],
                     standing: dict[str, Document]) -> list[Problem]:
        return self._read(state, submissions, standing)[1]

    def check_standing_orders(self, state: dict[str, Any], standing: Document) -> list[Problem]:
        return read_standing(self.pack, state, standing, standing.data.get("side", ""))[1]

    def decisions(self, state: dict[str, Any], submissions: dict[str, Document],
                  standing: dict[str, Document]) -> Any:
        return self._read(state, submissions, standing)[0]

    def resolve(self, state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document],
                dice: Dice, log: EventLog, hidden: Dice | None = None) -> dict[str, Any]:
        decided = self.decisions(state, submissions, standing)
        if state["phase"] == "bid":
            if state["round"] == 1:  # the scenario's first exchange: say what its data decided
                texts = {o.name: o.text for o in RULINGS}
                for name in self.pack_for(state).scenarios[state["scenario"]].rulings:
                    log.add("ruling", name=name, text=texts[name])
            return resolve_bids(self.pack_for(state), state, {s: o["bid"] for s, o in decided["orders"].items()}, log)
        (orders,) = decided["orders"].values()
        return resolve_turn(self.pack_for(state), state, orders, decided["standing"], dice, hidden, log)

    def brief(self, state: dict[str, Any]) -> list[str]:
        pack = self.pack_for(state)
        scenario = pack.scenarios[state["scenario"]]
        lines = [f"scenario #{scenario.id} {scenario.name}, game-state code {state['campaign']['code']}, "
                 f"{state['initiative']} initiative"]
        for side in SIDES:
            held = sum(v for t, v in state["objectives"].items() if state["markers"][side].get(t) == "controlled")
            routed = sorted(u for u, token in state["units"][side].items() if token["routed"])
            lines.append(f"{side}: objectives worth {held} held, routed: {', '.join(routed) or 'none'}, "
                         f"casualty pile {len(state['sides'][side]['casualties'])}")
        return lines

    def check_content(self, folder: Path | None) -> tuple[list[str], list[str]]:
        pack = load_pack(folder) if folder else self.pack
        known = {o.name for o in RULINGS}
        unknown = [f"scenario {sc.id}: rulings: unknown ruling {name!r} (allowed: {', '.join(sorted(known))})"
                   for sc in pack.scenarios.values() for name in sc.rulings if name not in known]
        return check_pack(pack) + unknown, pack.notes
