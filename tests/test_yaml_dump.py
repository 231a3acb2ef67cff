"""`dump_yaml` writes a mapping in parts and remembers them (issue 27): the bytes must be those of
the mapping written whole, for every file pbem writes and for awkward data, first time and again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.core import yamlio
from pbem.core.yamlio import dump_yaml, load_document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
WORDS = ["", " ", "yes", "null", "~", "1", "1.5", "0x1F", ".inf", "a: b", "# c", "- d", "'", '"', "\\", "\t", "\n",
         "é", "中", "😀", "\u2028", "\x85", "\ufeff", "\xa0", "\x01", "Karelia S.S.R.", "SZ 5", "x" * 130]


def _whole(data) -> str:
    return yamlio._dump(data)


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(WORDS) for _ in range(rng.choice([0, 1, 2, 5, 12, 40])))


def _value(rng: random.Random, depth: int):
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice([_text(rng), rng.randint(-10**12, 10**12), True, False, None, 1, "1", 1.0])
    if roll < 0.8:
        return {rng.choice([_text(rng), "units", "Alaska", 1, "1", True]): _value(rng, depth + 1)
                for _ in range(rng.randint(0, 9))}
    return [_value(rng, depth + 1) for _ in range(rng.randint(0, 6))]


@pytest.mark.parametrize("game", ["aa-revised", "aa-europe", "qmg", "undaunted-stalingrad"])
def test_every_yaml_file_of_an_example_is_written_as_whole(game):
    for path in sorted((EXAMPLES / game).rglob("*.yaml")):
        data = load_document(path).data
        assert dump_yaml(data) == _whole(data), path
        assert dump_yaml(data) == _whole(data), path  # from the parts remembered


@pytest.mark.parametrize("seed", range(8))
def test_awkward_data_is_written_as_whole(seed):
    rng = random.Random(seed)
    for _ in range(150):
        data = {rng.choice([_text(rng), "units", "format"]): _value(rng, 0) for _ in range(rng.randint(1, 8))}
        assert dump_yaml(data) == _whole(data), data


def test_values_that_print_alike_are_not_taken_for_each_other():
    for data in ({"a": {"x": {1: 2}, "y": [1]}}, {"a": {"x": {"1": 2}, "y": [1]}}, {"a": {"x": {True: 2}, "y": [1]}},
                 {"a": {"x": {1.0: 2}, "y": [1]}}, {"a": {"x": {1: "2"}, "y": [1]}}):
        assert dump_yaml(data) == _whole(data)
