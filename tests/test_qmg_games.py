"""Whole Quartermaster General games played with random legal orders: every exchange has legal
orders, every game ends, and no audience ever sees another country's hidden cards."""

from __future__ import annotations

import random
import re

import yaml

from pbem.core.dice import DiceStream
from pbem.core.events import EventLog, seen_by
from pbem.core.yamlio import parse_document
from pbem.rulesets.qmg.report import render_formats, report_model
from pbem.rulesets.qmg import Qmg
from pbem.rulesets.qmg.content import COUNTRIES
from pbem.rulesets.qmg.play import Turn

RULES = Qmg()
PACK = RULES.pack


def _doc(data: dict, name: str):
    return parse_document(yaml.safe_dump(data, sort_keys=False), name)


def random_orders(state: dict, country: str, rng: random.Random) -> dict:
    """Legal orders drawn at random: a card played where the rules allow it, or discarded."""
    zones = state["countries"][country]
    if state["phase"] == "setup":
        return {"country": country, "setup_discard": [PACK.name(country, c) for c in rng.sample(zones["hand"], 3)]}
    orders: dict = {"country": country}
    table = zones["responses"] + zones["statuses"]
    spaces = PACK.board.order
    orders["effects"] = [{"card": PACK.name(country, c), "space": rng.sample(spaces, 8),
                          "target": rng.sample(COUNTRIES, 3)} for c in table if rng.random() < 0.8]
    if not zones["hand"]:
        return orders
    instance = rng.choice(zones["hand"])
    card = PACK.card(country, instance)
    turn = Turn(PACK, state, EventLog(), country, {}, state["options"])
    play: dict = {"discard": card.name}
    if card.type in ("build_army", "build_navy"):
        piece = "army" if card.type == "build_army" else "navy"
        legal = [s for s in spaces if not turn.can_build(country, piece, s)]
        if legal:
            play = {"card": card.name, "space": rng.choice(legal)}
    elif card.type in ("land_battle", "sea_battle"):
        kind = "land" if card.type == "land_battle" else "sea"
        legal = [s for s in spaces if not turn.can_battle(country, kind, s)]
        if legal:
            play = {"card": card.name, "space": rng.choice(legal), "target": rng.sample(COUNTRIES, 2)}
    elif card.type in ("status", "response", "event") and rng.random() < 0.9:
        play = {"card": card.name, "space": rng.sample(spaces, 5), "country": rng.sample(COUNTRIES, 2)}
    orders["play"] = play
    rest = [c for c in zones["hand"] if c != instance]
    orders["discard"] = [PACK.name(country, c) for c in rest if rng.random() < 0.1]
    return orders


def play_game(seed: int, reports: bool = False):
    """Yield (before, after, log) for every exchange of one random game to its end."""
    rng = random.Random(seed)
    key = f"{seed:064x}"
    state = RULES.opening_state(f"fuzz-{seed}", {}, DiceStream(key, "opening"))
    state["dice"] = {"commitment": "0" * 64, "turn": 1}
    standing_cache = {}
    for number in range(1, 200):
        awaited = RULES.awaiting(state)
        if not awaited:
            return
        submissions = {c: _doc(random_orders(state, c, rng), f"{c}.yaml") for c in awaited}
        standing = {}
        for c in COUNTRIES:
            if c in awaited:
                continue
            table = state["countries"][c]["responses"] + state["countries"][c]["statuses"]
            entries = [{"card": PACK.name(c, i), "space": rng.sample(PACK.board.order, 6),
                        "target": rng.sample(COUNTRIES, 3)} for i in table]
            standing[c] = standing_cache.setdefault((c, repr(entries)), _doc({"country": c, "effects": entries}, f"s-{c}.yaml"))
        problems = RULES.check_orders(state, submissions, standing)
        assert problems == [], (number, [f"{p.field}: {p.message}" for p in problems])
        log = EventLog()
        log.add("turn_start", turn=number, seed="0" * 64)
        after = RULES.resolve(state, submissions, standing, None, log, DiceStream(key, f"turn {number}"))
        after["dice"] = state["dice"]
        log.add("turn_end", awaiting=list(RULES.awaiting(after)), state_commitment="c" * 64)
        yield state, after, log
        state = after
    raise AssertionError("the game did not end within 200 exchanges")


def test_random_games_always_have_legal_orders_and_end():
    for seed in range(12):
        exchanges = list(play_game(seed))
        final = exchanges[-1][1]
        assert final["winner"] in ("axis", "allies")
        for _, after, _ in exchanges:
            for country, zones in after["countries"].items():
                cards = zones["deck"] + zones["hand"] + zones["responses"] + zones["statuses"] + \
                    [d["card"] for d in zones["discard"]]
                assert sorted(cards) == sorted(PACK.decks[country]), "a card was lost or doubled"


UNIQUE = {country: {PACK.name(country, c) for c in PACK.decks[country]
                    if PACK.card(country, c).type in ("status", "response", "event")} for country in COUNTRIES}


def test_no_report_shows_another_countrys_hidden_cards_over_whole_games():
    for seed in (101, 102):
        public_names: set[str] = set()
        for before, after, log in play_game(seed):
            public_names |= {str(e.get("card")) for e in log.events if "to" not in e}
            public_names |= {n for c in COUNTRIES for n in RULES.view(after, "public")["countries"][c]["statuses"]}
            for audience in ("public", *COUNTRIES):
                view = RULES.view(after, audience)
                for country, zones in view["countries"].items():
                    assert ("hand_cards" in zones) == (country == audience)
                assert all(seen_by(e, audience) or audience not in e["to"] for e in log.events)
                text = "\n".join(render_formats(report_model(RULES, before, after, log, audience)).values())
                for country in COUNTRIES:
                    if country == audience:
                        continue
                    for name in UNIQUE[country] - public_names:
                        assert not re.search(re.escape(name), text), (seed, audience, country, name)
