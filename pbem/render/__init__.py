"""Turning a turn's states and events into reports and pictures: each game draws its own
(`Ruleset.render_reports`, `Ruleset.render_board`), with the shared parts of this package."""

from __future__ import annotations

from typing import Any


def render_turn(before: dict[str, Any], after: dict[str, Any], log, inputs) -> dict[str, bytes]:
    """Every report and picture of a played turn, by file name."""
    from pbem.rulesets import get_ruleset
    return get_ruleset(before["ruleset"]).render_reports(before, after, log, inputs)


def render_state_map(state: dict[str, Any], events: list[dict[str, Any]] | None, title: str,
                     theatre: str | None = None) -> bytes | None:
    """The map of any state as PNG bytes (`pbem render`), drawn as the game's reports draw it; a
    game with hidden cards shows only what everyone may see. None for a game without a map."""
    from pbem.core.events import seen_by
    from pbem.rulesets import get_ruleset
    public = [e for e in events or [] if seen_by(e, "public")]
    return get_ruleset(state["ruleset"]).render_board(state, public, title, theatre)
