"""Where the war stands after a turn, and how it got there.

Each power's money, production, forces and cities come from the ruleset's `summary` of a state;
this module lines them up over the game folder's history: the opening position, then the state
after every turn the ledger records before this one (each checked against the ledger's hash), then
the state after this turn. From that it reads each power's change since its own last turn, and the
series the charts draw. A turn run outside a game folder has no history: its changes are those of
the turn itself.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.events import EventLog
from pbem.core.files import inside_game, read_input
from pbem.core.folder import START_STATE, STATE_FILE, game_folder_of
from pbem.core.game import LEDGER_FILE, read_ledger
from pbem.core.schemas import validate
from pbem.core.turn import TurnInputs
from pbem.core.words import Words
from pbem.core.yamlio import parse_document
from pbem.rulesets import get_ruleset


@dataclass(frozen=True)
class Point:
    """The position after one game turn (`turn` 0: the opening), played by `power` in `round`."""

    turn: int
    round: int | None
    power: str | None
    summary: dict[str, Any]


@lru_cache(maxsize=1024)  # `pbem verify` re-reads the same earlier states for every turn
def _summary_of(ruleset_id: str, shown: str, data: bytes) -> dict[str, Any]:
    """The summary of a state file written by an earlier turn, checked as every input is."""
    try:
        doc = parse_document(data.decode("utf-8"), shown)
    except UnicodeDecodeError:
        raise InputError([Problem(shown, None, "", "not UTF-8 text")]) from None
    ruleset = get_ruleset(ruleset_id)
    problems = validate("state", doc) or validate("state", doc, ruleset.schema_package) \
        or ruleset.check_state(doc)
    if not problems and doc.data["ruleset"] != ruleset_id:
        problems = [doc.problem(("ruleset",), f"a {doc.data['ruleset']} state in a {ruleset_id} game")]
    if problems:
        raise InputError(problems)
    return {"round": doc.data["round"], **ruleset.summary(doc.data)}


def game_history(inputs: TurnInputs, after: dict[str, Any]) -> list[Point]:
    """The positions of the game so far, oldest first, ending with the state after this turn.

    An earlier turn's state that differs from the ledger's record is an error: the game folder
    was changed after that turn was adjudicated (`pbem verify` says where)."""
    before = inputs.state.data
    ruleset = get_ruleset(before["ruleset"])
    turn = int(before["dice"]["turn"])
    current = Point(turn, before["round"], inputs.acting, ruleset.summary(after))
    folder = game_folder_of(inputs.output)
    ledger = read_ledger(folder) if folder else None
    if folder is None or ledger is None:
        return [Point(turn - 1, None, None, ruleset.summary(before)), current]
    root = folder.resolve()

    def summary(path: Path, sha256: str | None = None) -> dict[str, Any]:
        data = read_input(inside_game(root, path))
        if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
            raise InputError([Problem(display_path(path), None, "", "differs from the state the game's ledger "
                                      "records for this turn: the game folder was changed after the turn was "
                                      "adjudicated (`pbem verify` checks it)")])
        return _summary_of(ruleset.id, display_path(path), data)

    opening = summary(folder / START_STATE)
    points = [Point(0, None, None, opening)]
    for number, entry in enumerate(ledger, start=1):
        if not isinstance(entry["turn"], int) or not isinstance(entry["output"], str):
            raise InputError([Problem(display_path(folder / LEDGER_FILE), number, "", "not a ledger entry: its "
                                      "turn must be a number and its output a folder", "entries as pbem writes them")])
        if entry["turn"] >= turn:
            continue  # a turn adjudicated again (--force): the turns after it are replaced
        state = summary(folder / entry["output"] / STATE_FILE, str(entry.get("state_sha256")))
        points.append(Point(entry["turn"], points[-1].summary["round"], str(entry["power"]), state))
    return points + [current]


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
