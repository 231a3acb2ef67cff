"""The tiles of a position for `pbem board`: each tile's terrain and cover, what stands and lies on
it, the markers and objectives, and the tiles next to it (issue 26: a board to check orders against)."""

from __future__ import annotations

import difflib
from typing import Any

from pbem.core.errors import InputError, Problem
from pbem.rulesets.undaunted.board import Board
from pbem.rulesets.undaunted.content import SIDES, Pack

PEOPLE = {"soviet": "Soviet", "german": "German"}


def _terrain(pack: Pack, number: str, letter: str) -> dict[str, Any]:
    version = pack.tile(number, letter)
    return {"terrain": version.name, "cover": version.cover, "building_cover": version.building_cover,
            "durability": version.durability, "impassable": version.impassable,
            "fortification_cover": version.fortification_cover}


def _facts(tile: dict[str, Any]) -> str:
    parts = [f"{tile['terrain']}, cover {tile['cover']}"]
    if tile["durability"] is not None:
        parts.append(f"building: cover {tile['building_cover']} from another tile, durability {tile['durability']}")
    if tile["fortification_cover"] is not None:
        parts.append(f"fortification cover {tile['fortification_cover']} for the side that controls it")
    if tile["impassable"]:
        parts.append("impassable to tanks")
    if tile["objective"]:
        parts.append(f"objective worth {tile['objective']}")
    parts += [f"{PEOPLE[side]} {face} marker" for side, face in tile["markers"].items()]
    parts += [f"{PEOPLE[u['side']]} {u['unit']}" + (f" ({u['state']})" if u["state"] != "ready" else "")
              for u in tile["units"]]
    parts += tile["on_tile"]
    return "; ".join(parts)


def tile_spaces(pack: Pack, state: dict[str, Any], name: str | None) -> list[dict[str, Any]]:
    """The position's tiles in map order (rows from the German edge), or the one `name` names (504 or 504-A)."""
    board = Board(pack.layouts[pack.scenarios[state["scenario"]].layout])
    tiles = state["tiles"]
    ids = {f"{t}-{tiles[t]}": t for t in board.tiles}
    chosen = board.tiles
    if name is not None:
        number = str(name).partition("-")[0]
        if number not in tiles:
            raise InputError([Problem("pbem board", None, "SPACE", f"{name!r} is not a tile of the map",
                                      ", ".join(difflib.get_close_matches(str(name), list(ids), 3)) or
                                      ", ".join(list(ids)[:10]))])
        chosen = [number]
    found = []
    for t in chosen:
        units = [{"side": side, "unit": unit, "state": ", ".join(w for w in ("suppressed", "routed") if token[w])
                  or "ready"} for side in SIDES for unit, token in state["units"][side].items()
                 if token and token["tile"] == t]
        on_tile = [f"{PEOPLE[m['side']]} {m['face']} mine on the edge to {ids_of(tiles, m['edge'], t)}"
                   for m in state["mines"] if t in m["edge"]]
        on_tile += [f"fire lane of the {PEOPLE[side]} {mg}" for side in SIDES
                    for mg, lane in state["fire_lanes"][side].items() if lane == t]
        on_tile += ["smoke"] * (t in state["smoke"]) + ["tunnel"] * (t in state["tunnels"])
        tile = {"name": f"{t}-{tiles[t]}", "number": t, **_terrain(pack, t, tiles[t]),
                "objective": state["objectives"].get(t, 0),
                "markers": {side: state["markers"][side][t] for side in SIDES if state["markers"][side].get(t)},
                "units": units, "on_tile": on_tile,
                "land_neighbours": [f"{n}-{tiles[n]}" for n in board.neighbours[t]], "sea_neighbours": [],
                "tunnel_to": [f"{n}-{tiles[n]}" for n in state["tunnels"] if t in state["tunnels"] and n != t]}
        found.append({**tile, "facts": _facts(tile)})
    return found


def ids_of(tiles: dict[str, str], edge: list[str], here: str) -> str:
    other = next(t for t in edge if t != here)
    return f"{other}-{tiles[other]}"
