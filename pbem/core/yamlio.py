"""YAML in (remembering where every value stood) and canonical YAML/JSON out."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from types import GeneratorType
from typing import Any

import yaml

from pbem.core.cache import kept_data, source_digest
from pbem.core.errors import InputError, Note, Problem, display_path
from pbem.core.files import MAX_INPUT_BYTES, read_input
from pbem.core.mailfix import TAB_WIDTH, explain_tabs, repair

FieldPath = tuple[str | int, ...]


def field_name(path: FieldPath) -> str:
    """``("combat_move", 2, "units")`` -> ``combat_move[2].units``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


@dataclass
class Document:
    """A loaded YAML file: its plain data and the line of every value in it."""

    path: str
    data: Any
    lines: dict[FieldPath, int] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)  # what was repaired to read it (mailfix.py)
    sha256: str | None = None
    """Of the file's bytes as read, so a report can name exactly the file that was played."""

    def line(self, path: FieldPath) -> int | None:
        """The line of the value at `path`, or of its nearest enclosing value."""
        while True:
            if path in self.lines:
                return self.lines[path]
            if not path:
                return None
            path = path[:-1]

    def problem(self, path: FieldPath, message: str, allowed: str | None = None) -> Problem:
        """A problem located at `path` in this document."""
        return Problem(self.path, self.line(path), field_name(path), message, allowed)


# Limits on every YAML input, so that no file can cost more than a moment or a little memory.
# Each is far beyond what a real file needs: pbem's own files nest 4 levels deep and hold a few
# thousand values; orders of thousands of moves hold about 100,000 values.
MAX_DEPTH = 32  # deeper nesting would also overflow the stack of a recursive reader
MAX_NODES = 250_000  # every key and value counts; bounds the memory the data and its lines take
MAX_INTEGER_LENGTH = 24  # characters; the board counts in thousands, int64 has 19 digits
MAX_STRING_LENGTH = 10_000  # characters of one key or value: a note of several pages

_SCALARS = yaml.SafeLoader("")
# libyaml's parser, where PyYAML was built with it, is several times faster on state files
_PARSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STANDARD_TAG = "tag:yaml.org,2002:"
_INT_TAG = _STANDARD_TAG + "int"


class _Refused(Exception):
    """A limit was passed; `field` is where in the document."""

    def __init__(self, message: str, mark: Any, path: FieldPath, allowed: str):
        super().__init__(message)
        where = path[:-1] if path[-1:] == ("<key>",) else path  # a key is shown by its mapping
        self.message, self.line, self.field, self.allowed = message, mark.line + 1, field_name(where), allowed


def _scalar(event: yaml.ScalarEvent, path: FieldPath) -> Any:
    """A scalar's value by PyYAML's safe rules (which decide its type from its text and tag)."""
    if len(event.value) > MAX_STRING_LENGTH:
        raise _Refused(f"a text of {len(event.value):,} characters", event.start_mark, path,
                       f"at most {MAX_STRING_LENGTH:,} characters")
    tag = event.tag
    if tag is None or tag == "!":
        tag = _SCALARS.resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag == _INT_TAG and len(event.value) > MAX_INTEGER_LENGTH:
        raise _Refused(f"a number of {len(event.value)} characters", event.start_mark, path,
                       f"at most {MAX_INTEGER_LENGTH} characters")
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
    constructor = _SCALARS.yaml_constructors.get(tag, _SCALARS.yaml_constructors[None])
    try:
        value = constructor(_SCALARS, node)
        if isinstance(value, GeneratorType):  # a collection's tag on a scalar: PyYAML's error
            steps = value
            value = next(steps)
            for _ in steps:
                pass
    except Exception as exc:
        # PyYAML's constructors fail in many ways on text they cannot read: `!!bool x` a KeyError,
        # `!!int ""` an IndexError, `2001-02-30` a ValueError, an unknown tag a ConstructorError.
        # Each is the player's value, refused where it stands.
        allowed = "the value in quotes, to read it as text" if event.tag in (None, "!") else \
            "the value without its tag"
        if tag in _SCALARS.yaml_constructors:
            allowed = f"a value that {_short_tag(tag)} accepts, or {allowed}"
        raise _Refused(_unreadable(event, tag, exc), event.start_mark, path, allowed) from None
    return value


def _short_tag(tag: str) -> str:
    """``tag:yaml.org,2002:int`` -> ``!!int``, as the tag is written in a file."""
    return "!!" + tag[len(_STANDARD_TAG):] if tag.startswith(_STANDARD_TAG) else tag


def _unreadable(event: yaml.ScalarEvent, tag: str, exc: Exception) -> str:
    shown = event.value if len(event.value) <= 40 else event.value[:40] + "…"
    if tag not in _SCALARS.yaml_constructors:
        return f"{shown!r} has the tag {_short_tag(tag)}, which pbem does not read"
    reason = getattr(exc, "problem", None) if isinstance(exc, yaml.YAMLError) else None
    return f"{shown!r} cannot be read as {_short_tag(tag)}" + (f" ({reason})" if reason else "")


class _Collection:
    """A mapping or sequence being read: its data, where it is, and the key awaiting its value."""

    __slots__ = ("data", "path", "key", "key_line")

    def __init__(self, data: dict | list, path: FieldPath):
        self.data, self.path, self.key, self.key_line = data, path, None, 0

    def child_path(self) -> FieldPath:
        """Where the next value goes (a mapping's key has no path of its own)."""
        if isinstance(self.data, list):
            return self.path + (len(self.data),)
        return self.path + ("<key>",) if self.key is None else self.path + (self.key,)

    def add(self, value: Any, event: yaml.Event, lines: dict[FieldPath, int]) -> None:
        """Take the next key or value."""
        if isinstance(self.data, list):
            self.data.append(value)
            return
        if self.key is None:
            if isinstance(value, (dict, list)):
                raise yaml.constructor.ConstructorError(None, None, "a key must be a plain value",
                                                        event.start_mark)
            key = value if isinstance(value, str) else str(value)
            if key in self.data:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", event.start_mark)
            self.key, self.key_line = key, event.start_mark.line + 1
            return
        self.data[self.key] = value
        lines[self.path + (self.key,)] = self.key_line  # a value is found by its key's line
        self.key = None


def _compose(loader: yaml.SafeLoader) -> tuple[Any, dict[FieldPath, int]]:
    """Build the data from the parser's events, without recursion, counting depth and nodes, and
    refusing anchors and aliases (orders never need them, pbem never writes them, and an alias can
    make a small file expand without end)."""
    lines: dict[FieldPath, int] = {}
    open_: list[_Collection] = []
    data, nodes = None, 0
    loader.get_event()  # the stream's start
    if loader.check_event(yaml.StreamEndEvent):
        return None, lines
    loader.get_event()  # the document's start
    while not loader.check_event(yaml.DocumentEndEvent):
        event = loader.get_event()
        path = open_[-1].child_path() if open_ else ()
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            done = open_.pop()
            value = done.data
            path = done.path
        elif isinstance(event, yaml.AliasEvent) or event.anchor is not None:
            raise _Refused("an anchor or alias (&name, *name)", event.start_mark, path,
                           "every value written out where it is used")
        else:
            nodes += 1
            if nodes > MAX_NODES:
                raise _Refused(f"more than {MAX_NODES:,} keys and values", event.start_mark, path,
                               "a smaller file")
            if path[-1:] != ("<key>",):
                lines[path] = event.start_mark.line + 1
            if isinstance(event, yaml.ScalarEvent):
                value = _scalar(event, path)
            else:
                if len(open_) >= MAX_DEPTH:
                    raise _Refused(f"nested more than {MAX_DEPTH} levels deep", event.start_mark, path,
                                   f"at most {MAX_DEPTH} levels")
                if open_ and open_[-1].key is None and isinstance(open_[-1].data, dict):
                    raise yaml.constructor.ConstructorError(None, None, "a key must be a plain value",
                                                            event.start_mark)
                open_.append(_Collection({} if isinstance(event, yaml.MappingStartEvent) else [], path))
                continue
        if open_:
            open_[-1].add(value, event, lines)
        else:
            data = value
    loader.get_event()
    if not loader.check_event(yaml.StreamEndEvent):
        event = loader.get_event()
        raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                          "but found another document", event.start_mark)
    return data, lines


def load_packaged(text: str) -> Any:
    """YAML that pbem ships (a game's data files), parsed once for every process (`kept_data`): libyaml's
    parser still builds each value in Python (7 ms for the Revised board, whose copy reads back in 0.2 ms)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return kept_data("packaged-yaml", [*reader(), digest], lambda: yaml.load(text, Loader=_PARSER))


def reader() -> list[str]:
    """What YAML is read with here (this code and PyYAML's version), for the key of what is made from it."""
    return [source_digest(__name__), yaml.__version__]


def file_digests(folder: Path, paths: list[Path]) -> list[str]:
    """Each file's place in `folder` and the digest of its bytes ("unreadable" where it cannot be read:
    its loader says why), for the key of what is made from them (`kept_data`)."""
    digests = []
    for path in paths:
        try:
            digests.append(f"{path.relative_to(folder)}\0{hashlib.sha256(read_input(path)).hexdigest()}")
        except InputError:
            digests.append(f"{path.relative_to(folder)}\0unreadable")
    return digests


def read_text(path: Path | str) -> str:
    """A bounded regular file's text as UTF-8, else `InputError` naming the file."""
    return _decode(read_input(path), path)


def _decode(data: bytes, path: Path | str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError([Problem(display_path(path), data.count(b"\n", 0, exc.start) + 1, "",
                                  "not UTF-8 text", "a file saved as UTF-8")]) from None


def load_json_lines(path: Path | str) -> list[Any]:
    """A JSON-lines file (an event log) read with the same bounds as every input, else `InputError`
    naming the line."""
    shown, values = display_path(path), []
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        if not line:
            continue
        try:
            values.append(json.loads(line))
        except (ValueError, RecursionError) as exc:  # a digit run too long, nesting too deep
            reason = exc.args[0] if isinstance(exc, ValueError) else "nested too deeply"
            raise InputError([Problem(shown, number, "", f"not valid JSON: {reason}")]) from None
    return values


def load_document(path: Path | str) -> Document:
    """Load one YAML file; a syntax error becomes an `InputError` with the file and line."""
    data = read_input(path)
    doc = parse_document(_decode(data, path), display_path(path))
    doc.sha256 = hashlib.sha256(data).hexdigest()
    return doc


def parse_document(text: str, shown: str) -> Document:
    """Parse YAML text named `shown` in messages, after repairing what mail clients do to it."""
    if len(text) > MAX_INPUT_BYTES:
        raise InputError([Problem(shown, None, "", f"longer than {MAX_INPUT_BYTES:,} characters",
                                  "a smaller file")])
    try:
        return _parse(text, shown, TAB_WIDTH)
    except _NotYaml as exc:
        if "\t" not in text:
            raise InputError([Problem(shown, exc.line, "", f"not valid YAML: {exc.reason}")]) from None
        readings = []
        for tab in OTHER_TAB_WIDTHS:
            try:
                readings.append(_parse(text, shown, tab))
            except _NotYaml:
                pass
        if readings and all(doc.data == readings[0].data for doc in readings):
            return readings[0]  # every tab width that reads the file reads the same: the tabs are unambiguous
        raise InputError([_not_yaml(shown, exc.line, exc.reason, text)]) from None


OTHER_TAB_WIDTHS = (4, 2)
"""Tab widths tried when a file with tabs does not read with `TAB_WIDTH`: editors and mail clients
that indent by a tab often show it 4 or 2 columns wide."""


class _NotYaml(Exception):
    """A syntax error: `reason` in words, at `line`."""

    def __init__(self, line: int | None, reason: str):
        super().__init__(reason)
        self.line, self.reason = line, reason


def _parse(text: str, shown: str, tab: int) -> Document:
    """`text` read with tabs in the indentation `tab` columns wide; `_NotYaml` for a syntax error."""
    text, repairs = repair(text, tab)
    loader = _PARSER(text)
    try:
        data, lines = _compose(loader)
    except _Refused as exc:
        raise InputError([Problem(shown, exc.line, exc.field, exc.message, exc.allowed)]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark else None
        reason = getattr(exc, "problem", None) or str(exc)
        context, started = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and started and started.line + 1 != line:
            reason += f" ({context} that starts on line {started.line + 1})"
        if "nesting depth" in reason:  # newer libyaml stops very deep flow nesting before our count does
            raise InputError([Problem(shown, line, "", f"nested more than {MAX_DEPTH} levels deep",
                                      f"at most {MAX_DEPTH} levels")]) from None
        raise _NotYaml(line, reason) from None
    finally:
        loader.dispose()
    return Document(shown, data, lines, [Note(shown, line, what) for line, what in repairs])


def _not_yaml(shown: str, line: int | None, reason: str, original: str) -> Problem:
    """A syntax error in a file with tabs, explained by the tabs before it: a tab read as spaces to
    the next multiple of `TAB_WIDTH` columns is the likeliest cause of a misplaced key."""
    tabs = explain_tabs(original, line) or explain_tabs(original, None)
    return Problem(shown, line, "", f"not valid YAML: {reason}; {tabs}",
                   f"spaces in place of each tab, indenting the line as deep as the lines it belongs with "
                   f"(a tab was read as spaces to the next multiple of {TAB_WIDTH} columns)")


class _Dumper(yaml.SafeDumper):
    """Block style for nesting, flow style for the innermost small mappings, no aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_dict(dumper: yaml.SafeDumper, data: dict) -> yaml.Node:
    flat = all(not isinstance(v, (dict, list)) for v in data.values())
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flat and bool(data))


def _represent_list(dumper: yaml.SafeDumper, data: list) -> yaml.Node:
    flat = all(not isinstance(v, (dict, list)) for v in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flat)


_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(list, _represent_list)


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=False)


def _nested(value: Any) -> bool:
    return isinstance(value, (dict, list))


# Parts of mappings written before, by the repr of the part (which tells apart 1, '1', 1.0 and True):
# a turn's state differs from the last in a few places, so `pbem verify` and the mail loop write
# again only those. Emptied when full, so that a long process holds at most this many.
_WRITTEN: dict[str, str] = {}
_MAX_WRITTEN = 4096


def _remembered(part: dict) -> str:
    key = repr(part)
    text = _WRITTEN.get(key)
    if text is None:
        if len(_WRITTEN) >= _MAX_WRITTEN:
            _WRITTEN.clear()
        text = _WRITTEN[key] = _written(part)
    return text


def _written(part: dict) -> str:
    """A block mapping; one whose only entry holds a mapping of several nested values (the units by
    space) written as that entry's line and each of those values' lines, each remembered."""
    if len(part) == 1:
        ((key, value),) = part.items()
        if isinstance(value, dict) and len(value) > 1 and all(_nested(v) for v in value.values()):
            entries = [_remembered({key: {k: v}}) for k, v in value.items()]
            header = entries[0][:entries[0].index("\n") + 1]
            if not header.startswith("?"):  # a simple key, on a line of its own
                return header + "".join(entry[len(header):] for entry in entries)
    return _dump(part)


def dump_yaml(data: Any) -> str:
    """Canonical YAML: keys in the order given (callers order them), same data -> same bytes.

    A mapping in block style (one holding a mapping or list) is its entries' lines one after the
    other, each written as it would be alone: it is written in parts, each ending with a nested
    value, and a part written before is not written again."""
    if not isinstance(data, dict) or not any(_nested(v) for v in data.values()):
        return _dump(data)
    parts, part = [], {}
    for key, value in data.items():
        part[key] = value
        if _nested(value):
            parts.append(part)
            part = {}
    if part:  # plain values after the last nested one end the last part: alone they would be a flow mapping
        parts[-1].update(part)
    return "".join(_remembered(p) for p in parts)


def dump_json_line(data: Any) -> str:
    """One event as one line of canonical JSON."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
