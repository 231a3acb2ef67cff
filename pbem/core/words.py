"""How a game's names and unit counts read in reports and messages.

A ruleset gives the words of its powers and unit types as data (`Ruleset.words`); a name it does
not give reads as its id with spaces for underscores.
"""

from __future__ import annotations

from typing import Mapping


class Words:
    """The report words of one game: `powers` maps a power to its name, `units` a unit type to how
    one and several of it read."""

    def __init__(self, powers: Mapping[str, str] | None = None,
                 units: Mapping[str, tuple[str, str]] | None = None) -> None:
        self.powers = dict(powers or {})
        self.unit_words = dict(units or {})

    def power(self, power: str | None) -> str:
        """`germany` -> `Germany`, `uk` -> `UK` (as the game's words say)."""
        if not power:
            return "nobody"
        return self.powers.get(power, power.replace("_", " ").title())

    def unit(self, unit: str, count: int = 1) -> str:
        """`tank`, 2 -> `tanks`; `aa_gun`, 1 -> `AA gun`."""
        plain = unit.replace("_", " ")
        singular, plural = self.unit_words.get(unit, (plain, plain + "s"))
        return singular if count == 1 else plural

    def units(self, units: Mapping[str, int] | None) -> str:
        """{infantry: 3, tank: 1} -> `3 infantry, 1 tank`; empty -> `nothing`."""
        if not units:
            return "nothing"
        return ", ".join(f"{n} {self.unit(u, n)}" for u, n in units.items() if n)

    def forces(self, forces: Mapping[str, Mapping[str, int]] | None) -> str:
        """{germany: {infantry: 2}} -> `Germany: 2 infantry`; several powers joined by `; `."""
        if not forces:
            return "nothing"
        parts = [f"{self.power(p)}: {self.units(u)}" for p, u in forces.items() if u]
        return "; ".join(parts) or "nothing"


FLOAT_NOISE = 1e-12
"""Within this of a certainty, a computed chance is the float error of summing outcomes, not a chance."""


def chance(p: float, places: int) -> float:
    """`p` rounded to `places` decimals but never to a certainty it is not: 0.9999997 keeps
    0.999999 at six places, so that `percent` says >99.9%, not 100%."""
    if FLOAT_NOISE < p < 1 - FLOAT_NOISE:
        return min(max(round(p, places), 10 ** -places), 1 - 10 ** -places)
    return round(p, places)


def percent(p: float) -> str:
    """A probability as a percentage with one decimal: 0.9123 -> `91.2%`.

    Only a certainty reads 0% or 100%; a chance that would round to either reads `<0.1%` or
    `>99.9%`, so an unlikely outcome never looks impossible."""
    if p <= 0 or p >= 1:
        return "0%" if p <= 0 else "100%"
    if p < 0.0005:
        return "<0.1%"
    if p >= 0.9995:
        return ">99.9%"
    return f"{100 * p:.1f}%"
