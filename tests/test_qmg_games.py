"""Whole Quartermaster General games played with random legal orders: every exchange has legal
orders, every game ends, and no audience ever sees another country's hidden cards."""

from __future__ import annotations

import re

import qmg_play

from pbem.core.events import seen_by
from pbem.rulesets.qmg import Qmg
from pbem.rulesets.qmg.content import COUNTRIES
from pbem.rulesets.qmg.report import render_formats, report_model

RULES = Qmg()
PACK = RULES.pack


def play_game(seed: int):
    """(before, after, log) of every exchange of one random game with the demo pack."""
    for exchange, after, log in qmg_play.play_game(RULES, seed):
        yield exchange.state, after, log


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
