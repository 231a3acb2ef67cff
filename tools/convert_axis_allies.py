#!/usr/bin/env python3
"""Convert an Axis & Allies edition's TripleA map XML into pbem's board.yaml and setup.yaml.

Usage (from the repository root)::

    python tools/convert_axis_allies.py revised|europe [path/to/map.xml] [--out DIR]

Writes ``board.yaml`` (powers, land territories, sea zones, canals and the edition's extra facts)
and ``setup.yaml`` (the opening position in the shapes of ``state.yaml``, see
docs/architecture.md) into ``pbem/rulesets/axis_allies/editions/<edition>/``. The editions' source
files and the facts the XML lacks are in ``tools/axis_allies_editions.py``. Run by hand; the
output is committed and the game never reads the XML. Only map and setup facts are taken from the
XML: its engine properties (bids, low luck, AA options, ...) are TripleA's settings, not rules of
the game.
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, NoReturn

import yaml

from axis_allies_editions import EDITIONS, Edition

# TripleA unit type -> pbem unit type, listed in pbem's unit-table order (units.yaml).
UNIT_TYPES: dict[str, str] = {
    "infantry": "infantry",
    "artillery": "artillery",
    "armour": "tank",
    "aaGun": "aa_gun",
    "factory": "industrial_complex",
    "fighter": "fighter",
    "bomber": "bomber",
    "battleship": "battleship",
    "destroyer": "destroyer",
    "carrier": "carrier",
    "transport": "transport",
    "submarine": "submarine",
}
LAND_UNITS = {"infantry", "artillery", "tank", "aa_gun", "industrial_complex"}
SEA_UNITS = {"battleship", "destroyer", "carrier", "transport", "submarine"}


def natural_key(name: str) -> list[Any]:
    """Sort key that orders embedded numbers numerically, so SZ 9 comes before SZ 10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def fail(message: str) -> NoReturn:
    """Stop the conversion: the XML does not say what the game needs."""
    sys.exit(f"convert_axis_allies: {message}")


def options(attachment: ET.Element) -> dict[str, str]:
    """Return the name -> value options of one TripleA attachment."""
    return {opt.get("name", ""): opt.get("value", "") for opt in attachment.iter("option")}


def read_board(root: ET.Element, edition: Edition) -> dict[str, Any]:
    """Build board.yaml's content: powers, territories, sea zones, canals (and straits)."""
    space_name = edition.space_name
    sides = {a.get("player"): a.get("alliance", "").lower() for a in root.iter("alliance")}
    powers = []
    for player in root.iter("player"):
        pid, name = edition.powers[player.get("name", "")]
        powers.append({"id": pid, "name": name, "side": sides[player.get("name")],
                       "tripleA": player.get("name")})
    power_of = {p["tripleA"]: p["id"] for p in powers}

    water = {t.get("name"): t.get("water") == "true" for t in root.find("map").iter("territory")}
    neighbours: dict[str, set[str]] = {name: set() for name in water}
    connections = [(c.get("t1"), c.get("t2")) for c in root.iter("connection")]
    for t1, t2 in edition.missing_connections:
        if (t1, t2) in connections or (t2, t1) in connections:
            print(f"note: {t1} - {t2} is in the XML now; missing_connections can go", file=sys.stderr)
        else:
            connections.append((t1, t2))
    for t1, t2 in connections:  # TripleA lists each connection once; pbem wants both ways
        neighbours[t1].add(t2)
        neighbours[t2].add(t1)

    attached: dict[str, dict[str, str]] = defaultdict(dict)
    canals: dict[str, dict[str, list[str]]] = {}
    for att in root.iter("attachment"):
        target, opts = att.get("attachTo", ""), options(att)
        if att.get("name") == "territoryAttachment":
            attached[target] = opts
        elif att.get("name") == "canalAttachment":
            canal = canals.setdefault(opts["canalName"].removesuffix(" Canal"),
                                      {"sea_zones": [], "territories": []})
            canal["sea_zones"].append(space_name(target))
            canal["territories"] = sorted(space_name(t) for t in opts["landTerritories"].split(":"))

    owner_at_start = {t.get("territory"): t.get("owner") for t in root.iter("territoryOwner")}
    territories, sea_zones = [], []
    for triplea in water:
        name, adjacent = space_name(triplea), sorted(map(space_name, neighbours[triplea]), key=natural_key)
        opts = attached[triplea]
        original = opts.get("originalOwner", owner_at_start.get(triplea))
        if water[triplea]:
            sea_zones.append(sea_zone(triplea, name, opts, original and power_of[original], adjacent))
            continue
        # Revised marks neutrals impassable; Europe leaves them without an owner.
        neutral = opts.get("isImpassable") == "true" or not original
        if neutral and original:
            fail(f"neutral {triplea} has an owner")
        entry: dict[str, Any] = {"name": name}
        if triplea != name:
            entry["tripleA"] = triplea
        entry["ipc"] = int(opts.get("production", 0))
        entry["original_owner"] = power_of[original] if original else None
        entry["neutral"] = neutral
        if "capital" in opts:
            entry["capital"] = power_of[opts["capital"]]
        if edition.victory_cities is not None and opts.get("victoryCity", "0") != "0":
            entry["victory_city"] = edition.victory_cities[name]
        if name in edition.middle_east:
            entry["middle_east"] = True
        for colour, spaces in (("red", edition.soviet_red), ("pink", edition.soviet_pink)):
            if name in spaces:
                entry["soviet"] = colour
        entry["island"] = all(water[n] for n in neighbours[triplea])  # no land neighbours
        entry["neighbours"] = adjacent
        territories.append(entry)

    check_edition_facts(edition, territories)
    territories.sort(key=lambda t: t["name"])
    sea_zones.sort(key=lambda s: natural_key(s["name"]))
    for canal in canals.values():
        canal["sea_zones"].sort(key=natural_key)
    board = {
        "powers": powers,
        "territories": territories,
        "sea_zones": sea_zones,
        "canals": [{"name": name, **canal} for name, canal in canals.items()
                   if name not in {s.triplea_canal for s in edition.straits}],
    }
    if edition.straits:
        board["straits"] = [{"name": s.name, "sea_zones": canals[s.triplea_canal]["sea_zones"],
                             "neutral": s.neutral, "ships": False, "aircraft": True}
                            for s in edition.straits]
    return board


def sea_zone(triplea: str, name: str, opts: dict[str, str], owner: str | None,
             adjacent: list[str]) -> dict[str, Any]:
    """One entry of board.yaml's sea_zones; a zone with a value and an owner is a convoy centre."""
    entry: dict[str, Any] = {"name": name}
    if name.startswith("SZ "):
        entry["number"] = int(name.split()[1])
    else:  # a numbered zone's TripleA spelling ("5 Sea Zone") is read as SZ 5 anyway
        entry["tripleA"] = triplea
    if owner:
        entry["ipc"] = int(opts["production"])
        entry["original_owner"] = owner
    entry["neighbours"] = adjacent
    return entry


def check_edition_facts(edition: Edition, territories: list[dict[str, Any]]) -> None:
    """Stop if the edition's tables name spaces the XML does not have as they say."""
    by_name = {t["name"]: t for t in territories}
    if edition.victory_cities is not None:
        flagged = {t["name"] for t in territories if "victory_city" in t}
        if flagged != set(edition.victory_cities):
            fail(f"victory cities in the XML differ from the rulebook's: "
                 f"{sorted(flagged ^ set(edition.victory_cities))}")
    for name in edition.middle_east:
        if name not in by_name or by_name[name]["neutral"]:
            fail(f"Middle East country {name} is not a held territory of the XML")
    soviet = {t["name"] for t in territories if t["original_owner"] == "ussr"}
    if (edition.soviet_red or edition.soviet_pink) and soviet != edition.soviet_red | edition.soviet_pink:
        fail(f"red and pink territories differ from the USSR's: "
             f"{sorted(soviet ^ (edition.soviet_red | edition.soviet_pink))}")
    for strait in edition.straits:
        if not by_name.get(strait.neutral, {}).get("neutral"):
            fail(f"{strait.name}: {strait.neutral} is not a neutral territory")


def income(board: dict[str, Any], control: dict[str, str]) -> Counter:
    """Each power's income from the spaces it controls; Middle East countries count for nobody."""
    value = {s["name"]: s.get("ipc", 0) for s in board["territories"] + board["sea_zones"]}
    middle_east = {t["name"] for t in board["territories"] if t.get("middle_east")}
    total = Counter()
    for name, holder in control.items():
        if name not in middle_east:
            total[holder] += value[name]
    return total


def read_setup(root: ET.Element, board: dict[str, Any], edition: Edition) -> dict[str, Any]:
    """Build setup.yaml's content: treasury, control, units and cargo at the start of the game."""
    space_name = edition.space_name
    power_of = {p["tripleA"]: p["id"] for p in board["powers"]}
    turn_order = [p["id"] for p in board["powers"]]
    land = {t["name"]: t for t in board["territories"]}

    given = {power_of[r.get("player")]: int(r.get("quantity")) for r in root.iter("resourceGiven")}
    # Who holds each space now; equal to original_owner as long as the XML has no originalOwner.
    owner = {space_name(t.get("territory")): power_of[t.get("owner")] for t in root.iter("territoryOwner")}
    control = {t["name"]: owner[t["name"]] for t in board["territories"] if not t["neutral"]}
    control.update({s["name"]: owner[s["name"]] for s in board["sea_zones"] if s["name"] in owner})
    starting_income = {pid: income(board, control)[pid] for pid in turn_order}
    if starting_income != {pid: given[pid] for pid in turn_order}:  # the rulebook's starting IPCs
        fail(f"starting IPCs {given} differ from the values of the spaces held {starting_income}")
    treasury = starting_income if edition.income_before_first_turn else dict.fromkeys(turn_order, 0)

    placed: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for p in root.iter("unitPlacement"):
        space, unit = space_name(p.get("territory")), UNIT_TYPES[p.get("unitType")]
        placed[space][power_of[p.get("owner")]][unit] += int(p.get("quantity"))

    units: dict[str, dict[str, dict[str, int]]] = {}
    board_order = [t["name"] for t in board["territories"]] + [s["name"] for s in board["sea_zones"]]
    for space in board_order:
        if space not in placed:
            continue
        at_sea = space not in land
        if not at_sea and land[space]["neutral"]:
            fail(f"units in neutral {space}")
        fighters, carriers = 0, 0
        units[space] = {}
        for pid in turn_order:
            have = placed[space].get(pid)
            if not have:
                continue
            wrong = set(have) & (LAND_UNITS if at_sea else SEA_UNITS)
            if wrong:  # land units at sea would be cargo; TripleA's setup loads none
                fail(f"{pid} {sorted(wrong)} cannot stand in {space}")
            units[space][pid] = {u: have[u] for u in UNIT_TYPES.values() if have[u]}
            fighters, carriers = fighters + have["fighter"], carriers + have["carrier"]
        if at_sea and fighters > 2 * carriers:
            fail(f"{fighters} fighters in {space} but room on carriers for {2 * carriers}")
    return {"treasury": treasury, "control": control, "units": units, "cargo": {}}


def dump(path: Path, header: str, sections: list[tuple[dict[str, Any], bool | None]]) -> None:
    """Write a YAML file section by section; each section picks its own flow style.

    `None` puts only the innermost mappings/lists in flow style (one line per entry), `False`
    writes a block mapping (used for long flat mappings such as `control`).
    """
    parts = [header]
    for data, flow in sections:
        parts.append(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100,
                                    default_flow_style=flow))
    path.write_text("".join(parts), encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, convert, and write board.yaml and setup.yaml."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("edition", choices=sorted(EDITIONS), help="which edition to convert")
    parser.add_argument("xml", nargs="?", type=Path, help="TripleA map XML (default: the edition's)")
    parser.add_argument("--out", type=Path, help="output directory (default: the edition's)")
    args = parser.parse_args(argv)
    edition = EDITIONS[args.edition]
    out = args.out or edition.data_dir

    root = ET.parse(args.xml or edition.source_dir / edition.xml).getroot()
    board = read_board(root, edition)
    setup = read_setup(root, board, edition)
    header = (f"# Generated by tools/convert_axis_allies.py {edition.name} from TripleA's {edition.xml}\n"
              f"# (map {edition.triplea_map}); do not edit by hand.\n")
    out.mkdir(parents=True, exist_ok=True)
    dump(out / "board.yaml", header + edition.board_notes,
         [({key: board[key]}, None) for key in board])
    setup_notes = "# The opening position, in the shapes of state.yaml.\n"
    if not edition.income_before_first_turn:
        setup_notes += ("# Treasury 0: before the game the bank pays the special cash advance (Germany 12,\n"
                        "# the Allies 12 to share, seed l.342-348), a rule, not a position; the starting\n"
                        "# income is paid at the start of round 1 (l.350-358). control includes the\n"
                        "# convoy centres.\n")
    dump(out / "setup.yaml", header + setup_notes, [
        ({"treasury": setup["treasury"]}, None),
        ({"control": setup["control"]}, False),
        ({"units": setup["units"]}, None),
        ({"cargo": setup["cargo"]}, None),
    ])
    print(f"wrote {out / 'board.yaml'} and {out / 'setup.yaml'}")


if __name__ == "__main__":
    main()
