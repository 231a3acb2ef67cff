"""Supply (seed l.440-500): a piece is supplied when a chain of spaces holding its own country's
pieces joins it to a star space holding that country's army; a navy also needs a port, a land
space next to it holding an army of any country of its team, supplied or not."""

from __future__ import annotations

from typing import Any

from pbem.rulesets.qmg.content import TEAMS, Board


def axis_armies(pieces: dict[str, list[dict[str, str]]]) -> set[str]:
    """The spaces holding an Axis army: they decide which team each strait is open to."""
    return {space for space, here in pieces.items()
            if any(p["piece"] == "army" and TEAMS[p["country"]] == "axis" for p in here)}


def supplied_spaces(board: Board, pieces: dict[str, list[dict[str, str]]], country: str,
                    options: dict[str, Any]) -> set[str]:
    """The spaces where `country`'s piece is supplied."""
    return set(supply_chains(board, pieces, country, options))


def supply_chains(board: Board, pieces: dict[str, list[dict[str, str]]], country: str,
                  options: dict[str, Any]) -> dict[str, list[str]]:
    """Each space where `country`'s piece is supplied, with one chain that supplies it: the spaces
    from it back to its supply source (a star space with the country's army), both ends included."""
    team = TEAMS[country]
    axis_on = axis_armies(pieces)
    own = {space for space, here in pieces.items() if any(p["country"] == country for p in here)}

    def port(space: str) -> bool:
        return any(board.spaces[n].kind == "land" and any(
            p["piece"] == "army" and TEAMS[p["country"]] == team for p in pieces.get(n, []))
            for n in board.neighbours_for(space, team, axis_on))

    def navy_without_port(space: str) -> bool:
        return board.spaces[space].kind == "sea" and not port(space)

    links = own if options["portless_navy_links"] else {s for s in own if not navy_without_port(s)}
    reach = [s for s in sorted(own) if board.spaces[s].star and any(
        p["country"] == country and p["piece"] == "army" for p in pieces[s])]
    chains = {s: [s] for s in reach}
    while reach:
        space = reach.pop()
        for n in board.neighbours_for(space, team, axis_on) if options["straits_in_supply"] \
                else board.neighbours[space]:
            if n in links and n not in chains:
                chains[n] = [n, *chains[space]]
                reach.append(n)
    return {s: chain for s, chain in chains.items() if not navy_without_port(s)}
