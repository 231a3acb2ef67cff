"""What the installed distributions add to pbem through entry point groups (the games of `pbem.games`,
the commands of `pbem.commands`), found without importing importlib.metadata in every process: that
import and the scan of every distribution cost some 30 ms, more than the whole of a small `pbem odds`.

The list is kept in pbem's cache under a key naming each folder on the import path with the time it
last changed: installing, upgrading or removing a distribution adds or removes a folder there, which
changes the key, so the next process scans again."""

from __future__ import annotations

from importlib import import_module
from typing import Any, NamedTuple

from pbem.core.cache import installed, kept_data


class Plugin(NamedTuple):
    """One entry point: its name and `module:attribute` (the object it names is loaded on demand)."""

    name: str
    value: str

    def load(self) -> Any:
        module, _, attribute = self.value.partition(":")
        found = import_module(module.strip())
        for part in attribute.strip().split(".") if attribute else ():
            found = getattr(found, part)
        return found


def plugins(group: str) -> list[Plugin]:
    """The entry points of `group`, sorted by name, as importlib.metadata finds them."""
    return [Plugin(*pair) for pair in kept_data("entry-points", [group, *installed()], lambda: _found(group))]


def _found(group: str) -> list[tuple[str, str]]:
    from importlib.metadata import entry_points
    return sorted((point.name, point.value) for point in entry_points(group=group))
