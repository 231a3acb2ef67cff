"""How names and unit counts read in the reports."""

from __future__ import annotations

from typing import Mapping

_SHORT_NAMES = {"ussr": "USSR", "uk": "UK", "usa": "USA"}
_UNIT_NAMES = {"aa_gun": ("AA gun", "AA guns"), "infantry": ("infantry", "infantry"),
               "artillery": ("artillery", "artillery"),
               "industrial_complex": ("industrial complex", "industrial complexes")}


def power_name(power: str | None) -> str:
    """`germany` -> `Germany`, `uk` -> `UK`."""
    if not power:
        return "nobody"
    return _SHORT_NAMES.get(power, power.replace("_", " ").title())


def unit_name(unit: str, count: int = 1) -> str:
    """`tank`, 2 -> `tanks`; `aa_gun`, 1 -> `AA gun`."""
    singular, plural = _UNIT_NAMES.get(unit, (unit.replace("_", " "), unit.replace("_", " ") + "s"))
    return singular if count == 1 else plural


def units_text(units: Mapping[str, int] | None) -> str:
    """{infantry: 3, tank: 1} -> `3 infantry, 1 tank`; empty -> `nothing`."""
    if not units:
        return "nothing"
    return ", ".join(f"{n} {unit_name(u, n)}" for u, n in units.items() if n)


def forces_text(forces: Mapping[str, Mapping[str, int]] | None) -> str:
    """{germany: {infantry: 2}} -> `Germany: 2 infantry`; several powers joined by `; `."""
    if not forces:
        return "nothing"
    parts = [f"{power_name(p)}: {units_text(u)}" for p, u in forces.items() if u]
    return "; ".join(parts) or "nothing"


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
