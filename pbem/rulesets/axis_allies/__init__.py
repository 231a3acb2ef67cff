"""The Axis & Allies family: one engine for every edition (Revised, Europe).

`AxisAllies` is what the core sees (pbem.core.ruleset.Ruleset) for one `Edition` (edition.py, the
edition's data under editions/); the rules live in one module per concern, listed in
docs/architecture.md: turn.py plays the phases in order.

Nothing is imported here: every pbem command loads `odds_command` of this package (an entry point of
`pbem.commands`), and the engine would cost the other games' commands some 20 ms each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.rulesets.axis_allies.ruleset import AxisAllies


def revised() -> AxisAllies:
    return _ruleset("aa-revised")


def europe() -> AxisAllies:
    return _ruleset("aa-europe")


def _ruleset(edition_id: str) -> AxisAllies:
    from pbem.rulesets.axis_allies.edition import edition
    from pbem.rulesets.axis_allies.ruleset import AxisAllies
    return AxisAllies(edition(edition_id))
