"""Hidden randomness: shuffles and secret draws that nobody may see until the game ends.

The moderator's secret (secret.yaml) also grows a hidden key, ``HMAC(secret, "pbem-hidden/1")``,
whose sha256 game.yaml publishes when the game begins (`hidden_commitment`). Every shuffle and
hidden draw of turn n comes from ``DiceStream(hidden key, ruleset|game|n)`` (turn 0: the opening
deal), so the moderator fixes all of them before seeing any orders. Each turn's event log and
public report carry `state_commitment`, an HMAC of the whole state under the hidden key: players
keep it, and when the moderator reveals the key at the end (`pbem reveal`, which writes
reveal.yaml), `pbem verify` re-plays every shuffle and proves that no hand, deck or discard was
changed afterwards.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from pbem.core.chain import read_secret
from pbem.core.dice import DiceStream, commitment
from pbem.core.errors import InputError, Problem, display_path
from pbem.core.folder import GAME_FILE, REVEAL_FILE, SECRET_FILE
from pbem.core.yamlio import load_document


def hidden_key(secret_hex: str) -> str:
    """The hidden key that the moderator's chain secret grows."""
    return hmac.new(bytes.fromhex(secret_hex), b"pbem-hidden/1", hashlib.sha256).hexdigest()


def hidden_stream(key_hex: str, ruleset: str, game: str, turn: int) -> DiceStream:
    """The hidden randomness of game turn `turn` (0: the opening deal)."""
    return DiceStream(key_hex, f"pbem-hidden/1|{ruleset}|{game}|{turn}")


def state_commitment(key_hex: str, turn: int, state_bytes: bytes) -> str:
    """The public commitment to the whole state after game turn `turn`: it names no card, yet only
    this state gives it once the key is revealed."""
    message = f"pbem-hidden-state/1|{turn}|".encode() + hashlib.sha256(state_bytes).digest()
    return hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).hexdigest()


def digest_commitment(key_hex: str, turn: int, orders_digest: str) -> str:
    """What the moderator of a game with secrets publishes of a turn's decisions digest before the
    players reveal their dice values: the digest covers the standing orders of every role, which a
    bare hash would let anyone test guesses against; this names nothing until the key is revealed,
    and then proves the digest in the turn's event log."""
    message = f"pbem-hidden-decisions/1|{turn}|{orders_digest}".encode()
    return hmac.new(bytes.fromhex(key_hex), message, hashlib.sha256).hexdigest()


def read_hidden_key(game_folder: Path) -> str:
    """The game's hidden key: grown from secret.yaml (the moderator's copy) or read from reveal.yaml
    (published at the end); `InputError` when neither holds the key game.yaml committed to."""
    published = load_document(game_folder / GAME_FILE).data["dice"].get("hidden_commitment")
    shown = display_path(game_folder / GAME_FILE)
    if not isinstance(published, str):
        raise InputError([Problem(shown, None, "dice.hidden_commitment", "missing: this game has hidden "
                                  "cards, so game.yaml publishes the commitment to its hidden key",
                                  "the game.yaml `pbem new` wrote")])
    if (game_folder / SECRET_FILE).is_file():
        key, source = hidden_key(read_secret(game_folder / SECRET_FILE)), game_folder / SECRET_FILE
    elif (game_folder / REVEAL_FILE).is_file():
        doc = load_document(game_folder / REVEAL_FILE)
        key = doc.data.get("hidden_key") if isinstance(doc.data, dict) else None
        source = game_folder / REVEAL_FILE
        if not isinstance(key, str) or len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise InputError([doc.problem(("hidden_key",), "not a hidden key", "64 hex digits, as `pbem reveal` "
                                          "writes them")])
    else:
        raise InputError([Problem(display_path(game_folder), None, "", "the hidden cards cannot be dealt or "
                                  "proved: the game folder holds neither secret.yaml (the moderator's) nor "
                                  "reveal.yaml (published by `pbem reveal` when the game ends)")])
    if commitment(key) != published:
        raise InputError([Problem(display_path(source), None, "", f"the hidden key does not hash to the "
                                  f"hidden_commitment {published[:16]}… that {shown} published")])
    return key
