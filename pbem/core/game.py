"""A game folder (laid out as `folder.py` says): `pbem new` makes one, `pbem verify` re-plays it
and proves every die."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pbem.core.dice import SEED_BYTES, commitment, new_chain_secret, turn_seed
from pbem.core.errors import InputError, Problem, display_path
from pbem.core.folder import GAME_FILE, SECRET_FILE, START_STATE, STATE_FILE, TURNS_DIR
from pbem.core.ruleset import option_problems
from pbem.core.schemas import validate
from pbem.core.turn import (EVENTS_FILE, TurnInputs, TurnResult, load_turn, orders_digest,
                            resolve_turn, staging_folder)
from pbem.core.yamlio import Document, dump_yaml, load_document
from pbem.rulesets import get_ruleset

CHAIN_LENGTH = 1000  # turn seeds a game can use: 200 rounds of five powers
# Every seed is found by hashing from the end of the chain, so its length is the work of one
# `pbem seed`: a hundred times a new game's chain still takes well under a second, and no file
# can make pbem hash for hours.
MAX_CHAIN_LENGTH = 100 * CHAIN_LENGTH
_SEED_HEX = re.compile(f"[0-9a-f]{{{2 * SEED_BYTES}}}")


def new_game(ruleset_id: str, folder: Path, game: str, options: dict[str, Any]) -> Path:
    """Create a game folder with the opening state and a fresh secret dice chain."""
    ruleset = get_ruleset(ruleset_id)
    problems = [Problem("--option", None, name, message, allowed)
                for name, message, allowed in option_problems(ruleset.options(), options)]
    if problems:
        raise InputError(problems)
    if folder.exists() and not folder.is_dir():
        raise InputError([Problem(display_path(folder), None, "", "a file, not a folder", "a new folder")])
    if folder.exists() and any(folder.iterdir()):
        raise InputError([Problem(display_path(folder), None, "", "the folder is not empty", "a new folder")])
    chosen = {o.name: options.get(o.name, o.default) for o in ruleset.options()}
    secret = new_chain_secret()
    published = turn_seed(secret, 0, CHAIN_LENGTH)
    state = ruleset.opening_state(game, chosen)
    state["dice"] = {"commitment": published, "turn": 1}
    staging = staging_folder(folder)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging.mkdir()
        (staging / START_STATE.parent).mkdir()
        (staging / TURNS_DIR).mkdir()
        (staging / GAME_FILE).write_text(dump_yaml({
            "format": "pbem-game/1", "ruleset": ruleset_id, "game": game, "options": chosen,
            "dice": {"chain_length": CHAIN_LENGTH, "commitment": published}}), encoding="utf-8")
        secret_path = staging / SECRET_FILE
        secret_path.touch(0o600)  # private before the secret is in it
        secret_path.write_text(dump_yaml({"secret": secret, "chain_length": CHAIN_LENGTH}), encoding="utf-8")
        (staging / START_STATE).write_text(dump_yaml(state), encoding="utf-8")
        if folder.exists():
            folder.rmdir()  # empty, as checked above
        staging.rename(folder)
    except OSError as exc:
        raise InputError([Problem(display_path(exc.filename or folder), None, "",
                                  f"cannot write the game folder: {exc.strerror}; nothing was created",
                                  "a folder this user may write, on a file system with room")]) from None
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return folder


def _chain_problems(doc: Document, where: tuple[str, ...], key: str) -> list[Problem]:
    """The mapping at `where` holds `key` (a seed: hex as `pbem new` writes it) and a bounded
    `chain_length`, as secret.yaml and game.yaml's dice block do."""
    block = doc.data
    for part in where:
        block = block.get(part) if isinstance(block, dict) else None
    if not isinstance(block, dict):
        return [doc.problem(where, "not a mapping", f"{{{key}: ..., chain_length: ...}}")]
    problems = []
    if key not in block:
        problems.append(doc.problem(where, f"missing {key!r}", f"{key}: {2 * SEED_BYTES} hex digits"))
    elif not (isinstance(block[key], str) and _SEED_HEX.fullmatch(block[key])):
        problems.append(doc.problem(where + (key,), "not a seed",
                                    f"{2 * SEED_BYTES} hex digits 0-9, a-f, as `pbem new` writes them"))
    length = block.get("chain_length")
    if type(length) is not int or not 1 <= length <= MAX_CHAIN_LENGTH:
        problems.append(doc.problem(where + ("chain_length",), "not a usable chain length",
                                    f"a whole number from 1 to {MAX_CHAIN_LENGTH:,}"))
    return problems


def seed_for_turn(folder: Path, turn: int) -> str:
    """The seed the moderator reveals for game turn `turn` (read from the private secret file)."""
    doc = load_document(folder / SECRET_FILE)
    problems = _chain_problems(doc, (), "secret")
    if problems:
        raise InputError(problems)
    try:
        return turn_seed(doc.data["secret"], turn, doc.data["chain_length"])
    except ValueError as exc:
        raise InputError([doc.problem(("chain_length",), str(exc))]) from None


def _check_game_file(game: Document) -> None:
    """game.yaml has the fields `pbem verify` reads, and names a known ruleset."""
    data = game.data if isinstance(game.data, dict) else {}
    problems = [game.problem((), f"missing required field {name!r}")
                for name in ("ruleset", "game", "options", "dice") if name not in data]
    if not problems and not isinstance(data["options"], dict):
        problems.append(game.problem(("options",), "not a mapping", "option: value pairs"))
    if not problems:
        problems = _chain_problems(game, ("dice",), "commitment")
    if not problems:
        try:
            get_ruleset(str(data["ruleset"]))
        except KeyError as exc:
            problems.append(game.problem(("ruleset",), f"unknown ruleset {data['ruleset']!r}", str(exc.args[0])))
    if problems:
        raise InputError(problems)


def _check_orders_digest(inputs: TurnInputs) -> None:
    """The orders are the ones adjudicated: their digest is the one recorded in the event log."""
    recorded = inputs.output / EVENTS_FILE
    if not recorded.exists():
        return
    first = recorded.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
    try:
        digest = json.loads(first).get("orders_digest")
    except (ValueError, AttributeError):
        return  # the comparison of the event logs reports it
    if digest is not None and digest != orders_digest(inputs):
        standing = ", ".join(doc.path for _, doc in sorted(inputs.standing.items()))
        raise InputError([Problem(inputs.orders.path, None, "", "not the orders that were adjudicated: the "
                                  "digest of these orders" + (f" and the standing orders ({standing})" if standing
                                                               else "") + " differs from the orders_digest "
                                  f"{digest[:16]}… recorded in {display_path(recorded)} line 1; the orders "
                                  "(or that record) were changed after the turn was adjudicated")])


@dataclass
class Verified:
    """One turn that `pbem verify` re-played and found identical."""

    turn_file: Path
    turn: int
    power: str
    dice: int


def _first_difference(name: str, recorded: bytes, replayed: bytes) -> str:
    old, new = recorded.decode("utf-8", "replace").splitlines(), replayed.decode("utf-8", "replace").splitlines()
    for number, (a, b) in enumerate(zip(old, new), start=1):
        if a != b:
            return f"{name} line {number} differs:\n  recorded: {a[:300]}\n  replayed: {b[:300]}"
    return f"{name} has {len(old)} lines recorded but {len(new)} when replayed"


def verify_game(folder: Path, render: Callable[..., dict[str, bytes]] | None,
                progress: Callable[[Verified], None] = lambda v: None) -> list[Verified]:
    """Re-play every turn of the game folder from its opening state; raise `InputError` at the first
    turn whose recorded outputs, dice or seed differ from what the rules and the seeds give."""
    game = load_document(folder / GAME_FILE)
    _check_game_file(game)
    ruleset = get_ruleset(game.data["ruleset"])
    start = folder / START_STATE
    load_document(start)  # a missing or unreadable opening state is an InputError
    expected = ruleset.opening_state(game.data["game"], game.data["options"])
    expected["dice"] = {"commitment": game.data["dice"]["commitment"], "turn": 1}
    if start.read_bytes() != dump_yaml(expected).encode("utf-8"):
        raise InputError([Problem(display_path(start), None, "", "the opening state is not the "
                                  f"{ruleset.name} setup with this game's options and dice commitment")])
    if (folder / SECRET_FILE).exists() and seed_for_turn(folder, 0) != game.data["dice"]["commitment"]:
        raise InputError([Problem(display_path(folder / SECRET_FILE), None, "secret",
                                  "the secret does not grow the commitment published in game.yaml")])
    turn_files = sorted((folder / TURNS_DIR).glob("*.yaml"))
    by_state = {}
    for path in turn_files:
        doc = load_document(path)
        problems = validate("turn", doc)
        if problems:
            raise InputError(problems)
        state_path = (path.parent / str((doc.data or {}).get("state", ""))).resolve()
        by_state.setdefault(state_path, []).append(path)
    done: list[Verified] = []
    current = start.resolve()
    while current in by_state:
        candidates = by_state.pop(current)
        if len(candidates) > 1:
            names = ", ".join(display_path(c) for c in candidates)
            raise InputError([Problem(names, None, "state", "several turns start from the same state")])
        turn_path = candidates[0]
        inputs = load_turn(turn_path)
        _check_orders_digest(inputs)
        result: TurnResult = resolve_turn(inputs, render)
        for name, data in result.files.items():
            recorded = inputs.output / name
            if not recorded.exists():
                raise InputError([Problem(display_path(recorded), None, "", "missing: the turn's output "
                                          "was not recorded")])
            if recorded.read_bytes() != data:
                raise InputError([Problem(display_path(recorded), None, "", "does not match the re-played "
                                          "turn: " + _first_difference(name, recorded.read_bytes(), data))])
        verified = Verified(turn_path, inputs.state.data["dice"]["turn"], inputs.orders.data["power"],
                            result.events.events[-1]["dice_rolled"])
        progress(verified)
        done.append(verified)
        current = (inputs.output / STATE_FILE).resolve()
    if by_state:
        stray = sorted(display_path(p) for paths in by_state.values() for p in paths)
        raise InputError([Problem(s, None, "state", "this turn does not follow from the game's recorded "
                                  "turns (its state is not the opening state or an earlier turn's output)")
                          for s in stray])
    return done
