"""Quartermaster General (WW2, 2nd edition): six countries in two teams, secret hands, face-down
Responses and shuffled decks (seed 004; docs/qmg-rules.md)."""

from __future__ import annotations

import copy
import difflib
import re
from collections import Counter
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError, Problem
from pbem.core.events import EventLog
from pbem.core.ruleset import UNSEEN, Dice, Option, Ruleset
from pbem.core.yamlio import Document
from pbem.rulesets.qmg.content import BASIC_TYPES, COUNTRIES, check_board, check_cards, demo_pack, load_pack
from pbem.rulesets.qmg.orders import read_orders, read_standing
from pbem.rulesets.qmg.turn import awaiting, opening, resolve_country_turn, resolve_setup

OPTIONS = (
    Option("reallocate_resources", False, (True, False),
           "The optional rule Reallocate Resources (seed l.605-625): at the start of its turn a country may "
           "discard 4 cards from hand to search its deck for a Build or Battle card. With fewer than 4 cards in "
           "hand the rest come from the top of the deck, as every discard does (seed l.521-552)."),
    Option("supply_cascade", False, (True, False),
           "false: the Supply step removes the pieces unsupplied when it begins, all at once (the seed's 'all "
           "unsupplied pieces are removed'); true: it checks again after each removal until none is left."),
    Option("portless_navy_links", True, (True, False),
           "true: a navy without a port still links its country's supply chain (the seed asks only for a "
           "chain of the country's pieces); false: it breaks the chain."),
    Option("straits_in_supply", True, (True, False),
           "true: a strait open to a team joins its seas for that team's supply chains too (the seed: the "
           "seas 'count as adjacent' for that team); false: only for battles and builds."),
    Option("recruited_counts_as_built", False, (True, False),
           "false: a card whose condition is an army built (Rasputitsa, Loyalty to the Crown) ignores a "
           "recruited one, as the card text says; true: recruited too, as the rulebook's example of "
           "Rasputitsa says (seed l.896-899)."),
)

RULINGS = (
    Option("team_order", "active first", ("active first",),
           "When two countries of one team could use an effect in the same window, the team uses them in turn "
           "order beginning with the country whose turn it is (the seed lets the team choose; a referee "
           "needs one order)."),
    Option("star_space_builds", "adjacent too", ("adjacent too",),
           "A Build on a star space, by a card or an effect, needs a supplied piece of the builder next to it (or "
           "the home space), like any build, though the piece would be supplied there by itself (seed l.628-643 "
           "names no exception)."),
    Option("window_ends", "two passes", ("two passes",),
           "A trigger window closes when both teams have passed in a row (seed l.870-880 states only the "
           "alternation)."),
    Option("negative_vp", "allowed", ("allowed",),
           "A team's VP may fall below 0 (the seed does not say); the lead counts for sudden victory."),
    Option("unnamed_costs", "last cards of the hand", ("last cards of the hand",),
           "A cost to discard cards from hand that the orders do not name takes the last cards of the hand, "
           "and the country's private report says so."),
    Option("hidden_failures", "refused privately", ("refused privately",),
           "An order its country can know will fail for a reason hidden from the others (Guard with no Build Army "
           "in its discard pile or among the hand cards it discards for it; Reallocate Resources searching for a "
           "card its draw deck does not hold) is refused when it is checked, in the answer only its player reads: "
           "played, its failure would tell everyone what its face-down cards are not. One whose outcome only the "
           "deck's order decides (cards a cost takes from the top of the deck), which nobody knows, is played, "
           "and its outcome is public, as at the table."),
)


def _as_seen_by_others(pile: list[dict[str, str]]) -> list[dict[str, str]]:
    """A discard pile as the other countries see it: its face-down cards unseen, and each basic card
    face up as the next copy of its kind, bottom to top."""
    copies: Counter = Counter()
    seen = []
    for discard in pile:
        kind = re.sub(r"-\d+$", "", discard["card"])
        if discard["face"] == "down":
            seen.append({"card": UNSEEN, "face": "down"})
        elif kind in BASIC_TYPES:
            copies[kind] += 1
            seen.append({"card": f"{kind}-{copies[kind]}", "face": "up"})
        else:
            seen.append(discard)
    return seen


class Qmg(Ruleset):
    id = "qmg"
    name = "Quartermaster General (WW2, 2nd edition)"
    powers = COUNTRIES
    role_field = "country"
    schema_package = "pbem.rulesets.qmg.schemas"
    hidden_information = True

    def __init__(self) -> None:
        self.pack = demo_pack()

    def options(self) -> tuple[Option, ...]:
        return OPTIONS

    def rulings(self) -> tuple[Option, ...]:
        return RULINGS

    def opening_state(self, game: str, options: dict[str, Any], hidden: Dice | None = None) -> dict[str, Any]:
        if hidden is None:
            raise ValueError("Quartermaster General deals its hands from the game's hidden randomness")
        chosen = {o.name: o.value_in(options) for o in OPTIONS}
        return opening(self.pack, game, chosen, hidden)

    def awaiting(self, state: dict[str, Any]) -> tuple[str, ...]:
        return awaiting(state)

    def view_state(self, state: dict[str, Any], audience: str) -> dict[str, Any]:
        """Hands, decks, face-down Responses and face-down discards unseen but by their owner, who sees
        its deck's cards but not their order (seed l.556-577); the moderator sees all. The copies of
        a basic card that another country has face up are numbered in the order they lie: copies look
        alike, and which one it played tells only of the copies left in its hand and deck."""
        if audience == "moderator":
            return state
        seen = copy.deepcopy(state)
        for country, zones in seen["countries"].items():
            if country == audience:
                zones["deck"] = sorted(zones["deck"])
                continue
            for zone in ("hand", "deck", "responses"):
                zones[zone] = [UNSEEN] * len(zones[zone])
            zones["discard"] = _as_seen_by_others(zones["discard"])
        return seen

    def view(self, state: dict[str, Any], audience: str) -> dict[str, Any]:
        """Each country's zones by their size, its statuses and the top of its discard pile if face up;
        its own cards by name."""
        seen = self.view_state(state, audience)
        if audience == "moderator":
            return seen
        for country, zones in seen["countries"].items():
            pile = zones["discard"]
            public = {"hand": len(zones["hand"]), "deck": len(zones["deck"]), "responses": len(zones["responses"]),
                      "statuses": [self.pack.name(country, c) for c in zones["statuses"]],
                      "discard": len(pile),
                      "discard_top": self.pack.name(country, pile[-1]["card"]) if pile and pile[-1]["face"] == "up"
                      else None}
            if audience == country:
                public |= {"hand_cards": sorted(self.pack.name(country, c) for c in zones["hand"]),
                           "response_cards": [self.pack.name(country, c) for c in zones["responses"]],
                           "discard_cards": [self.pack.name(country, d["card"]) for d in pile]}
            seen["countries"][country] = public
        return seen

    def private_brief(self, state: dict[str, Any], role: str) -> list[str]:
        own = self.view(state, role)["countries"][role]
        lines = [f"your hand: {', '.join(own['hand_cards']) or 'empty'}", f"your draw deck: {own['deck']} cards"]
        if own["response_cards"]:
            lines.append(f"your face-down responses: {', '.join(own['response_cards'])}")
        return lines

    def render_reports(self, before: dict[str, Any], after: dict[str, Any], log: EventLog,
                       inputs: Any) -> dict[str, bytes]:
        from pbem.rulesets.qmg.report import render_reports
        return render_reports(before, after, log, inputs)

    def render_board(self, state: dict[str, Any], events: list[dict[str, Any]], title: str,
                     theatre: str | None = None) -> bytes | None:
        from pbem.rulesets.qmg.board_image import render_board
        return render_board(self.pack, state, events, title)

    def check_state(self, state: Document) -> list[Problem]:
        from pbem.rulesets.qmg.checkstate import check_state
        return check_state(self.pack, state)

    def _read(self, state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document]
              ) -> tuple[dict[str, Any], list[Problem]]:
        options = state["options"]
        problems: list[Problem] = []
        decided: dict[str, Any] = {"orders": {}, "standing": {}}
        for role, doc in submissions.items():
            decided["orders"][role], found = read_orders(self.pack, state, doc, options)
            problems += found
        for role, doc in sorted(standing.items()):
            if role in submissions:
                continue
            decided["standing"][role], found = read_standing(self.pack, doc)
            problems += found
        return decided, problems

    def spaces(self, name: str | None = None) -> list[dict[str, Any]]:
        board = self.pack.board
        chosen = list(board.order)
        if name is not None:
            found = {n.lower(): n for n in board.order}.get(name.lower())
            if found is None:
                raise InputError([Problem("pbem board", None, "SPACE", f"{name!r} is not a space of the board",
                                          ", ".join(difflib.get_close_matches(name, board.order, 3)) or None)])
            chosen = [found]
        facts = []
        for space in chosen:
            s = board.spaces[space]
            words = [f"{s.kind} space"] + (["supply space"] if s.star else []) + \
                ([f"home of {s.home.replace('_', ' ').title()}"] if s.home else [])
            straits = [f"strait from {t['anchor']} to {next(x for x in t['seas'] if x != space)}"
                       for t in board.straits if space in t["seas"]]
            straits += [f"anchor of the strait between {' and '.join(t['seas'])}" for t in board.straits
                        if t["anchor"] == space]
            neighbours = sorted(board.neighbours[space], key=board.order.index)
            facts.append({"name": space, "kind": s.kind, "facts": ", ".join(words + straits),
                          "land_neighbours": [n for n in neighbours if board.spaces[n].kind == "land"],
                          "sea_neighbours": [n for n in neighbours if board.spaces[n].kind == "sea"]})
        return facts

    def names(self) -> dict[str, dict[str, str]]:
        cards = {self.pack.name(c, i): self.pack.name(c, i) for c in COUNTRIES for i in self.pack.decks[c]}
        return {"power": {c: c for c in COUNTRIES}, "space": {n: n for n in self.pack.board.order},
                "card": dict(sorted(cards.items()))}

    def preview(self, view: dict[str, Any], orders: dict[str, Any], standing: dict[str, Any] | None,
                warn_below: float) -> dict[str, Any] | None:
        """The orders read back with each card's effect and targets, and the player's own side's
        face-down Responses that may fire (only those its view shows). QMG has no dice, so no play
        has a chance to warn of: `warn_below` and `standing` (another turn's orders) do not matter."""
        from pbem.rulesets.qmg.preview import preview
        return preview(self.pack, view, orders)

    def summary(self, state: dict[str, Any]) -> dict[str, Any]:
        """What the VP chart reads of each state of the game's history."""
        return {"vp": dict(state["vp"])}

    def brief(self, state: dict[str, Any]) -> list[str]:
        hands = ", ".join(f"{c} {len(z['hand'])}" for c, z in state["countries"].items())
        return [f"Axis {state['vp']['axis']} VP, Allies {state['vp']['allies']} VP", f"cards in hand: {hands}"]

    def order_items(self, orders: dict[str, Any]) -> list[str]:
        """The setup discards, or a turn's withdrawals, Reallocate Resources, Play step, Discard step
        and each effect entry: the turn says to the country alone what became of each."""
        items = [key for key in ("setup_discard", "reallocate", "play", "discard") if key in orders]
        return items + [f"{key}[{i}]" for key in ("remove", "effects") for i in range(len(orders.get(key) or []))]

    def check_content(self, folder: Path | None) -> tuple[list[str], list[str]]:
        pack = load_pack(folder) if folder else self.pack
        return check_board(pack.board) + check_cards(pack), pack.notes

    def check_orders(self, state: dict[str, Any], submissions: dict[str, Document],
                     standing: dict[str, Document]) -> list[Problem]:
        return self._read(state, submissions, standing)[1]

    def check_standing_orders(self, state: dict[str, Any], standing: Document) -> list[Problem]:
        return read_standing(self.pack, standing)[1]

    def decisions(self, state: dict[str, Any], submissions: dict[str, Document],
                  standing: dict[str, Document]) -> Any:
        return self._read(state, submissions, standing)[0]

    def resolve(self, state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document],
                dice: Dice, log: EventLog, hidden: Dice | None = None) -> dict[str, Any]:
        decided = self.decisions(state, submissions, standing)
        if state["phase"] == "setup":
            return resolve_setup(self.pack, state, decided["orders"], log)
        (orders,) = decided["orders"].values()
        return resolve_country_turn(self.pack, state, orders, decided["standing"], log, hidden)
