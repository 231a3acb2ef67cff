"""The event log: everything that happened in a turn, in order, as plain dicts."""

from __future__ import annotations

from typing import Any

from pbem.core.yamlio import dump_json_line


def seen_by(event: dict[str, Any], audience: str) -> bool:
    """Whether `audience` (public, a role, moderator) may see the event: one with `to` is private
    to the roles it names."""
    return "to" not in event or audience in event["to"]


class EventLog:
    """An append-only list of events; each event is a dict whose first key is ``type``."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def add(self, type: str, **fields: Any) -> dict[str, Any]:
        """Record one event and return it."""
        event = {"type": type, **fields}
        self.events.append(event)
        return event

    def extend(self, events: list[dict[str, Any]]) -> None:
        """Record events produced elsewhere (for instance by a battle), keeping their order."""
        self.events.extend(events)

    def of_type(self, type: str) -> list[dict[str, Any]]:
        """The events of one type, in order."""
        return [e for e in self.events if e["type"] == type]

    def to_jsonl(self) -> str:
        """The log as JSON lines, the format of ``events.jsonl``."""
        return "".join(dump_json_line(e) + "\n" for e in self.events)
