"""Checks of a state file beyond its JSON Schema: names, where units may stand, cargo that fits."""

from __future__ import annotations

from typing import Any

from pbem.core.errors import Problem
from pbem.core.ruleset import option_problems
from pbem.core.yamlio import Document
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.names import a

# The opening position has about 200 units; 25 times that needs some seventy rounds of spending
# every IPC on infantry without a loss, so no game reaches it. It also keeps every battle small
# enough for the exact odds and the map's stacks.
MAX_UNITS = 5000


def _unit_total(data: dict[str, Any]) -> int:
    """The units on the board, those aboard transports included."""
    groups = [counts for by_power in (data.get("units") or {}).values() for counts in (by_power or {}).values()]
    groups += [counts for entries in (data.get("cargo") or {}).values() for entry in entries or []
               for counts in (entry.get("units") or {}).values()]
    return sum(n for counts in groups for n in (counts or {}).values() if isinstance(n, int))


def check_state(doc: Document, edition: Edition) -> list[Problem]:
    """Every problem of a state file of `edition` that its schema cannot see."""
    b, table = edition.board, edition.units
    data: dict[str, Any] = doc.data if isinstance(doc.data, dict) else {}
    problems: list[Problem] = []

    def bad(path: tuple, message: str, allowed: str | None = None) -> None:
        problems.append(doc.problem(path, message, allowed))

    def power_ok(path: tuple, power: Any) -> bool:
        if power not in b.powers:
            bad(path, f"unknown power {power!r}", ", ".join(b.powers))
            return False
        return True

    if data.get("ruleset") != edition.ruleset_id:
        bad(("ruleset",), f"this is not an {edition.ruleset_id} state", edition.ruleset_id)
    for name, message, allowed in option_problems(edition.options, data.get("options") or {}):
        bad(("options", name), message, allowed)
    if "next_power" in data:
        power_ok(("next_power",), data["next_power"])
    for power in data.get("treasury") or {}:
        power_ok(("treasury", power), power)
    for power, devs in (data.get("developments") or {}).items():
        if power_ok(("developments", power), power):
            for i, dev in enumerate(devs or []):
                if dev not in table.developments:
                    bad(("developments", power, i), f"unknown development {dev!r}", ", ".join(table.developments))
    control = data.get("control") or {}
    for territory, power in control.items():
        if territory in b.convoys:  # Europe: a convoy centre is held like a territory
            pass
        elif territory not in b.territories:
            message, allowed = b.space_names.unknown_message(territory)
            bad(("control", territory), message.replace("space", "territory"), allowed)
        elif b.territories[territory].neutral:
            bad(("control", territory), "a neutral territory is never controlled")
        power_ok(("control", territory), power)
    for space in (*(t.name for t in b.territories.values() if not t.neutral), *b.convoys):
        if space not in control:
            bad(("control",), f"{space} is missing: every non-neutral territory and convoy centre has a controller")
    if data.get("round") == 0 and not edition.rules.cash_advance:
        bad(("round",), f"{edition.name} has no set-up round: rounds start at 1", "1 or more")
    if "cash_advance" in data and data.get("round") != 0:
        bad(("cash_advance",), "a cash advance is left only in the set-up round 0")
    if data.get("winner") not in (None, *b.sides):
        bad(("winner",), f"unknown side {data.get('winner')!r}", ", ".join(b.sides))

    units = data.get("units") or {}
    for space, by_power in units.items():
        if not b.is_space(space):
            message, allowed = b.space_names.unknown_message(space)
            bad(("units", space), message, allowed)
            continue
        if b.is_neutral(space):
            bad(("units", space), "no unit may stand in a neutral territory")
        fighters: dict[str, int] = {}
        carriers: dict[str, int] = {}
        controller = control.get(space) if b.is_land(space) else None
        for power, counts in (by_power or {}).items():
            if not power_ok(("units", space, power), power):
                continue
            if controller in b.powers and not b.friendly(power, controller) and any((counts or {}).values()):
                bad(("units", space, power), f"{power} units stand in {space}, which {controller} controls: "
                    "between turns a territory holds only units of its controller and its allies",
                    f"units of powers on {controller}'s side")
            for utype, n in (counts or {}).items():
                where = ("units", space, power, utype)
                if utype not in table.types:
                    message, allowed = table.unit_names.unknown_message(utype)
                    bad(where, message, allowed)
                    continue
                cls = table.cls(utype)
                if b.is_sea(space) and cls == "building":
                    bad(where, "an industrial complex stands only in a territory (it is never carried)")
                elif b.is_sea(space) and cls == "land":
                    bad(where, "land units at sea are written under `cargo`, aboard their transport")
                if b.is_sea(space) and utype == "bomber":
                    bad(where, "bombers cannot stand in a sea zone")
                if b.is_land(space) and cls == "sea":
                    bad(where, "a sea unit cannot stand in a territory")
                if utype == "industrial_complex" and n > 1:
                    bad(where, "a territory holds at most one industrial complex")
                if utype == "fighter":
                    fighters[power] = fighters.get(power, 0) + n
                if utype == "carrier":
                    carriers[power] = carriers.get(power, 0) + n
        if b.is_sea(space) and fighters:
            room = sum(carriers.values()) * (table["carrier"].capacity or 2)
            if sum(fighters.values()) > room:
                bad(("units", space), f"{sum(fighters.values())} fighters at sea but room on carriers for {room}")
            if any(b.enemies(p, q) for p in fighters for q in carriers):
                bad(("units", space), "fighters at sea must be aboard friendly carriers")
    total = _unit_total(data)
    if total > MAX_UNITS:
        bad(("units",), f"{total:,} units on the board, far more than a game can build",
            f"{MAX_UNITS:,} units or fewer, cargo included")
    for space, entries in (data.get("cargo") or {}).items():
        if not b.is_sea(space):
            bad(("cargo", space), f"{space!r} is not a sea zone", None)
            continue
        per_owner: dict[str, int] = {}
        for i, entry in enumerate(entries or []):
            owner = entry.get("transport")
            if not power_ok(("cargo", space, i, "transport"), owner):
                continue
            per_owner[owner] = per_owner.get(owner, 0) + 1
            size = 0
            for power, counts in (entry.get("units") or {}).items():
                if not power_ok(("cargo", space, i, "units", power), power):
                    continue
                if not b.friendly(power, owner):
                    bad(("cargo", space, i, "units", power), "only friendly land units ride a transport")
                for utype, n in (counts or {}).items():
                    if utype not in table.types:
                        message, allowed = table.unit_names.unknown_message(utype)
                        bad(("cargo", space, i, "units", power, utype), message, allowed)
                    elif table[utype].transport_size is None:
                        bad(("cargo", space, i, "units", power, utype), f"{a(utype)} cannot ride a transport")
                    else:
                        size += table[utype].transport_size * n
            if size > (table["transport"].capacity or 5):
                bad(("cargo", space, i), "more cargo than one transport carries "
                                         f"({edition.rules.transport_room})")
        for owner, n in per_owner.items():
            have = ((units.get(space) or {}).get(owner) or {}).get("transport", 0)
            if n > have:
                bad(("cargo", space), f"{n} loaded {owner} transports listed but {have} in {space}")
    return problems
