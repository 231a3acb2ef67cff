"""One pass of the mail loop (`pbem mail run GAME`): read the mailbox, answer every new mail,
adjudicate when the orders are in, send the reports, remind and apply the deadline.

    GAME/mail/handled.jsonl   every message handled: its Message-ID, sender and outcome
    GAME/mail/turns.json      each game turn's start (the report that opened it), reminders sent
    GAME/mail/outbox/*.eml    mails waiting for the server, named by what they are
    GAME/mail/sent/*.eml      mails the server took
    GAME/mail/log.txt         what each pass did
"""

from __future__ import annotations

import hashlib
import imaplib
import json
import os
import re
import smtplib
import ssl
from datetime import datetime, timedelta
from email import policy
from email.parser import BytesParser
from email.utils import parseaddr
from pathlib import Path
from typing import Any

import yaml

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.folder import MAIL_DIR, TURN_CLOCKS, private_reports
from pbem.core.moderator import Position, current, latest_valid, play_turn, receive, write_next_turn
from pbem.core.players import PLAYERS_FILE, Player, Players, read_players
from pbem.core.yamlio import parse_document
from pbem.mail.config import MailConfig, Server
from pbem.mail.messages import Incoming, outgoing, read_incoming

UNFOLDED = policy.SMTP.clone(max_line_length=998)
"""Headers on one line (a folded subject reads with a leading blank in some clients)."""
SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.parent / f".{path.name}.new"
    staging.write_bytes(data)
    os.replace(staging, path)


class Mailroom:
    """The game's mail folder: the journal of handled mails, the turns' clocks, the outbox."""

    def __init__(self, game: Path, now: datetime) -> None:
        self.root, self.now, self.lines = game / MAIL_DIR, now, []
        self.handled = self._journal()
        path = game / TURN_CLOCKS
        self.turns: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.exists() else {}

    def _journal(self) -> dict[str, dict[str, Any]]:
        path = self.root / "handled.jsonl"
        if not path.exists():
            return {}
        entries = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return {e["message_id"]: e for e in entries}

    def record(self, message_id: str, **facts: Any) -> None:
        self.handled[message_id] = {"message_id": message_id, **facts}
        text = "".join(json.dumps(e, sort_keys=True) + "\n" for e in self.handled.values())
        _write(self.root / "handled.jsonl", text.encode())

    def save_turns(self) -> None:
        _write(self.root.parent / TURN_CLOCKS, json.dumps(self.turns, indent=1, sort_keys=True).encode())

    def log(self, line: str) -> None:
        self.lines.append(line)
        with open(self.root / "log.txt", "a", encoding="utf-8") as out:
            out.write(f"{self.now.isoformat(timespec='minutes')} {line}\n")

    def queue(self, key: str, message) -> None:
        """Put a mail in the outbox once: a mail of the same key waiting or sent is not queued again."""
        digest = hashlib.sha256(key.encode()).hexdigest()[:24]
        known = [p for folder in ("outbox", "sent") if (self.root / folder).is_dir()
                 for p in (self.root / folder).glob("*.eml")]
        if any(p.name.endswith(f"-{digest}.eml") for p in known):
            return
        # numbered, so that mails go out in the order they were written
        _write(self.root / "outbox" / f"{len(known) + 1:06d}-{digest}.eml", message.as_bytes(policy=UNFOLDED))

    def flush(self, server: Server) -> None:
        """Send what waits in the outbox; a mail moves to sent/ only once the server took it, so a
        failure leaves the rest for the next pass."""
        waiting = sorted((self.root / "outbox").glob("*.eml")) if (self.root / "outbox").is_dir() else []
        if not waiting:
            return
        with _smtp(server) as smtp:
            for path in waiting:
                raw = path.read_bytes()
                message = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
                smtp.sendmail(parseaddr(str(message["From"]))[1], [parseaddr(str(message["To"]))[1]], raw)
                (self.root / "sent").mkdir(exist_ok=True)
                os.replace(path, self.root / "sent" / path.name)
                self.log(f"sent to {message['To']}: {message['Subject']}")


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


def _fetch(config: MailConfig):
    """(message id, sender header, size, raw bytes or None when too big) of every mail in the inbox."""
    imap = _imap(config.imap)
    try:
        _, found = imap.uid("SEARCH", None, "ALL")
        for uid in found[0].split():
            _, data = imap.uid("FETCH", uid, "(RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID FROM)])")
            meta, header = data[0][0], data[0][1]
            size = int(SIZE.search(meta).group(1))
            head = BytesParser(policy=policy.default).parsebytes(header, headersonly=True)
            message_id = (head.get("Message-ID") or "").strip()
            yield uid, message_id, str(head.get("From") or ""), size, imap
    finally:
        try:
            imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass


def run_pass(game: Path, config: MailConfig, now: datetime, render) -> list[str]:
    """One full pass; returns what it did, line by line (also in mail/log.txt)."""
    position = current(game)
    players = read_players(game, position.ruleset.powers)
    if players is None:
        raise InputError([_problem(game / PLAYERS_FILE, "a game run by mail needs its players file")])
    room = Mailroom(game, now)
    room.flush(config.smtp)  # what a killed pass left
    _announce_players(game, players, room)
    for uid, message_id, sender, size, imap in _fetch(config):
        if message_id and message_id in room.handled:
            continue
        if size > config.max_message_bytes:
            _too_big(message_id or f"<uid-{int(uid)}@{config.imap.host}>", sender, size, config, players, room)
            continue
        _, data = imap.uid("FETCH", uid, "(BODY.PEEK[])")
        incoming = read_incoming(data[0][1])
        if incoming.message_id in room.handled:
            continue
        _handle(incoming, players, current(game), room)
    _advance(game, players, room, render)
    room.flush(config.smtp)
    return room.lines


def _problem(path: Path, text: str) -> Problem:
    return Problem(display_path(path), None, "", text, "see docs/moderating.md")


def _sender(players: Players) -> str:
    return f"{players.moderator_name} <{players.moderator_address}>"


def _reply(room: Mailroom, players: Players, player: Player, incoming: Incoming, subject: str, text: str) -> None:
    room.queue(f"reply|{incoming.message_id}", outgoing(
        _sender(players), player.address, f"Re: {incoming.subject or subject}", text,
        reply_to=incoming.message_id, key=f"reply|{incoming.message_id}"))


def _too_big(message_id: str, sender: str, size: int, config: MailConfig, players: Players, room: Mailroom) -> None:
    player = players.by_address(parseaddr(sender)[1])
    room.log(f"{message_id} from {sender}: {size} bytes, over the limit of {config.max_message_bytes}: not read")
    if player is not None:
        fake = Incoming(message_id, player.address, "your mail", None, None)
        _reply(room, players, player, fake, "your mail",
               f"Your mail of {size:,} bytes was not read: a mail to this game may have at most "
               f"{config.max_message_bytes:,} bytes. Send the orders as a small YAML attachment or in the body.")
    room.record(message_id, sender=sender, outcome="too big")


def _handle(incoming: Incoming, players: Players, position: Position, room: Mailroom) -> None:
    player = players.by_address(incoming.sender)
    if player is None:  # no reply: a stranger's address may be forged, and a reply would be spam
        room.log(f"{incoming.message_id} from {incoming.sender}: not a player of this game; ignored")
        room.record(incoming.message_id, sender=incoming.sender, outcome="not a player")
        return
    if not player.knows(incoming.password):
        room.log(f"{incoming.message_id} from {incoming.sender}: wrong or missing game password; refused")
        _reply(room, players, player, incoming, "orders", "Your mail was refused: its game password is wrong or "
               "missing. Put a line 'password: YOUR-GAME-PASSWORD' above your orders. If you did not send it, "
               "someone else used your address; your orders on file are unchanged.")
        room.record(incoming.message_id, sender=incoming.sender, outcome="wrong password")
        return
    if not incoming.text or not incoming.text.strip():
        _reply(room, players, player, incoming, "orders", "Your mail held no orders: send them as a YAML "
               "attachment or as the text of the mail.")
        room.record(incoming.message_id, sender=incoming.sender, outcome="no orders")
        return
    default_role = player.roles[0] if len(player.roles) == 1 else None
    try:
        stored, role, problems = receive(position, incoming.text, f"your mail {incoming.message_id}", default_role)
    except InputError as exc:
        _reply(room, players, player, incoming, "orders", "Your orders were not stored:\n" +
               "\n".join(f"- {p}" for p in exc.problems))
        room.record(incoming.message_id, sender=incoming.sender, outcome="refused")
        return
    if role not in player.roles:
        stored.unlink()
        _reply(room, players, player, incoming, "orders", f"Your orders are for {role}, whom you do not play "
               f"(you play {', '.join(player.roles)}); they were not stored.")
        room.record(incoming.message_id, sender=incoming.sender, outcome="not your role")
        return
    where = stored.relative_to(position.folder).as_posix()
    repaired = []
    try:
        repaired = [f"line {n.line}: {n.message}" for n in parse_document(incoming.text, "orders").notes]
    except InputError:
        pass  # the problems say why it cannot be read
    notes = "".join(f"- {note}\n" for note in incoming.notes + repaired)
    if problems:
        text = (f"Your orders for {role}, game turn {position.turn}, were stored as {where} but are NOT valid: they "
                "do not count until a valid version comes. Every problem:\n" +
                "\n".join(f"- {p}" for p in problems) + "\n")
    else:
        digest = hashlib.sha256(incoming.text.encode()).hexdigest()
        understood = _understood(position, role, incoming.text)
        text = (f"Your orders for {role}, game turn {position.turn}, are valid and stored as {where}.\n"
                f"SHA-256 of the orders: {digest}\n\nAs understood:\n{understood}\n"
                "A later valid version replaces them until the turn is played.\n")
    if notes:
        text += "\nHow your mail was read:\n" + notes
    _reply(room, players, player, incoming, "orders", text)
    room.log(f"{incoming.message_id} from {incoming.sender}: {role}'s orders stored as {where}, "
             f"{'not valid' if problems else 'valid'}")
    room.record(incoming.message_id, sender=incoming.sender, outcome="stored", stored=where, valid=not problems)


def _compact(data: Any) -> Any:
    """The canonical orders without the fields left empty, as a player reads them back."""
    if isinstance(data, dict):
        kept = {k: _compact(v) for k, v in data.items()}
        return {k: v for k, v in kept.items() if v not in (None, [], {})}
    if isinstance(data, list):
        return [_compact(v) for v in data]
    return data


def _understood(position: Position, role: str, text: str) -> str:
    doc = parse_document(text, "orders")
    decided = position.ruleset.decisions(position.state, {role: doc}, {})
    return yaml.safe_dump(_compact(decided), sort_keys=False, allow_unicode=True, width=100)


def _announce_players(game: Path, players: Players, room: Mailroom) -> None:
    """Tell everyone who plays what whenever the players file changes (passwords never shown)."""
    digest = hashlib.sha256((game / PLAYERS_FILE).read_bytes()).hexdigest()
    lines = "\n".join(f"- {p.name} <{p.address}>: {', '.join(p.roles)}" for p in players.players)
    policy = players.deadline
    text = (f"The players of this game, as the moderator's players file now says:\n{lines}\n\n"
            f"Orders are due {policy.hours} hours after each report (counting {', '.join(policy.weekdays)}), "
            f"with {policy.grace_hours} hours of grace; missing orders: {players.missing_orders}.\n")
    for player in players.players:
        key = f"players|{digest}|{player.address}"
        room.queue(key, outgoing(_sender(players), player.address, "The players of the game", text, key=key))


def _advance(game: Path, players: Players, room: Mailroom, render) -> None:
    """Adjudicate while every awaited role has valid orders (or the deadline's policy says to play
    without them), mailing each turn's reports; else remind and warn as the deadline nears."""
    for _ in range(100):  # a pass never plays more turns than this (a runaway guard)
        position = current(game)
        if not position.awaited:
            return
        clock = room.turns.setdefault(str(position.turn), {"started": room.now.isoformat(), "reminded": [],
                                                            "late": False})
        room.save_turns()
        started = datetime.fromisoformat(clock["started"])
        missing = [role for role in position.awaited if latest_valid(position, role)[0] is None]
        due, late = players.deadline.due(started), players.deadline.late(started)
        if missing and not (room.now >= late and players.missing_orders == "standing"):
            _remind(position, players, room, clock, missing, due)
            return
        turn = write_next_turn(position, "standing" if missing else "wait")
        if missing:
            room.log(f"game turn {position.turn}: the deadline passed; {', '.join(missing)} play with empty orders")
        out, files = play_turn(turn, render)
        room.log(f"game turn {position.turn} played: {out.name}")
        _mail_reports(game, players, room, position, out, files)


def _remind(position: Position, players: Players, room: Mailroom, clock: dict[str, Any], missing: list[str],
            due: datetime) -> None:
    owing = {players.of_role(role).address: players.of_role(role) for role in missing}
    for hours in sorted(players.deadline.reminders, reverse=True):
        if hours not in clock["reminded"] and due - timedelta(hours=hours) <= room.now < due:
            clock["reminded"].append(hours)
            for player in owing.values():
                roles = ", ".join(r for r in missing if r in player.roles)
                key = f"reminder|{position.turn}|{hours}|{player.address}"
                room.queue(key, outgoing(_sender(players), player.address,
                                         f"Reminder: orders for {roles} due {due:%a %d %b %H:%M} UTC",
                                         f"Game turn {position.turn} still needs valid orders for {roles}. They are "
                                         f"due {due:%A %d %B %H:%M} UTC.\n", key=key))
    if room.now >= due and not clock["late"]:
        clock["late"] = True
        for player in owing.values():
            roles = ", ".join(r for r in missing if r in player.roles)
            key = f"late|{position.turn}|{player.address}"
            policy = "they will be played with empty orders and your standing orders" \
                if players.missing_orders == "standing" else "the game waits for them"
            room.queue(key, outgoing(_sender(players), player.address, f"Late: orders for {roles}",
                                     f"The orders for {roles} were due {due:%A %d %B %H:%M} UTC and are not in. "
                                     f"After {players.deadline.grace_hours} hours of grace {policy}.\n", key=key))
    room.save_turns()


def _mail_reports(game: Path, players: Players, room: Mailroom, before: Position, out: Path,
                  files: dict[str, bytes]) -> None:
    after = current(game)
    done = ", ".join(before.awaited)
    if after.awaited:
        due = players.deadline.due(room.now)
        following = f"{', '.join(after.awaited)} to play, orders due {due:%a %d %b %H:%M} UTC"
    else:
        following = "the game is over"
    subject = f"R{before.state['round']} {done} done - {following}"
    from pbem.render.palette import forum_png  # PIL: only when a turn is mailed
    html = files["report.html"].decode()
    png = files.get("map.png")
    inline = {}
    if png is not None:
        inline["map"] = files.get("map-forum.png") or png  # the same board in a third of the bytes
        html = re.sub(r'src="data:image/png;base64,[^"]*"', 'src="cid:map"', html, count=1)
    if "charts.png" in files:  # the HTML's charts are SVG, which few mail clients show
        inline["charts"] = files["charts.png"]
        html = re.sub(r'src="data:image/svg\+xml;base64,[^"]*"', 'src="cid:charts"', html, count=1)
    for player in players.players:
        attachments = [("report.md", files["report.md"], "text/markdown"),
                       ("report.bbcode", files["report.bbcode"], "text/plain")]
        if png is not None:
            # an Axis & Allies turn writes its forum-size map; a card game's board is small already
            attachments.append(("map-forum.png", files.get("map-forum.png") or forum_png(png), "image/png"))
        if "charts.png" in files:
            attachments.append(("charts.png", files["charts.png"], "image/png"))
        for role in player.roles:
            for name in private_reports(role):
                if name in files:
                    attachments.append((name, files[name], "text/html" if name.endswith(".html") else "text/plain"))
        key = f"report|{before.turn}|{player.address}"
        room.queue(key, outgoing(_sender(players), player.address, subject, files["report.md"].decode(), html,
                                 attachments, inline, key=key))
    room.log(f"reports of game turn {before.turn} queued for {len(players.players)} players: {subject}")

