"""The dice: verifiable, reproducible, unbiased."""

import collections

import pytest

from pbem.core.dice import DiceStream, FixedDice, commitment, new_chain_secret, turn_seed


def test_each_turn_seed_hashes_to_the_one_before():
    secret = new_chain_secret()
    seeds = [turn_seed(secret, n, 20) for n in range(21)]
    assert seeds[20] == secret
    for earlier, later in zip(seeds, seeds[1:]):
        assert commitment(later) == earlier


def test_turn_outside_the_chain_is_refused():
    with pytest.raises(ValueError):
        turn_seed(new_chain_secret(), 21, 20)


def test_same_seed_and_identity_give_the_same_dice():
    seed = "ab" * 32
    assert DiceStream(seed, "g|1|germany|x").roll(50) == DiceStream(seed, "g|1|germany|x").roll(50)


def test_other_orders_give_other_dice():
    seed = "ab" * 32
    assert DiceStream(seed, "g|1|germany|x").roll(50) != DiceStream(seed, "g|1|germany|y").roll(50)


def test_rolling_in_pieces_equals_rolling_at_once():
    seed = "cd" * 32
    one = DiceStream(seed, "id")
    pieces = one.roll(3) + one.roll(40) + one.roll(1)
    assert pieces == DiceStream(seed, "id").roll(44)


def test_faces_are_uniform():
    counts = collections.Counter(DiceStream("01" * 32, "uniformity").roll(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # chi-square with 5 degrees of freedom; 20.5 is the 0.1% critical value
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts.values())
    assert chi2 < 20.5


def test_bytes_252_and_up_are_rejected():
    # A stream whose first bytes are all high would otherwise favour faces 1-4.
    stream = DiceStream("00" * 32, "x")
    stream._buffer, stream._pos = bytes([252, 253, 254, 255, 0, 5]), 0
    assert stream.roll(2) == [1, 6]


def test_fixed_dice_run_out_loudly():
    dice = FixedDice([1, 2])
    assert dice.roll(2) == [1, 2]
    with pytest.raises(ValueError):
        dice.roll(1)

