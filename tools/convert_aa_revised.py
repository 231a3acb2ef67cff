#!/usr/bin/env python3
"""Convert TripleA's "World War II Revised" map (ww2v2.xml) into pbem's aa-revised data files.

Usage (from the repository root)::

    python tools/convert_aa_revised.py [path/to/ww2v2.xml] [--out DIR]

Writes ``board.yaml`` (powers, land territories, sea zones, canals) and ``setup.yaml`` (the
opening position in the shapes of ``state.yaml``, see docs/architecture.md) into
``pbem/rulesets/axis_allies/editions/revised/``. Run by hand; the output is committed and the game never
reads the XML. Only map and setup facts are taken from the XML: its engine properties
(bids, low luck, AA options, ...) are TripleA's settings, not rules of the game.
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

REPO = Path(__file__).resolve().parents[1]
DEFAULT_XML = REPO / "../shared/data/aa-revised/ww2v2.xml"
DATA_DIR = REPO / "pbem/rulesets/axis_allies/editions/revised"

# TripleA player name -> (pbem power id, English name).
POWERS: dict[str, tuple[str, str]] = {
    "Russians": ("ussr", "USSR"),
    "Germans": ("germany", "Germany"),
    "British": ("uk", "United Kingdom"),
    "Japanese": ("japan", "Japan"),
    "Americans": ("usa", "USA"),
}

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

# TripleA spellings that differ from the display names fixed in docs/architecture.md.
RENAMES: dict[str, str] = {
    "Anglo Egypt": "Anglo-Egypt",
    "Philipine Islands": "Philippine Islands",
    "Rio De Oro": "Rio de Oro",
}

# The XML only flags victory cities (victoryCity=1); the rulebook names them by city.
VICTORY_CITIES: dict[str, str] = {
    "Eastern United States": "Washington",
    "Western United States": "Los Angeles",
    "United Kingdom": "London",
    "Karelia S.S.R.": "Leningrad",
    "Russia": "Moscow",
    "India": "Calcutta",
    "Germany": "Berlin",
    "Western Europe": "Paris",
    "Southern Europe": "Rome",
    "Kwantung": "Shanghai",
    "Philippine Islands": "Manila",
    "Japan": "Tokyo",
}

# Connections (TripleA names) that the local ww2v2.xml lacks although the board has them.
# Western Canada's Arctic coast touches SZ 63: the map's own polygons.txt shows the shared
# border, and TripleA's revised.xml / revised_test.xml, the upstream triplea-maps ww2v2.xml
# and the rules digest (Appendix E, 349 connections) all list it. Added only if missing.
MISSING_CONNECTIONS: list[tuple[str, str]] = [("Western Canada", "63 Sea Zone")]

SEA_ZONE = re.compile(r"(\d+) Sea Zone")


def space_name(triplea: str) -> str:
    """Return pbem's display name for a TripleA territory name (`5 Sea Zone` -> `SZ 5`)."""
    match = SEA_ZONE.fullmatch(triplea)
    if match:
        return f"SZ {match.group(1)}"
    return RENAMES.get(triplea, triplea)


def natural_key(name: str) -> list[Any]:
    """Sort key that orders embedded numbers numerically, so SZ 9 comes before SZ 10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def fail(message: str) -> NoReturn:
    """Stop the conversion: the XML does not say what the game needs."""
    sys.exit(f"convert_aa_revised: {message}")


def options(attachment: ET.Element) -> dict[str, str]:
    """Return the name -> value options of one TripleA attachment."""
    return {opt.get("name", ""): opt.get("value", "") for opt in attachment.iter("option")}


def read_board(root: ET.Element) -> dict[str, Any]:
    """Build board.yaml's content: powers, territories, sea zones and canals."""
    sides = {a.get("player"): a.get("alliance", "").lower() for a in root.iter("alliance")}
    powers = []
    for player in root.iter("player"):
        pid, name = POWERS[player.get("name", "")]
        powers.append({"id": pid, "name": name, "side": sides[player.get("name")],
                       "tripleA": player.get("name")})
    power_of = {p["tripleA"]: p["id"] for p in powers}

    water = {t.get("name"): t.get("water") == "true" for t in root.find("map").iter("territory")}
    neighbours: dict[str, set[str]] = {name: set() for name in water}
    connections = [(c.get("t1"), c.get("t2")) for c in root.iter("connection")]
    for t1, t2 in MISSING_CONNECTIONS:
        if (t1, t2) in connections or (t2, t1) in connections:
            print(f"note: {t1} - {t2} is in the XML now; MISSING_CONNECTIONS can go", file=sys.stderr)
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
        if water[triplea]:
            sea_zones.append({"name": name, "number": int(name.split()[1]), "neighbours": adjacent})
            continue
        opts = attached[triplea]
        neutral = opts.get("isImpassable") == "true"
        original = opts.get("originalOwner", owner_at_start.get(triplea))
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
        if opts.get("victoryCity", "0") != "0":
            entry["victory_city"] = VICTORY_CITIES[name]
        entry["island"] = all(water[n] for n in neighbours[triplea])  # no land neighbours
        entry["neighbours"] = adjacent
        territories.append(entry)

    flagged = {t["name"] for t in territories if "victory_city" in t}
    if flagged != set(VICTORY_CITIES):
        fail(f"victory cities in the XML differ from the rulebook's: {sorted(flagged ^ set(VICTORY_CITIES))}")
    territories.sort(key=lambda t: t["name"])
    sea_zones.sort(key=lambda s: s["number"])
    for canal in canals.values():
        canal["sea_zones"].sort(key=natural_key)
    return {
        "powers": powers,
        "territories": territories,
        "sea_zones": sea_zones,
        "canals": [{"name": name, **canal} for name, canal in canals.items()],
    }


def read_setup(root: ET.Element, board: dict[str, Any]) -> dict[str, Any]:
    """Build setup.yaml's content: treasury, control, units and cargo at the start of the game."""
    power_of = {p["tripleA"]: p["id"] for p in board["powers"]}
    turn_order = [p["id"] for p in board["powers"]]
    land = {t["name"]: t for t in board["territories"]}

    given = {power_of[r.get("player")]: int(r.get("quantity")) for r in root.iter("resourceGiven")}
    treasury = {pid: given[pid] for pid in turn_order}
    # Who holds each territory now; equal to original_owner as long as the XML has no originalOwner.
    owner = {space_name(t.get("territory")): power_of[t.get("owner")] for t in root.iter("territoryOwner")}
    control = {t["name"]: owner[t["name"]] for t in board["territories"] if not t["neutral"]}
    income = Counter()
    for name, holder in control.items():
        income[holder] += land[name]["ipc"]
    if dict(income) != treasury:  # the rulebook's starting IPCs equal each power's income
        fail(f"starting IPCs {treasury} differ from territory values {dict(income)}")

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
    parser.add_argument("xml", nargs="?", type=Path, default=DEFAULT_XML, help="TripleA ww2v2.xml")
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="output directory")
    args = parser.parse_args(argv)

    root = ET.parse(args.xml).getroot()
    board = read_board(root)
    setup = read_setup(root, board)
    header = ("# Generated by tools/convert_aa_revised.py from TripleA's ww2v2.xml\n"
              "# (map world_war_ii_revised); do not edit by hand.\n")
    args.out.mkdir(parents=True, exist_ok=True)
    dump(args.out / "board.yaml", header, [
        ({"powers": board["powers"]}, None),
        ({"territories": board["territories"]}, None),
        ({"sea_zones": board["sea_zones"]}, None),
        ({"canals": board["canals"]}, None),
    ])
    dump(args.out / "setup.yaml", header + "# The opening position, in the shapes of state.yaml.\n", [
        ({"treasury": setup["treasury"]}, None),
        ({"control": setup["control"]}, False),
        ({"units": setup["units"]}, None),
        ({"cargo": setup["cargo"]}, None),
    ])
    print(f"wrote {args.out / 'board.yaml'} and {args.out / 'setup.yaml'}")


if __name__ == "__main__":
    main()
