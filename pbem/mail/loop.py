"""One pass of the mail loop (`pbem mail run FOLDER`), over one game or every game of a club's
folder, in one IMAP session: finish what a killed pass began, read the new mails in arrival order
and give each to its game, answer it, play every turn whose orders are in, mail the reports, remind
and apply the deadline, and send what waits in the outboxes.

A mail is routed by an address tag (`game+FOLDER@...` in To, Cc or Delivered-To), by `[FOLDER]` or
`[GAME NAME]` in its subject, or by its sender when they play in only one game. Nothing one mail
holds can stop the pass: any failure to read, check or answer it is journalled with why, and the
pass goes on with the next. A game whose pass fails (its players file broken, say) is logged and
the other games go on.

    FOLDER/mail/imap.json     the mailbox's last mail read (UIDVALIDITY and UID), so a pass
                              fetches only new mails (FOLDER/mail-imap.json for a club's folder)
    FOLDER/mail-log.txt       a club's folder: the mails that belong to no game
"""

from __future__ import annotations

import errno
import imaplib
import json
import re
import smtplib
import ssl
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.folder import GAME_FILE, MAIL_DIR
from pbem.core.moderator import current
from pbem.core.players import PLAYERS_FILE, read_players
from pbem.mail.answers import Answers
from pbem.mail.config import MailConfig, Server
from pbem.mail.messages import Incoming, identify, read_incoming
from pbem.mail.room import (SETTLED, GameBusy, Mailroom, disk_problem, game_identity, game_lock, settle, settled,
                            write_whole)
from pbem.mail.turns import GameTurns

SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
HEADERS = "(RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID FROM TO CC DELIVERED-TO SUBJECT)])"


class GamePass:
    """One game's share of a pass."""

    def __init__(self, game: Path, now: datetime, render) -> None:
        self.game = game
        position = current(game)
        players = read_players(game, position.ruleset.powers)
        if players is None:
            raise InputError([Problem(display_path(game / PLAYERS_FILE), None, "", "a game run by mail needs its "
                                      "players file", "see docs/moderating.md")])
        nameless = players.without_password()
        if nameless:
            raise InputError([Problem(display_path(game / PLAYERS_FILE), None, "password", "no game password for "
                                      f"{', '.join(nameless)}: anyone could send orders in their name",
                                      f"`pbem players {display_path(game)} --new-password NAME --mail` for each")])
        self.name, key = game_identity(game)
        self.room = Mailroom(game, now, key)
        self.players = players
        self.answers = Answers(self.name, players, self.room)
        self.turns = GameTurns(game, players, self.room, self.answers, render)
        if not any(step.get("step") == "announced" for step in self.room.steps):
            self.turns.announce(position)
        self.turns.announce_players()

    def handle(self, incoming: Incoming) -> None:
        """Answer one mail. Turns are played once every mail is read, so that of two versions in
        one pass the later counts; orders for a later game turn are kept for it."""
        if incoming.message_id in self.room.handled:
            return
        self.answers.handle(incoming, current(self.game))

    def failed(self, message_id: str, sender: str, why: str) -> None:
        self.room.log(f"{message_id} from {sender!r}: could not be handled: {why}")
        self.room.note("handled", message_id=message_id, sender=sender, outcome="failed", why=why)


@dataclass
class Pass:
    """A pass over the games of one mailbox. A game is opened (locked, read, its unfinished work
    done) unless it is settled, with nothing changed and nothing due; a settled game is opened only
    when a mail comes for it."""

    config: MailConfig
    now: datetime
    render: Any
    stack: ExitStack
    opened: dict[Path, GamePass] = field(default_factory=dict)
    idle: dict[Path, dict[str, Any]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def look_at(self, game: Path) -> None:
        record = settled(game, self.now)
        if record is not None:
            self.idle[game] = record
        else:
            self.open(game)

    def open(self, game: Path) -> GamePass | None:
        self.idle.pop(game, None)
        try:
            self.stack.enter_context(game_lock(game))
            (game / MAIL_DIR / SETTLED).unlink(missing_ok=True)
            opened = self.opened[game] = GamePass(game, self.now, self.render)
            opened.turns.recover()
            return opened
        except GameBusy:
            self.lines.append(f"{display_path(game)}: another pass is at work on it; left to it")
        except InputError as exc:
            self.stopped(game, exc)
        return None

    def stopped(self, game: Path, exc: InputError) -> None:
        """A game its own files stop: said and logged, and left out of the rest of the pass."""
        self.opened.pop(game, None)
        self.problems += exc.problems
        _log_outside(game, "the pass stopped: " + "; ".join(str(p) for p in exc.problems), self.now)

    def advance(self) -> None:
        for game, game_pass in list(self.opened.items()):
            try:
                game_pass.turns.advance()
            except InputError as exc:
                self.stopped(game, exc)

    def settle(self) -> None:
        for game, game_pass in self.opened.items():
            position = current(game)
            settle(game, position.turn, game_pass.turns.wake if position.awaited else None, game_pass.name,
                   [p.address.lower() for p in game_pass.players.players])


def run_pass(game: Path, config: MailConfig, now: datetime, render) -> list[str]:
    """One full pass over one game and its own mailbox; returns what it did, line by line (also in
    mail/log.txt). `InputError` when the game cannot be run (its files say why)."""
    lines, problems = _run([game], game / MAIL_DIR / "imap.json", config, now, render, single=True)
    if problems:
        raise InputError(problems)
    return lines


def run_club(folder: Path, config: MailConfig, now: datetime, render) -> tuple[list[str], list[Problem]]:
    """One pass over every game in `folder` (each subfolder with a game.yaml and a players file),
    all from one mailbox."""
    games = sorted(p for p in folder.iterdir() if (p / GAME_FILE).is_file() and (p / PLAYERS_FILE).is_file())
    return _run(games, folder / "mail-imap.json", config, now, render, single=False)


def _run(games: list[Path], mark: Path, config: MailConfig, now: datetime, render,
         single: bool) -> tuple[list[str], list[Problem]]:
    with ExitStack() as stack:
        work = Pass(config, now, render, stack)
        try:
            for game in games:
                work.look_at(game)
            _flush(work.opened.values(), config.smtp, stack)
            if work.opened or work.idle:
                _read_mailbox(work, mark, single)
            work.advance()
            _flush(work.opened.values(), config.smtp, stack)
            work.settle()
        except OSError as exc:
            if _is_server(exc):
                raise
            raise disk_problem(exc, games[0] if single else mark.parent) from None
        finally:
            for game_pass in work.opened.values():
                work.lines += game_pass.room.lines
    return work.lines, work.problems


def _is_server(exc: OSError) -> bool:
    """Whether an error came from the mail servers or the network, not from this machine's disk
    (a file operation names its file; a write names none but says the disk is full or read-only)."""
    return exc.filename is None and exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)


def _read_mailbox(work: Pass, mark: Path, single: bool) -> None:
    """Give every new mail to its game, in arrival order. The mark moves past a mail once its game
    has it (or it belongs to none), never past one whose game could not be opened, which the next
    pass reads again."""
    seen = json.loads(mark.read_text()) if mark.is_file() else {}
    imap = _imap(work.config.imap)
    try:
        _, status = imap.response("UIDVALIDITY")
        validity = (status[0] or b"").decode()
        last = seen.get("last_uid", 0) if seen.get("uidvalidity") == validity else 0
        _, found = imap.uid("SEARCH", None, f"UID {last + 1}:*")
        held = None
        for uid in sorted(int(u) for u in found[0].split() if int(u) > last):
            if not _one_mail(imap, uid, work, mark.parent, single) and held is None:
                held = uid - 1
            write_whole(mark, json.dumps({"uidvalidity": validity, "last_uid": uid if held is None else held}).encode())
    finally:
        try:
            imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def _one_mail(imap: imaplib.IMAP4, uid: int, work: Pass, club: Path, single: bool) -> bool:
    """Give one mail to its game; False when its game could not be opened."""
    _, data = imap.uid("FETCH", str(uid), HEADERS)
    if not data or not isinstance(data[0], tuple):
        return True  # expunged meanwhile
    meta, header = data[0]
    size_found = SIZE.search(meta)
    size = int(size_found.group(1)) if size_found else 0
    head = BytesParser(policy=policy.compat32).parsebytes(header, headersonly=True)
    found_id, sender = identify(header)
    message_id = found_id or f"<uid-{uid}@{work.config.imap.host}>"
    game = next(iter([*work.opened, *work.idle]), None) if single else _route(head, sender, work)
    game_pass = work.opened.get(game) or (work.open(game) if game is not None else None)
    if game_pass is None:
        if game is None:
            _log_outside(club, f"{message_id} from {sender}: belongs to no game; ignored", work.now, club=True)
        return game is None
    if message_id in game_pass.room.handled:
        return True
    if size > work.config.max_message_bytes:
        _too_big(game_pass, message_id, sender, size, work.config.max_message_bytes)
        return True
    _, body = imap.uid("FETCH", str(uid), "(BODY.PEEK[])")
    raw = body[0][1] if body and isinstance(body[0], tuple) else b""
    try:
        incoming = read_incoming(raw)
        incoming.message_id = message_id  # the journal's key, as the headers gave it
        game_pass.handle(incoming)
    except OSError:
        raise  # this machine's disk or the servers: the next pass takes this mail again
    except Exception as exc:  # noqa: BLE001 - one mail never stops the pass: it is journalled with why
        game_pass.failed(message_id, sender, f"{type(exc).__name__}: {exc}"[:300])
    return True


def _clean(value: Any) -> str:
    """A header as one line of text, whatever its bytes."""
    text = str(value or "")
    return re.sub(r"[\x00-\x1f\x7f\x85\u2028\u2029]+", " ", text).strip()[:500]


def _route(head, sender: str, work: Pass) -> Path | None:
    """The game a mail of a club's mailbox is for: its address tag, its subject, or its sender."""
    addresses = getaddresses([_clean(head.get(h)) for h in ("To", "Cc", "Delivered-To")])
    tags = {address.split("@")[0].split("+", 1)[1].lower() for _, address in addresses
            if "+" in address.split("@")[0]}
    subject = _clean(head.get("Subject")).lower()
    known = {game: (p.name, [q.address.lower() for q in p.players.players]) for game, p in work.opened.items()}
    known |= {game: (record["name"], record["addresses"]) for game, record in work.idle.items()}
    for game, (name, _) in sorted(known.items()):
        if game.name.lower() in tags or f"[{game.name.lower()}]" in subject or f"[{name.lower()}]" in subject:
            return game
    playing = [game for game, (_, players) in known.items() if sender in players]
    return playing[0] if len(playing) == 1 else None


def _too_big(game_pass: GamePass, message_id: str, sender: str, size: int, limit: int) -> None:
    player = game_pass.players.by_address(sender)
    game_pass.room.log(f"{message_id} from {sender}: {size} bytes, over the limit of {limit}: not read")
    if player is not None:
        game_pass.answers.reply(player, Incoming(message_id, player.address, "your mail", None, None),
                                f"Your mail of {size:,} bytes was not read: a mail to this game may have at most "
                                f"{limit:,} bytes. Send the orders as a small YAML attachment or in the body.\n",
                                refusal=True)
    game_pass.room.note("handled", message_id=message_id, sender=sender, outcome="too big")


def _log_outside(folder: Path, line: str, now: datetime, club: bool = False) -> None:
    """A line in the game's log when its own files stop it, or the club's log for a stray mail."""
    path = folder / "mail-log.txt" if club else folder / MAIL_DIR / "log.txt"
    try:
        path.parent.mkdir(exist_ok=True)
        with open(path, "a", encoding="utf-8") as out:
            out.write(f"{now.isoformat(timespec='minutes')} {line}\n")
    except OSError:
        pass  # the log is a courtesy; the pass's own output says it too


def _flush(passes, server: Server, stack) -> None:
    """Send what waits in every outbox over one SMTP session; a mail moves to sent/ only once the
    server took it, so a failure leaves the rest for the next pass."""
    smtp = None
    for game_pass in passes:
        for path in game_pass.room.waiting():
            raw = path.read_bytes()
            head = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
            if smtp is None:
                smtp = stack.enter_context(_smtp(server))
            smtp.sendmail(parseaddr(str(head["From"]))[1], [parseaddr(str(head["To"]))[1]], raw)
            game_pass.room.sent(path)
            game_pass.room.log(f"sent to {head['To']}: {head['Subject']}")


def _context(server: Server) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=server.ca_file)


def _smtp(server: Server) -> smtplib.SMTP:
    if server.tls == "ssl":
        smtp = smtplib.SMTP_SSL(server.host, server.port, context=_context(server), timeout=60)
    else:
        smtp = smtplib.SMTP(server.host, server.port, timeout=60)
        if server.tls == "starttls":
            smtp.starttls(context=_context(server))
    if server.user:
        smtp.login(server.user, server.password)
    return smtp


def _imap(server: Server) -> imaplib.IMAP4:
    if server.tls == "ssl":
        imap = imaplib.IMAP4_SSL(server.host, server.port, ssl_context=_context(server), timeout=60)
    else:
        imap = imaplib.IMAP4(server.host, server.port, timeout=60)
        if server.tls == "starttls":
            imap.starttls(ssl_context=_context(server))
    imap.login(server.user, server.password)
    imap.select("INBOX")
    return imap

