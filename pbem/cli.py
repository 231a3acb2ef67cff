"""The `pbem` command line. Messages go to stderr; the exit code is 0 only on success."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
import yaml

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.game import Verified, new_game, seed_for_turn, verify_game
from pbem.core.schemas import SCHEMA_NAMES, schema_text, validate
from pbem.core.turn import check_output, load_turn, resolve_turn, turn_lock, write_outputs
from pbem.core.yamlio import Document, load_document
from pbem.rulesets import RULESETS, get_ruleset

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Play-by-email adjudicator for World War II board games.")


def _fail(error: InputError, outcome: str = "nothing was written") -> None:
    count = len(error.problems)
    typer.echo(f"error: {count} problem{'s' if count != 1 else ''}; {outcome}", err=True)
    for problem in error.problems:
        typer.echo(f"  {problem}", err=True)
    raise typer.Exit(code=1)


def _load_state(path: Path) -> Document:
    """A state file that passes its schema, else `InputError`."""
    doc = load_document(path)
    problems = validate("state", doc)
    if problems:
        raise InputError(problems)
    return doc


def _renderer():
    from pbem.render.report import render_reports
    return render_reports


@app.command()
def new(ruleset: str = typer.Argument(..., help=f"Ruleset id: {', '.join(RULESETS)}."),
        folder: Path = typer.Argument(..., help="The new game folder (must not exist or be empty)."),
        game: str = typer.Option("", help="The game's name, shown in every report; default the folder name."),
        option: list[str] = typer.Option([], "--option", "-o",
                                         help="Ruleset option NAME=VALUE; repeat as needed (see `pbem options`)."),
        ) -> None:
    """Create a game folder: opening state, a fresh secret dice seed and its published commitment."""
    options = {}
    for item in option:
        name, _, value = item.partition("=")
        options[name.strip()] = yaml.safe_load(value) if value else ""
    try:
        new_game(ruleset, folder, game or folder.resolve().name, options)
    except InputError as exc:
        _fail(exc)
    except KeyError as exc:
        typer.echo(f"error: unknown ruleset {ruleset!r} (allowed: {exc.args[0]})", err=True)
        raise typer.Exit(code=1)
    typer.echo(f"created {display_path(folder)}: publish game.yaml's dice commitment to the players; "
               "keep secret.yaml to yourself", err=True)


@app.command()
def options(ruleset: str = typer.Argument("aa-revised", help="Ruleset id.")) -> None:
    """List a ruleset's options and documented rulings with their defaults."""
    try:
        chosen = get_ruleset(ruleset)
    except KeyError as exc:
        typer.echo(f"error: unknown ruleset {ruleset!r} (allowed: {exc.args[0]})", err=True)
        raise typer.Exit(code=1)
    typer.echo("Options (choose with `pbem new ... --option NAME=VALUE`):")
    for opt in chosen.options():
        allowed = ", ".join(map(str, opt.allowed))
        typer.echo(f"  {opt.name} (default {opt.default}; allowed: {allowed})\n      {opt.text}")
    if chosen.rulings():
        typer.echo("\nRulings (fixed readings where the rulebooks are silent or unclear):")
        for ruling in chosen.rulings():
            typer.echo(f"  {ruling.name}: {ruling.text}")


@app.command()
def seed(folder: Path = typer.Argument(..., help="The game folder (needs its secret.yaml)."),
         turn: int = typer.Argument(..., help="Game turn number, as in the state's `dice.turn`.")) -> None:
    """Print the dice seed to reveal in the turn file of game turn TURN."""
    try:
        typer.echo(seed_for_turn(folder, turn))
    except InputError as exc:
        _fail(exc, "no seed printed")


@app.command("validate")
def validate_orders(orders: Path = typer.Argument(..., help="The orders file to check."),
                    state: Path = typer.Option(..., "--state", help="The state the orders are for."),
                    standing: list[Path] = typer.Option([], "--standing",
                                                        help="Standing orders files of other powers."),
                    ) -> None:
    """Check orders against the schema and the rules without resolving anything."""
    try:
        state_doc = _load_state(state)
        ruleset = get_ruleset(state_doc.data["ruleset"])
        orders_doc = load_document(orders)
        problems = validate("orders", orders_doc)
        standing_docs = {}
        for path in standing:
            doc = load_document(path)
            problems += validate("standing-orders", doc)
            if not problems:
                standing_docs[doc.data["power"]] = doc
        if not problems:
            problems = ruleset.check_state(state_doc) + ruleset.check_orders(state_doc.data, orders_doc,
                                                                             standing_docs)
        if problems:
            raise InputError(problems)
    except InputError as exc:
        _fail(exc, "the orders are not valid")
    typer.echo(f"{display_path(orders)}: the orders are valid", err=True)


@app.command()
def adjudicate(turn: Path = typer.Argument(..., help="The turn file (ruleset, state, orders, seed, output)."),
               force: bool = typer.Option(False, "--force", help="Replace the output files if they exist."),
               ) -> None:
    """Resolve one power's turn: writes the next state, the event log and the reports."""
    try:
        with turn_lock(turn):
            inputs = load_turn(turn)
            check_output(inputs, force=force)  # refuse before spending time on the turn and its map
            result = resolve_turn(inputs, _renderer())
            out = write_outputs(inputs, result.files, force=force)
    except InputError as exc:
        _fail(exc)
    typer.echo(f"wrote {', '.join(sorted(result.files))} to {display_path(out)}", err=True)


@app.command()
def verify(folder: Path = typer.Argument(..., help="The game folder.")) -> None:
    """Re-play every recorded turn from the opening state and prove every die, state and seed."""
    def show(v: Verified) -> None:
        typer.echo(f"ok  turn {v.turn} ({v.power}), {v.dice} dice: {display_path(v.turn_file)}", err=True)
    try:
        done = verify_game(folder, _renderer(), show)
    except InputError as exc:
        _fail(exc, "the game does not verify")
    typer.echo(f"verified {len(done)} turn{'s' if len(done) != 1 else ''}: every state, report and die "
               "matches the seeds", err=True)


@app.command()
def render(state: Path = typer.Argument(..., help="A state file."),
           out: Path = typer.Option(Path("map.png"), "--out", help="The PNG file to write."),
           theatre: Optional[str] = typer.Option(None, help="Crop to a theatre: europe or pacific."),
           events: Optional[Path] = typer.Option(None, help="An events.jsonl whose moves and battles to draw."),
           ) -> None:
    """Draw the map of any state as a PNG image (about 2000 pixels wide)."""
    from pbem.render.report import render_map_png
    try:
        doc = _load_state(state)
        log = None
        if events is not None:
            try:
                log = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines() if line]
            except (OSError, ValueError) as exc:
                raise InputError([Problem(display_path(events), None, "", f"cannot read the event log: {exc}")]) from None
        title = f"{doc.data['game']} — round {doc.data['round']}, {doc.data['next_power']} to play"
        png = render_map_png(doc.data, log, title, theatre)
    except InputError as exc:
        _fail(exc)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=1)
    if png is None:
        typer.echo("error: this ruleset has no map", err=True)
        raise typer.Exit(code=1)
    try:
        out.write_bytes(png)
    except OSError as exc:
        typer.echo(f"error: cannot write {display_path(out)}: {exc.strerror}", err=True)
        raise typer.Exit(code=1)
    typer.echo(f"wrote {display_path(out)}", err=True)


@app.command()
def odds(attacker: str = typer.Option(..., help='Attacking units, e.g. "3 infantry, 1 artillery, 2 tanks".'),
         defender: str = typer.Option(..., help='Defending units, e.g. "4 inf, 1 fighter" (an AA gun here = --aa).'),
         attacker_power: Optional[str] = typer.Option(None, help="The attacking power (default germany)."),
         defender_power: Optional[str] = typer.Option(
             None, help="The defending power (default the attacker's first enemy in turn order)."),
         sea: bool = typer.Option(False, "--sea", help="A sea battle (default: a land battle)."),
         amphibious: bool = typer.Option(False, "--amphibious",
                                         help="The land battle of an amphibious assault (land units cannot retreat)."),
         bombard: str = typer.Option("", help='Ships bombarding in an amphibious assault, e.g. "1 battleship".'),
         aa: bool = typer.Option(False, "--aa", help="The defender has an AA gun in the territory."),
         attacker_tech: str = typer.Option("", help='Attacker\'s developments, e.g. "heavy bombers, super subs".'),
         defender_tech: str = typer.Option("", help='Defender\'s developments, e.g. "jet fighters".'),
         attacker_order: str = typer.Option(
             "", help="Attacker's casualty order: unit types, the first lost first (default cheapest first)."),
         defender_order: str = typer.Option("", help="Defender's casualty order (default cheapest first)."),
         keep_land_unit: bool = typer.Option(True, help="The attacker loses aircraft before its last land unit."),
         retreat_after: Optional[int] = typer.Option(None, help="The attacker retreats after this many rounds."),
         retreat_below_units: Optional[int] = typer.Option(
             None, help="The attacker retreats when fewer units than this are left."),
         retreat_when_weaker: bool = typer.Option(False, "--retreat-when-weaker",
                                                  help="The attacker retreats when its firepower is below the defender's."),
         retreat_below_chance: Optional[float] = typer.Option(
             None, help="The attacker retreats when its chance to win from there is below this (0 to 1; exact only)."),
         attacker_submerge: str = typer.Option("never", help="Attacking subs submerge: never, always or when_alone."),
         defender_submerge: str = typer.Option("never", help="Defending subs submerge: never, always or when_alone."),
         simulate: Optional[int] = typer.Option(None, help="Simulate this many battles instead of the exact odds."),
         seed: int = typer.Option(0, help="The dice seed of --simulate."),
         top: int = typer.Option(10, help="How many of the most likely outcomes to list."),
         as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
         ruleset: str = typer.Option("aa-revised", help="Ruleset id."),
         ) -> None:
    """The exact odds of a battle: who wins, what survives, what is lost, the likeliest outcomes."""
    from pbem.core.ruleset import OddsRequest
    from pbem.render.odds import odds_text
    request = OddsRequest(
        attacker, defender, attacker_power, defender_power, sea, amphibious, bombard, aa, attacker_tech,
        defender_tech, attacker_order, defender_order, keep_land_unit, retreat_after, retreat_below_units,
        retreat_when_weaker, retreat_below_chance, attacker_submerge, defender_submerge, simulate, seed, top)
    try:
        result = get_ruleset(ruleset).odds(request)
    except KeyError as exc:
        typer.echo(f"error: unknown ruleset {ruleset!r} (allowed: {exc.args[0]})", err=True)
        raise typer.Exit(code=1)
    except InputError as exc:
        _fail(exc, "no odds computed")
    if result is None:
        typer.echo(f"error: the {ruleset} ruleset has no battle calculator", err=True)
        raise typer.Exit(code=1)
    typer.echo(json.dumps(result, indent=2, sort_keys=True) if as_json else odds_text(result), nl=as_json)


@app.command()
def schema(name: str = typer.Argument(..., help=f"One of: {', '.join(SCHEMA_NAMES)}.")) -> None:
    """Print a JSON Schema (draft 2020-12)."""
    try:
        sys.stdout.write(schema_text(name))
    except KeyError:
        typer.echo(f"error: unknown schema {name!r} (allowed: {', '.join(SCHEMA_NAMES)})", err=True)
        raise typer.Exit(code=1)


if __name__ == "__main__":
    app()
