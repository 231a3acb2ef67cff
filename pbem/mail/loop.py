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
from pbem.mail.room import GameBusy, Mailroom, disk_problem, game_identity, game_lock, write_whole
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
    """A pass over the games of one mailbox."""

    config: MailConfig
    now: datetime
    render: Any
    lines: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def open(self, game: Path, stack) -> GamePass | None:
        try:
            stack.enter_context(game_lock(game))
            return GamePass(game, self.now, self.render)
        except GameBusy:
            self.lines.append(f"{display_path(game)}: another pass is at work on it; left to it")
        except InputError as exc:
            self.problems += exc.problems
            _log_outside(game, "the pass stopped: " + "; ".join(str(p) for p in exc.problems), self.now)
        return None


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
    from contextlib import ExitStack
    work = Pass(config, now, render)
    with ExitStack() as stack:
        passes: dict[Path, GamePass] = {}
        try:
            for game in games:
                opened = work.open(game, stack)
                if opened is not None:
                    passes[game] = opened
                    opened.turns.recover()
            if passes:
                _flush(passes.values(), config.smtp, stack)
                _read_mailbox(passes, mark, work, single)
                for game_pass in passes.values():
                    game_pass.turns.advance()
                _flush(passes.values(), config.smtp, stack)
        except OSError as exc:
            if _is_server(exc):
                raise
            raise disk_problem(exc, games[0] if single else mark.parent) from None
        for game_pass in passes.values():
            work.lines += game_pass.room.lines
    return work.lines, work.problems


def _is_server(exc: OSError) -> bool:
    """Whether an error came from the mail servers or the network, not from this machine's disk
    (a file operation names its file; a write names none but says the disk is full or read-only)."""
    return exc.filename is None and exc.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)


def _read_mailbox(passes: dict[Path, GamePass], mark: Path, work: Pass, single: bool) -> None:
    """Give every new mail to its game, in arrival order."""
    seen = json.loads(mark.read_text()) if mark.is_file() else {}
    imap = _imap(work.config.imap)
    try:
        _, status = imap.response("UIDVALIDITY")
        validity = (status[0] or b"").decode()
        last = seen.get("last_uid", 0) if seen.get("uidvalidity") == validity else 0
        _, found = imap.uid("SEARCH", None, f"UID {last + 1}:*")
        for uid in sorted(int(u) for u in found[0].split() if int(u) > last):
            _one_mail(imap, uid, passes, work, single)
            write_whole(mark, json.dumps({"uidvalidity": validity, "last_uid": uid}).encode())
    finally:
        try:
            imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def _one_mail(imap: imaplib.IMAP4, uid: int, passes: dict[Path, GamePass], work: Pass, single: bool) -> None:
    _, data = imap.uid("FETCH", str(uid), HEADERS)
    if not data or not isinstance(data[0], tuple):
        return  # expunged meanwhile
    meta, header = data[0]
    size_found = SIZE.search(meta)
    size = int(size_found.group(1)) if size_found else 0
    head = BytesParser(policy=policy.compat32).parsebytes(header, headersonly=True)
    found_id, sender = identify(header)
    message_id = found_id or f"<uid-{uid}@{work.config.imap.host}>"
    game_pass = next(iter(passes.values())) if single else _route(head, sender, passes)
    if game_pass is None:
        _log_outside(next(iter(passes)).parent, f"{message_id} from {sender!r}: belongs to no game; ignored",
                     work.now, club=True)
        return
    if message_id in game_pass.room.handled:
        return
    if size > work.config.max_message_bytes:
        _too_big(game_pass, message_id, sender, size, work.config.max_message_bytes)
        return
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


def _clean(value: Any) -> str:
    """A header as one line of text, whatever its bytes."""
    text = str(value or "")
    return re.sub(r"[\x00-\x1f\x7f\x85\u2028\u2029]+", " ", text).strip()[:500]


def _route(head, sender: str, passes: dict[Path, GamePass]) -> GamePass | None:
    """The game a mail of a club's mailbox is for: its address tag, its subject, or its sender."""
    addresses = getaddresses([_clean(head.get(h)) for h in ("To", "Cc", "Delivered-To")])
    tags = {address.split("@")[0].split("+", 1)[1].lower() for _, address in addresses
            if "+" in address.split("@")[0]}
    subject = _clean(head.get("Subject")).lower()
    for game, game_pass in passes.items():
        if game.name.lower() in tags or f"[{game.name.lower()}]" in subject or \
                f"[{game_pass.name.lower()}]" in subject:
            return game_pass
    playing = [p for p in passes.values() if p.players.by_address(sender) is not None]
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

