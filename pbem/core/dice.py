"""Dice that every player can check afterwards.

A game owns a secret chain of turn seeds: ``seed[n] = sha256(seed[n + 1])``. Before turn n the
players know only ``seed[n - 1]`` (the commitment), which fixes ``seed[n]`` without revealing it.
When turn n is adjudicated its seed is revealed in the report, anyone can check that it hashes to
the commitment, and the dice follow from it and from the turn's orders, so the moderator cannot
pick the dice after seeing the orders.

A game's state names its dice scheme (`dice.scheme`; a state without one is scheme 1). Scheme 1
keys the dice with the turn seed alone and binds them to a digest of the submitted files' data as
parsed, so a note or a spelling changed them. Scheme 2, which new games use (`CURRENT_SCHEME`),
binds them to a digest of what the submissions decide, names resolved, and keys them with
`shared_key` when players share in the randomness; its `turn_start` event lists each input file
with its sha256. `pbem.core.turn` applies the scheme.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BYTES = 32
CURRENT_SCHEME = 2
# A draw below n <= 256 reads one byte and throws away the bytes from the largest multiple of n
# below 256 up (for a d6, bytes 252-255), so that each value has probability exactly 1/n; a larger
# n reads four bytes the same way. A d6 thus reads the stream exactly as games before dice of
# other sizes did.
_ONE_BYTE_LIMIT = 256
_FOUR_BYTES = 1 << 32
MAX_BELOW = _FOUR_BYTES


def commitment(seed_hex: str) -> str:
    """The public commitment to a turn seed: sha256 of its bytes, hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def seed_check_command(seed_hex: str) -> str:
    """A shell command that prints a seed's commitment on a fresh Linux or macOS: the hash is of the
    seed's bytes, not of its hex text, so `sha256sum` on the text gives another hash."""
    return f"python3 -c \"import hashlib; print(hashlib.sha256(bytes.fromhex('{seed_hex}')).hexdigest())\""


def new_chain_secret() -> str:
    """A fresh secret from which the whole chain of turn seeds is derived."""
    return secrets.token_hex(SEED_BYTES)


def turn_seed(secret_hex: str, turn: int, length: int) -> str:
    """Seed of game turn `turn` (1-based) of a chain of `length` turns grown from `secret_hex`.

    The chain's last element is the secret; each earlier one is the hash of the next. Turn 0's
    "seed" is the commitment published when the game starts.
    """
    if not 0 <= turn <= length:
        raise ValueError(f"turn {turn} is outside the chain of {length} turns")
    seed = secret_hex
    for _ in range(length - turn):
        seed = commitment(seed)
    return seed


def shared_key(seed_hex: str, contributions: dict[str, str]) -> str:
    """The dice key of a turn whose players share in the randomness: the moderator's seed and every
    player's revealed value for the turn, in player-name order, hashed together.

    A die is unknown to everyone until the last of these values is revealed, so a party that keeps
    its own chain secret until the turn's orders are fixed keeps every other party from steering.
    """
    mixed = hashlib.sha256(b"pbem-dice/2-shared|" + bytes.fromhex(seed_hex))
    for name, value in sorted(contributions.items()):
        mixed.update(b"|" + name.encode("utf-8") + b"=" + bytes.fromhex(value))
    return mixed.hexdigest()


class DiceStream:
    """Dice, draws and shuffles drawn from HMAC-SHA256(seed, identity || block counter).

    Every value is a draw below some n taken from the stream in order, so anyone who knows the
    seed and the identity can repeat a turn's dice, draws and shuffles exactly.
    """

    def __init__(self, seed_hex: str, identity: str):
        self._key = bytes.fromhex(seed_hex)
        self._identity = identity.encode("utf-8")
        self._block = 0
        self._buffer = b""
        self._pos = 0
        self.rolled = 0

    def _next_byte(self) -> int:
        if self._pos == len(self._buffer):
            message = self._identity + b"|" + str(self._block).encode("ascii")
            self._buffer = hmac.new(self._key, message, hashlib.sha256).digest()
            self._block += 1
            self._pos = 0
        byte = self._buffer[self._pos]
        self._pos += 1
        return byte

    def below(self, n: int) -> int:
        """A whole number from 0 to n - 1, each equally likely."""
        if not 1 <= n <= MAX_BELOW:
            raise ValueError(f"cannot draw below {n}: n must be 1 to {MAX_BELOW}")
        if n <= _ONE_BYTE_LIMIT:
            limit = _ONE_BYTE_LIMIT - _ONE_BYTE_LIMIT % n
            while (value := self._next_byte()) >= limit:
                pass
            return value % n
        limit = _FOUR_BYTES - _FOUR_BYTES % n
        while (value := int.from_bytes(bytes(self._next_byte() for _ in range(4)), "big")) >= limit:
            pass
        return value % n

    def roll(self, count: int, sides: int = 6) -> list[int]:
        """Roll `count` dice of `sides` faces, each 1 to `sides`."""
        dice = [self.below(sides) + 1 for _ in range(count)]
        self.rolled += count
        return dice

    def shuffle(self, items: list) -> list:
        """A new list of `items` in an order drawn from the stream, every order equally likely
        (Fisher-Yates: the item for each place from the last down is drawn below the places left)."""
        order = list(items)
        for last in range(len(order) - 1, 0, -1):
            pick = self.below(last + 1)
            order[last], order[pick] = order[pick], order[last]
        return order


class FixedDice:
    """Dice read from a list, for the test catalogue and worked examples; running out is an error."""

    def __init__(self, values: list[int]):
        self._values = list(values)
        self.rolled = 0

    def roll(self, count: int, sides: int = 6) -> list[int]:
        """Take the next `count` dice from the list (each must be a face of a `sides`-sided die)."""
        if self.rolled + count > len(self._values):
            raise ValueError(f"the fixed dice ran out after {len(self._values)} dice")
        dice = self._values[self.rolled:self.rolled + count]
        if any(not 1 <= d <= sides for d in dice):
            raise ValueError(f"the fixed dice {dice} are not all faces of a d{sides}")
        self.rolled += count
        return dice

    @property
    def unused(self) -> int:
        """How many listed dice were never rolled."""
        return len(self._values) - self.rolled
