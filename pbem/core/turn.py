"""The turn runner: a turn file in, the next state, the event log and the reports out.

Everything is checked before anything is resolved, and the outputs are written all at once: on
any error nothing is left behind. A turn writes only into an output folder of its own (never where
its input state, the opening state or another turn's files live), and replaces it whole.
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
from typing import Any, Callable, Iterator

from pbem.core.dice import DiceStream, commitment, shared_key
from pbem.core.errors import InputError, Problem, display_path
from pbem.core.events import EventLog
from pbem.core.files import place_in_game, read_input
from pbem.core.folder import (EVENTS_FILE, OUTPUT_FILES, START_STATE, STATE_FILE, TURNS_DIR, game_folder_of,
                              private_reports)
from pbem.core.hidden import hidden_stream, read_hidden_key, state_commitment
from pbem.core.schemas import validate
from pbem.core.views import view_files, view_name
from pbem.core.yamlio import Document, dump_yaml, load_document
from pbem.core.ruleset import Ruleset
from pbem.rulesets import get_ruleset



@dataclass
class TurnInputs:
    """A turn file with everything it names loaded and checked."""

    turn: Document
    base: Path
    state: Document
    submissions: dict[str, Document]
    """Each awaited role's orders, in the order the ruleset awaits them."""
    standing: dict[str, Document]
    seed: str
    output: Path
    contributions: dict[str, str]
    """Each player's revealed value for this turn, when the players share in the randomness."""
    hidden_key: str | None = None
    """A game with hidden information: the key of its hidden randomness (never written anywhere)."""

    @property
    def acting(self) -> str:
        """The roles whose turn this is, as reports and the ledger name them."""
        return ", ".join(self.submissions)


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


def _place_named_files(turn: Document, base: Path, game_folder: Path) -> dict[tuple, Path]:
    """Every file and folder the turn file names, by its field, resolved; `InputError` for any that
    lies outside the game folder (a turn file may come from someone else: it must not make pbem
    read, show or write anything else)."""
    orders = turn.data["orders"]
    fields = [("state",), ("output",)]
    fields += [("orders",)] if isinstance(orders, str) else [("orders", role) for role in orders]
    fields += [("standing_orders", power) for power in turn.data.get("standing_orders") or {}]
    named, problems = {}, []
    for field in fields:
        name = turn.data[field[0]] if len(field) == 1 else turn.data[field[0]][field[1]]
        named[field], why = place_in_game(game_folder, base, name)
        # a folder's game is the one above it; any other named file's, the one above its folder
        other_game = game_folder_of(named[field] / STATE_FILE if field == ("output",) else named[field])
        if not why and other_game not in (None, game_folder):
            why = (f"{name!r} lies in the game folder {display_path(other_game)}: a turn of that game is a turn "
                   f"file in its {TURNS_DIR}/ folder, so that its lock, its ledger and its checks apply")
        if why:
            problems.append(turn.problem(field, why, "a path inside the game folder"))
    if problems:
        raise InputError(problems)
    return named


@dataclass(frozen=True)
class Proven:
    """A state pbem produced by re-playing a turn (`pbem verify`): where it lies, its bytes, its data."""

    path: Path
    data: bytes
    state: dict[str, Any]


def _unshared(data: Any) -> Any:
    """`data` as a fresh parse gives it: every mapping and list its own."""
    if isinstance(data, dict):
        return {key: _unshared(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_unshared(value) for value in data]
    return data


def _read_state(path: Path, proven: Proven | None) -> tuple[Document, bool]:
    """The state file at `path`, and whether it holds the very bytes of the `proven` state: its data is
    then the re-played data, which needs neither parsing nor the checks of a state read from disk."""
    if proven is not None and proven.path == path:
        data = read_input(path)
        if data == proven.data:
            return Document(display_path(path), _unshared(proven.state), sha256=hashlib.sha256(data).hexdigest()), True
    return load_document(path), False


def load_turn(turn_path: Path | str, proven: Proven | None = None) -> TurnInputs:
    """Load and check a turn file and every file it names; raises `InputError` with every problem.
    A state file holding the bytes of the `proven` state is taken as its data, unchecked."""
    turn = load_document(turn_path)
    problems = validate("turn", turn)
    if problems:
        raise InputError(problems)
    problems = _known_ruleset(turn, ("ruleset",), turn.data["ruleset"])
    if problems:
        raise InputError(problems)
    base = Path(turn_path).resolve().parent
    named = _place_named_files(turn, base, game_folder_of(turn_path) or base.parent)
    state, known = _read_state(named[("state",)], proven)
    ruleset = get_ruleset(turn.data["ruleset"])
    problems = [] if known else validate("state", state)  # the envelope every game's state has
    if problems:
        raise InputError(problems)
    if state.data["ruleset"] != ruleset.id:
        raise InputError([turn.problem(("ruleset",), f"the state is a {state.data['ruleset']} game",
                                       state.data["ruleset"])])
    problems = [] if known else validate("state", state, ruleset.schema_package)
    if problems:
        raise InputError(problems)
    problems = [] if known else ruleset.check_state(state)
    seed = turn.data["seed"]
    seed_problems = []  # a wrong seed does not stop the orders from being checked
    if commitment(seed) != state.data["dice"]["commitment"]:
        seed_problems.append(turn.problem(
            ("seed",), "this seed does not hash to the state's dice commitment "
            f"{state.data['dice']['commitment'][:16]}…; it is not the seed of game turn "
            f"{state.data['dice']['turn']} (`pbem seed GAME_FOLDER {state.data['dice']['turn']}` prints it)"))
    seed_problems += _contribution_problems(turn, state.data["dice"])
    awaited = ruleset.awaiting(state.data)
    problems += _orders_named(turn, ruleset, awaited)
    if problems:
        raise InputError(seed_problems + problems)
    one_file = isinstance(turn.data["orders"], str)
    submissions = {role: load_document(named[("orders",) if one_file else ("orders", role)]) for role in awaited}
    for doc in submissions.values():
        problems += validate("orders", doc, ruleset.schema_package)
    problems += _standing_orders_named(turn, ruleset, state.data)
    standing = {}
    for power in turn.data.get("standing_orders") or {}:
        standing[power] = load_document(named[("standing_orders", power)])
        problems += validate("standing-orders", standing[power], ruleset.schema_package)
    if problems:
        raise InputError(seed_problems + problems)
    files = [(role, doc, "orders") for role, doc in submissions.items()]
    files += [(role, doc, "standing orders") for role, doc in standing.items()]
    for role, doc, kind in files:
        if doc.data[ruleset.role_field] != role:
            problems.append(doc.problem((ruleset.role_field,), f"this file is for {doc.data[ruleset.role_field]!r} "
                                        f"but the turn file lists it as the {kind} of {role!r}", role))
    if problems:
        raise InputError(seed_problems + problems)
    problems += ruleset.check_orders(state.data, submissions, standing)
    if seed_problems or problems:
        raise InputError(seed_problems + problems)
    hidden = read_hidden_key(game_folder_of(turn_path) or base) if ruleset.hidden_information else None
    return TurnInputs(turn, base, state, submissions, standing, seed, named[("output",)],
                      dict(turn.data.get("contributions") or {}), hidden)


def named_orders(turn: Document) -> list[str]:
    """The roles whose orders the turn file names; [""] for the one file of a one-role turn."""
    orders = turn.data["orders"]
    return [""] if isinstance(orders, str) else list(orders)


def _orders_named(turn: Document, ruleset: Ruleset, awaited: tuple[str, ...]) -> list[Problem]:
    """A turn brings the orders of exactly the roles the ruleset awaits: one file when one role is
    awaited, a file per role when several submit at once."""
    if not awaited:
        return [turn.problem(("state",), "the game is over: no role is to submit orders",
                             "a state of a game still being played")]
    named = named_orders(turn)
    if len(awaited) == 1 and named == [""]:
        return []
    if named != [""] and sorted(named) == sorted(awaited):
        return []
    wanted = ", ".join(awaited)
    return [turn.problem(("orders",), f"this turn awaits the orders of {wanted}, not "
                         f"{'one file' if named == [''] else ', '.join(named)}",
                         "orders: FILE" if len(awaited) == 1 else
                         "orders: {" + ", ".join(f"{role}: FILE" for role in awaited) + "}")]


def _contribution_problems(turn: Document, dice: dict[str, Any]) -> list[Problem]:
    """Every player who shares in the randomness reveals a value that hashes to their commitment."""
    players = dice.get("players") or {}
    given = turn.data.get("contributions") or {}
    problems = [turn.problem(("contributions",), f"no value from {name!r}: every player who shares in the "
                             "dice reveals one for each turn", f"`pbem seed THEIR_SECRET_FILE {dice['turn']}`")
                for name in players if name not in given]
    for name, value in given.items():
        if name not in players:
            problems.append(turn.problem(("contributions", name), f"{name!r} does not share in this game's dice",
                                         ", ".join(players) or "no contributions: this game's dice are the "
                                         "moderator's alone"))
        elif commitment(value) != players[name]:
            problems.append(turn.problem(("contributions", name), f"this value does not hash to {name}'s "
                                         f"commitment {players[name][:16]}…; it is not their value for game "
                                         f"turn {dice['turn']}"))
    return problems


def _standing_orders_named(turn: Document, ruleset: Ruleset, state: dict[str, Any]) -> list[Problem]:
    """From dice scheme 2 a turn names the standing orders of every other power, so that the
    moderator cannot get other dice by leaving one out; a file saying only `power:` gives the
    defaults, and every report shows which file was played."""
    if dice_scheme(state) < 2:
        return []
    listed = turn.data.get("standing_orders") or {}
    awaited = ruleset.awaiting(state)
    missing = [p for p in ruleset.powers if p not in awaited and p not in listed]
    if not missing:
        return []
    return [turn.problem(("standing_orders",), f"no standing orders named for {', '.join(missing)}: a turn "
                         "names every other power's", "a file for each power; one that says only "
                         f"`power: {missing[0]}` gives the defaults")]


def dice_scheme(state: dict[str, Any]) -> int:
    """The dice scheme of a game (see dice.py); states written before schemes were numbered use 1."""
    return int(state["dice"].get("scheme", 1))


def decisions_digest(state: dict[str, Any], submissions: dict[str, Document], standing: dict[str, Document]) -> str:
    """sha256 of what the submissions decide, the value the dice are bound to.

    Scheme 1 hashed the files' data as parsed, so a note, a spelling or the choice of standing-orders
    files listed changed the dice; scheme 2 hashes the ruleset's canonical decisions.
    """
    if dice_scheme(state) == 1:
        (orders,) = submissions.values()  # scheme 1 games are one power's turns
        content: Any = {"orders": orders.data, "standing_orders": {p: d.data for p, d in sorted(standing.items())}}
    else:
        content = get_ruleset(state["ruleset"]).decisions(state, submissions, standing)
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def orders_digest(inputs: TurnInputs) -> str:
    """The decisions digest of a loaded turn."""
    return decisions_digest(inputs.state.data, inputs.submissions, inputs.standing)


def input_files(inputs: TurnInputs) -> list[dict[str, Any]]:
    """Every submission the turn used, with the sha256 of its bytes, so that each player can check
    that the file they sent is the one played."""
    orders = inputs.turn.data["orders"]
    files = [{"kind": "orders", "power": role, "file": orders if isinstance(orders, str) else orders[role],
              "sha256": doc.sha256} for role, doc in inputs.submissions.items()]
    for other in get_ruleset(inputs.state.data["ruleset"]).powers:
        if other not in inputs.submissions and other in inputs.standing:
            files.append({"kind": "standing_orders", "power": other,
                          "file": inputs.turn.data["standing_orders"][other], "sha256": inputs.standing[other].sha256})
    return files


def next_dice(dice: dict[str, Any], seed: str, contributions: dict[str, str]) -> dict[str, Any]:
    """The state's dice block after a turn: each revealed value becomes the next commitment."""
    after = {**dice, "commitment": seed, "turn": dice["turn"] + 1}
    if contributions:
        after["players"] = dict(sorted(contributions.items()))
    return after


Renderer = Callable[[dict[str, Any], dict[str, Any], EventLog, TurnInputs], dict[str, bytes]]


def resolve_turn(inputs: TurnInputs, render: Renderer | None = None) -> TurnResult:
    """Resolve the turn in memory; `render` adds the report files from the states and the events."""
    before = inputs.state.data
    ruleset = get_ruleset(before["ruleset"])
    turn_number = before["dice"]["turn"]
    power = inputs.acting
    digest = orders_digest(inputs)
    log = EventLog()
    scheme = dice_scheme(before)
    if scheme == 1:
        dice = DiceStream(inputs.seed, f"pbem-dice/1|{before['game']}|{turn_number}|{power}|{digest}")
        log.add("turn_start", round=before["round"], power=power, turn=turn_number,
                seed=inputs.seed, seed_commitment=before["dice"]["commitment"], orders_digest=digest)
    else:
        key = shared_key(inputs.seed, inputs.contributions) if inputs.contributions else inputs.seed
        dice = DiceStream(key, f"pbem-dice/2|{ruleset.id}|{before['game']}|{turn_number}|{power}|{digest}")
        extra = {"contributions": [{"player": name, "value": value}
                                   for name, value in sorted(inputs.contributions.items())]} \
            if inputs.contributions else {}
        log.add("turn_start", round=before["round"], power=power, turn=turn_number, seed=inputs.seed,
                seed_commitment=before["dice"]["commitment"], dice_scheme=scheme, orders_digest=digest,
                inputs=input_files(inputs), **extra)
    hidden = hidden_stream(inputs.hidden_key, ruleset.id, before["game"], turn_number) \
        if inputs.hidden_key else None
    after = ruleset.resolve(before, inputs.submissions, inputs.standing, dice, log, hidden)
    after["dice"] = next_dice(before["dice"], inputs.seed, inputs.contributions)
    state_bytes = dump_yaml(after).encode("utf-8")
    if inputs.hidden_key:
        log.add("turn_end", round=before["round"], power=power, awaiting=list(ruleset.awaiting(after)),
                dice_rolled=dice.rolled, next_seed_commitment=inputs.seed,
                state_commitment=state_commitment(inputs.hidden_key, turn_number, state_bytes))
    else:
        log.add("turn_end", round=before["round"], power=power, next_power=after["next_power"],
                dice_rolled=dice.rolled, next_seed_commitment=inputs.seed)
    files = {STATE_FILE: state_bytes, EVENTS_FILE: log.to_jsonl().encode("utf-8"), **view_files(ruleset, after)}
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


_NAMED: dict[Path, tuple[tuple[int, int, int], tuple[Path, Path] | None]] = {}


def _state_and_output(turn_file: Path) -> tuple[Path, Path] | None:
    """The state a turn file starts from and its output folder (None when it names none, or cannot be
    read: `pbem verify` reports that), read again only when the file changed: every turn reads all the
    game's turn files twice, and the mail loop plays many turns of a game."""
    try:
        stat = turn_file.stat()
    except OSError:
        return None
    signature = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    kept = _NAMED.get(turn_file)
    if kept is not None and kept[0] == signature:
        return kept[1]
    try:
        data = load_document(turn_file).data
    except InputError:
        data = None
    named = None
    if isinstance(data, dict) and isinstance(data.get("state"), str) and isinstance(data.get("output"), str):
        named = (turn_file.parent / data["state"]).resolve(), (turn_file.parent / data["output"]).resolve()
    if len(_NAMED) >= 10_000:  # a process that plays many long games forgets them all past this, rather than grow
        _NAMED.clear()
    _NAMED[turn_file] = (signature, named)
    return named


def _claims(inputs: TurnInputs) -> tuple[dict[Path, tuple[str, Path | None]], list[tuple[Path, Path]]]:
    """The folders this turn must not write into or around, each with the reason (where `{}` stands for
    the turn file named with it: named only in a message, as naming a file costs two path resolutions),
    and the states in this turn's output folder that a later turn starts from, each with that turn file."""
    state_path = (inputs.base / inputs.turn.data["state"]).resolve()
    out = inputs.output.resolve()
    claims: dict[Path, tuple[str, Path | None]] = {
        state_path.parent: ("holds the input state, which must never be overwritten", None)}
    read_later = []
    game = game_folder_of(inputs.base / STATE_FILE)
    if game is None:
        return claims, read_later
    claims.setdefault((game / START_STATE).parent, ("is the folder of the game's opening state", None))
    for other in sorted((game / TURNS_DIR).glob("*.yaml")):
        named = _state_and_output(other)
        if named is None:
            continue
        other_state, other_out = named
        if (other_state, other_out) == (state_path, out):
            continue  # this turn file, or a copy of it
        claims.setdefault(other_out, ("is where {} writes its outputs", other))
        if other_state.parent == out:
            read_later.append((other_state, other))
        else:
            claims.setdefault(other_state.parent, ("holds the state that {} starts from", other))
    return claims, read_later


def check_output(inputs: TurnInputs, files: dict[str, bytes] | None = None, force: bool = False) -> None:
    """Raise `InputError` if the turn's output folder is, or is inside or around, the folder of
    the input state, of the game's opening state or of another turn, or (without `force`) holds
    any of `files` (None: any file at all), or if a later turn starts from a state in it that
    `files` would change. Called before the turn is resolved, and again with the files to write;
    call it holding `turn_lock`, as it first finishes what a run that died while writing the
    outputs left behind."""
    out = inputs.output
    claims, read_later = _claims(inputs)
    problems = [inputs.turn.problem(("output",), f"{display_path(out)} is or encloses {display_path(folder)}, "
                                    f"which {why.format(display_path(turn_file)) if turn_file else why}",
                                    "a folder of its own for this turn's outputs")
                for folder, (why, turn_file) in claims.items() if _encloses(out.resolve(), folder)]
    if problems:
        raise InputError(problems)
    blocker = next((p for p in (out, *out.parents) if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise InputError([inputs.turn.problem(
            ("output",), f"{display_path(blocker)} is a file, where {display_path(out)} needs a folder",
            "a folder, or a name not yet taken")])
    _recover(out)
    known = set(OUTPUT_FILES) | {name for role in get_ruleset(inputs.state.data["ruleset"]).powers
                                 for name in (*private_reports(role), view_name(role))}
    strangers = sorted(p.name for p in out.iterdir() if p.name not in known) if out.is_dir() else []
    if strangers:
        raise InputError([inputs.turn.problem(
            ("output",), f"{display_path(out)} holds {', '.join(strangers)}, which no turn writes: an output "
            "folder is replaced whole, so it may hold nothing else", "a new folder for this turn's outputs")])
    names = list(files) if files is not None else [p.name for p in out.iterdir()] if out.is_dir() else []
    existing = [name for name in names if (out / name).exists()]
    if existing and not force:
        raise InputError([inputs.turn.problem(
            ("output",), f"{display_path(out)} already holds {', '.join(sorted(existing))}",
            "a new folder, or --force to replace them")])
    if files is None:
        return
    # a later turn that starts from this turn's state must find the same state there
    problems = [inputs.turn.problem(
        ("output",), f"{display_path(later)} starts from {display_path(state)}: replacing it with another state "
        "would fork the game", f"the same state, or first remove {display_path(later)} and the turns after it")
        for state, later in read_later if state.exists() and read_input(state) != files.get(STATE_FILE)]
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
