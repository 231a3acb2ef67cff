"""Reading a file that came by mail: only a regular file, only so much of it, only inside its game.

A game folder may come from someone else. A name in it can point anywhere: at `/etc/passwd`, out
through `..` or a symbolic link, at `/dev/zero` (endless) or at a FIFO (a read that never returns).
Every input pbem reads goes through `read_input`, and every file a turn file names is first placed
with `inside_game`, so none of these is ever opened, and nothing of their content is ever shown.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from pbem.core.errors import InputError, Problem, display_path

# The largest input file. A state file of a long game is tens of kB and orders of thousands of
# moves are well under 1 MB; anything bigger is a mistake or an attack, and reading it is bounded.
MAX_INPUT_BYTES = 4 * 1024 * 1024

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def read_input(path: Path | str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, else `InputError`.

    The kind of file is checked before it is opened (opening a device can do things), and again on
    the open file, which is opened without blocking so that a FIFO swapped in between cannot hang.
    The file is named (a path resolved) only in a message: a turn reads some sixty files.
    """
    try:
        kind = _kind(os.stat(path).st_mode)
        if kind is None:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
            with os.fdopen(fd, "rb") as file:
                kind = _kind(os.fstat(file.fileno()).st_mode)
                data = file.read(limit + 1) if kind is None else b""
    except FileNotFoundError:
        raise InputError([Problem(display_path(path), None, "", "file not found")]) from None
    except OSError as exc:
        raise InputError([Problem(display_path(path), None, "", f"cannot read the file: {exc.strerror}")]) from None
    if kind is not None:
        raise InputError([Problem(display_path(path), None, "", f"not a regular file but {kind}", "a regular file")])
    if len(data) > limit:
        raise InputError([Problem(display_path(path), None, "", f"the file is larger than {limit:,} bytes",
                                  "a smaller file")])
    return data


def place_in_game(game_folder: Path, base: Path, name: str) -> tuple[Path, str | None]:
    """The file or folder `name` (relative to `base`, or absolute) resolved, symbolic links and `..`
    followed, and why it may not be used (None when it lies strictly inside `game_folder`)."""
    resolved = (base / name).resolve()
    if game_folder in resolved.parents:
        return resolved, None
    return resolved, f"{name!r} lies outside the game folder {display_path(game_folder)}"


def inside_game(game_folder: Path, path: Path) -> Path:
    """`path` resolved when it lies inside `game_folder`, else `InputError` naming it."""
    placed, why = place_in_game(game_folder, path.parent, path.name)
    if why:
        shown = Path(display_path(path.parent)) / path.name  # the link's name, not where it leads
        raise InputError([Problem(str(shown), None, "", why, "a file inside the game folder")])
    return placed
