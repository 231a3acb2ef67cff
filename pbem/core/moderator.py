"""Where a game stands and what comes next, read from its folder alone: the latest state, the roles
awaited, the orders received for the next game turn, and the turn file that plays it.

    GAME/inbox/turn-NN/ROLE.VVV.yaml   every version of a role's orders received for game turn NN,
                                       numbered from 001 and never overwritten; the latest valid
                                       one counts
    GAME/standing/ROLE.yaml            a role's standing orders, in force in every other role's turn
    GAME/standing/versions/ROLE.VVV.yaml  each version of them that a turn played (the turn file
                                       names it, so a later change leaves earlier turns verifying)

`pbem status` reports it; `pbem receive` stores and checks a version; `pbem next` writes the turn
file from it all (the seed to reveal from secret.yaml) and adjudicates it, so a moderator never
writes a turn file by hand; the hand-written way keeps working beside it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.files import inside_game
from pbem.core.folder import GAME_FILE, STANDING, START_STATE, STATE_FILE, TURN_CLOCKS, TURNS_DIR, game_folder_of
from pbem.core.chain import seed_for_turn
from pbem.core.game import default_standing_orders, ledger_entry, read_ledger, record_turn
from pbem.core.ruleset import Ruleset
from pbem.core.schemas import found_without, validate, without_refused
from pbem.core.turn import check_output, load_turn, resolve_turn, turn_lock, write_outputs
from pbem.core.yamlio import Document, dump_yaml, load_document
from pbem.rulesets import get_ruleset

INBOX = "inbox"
VERSIONS = "versions"
"""standing/versions/ROLE.VVV.yaml: each version of a role's standing orders that a turn played."""
VERSION = re.compile(r"^(?P<role>[a-z_]+)\.(?P<version>\d{3})\.yaml$")
MAX_VERSIONS = 999


@dataclass
class Position:
    folder: Path
    state_path: Path
    state: dict[str, Any]
    ruleset: Ruleset
    last: dict[str, Any] | None
    """The ledger's entry of the last turn played, None before the first."""

    @property
    def turn(self) -> int:
        return self.state["dice"]["turn"]

    @property
    def awaited(self) -> tuple[str, ...]:
        return self.ruleset.awaiting(self.state)

    def inbox(self, turn: int | None = None) -> Path:
        return self.folder / INBOX / f"turn-{turn or self.turn:02d}"


def current(folder: Path) -> Position:
    """The game in `folder` as it stands after its last recorded turn."""
    if not (folder / GAME_FILE).is_file():
        raise InputError([Problem(display_path(folder), None, "", "not a game folder: it has no game.yaml",
                                  "a folder made by `pbem new`")])
    ledger = read_ledger(folder) or []
    last = ledger[-1] if ledger else None
    path = folder / last["output"] / STATE_FILE if last else folder / START_STATE
    doc = load_document(inside_game(folder.resolve(), path))
    return Position(folder, path, doc.data, get_ruleset(doc.data["ruleset"]), last)


def versions(position: Position, role: str) -> list[Path]:
    """Every version of `role`'s orders received for the next game turn, oldest first."""
    box = position.inbox()
    if not box.is_dir():
        return []
    found = [(int(m["version"]), p) for p in box.iterdir() if (m := VERSION.match(p.name)) and m["role"] == role]
    return [p for _, p in sorted(found)]


def _standing_problems(position: Position, role: str, path: Path) -> list[Problem]:
    try:
        return check_standing(position, role, load_document(path))
    except InputError as exc:
        return exc.problems


def standing_problems(position: Position) -> dict[str, list[Problem]]:
    """The problems of every role's standing orders file that has any, for the moderator's eyes only:
    such a file is not in force (`standing_source`)."""
    found = {}
    for role in position.ruleset.powers:
        path = position.folder / STANDING / f"{role}.yaml"
        if path.is_file() and (problems := _standing_problems(position, role, path)):
            found[role] = problems
    return found


def standing_source(position: Position, role: str) -> Path | None:
    """The file of `role`'s standing orders in force: standing/ROLE.yaml when it is valid on its own;
    else the newest version a turn played; else None, the rules' defaults. A file with problems (a
    moderator's typo) is never played and never checked with another role's orders, so that no
    other player learns of it and nobody's orders wait for it."""
    path = position.folder / STANDING / f"{role}.yaml"
    if not path.is_file():
        return None
    if not _standing_problems(position, role, path):
        return path
    played = _standing_versions(position, role)
    return played[-1][1] if played else None


def standing_docs(position: Position, except_roles: tuple[str, ...]) -> dict[str, Document]:
    """The standing orders in force of every role not among `except_roles` (those that have any)."""
    return {role: load_document(source) for role in position.ruleset.powers
            if role not in except_roles and (source := standing_source(position, role)) is not None}


def _unreadable(position: Position, role: str, doc: Document, kind: str) -> list[Problem]:
    """The problems that stop `doc` being read as `role`'s `kind` (orders or standing-orders)."""
    field = position.ruleset.role_field
    problems = validate(kind, doc, position.ruleset.schema_package)
    if not problems and doc.data.get(field) != role:
        problems = [doc.problem((field,), f"these {kind.replace('-', ' ')} are for {doc.data.get(field)!r}, not "
                                f"{role!r}", role)]
    return problems


def check(position: Position, role: str, doc: Document) -> list[Problem]:
    """Every problem of one role's orders for the next game turn, as `pbem validate` finds them: a
    refused top-level field is left out and the rest checked too."""
    ruleset = position.ruleset
    unreadable = _unreadable(position, role, doc, "orders")
    rest, left_out = (without_refused(doc, unreadable, "orders", ruleset.schema_package, ruleset.role_field)
                      if unreadable else (doc, []))
    if rest is None:
        return unreadable
    found = ruleset.check_orders(position.state, {role: rest}, standing_docs(position, position.awaited))
    return unreadable + found_without(found, left_out) if unreadable else found


def latest_valid(position: Position, role: str) -> tuple[Path | None, list[tuple[Path, list[Problem]]]]:
    """The newest version of `role`'s orders that is valid, and the problems of every newer one."""
    refused = []
    for path in reversed(versions(position, role)):
        try:
            problems = check(position, role, load_document(path))
        except InputError as exc:
            problems = exc.problems
        if not problems:
            return path, refused
        refused.append((path, problems))
    return None, refused


def read_submission(position: Position, text: str, shown: str, role: str | None = None,
                    turn: int | None = None) -> tuple[Document | None, str, list[Problem]]:
    """A submission's orders as read, its role (the one the orders name, or `role`, the sender's,
    when they cannot be read) and the problems that stop it being read. `InputError` when that role
    is not awaited in game turn `turn` (default the next one), so that it cannot be stored anywhere;
    orders for a later game turn are kept unchecked, since its position is not known yet."""
    from pbem.core.yamlio import parse_document
    role_field = position.ruleset.role_field
    try:
        doc: Document | None = parse_document(text, shown)
        unread: list[Problem] = []
    except InputError as exc:
        doc, unread = None, exc.problems
    named = doc.data.get(role_field) if doc is not None and isinstance(doc.data, dict) else None
    role = named if isinstance(named, str) else role
    if (turn or position.turn) == position.turn and role not in position.awaited:
        awaited = ", ".join(position.awaited) or "nobody: the game is over"
        problem = f"game turn {position.turn} awaits no orders from {role!r}" if role else \
            f"the orders cannot be read, so they name no {role_field}"
        raise InputError(unread + [Problem(shown, None, role_field, problem, awaited)])
    if role not in position.ruleset.powers:
        raise InputError(unread + [Problem(shown, None, role_field, f"{role!r} is no role of this game",
                                           ", ".join(position.ruleset.powers))])
    return doc, role, unread


def next_version(position: Position, role: str, turn: int | None = None) -> Path:
    """Where the next version of `role`'s orders for game turn `turn` (default the next) goes."""
    box = position.inbox(turn)
    taken = [int(m["version"]) for p in box.iterdir() if (m := VERSION.match(p.name)) and m["role"] == role] \
        if box.is_dir() else []
    number = max(taken, default=0) + 1
    if number > MAX_VERSIONS:
        raise InputError([Problem(display_path(box), None, "", f"{role} has sent {MAX_VERSIONS} versions for this "
                                  "game turn already")])
    return box / f"{role}.{number:03d}.yaml"


def store_version(path: Path, text: str) -> None:
    """Write a received version whole or not at all; never over another."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.parent / f".{path.name}.new"
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


def receive(position: Position, text: str, shown: str, role: str | None = None) -> tuple[Path, str, list[Problem]]:
    """Store a submission as the next version of its role's orders for the next game turn (never
    overwriting one) and check it: (where it was stored, its role, its problems)."""
    doc, role, unread = read_submission(position, text, shown, role)
    path = next_version(position, role)
    store_version(path, text)
    return path, role, unread if doc is None else check(position, role, doc)


def check_standing(position: Position, role: str, doc: Document) -> list[Problem]:
    """Every problem of one role's standing orders, as `pbem validate` finds them."""
    return _unreadable(position, role, doc, "standing-orders") or \
        position.ruleset.check_standing_orders(position.state, doc)


def _standing_versions(position: Position, role: str) -> list[tuple[int, Path]]:
    folder = position.folder / STANDING / VERSIONS
    return sorted((int(m["version"]), p) for p in folder.iterdir()
                  if (m := VERSION.match(p.name)) and m["role"] == role) if folder.is_dir() else []


def standing_in_force(position: Position, role: str) -> Path:
    """The immutable version of `role`'s standing orders now in force (`standing_source`: standing/ROLE.yaml,
    which the moderator or a player's mail may change, or the rules' defaults), made when that changed
    since the last one, so that a turn file names exactly what it played and earlier turns keep verifying."""
    source = standing_source(position, role)
    found = _standing_versions(position, role)
    if source is not None and source.parent.name == VERSIONS:
        return source
    data = source.read_bytes() if source else default_standing_orders(position.ruleset, role).encode("utf-8")
    if found and found[-1][1].read_bytes() == data:
        return found[-1][1]
    path = position.folder / STANDING / VERSIONS / f"{role}.{(found[-1][0] if found else 0) + 1:03d}.yaml"
    store_version(path, data.decode("utf-8", errors="replace"))
    return path


def turn_name(position: Position) -> str:
    """The next turn's name: game turn, round and the roles it awaits (`05-r2-germany`)."""
    return f"{position.turn:02d}-r{position.state['round']}-{'-'.join(position.awaited)}"


def write_next_turn(position: Position, missing: str = "wait") -> Path:
    """Write the turn file of the next game turn from the latest valid orders of every awaited role
    and the standing orders of the others. A role without valid orders stops it (`missing` wait),
    or plays with empty orders, its standing orders in force (`missing` standing)."""
    folder, ruleset = position.folder, position.ruleset
    awaited = position.awaited
    if not awaited:
        raise InputError([Problem(display_path(position.state_path), None, "", "the game is over: no role is "
                                  "awaited")])
    if load_document(folder / GAME_FILE).data["dice"].get("players"):
        raise InputError([Problem(display_path(folder / GAME_FILE), None, "dice.players", "the players share in "
                                  "this game's dice: each turn needs their values, so write its turn file by hand")])
    name = turn_name(position)
    turn_path = folder / TURNS_DIR / f"{name}.yaml"
    if turn_path.exists():
        raise InputError([Problem(display_path(turn_path), None, "", "the next turn's file exists already",
                                  f"`pbem adjudicate {display_path(turn_path)}`, or remove it")])
    orders, problems = {}, []
    for role in awaited:
        chosen, refused = latest_valid(position, role)
        if chosen is None and missing == "standing":
            chosen = position.inbox() / f"{role}.none.yaml"
            chosen.parent.mkdir(parents=True, exist_ok=True)
            chosen.write_text(dump_yaml({ruleset.role_field: role}), encoding="utf-8")
            check_empty = check(position, role, load_document(chosen))
            if check_empty:
                chosen.unlink()
                problems += check_empty
                continue
        if chosen is None:
            why = f"the newest of {len(refused)} versions received has problems" if refused else "none received"
            problems.append(Problem(display_path(position.inbox()), None, role, f"no valid orders from {role} "
                                    f"for game turn {position.turn}: {why}",
                                    f"`pbem receive {display_path(folder)} ORDERS.yaml`"))
            continue
        orders[role] = f"../{chosen.relative_to(folder).as_posix()}"
    if problems:
        raise InputError(problems)
    standing = {role: f"../{standing_in_force(position, role).relative_to(folder).as_posix()}"
                for role in ruleset.powers if role not in awaited and (folder / STANDING / f"{role}.yaml").is_file()}
    data: dict[str, Any] = {"ruleset": ruleset.id,
                            "state": f"../{position.state_path.relative_to(folder).as_posix()}",
                            "orders": orders[awaited[0]] if len(awaited) == 1 else orders}
    if standing:
        data["standing_orders"] = standing
    data |= {"seed": seed_for_turn(folder, position.turn), "output": f"../{name}"}
    turn_path.parent.mkdir(exist_ok=True)
    staging = turn_path.parent / f".{turn_path.name}.new"
    staging.write_text(f"# Game turn {position.turn}, written by `pbem next`. Paths are relative to this file.\n"
                       + dump_yaml(data), encoding="utf-8")
    os.replace(staging, turn_path)
    return turn_path


@dataclass
class Adjudication:
    written: bool = False
    """Whether the outputs were written (then only the ledger may lack the turn)."""


def play_turn(turn: Path, render, force: bool = False, notes=lambda *docs: None,
              progress: Adjudication | None = None) -> tuple[Path, dict[str, bytes]]:
    """Adjudicate a turn file: its outputs written whole and the turn entered in its game's ledger
    (`pbem adjudicate`). `notes` is told of every input file that was repaired to be read."""
    progress = progress or Adjudication()
    folder = game_folder_of(turn)
    with turn_lock(turn):
        inputs = load_turn(turn)
        notes(inputs.turn, inputs.state, *inputs.submissions.values(), *inputs.standing.values())
        check_output(inputs, force=force)  # refuse before spending time on the turn and its map
        if folder is not None:
            read_ledger(folder)  # a ledger that cannot be read stops the turn before anything is written
        result = resolve_turn(inputs, render)
        out = write_outputs(inputs, result.files, force=force)
        progress.written = True
        if folder is not None:
            record_turn(folder, ledger_entry(folder, turn, inputs, result))
    return out, result.files


def status(position: Position) -> dict[str, Any]:
    """Where the game stands, as plain data: the last turn, the roles awaited with what each has
    sent, and the position in brief."""
    awaited = []
    for role in position.awaited:
        received = versions(position, role)
        valid, refused = latest_valid(position, role) if received else (None, [])
        awaited.append({"role": role, "received": len(received),
                        "valid": display_path(valid) if valid else None,
                        "problems": [str(p) for _, found in refused[:1] for p in found]})
    return {"game": position.state["game"], "ruleset": position.ruleset.id, "name": position.ruleset.name,
            "turn": position.turn, "round": position.state["round"],
            "last": position.last["turn_file"] if position.last else None,
            "awaiting": awaited, "deadline": _deadline(position), "brief": position.ruleset.brief(position.state),
            "standing_problems": {role: [str(p) for p in problems]
                                  for role, problems in standing_problems(position).items()}}


def _deadline(position: Position) -> str | None:
    """When the next turn's orders are due, for a game run by mail whose turn has begun."""
    import json
    from datetime import datetime

    from pbem.core.players import read_players
    clock = position.folder / TURN_CLOCKS
    players = read_players(position.folder, position.ruleset.powers)
    if players is None or not clock.exists():
        return None
    started = json.loads(clock.read_text()).get(str(position.turn), {}).get("started")
    if started is None:
        return None
    due = players.deadline.due(datetime.fromisoformat(started))
    return f"{due:%a %d %b %Y %H:%M} UTC (then {players.deadline.grace_hours} h of grace; missing orders: " \
           f"{players.missing_orders})"
