"""The `pbem` command line. Messages go to stderr; the exit code is 0 only on success."""

from __future__ import annotations

import inspect
import json
import os
import sys
import textwrap
from dataclasses import asdict, replace
from pathlib import Path
from typing import Optional

import typer
from pbem.commands import GROUP, fail, print_json, ruleset_or_exit
from pbem.core.dice import commitment, new_chain_secret
from pbem.core.errors import InputError, Problem, display_path, escape_controls
from pbem.core.folder import GAME_FILE, REVEAL_FILE, SECRET_FILE, STATE_FILE, game_folder_of
from pbem.core.chain import read_secret, seed_for_turn, write_secret
from pbem.core.plugins import plugins
from pbem.core.preview import preview, preview_text
from pbem.core.hidden import digest_commitment, hidden_key, read_hidden_key
from pbem.core.schemas import SCHEMA_NAMES, found_without, schema_data, schema_text, validate, without_refused
from pbem.core.views import split_view, view_problems
from pbem.core.yamlio import Document, dump_yaml, load_document, load_json_lines, parse_document, read_text
from pbem.rulesets import RULESETS, get_ruleset
# Each command imports what only it uses (the game record, mail, drawings) when it runs (issue 27).

app = typer.Typer(no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]},
                  help="Play-by-email adjudicator for World War II board games.")


def _print_version(wanted: bool) -> None:
    if wanted:
        from importlib import metadata
        typer.echo(f"pbem {metadata.version('pbem')}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                      help="Print pbem's version and exit.")) -> None:
    """Play-by-email adjudicator for World War II board games."""


def _internal(error: Exception, outcome: str) -> None:
    """An error of pbem itself (not of the input): one line naming it, never a traceback."""
    typer.echo(f"error: pbem failed inside ({type(error).__name__}: {escape_controls(str(error))}); {outcome}. "
               "This is a fault of pbem, not of the files: please report it with the turn file.", err=True)
    raise typer.Exit(code=2)


def _show_notes(*docs: Document) -> None:
    """Tell what was repaired to read these files (tabs, no-break spaces)."""
    for doc in docs:
        for note in doc.notes:
            typer.echo(f"note: {note}", err=True)


def _load(path: Path) -> Document:
    """A YAML file, telling at once what was repaired to read it."""
    doc = load_document(path)
    _show_notes(doc)
    return doc


def _outcome(failure: InputError | None, as_json: bool, facts: dict, outcome: str) -> None:
    """With --json one object on stdout (`ok`, `facts`, `problems`), else the problems on stderr;
    exit code 1 when there are any. Prints nothing for a success without --json."""
    if as_json:
        problems = [asdict(p) for p in failure.problems] if failure else []
        print_json({"ok": failure is None, **facts, "problems": problems})
        if failure:
            raise typer.Exit(code=1)
    elif failure:
        fail(failure, outcome)


def _load_state(path: Path) -> tuple[Document, str | None]:
    """A state file, or a role's view file, that passes its schema, else `InputError`; with the
    role whose view it is (None: the whole state)."""
    whole = _load(path)
    doc, role = split_view(whole)
    problems = validate("state", doc)  # the envelope every game's state has
    if not problems:
        try:
            ruleset = get_ruleset(doc.data["ruleset"])
            problems = validate("state", doc, ruleset.schema_package)
            if role is not None:
                problems = view_problems(whole, role, ruleset) + problems
        except KeyError as exc:
            problems = [doc.problem(("ruleset",), f"unknown ruleset {doc.data['ruleset']!r}", str(exc.args[0]))]
    if problems:
        raise InputError(problems)
    return doc, role


def _renderer():
    from pbem.render import render_turn
    return render_turn


@app.command()
def new(ruleset: str = typer.Argument(..., help=f"Ruleset id: {', '.join(RULESETS)}."),
        folder: Path = typer.Argument(..., help="The new game folder (must not exist or be empty)."),
        game: str = typer.Option("", help="The game's name, shown in every report; default the folder name."),
        option: list[str] = typer.Option([], "--option", "-o",
                                         help="Ruleset option NAME=VALUE; repeat as needed (see `pbem options`)."),
        player: list[str] = typer.Option(
            [], "--player", help="NAME=COMMITMENT of a player who shares in the dice (from `pbem secret`); "
            "repeat for each. Then every turn needs each player's value: see the README."),
        secret_file: Optional[Path] = typer.Option(
            None, "--secret", help="Grow the game's seeds (and, in a game with hidden cards, its shuffles) from "
            "the secret of this file, made by `pbem secret`, instead of a fresh one."),
        ) -> None:
    """Create a game folder: opening state, a secret dice seed and its published commitment."""
    from pbem.core.game import new_game
    options, problems = {}, []
    for item in option:
        name, _, value = item.partition("=")
        try:  # read as YAML so that numbers and true/false are typed, with every input's limits
            options[name.strip()] = parse_document(value, "--option").data if value else ""
        except InputError as exc:
            problems += [replace(p, line=None, field=name.strip()) for p in exc.problems]
    players = dict((name.strip(), value.strip()) for name, _, value in (p.partition("=") for p in player))
    ruleset_or_exit(ruleset)
    try:
        if problems:
            raise InputError(problems)
        secret = read_secret(secret_file) if secret_file else None
        new_game(ruleset, folder, game or folder.resolve().name, options, players, secret)
    except InputError as exc:
        fail(exc)
    typer.echo(f"created {display_path(folder)}: publish game.yaml's dice commitment to the players; "
               "keep secret.yaml to yourself", err=True)


@app.command()
def options(ruleset: str = typer.Argument(..., help=f"Ruleset id: {', '.join(RULESETS)}.")) -> None:
    """List a ruleset's options and documented rulings with their defaults."""
    chosen = ruleset_or_exit(ruleset)
    typer.echo("Options (choose with `pbem new ... --option NAME=VALUE`):")
    for opt in chosen.options():
        allowed = ", ".join(map(str, opt.allowed))
        typer.echo(f"  {opt.name} (default {opt.default}; allowed: {allowed})\n      {opt.text}")
    if chosen.rulings():
        typer.echo("\nRulings (fixed readings where the rulebooks are silent or unclear):")
        for ruling in chosen.rulings():
            typer.echo(f"  {ruling.name}: {ruling.text}")


@app.command()
def seed(folder: Path = typer.Argument(..., help="The game folder (needs its secret.yaml), or a player's "
                                       "own secret file."),
         turn: int = typer.Argument(..., help="Game turn number, as in the state's `dice.turn`.")) -> None:
    """Print the dice seed to reveal in the turn file of game turn TURN (or a player's value for it)."""
    try:
        typer.echo(seed_for_turn(folder, turn))
    except InputError as exc:
        fail(exc, "no seed printed")


@app.command()
def reveal(folder: Path = typer.Argument(..., help="The game folder (needs its secret.yaml)."),
           before_end: bool = typer.Option(False, "--before-end", help="Reveal although the game is not over "
                                           "(everyone can then read every hand and deck)."),
           ) -> None:
    """For a game with hidden cards: publish its hidden key in reveal.yaml once the game is over, so
    that anyone can run `pbem verify` and check every shuffle and every hand against the commitments
    in the reports they received."""
    from pbem.core.game import read_ledger
    try:
        key = hidden_key(read_secret(folder / SECRET_FILE))
        if commitment(key) != load_document(folder / GAME_FILE).data["dice"].get("hidden_commitment"):
            raise InputError([Problem(display_path(folder / GAME_FILE), None, "dice.hidden_commitment",
                                      "this game has no hidden cards, or its secret.yaml is another game's")])
        ledger = read_ledger(folder) or []
        last = load_document(folder / ledger[-1]["output"] / STATE_FILE).data if ledger else {}
        if (not last or get_ruleset(last["ruleset"]).awaiting(last)) and not before_end:
            raise InputError([Problem(display_path(folder), None, "", "the game is not over: revealing the key now "
                                      "shows every hand and deck order", "wait for its end, or --before-end")])
        (folder / REVEAL_FILE).write_text(dump_yaml({"hidden_key": key}), encoding="utf-8")
    except InputError as exc:
        fail(exc, "nothing was revealed")
    typer.echo(f"wrote {display_path(folder / REVEAL_FILE)}: publish it with the game folder", err=True)


@app.command()
def content(ruleset: str = typer.Argument(..., help="Ruleset id, e.g. qmg."),
            pack: Optional[Path] = typer.Option(None, "--pack", help="A folder with a content pack to check "
                                                "(default: the pack pbem ships)."),
            ) -> None:
    """Check a game's content pack (its board and cards) and list what it reconstructs or lacks."""
    chosen = ruleset_or_exit(ruleset)
    try:
        checked = chosen.check_content(pack)
    except InputError as exc:
        fail(exc, "the pack was not checked")
    if checked is None:
        typer.echo(f"{ruleset} has no content pack: its material is part of pbem", err=True)
        return
    problems, notes = checked
    for note in notes:
        typer.echo(f"note: {note}")
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    typer.echo(f"{len(problems)} problem{'s' if len(problems) != 1 else ''}, {len(notes)} "
               f"note{'s' if len(notes) != 1 else ''} on what the pack reconstructs or lacks", err=True)
    if problems:
        raise typer.Exit(code=1)


@app.command()
def secret(file: Path = typer.Argument(..., help="The new secret file to write (keep it to yourself).")) -> None:
    """For a player who shares in the dice: make a secret seed chain and print its commitment,
    which the moderator passes to `pbem new --player NAME=COMMITMENT`."""
    if file.exists():
        typer.echo(f"error: {display_path(file)} exists; a secret is never overwritten", err=True)
        raise typer.Exit(code=1)
    try:
        published = write_secret(file, new_chain_secret())
    except OSError as exc:  # no such folder, no permission, a full disk
        typer.echo(f"error: cannot write {escape_controls(display_path(file))}: {exc.strerror or exc}", err=True)
        raise typer.Exit(code=1)
    typer.echo(published)


_KINDS = ("auto", "orders", "standing-orders")


def _kind_of(doc: Document, package: str, awaited: tuple[str, ...], role_field: str) -> str:
    """Standing orders when the file has a field that only standing orders have and none that only
    orders have, or, when its fields fit both, when it is for a role whose turn it is not."""
    fields = set(doc.data) if isinstance(doc.data, dict) else set()
    orders, standing = (set(schema_data(name, package=package)["properties"])
                        for name in ("orders", "standing-orders"))
    if fields & (orders - standing):
        return "orders"
    if fields & (standing - orders):
        return "standing-orders"
    return "orders" if isinstance(doc.data, dict) and doc.data.get(role_field) in awaited else "standing-orders"


@app.command("validate")
def validate_orders(file: Path = typer.Argument(..., help="The orders or standing orders file to check."),
                    state: Path = typer.Option(..., "--state", help="The state the orders are for."),
                    standing: list[Path] = typer.Option([], "--standing",
                                                        help="Standing orders files of other powers."),
                    kind: str = typer.Option(
                        "auto", help="What the file is: orders, standing-orders, or auto: standing orders "
                                     "when it has a field only they have (such as submerge or spaces) "
                                     "and none that only orders have, or, when its fields fit both, when it "
                                     "is for a power whose turn it is not."),
                    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
                    warn_below: Optional[float] = typer.Option(
                        None, "--warn-below", metavar="PERCENT",
                        help="Valid orders get a preview; warn of each battle whose chance of success is "
                             "below PERCENT (default: the player's standing orders' warn_below, else 50)."),
                    ) -> None:
    """Check orders, or standing orders on their own, without resolving anything; valid orders
    get a preview of what they will do, seen from their role's view."""
    from pbem.core.turn import decisions_digest
    if kind not in _KINDS:
        typer.echo(f"error: unknown kind {kind!r} (allowed: {', '.join(_KINDS)})", err=True)
        raise typer.Exit(code=1)
    failure = None
    try:
        state_doc, viewer = _load_state(state)
        ruleset = get_ruleset(state_doc.data["ruleset"])
        package = ruleset.schema_package
        doc = _load(file)
        if kind == "auto":
            kind = _kind_of(doc, package, ruleset.awaiting(state_doc.data), ruleset.role_field)
        refused = validate(kind, doc, package)
        checked, left_out = without_refused(doc, refused, kind, package, ruleset.role_field) if refused else (doc, [])
        problems = [] if checked is not None else refused
        doc = checked or doc
        if not problems and viewer is not None and doc.data[ruleset.role_field] != viewer:
            problems = [doc.problem((ruleset.role_field,), f"{display_path(state)} is the view of {viewer}: it "
                                    f"checks only {viewer}'s files", f"{viewer}, or the view file of "
                                    f"{doc.data[ruleset.role_field]}")]
        standing_docs = {}
        for path in standing:
            other = _load(path)
            problems += validate("standing-orders", other, package)
            if viewer is not None:
                problems.append(other.problem((), "other roles' standing orders are checked on the whole state, "
                                              "not on one role's view", "no --standing with a view file"))
            elif not problems:
                standing_docs[other.data[ruleset.role_field]] = other
        if not problems:
            problems = ruleset.check_state(state_doc)
        awaited = ruleset.awaiting(state_doc.data)
        if not problems and kind == "orders" and not awaited:
            problems = [state_doc.problem((), "the game is over: no role is to submit orders")]
        if not problems:
            role = doc.data[ruleset.role_field]
            submissions = {role if role in awaited else awaited[0]: doc}  # the ruleset says whose turn it is
            problems = (ruleset.check_orders(state_doc.data, submissions, standing_docs) if kind == "orders"
                        else ruleset.check_standing_orders(state_doc.data, doc))
        if checked is not None and refused:
            problems = refused + found_without(problems, left_out)
        if problems:
            raise InputError(problems)
    except InputError as exc:
        failure = exc
    what = "orders" if kind != "standing-orders" else "standing orders"
    facts = {"file": display_path(file), "kind": kind}
    if failure is None and kind == "orders" and viewer is None:
        facts |= _published_digest(state, state_doc.data, ruleset,
                                   decisions_digest(state_doc.data, submissions, standing_docs))
    if failure is None and kind == "orders":
        facts |= _preview_facts(ruleset, state_doc.data, doc.data, standing_docs, warn_below, viewer is not None)
    _outcome(failure, as_json, facts, f"the {what} are not valid")
    if not as_json:
        digest = f"; decisions digest {facts['decisions_digest']}" if "decisions_digest" in facts else ""
        typer.echo(f"{display_path(file)}: the {what} are valid{digest}", err=True)
        typer.echo(preview_text(facts.get("preview")), nl=False)


def _preview_facts(ruleset, state: dict, orders: dict, standing_docs: dict, warn_below: float | None,
                   is_view: bool) -> dict:
    """The preview of valid orders, from their role's view and that role's own standing orders
    (a --standing file of the same role) only: never another role's."""
    role = orders[ruleset.role_field]
    own = standing_docs.get(role)
    found = preview(ruleset, state, role, orders, own.data if own else None, warn_below, is_view)
    return {"preview": found} if found is not None else {}


def _published_digest(path: Path, state: dict, ruleset, digest: str) -> dict[str, str]:
    """The decisions digest a moderator publishes before the players reveal their dice values: in
    a game with secrets, its commitment under the hidden key, made only where the game folder's
    secret is at hand; a view's holder, who cannot know the other roles' standing orders, gets none."""
    if not ruleset.hidden_information:
        return {"decisions_digest": digest}
    folder = game_folder_of(path)
    try:
        key = read_hidden_key(folder) if folder else None
    except InputError:
        key = None
    return {"decisions_digest": digest_commitment(key, state["dice"]["turn"], digest)} if key else {}


@app.command()
def adjudicate(turn: Path = typer.Argument(..., help="The turn file (ruleset, state, orders, seed, output)."),
               force: bool = typer.Option(False, "--force", help="Replace the output files if they exist."),
               ) -> None:
    """Resolve one power's turn: writes the next state, the event log and the reports."""
    _adjudicate(turn, force)


def _adjudicate(turn: Path, force: bool) -> None:
    from pbem.core.moderator import Adjudication, play_turn
    progress = Adjudication()
    try:
        out, files = play_turn(turn, _renderer(), force, _show_notes, progress)
    except InputError as exc:
        fail(exc, "the outputs were written, the ledger was not" if progress.written else "nothing was written")
    except Exception as exc:  # a fault of pbem: outputs are swapped in whole, so nothing half-written
        _internal(exc, "the outputs were written, the ledger was not" if progress.written else "nothing was written")
    typer.echo(f"wrote {', '.join(sorted(files))} to {display_path(out)}", err=True)


@app.command()
def status(folder: Path = typer.Argument(..., help="The game folder."),
           as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
           ) -> None:
    """Where the game stands: its last turn, who must submit for the next and what each has sent,
    and the position in brief."""
    from pbem.core.moderator import current, status as game_status
    try:
        facts = game_status(current(folder))
    except InputError as exc:
        fail(exc)
    if as_json:
        typer.echo(json.dumps(facts, ensure_ascii=False))
        return
    typer.echo(f"{facts['game']} ({facts['name']}): round {facts['round']}, game turn {facts['turn']} next; "
               f"last played: {facts['last'] or 'none yet'}")
    for role in facts["awaiting"]:
        state = f"valid orders in {role['valid']}" if role["valid"] else "no valid orders yet"
        typer.echo(f"  awaiting {role['role']}: {role['received']} version(s) received, {state}")
        for problem in role["problems"]:
            typer.echo(f"    newest version: {problem}")
    if not facts["awaiting"]:
        typer.echo("  the game is over: nobody is awaited")
    if facts["deadline"]:
        typer.echo(f"  orders due {facts['deadline']}")
    for line in facts["brief"]:
        typer.echo(f"  {line}")
    for role, problems in facts["standing_problems"].items():
        typer.echo(f"  {role}'s standing orders are not in force (the last valid ones are, or the defaults):")
        for problem in problems:
            typer.echo(f"    {problem}")


@app.command()
def receive(folder: Path = typer.Argument(..., help="The game folder."),
            orders: Path = typer.Argument(..., help="An orders file as a player sent it."),
            ) -> None:
    """Store a player's orders for the next game turn as a new version (never overwriting one) and
    say whether they are valid; `pbem next` takes the latest valid version of each role."""
    from pbem.core.moderator import current, receive as store
    try:
        stored, role, problems = store(current(folder), read_text(orders), display_path(orders))
    except InputError as exc:
        fail(exc, "nothing was stored")
    if problems:
        fail(InputError(problems), f"stored as {display_path(stored)}, which does not count until it is valid")
    typer.echo(f"stored {role}'s orders as {display_path(stored)}: valid", err=True)


@app.command("next")
def next_turn(folder: Path = typer.Argument(..., help="The game folder."),
              missing: str = typer.Option("wait", help="A role without valid orders: wait (stop), or standing "
                                                       "(play it with empty orders, its standing orders in force)."),
              ) -> None:
    """Write the next turn's file from the game folder (state, orders received, standing orders,
    seed) and adjudicate it."""
    from pbem.core.moderator import current, write_next_turn
    if missing not in ("wait", "standing"):
        typer.echo(f"error: unknown --missing {missing!r} (allowed: wait, standing)", err=True)
        raise typer.Exit(code=1)
    try:
        turn = write_next_turn(current(folder), missing)
    except InputError as exc:
        fail(exc, "no turn file was written")
    typer.echo(f"wrote {display_path(turn)}", err=True)
    _adjudicate(turn, force=False)


@app.command()
def players(folder: Path = typer.Argument(..., help="The game folder."),
            password_for: Optional[str] = typer.Option(None, "--new-password", help="Give this player a new game "
                                                       "password: printed once, only its hash is kept."),
            mail: bool = typer.Option(False, "--mail", help="With --new-password: also mail it to the player "
                                      "with the next pass of `pbem mail run`, instead of printing it."),
            ) -> None:
    """Check the game's players file (players.yaml) and list who plays what; or give a player a new
    game password."""
    from pbem.core.moderator import current
    from pbem.core.players import PLAYERS_FILE, new_password, read_players
    try:
        position = current(folder)
        found = read_players(folder, position.ruleset.powers)
        if found is None:
            raise InputError([Problem(display_path(folder / PLAYERS_FILE), None, "", "the game has no players "
                                      "file", "see docs/moderating.md")])
        if password_for is not None:
            doc = load_document(folder / PLAYERS_FILE)
            index = next((i for i, p in enumerate(doc.data["players"]) if p["name"] == password_for), None)
            if index is None:
                raise InputError([doc.problem(("players",), f"no player is called {password_for!r}",
                                              ", ".join(p.name for p in found.players))])
            password, kept = new_password()
            doc.data["players"][index]["password"] = kept
            staging = folder / f".{PLAYERS_FILE}.new"
            staging.write_text(dump_yaml(doc.data), encoding="utf-8")
            os.replace(staging, folder / PLAYERS_FILE)
            if mail:
                from pbem.mail.turns import mail_password
                mail_password(folder, found, found.players[index], password, kept)
                typer.echo(f"{password_for}'s new game password waits in mail/outbox/ for the next pass")
            else:
                typer.echo(f"{password_for}'s new game password: {password}  (tell it to them; it is not kept)")
            return
    except InputError as exc:
        fail(exc)
    typer.echo(f"moderator: {found.moderator_name} <{found.moderator_address}>")
    for player in found.players:
        typer.echo(f"{player.name} <{player.address}>: {', '.join(player.roles)}"
                   f"{'' if player.password else ' (no game password yet)'}")
    policy = found.deadline
    typer.echo(f"deadline: {policy.hours} h counting {', '.join(policy.weekdays)}, grace {policy.grace_hours} h, "
               f"reminders {', '.join(f'{h} h' for h in policy.reminders) or 'none'} before; "
               f"missing orders: {found.missing_orders}")


mail_app = typer.Typer(help="Run a game by mail: fetch orders, reply, adjudicate, send the reports.",
                       no_args_is_help=True)
app.add_typer(mail_app, name="mail")


@mail_app.command("run")
def mail_run(folder: Path = typer.Argument(..., help="A game folder (with its players.yaml), or a club's folder "
                                           "of games that share one mailbox."),
             config: Optional[Path] = typer.Option(None, "--config", help="Mail settings (a YAML file outside the "
                                                   "game folder); default the PBEM_IMAP_* and PBEM_SMTP_* "
                                                   "environment variables."),
             now: Optional[str] = typer.Option(None, "--now", help="The time to act as if it were (ISO 8601, UTC); "
                                               "default now."),
             ) -> None:
    """One full pass: read new mails, reply to each, adjudicate when every awaited role has valid
    orders, send the reports, remind before the deadline and apply it. Safe to run from cron: a
    pass killed at any moment is finished by the next, and two never overlap on one game."""
    import imaplib
    import smtplib
    from datetime import datetime, timezone

    from pbem.core.folder import GAME_FILE
    from pbem.mail.config import load_config
    from pbem.mail.loop import run_club, run_pass
    try:
        moment = datetime.fromisoformat(now) if now else datetime.now(timezone.utc).replace(tzinfo=None)
    except ValueError:
        typer.echo(f"error: --now {now!r} is not a time (allowed: ISO 8601, such as 2026-11-25T18:00)", err=True)
        raise typer.Exit(code=1)
    try:
        settings = load_config(folder, config)
        if (folder / GAME_FILE).is_file():
            lines = run_pass(folder, settings, moment.replace(tzinfo=None), _renderer())
        else:
            lines, problems = run_club(folder, settings, moment.replace(tzinfo=None), _renderer())
            if problems:
                for line in lines:
                    typer.echo(line)
                raise InputError(problems)
    except InputError as exc:
        fail(exc, "the pass stopped; what it did is in mail/log.txt")
    except (OSError, imaplib.IMAP4.error, smtplib.SMTPException) as exc:
        typer.echo(f"error: the mail server failed: {exc}; nothing is lost: the next pass goes on from here", err=True)
        raise typer.Exit(code=1)
    for line in lines:
        typer.echo(line)


@app.command()
def verify(folder: Path = typer.Argument(..., help="The game folder."),
           reports: bool = typer.Option(False, "--reports", help="Also re-render the text reports "
                                        "(report.md, report.bbcode) and compare them byte for byte."),
           as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
           ) -> None:
    """Re-play every recorded turn from the opening state and prove every die, state, event and seed."""
    from pbem.core.game import Verified, verify_game
    done: list[Verified] = []

    def show(v: Verified) -> None:
        done.append(v)
        if not as_json:
            typer.echo(f"ok  turn {v.turn} ({v.power}), {v.dice} dice: {escape_controls(display_path(v.turn_file))}",
                       err=True)
    failure = None
    try:
        verify_game(folder, _renderer() if reports else None, show)
    except InputError as exc:
        failure = exc
    except Exception as exc:  # a fault of pbem while re-playing, e.g. an engine that no longer plays a turn
        _internal(exc, f"the game was verified up to turn {len(done)}")
    turns = [{"turn": v.turn, "power": v.power, "dice": v.dice, "turn_file": display_path(v.turn_file)}
             for v in done]
    _outcome(failure, as_json, {"turns": turns}, "the game does not verify")
    if not as_json:
        proved = "state, event log, report (an HTML one without its drawings) and die" if reports \
            else "state, event log and die"
        typer.echo(f"verified {len(done)} turn{'s' if len(done) != 1 else ''}: every {proved} matches the seeds "
                   "and the orders", err=True)


@app.command()
def redraw(folder: Path = typer.Argument(..., help="The game folder."),
           turn: list[int] = typer.Option([], "--turn", help="Only this game turn (repeat it for several); "
                                          "without it every recorded turn."),
           ) -> None:
    """Make again the drawings (map.png, map-forum.png, charts.png) and HTML reports of a game's recorded
    turns from its facts, which it verifies first and never changes (the examples do not commit them)."""
    from pbem.core.game import Verified, redraw_game
    written: list[Path] = []

    def show(v: Verified, out: Path, names: list[str]) -> None:
        written.append(out)
        typer.echo(f"turn {v.turn} ({v.power}): wrote {', '.join(names)} to {escape_controls(display_path(out))}",
                   err=True)
    try:
        redraw_game(folder, _renderer(), turn, show)
    except Exception as exc:  # an output folder is swapped in whole: each turn is redrawn or as it was
        outcome = "the turns listed above were redrawn, no other" if written else "nothing was written"
        if isinstance(exc, InputError):
            fail(exc, outcome)
        _internal(exc, outcome)  # a fault of pbem, e.g. a drawing that fails
    typer.echo(f"redrew {len(written)} turn{'s' if len(written) != 1 else ''}; the facts and text reports are "
               "unchanged", err=True)


@app.command()
def render(state: Path = typer.Argument(..., help="A state file."),
           out: Path = typer.Option(Path("map.png"), "--out", help="The PNG file to write."),
           theatre: Optional[str] = typer.Option(
               None, help="Crop to one theatre of a board that has them (see the game's docs)."),
           events: Optional[Path] = typer.Option(None, help="An events.jsonl whose moves and battles to draw."),
           ) -> None:
    """Draw the map of any state as a PNG image (about 2000 pixels wide)."""
    from pbem.render import render_state_map
    try:
        doc, _ = _load_state(state)  # a role's view draws the same board
        log = None
        if events is not None:
            log = load_json_lines(events)
        awaited = get_ruleset(doc.data["ruleset"]).awaiting(doc.data)
        title = f"{doc.data['game']} — round {doc.data['round']}, " + \
            (f"{' and '.join(awaited)} to play" if awaited else "the game is over")
        png = render_state_map(doc.data, log, title, theatre)
    except InputError as exc:
        fail(exc)
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
def schema(name: str = typer.Argument(..., help=f"One of: {', '.join(SCHEMA_NAMES)}."),
           ruleset: Optional[str] = typer.Option(
               None, help="A ruleset id: the game's complete schema, listing its powers, unit types, "
                          "developments and spaces (with the other names pbem reads) for editors."),
           ) -> None:
    """Print a JSON Schema (draft 2020-12), self-contained."""
    if name not in SCHEMA_NAMES:
        typer.echo(f"error: unknown schema {name!r} (allowed: {', '.join(SCHEMA_NAMES)})", err=True)
        raise typer.Exit(code=1)
    names = ruleset_or_exit(ruleset).names() if ruleset is not None else None
    try:
        text = schema_text(name, ruleset, names)
    except KeyError:  # only the turn file and the state envelope are the core's
        typer.echo(f"error: the {name} schema belongs to a game: name it with --ruleset "
                   f"({', '.join(RULESETS)})", err=True)
        raise typer.Exit(code=1)
    sys.stdout.write(text)


def _space_text(space: dict) -> str:
    lines = [f"{space['name']}: {space['facts']}"]
    for kind in ("land", "sea"):
        if space[f"{kind}_neighbours"]:
            lines += textwrap.wrap(", ".join(space[f"{kind}_neighbours"]), 78, initial_indent=f"  {kind}: ",
                                   subsequent_indent=" " * (len(kind) + 4), break_on_hyphens=False)
    return "\n".join(lines)


def _board_spaces(chosen, space: str | None, state: Path | None) -> list[dict] | None:
    """The ruleset's spaces, of the position in `state` where its board depends on one."""
    if state is None:
        return chosen.spaces(space)
    if "state" not in inspect.signature(chosen.spaces).parameters:
        raise InputError([Problem("pbem board", None, "--state", f"the {chosen.name} board is the same in every "
                                  "game", "no --state")])
    data = _load(state).data
    if not isinstance(data, dict) or data.get("ruleset") != chosen.id:
        raise InputError([Problem(str(state), None, "ruleset", f"not a state of {chosen.name}",
                                  f"the state or a view file of a game of {chosen.name}")])
    return chosen.spaces(space, state=data)


@app.command()
def board(space: Optional[str] = typer.Argument(
              None, help="One space (short names like Karelia or W Russia work); default all of them."),
          ruleset: str = typer.Option(..., help=f"Ruleset id: {', '.join(RULESETS)}."),
          as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
          state: Optional[Path] = typer.Option(
              None, "--state", help="A game's state or view file: the position to show (Undaunted needs one)."),
          ) -> None:
    """The board: each space's facts (what it is worth and who holds it at the start, or in the position
    --state gives) and its neighbours, land and sea apart."""
    chosen = ruleset_or_exit(ruleset)
    try:
        spaces = _board_spaces(chosen, space, state)
    except InputError as exc:
        fail(exc, "nothing printed")
    if spaces is None:
        typer.echo(f"error: the {ruleset} ruleset has no board", err=True)
        raise typer.Exit(code=1)
    if as_json:
        print_json(spaces[0] if space is not None else {"spaces": spaces})
    else:
        typer.echo("\n".join(map(_space_text, spaces)))


def _add_game_commands() -> None:
    """The commands games add through the entry point group `pbem.commands` (the Axis & Allies family's
    `odds`); a name the core uses stays the core's."""
    taken = {info.name or info.callback.__name__.replace("_", "-") for info in app.registered_commands}
    for point in plugins(GROUP):
        if point.name not in taken:
            app.command(point.name)(point.load())


_add_game_commands()


if __name__ == "__main__":
    app()
