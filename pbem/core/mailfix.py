"""Undo what mail clients and editors do to YAML: tabs in indentation, no-break spaces, stray BOMs.

YAML forbids tabs in indentation and reads a no-break space as text, so a pasted file that looks
right fails to parse or names `W Russia` with an invisible difference. The repair rule, applied to
every line outside quoted strings, block scalars (`|`, `>`) and comments, which are never changed:

* in a line's indentation (its leading blanks and `- ` sequence markers) a tab counts as spaces to
  the next multiple of `TAB_WIDTH` columns, as a terminal, `less` and most mail clients show it
  (where the file then does not read, yamlio.py tries narrower tabs, and points at the tabs when
  more than one width reads it, or none);
* a no-break space (U+00A0, U+2007, U+202F) anywhere outside quotes is read as a space;
* a U+FEFF (a byte order mark) inside the text is removed; one at the very start is the file's
  encoding mark, which YAML itself skips, and is removed without a note.

Each repair gives one note per kind, naming its first line (and how many more), so the user learns
what was read differently. A repaired file gives the same data as the file written cleanly.
"""

from __future__ import annotations

import re

TAB_WIDTH = 8
NO_BREAK_SPACES = "\u00a0\u2007\u202f"
BOM = "\ufeff"
_BLANKS = " \t" + NO_BREAK_SPACES
_LINE_BREAK = re.compile("(\r\n|[\r\n\x85\u2028\u2029])")  # YAML's line breaks, so lines match its lines
_BLOCK_HEADER = re.compile(r"(?:^|(?<=\s))[|>][1-9+-]{0,2}$")

def tab_note(width: int) -> str:
    """The note of a tab read as indentation `width` columns wide."""
    return f"a tab in the indentation was read as spaces to the next multiple of {width} columns"


TAB = tab_note(TAB_WIDTH)
NO_BREAK_SPACE = "a no-break space outside quotes was read as a space"
STRAY_BOM = "an invisible U+FEFF (byte order mark) was removed"


def _width(blanks: str, column: int = 0, tab: int = TAB_WIDTH) -> int:
    """The column after `blanks` that start at `column`, a tab reaching the next multiple of `tab`."""
    for char in blanks:
        column = (column // tab + 1) * tab if char == "\t" else column + 1
    return column


def _quote_end(line: str, start: int, quote: str) -> int:
    """The index after the quote that closes a string open at `start`, or -1 if it goes on."""
    i = start
    while i < len(line):
        if quote == '"' and line[i] == "\\":
            i += 2
        elif line[i] == quote:
            if quote == "'" and line[i + 1:i + 2] == "'":  # '' is a quote inside single quotes
                i += 2
                continue
            return i + 1
        else:
            i += 1
    return -1


class _Lines:
    """The repair of one text, line by line, remembering what it did and where."""

    def __init__(self, tab: int) -> None:
        self.tab = tab  # columns a tab in the indentation reaches a multiple of
        self.quote: str | None = None  # a quoted string open at the end of the last line
        self.block: int | None = None  # a block scalar's lines are indented deeper than this
        self.found: dict[str, list[int]] = {}

    def _note(self, kind: str, number: int) -> None:
        lines = self.found.setdefault(kind, [])
        if not lines or lines[-1] != number:
            lines.append(number)

    def _indentation(self, line: str, number: int) -> tuple[list[str], int, int]:
        """The repaired indentation, where the line's content starts and at which column."""
        out, column, i = [], 0, 0
        while i < len(line):
            char = line[i]
            if char == "-" and line[i + 1:i + 2] and line[i + 1] in _BLANKS:
                out.append("-")
                column += 1
            elif char in _BLANKS:
                after = _width(char, column, self.tab)
                if char != " ":
                    self._note(tab_note(self.tab) if char == "\t" else NO_BREAK_SPACE, number)
                out.append(" " * (after - column))
                column = after
            elif char == BOM:
                self._note(STRAY_BOM, number)
            else:
                break
            i += 1
        return out, i, column

    def repair(self, line: str, number: int) -> str:
        """One line repaired; `number` counts from 1."""
        if self.block is not None:
            content = line.lstrip(_BLANKS)
            if not content or _width(line[:len(line) - len(content)], tab=self.tab) > self.block:
                return line
            self.block = None
        if self.quote is not None:
            i = _quote_end(line, 0, self.quote)
            if i < 0:
                return line
            out, code_start, column, self.quote = [line[:i]], i, 0, None
        elif line.strip(" \t"):
            out, i, column = self._indentation(line, number)
            code_start = i
        else:
            return line
        indentation, code_end = len(out), None
        while i < len(line):
            char = line[i]
            if char in "'\"" and self._opens_quote(line, i, code_start):
                end = _quote_end(line, i + 1, char)
                if end < 0:
                    self.quote = char
                    return "".join(out) + line[i:]
                out.append(line[i:end])
                i = end
                continue
            if char == "#" and (i == code_start or line[i - 1] in _BLANKS):
                code_end = len(out)
                out.append(line[i:])
                break
            if char in NO_BREAK_SPACES:
                self._note(NO_BREAK_SPACE, number)
                char = " "
            elif char == BOM:
                self._note(STRAY_BOM, number)
                char = ""
            out.append(char)
            i += 1
        content = "".join(out[indentation:code_end]).rstrip()
        if _BLOCK_HEADER.search(content):
            # a block scalar after a key holds the lines indented deeper than the key; one alone on
            # its line (`- |`) those indented as deep as itself
            self.block = column - 1 if _BLOCK_HEADER.fullmatch(content) else column
        return "".join(out)

    @staticmethod
    def _opens_quote(line: str, i: int, code_start: int) -> bool:
        """A quote opens a quoted string only where a value starts: at the line's content, after
        `[ { ,`, or after blanks that follow `: - ? [ { ,` or a tag or anchor (`!!str`, `&a`)."""
        if i == code_start or line[i - 1] in "[{,":
            return True
        if line[i - 1] not in _BLANKS:
            return False
        before = line[code_start:i].rstrip(_BLANKS)
        return not before or before[-1] in ":-?[{," or before.split()[-1][0] in "!&"


def tabs(text: str) -> list[tuple[int, int]]:
    """Where `text` holds a tab: (line, column), both from 1, so a message can point at each."""
    return [(number, line.index("\t") + 1)
            for number, line in enumerate(_LINE_BREAK.split(text)[::2], start=1) if "\t" in line]


TAB_EXPLAINED = "a tab here: YAML indents with spaces"


def explain_tabs(text: str, line: int | None) -> str:
    """Why a file with tabs may not parse near `line`: the tabs at or before it (the last few)."""
    found = [where for where in tabs(text) if line is None or where[0] <= line][-3:]
    return "; ".join(f"line {number}, column {column}: {TAB_EXPLAINED}" for number, column in found)


def repair(text: str, tab: int = TAB_WIDTH) -> tuple[str, list[tuple[int, str]]]:
    """`text` with the repairs above, and the notes: (first line, what was done) per kind; `tab`:
    the multiple of columns a tab in the indentation reaches."""
    text = text.removeprefix(BOM)
    if not any(char in text for char in "\t" + NO_BREAK_SPACES + BOM):
        return text, []
    parts = _LINE_BREAK.split(text)
    lines = _Lines(tab)
    for index in range(0, len(parts), 2):
        parts[index] = lines.repair(parts[index], index // 2 + 1)
    notes = []
    for kind, numbers in lines.found.items():
        others = len(numbers) - 1
        more = f" (and on {others} more line{'s' if others > 1 else ''})" if others else ""
        notes.append((numbers[0], kind + more))
    return "".join(parts), sorted(notes)
