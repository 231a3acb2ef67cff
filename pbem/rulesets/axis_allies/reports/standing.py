"""Where the war stands after a turn, and how it got there.

Each power's money, production, forces and cities come from the ruleset's `summary` of a state,
lined up over the game's history (`pbem.core.history`). From that this module reads each power's
change since its own last turn, and the series the charts draw.
"""

from __future__ import annotations

from typing import Any

from pbem.core.events import EventLog
from pbem.core.history import Point
from pbem.core.words import Words


def signed(n: int) -> str:
    """A change as the reports write it: +3, \u22122, and nothing for none."""
    return "" if n == 0 else f"+{n}" if n > 0 else f"\u2212{-n}"


def spending(log: EventLog) -> dict[str, int]:
    """What each power spent in the turn: units bought and research dice."""
    spent: dict[str, int] = {}
    for e in log.events:
        if e["type"] in ("purchase", "research"):
            spent[e["power"]] = spent.get(e["power"], 0) + int(e["cost"])
    return spent


def losses(log: EventLog, mover: str) -> dict[str, dict[str, int]]:
    """Every unit each power lost in the turn, by kind: in battle, to AA fire, in a raid's air
    battle, or otherwise (aircraft with nowhere to land, cargo of a sunk transport)."""
    lost: dict[str, dict[str, int]] = {}

    def add(power: str, units: dict[str, int]) -> None:
        for kind, n in units.items():
            lost.setdefault(power, {}).setdefault(kind, 0)
            lost[power][kind] += n

    for e in log.events:
        if e["type"] in ("casualties", "lost"):
            add(e["power"], e["units"])
        elif e["type"] == "aa_fire" and e.get("casualties"):
            add(mover, e["casualties"])  # only the power whose turn it is flies into AA fire
        elif e["type"] == "interception":
            add(e["power"], e["raiders_lost"])
            for power, units in e["interceptors_lost"].items():
                add(power, units)
    return lost


def _figures(row: dict[str, Any]) -> dict[str, int]:
    return {"treasury": row["treasury"], "income": row["production"], "units": sum(row["units"].values()),
            "value": row["value"], "cities": len(row["cities"])}


def _last_turn(points: list[Point], power: str | None) -> Point:
    """The position after `power`'s last turn before this one; the first position known (the
    opening, or the state before this turn) for a power yet to play."""
    return next((p for p in reversed(points[:-1]) if p.power == power), points[0])


def _since(last: Point, whose: str = "its") -> str:
    if last.power is not None:
        return f"{whose} turn in round {last.round}"
    return "the opening" if last.turn == 0 else "this turn began"


def standing_model(w: Words, points: list[Point], log: EventLog) -> dict[str, Any]:
    """The "Where we stand" tables: per power and per side, each figure now with its change since
    the power's own last turn (the opening position for a power yet to play), this turn's spending
    and losses; and the units by kind. A side's change is over the same span as that of the power
    whose turn this was: one round of turns."""
    now, mover = points[-1].summary, points[-1].power
    costs = now["costs"]
    spent = spending(log)
    lost_units = losses(log, mover or "")
    round_ago = {r["power"]: _figures(r) for r in _last_turn(points, mover).summary["powers"]}
    powers, sides = [], {}
    for row in now["powers"]:
        power = row["power"]
        last = _last_turn(points, power)
        figures = _figures(row)
        earlier = _figures(next(r for r in last.summary["powers"] if r["power"] == power))
        lost = lost_units.get(power, {})
        lost_value = sum(costs.get(kind, 0) * n for kind, n in lost.items())
        powers.append({"power": w.power(power), "side": row["side"], "since": _since(last), **figures,
                       "change": {k: signed(v - earlier[k]) for k, v in figures.items()},
                       "spent": spent.get(power, 0), "lost": w.units(lost) if lost else "",
                       "lost_value": lost_value, "cities_list": row["cities"]})
        side = sides.setdefault(row["side"], {"name": row["side"], "spent": 0, "lost_value": 0, "lost_units": 0,
                                              "before": dict.fromkeys(figures, 0), **dict.fromkeys(figures, 0)})
        for k, v in figures.items():
            side[k] += v
            side["before"][k] += round_ago[power][k]
        side["spent"] += spent.get(power, 0)
        side["lost_value"] += lost_value
        side["lost_units"] += sum(lost.values())
    for side in sides.values():
        side["change"] = {k: signed(side[k] - v) for k, v in side.pop("before").items()}
        count = side.pop("lost_units")
        side["lost"] = f"{count} unit{'s' if count != 1 else ''}" if count else ""
    kinds = [kind for kind in costs if any(r["units"].get(kind) for r in now["powers"])]
    if points[0].turn == 0:  # the history reaches back to the opening
        side_span = _since(_last_turn(points, mover), f"{w.power(mover)}'s last")
        changes = (f"the change since each power's own last turn (for a power yet to play, since the opening); "
                   f"for a side, since {side_span}")
    else:
        changes = "the change in this turn (the game's earlier turns were not at hand: no game folder or ledger)"
    return {"powers": powers, "sides": list(sides.values()), "changes": changes,
            "by_kind": [{"kind": w.unit(kind, 2), "counts": [r["units"].get(kind, 0) for r in now["powers"]]}
                        for kind in kinds],
            "names": [w.power(r["power"]) for r in now["powers"]],
            "column": "Victory cities" if now["needed"] else "Enemy capitals held"}
