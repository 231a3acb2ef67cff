"""What pbem can make again but would rather not make in every process (compiled templates, checked
data files, a board's unchanging layers): files in the user's cache folder, each under a key that names
everything it was made from. An entry is written whole or not at all and carries its own digest, so a
torn, corrupt or foreign file reads as missing and is made again; a cache folder that cannot be written
costs only time.
An entry no process has read for UNUSED_DAYS goes when another of its kind is written: what an older
pbem or an older board made, while two pbem versions sharing the folder each keep what they read.

The folder is $PBEM_CACHE_DIR, else $XDG_CACHE_HOME/pbem, else ~/.cache/pbem."""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

_DIGEST = hashlib.sha256().digest_size
UNUSED_DAYS = 30


def cache_dir() -> Path:
    """Where this process keeps its cache (read from the environment at every call, so a test can point
    it at a folder of its own)."""
    if os.environ.get("PBEM_CACHE_DIR"):
        return Path(os.environ["PBEM_CACHE_DIR"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbem"


def cache_key(*parts: str) -> str:
    """A file name for an entry made from `parts` (each thing that, changed, must make it again)."""
    return hashlib.sha256(json.dumps(parts).encode("utf-8")).hexdigest()  # ("a", "b") is not ("a\0b",)


@cache
def source_digest(module: str) -> str:
    """The digest of a module's source (by name), for the key of what that code makes."""
    return hashlib.sha256(Path(find_spec(module).origin).read_bytes()).hexdigest()


def installed() -> list[str]:
    """What is installed, as parts of a key: each folder on the import path with the time it last changed.
    Installing, upgrading or removing a distribution adds or removes a folder in one of them."""
    folders = []
    for entry in sys.path:
        try:
            folders.append(f"{entry}\0{os.stat(entry or '.').st_mtime_ns}")
        except OSError:
            folders.append(entry)
    return folders


def kept_data(kind: str, made_from: Sequence[str], make: Callable[[], Any]) -> Any:
    """What `make()` returns, plain data (mappings, lists, text, numbers), made once for every process
    while everything it is `made_from` (digests of its files and code) stays the same: kept as marshal
    data, which Python reads back fastest. Nothing is kept when `make` raises, or returns a value
    marshal cannot write (a date): that is made again each time."""
    key = cache_key(kind, sys.version, *made_from)
    kept = read_cached(kind, key)
    if kept is not None:
        try:
            return marshal.loads(kept)
        except (EOFError, ValueError, TypeError):
            pass  # not marshal data: made again
    data = make()
    try:
        body = marshal.dumps(data)
    except ValueError:
        return data
    write_cached(kind, key, body)
    return data


def read_cached(kind: str, key: str) -> bytes | None:
    """The entry `key` of `kind`, or None when it is missing, unreadable or not what was written."""
    entry = cache_dir() / kind / key
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    body = data[_DIGEST:]
    if len(data) < _DIGEST or hashlib.sha256(body).digest() != data[:_DIGEST]:
        return None
    try:
        os.utime(entry)  # read now: kept another UNUSED_DAYS
    except OSError:
        pass
    return body


def write_cached(kind: str, key: str, body: bytes) -> None:
    """Store the entry `key` of `kind`: beside its place first, then moved there in one step, so that a
    reader in another process sees the old entry or the new one, never part of one."""
    folder = cache_dir() / kind
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, staging = tempfile.mkstemp(dir=folder, prefix=".new-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(hashlib.sha256(body).digest() + body)
            os.replace(staging, folder / key)
        except BaseException:
            os.unlink(staging)
            raise
        _prune(folder)
    except OSError:
        pass  # a read-only or full disk: the next process makes the entry again


def _prune(folder: Path) -> None:
    """Remove the entries of `folder` unread for UNUSED_DAYS (and what a killed writer left staged)."""
    unused = time.time() - UNUSED_DAYS * 86400
    for entry in os.scandir(folder):
        try:
            if entry.stat().st_mtime < unused:
                os.unlink(entry.path)
        except OSError:
            pass  # gone already, or another process's
