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



def test_a_d6_reads_the_stream_as_before_dice_of_other_sizes():
    # the first values of this stream as the d6-only stream drew them: old games must verify
    stream = DiceStream("ab" * 32, "g|1|germany|x")
    reference = DiceStream("ab" * 32, "g|1|germany|x")
    expected = []
    while len(expected) < 200:
        byte = reference._next_byte()
        if byte < 252:
            expected.append(byte % 6 + 1)
    assert stream.roll(200) == expected


@pytest.mark.parametrize("sides", [2, 10, 20, 100])
def test_dice_of_any_size_are_uniform(sides):
    counts = collections.Counter(DiceStream("02" * 32, f"d{sides}").roll(1000 * sides, sides))
    assert set(counts) == set(range(1, sides + 1))
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    # well above the 0.1% critical value of chi-square with sides - 1 degrees of freedom
    assert chi2 < (sides - 1) + 6 * (2 * (sides - 1)) ** 0.5


def test_a_d10_rejects_the_bytes_above_the_last_whole_set_of_ten():
    stream = DiceStream("00" * 32, "x")
    stream._buffer, stream._pos = bytes([250, 255, 9, 249]), 0
    assert stream.roll(2, 10) == [10, 10]  # 250 and 255 thrown away, 9 % 10 + 1, 249 % 10 + 1


def test_draws_above_one_byte_read_four_bytes_and_stay_in_range():
    stream = DiceStream("03" * 32, "big")
    values = [stream.below(1000) for _ in range(5000)]
    assert min(values) >= 0 and max(values) <= 999
    assert len(set(values)) > 900
    with pytest.raises(ValueError):
        stream.below(0)


def test_a_shuffle_is_a_permutation_and_every_order_is_equally_likely():
    stream = DiceStream("04" * 32, "shuffle")
    counts = collections.Counter(tuple(stream.shuffle("abcd")) for _ in range(24_000))
    assert len(counts) == 24
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 49.7  # chi-square, 23 degrees of freedom, 0.1%
    assert sorted(DiceStream("05" * 32, "x").shuffle(range(41))) == list(range(41))


def test_the_same_seed_gives_the_same_shuffle():
    deck = [f"card-{n}" for n in range(40)]
    assert DiceStream("06" * 32, "deck").shuffle(deck) == DiceStream("06" * 32, "deck").shuffle(deck)
    assert DiceStream("06" * 32, "deck").shuffle(deck) != DiceStream("06" * 32, "deck2").shuffle(deck)


def test_fixed_dice_must_be_faces_of_the_die_rolled():
    with pytest.raises(ValueError):
        FixedDice([7]).roll(1)
    assert FixedDice([10]).roll(1, 10) == [10]
