"""The dice of the exact odds: a volley's hits as a probability distribution, and the places a unit
may end a round in (on the board, submerged, retreated).

Plain Python, so that a small battle's odds (a turn's, a `pbem odds` of a dozen units) need no numpy;
the numpy sweep of a large battle convolves the same dice with numpy (``convolve``)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence

from .combat.volleys import Volley

BOARD, SUBMERGED, RETREATED = "board", "submerged", "retreated"  # the places of a unit in a side's states


def _binomial(n: int, p: float) -> tuple[float, ...]:
    """P(k of n dice hit) for k = 0..n, each die hitting with probability p."""
    try:
        return tuple(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))
    except OverflowError:
        pass  # past about 1,020 dice some comb(n, k) exceeds the largest float: add logarithms instead
    if p in (0.0, 1.0):
        return tuple(float(k == n * p) for k in range(n + 1))
    log_p, log_q, log_n = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    return tuple(math.exp(log_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_p + (n - k) * log_q)
                 for k in range(n + 1))


@functools.lru_cache(maxsize=4096)
def _dice(n: int, p: float) -> tuple[float, ...]:
    """:func:`_binomial`, computed once for each volley size."""
    return _binomial(n, p)


def _convolve(first: Sequence[float], second: Sequence[float]) -> list[float]:
    out = [0.0] * (len(first) + len(second) - 1)
    for i, p in enumerate(first):
        for j, q in enumerate(second):
            out[i + j] += p * q
    return out


Convolve = Callable[[Sequence[float], Sequence[float]], Sequence[float]]


def hit_distribution(volleys: Iterable[Volley], convolve: Convolve = _convolve) -> list[float]:
    """P(k hits) for k = 0..dice: the convolution of every die's Bernoulli(value/6), by ``convolve``
    (numpy's where a large battle's volleys hold hundreds of dice)."""
    dist: Sequence[float] = [1.0]
    for volley in volleys:
        dist = convolve(dist, _dice(volley.dice, volley.value / 6))
    return list(dist)
