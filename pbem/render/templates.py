"""What every game's reports share: the template environment (a game's own templates, then the
shared ones in `templates/`, installed as pbem.templates) with the filters that keep a player's
text on one line and free of markup, and the forums' post limit. Compiled templates are kept in the
user's cache (pbem.core.cache) for the next process."""

from __future__ import annotations

import base64
import re
import sys
from functools import cache
from importlib.resources import files
from typing import Any

import jinja2
import markupsafe

from pbem.core.cache import cache_key, read_cached, write_cached
from pbem.core.errors import CONTROL_CHARACTERS

POST_LIMIT = 60_000  # characters: phpBB's default, and near what most forums accept in one post


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once for every process: an entry is one environment's (game, escaping, jinja
    and Python) compilation of one template; jinja itself makes it again when the template's text
    changed, or the entry is not its own."""

    def __init__(self, game: str, autoescape: bool):
        self.scope = (jinja2.__version__, sys.version, game, str(autoescape))

    def _key(self, bucket: jinja2.bccache.Bucket) -> str:
        return cache_key(*self.scope, bucket.key)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        compiled = read_cached("templates", self._key(bucket))
        if compiled is not None:
            bucket.bytecode_from_string(compiled)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        write_cached("templates", self._key(bucket), bucket.bytecode_to_string())


@cache  # compiling the templates costs more than rendering them
def template_environment(game: str, autoescape: bool) -> jinja2.Environment:
    """The templates of the game whose package is `game` (its folder templates/), and those every
    game may include (pbem.templates)."""
    def load(name: str) -> str | None:
        for place in (files(game) / "templates" / name, files("pbem.templates") / name):
            if place.is_file():
                return place.read_text(encoding="utf-8")
        return None
    env = jinja2.Environment(loader=jinja2.FunctionLoader(load), autoescape=autoescape,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined,
                             bytecode_cache=CompiledTemplates(game, autoescape))
    env.filters["md"] = _markdown_text
    env.filters["bb"] = _bbcode_text
    env.filters["html"] = _html_text
    env.globals["png_board"] = png_board
    return env


def png_board(png_base64: str) -> dict[str, int]:
    """The board viewer's board (board_viewer.html.j2) for an embedded PNG without outlined spaces or
    an action to open on: the width and height its header gives (bytes 16 to 24, the first 32
    characters of its base64)."""
    header = base64.b64decode(png_base64[:32])
    return {"width": int.from_bytes(header[16:20], "big"), "height": int.from_bytes(header[20:24], "big"),
            "spaces": [], "action": None}


def template(game: str, name: str) -> jinja2.Template:
    """One of a game's templates; an HTML one (`*.html.j2`) escapes what it shows."""
    return template_environment(game, name.endswith(".html.j2")).get_template(name)


# Line breaks of every kind (str.splitlines' set), with the blanks around them. Player text stays on
# one report line, so it can start no heading, list, quote, table or setext underline of its own.
_LINE_BREAKS_ONLY = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_LINE_BREAKS = re.compile(rf"[ \t]*(?:(?:{_LINE_BREAKS_ONLY.pattern})[ \t]*)+")
_PARAGRAPH_SIGN = " \u23ce "  # " ⏎ ": where the player left a blank line
# The control characters of messages (errors.py): C0 and C1 controls, DEL, and the bidi marks,
# embeddings, overrides and isolates, which can make text read in another order than it is written.
# Line breaks and tabs are gone by the time this applies; each other is shown as its code point,
# e.g. ⟨U+202E⟩.
_CONTROLS = re.compile("[" + "".join(re.escape(chr(code)) for code in CONTROL_CHARACTERS) + "]")


def _join_lines(breaks: re.Match[str]) -> str:
    # a single break is the wrapping of a mail client and reads as a space, as in Markdown itself
    return _PARAGRAPH_SIGN if len(_LINE_BREAKS_ONLY.findall(breaks.group())) > 1 else " "


def one_line(text: Any) -> str:
    """Player text as inert plain text on one line: a line break reads as a space, a blank line as
    ⏎, a tab as a space, other control characters as their code point; surrounding blanks go."""
    joined = _LINE_BREAKS.sub(_join_lines, str(text).strip()).replace("\t", " ")
    return _CONTROLS.sub(lambda m: f"\u27e8U+{ord(m.group()):04X}\u27e9", joined)


_MARKDOWN_MARKUP = re.compile(r"([\\`*_\[\]|~])")
# what makes a block (heading, quote, list, thematic break, code fence) at the start of a line
_MARKDOWN_BLOCK_START = re.compile(r"^(?=[#+=-])|^(\d+)(?=[.)])")  # ">" is &gt; by now


def _markdown_text(text: Any) -> str:
    """Text shown as itself in Markdown: player text must not be able to form links, images,
    emphasis, code, tables or blocks, nor inject HTML (Markdown passes raw HTML through)."""
    escaped = one_line(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    escaped = _MARKDOWN_MARKUP.sub(r"\\\1", escaped)
    return _MARKDOWN_BLOCK_START.sub(lambda m: (m.group(1) or "") + "\\", escaped, count=1)


def _bbcode_text(text: Any) -> str:
    # BBCode has no escape. A tag needs its name right after "[", so a zero-width space there
    # leaves the text reading as typed (and copying as typed, bar one invisible character) while
    # no forum parser (phpBB, MyBB, SMF, vBulletin) sees a tag; forums escape HTML themselves.
    return one_line(text).replace("[", "[\u200b")


def _html_text(text: Any) -> markupsafe.Markup:
    return markupsafe.escape(one_line(text))


def within_post_limit(text: str, kind: str) -> str:
    if len(text) <= POST_LIMIT:
        return text
    warning = (f"(This {kind} report is {len(text):,} characters long, over the {POST_LIMIT:,} characters "
               "most forums accept in one post: post it in parts, splitting before a battle.)\n\n")
    return warning + text
