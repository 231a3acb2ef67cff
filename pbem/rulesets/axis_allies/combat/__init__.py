"""Combat in the Axis & Allies family: battles, strategic bombing raids and rocket strikes.

This package is the one implementation of the combat rules (rules digest §5, rulings in
docs/combat-api.md), under an edition's ``CombatRules``. It is made of plain functions over small
dataclasses, with no I/O and no randomness of its own: the dice come from the caller as
``roll(n) -> list[int]``.

The rules are cut so that the turn engine (real dice) and the exact odds calculator (``odds.py``,
hit-count distributions instead of dice) run the same code, one module to a part of a battle:

* ``battle.py``: what a battle is before its first die: the edition's combat rules, the pieces
  and the ``Battle`` they stand in;
* ``decisions.py``: the orders it is fought with (casualty orders, submerging, the retreat rule);
* ``volleys.py``: who fires in a step, with which value, at which class of target;
* ``casualties.py``: who picks a side's casualties, and which units a number of hits destroys;
* ``step_seven.py``: submerging, retreat, or the end of the battle;
* ``rounds.py``: one round with dice, the steps above strung together;
* ``resolve.py``: rounds until the battle is over, and its result;
* ``raids.py``: strategic bombing raids and rocket strikes.

Nothing is imported here, so that each name has one home to import it from.
"""
