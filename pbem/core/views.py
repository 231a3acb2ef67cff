"""A role's view of the position as a file, `view-ROLE.yaml`, written beside the state of a game with
secrets at its start and after every turn, and mailed to the role's player in place of the state.

It is the state as that role may see it (`Ruleset.view_state`), headed by ``view: ROLE``: every card
the role may not know is `UNSEEN`, so that `pbem validate` checks the role's orders on it exactly as
on the whole state. In a game without secrets the state is every role's view, and no view file is
written.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pbem.core.errors import Problem
from pbem.core.folder import STATE_FILE
from pbem.core.ruleset import Ruleset
from pbem.core.yamlio import Document, dump_yaml

VIEW_FIELD = "view"


def view_name(role: str) -> str:
    """The file name of `role`'s view."""
    return f"view-{role}.yaml"


def is_view(name: str) -> bool:
    """Whether a file name is a view's."""
    return name.startswith("view-") and name.endswith(".yaml")


def view_files(ruleset: Ruleset, state: dict[str, Any]) -> dict[str, bytes]:
    """Every role's view file of `state` by file name; none in a game without secrets."""
    if not ruleset.hidden_information:
        return {}
    return {view_name(role): dump_yaml({VIEW_FIELD: role, **ruleset.view_state(state, role)}).encode("utf-8")
            for role in ruleset.powers}


def split_view(doc: Document) -> tuple[Document, str | None]:
    """A state or view file as a state (without its ``view`` line) and the role whose view it is
    (None: the whole state)."""
    if not isinstance(doc.data, dict) or VIEW_FIELD not in doc.data:
        return doc, None
    data = {key: value for key, value in doc.data.items() if key != VIEW_FIELD}
    return dataclasses.replace(doc, data=data), doc.data[VIEW_FIELD]


def view_problems(doc: Document, role: Any, ruleset: Ruleset) -> list[Problem]:
    """What is wrong with the ``view`` line of a view file."""
    if not ruleset.hidden_information:
        return [doc.problem((VIEW_FIELD,), f"{ruleset.name} has no secrets: its state is every role's view",
                            "the state file, without a view line")]
    if role not in ruleset.powers:
        return [doc.problem((VIEW_FIELD,), f"{role!r} is not a role of {ruleset.name}", ", ".join(ruleset.powers))]
    return []


def position_files(ruleset: Ruleset, state: dict[str, Any], roles: list[str]) -> dict[str, bytes]:
    """What a player of `roles` is sent of the position to check orders on: each role's view, or
    the state itself in a game without secrets."""
    if not ruleset.hidden_information:
        return {STATE_FILE: dump_yaml(state).encode("utf-8")}
    views = view_files(ruleset, state)
    return {view_name(role): views[view_name(role)] for role in roles}
