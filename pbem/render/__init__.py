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
