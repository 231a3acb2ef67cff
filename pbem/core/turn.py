"""The turn runner: a turn file in, the next state, the event log and the reports out.

Everything is checked before anything is resolved, and the outputs are written all at once: on
any error nothing is left behind, and a previous state is never overwritten.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import hashlib
import json
import os
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from pbem.core.dice import DiceStream, commitment
from pbem.core.errors import InputError, Problem, display_path
from pbem.core.events import EventLog
from pbem.core.folder import START_STATE, STATE_FILE, TURNS_DIR, game_folder_of
from pbem.core.schemas import validate
from pbem.core.yamlio import Document, dump_yaml, load_document
from pbem.rulesets import get_ruleset

EVENTS_FILE = "events.jsonl"


@dataclass
class TurnInputs:
    """A turn file with everything it names loaded and checked."""

    turn: Document
    base: Path
    state: Document
    orders: Document
    standing: dict[str, Document]
    seed: str
    output: Path


@dataclass
class TurnResult:
    """What a turn produced: the state after it, its events and the files to write."""

    state: dict[str, Any]
    events: EventLog
    files: dict[str, bytes]


def _known_ruleset(doc: Document, field: tuple, name: Any) -> list[Problem]:
    try:
        get_ruleset(str(name))
    except KeyError as exc:
        return [doc.problem(field, f"unknown ruleset {name!r}", str(exc.args[0]))]
    return []


def load_turn(turn_path: Path | str) -> TurnInputs:
    """Load and check a turn file and every file it names; raises `InputError` with every problem."""
    turn = load_document(turn_path)
    problems = validate("turn", turn)
    if problems:
        raise InputError(problems)
    problems = _known_ruleset(turn, ("ruleset",), turn.data["ruleset"])
    if problems:
        raise InputError(problems)
    base = Path(turn_path).resolve().parent
    state = load_document(base / turn.data["state"])
    problems = validate("state", state)
    if problems:
        raise InputError(problems)
    if state.data["ruleset"] != turn.data["ruleset"]:
        raise InputError([turn.problem(("ruleset",), f"the state is a {state.data['ruleset']} game",
                                       state.data["ruleset"])])
    ruleset = get_ruleset(turn.data["ruleset"])
    problems = ruleset.check_state(state)
    seed = turn.data["seed"]
    seed_problems = []  # a wrong seed does not stop the orders from being checked
    if commitment(seed) != state.data["dice"]["commitment"]:
        seed_problems.append(turn.problem(
            ("seed",), "this seed does not hash to the state's dice commitment "
            f"{state.data['dice']['commitment'][:16]}…; it is not the seed of game turn "
            f"{state.data['dice']['turn']} (`pbem seed GAME_FOLDER {state.data['dice']['turn']}` prints it)"))
    orders = load_document(base / turn.data["orders"])
    problems += validate("orders", orders)
    standing = {}
    for power, path in (turn.data.get("standing_orders") or {}).items():
        standing[power] = load_document(base / path)
        problems += validate("standing-orders", standing[power])
    if problems:
        raise InputError(seed_problems + problems)
    for power, doc in standing.items():
        if doc.data["power"] != power:
            problems.append(doc.problem(("power",), f"this file is for {doc.data['power']!r} but the turn "
                                        f"file lists it for {power!r}", power))
    problems += ruleset.check_orders(state.data, orders, standing)
    if seed_problems or problems:
        raise InputError(seed_problems + problems)
    return TurnInputs(turn, base, state, orders, standing, seed, base / turn.data["output"])


def orders_digest(inputs: TurnInputs) -> str:
    """sha256 of the orders' content, so that the dice depend on the orders as submitted."""
    content = {"orders": inputs.orders.data,
               "standing_orders": {p: d.data for p, d in sorted(inputs.standing.items())}}
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


Renderer = Callable[[dict[str, Any], dict[str, Any], EventLog, TurnInputs], dict[str, bytes]]


def resolve_turn(inputs: TurnInputs, render: Renderer | None = None) -> TurnResult:
    """Resolve the turn in memory; `render` adds the report files from the states and the events."""
    before = inputs.state.data
    ruleset = get_ruleset(before["ruleset"])
    turn_number = before["dice"]["turn"]
    power = inputs.orders.data["power"]
    digest = orders_digest(inputs)
    dice = DiceStream(inputs.seed, f"pbem-dice/1|{before['game']}|{turn_number}|{power}|{digest}")
    log = EventLog()
    log.add("turn_start", round=before["round"], power=power, turn=turn_number,
            seed=inputs.seed, seed_commitment=before["dice"]["commitment"], orders_digest=digest)
    after = ruleset.resolve(before, inputs.orders, inputs.standing, dice, log)
    after["dice"] = {"commitment": inputs.seed, "turn": turn_number + 1}
    log.add("turn_end", round=before["round"], power=power, next_power=after["next_power"],
            dice_rolled=dice.rolled, next_seed_commitment=inputs.seed)
    files = {STATE_FILE: dump_yaml(after).encode("utf-8"), EVENTS_FILE: log.to_jsonl().encode("utf-8")}
    if render is not None:
        files.update(render(before, after, log, inputs))
    return TurnResult(after, log, files)


LOCK_FILE = ".pbem.lock"  # a dot-file, so that a listing of the game's outputs can pass over it


@contextmanager
def turn_lock(turn_path: Path | str) -> Iterator[None]:
    """Hold the game's lock while a turn is loaded, resolved and written, so that two runs never
    write one game at once; a second run is refused at once, never kept waiting.

    The lock is a file in the game folder; a turn file outside any game folder locks its own
    folder, where its output folder is normally named.
    """
    if not Path(turn_path).is_file():
        yield  # nothing to protect: loading the turn reports the missing file
        return
    path = (game_folder_of(turn_path) or Path(turn_path).resolve().parent) / LOCK_FILE
    try:
        handle = open(path, "a+b")
    except OSError as exc:
        raise InputError([Problem(display_path(path), None, "", f"cannot open the game's lock file: "
                                  f"{exc.strerror}", "a game folder this user may write")]) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # a run that finished just now removed the file this one opened: the lock is elsewhere
            current = os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
        except (BlockingIOError, FileNotFoundError):
            current = False
        if not current:
            raise InputError([Problem(display_path(path), None, "", "another pbem run is writing this game "
                                      "(it holds this lock)", "one run at a time: retry when it has finished")])
        try:
            yield
        finally:
            path.unlink(missing_ok=True)  # still locked, so no run can be holding the file removed


def staging_folder(out: Path) -> Path:
    """Where the complete contents of folder `out` are written before they take its place."""
    return out.with_name(f".{out.name}.pbem-new")


def _aside(out: Path) -> Path:
    return out.with_name(f".{out.name}.pbem-old")


def _recover(out: Path) -> None:
    """Finish what a run that died while writing `out` left behind (called under the lock).

    A staging folder is never the only copy of anything: either the new outputs never moved in,
    or it holds the old ones that an exchange moved out. The old folder set aside by a two-step
    swap is the only copy of the outputs when the new ones never moved in, so it is restored then.
    """
    if staging_folder(out).exists():
        shutil.rmtree(staging_folder(out))
    if _aside(out).exists():
        if out.exists():
            shutil.rmtree(_aside(out))
        else:
            _aside(out).rename(out)


def _encloses(a: Path, b: Path) -> bool:
    return a.is_relative_to(b) or b.is_relative_to(a)


def _claims(inputs: TurnInputs) -> tuple[dict[Path, str], list[tuple[Path, str]]]:
    """The folders this turn must not write into or around, each with the reason, and the
    states in this turn's output folder that a later turn starts from, each with that turn file."""
    state_path = (inputs.base / inputs.turn.data["state"]).resolve()
    out = inputs.output.resolve()
    claims = {state_path.parent: "holds the input state, which must never be overwritten"}
    read_later = []
    game = game_folder_of(inputs.base / STATE_FILE)
    if game is None:
        return claims, read_later
    claims.setdefault((game / START_STATE).parent, "is the folder of the game's opening state")
    for other in sorted((game / TURNS_DIR).glob("*.yaml")):
        try:
            data = load_document(other).data
        except InputError:
            continue  # `pbem verify` reports a turn file it cannot read
        if not isinstance(data, dict) or not isinstance(data.get("state"), str) \
                or not isinstance(data.get("output"), str):
            continue
        other_state = (other.parent / data["state"]).resolve()
        other_out = (other.parent / data["output"]).resolve()
        if (other_state, other_out) == (state_path, out):
            continue  # this turn file, or a copy of it
        shown = display_path(other)
        claims.setdefault(other_out, f"is where {shown} writes its outputs")
        if other_state.parent == out:
            read_later.append((other_state, shown))
        else:
            claims.setdefault(other_state.parent, f"holds the state that {shown} starts from")
    return claims, read_later


def check_output(inputs: TurnInputs, names: Iterable[str] | None = None, force: bool = False) -> None:
    """Raise `InputError` if the turn's output folder is, or is inside or around, the folder of
    the input state, of the game's opening state or of another turn, or (without `force`) holds
    any of the files `names` (None: any file at all). Called before the turn is resolved, and
    again with the files to write; call it holding `turn_lock`, as it first finishes what a run
    that died while writing the outputs left behind."""
    out = inputs.output
    claims, _ = _claims(inputs)
    problems = [inputs.turn.problem(("output",), f"{display_path(out)} is or encloses {display_path(folder)}, "
                                    f"which {why}", "a folder of its own for this turn's outputs")
                for folder, why in claims.items() if _encloses(out.resolve(), folder)]
    if problems:
        raise InputError(problems)
    blocker = next((p for p in (out, *out.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise InputError([inputs.turn.problem(
            ("output",), f"{display_path(blocker)} is a file, where {display_path(out)} needs a folder",
            "a folder, or a name not yet taken")])
    _recover(out)
    if names is None:
        names = [p.name for p in out.iterdir()] if out.is_dir() else []
    existing = [name for name in names if (out / name).exists()]
    if existing and not force:
        raise InputError([inputs.turn.problem(
            ("output",), f"{display_path(out)} already holds {', '.join(sorted(existing))}",
            "a new folder, or --force to replace them")])


def _check_no_fork(inputs: TurnInputs, files: dict[str, bytes]) -> None:
    """A later turn that starts from this turn's state must find the same state there."""
    _, read_later = _claims(inputs)
    problems = [inputs.turn.problem(
        ("output",), f"{shown} starts from {display_path(state)}: replacing it with another state would "
        "fork the game", f"the same state, or first remove {shown} and the turns after it")
        for state, shown in read_later if state.exists() and state.read_bytes() != files.get(STATE_FILE)]
    if problems:
        raise InputError(problems)


_LIBC = ctypes.CDLL(None, use_errno=True)
_AT_FDCWD, _RENAME_EXCHANGE = -100, 2  # from Linux's fcntl.h and fs.h


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux renameat2 RENAME_EXCHANGE); False where the system
    cannot, so that the caller swaps them in two steps."""
    renameat2 = getattr(_LIBC, "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EPERM):  # a file system or kernel without it
        return False
    raise OSError(err, os.strerror(err), str(b))


def write_outputs(inputs: TurnInputs, files: dict[str, bytes], force: bool = False) -> Path:
    """Make the turn's output folder hold exactly `files`, all old or all new at every moment.

    Refuses to overwrite existing outputs unless `force`, and never writes into the folder of the
    input state, of the opening state or of another turn. The files are written to a staging
    folder beside the output, which then takes the output's place in one step; files of the old
    outputs that this run does not write go with the old folder. A write error is an `InputError`
    and leaves the old outputs as they were. Call it holding `turn_lock`.
    """
    out = inputs.output
    check_output(inputs, files, force)
    _check_no_fork(inputs, files)
    staging = staging_folder(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
        for name, data in files.items():
            (staging / name).write_bytes(data)
        if not out.exists():
            staging.rename(out)
        elif not _exchange(staging, out):
            out.rename(_aside(out))
            staging.rename(out)
    except OSError as exc:
        raise InputError([inputs.turn.problem(
            ("output",), f"cannot write {display_path(exc.filename or out)}: {exc.strerror}; the old outputs "
            "are as they were", "a folder this user may write, on a file system with room")]) from None
    finally:
        _recover(out)
    return out
