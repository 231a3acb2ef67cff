"""A secret seed chain file: the moderator's secret.yaml, or a player's own file when players share
in the dice. Each turn's seed is the SHA-256 of the next one (dice.turn_seed); the file holds the
chain's secret end and its length."""

from __future__ import annotations

import re
from pathlib import Path

from pbem.core.dice import SEED_BYTES, turn_seed
from pbem.core.errors import InputError, Problem
from pbem.core.folder import SECRET_FILE
from pbem.core.yamlio import Document, dump_yaml, load_document

CHAIN_LENGTH = 1000  # turn seeds a game can use: 200 rounds of five powers
# Every seed is found by hashing from the end of the chain, so its length is the work of one
# `pbem seed`: a hundred times a new game's chain still takes well under a second, and no file
# can make pbem hash for hours.
MAX_CHAIN_LENGTH = 100 * CHAIN_LENGTH
SEED_HEX = re.compile(f"[0-9a-f]{{{2 * SEED_BYTES}}}")


def write_secret(path: Path, secret: str) -> str:
    """Write a secret seed chain file readable by its owner only; returns the chain's commitment."""
    path.touch(0o600)  # private before the secret is in it
    path.write_text(dump_yaml({"secret": secret, "chain_length": CHAIN_LENGTH}), encoding="utf-8")
    return turn_seed(secret, 0, CHAIN_LENGTH)


def chain_problems(doc: Document, where: tuple[str, ...], key: str) -> list[Problem]:
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
    elif not (isinstance(block[key], str) and SEED_HEX.fullmatch(block[key])):
        problems.append(doc.problem(where + (key,), "not a seed",
                                    f"{2 * SEED_BYTES} hex digits 0-9, a-f, as `pbem new` writes them"))
    length = block.get("chain_length")
    if type(length) is not int or not 1 <= length <= MAX_CHAIN_LENGTH:
        problems.append(doc.problem(where + ("chain_length",), "not a usable chain length",
                                    f"a whole number from 1 to {MAX_CHAIN_LENGTH:,}"))
    return problems


def read_secret(path: Path) -> str:
    """The secret of a secret chain file, checked."""
    doc = load_document(path)
    problems = chain_problems(doc, (), "secret")
    if problems:
        raise InputError(problems)
    return doc.data["secret"]


def seed_for_turn(path: Path, turn: int) -> str:
    """Game turn `turn`'s value of a secret chain: the moderator's seed when `path` is a game
    folder (its secret.yaml), a player's contribution when it is their own secret file."""
    doc = load_document(path / SECRET_FILE if path.is_dir() else path)
    problems = chain_problems(doc, (), "secret")
    if problems:
        raise InputError(problems)
    try:
        return turn_seed(doc.data["secret"], turn, doc.data["chain_length"])
    except ValueError as exc:
        raise InputError([doc.problem(("chain_length",), str(exc))]) from None
