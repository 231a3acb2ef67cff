"""The turn runner: a turn file in, the next state, the event log and the reports out.

Everything is checked before anything is resolved, and the outputs are written all at once: on
any error nothing is left behind, and a previous state is never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from pbem.core.dice import DiceStream, commitment, shared_key
from pbem.core.errors import InputError, Problem, display_path
from pbem.core.events import EventLog
from pbem.core.files import place_in_game
from pbem.core.folder import STATE_FILE, game_folder_of
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
    contributions: dict[str, str]
    """Each player's revealed value for this turn, when the players share in the randomness."""


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
    fields = [("state",), ("orders",), ("output",)]
    fields += [("standing_orders", power) for power in turn.data.get("standing_orders") or {}]
    named, problems = {}, []
    for field in fields:
        name = turn.data[field[0]] if len(field) == 1 else turn.data[field[0]][field[1]]
        named[field], why = place_in_game(game_folder, base, name)
        if why:
            problems.append(turn.problem(field, why, "a path inside the game folder"))
    if problems:
        raise InputError(problems)
    return named


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
    named = _place_named_files(turn, base, game_folder_of(turn_path) or base.parent)
    state = load_document(named[("state",)])
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
    seed_problems += _contribution_problems(turn, state.data["dice"])
    orders = load_document(named[("orders",)])
    problems += validate("orders", orders)
    standing = {}
    for power in turn.data.get("standing_orders") or {}:
        standing[power] = load_document(named[("standing_orders", power)])
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
    return TurnInputs(turn, base, state, orders, standing, seed, named[("output",)],
                      dict(turn.data.get("contributions") or {}))


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


def dice_scheme(state: dict[str, Any]) -> int:
    """The dice scheme of a game (see dice.py); states written before schemes were numbered use 1."""
    return int(state["dice"].get("scheme", 1))


def decisions_digest(state: dict[str, Any], orders: Document, standing: dict[str, Document]) -> str:
    """sha256 of what the submissions decide, the value the dice are bound to.

    Scheme 1 hashed the files' data as parsed, so a note, a spelling or the choice of standing-orders
    files listed changed the dice; scheme 2 hashes the ruleset's canonical decisions.
    """
    if dice_scheme(state) == 1:
        content: Any = {"orders": orders.data, "standing_orders": {p: d.data for p, d in sorted(standing.items())}}
    else:
        content = get_ruleset(state["ruleset"]).decisions(state, orders, standing)
    return hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def orders_digest(inputs: TurnInputs) -> str:
    """The decisions digest of a loaded turn."""
    return decisions_digest(inputs.state.data, inputs.orders, inputs.standing)


def input_files(inputs: TurnInputs) -> list[dict[str, Any]]:
    """Every submission the turn used, with the sha256 of its bytes, so that each player can check
    that the file they sent is the one played; a power without standing orders shows null."""
    power = inputs.orders.data["power"]
    files = [{"kind": "orders", "power": power, "file": inputs.turn.data["orders"], "sha256": inputs.orders.sha256}]
    for other in get_ruleset(inputs.state.data["ruleset"]).powers:
        if other != power:
            doc = inputs.standing.get(other)
            files.append({"kind": "standing_orders", "power": other,
                          "file": inputs.turn.data["standing_orders"][other] if doc else None,
                          "sha256": doc.sha256 if doc else None})
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
    power = inputs.orders.data["power"]
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
    after = ruleset.resolve(before, inputs.orders, inputs.standing, dice, log)
    after["dice"] = next_dice(before["dice"], inputs.seed, inputs.contributions)
    log.add("turn_end", round=before["round"], power=power, next_power=after["next_power"],
            dice_rolled=dice.rolled, next_seed_commitment=inputs.seed)
    files = {STATE_FILE: dump_yaml(after).encode("utf-8"), EVENTS_FILE: log.to_jsonl().encode("utf-8")}
    if render is not None:
        files.update(render(before, after, log, inputs))
    return TurnResult(after, log, files)


def check_output(inputs: TurnInputs, names: Iterable[str] | None = None, force: bool = False) -> None:
    """Raise `InputError` if the turn's output folder holds the input state, or (without `force`)
    any of the files `names` (None: any file at all). Called before the turn is resolved, and
    again with the files to write."""
    out = inputs.output
    state_dir = Path(inputs.turn.data["state"])
    if (inputs.base / state_dir).resolve().parent == out.resolve():
        raise InputError([inputs.turn.problem(("output",), "the output folder holds the input state, which "
                                              "must never be overwritten", "a new folder")])
    if names is None:
        names = [p.name for p in out.iterdir()] if out.is_dir() else []
    existing = [name for name in names if (out / name).exists()]
    if existing and not force:
        raise InputError([inputs.turn.problem(
            ("output",), f"{display_path(out)} already holds {', '.join(sorted(existing))}",
            "a new folder, or --force to replace them")])


def write_outputs(inputs: TurnInputs, files: dict[str, bytes], force: bool = False) -> Path:
    """Write every output file at once into the turn's output folder.

    Refuses to overwrite existing outputs unless `force`, and never writes where the input state
    lives. Files are first written to a temporary folder beside the output, then moved in.
    """
    check_output(inputs, files, force)
    out = inputs.output
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, data in files.items():
            (staging / name).write_bytes(data)
        if not out.exists():
            umask = os.umask(0)
            os.umask(umask)
            staging.chmod(0o777 & ~umask)  # mkdtemp's 0700 would hide the outputs from other users
            staging.rename(out)
            return out
        for name in files:
            os.replace(staging / name, out / name)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return out
