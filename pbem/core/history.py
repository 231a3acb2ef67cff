"""A game's history: the opening position, then the state after every turn the ledger records before
this one (each checked against the ledger's hash), then the state after this turn, each as its
ruleset's `summary` of the state. The reports of every game with a `summary` read it (the A&A
standing and charts, the QMG VP chart). A turn run outside a game folder has no history: its points
are the turn's own before and after.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.files import inside_game, read_input
from pbem.core.folder import START_STATE, STATE_FILE, game_folder_of
from pbem.core.game import LEDGER_FILE, read_ledger
from pbem.core.schemas import validate
from pbem.core.turn import TurnInputs
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
