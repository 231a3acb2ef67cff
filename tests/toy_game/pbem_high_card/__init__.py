"""High Card: the smallest game that uses everything pbem offers a game (docs/new-game.md).

Two seats, north and south, are dealt three cards each from a shuffled deck numbered 1 to 9; the
other three stay face down, seen by nobody. Each round both seats play a card from their hand at
once, and the higher card scores a point; a tie is broken by a die each, rolled until they differ
(option tie_break). After three rounds the seat with more points wins.

The hands are the secrets: the deal is drawn from the game's hidden randomness (proven when the
game's key is revealed at its end), each seat's view shows only its own hand, and the tie's dice
come from the public dice that every player can check after the turn.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from pbem.core.errors import Problem
from pbem.core.events import EventLog
from pbem.core.ruleset import UNSEEN, Dice, Option, Ruleset
from pbem.core.yamlio import Document

SEATS = ("north", "south")
DECK = tuple(range(1, 10))
HAND = 3
FORMAT = "high-card/1"

OPTIONS = (
    Option("tie_break", "die", ("die", "none"),
           "die: a tie is broken by a die each, rolled again until they differ; none: a tie scores nobody."),
)


class HighCard(Ruleset):
    id = "high-card"
    name = "High Card"
    powers = SEATS
    role_field = "seat"
    schema_package = "pbem_high_card.schemas"
    hidden_information = True

    def options(self) -> tuple[Option, ...]:
        return OPTIONS

    def opening_state(self, game: str, options: dict[str, Any], hidden: Dice | None = None) -> dict[str, Any]:
        if hidden is None:
            raise ValueError("High Card deals from the game's hidden randomness")
        deck = hidden.shuffle(list(DECK))
        return {"format": FORMAT, "ruleset": self.id, "game": game, "options": options, "round": 1, "dice": None,
                "hands": {"north": sorted(deck[:HAND]), "south": sorted(deck[HAND:2 * HAND])},
                "unseen": sorted(deck[2 * HAND:]), "score": {seat: 0 for seat in SEATS}, "played": [],
                "winner": None}

    def awaiting(self, state: dict[str, Any]) -> tuple[str, ...]:
        return () if state["winner"] else SEATS  # both seats play at once

    def view_state(self, state: dict[str, Any], audience: str) -> dict[str, Any]:
        """A seat sees its own hand; the other's and the face-down cards stay unseen."""
        if audience == "moderator":
            return state
        seen = copy.deepcopy(state)
        seen["hands"] = {seat: hand if seat == audience else [UNSEEN] * len(hand)
                         for seat, hand in state["hands"].items()}
        seen["unseen"] = [UNSEEN] * len(state["unseen"])
        return seen

    def private_brief(self, state: dict[str, Any], role: str) -> list[str]:
        return [f"your hand: {', '.join(map(str, state['hands'][role])) or 'empty'}"]

    def brief(self, state: dict[str, Any]) -> list[str]:
        score = ", ".join(f"{seat} {points}" for seat, points in state["score"].items())
        return [f"score: {score}" + (f"; {state['winner']} has won" if state["winner"] else "")]

    def check_state(self, state: Document) -> list[Problem]:
        data = state.data
        cards = [*data["hands"]["north"], *data["hands"]["south"], *data["unseen"],
                 *(play[seat] for play in data["played"] for seat in SEATS)]
        named = Counter(cards)
        unseen = named.pop(UNSEEN, 0)  # a view file's: any of the cards not named
        if named - Counter(DECK) or named.total() + unseen != len(DECK):
            return [state.problem(("hands",), "the hands, the face-down cards and the cards played are not "
                                  "the deck, each card once", ", ".join(map(str, DECK)))]
        return []

    def check_orders(self, state: dict[str, Any], submissions: dict[str, Document],
                     standing: dict[str, Document]) -> list[Problem]:
        # only the seat's own hand is named: a problem goes back to that seat's player alone
        return [doc.problem(("play",), f"{doc.data['play']} is not in your hand",
                            ", ".join(map(str, state["hands"][seat])))
                for seat, doc in submissions.items()
                if "play" in doc.data and doc.data["play"] not in state["hands"][seat]]

    def decisions(self, state: dict[str, Any], submissions: dict[str, Document],
                  standing: dict[str, Document]) -> Any:
        return {seat: doc.data.get("play") for seat, doc in sorted(submissions.items())}

    def resolve(self, state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document],
                dice: Dice, log: EventLog, hidden: Dice | None = None) -> dict[str, Any]:
        after = copy.deepcopy(state)
        cards = {}
        for seat, card in self.decisions(state, submissions, standing).items():
            if card is None:  # a late seat played with empty orders (pbem next --missing standing)
                card = min(after["hands"][seat])
                log.add("default", power=seat, what="the card to play", applied="the lowest card in hand",
                        why="the orders name no card")
            after["hands"][seat].remove(card)
            cards[seat] = card
        log.add("play", round=state["round"], cards=cards)
        high, low = max(cards.values()), min(cards.values())
        winner = next(seat for seat in SEATS if cards[seat] == high) if high != low else None
        if winner is None and state["options"]["tie_break"] == "die":
            log.add("ruling", rule="tie_break", text=OPTIONS[0].text)
            while winner is None:
                rolled = dict(zip(SEATS, dice.roll(2)))
                log.add("tie_break", dice=rolled)
                if rolled["north"] != rolled["south"]:
                    winner = max(SEATS, key=rolled.__getitem__)
        if winner:
            after["score"][winner] += 1
        after["played"].append({"round": state["round"], **cards, "winner": winner})
        log.add("round_end", round=state["round"], winner=winner, score=dict(after["score"]))
        if not any(after["hands"].values()):
            north, south = after["score"]["north"], after["score"]["south"]
            after["winner"] = "north" if north > south else "south" if south > north else "draw"
            log.add("game_end", winner=after["winner"], score=dict(after["score"]))
        after["round"] += 1
        return after

    def render_reports(self, before: dict[str, Any], after: dict[str, Any], log: EventLog,
                       inputs: Any) -> dict[str, bytes]:
        from pbem_high_card.report import render_reports
        return render_reports(self, before, after, log)
