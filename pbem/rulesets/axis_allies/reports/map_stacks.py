"""Each power's units at a space, as the map writes them in its unit box (counts with short labels,
then what its transports carry) and in words for a tooltip; and the units placed this turn, which
the map shows in a box of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.rulesets.axis_allies.reports.map_style import CARGO_MARK, Style


def _in_table_order(style: Style, units: Mapping[str, int]) -> dict[str, int]:
    """The unit types with a count above 0, in unit table order (unknown ones last, by name)."""
    rank = {u: i for i, u in enumerate(style.unit_labels)}
    return {u: int(units[u]) for u in sorted(units, key=lambda u: (rank.get(u, len(rank)), u)) if int(units[u]) > 0}


def count_items(style: Style, units: Mapping[str, int]) -> list[str]:
    return [f"{count}{style.unit_labels.get(u, u)}" for u, count in _in_table_order(style, units).items()]


def wrap_items(items: Sequence[str], per_line: int) -> list[str]:
    return [" ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]


def unit_stack_lines(style: Style, power: str, units: Mapping[str, int],
                     cargo: Sequence[Mapping[str, Any]] = (), per_line: int = 3) -> list[str]:
    """Text lines of one power's unit box: counts with short labels, at most ``per_line`` per
    line, in unit table order; then, marked with a triangle, what its transports carry (``cargo``
    is the space's list from ``state['cargo']``; another power's cargo is suffixed with it).

    >>> unit_stack_lines(style, "uk", {"infantry": 2, "tank": 1, "transport": 1},
    ...                  [{"transport": "uk", "units": {"usa": {"infantry": 2}}}])
    ['2inf 1tnk 1tr', '\u25b82inf US']
    """
    lines = wrap_items(count_items(style, units), per_line)
    aboard: list[str] = []
    for load in cargo:
        if load.get("transport") != power:
            continue
        for owner in style.ordered_powers(load.get("units", {})):
            items = count_items(style, load["units"][owner])
            if items and owner != power:
                items[-1] += f" {style.labels.get(owner, owner)}"
            aboard.extend(items)
    if aboard:
        lines.extend(CARGO_MARK + line for line in wrap_items(aboard, per_line))
    return lines


def unit_stack_words(style: Style, power: str, units: Mapping[str, int],
                     cargo: Sequence[Mapping[str, Any]] = (), placed: Mapping[str, int] | None = None) -> str:
    """One power's units at a space in words, for a tooltip: what ``unit_stack_lines`` writes in
    the box, with what its transports carry and what it placed there this turn.

    >>> unit_stack_words(style, "uk", {"infantry": 2, "transport": 1},
    ...                  [{"transport": "uk", "units": {"usa": {"infantry": 2}}}], {"infantry": 1})
    'UK: 2 infantry, 1 transport; aboard: 2 infantry (USA); placed this turn: 1 infantry'
    """
    text = f"{style.words.power(power)}: {style.words.units(_in_table_order(style, units))}"
    aboard = [style.words.units(_in_table_order(style, load["units"][owner]))
              + ("" if owner == power else f" ({style.words.power(owner)})")
              for load in cargo if load.get("transport") == power
              for owner in style.ordered_powers(load.get("units", {})) if any(load["units"][owner].values())]
    if aboard:
        text += "; aboard: " + ", ".join(aboard)
    if placed:
        text += "; placed this turn: " + style.words.units(_in_table_order(style, placed))
    return text


def placements(events: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, dict[str, int]]]:
    """space -> power -> the units that power placed there this turn."""
    placed: dict[str, dict[str, dict[str, int]]] = {}
    for event in events:
        if event.get("type") == "place":
            units = placed.setdefault(event.get("space", ""), {}).setdefault(event.get("power", ""), {})
            for unit, count in (event.get("units") or {}).items():
                units[unit] = units.get(unit, 0) + int(count)
    return placed
