"""The Axis & Allies family: one engine for every edition (Revised, Europe).

`AxisAllies` is what the core sees (pbem.core.ruleset.Ruleset) for one `Edition` (edition.py, the
edition's data under editions/); the rules live in one module per concern, listed in
docs/architecture.md: turn.py plays the phases in order.
"""

from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies.ruleset import AxisAllies

__all__ = ["AxisAllies", "edition", "europe", "revised"]


def revised() -> AxisAllies:
    return AxisAllies(edition("aa-revised"))


def europe() -> AxisAllies:
    return AxisAllies(edition("aa-europe"))
