"""A game's history: the opening position, then the position after every turn the ledger records
before this one, then the position after this turn, each as its ruleset's `summary` of the state.
The ledger keeps each turn's summary from when it was adjudicated, so a turn reads the history in a
time that does not grow with the game. The reports of every game with a `summary` read it (the A&A
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
from pbem.core.game import LEDGER_FILE, read_ledger, state_summary
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


@lru_cache(maxsize=1024)  # the opening state (and a ledger's without summaries) is read again by every turn
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
    return state_summary(ruleset, doc.data)


def _changed(path: Path) -> InputError:
    return InputError([Problem(display_path(path), None, "", "differs from the state the game's ledger records for "
                               "this turn: the game folder was changed after the turn was adjudicated "
                               "(`pbem verify` checks it)")])


def _readable(entry: dict[str, Any]) -> bool:
    """The fields the history reads are as pbem writes them."""
    summary = entry.get("summary", {"round": None})
    return isinstance(entry["turn"], int) and isinstance(entry["output"], str) and isinstance(summary, dict) \
        and "round" in summary


def game_history(inputs: TurnInputs, after: dict[str, Any]) -> list[Point]:
    """The positions of the game so far, oldest first, ending with the state after this turn.

    Each earlier turn's position is the summary its ledger entry keeps (`pbem verify` checks it), so
    that a turn reads no earlier state; an entry recorded before the ledger kept summaries gives its
    state file's, checked against the ledger's hash. The state this turn starts from must be the one
    the ledger records: else the game folder was changed after that turn was adjudicated."""
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
            raise _changed(path)
        return _summary_of(ruleset.id, display_path(path), data)

    opening = summary(folder / START_STATE)
    points = [Point(0, None, None, opening)]
    for number, entry in enumerate(ledger, start=1):
        if not _readable(entry):
            raise InputError([Problem(display_path(folder / LEDGER_FILE), number, "", "not a ledger entry: its "
                                      "turn must be a number, its output a folder and its summary (where it has "
                                      "one) a mapping with the round", "entries as pbem writes them")])
        if entry["turn"] >= turn:
            continue  # a turn adjudicated again (--force): the turns after it are replaced
        state_file = folder / entry["output"] / STATE_FILE
        if entry["turn"] == turn - 1 and inputs.state.sha256 != entry.get("state_sha256") \
                and state_file.resolve() == (inputs.base / inputs.turn.data["state"]).resolve():
            raise _changed(state_file)
        state = entry["summary"] if "summary" in entry else summary(state_file, str(entry.get("state_sha256")))
        points.append(Point(entry["turn"], points[-1].summary["round"], str(entry["power"]), state))
    return points + [current]
