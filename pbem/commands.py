"""What every command of pbem shares, the core's (cli.py) and those a game adds through the entry point
group `pbem.commands`: failing with every problem listed, printing JSON, finding a ruleset by id; and an
exit that leaves the process's objects to the system."""

from __future__ import annotations

import atexit
import gc
import json
from typing import NoReturn

import typer

from pbem.core.errors import InputError
from pbem.core.ruleset import Ruleset
from pbem.rulesets import get_ruleset

GROUP = "pbem.commands"

# A command is one process, and most of its objects are the libraries it imports (matplotlib, numpy,
# jsonschema), which live to its end. The collector looks at the youngest objects every 10,000 new
# ones rather than every 700, which walked those again and again (some 15 ms of a turn); and at the
# exit its last collections would walk them all (0.1 s) to free memory the system takes back anyway:
# they are frozen then. Freezing only keeps the collector off them: later exit callbacks still run
# and every module is still torn down.
gc.set_threshold(10_000, 10, 10)
atexit.register(gc.freeze)


def fail(error: InputError, outcome: str = "nothing was written") -> NoReturn:
    """Every problem of `error` on stderr under one line saying what became of the command; exit code 1."""
    count = len(error.problems)
    typer.echo(f"error: {count} problem{'s' if count != 1 else ''}; {outcome}", err=True)
    for problem in error.problems:
        typer.echo(f"  {problem}", err=True)
    raise typer.Exit(code=1)


def print_json(data: dict) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def ruleset_or_exit(ruleset_id: str) -> Ruleset:
    """The ruleset called `ruleset_id`, or a message listing the known ones and exit code 1."""
    try:
        return get_ruleset(ruleset_id)
    except KeyError as exc:
        typer.echo(f"error: unknown ruleset {ruleset_id!r} (allowed: {exc.args[0]})", err=True)
        raise typer.Exit(code=1)
