"""Turning a turn's states and events into reports and pictures."""

from __future__ import annotations

from typing import Any


def render_turn(before: dict[str, Any], after: dict[str, Any], log, inputs) -> dict[str, bytes]:
    """Every report file of a turn, in the report family of its game."""
    if before["ruleset"] == "qmg":
        from pbem.render.qmg_report import render_reports
    elif before["ruleset"] == "undaunted-stalingrad":
        from pbem.render.undaunted_report import render_reports
    else:
        from pbem.render.report import render_reports
    return render_reports(before, after, log, inputs)


def render_state_map(state: dict[str, Any], events: list[dict[str, Any]] | None, title: str,
                     theatre: str | None = None) -> bytes | None:
    """The map of any state as PNG bytes (`pbem render`), drawn as the game's reports draw it; a
    game with hidden cards shows only what everyone may see. None for a game without a map."""
    from pbem.core.events import seen_by
    from pbem.rulesets import get_ruleset
    public = [e for e in events or [] if seen_by(e, "public")]
    ruleset = get_ruleset(state["ruleset"])
    if state["ruleset"] == "qmg":
        from pbem.render.qmg_board import render_board
        return render_board(ruleset.pack, state, public, title)
    if state["ruleset"] == "undaunted-stalingrad":
        from pbem.render.undaunted_map import render_map
        return render_map(ruleset.pack_for(state), ruleset.view(state, "public"), public, title)
    from pbem.render.report import render_map_png
    return render_map_png(state, events, title, theatre)
