"""A state file's facts beyond its schema: every card of each country exactly once in its zones,
pieces on real spaces of the right kind, within their pools, never beside an enemy."""

from __future__ import annotations

from collections import Counter

from pbem.core.errors import Problem
from pbem.core.ruleset import UNSEEN
from pbem.core.yamlio import Document
from pbem.rulesets.qmg.content import PIECES, TEAMS, Pack

ZONES = ("deck", "hand", "responses", "statuses")


def check_state(pack: Pack, doc: Document) -> list[Problem]:
    state = doc.data
    problems = []
    for country, zones in state["countries"].items():
        held = Counter(c for zone in ZONES for c in zones[zone]) + Counter(d["card"] for d in zones["discard"])
        unseen = held.pop(UNSEEN, 0)  # in a view file, any one of the cards not named
        expected = Counter(pack.decks[country])
        missing = expected - held
        if unseen and unseen != sum(missing.values()):
            problems.append(doc.problem(("countries", country), f"{unseen} unseen cards stand for "
                                        f"{sum(missing.values())} cards not named", "as many as the cards not named"))
        for card in sorted((held - expected) | (Counter() if unseen else missing)):
            where = "twice or not of its deck" if held[card] > expected[card] else "missing"
            problems.append(doc.problem(("countries", country), f"card {card!r} is {where}",
                                        "each card of the country's deck exactly once in its zones"))
    board = pack.board
    counts: Counter = Counter()
    for space, here in state["pieces"].items():
        if space not in board.spaces:
            problems.append(doc.problem(("pieces", space), f"{space!r} is not a space of the board"))
            continue
        for piece in here:
            counts[piece["country"], piece["piece"]] += 1
            kind = "land" if piece["piece"] == "army" else "sea"
            if board.spaces[space].kind != kind:
                problems.append(doc.problem(("pieces", space), f"a {piece['piece']} on a {board.spaces[space].kind} space"))
        owners = [p["country"] for p in here]
        if len(set(owners)) != len(owners):
            problems.append(doc.problem(("pieces", space), "a country has two pieces here", "one piece per country"))
        if len({TEAMS[c] for c in owners}) > 1:
            problems.append(doc.problem(("pieces", space), "pieces of both teams share the space"))
    for (country, piece), n in sorted(counts.items()):
        if n > PIECES[country][piece]:
            problems.append(doc.problem(("pieces",), f"{country} has {n} {piece}s on the board, more than its "
                                        f"{PIECES[country][piece]}"))
    return problems
