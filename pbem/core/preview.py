"""The preview of a role's valid orders, made from that role's view and its own standing orders
only, so that it cannot hold another role's secrets; shared by `pbem validate` and the mail answer."""

from __future__ import annotations

from typing import Any

from pbem.core.ruleset import Ruleset

DEFAULT_WARN_BELOW = 50.0
"""The percent below which a battle's chance of success is warned of when neither the command nor
the player's standing orders say otherwise: a coin flip."""


def warn_below(chosen: float | None, standing: dict[str, Any] | None) -> float:
    """The threshold as a chance in [0, 1]: the one chosen (the command's option) wins, then the
    player's standing orders' `warn_below`, then the default; each in percent."""
    own = standing.get("warn_below") if isinstance(standing, dict) else None
    percent = chosen if chosen is not None else own if isinstance(own, (int, float)) else DEFAULT_WARN_BELOW
    return min(max(float(percent), 0.0), 100.0) / 100.0


def preview(ruleset: Ruleset, state: dict[str, Any], role: str, orders: dict[str, Any],
            standing: dict[str, Any] | None, chosen: float | None = None, is_view: bool = False
            ) -> dict[str, Any] | None:
    """The ruleset's preview of `role`'s orders on `state` (or on `state` as it is, when it is that
    role's view already)."""
    view = state if is_view else ruleset.view_state(state, role)
    return ruleset.preview(view, orders, standing, warn_below(chosen, standing))


def preview_text(found: dict[str, Any] | None) -> str:
    """The preview as lines of text: its forecast under "Preview:", then its warnings."""
    if not found or not (found.get("lines") or found.get("warnings")):
        return ""
    text = "Preview:\n" + "".join(f"  {line}\n" for line in found.get("lines", []))
    return text + "".join(f"Warning: {line}\n" for line in found.get("warnings", []))
