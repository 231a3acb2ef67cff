"""Reading a side's bid, turn orders and standing orders: every problem at once, each naming its
field; and the canonical form the exchange is played from (tiles by number, units and cards by id
where the orders name them so, actions by their index on the card)."""

from __future__ import annotations

import difflib
from typing import Any

from pbem.core.errors import Problem
from pbem.core.yamlio import Document
from pbem.rulesets.undaunted.content import COMBAT, Pack, action_name, other_side
from pbem.rulesets.undaunted.reach import check_reach

PARAMS_BY_ACTION = {
    "move": {"to"}, "stealth_move": {"to"}, "scout": {"path"}, "maneuver": {"unit", "to"}, "bolster": {"cards"},
    "immediate_bolster": {"take"}, "follow_me": {"draw"}, "confuse_the_enemy": set(), "control": set(),
    "inspire": {"chosen", "perform"}, "exertion": {"chosen", "perform"}, "recon": set(), "secure_recon": {"path"},
    "rally": {"unit"}, "smoke": set(), "mines": {"mines"}, "fire_lane": {"tile"},
    "anti_aircraft": {"return_to_supply"}, "attack_and_stealth_move": {"combat", "to"}, "sally": {"to", "combat"},
    **{name: {"target", "order", "push", "pushes"} for name in COMBAT},
}
REQUIRED = {"move": {"to"}, "stealth_move": {"to"}, "scout": {"path"}, "maneuver": {"unit", "to"},
            "immediate_bolster": {"take"}, "inspire": {"chosen", "perform"}, "exertion": {"chosen", "perform"},
            "rally": {"unit"}, "fire_lane": {"tile"}, "attack_and_stealth_move": {"combat"}, "sally": {"to"},
            **{name: {"target"} for name in COMBAT}}
PLAY_FIELDS = {"label", "card", "use", "action", "when", "deploy"}
DRAWING = ("recon", "secure_recon", "follow_me", "immediate_bolster", "inspire", "exertion")


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=3)
    return ", ".join(close) if close else ", ".join(choices[:10]) + (" ..." if len(choices) > 10 else "")


class Reader:
    def __init__(self, pack: Pack, state: dict[str, Any], doc: Document, side: str):
        self.pack, self.state, self.doc, self.side = pack, state, doc, side
        self.problems: list[Problem] = []

    def problem(self, field: tuple, message: str, allowed: str | None = None) -> None:
        self.problems.append(self.doc.problem(field, message, allowed))

    def tile(self, field: tuple, text: str | int) -> str | None:
        text = str(text)  # `to: 110` unquoted in YAML is a number
        number, _, letter = text.partition("-")
        if number not in self.state["tiles"]:
            self.problem(field, f"{text!r} is not a tile of the map", _suggest(number, sorted(self.state["tiles"])))
            return None
        if letter and letter != self.state["tiles"][number]:
            self.problem(field, f"tile {number} is now {number}-{self.state['tiles'][number]}",
                         f"{number} or {number}-{self.state['tiles'][number]}")
            return None
        return number

    def own_unit(self, field: tuple, text: str, rule: str = "") -> str | None:
        """One of the side's units; `rule` names what refuses an enemy unit (a ruling)."""
        prefix, _, rest = text.partition("-")
        name = rest if prefix in ("S", "N") and rest else text
        if prefix in ("S", "N") and rest and {"S": "soviet", "N": "german"}[prefix] != self.side:
            self.problem(field, f"{text} is not a unit of the {self.side} side{rule}", f"a {self.side} unit")
            return None
        if name not in self.pack.units[self.side]:
            self.problem(field, f"{text!r} is not a {self.side} unit", _suggest(name, list(self.pack.units[self.side])))
            return None
        return name

    def side_unit(self, field: tuple, text: str, default_side: str) -> tuple[str, str] | None:
        """A unit of either side: S-/N- says whose, else `default_side`."""
        prefix, _, rest = text.partition("-")
        if prefix in ("S", "N") and rest and rest in self.pack.units[{"S": "soviet", "N": "german"}[prefix]]:
            return {"S": "soviet", "N": "german"}[prefix], rest
        if text in self.pack.units[default_side]:
            return default_side, text
        self.problem(field, f"{text!r} is not a unit", _suggest(text, list(self.pack.units[default_side])))
        return None

    def card(self, field: tuple, text: str, side: str | None = None) -> str | None:
        """A card of the side by id or by name: the id, or the name as written."""
        side = side or self.side
        own = [c for c, card in self.pack.cards.items() if card.side == side]
        if text in own:
            return text
        labels = sorted({self.pack.cards[c].label for c in own})
        if text in labels:
            return text
        self.problem(field, f"{text!r} is not a {side} card", _suggest(text, labels + own))
        return None


def read_bid(pack: Pack, state: dict[str, Any], doc: Document, side: str) -> tuple[dict[str, Any], list[Problem]]:
    reader = Reader(pack, state, doc, side)
    data = doc.data
    extra = [k for k in ("plays", "withdraw", "await_report", "casualty_preference", "draw_deck_preference")
             if k in data]
    for key in extra:
        reader.problem((key,), "the initiative exchange takes a bid only", "side, bid, note")
    if not state["sides"][side]["hand"]:
        if "bid" in data:
            reader.problem(("bid",), f"the {side} hand is empty: there is no card to bid", "no bid")
        return {"bid": None}, reader.problems
    if "bid" not in data:
        reader.problem(("bid",), "missing the bid: the card played for initiative",
                       ", ".join(pack.cards[c].label + " " + c for c in state["sides"][side]["hand"]))
        return {}, reader.problems
    found = reader.card(("bid",), data["bid"])
    hand = state["sides"][side]["hand"]
    chosen = found if found in hand else next((c for c in hand if pack.cards[c].label == found), None)
    if found and chosen is None:
        reader.problem(("bid",), f"{data['bid']} is not in the {side} hand",
                       ", ".join(f"{pack.cards[c].label} ({c})" for c in hand))
    return {"bid": chosen}, reader.problems


def read_turn(pack: Pack, state: dict[str, Any], doc: Document, side: str) -> tuple[dict[str, Any], list[Problem]]:
    reader = Reader(pack, state, doc, side)
    data = doc.data
    if "bid" in data:
        reader.problem(("bid",), f"the bids were taken; it is the {side} turn", "withdraw, plays, await_report")
    turn = state.get("turn") or {}
    if data.get("withdraw") and turn.get("played"):
        reader.problem(("withdraw",), "a side may withdraw only at the start of its turn, before it plays a card",
                       "false")
    labels = set(turn.get("results") or {})
    plays = []
    reachable = set(state["sides"][side]["hand"])
    fogs = sum(pack.cards[c].kind == "fog_of_war" for c in reachable)
    drawing = False
    for i, play in enumerate(data.get("plays") or []):
        plays.append(_read_play(reader, play, ("plays", i), labels, reachable, drawing))
        # Recon sets aside a Fog of War of the hand; refused here, not when its card is shown, so
        # that only this side hears that the hand holds none (Secure Recon may go without)
        recon = recon_performed(plays[-1])
        if recon and fogs:
            fogs -= 1
        elif recon == "recon" and not drawing:
            reader.problem(("plays", i), "Recon needs a Fog of War card in the hand, and the hand holds none for "
                           "it, nor does an earlier play draw a card", "a Fog of War in the hand")
        if play.get("label"):
            if play["label"] in labels:
                reader.problem(("plays", i, "label"), f"the label {play['label']!r} is used twice")
            labels.add(play["label"])
        drawing = drawing or play.get("action") in DRAWING or play.get("use", "action") == "action" and \
            _card_draws(pack, play.get("card"), side)
    check_reach(pack, state, side, plays, reader.problem)
    preferences = {key: list(data[key]) for key in ("casualty_preference", "draw_deck_preference") if data.get(key)}
    return {"withdraw": bool(data.get("withdraw")), "plays": plays, "await_report": bool(data.get("await_report")),
            "preferences": preferences}, reader.problems


def recon_performed(play: dict[str, Any]) -> str | None:
    """`recon` or `secure_recon` when a read play performs it, also through Inspire or Exertion."""
    action = play.get("action")
    if action in ("inspire", "exertion"):
        action = (play.get("perform") or {}).get("action")
    return action if action in ("recon", "secure_recon") else None


def _card_draws(pack: Pack, ref: str | None, side: str) -> bool:
    cards = [c for c in pack.cards.values() if c.side == side and ref in (c.id, c.label)]
    return any(a.action in DRAWING for c in cards for a in c.actions)


def _read_play(reader: Reader, play: dict[str, Any], field: tuple, labels: set[str], hand: set[str],
               drawing: bool) -> dict[str, Any]:
    pack, side = reader.pack, reader.side
    out: dict[str, Any] = {"card": play["card"], "use": play.get("use", "action")}
    if play.get("label"):
        out["label"] = play["label"]
    card_ref = reader.card(field + ("card",), play["card"])
    if card_ref is None:
        return out
    in_hand = card_ref in hand or any(pack.cards[c].label == card_ref for c in hand)
    if not in_hand and not drawing:
        reader.problem(field + ("card",), f"{play['card']} is not in the {side} hand, and no earlier play draws a "
                       "card", ", ".join(sorted(f"{pack.cards[c].label} ({c})" for c in hand)))
    if play.get("when"):
        if play["when"]["play"] not in labels:
            reader.problem(field + ("when", "play"), f"no earlier play is labelled {play['when']['play']!r}",
                           ", ".join(sorted(labels)) or "label an earlier play")
        out["when"] = dict(play["when"])
    card = pack.cards[card_ref] if card_ref in pack.cards else \
        next(c for c in pack.cards.values() if c.side == side and c.label == card_ref)
    given = set(play) - PLAY_FIELDS
    if out["use"] != "action":
        for key in sorted(given | ({"action"} & set(play))):
            reader.problem(field + (key,), f"a card played to {out['use']} takes no {key}")
        return out
    actions = [a.action for a in card.actions]
    if not actions:
        reader.problem(field + ("card",), f"{card.label} has no actions: it can only bid",
                       "use: withdraw" if card.kind != "fog_of_war" else None)
        return out
    name = play.get("action")
    if name is None:
        if len(actions) > 1:
            reader.problem(field + ("action",), f"{card.label} has several actions: say which", ", ".join(actions))
            return out
        name = actions[0]
    if name not in actions:
        reader.problem(field + ("action",), f"{card.label} has no {action_name(name)} action", ", ".join(actions))
        return out
    out["index"] = actions.index(name)
    out["action"] = name
    if play.get("deploy"):
        out["deploy"] = reader.tile(field + ("deploy",), play["deploy"])
    out |= _read_params(reader, play, field, name, card)
    return out


def _read_params(reader: Reader, params: dict[str, Any], field: tuple, name: str, card) -> dict[str, Any]:
    """The parameters of one action, canonical; problems for missing and stray ones."""
    out: dict[str, Any] = {}
    allowed = PARAMS_BY_ACTION[name]
    for key in sorted(set(params) - PLAY_FIELDS - {"action"} - allowed):
        reader.problem(field + (key,), f"{action_name(name)} takes no {key}", ", ".join(sorted(allowed)) or "nothing")
    for key in sorted(REQUIRED.get(name, set()) - set(params)):
        reader.problem(field + (key,), f"{action_name(name)} needs {key}")
    side = reader.side
    for key in allowed & set(params):
        value, at = params[key], field + (key,)
        if key in ("to", "tile"):
            out[key] = reader.tile(at, value)
        elif key == "path":
            out[key] = [reader.tile(at + (i,), t) for i, t in enumerate(value)]
        elif key == "unit":
            out[key] = reader.own_unit(at, value, " (ruling maneuver_own_units: Maneuver moves the side's own "
                                       "units only)" if name == "maneuver" else "")
        elif key == "cards":
            out[key] = [reader.card(at + (i,), c) for i, c in enumerate(value)]
        elif key in ("take", "chosen"):
            out[key] = reader.card(at, value)
        elif key == "mines":
            out[key] = [{"toward": reader.tile(at + (i, "toward"), m["toward"]), "face": m["face"]}
                        for i, m in enumerate(value)]
        elif key in ("perform", "combat"):
            inner = value["action"]
            if key == "combat" and inner not in COMBAT:
                reader.problem(at + ("action",), f"{action_name(inner)} is not a combat action", ", ".join(COMBAT))
            out[key] = {"action": inner} | _read_params(reader, value, at, inner, card)
        elif key == "target":
            out[key] = _target(reader, at, value, name)
        elif key == "order":
            out[key] = [_order_key(reader, at + (i,), t) for i, t in enumerate(value)]
        elif key == "push":
            out["pushes"] = out.get("pushes", []) + [{"side": None, "unit": None, "to": reader.tile(at, value)}]
        elif key == "pushes":
            found = []
            for i, p in enumerate(value):
                who = reader.side_unit(at + (i, "unit"), p["unit"], other_side(side))
                if who:
                    found.append({"side": who[0], "unit": who[1], "to": reader.tile(at + (i, "to"), p["to"])})
            out["pushes"] = out.get("pushes", []) + found
        else:
            out[key] = value
    if name in COMBAT and out.get("pushes"):
        single = [p for p in out["pushes"] if p["unit"] is None]
        if single and isinstance(out.get("target"), str) and out["target"] in reader.pack.units[other_side(side)]:
            for p in single:
                p["side"], p["unit"] = other_side(side), out["target"]
        elif single:
            reader.problem(field + ("push",), "push names the tile for a single enemy unit target",
                           "pushes: [{unit, to}] for an area action")
    return out


def _target(reader: Reader, at: tuple, value: str | int, name: str) -> str | None:
    enemy = other_side(reader.side)
    value = str(value)
    if value.startswith("tunnel "):
        tile = reader.tile(at, value.split(" ", 1)[1])
        return f"tunnel {tile}" if tile else None
    if value[:1].isdigit():
        return reader.tile(at, value)
    who = reader.side_unit(at, value, enemy)
    if who and who[0] != enemy:
        reader.problem(at, f"{value} is one of your own units", "an enemy unit")
        return None
    return who[1] if who else None


def _order_key(reader: Reader, at: tuple, value: str) -> str | None:
    if value in ("building", "tunnel"):
        return value
    who = reader.side_unit(at, value, other_side(reader.side))
    return f"{who[0]}:{who[1]}" if who else None


def read_standing(pack: Pack, state: dict[str, Any] | None, doc: Document, side: str
                  ) -> tuple[dict[str, Any], list[Problem]]:
    data = doc.data
    out: dict[str, Any] = {}
    problems: list[Problem] = []
    for key in ("casualty_preference", "draw_deck_preference"):
        if data.get(key):
            out[key] = list(data[key])
    if data.get("mine_push"):
        if state is not None:
            reader = Reader(pack, state, doc, side)
            out["mine_push"] = [reader.tile(("mine_push", i), t) for i, t in enumerate(data["mine_push"])]
            problems += reader.problems
        else:
            out["mine_push"] = [str(t).split("-")[0] for t in data["mine_push"]]
    return out, problems
