"""The JSON Schemas of pbem's files, and validation that reports file, line and field."""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from dataclasses import replace
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Mapping

import yaml

from pbem.core.cache import cache_key, installed, read_cached, write_cached
from pbem.core.errors import Problem
from pbem.core.yamlio import Document

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_NAMES = ("orders", "standing-orders", "turn", "state", "players")


CORE_SCHEMAS = "pbem.schemas"
"""The core's package of schemas: the turn file, the players file and the state envelope. A game's own
schemas lie in its package (`Ruleset.schema_package`) and refer to nothing outside it."""


GAME_SCHEMAS = ("orders", "standing-orders", "state")
"""The schemas each game family has of its own; the core has the turn file's and a state envelope."""


def _file(name: str, package: str = CORE_SCHEMAS) -> dict[str, Any]:
    if name not in SCHEMA_NAMES:
        raise KeyError(name)
    if name in ("turn", "players"):
        package = CORE_SCHEMAS
    path = files(package) / f"{name}.schema.json"
    if not path.is_file():
        raise KeyError(f"{name} belongs to a game: name the game's ruleset")
    return json.loads(path.read_text(encoding="utf-8"))


# a schema names its neighbours in its own folder by their file name
_OTHER_FILE = re.compile(r"^([a-z-]+)\.schema\.json#/\$defs/(\w+)$")


def schema_data(name: str, ruleset: str | None = None, names: Mapping[str, Mapping[str, str]] | None = None,
                package: str | None = None) -> dict[str, Any]:
    """Schema `name` as one self-contained document, with a game's names when a ruleset is given.

    The files refer to each other by relative paths (`orders.schema.json#/$defs/space`), which
    editors and check-jsonschema resolve beside the file; a schema printed or saved elsewhere has no
    neighbours, so every definition it uses from another file is copied into its own `$defs`.
    `names` (`Ruleset.names()`: kind -> spelling -> canonical name) turns the definitions of powers,
    unit types, developments and spaces into lists an editor completes; `ruleset` fixes the id.
    `package` is the package of schemas to read (default: the ruleset's, `Ruleset.schema_package`, or
    the core's when no ruleset is given).
    """
    if package is None:
        from pbem.rulesets import get_ruleset  # the registry imports the core: not at module level
        package = get_ruleset(ruleset).schema_package if ruleset else CORE_SCHEMAS
    schema = _file(name, package)
    defs = schema.setdefault("$defs", {})
    pending = [schema]
    while pending:
        node = pending.pop()
        for value in (node.values() if isinstance(node, dict) else node):
            if isinstance(value, (dict, list)):
                pending.append(value)
        ref = node.get("$ref") if isinstance(node, dict) else None
        match = _OTHER_FILE.match(ref) if isinstance(ref, str) else None
        if match:
            other, definition = match.groups()
            node["$ref"] = f"#/$defs/{definition}"
            if definition not in defs:
                # its own references point into its file: name that file so they are copied too
                text = json.dumps(_file(other, package)["$defs"][definition])
                defs[definition] = json.loads(text.replace('"#/$defs/', f'"{other}.schema.json#/$defs/'))
                pending.append(defs[definition])
    if ruleset is not None:
        schema["title"] += f" ({ruleset})"
        if "ruleset" in defs:
            defs["ruleset"] = {**defs["ruleset"], "enum": [ruleset]}
    for kind, spellings in (names or {}).items():
        if kind in defs:
            defs[kind] = {**defs[kind], "enum": list(spellings)}
    return schema


def schema_text(name: str, ruleset: str | None = None, names: Mapping[str, Mapping[str, str]] | None = None,
                package: str | None = None) -> str:
    """`schema_data` as `pbem schema NAME` prints it."""
    return json.dumps(schema_data(name, ruleset, names, package), indent=2, ensure_ascii=False) + "\n"


@cache
def _validator(name: str, package: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator  # a command that validates nothing never loads it (issue 27)
    return Draft202012Validator(schema_data(name, package=package))


def _describe(error: ValidationError, root: dict[str, Any]) -> tuple[list[str | int], str, str | None]:
    """Field path, message and what is allowed, in words a player understands."""
    path = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator in ("oneOf", "anyOf"):
        branches = [_resolve(branch, root) for branch in error.validator_value]
        fitting = [branch for branch in branches if _fits_type(error.instance, branch)]
        if len(fitting) == 1 and error.context:  # the form was right: say what inside it was wrong
            inner = [e for e in error.context if e.schema_path and e.schema_path[0] == branches.index(fitting[0])]
            if inner:
                return _describe(inner[0], root)
        return path, f"expected {'; or '.join(_form(branch, root) for branch in branches)}; got " \
                     f"{_shape(error.instance)}", schema.get("description")
    if error.validator == "type":
        expected = _form({**schema, "type": error.validator_value}, root)
        return path, f"expected {expected}; got {_shape(error.instance)}", None
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = sorted(schema.get("properties", {}))
        unexpected = [k for k in error.instance if k not in schema.get("properties", {})]
        key = unexpected[0] if unexpected else ""
        close = difflib.get_close_matches(str(key), known, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return path + [key], f"unknown field {key!r}{hint}", ", ".join(known) or None
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        return path, f"missing required field {missing!r}", None
    if error.validator == "enum":
        return path, f"{error.instance!r} is not one of the choices", ", ".join(map(str, error.validator_value))
    if error.validator == "minimum":
        return path, f"{error.instance!r} is too small", f"{error.validator_value} or more"
    if error.validator in ("minProperties", "maxProperties") and isinstance(error.instance, dict):
        bound = "at least" if error.validator == "minProperties" else "at most"
        return (path, f"{error.instance!r} has {len(error.instance)} entries, {bound} {error.validator_value}",
                schema.get("description"))
    if error.validator == "pattern":
        return path, f"{error.instance!r} has the wrong form", schema.get("description")
    return path, error.message, None


def _resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its `$ref` (into the root's `$defs`) followed, its own keywords kept."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/$defs/"):
        target = root.get("$defs", {}).get(schema["$ref"].removeprefix("#/$defs/"), {})
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema if isinstance(schema, dict) else {}


_JSON_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _fits_type(value: Any, schema: dict[str, Any]) -> bool:
    kinds = schema.get("type")
    if "const" in schema or "enum" in schema or kinds is None:
        return value in schema.get("enum", [schema.get("const", value)])
    for kind in kinds if isinstance(kinds, list) else [kinds]:
        if kind in ("integer", "number"):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True
        elif isinstance(value, _JSON_TYPES.get(kind, ())):
            return True
    return False


def _form(schema: dict[str, Any], root: dict[str, Any]) -> str:
    """A schema's form in words, with a short example in YAML where the schema gives or implies one."""
    if "const" in schema:
        return f"`{_yaml(schema['const'])}`"
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    example = _example(schema, root)
    words = _article(schema.get("type", "value"))
    return f"{words} such as `{_yaml(example)}`" if example is not None else words


def _example(schema: dict[str, Any], root: dict[str, Any]) -> Any:
    """The schema's first `examples` entry, else a list of its items' first two choices or examples."""
    if schema.get("examples"):
        return schema["examples"][0]
    if schema.get("type") == "array" and "items" in schema:
        items = _resolve(schema["items"], root)
        return items.get("enum", items.get("examples", []))[:2] or None
    return None


def _yaml(value: Any) -> str:
    """`value` as it is written in a YAML file, on one line."""
    return yaml.safe_dump(value, default_flow_style=True, width=1000).removesuffix("\n...\n").strip()


def _shape(value: Any) -> str:
    """What a player wrote, by its form: a mapping, a list, `3`, `Ukraine`."""
    if isinstance(value, dict):
        return "a mapping" if value else "an empty mapping"
    if isinstance(value, list):
        return "a list" if value else "an empty list"
    return f"`{_yaml(value)}`" if value is not None else "nothing"


def _article(kind: Any) -> str:
    names = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
             "boolean": "true or false", "number": "a number", "null": "empty"}
    if isinstance(kind, list):
        return " or ".join(names.get(k, k) for k in kind)
    return names.get(kind, str(kind))


def validate(name: str, doc: Document, package: str = CORE_SCHEMAS) -> list[Problem]:
    """Every schema problem of `doc` against schema `name` of a ruleset's `package`, in document order.

    Data found valid is known valid in every process after, while the schema and what is installed stay
    the same: a turn's files, checked as they arrive, are not checked again when it is adjudicated,
    re-adjudicated or verified, and a process that meets only such data never imports jsonschema (0.05 s)."""
    known = _verdict_key(name, package, doc.data)
    if read_cached(VALID, known) is not None:
        return []
    problems = []
    for error in _validator(name, package).iter_errors(doc.data):
        path, message, allowed = _describe(error, _validator(name, package).schema)
        problems.append(doc.problem(tuple(path), message, allowed))
    if not problems:
        write_cached(VALID, known, b"")
    return sorted(problems, key=lambda p: (p.line or 0, p.field))


VALID = "valid-data"


@cache
def _schema_digest(name: str, package: str) -> str:
    return hashlib.sha256(schema_text(name, package=package).encode("utf-8")).hexdigest()


def _verdict_key(name: str, package: str, data: Any) -> str:
    # repr tells apart what JSON would not (the key 1 from the key "1"); plain data reads back the same
    return cache_key(VALID, _schema_digest(name, package), *installed(),
                     hashlib.sha256(repr(data).encode("utf-8")).hexdigest())


def _top_field(problem: Problem) -> str:
    return re.split(r"[.\[]", problem.field, maxsplit=1)[0]


def without_refused(doc: Document, refused: list[Problem], name: str, package: str,
                    keep: str) -> tuple[Document | None, list[str]]:
    """`doc` without each top-level field a schema problem lies in, and those fields, when the rest is
    valid and still names its role (`keep`): the game's own checks can then run on the rest, so that
    one misspelt field does not hide every other problem (an overspend behind `combat_moves`). None
    when a problem lies in the document itself or in `keep`."""
    fields = sorted({_top_field(p) for p in refused})
    if not isinstance(doc.data, dict) or "" in fields or keep in fields:
        return None, fields
    rest = replace(doc, data={k: v for k, v in doc.data.items() if k not in fields})
    return (rest if not validate(name, rest, package) else None), fields


def found_without(problems: list[Problem], fields: list[str]) -> list[Problem]:
    """The game's problems with the rest of a file, each saying it was found with the refused fields
    left out (a problem that follows from leaving them out reads as such)."""
    note = f" (found with {', '.join(fields)} left out, as refused above)"
    return [Problem(p.file, p.line, p.field, p.message + note, p.allowed) for p in problems]
