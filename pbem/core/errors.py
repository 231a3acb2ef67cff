"""The one error type users see: every problem names the file, the line and the field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


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
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = f"{where}: {self.field or '(document)'}: {self.message}"
        if self.allowed:
            text += f" (allowed: {self.allowed})"
        return text


class InputError(Exception):
    """Raised with every problem found, never just the first; nothing has been written when it is."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def display_path(path: Path | str) -> str:
    """A path as the user should read it in a message: relative to the working folder when inside it."""
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)
