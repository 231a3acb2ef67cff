"""YAML in (remembering where every value stood) and canonical YAML/JSON out."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pbem.core.errors import InputError, Problem, display_path

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


_SCALARS = yaml.SafeLoader("")
# libyaml's parser, where PyYAML was built with it, is several times faster on state files
_PARSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _walk(node: yaml.Node, path: FieldPath, lines: dict[FieldPath, int]) -> Any:
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _walk(key_node, path + ("<key>",), {})
            if isinstance(key, (dict, list)):
                raise yaml.constructor.ConstructorError(None, None, "a key must be a plain value", key_node.start_mark)
            key = str(key) if not isinstance(key, str) else key
            if key in result:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r}", key_node.start_mark)
            result[key] = _walk(value_node, path + (key,), lines)
            lines[path + (key,)] = key_node.start_mark.line + 1
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_walk(item, path + (i,), lines) for i, item in enumerate(node.value)]
    return _SCALARS.construct_object(node, deep=True)  # PyYAML's safe rules decide the type


def load_document(path: Path | str) -> Document:
    """Load one YAML file; a syntax error becomes an `InputError` with the file and line."""
    shown = display_path(path)
    try:
        raw = Path(path).read_bytes()
        text = raw.decode("utf-8")
    except FileNotFoundError:
        raise InputError([Problem(shown, None, "", "file not found")]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError([Problem(shown, None, "", f"cannot read the file: {exc}")]) from None
    doc = parse_document(text, shown)
    doc.sha256 = hashlib.sha256(raw).hexdigest()
    return doc


def parse_document(text: str, shown: str) -> Document:
    """Parse YAML text named `shown` in messages."""
    try:
        node = yaml.compose(text, Loader=_PARSER)
        lines: dict[FieldPath, int] = {}
        data = _walk(node, (), lines) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark else None
        reason = getattr(exc, "problem", None) or str(exc)
        context, started = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and started and started.line + 1 != line:
            reason += f" ({context} that starts on line {started.line + 1})"
        raise InputError([Problem(shown, line, "", f"not valid YAML: {reason}")]) from None
    return Document(shown, data, lines)


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


def dump_yaml(data: Any) -> str:
    """Canonical YAML: keys in the order given (callers order them), same data -> same bytes."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100,
                     default_flow_style=False)


def dump_json_line(data: Any) -> str:
    """One event as one line of canonical JSON."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
