"""Ruleset options and rulings: every point where players differ or the rulebooks are unclear.

Each edition lists them in its `options.yaml` (read by `Edition.options` and `Edition.rulings`).
Options are chosen per game (`pbem new --option name=value`) and stored in the state's `options`.
Rulings are the readings this engine takes where the rules digest marks a point (?): they have one
value, are listed in one place, and each is logged as a `ruling` event the first time it decides
something in a turn. Nothing is decided silently.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from pbem.core.ruleset import Option


def chosen_options(options: Iterable[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every option with the game's value, defaults filled in, in the order of `options`.

    An option with a `legacy` value that `given` does not name is left out, so that a game begun
    before it existed keeps its opening state byte for byte and plays the legacy value."""
    given = dict(given or {})
    return {o.name: o.value_in(given) for o in options if o.name in given or o.legacy is None}
