"""Axis & Allies Revised (2004): the map, the units and the turn engine.

`AxisAlliesRevised` is what the core sees (pbem.core.ruleset.Ruleset); the rules live in one
module per concern: board, units, state, orders, movement, battles, capture, research, mobilize,
turn (the seven phases in order), options (options and rulings).
"""

from pbem.rulesets.aa_revised.ruleset import AxisAlliesRevised

__all__ = ["AxisAlliesRevised"]
