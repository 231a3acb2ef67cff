"""An axis's limits, ticks and tick labels as matplotlib's Axes chooses them, for the charts drawn
without one (`pbem.render.sheet`): the same numbers in the same places, without the Axes' import."""

from __future__ import annotations

from matplotlib.ticker import MaxNLocator


def limits(low: float, high: float) -> tuple[float, float]:
    """An axis's limits as matplotlib sets them around data from `low` to `high`: widened when they
    are one value, then a margin of a twentieth each way."""
    low, high = MaxNLocator().nonsingular(low, high)
    margin = (high - low) * 0.05
    return low - margin, high + margin


def tick_space(length: float, font: float) -> int:
    """How many ticks an axis `length` points long with labels of `font` points takes, as
    matplotlib's automatic ticks choose: one per two label heights, between 1 and 9."""
    return max(min(int(length // (2 * font)), 9), 1)


def ticks(low: float, high: float, length: float, font: float, integer: bool = False) -> list[float]:
    """The automatic ticks of an axis from `low` to `high` (`integer`: whole numbers only), those
    within its limits, as an Axes draws them."""
    locator = MaxNLocator(nbins=tick_space(length, font), steps=[1, 2, 2.5, 5, 10], integer=integer)
    return [t for t in locator.tick_values(low, high) if low - 1e-9 <= t <= high + 1e-9]


def tick_labels(ticks: list[float]) -> list[str]:
    """The ticks as matplotlib writes them: as few decimals as every tick needs, a real minus sign."""
    decimals = next((d for d in range(6) if all(abs(round(t, d) - t) < 1e-9 for t in ticks)), 6)
    return [f"{t:.{decimals}f}".replace("-", "\u2212") for t in ticks]
