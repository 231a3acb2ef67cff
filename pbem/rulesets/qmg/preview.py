"""What a country's valid orders will do, read back from what it may see (`Ruleset.preview`).

Quartermaster General has no dice, so a play's outcome is not a chance: the preview reads each play
and effect back with its card's text and targets, and names which of the player's own side's
face-down Responses may fire this turn. A teammate's face-down Responses are hidden from the player
(its view shows them as unseen), so the preview names only those the view shows."""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import UNSEEN
from pbem.rulesets.qmg.content import TEAMS, Card, Pack
from pbem.rulesets.qmg.report import country as said, countrys

# what a basic card does, in the rulebook's words (its text in the pack only points to the rules)
BASIC = {"build_army": "build an army", "build_navy": "build a navy", "land_battle": "conduct a land battle",
         "sea_battle": "conduct a sea battle"}


def preview(pack: Pack, view: dict[str, Any], orders: dict[str, Any]) -> dict[str, Any]:
    me = orders["country"]
    cards = {pack.name(me, i).lower(): pack.card(me, i) for i in pack.decks[me]}
    lines, items = _play(cards, orders.get("play") or {})
    named = {str(e.get("card", "")).lower() for e in orders.get("effects") or []}
    for entry in orders.get("effects") or []:
        card = cards[str(entry["card"]).lower()]
        when = ", ".join(f"{k} {v}" for k, v in (entry.get("when") or {}).items())
        lines.append(f"If its moment comes{f' ({when})' if when else ''}, you use {card.name} "
                     f"({_kind(card)}){_where(entry)}: {card.text}")
        items.append({"effect": card.name, "type": card.type, "when": entry.get("when") or {}})
    warnings = []
    for owner, zones in view["countries"].items():
        if TEAMS[owner] != TEAMS[me]:
            continue
        for instance in zones["responses"]:
            if instance == UNSEEN:
                continue  # a teammate's face-down Response: the player may not know it
            name = pack.name(owner, instance)
            fires = owner != me or name.lower() in named
            items.append({"response": name, "owner": owner, "may_fire": fires})
            if owner == me and not fires:
                warnings.append(f"Your face-down Response {name} is named by no entry under `effects`: it is not "
                                "used this turn.")
            else:
                lines.append(f"Your face-down Response {name} may fire this turn." if owner == me else
                             f"{countrys(owner, True)} face-down Response {name} may fire this turn, as its "
                             "standing orders say.")
    hidden = sum(z["responses"].count(UNSEEN) for c, z in view["countries"].items()
                 if c != me and TEAMS[c] == TEAMS[me])
    if hidden:
        lines.append(f"Your teammates hold {hidden} face-down Response{'s' if hidden != 1 else ''} you cannot see: "
                     "whether they fire is up to their standing orders.")
    return {"lines": lines, "warnings": warnings, "items": items}


def _play(cards: dict[str, Card], play: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The play step read back: the card played and what it does, where and against whom."""
    if "discard" in play:
        return [f"You discard {play['discard']} instead of playing a card."], [{"discard": play["discard"]}]
    if "instead" in play:
        card = cards[str(play["instead"]).lower()]
        return [f"You use {card.name} ({_kind(card)}) instead of playing a card{_where(play)}: {card.text}"], \
            [{"instead": card.name}]
    if "card" not in play:
        return [], []
    card = cards[str(play["card"]).lower()]
    item = {"play": card.name, "type": card.type, "space": play.get("space"), "target": play.get("target")}
    if card.type in BASIC:
        return [f"You play {card.name}: you {BASIC[card.type]}{_where(play)}."], [item]
    laid = " face down" if card.type == "response" else ""
    return [f"You play {card.name} ({_kind(card)}){laid}{_where(play)}: {card.text}"], [item]


def _kind(card: Card) -> str:
    return card.type.replace("_", " ")


def _where(choice: dict[str, Any]) -> str:
    """The spaces and targets an order names, in words; its steps one after another."""
    spaces = choice.get("space")
    text = f" in {', '.join(spaces) if isinstance(spaces, list) else spaces}" if spaces else ""
    if choice.get("target"):
        text += f" against {said(choice['target'])}"
    return text + "".join(f"; then{_where(step)}" for step in choice.get("steps") or [])
