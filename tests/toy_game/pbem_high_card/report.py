"""High Card's reports: one public report and one private report per seat, each in the three formats,
made from that audience's view of the state and the events it may see."""

from __future__ import annotations

from typing import Any

from pbem.core.events import EventLog, seen_by
from pbem.core.folder import REPORTS, private_reports
from pbem.core.ruleset import Ruleset
from pbem.render.templates import template


def _line(event: dict[str, Any]) -> str | None:
    kind = event["type"]
    if kind == "play":
        return ", ".join(f"{seat.title()} plays {card}" for seat, card in event["cards"].items()) + "."
    if kind == "default":
        return f"{event['power'].title()}: {event['why']}, so {event['applied']} was played."
    if kind == "ruling":
        return f"Ruling ({event['rule']}): {event['text']}"
    if kind == "tie_break":
        return "Tie: dice " + ", ".join(f"{seat.title()} {die}" for seat, die in event["dice"].items()) + "."
    if kind == "round_end":
        return f"{event['winner'].title()} wins the round." if event["winner"] else "Nobody scores."
    if kind == "game_end":
        return "The game is drawn." if event["winner"] == "draw" else f"{event['winner'].title()} wins the game."
    return None  # the turn's start and end: the seeds and commitments, shown in the footer


def render_reports(ruleset: Ruleset, before: dict[str, Any], after: dict[str, Any], log: EventLog) -> dict[str, bytes]:
    files = {}
    start = log.of_type("turn_start")[0]
    for audience in ("public", *ruleset.powers):
        view = ruleset.view(after, audience)
        model = {"game": after["game"], "round": before["round"], "audience": audience,
                 "lines": [line for e in log.events if seen_by(e, audience) and (line := _line(e))],
                 "score": after["score"], "hand": view["hands"].get(audience), "seed": start["seed"]}
        names = REPORTS if audience == "public" else private_reports(audience)
        for name in names:
            kind = name.rsplit(".", 1)[1]
            files[name] = template("pbem_high_card", f"high-card.{kind}.j2").render(model).encode("utf-8")
    return files
