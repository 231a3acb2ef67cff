"""What the installed distributions add to pbem through entry point groups (the games of `pbem.games`,
the commands of `pbem.commands`), found without importing importlib.metadata in every process: that
import and the scan of every distribution cost some 30 ms, more than the whole of a small `pbem odds`.

The list is kept in pbem's cache under a key naming each folder on the import path with the time it
last changed: installing, upgrading or removing a distribution adds or removes a folder there, which
changes the key, so the next process scans again."""

from __future__ import annotations

import json
import os
import sys
from importlib import import_module
from typing import Any, NamedTuple

from pbem.core.cache import cache_key, read_cached, write_cached


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


def _import_path_key(group: str) -> str:
    folders = []
    for entry in sys.path:
        try:
            folders.append(f"{entry}\0{os.stat(entry or '.').st_mtime_ns}")
        except OSError:
            folders.append(entry)
    return cache_key("entry-points", group, sys.version, *folders)


def plugins(group: str) -> list[Plugin]:
    """The entry points of `group`, sorted by name, as importlib.metadata finds them."""
    key = _import_path_key(group)
    kept = read_cached("entry-points", key)
    if kept is not None:
        return [Plugin(*pair) for pair in json.loads(kept)]
    from importlib.metadata import entry_points
    found = sorted((Plugin(point.name, point.value) for point in entry_points(group=group)),
                   key=lambda plugin: plugin.name)
    write_cached("entry-points", key, json.dumps(found).encode("utf-8"))
    return found
