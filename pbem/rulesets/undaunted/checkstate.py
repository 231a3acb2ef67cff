"""A state file's facts beyond its schema: the scenario, tiles, units and cards it names exist in the
content pack, and every card of a side is in one zone at most, among its available cards."""

from __future__ import annotations

from collections import Counter

from pbem.core.errors import Problem
from pbem.core.ruleset import UNSEEN
from pbem.core.yamlio import Document
from pbem.rulesets.undaunted.board import Board
from pbem.rulesets.undaunted.content import SIDES, Pack


def check_state(pack: Pack, doc: Document) -> list[Problem]:
    state = doc.data
    if state["scenario"] not in pack.scenarios:
        return [doc.problem(("scenario",), f"scenario {state['scenario']!r} is not in the content pack",
                            ", ".join(pack.scenarios))]
    board = Board(pack.layouts[pack.scenarios[state["scenario"]].layout])
    problems = []
    for tile, letter in state["tiles"].items():
        if tile not in board.at:
            problems.append(doc.problem(("tiles", tile), f"tile {tile} is not on the scenario's map"))
        elif letter not in pack.tiles.get(tile, {}):
            problems.append(doc.problem(("tiles", tile), f"tile {tile} has no version {letter}",
                                        ", ".join(pack.tiles.get(tile, {}))))
    placed = [t for t in state["objectives"]] + [t for t in state["smoke"]] + list(state["tunnels"]) + \
        [t for e in state["mines"] for t in e["edge"]] + list(state["vp_tokens"]) + list(state["tokens"].values())
    problems += [doc.problem(("tiles",), f"tile {t} is used but is not on the map") for t in sorted(set(placed))
                 if t not in state["tiles"]]
    for side in SIDES:
        for unit, token in state["units"][side].items():
            if unit not in pack.units[side]:
                problems.append(doc.problem(("units", side, unit), f"{unit!r} is not a {side} unit",
                                            ", ".join(pack.units[side])))
            if token["tile"] not in state["tiles"]:
                problems.append(doc.problem(("units", side, unit, "tile"), f"tile {token['tile']} is not on the map"))
        for zone_tiles in (state["markers"][side], state["fire_lanes"][side].values()):
            problems += [doc.problem(("markers", side), f"tile {t} is not on the map") for t in zone_tiles
                         if t not in state["tiles"]]
        problems += [doc.problem(("fire_lanes", side, unit), f"{unit!r} is not a Machine Gunners unit of {side}")
                     for unit in state["fire_lanes"][side]
                     if unit not in pack.units[side] or pack.units[side][unit].type != "machine_gunners"]
        held = Counter(c for zone in state["sides"][side].values() for c in zone if c != UNSEEN)
        for card, count in sorted(held.items()):
            if card not in pack.cards or pack.cards[card].side != side:
                problems.append(doc.problem(("sides", side), f"{card!r} is not a {side} card"))
            elif count > 1:
                problems.append(doc.problem(("sides", side), f"{card} is in {count} zones", "one zone"))
        available = set(state["campaign"]["available"][side]) | set(state["sides"][side]["removed"])
        if UNSEEN in available:  # a view file of the other side
            continue
        problems += [doc.problem(("sides", side), f"{card} is in play but not among the side's available cards")
                     for card in sorted(set(held) - available) if card in pack.cards]
    return problems
