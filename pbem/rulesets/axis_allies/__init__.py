"""Axis & Allies Revised (2004): the map, the units and the turn engine.

`AxisAlliesRevised` is what the core sees (pbem.core.ruleset.Ruleset); the rules live in one
module per concern, listed in docs/architecture.md: turn.py plays the seven phases in order.
"""

from pbem.rulesets.axis_allies.ruleset import AxisAlliesRevised

__all__ = ["AxisAlliesRevised"]
