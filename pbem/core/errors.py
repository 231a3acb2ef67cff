"""The one error type users see: every problem names the file, the line and the field."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

# Characters that would act on the reader's terminal instead of being shown: C0 controls (ESC starts
# colour and cursor sequences, CR rewrites a line), DEL, C1 controls, the Unicode line and paragraph
# separators and the bidirectional overrides that reorder what is shown. A player's file names, keys
# and values reach messages, so every message shows these escaped, as Python writes them. This is
# the one list: every game's reports (the template filters of pbem/render/templates.py) show the same characters in
# their own way.
CONTROL_CHARACTERS: tuple[int, ...] = (*range(0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F,
                                       0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_ESCAPED = {code: repr(chr(code))[1:-1] for code in CONTROL_CHARACTERS}
_ESCAPED_KEEPING_LINES = {code: text for code, text in _ESCAPED.items() if code != ord("\n")}


def escape_controls(text: str, keep_newlines: bool = False) -> str:
    """`text` with every control character written as an escape (`\\x1b`, `\\r`, `\\u202e`);
    `keep_newlines` keeps line feeds, for messages pbem itself writes on several lines."""
    return text.translate(_ESCAPED_KEEPING_LINES if keep_newlines else _ESCAPED)


def choices(names: Iterable[str], none_because: str) -> str:
    """What is allowed, listed; where nothing is, why, for a message never offers an empty list."""
    return ", ".join(names) or f"nothing: {none_because}"


def _where(file: str, line: int | None) -> str:
    return escape_controls(f"{file}:{line}" if line else file)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file.

    `field` is a dotted path into the document (``combat_move[2].units.tank``); `allowed` says what
    would have been accepted, so the message can tell the user how to fix it.
    """

    file: str
    line: int | None
    field: str
    message: str
    allowed: str | None = None

    def __str__(self) -> str:
        text = f"{_where(self.file, self.line)}: {escape_controls(self.field or '(document)')}: " \
               f"{escape_controls(self.message, keep_newlines=True)}"
        if self.allowed:
            text += f" (allowed: {escape_controls(self.allowed)})"
        return text


@dataclass(frozen=True)
class Note:
    """Something pbem did to read a file that the user should know of (a repaired indentation)."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"{_where(self.file, self.line)}: {escape_controls(self.message)}"


class InputError(Exception):
    """Raised with every problem found, never just the first; nothing has been written when it is."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def display_path(path: Path | str) -> str:
    """A path as the user should read it in a message: relative to the working folder when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(_working_folder(os.getcwd())))
    except ValueError:
        return str(p)


@lru_cache(maxsize=4)
def _working_folder(cwd: str) -> Path:
    return Path(cwd).resolve()  # every file a turn reads is named with it: resolved once per folder
