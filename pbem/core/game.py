"""A game folder (laid out as `folder.py` says): `pbem new` makes one, `pbem verify` re-plays it
and proves every die."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection

from pbem.core.chain import CHAIN_LENGTH, SEED_HEX, chain_problems, seed_for_turn, write_secret
from pbem.core.dice import CURRENT_SCHEME, commitment, new_chain_secret, turn_seed
from pbem.core.errors import InputError, Problem, display_path
from pbem.core.files import MAX_INPUT_BYTES, inside_game, read_input
from pbem.core.folder import (DRAWN, GAME_FILE, REPORTS, SECRET_FILE, STANDING, START_STATE, STATE_FILE,
                              TURNS_DIR, drawn, private_reports)
from pbem.core.hidden import hidden_key, hidden_stream, read_hidden_key
from pbem.core.ruleset import Ruleset, option_problems
from pbem.core.schemas import validate
from pbem.core.turn import (EVENTS_FILE, Proven, Renderer, TurnInputs, TurnResult, input_files, load_turn,
                            orders_digest, resolve_turn, staging_folder, turn_lock, write_outputs)
from pbem.core.views import is_view, view_files
from pbem.core.yamlio import Document, dump_json_line, dump_yaml, load_document, load_json_lines
from pbem.rulesets import get_ruleset

_PLAYER_NAME = re.compile("[A-Za-z0-9_-]{1,40}")


def new_game(ruleset_id: str, folder: Path, game: str, options: dict[str, Any],
             players: dict[str, str] | None = None, secret: str | None = None) -> Path:
    """Create a game folder with the opening state and a secret dice chain, fresh unless `secret`
    (a chain secret the moderator made with `pbem secret`) is given.

    `players` maps each player who shares in the randomness to the commitment of their own seed
    chain (`pbem secret`); without it the dice are the moderator's chain alone.
    """
    ruleset = get_ruleset(ruleset_id)
    problems = [Problem("--option", None, name, message, allowed)
                for name, message, allowed in option_problems(ruleset.options(), options)]
    problems += [Problem("--player", None, name, "not a player's name and commitment",
                         "NAME=64 hex digits from `pbem secret`, NAME of letters, digits, _ and -")
                 for name, value in (players or {}).items()
                 if not (SEED_HEX.fullmatch(value) and _PLAYER_NAME.fullmatch(name))]
    if problems:
        raise InputError(problems)
    if folder.exists() and not folder.is_dir():
        raise InputError([Problem(display_path(folder), None, "", "a file, not a folder", "a new folder")])
    if folder.exists() and any(folder.iterdir()):
        raise InputError([Problem(display_path(folder), None, "", "the folder is not empty", "a new folder")])
    chosen = {o.name: options.get(o.name, o.default) for o in ruleset.options()}
    secret = secret or new_chain_secret()
    published = turn_seed(secret, 0, CHAIN_LENGTH)
    shared = {"players": dict(sorted(players.items()))} if players else {}
    if ruleset.hidden_information:
        key = hidden_key(secret)
        shared["hidden_commitment"] = commitment(key)
        state = ruleset.opening_state(game, chosen, hidden_stream(key, ruleset.id, game, 0))
    else:
        state = ruleset.opening_state(game, chosen)
    state["dice"] = opening_dice({"scheme": CURRENT_SCHEME, "commitment": published, **shared})
    staging = staging_folder(folder.resolve())  # `.` has no name to put a staging folder beside
    moved: list[Path] = []
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
        (staging / START_STATE.parent).mkdir()
        (staging / TURNS_DIR).mkdir()
        (staging / GAME_FILE).write_text(dump_yaml({
            "format": "pbem-game/1", "ruleset": ruleset_id, "game": game, "options": chosen,
            "dice": {"scheme": CURRENT_SCHEME, "chain_length": CHAIN_LENGTH, "commitment": published, **shared}}),
            encoding="utf-8")
        write_secret(staging / SECRET_FILE, secret)
        (staging / START_STATE).write_text(dump_yaml(state), encoding="utf-8")
        for name, data in view_files(ruleset, state).items():
            (staging / START_STATE.parent / name).write_bytes(data)
        (staging / STANDING).mkdir()
        for role in ruleset.powers:  # every turn names each other role's standing orders
            (staging / STANDING / f"{role}.yaml").write_text(default_standing_orders(ruleset, role),
                                                             encoding="utf-8")
        if folder.exists():  # empty, as checked above: fill it, so that it keeps its rights and a
            for entry in sorted(staging.iterdir()):  # shell standing in it stays in the game
                entry.rename(folder / entry.name)
                moved.append(folder / entry.name)
        else:
            staging.rename(folder)
    except OSError as exc:
        for entry in moved:
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        raise InputError([Problem(display_path(exc.filename or folder), None, "",
                                  f"cannot write the game folder: {exc.strerror}; nothing was created",
                                  "a folder this user may write, on a file system with room")]) from None
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return folder


def default_standing_orders(ruleset, role: str) -> str:
    """A role's standing orders before its player sends any: the rules' defaults in everything."""
    return (f"# {role}'s standing orders: the decisions pbem takes for {role} in the other roles' turns.\n"
            "# Only the role is named, so every default applies; the orders guide says what may be set.\n"
            + dump_yaml({ruleset.role_field: role}))


def _check_game_file(game: Document) -> None:
    """game.yaml has the fields `pbem verify` reads, and names a known ruleset."""
    data = game.data if isinstance(game.data, dict) else {}
    problems = [game.problem((), f"missing required field {name!r}")
                for name in ("ruleset", "game", "options", "dice") if name not in data]
    if not problems and not isinstance(data["options"], dict):
        problems.append(game.problem(("options",), "not a mapping", "option: value pairs"))
    if not problems:
        problems = chain_problems(game, ("dice",), "commitment")
    if not problems:
        try:
            get_ruleset(str(data["ruleset"]))
        except KeyError as exc:
            problems.append(game.problem(("ruleset",), f"unknown ruleset {data['ruleset']!r}", str(exc.args[0])))
    if problems:
        raise InputError(problems)


def _check_orders_digest(folder: Path, inputs: TurnInputs) -> None:
    """The orders are the ones adjudicated: their digest, and from scheme 2 each input file's
    sha256, are the ones recorded in the event log."""
    recorded = inputs.output / EVENTS_FILE
    if not recorded.is_file():
        return  # the comparison of the outputs reports it
    first = read_input(inside_game(folder.resolve(), recorded)).decode("utf-8", errors="replace").split("\n", 1)[0]
    try:
        start = json.loads(first)
    except (ValueError, RecursionError):
        return  # the comparison of the event logs reports it
    if not isinstance(start, dict):
        return
    shown = f"{display_path(recorded)} line 1"
    played = {(i["kind"], i["power"]): i for i in input_files(inputs)}
    docs = {**{("orders", role): doc for role, doc in inputs.submissions.items()},
            **{("standing_orders", power): doc for power, doc in inputs.standing.items()}}
    changed = []
    for then in start.get("inputs") or []:
        key = (then.get("kind"), then.get("power")) if isinstance(then, dict) else ()
        if all(isinstance(k, str) for k in key) and key in played and played[key] != then:
            changed.append(Problem(docs[key].path, None, "", f"not the file that was adjudicated: its SHA-256 is "
                                   f"{played[key]['sha256']}, {shown} records {then.get('sha256')} for the "
                                   f"{key[0].replace('_', ' ')} of {key[1]}"))
    digest = start.get("orders_digest")
    if isinstance(digest, str) and digest != orders_digest(inputs):
        standing = ", ".join(doc.path for _, doc in sorted(inputs.standing.items()))
        changed.append(Problem(", ".join(d.path for d in inputs.submissions.values()), None, "",
                               "not the orders that were adjudicated: the "
                               "digest of these orders" + (f" and the standing orders ({standing})" if standing
                                                            else "") + f" differs from the orders_digest "
                               f"{digest[:16]}… recorded in {shown}; the orders (or that record) were changed "
                               "after the turn was adjudicated"))
    if changed:
        raise InputError(changed)


@dataclass
class Verified:
    """One turn that `pbem verify` re-played and found identical."""

    turn_file: Path
    turn: int
    power: str
    dice: int


LEDGER_FILE = "ledger.jsonl"


def _first_difference(name: str, recorded: bytes, replayed: bytes) -> str:
    old, new = recorded.decode("utf-8", "replace").splitlines(), replayed.decode("utf-8", "replace").splitlines()
    for number, (a, b) in enumerate(zip(old, new), start=1):
        if a != b:
            column = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            start = max(0, column - 60)
            return (f"{name} line {number} differs from column {column + 1}:\n  recorded: {a[start:start + 200]!r}"
                    f"\n  replayed: {b[start:start + 200]!r}")
    return f"{name} has {len(old)} lines recorded but {len(new)} when replayed"


# What an HTML report holds of its drawings, which matplotlib may draw otherwise in another version:
# embedded images, inline SVG (the charts), and attributes that hold only numbers (an image map's
# coordinates, the box of the turn's action). The rest, every word a reader sees, is compared.
_HTML_DRAWINGS = re.compile(rb'data:image/[a-z+]+;base64,[A-Za-z0-9+/=]*|<svg\b.*?</svg>|'
                            rb'\b(?:coords|data-[a-z-]+)="[-0-9., ]*"', re.DOTALL)


def comparable(name: str, data: bytes) -> bytes:
    """What `verify --reports` compares of a report: an HTML report without its drawings."""
    return _HTML_DRAWINGS.sub(b"", data) if name.endswith(".html") else data


def opening_dice(game_dice: dict[str, Any]) -> dict[str, Any]:
    """The opening state's dice block for the dice block of game.yaml."""
    scheme = {"scheme": game_dice["scheme"]} if "scheme" in game_dice else {}
    shared = {"players": game_dice["players"]} if game_dice.get("players") else {}
    return {**scheme, "commitment": game_dice["commitment"], "turn": 1, **shared}  # the hidden key stays out


def _relative(folder: Path, path: Path) -> str:
    return Path(path).resolve().relative_to(folder.resolve()).as_posix()


def state_summary(ruleset: Ruleset, state: dict[str, Any]) -> dict[str, Any] | None:
    """What the game's history keeps of a state: its round and the ruleset's `summary`."""
    summary = ruleset.summary(state)
    return None if summary is None else {"round": state["round"], **summary}


def ledger_entry(folder: Path, turn_file: Path, inputs: TurnInputs, result: TurnResult) -> dict[str, Any]:
    """The ledger line that records one adjudicated turn of the game in `folder`, with the summary
    of the state after it where the game charts its history, so that later turns need not read
    that state again."""
    entry = {"turn": inputs.state.data["dice"]["turn"], "power": inputs.acting,
             "turn_file": _relative(folder, turn_file), "output": _relative(folder, inputs.output),
             "state_sha256": hashlib.sha256(result.files[STATE_FILE]).hexdigest(),
             "events_sha256": hashlib.sha256(result.files[EVENTS_FILE]).hexdigest()}
    summary = state_summary(get_ruleset(inputs.state.data["ruleset"]), result.state)
    return entry if summary is None else {**entry, "summary": summary}


def read_ledger(folder: Path) -> list[dict[str, Any]] | None:
    """The game's ledger, one entry per adjudicated turn in order; None when the game has none."""
    path = folder / LEDGER_FILE
    if not path.exists():
        return None
    entries = load_json_lines(inside_game(folder.resolve(), path))
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not {"turn", "power", "turn_file", "output"} <= entry.keys():
            raise InputError([Problem(display_path(path), number, "", "not a ledger entry",
                                      "one JSON object a line, as pbem writes it")])
    return entries


def record_turn(folder: Path, entry: dict[str, Any]) -> None:
    """Enter a turn in the game's ledger, in place of the entry of the same turn file (a turn
    re-adjudicated with --force); the file is replaced in one step."""
    entries = read_ledger(folder) or []
    same = [i for i, e in enumerate(entries) if e["turn_file"] == entry["turn_file"]]
    if same:
        entries[same[0]] = entry
    else:
        entries.append(entry)
    text = "".join(dump_json_line(e) + "\n" for e in entries)
    staging = folder / f".{LEDGER_FILE}.new"
    try:
        staging.write_text(text, encoding="utf-8")
        os.replace(staging, folder / LEDGER_FILE)
    except OSError as exc:
        staging.unlink(missing_ok=True)
        raise InputError([Problem(display_path(folder / LEDGER_FILE), None, "", f"cannot record game turn "
                                  f"{entry['turn']}: {exc.strerror}; its outputs are written, and `pbem verify` "
                                  "will say the ledger lacks it until it is adjudicated again with --force")]) from None


def _check_outputs(folder: Path, inputs: TurnInputs, result: TurnResult, reports: bool) -> None:
    """The recorded outputs are the re-played ones: facts byte for byte, every report too when
    `reports` (an HTML one without its drawings, `comparable`); every text report is there (the
    drawings and HTML reports may be missing: `pbem redraw` makes them); and nothing else lies in
    the output folder."""
    if not inputs.output.is_dir():
        raise InputError([Problem(display_path(inputs.output), None, "", "missing: the turn's output folder "
                                  "was not recorded", "the folder the turn file names as its output")])
    problems = []
    ruleset = get_ruleset(inputs.state.data["ruleset"])
    reports_written = set(REPORTS) | ({name for role in ruleset.powers for name in private_reports(role)}
                                      if ruleset.hidden_information else set())
    for name in sorted(set(result.files) | reports_written):
        recorded = inputs.output / name
        if not recorded.is_file():
            if not drawn(name) and not is_view(name):  # a game begun before views: `pbem redraw` writes them
                problems.append(Problem(display_path(recorded), None, "", "missing: the turn's output was not "
                                        "recorded"))
        elif name in result.files and name not in DRAWN:
            # bounded: a recorded file may be endless or a link out of the game, which is never shown
            data = read_input(inside_game(folder.resolve(), recorded), len(result.files[name]) + MAX_INPUT_BYTES)
            ours, theirs = comparable(name, data), comparable(name, result.files[name])
            if ours != theirs:
                problems.append(Problem(display_path(recorded), None, "", "does not match the re-played turn: "
                                        + _first_difference(name, ours, theirs)))
    expected = {*result.files, *reports_written, *DRAWN}
    problems += [Problem(display_path(extra), None, "", "a file the turn did not write", ", ".join(sorted(expected)))
                 for extra in sorted(inputs.output.iterdir()) if extra.name not in expected]
    if problems:
        raise InputError(problems)


def verify_game(folder: Path, render: Callable[..., dict[str, bytes]] | None = None,
                progress: Callable[[Verified], None] = lambda v: None) -> list[Verified]:
    """Re-play every turn of the game folder from its opening state; raise `InputError` at the first
    turn whose recorded state, events, dice or seed differ from what the rules and the seeds give,
    and when the folder holds a turn or output that is not part of the game, or its ledger lists a
    turn that is not there. With `render`, the text reports are re-rendered and compared too."""
    game = load_document(folder / GAME_FILE)
    _check_game_file(game)
    ruleset = get_ruleset(game.data["ruleset"])
    start = folder / START_STATE
    opening = read_input(inside_game(folder.resolve(), start))  # never a link out of the game
    if ruleset.hidden_information:
        deal = hidden_stream(read_hidden_key(folder), ruleset.id, game.data["game"], 0)
        expected = ruleset.opening_state(game.data["game"], game.data["options"], deal)
    else:
        expected = ruleset.opening_state(game.data["game"], game.data["options"])
    expected["dice"] = opening_dice(game.data["dice"])
    if opening != dump_yaml(expected).encode("utf-8"):
        raise InputError([Problem(display_path(start), None, "", "the opening state is not the "
                                  f"{ruleset.name} setup with this game's options and dice commitment")])
    for name, data in view_files(ruleset, expected).items():
        view = start.parent / name
        if view.is_file() and read_input(inside_game(folder.resolve(), view), len(data) + MAX_INPUT_BYTES) != data:
            raise InputError([Problem(display_path(view), None, "", "is not this role's view of the opening state")])
    if (folder / SECRET_FILE).exists() and seed_for_turn(folder, 0) != game.data["dice"]["commitment"]:
        raise InputError([Problem(display_path(folder / SECRET_FILE), None, "secret",
                                  "the secret does not grow the commitment published in game.yaml")])
    turn_files = sorted((folder / TURNS_DIR).glob("*.yaml"))
    by_state = {}
    for path in turn_files:
        doc = load_document(inside_game(folder.resolve(), path))  # a received folder may link anywhere
        problems = validate("turn", doc)
        if problems:
            raise InputError(problems)
        state_path = (path.parent / str((doc.data or {}).get("state", ""))).resolve()
        by_state.setdefault(state_path, []).append(path)
    done: list[Verified] = []
    outputs = []
    current = start.resolve()
    proven = None  # the state the last turn re-played, which the next one reads back
    while current in by_state:
        candidates = by_state.pop(current)
        if len(candidates) > 1:
            names = ", ".join(display_path(c) for c in candidates)
            raise InputError([Problem(names, None, "state", "several turns start from the same state")])
        turn_path = candidates[0]
        inputs = load_turn(turn_path, proven)
        _check_orders_digest(folder, inputs)
        result = resolve_turn(inputs, render)
        _check_outputs(folder, inputs, result, render is not None)
        proven = Proven((inputs.output / STATE_FILE).resolve(), result.files[STATE_FILE], result.state)
        outputs.append(ledger_entry(folder, turn_path, inputs, result))
        verified = Verified(turn_path, inputs.state.data["dice"]["turn"], inputs.acting,
                            result.events.events[-1]["dice_rolled"])
        progress(verified)
        done.append(verified)
        current = (inputs.output / STATE_FILE).resolve()
    if by_state:
        stray = sorted(display_path(p) for paths in by_state.values() for p in paths)
        raise InputError([Problem(s, None, "state", "this turn does not follow from the game's recorded "
                                  "turns (its state is not the opening state or an earlier turn's output)")
                          for s in stray])
    _check_folder(folder, outputs)
    _check_ledger(folder, outputs, int(game.data["dice"].get("scheme", 1)))
    return done


def redraw_game(folder: Path, render: Renderer, turns: Collection[int] = (),
                progress: Callable[[Verified, Path, list[str]], None] = lambda v, out, names: None) -> None:
    """Make again the drawings and HTML reports of the game's recorded turns (the game turns in
    `turns`, else every one) from its facts, once the whole game verifies: else `InputError`, and
    nothing is written. `progress` is told of each output folder written and the files drawn.

    Every other output keeps its recorded bytes: the facts, which the verification proved, and the
    text reports, even where this version of pbem would word them otherwise."""
    with turn_lock(folder / GAME_FILE):  # no turn is adjudicated between the proof and the drawing
        played = verify_game(folder)
        unknown = sorted(set(turns) - {v.turn for v in played})
        if unknown:
            recorded = f"game turns {played[0].turn} to {played[-1].turn}" if played else "none: no turn is recorded"
            raise InputError([Problem(display_path(folder), None, "", "the game has no recorded game turn "
                                      + ", ".join(map(str, unknown)), recorded)])
        for verified in played:
            if turns and verified.turn not in turns:
                continue
            inputs = load_turn(verified.turn_file)
            result = resolve_turn(inputs, render)
            kept = {path.name: read_input(inside_game(folder.resolve(), path),
                                          len(result.files.get(path.name, b"")) + MAX_INPUT_BYTES)
                    for path in sorted(inputs.output.iterdir()) if not drawn(path.name)}
            pictures = {name: data for name, data in result.files.items() if drawn(name) or is_view(name)}
            write_outputs(inputs, {**kept, **pictures}, force=True)
            progress(verified, inputs.output, sorted(pictures))


def _check_folder(folder: Path, played: list[dict[str, Any]]) -> None:
    """No output folder lies in the game that no turn of it wrote (a turn file removed, or an
    output folder copied in), and the turns folder holds only turn files."""
    outputs = {(folder / e["output"]).resolve() for e in played} | {(folder / START_STATE).parent.resolve()}
    problems = []
    for root, folders, files in os.walk(folder):  # never into a link: a received folder may loop
        folders[:] = sorted(f for f in folders if not f.startswith("."))
        if STATE_FILE in files and Path(root).resolve() not in outputs:
            problems.append(Problem(display_path(root), None, "", "an output folder that no turn of the game "
                                    "wrote: its turn file is missing, or it does not belong here"))
    problems += [Problem(display_path(path), None, "", "not a turn file", "turn files named *.yaml")
                 for path in (sorted((folder / TURNS_DIR).iterdir()) if (folder / TURNS_DIR).is_dir() else [])
                 if path.suffix != ".yaml" and not path.name.startswith(".")]
    if problems:
        raise InputError(problems)


def _check_ledger(folder: Path, played: list[dict[str, Any]], scheme: int) -> None:
    """The turns re-played are exactly those the ledger records, so a turn removed from the end of
    the game, its files and all, is noticed."""
    ledger = read_ledger(folder)
    if ledger is None:
        if played and scheme >= 2:
            raise InputError([Problem(display_path(folder / LEDGER_FILE), None, "", "missing: every turn of "
                                      "this game is entered in it when adjudicated, so without it nobody can "
                                      "tell whether turns were removed from the end")])
        return
    shown = display_path(folder / LEDGER_FILE)
    for number, (entry, replayed) in enumerate(zip(ledger, played), start=1):
        if "summary" not in entry:  # recorded before the ledger kept summaries: the history reads the state
            replayed = {k: v for k, v in replayed.items() if k != "summary"}
        if entry != replayed:
            field = next((k for k in replayed if entry.get(k) != replayed[k]), None)
            if field is None:
                raise InputError([Problem(shown, number, "", "the entry holds fields pbem does not write",
                                          ", ".join(replayed))])
            if field == "summary":
                raise InputError([_summary_problem(shown, number, entry, replayed)])
            raise InputError([Problem(shown, number, field, f"the ledger records {entry.get(field)!r} for game "
                                      f"turn {entry['turn']}, the game folder gives {replayed[field]!r}")])
    if len(ledger) > len(played):
        missing = ledger[len(played)]
        raise InputError([Problem(shown, len(played) + 1, "", f"game turn {missing['turn']} "
                                  f"({missing.get('power')}) was adjudicated but is not in the game folder: "
                                  f"{missing['turn_file']} or its output {missing['output']} is missing")])
    if len(played) > len(ledger):
        extra = played[len(ledger)]
        raise InputError([Problem(shown, None, "", f"game turn {extra['turn']} ({extra['turn_file']}) is not in "
                                  "the ledger: it was not adjudicated in this game folder, or the ledger was cut")])


def _summary_problem(shown: str, number: int, entry: dict[str, Any], replayed: dict[str, Any]) -> Problem:
    """A ledger's summary that is not the re-played state's: the reports' history would show it."""
    recorded, summary = entry["summary"], replayed["summary"]
    part = next((k for k in summary if recorded.get(k) != summary[k]), None) if isinstance(recorded, dict) else None
    return Problem(shown, number, "summary" + (f".{part}" if part else ""),
                   f"the ledger's summary of game turn {entry['turn']} is not that of the state the game folder "
                   "gives, which the reports' charts and standing read: the ledger was changed after the turn "
                   "was adjudicated", "the summary pbem records (adjudicate the turn again with --force)")
