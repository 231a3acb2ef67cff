"""The registry of game rulesets: a ruleset id (as written in state and turn files) to its rules."""

from __future__ import annotations

from pbem.core.ruleset import Ruleset


def _axis_allies(ruleset_id: str) -> Ruleset:
    from pbem.rulesets.axis_allies import AxisAllies, edition
    return AxisAllies(edition(ruleset_id))


def _qmg() -> Ruleset:
    from pbem.rulesets.qmg import Qmg
    return Qmg()


def _undaunted() -> Ruleset:
    from pbem.rulesets.undaunted import Undaunted
    return Undaunted()


# Factories rather than instances, so that importing the registry loads no game data.
RULESETS = {
    "aa-revised": lambda: _axis_allies("aa-revised"),
    "aa-europe": lambda: _axis_allies("aa-europe"),
    "qmg": _qmg,
    "undaunted-stalingrad": _undaunted,
}

_made: dict[str, Ruleset] = {}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset called `ruleset_id`; a `KeyError` whose argument lists the known ids otherwise."""
    if ruleset_id not in RULESETS:
        raise KeyError(", ".join(RULESETS))
    if ruleset_id not in _made:
        _made[ruleset_id] = RULESETS[ruleset_id]()
    return _made[ruleset_id]
