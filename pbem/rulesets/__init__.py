"""The registry of games: a ruleset id (as written in state and turn files) to its rules, found
through the entry point group `pbem.games`, where the built-in games declare themselves as a game
shipped on its own would (pyproject.toml). Nothing here names a game."""

from __future__ import annotations

from pbem.core.plugins import plugins
from pbem.core.ruleset import Ruleset

GROUP = "pbem.games"
RULESETS = {point.name: lambda point=point: point.load()() for point in plugins(GROUP)}
"""Each game's factory; the entry point is loaded only when the game is asked for, so that the
registry loads no game's code or data."""

_made: dict[str, Ruleset] = {}


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset called `ruleset_id`; a `KeyError` whose argument lists the known ids otherwise."""
    if ruleset_id not in RULESETS:
        raise KeyError(", ".join(RULESETS))
    if ruleset_id not in _made:
        _made[ruleset_id] = RULESETS[ruleset_id]()
    return _made[ruleset_id]
