"""The JSON Schemas of pbem's files, and validation that reports file, line and field."""

from __future__ import annotations

import difflib
import json
from functools import cache
from importlib.resources import files
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from pbem.core.errors import Problem
from pbem.core.yamlio import Document

SCHEMA_NAMES = ("orders", "standing-orders", "turn", "state")


def schema_text(name: str) -> str:
    """The schema file's text, as `pbem schema NAME` prints it."""
    if name not in SCHEMA_NAMES:
        raise KeyError(name)
    return (files("pbem.schemas") / f"{name}.schema.json").read_text(encoding="utf-8")


@cache
def _registry() -> Registry:
    resources = []
    for name in SCHEMA_NAMES:
        resources.append((f"{name}.schema.json", Resource.from_contents(json.loads(schema_text(name)))))
    return Registry().with_resources(resources).crawl()  # crawled once, not at every $ref


@cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_text(name)), registry=_registry())


def _describe(error: ValidationError) -> tuple[list[str | int], str, str | None]:
    """Field path, message and what is allowed, in words a player understands."""
    path = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
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
    if error.validator == "type":
        return path, f"{error.instance!r} is not {_article(error.validator_value)}", None
    if error.validator == "enum":
        return path, f"{error.instance!r} is not one of the choices", ", ".join(map(str, error.validator_value))
    if error.validator == "minimum":
        return path, f"{error.instance!r} is too small", f"{error.validator_value} or more"
    if error.validator == "pattern":
        return path, f"{error.instance!r} has the wrong form", schema.get("description")
    return path, error.message, None


def _article(kind: Any) -> str:
    names = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
             "boolean": "true or false", "number": "a number", "null": "empty"}
    if isinstance(kind, list):
        return " or ".join(names.get(k, k) for k in kind)
    return names.get(kind, str(kind))


def validate(name: str, doc: Document) -> list[Problem]:
    """Every schema problem of `doc` against schema `name`, in document order."""
    problems = []
    for error in _validator(name).iter_errors(doc.data):
        path, message, allowed = _describe(error)
        problems.append(doc.problem(tuple(path), message, allowed))
    return sorted(problems, key=lambda p: (p.line or 0, p.field))
