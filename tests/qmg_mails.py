"""A Quartermaster General game run by mail, for the pairs of test_qmg_pairs.py: the players' mails
delivered into the moderator's mailbox, the mail loop's passes, and every mail each player gets,
as one text a mail (headers, each part and attachment) with only what may differ between the two
games of a pair in words: the date a mail was written and the commitments."""

from __future__ import annotations

import hashlib
import imaplib
import json
import ssl
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from qmg_folders import text
from qmg_pairs import commitments, in_words
from test_mail import MODERATOR, SALT, Mailboxes, _deliver, _orders_mail

from pbem.core.players import password_hash
from pbem.mail.config import MailConfig, Server
from pbem.mail.loop import run_pass
from pbem.render import render_turn
from pbem.rulesets.qmg.content import COUNTRIES


def players_file(folder: Path) -> None:
    """One player a country, each with its game password, as the mail tests' players."""
    lines = [f"moderator: {{name: Mo, address: {MODERATOR}}}", "players:"]
    lines += [f"  - {{name: {c.title()}, address: {c}@example.org, roles: [{c}], "
              f"password: 'sha256:{SALT}:{password_hash(SALT, c + '-pw')}'}}" for c in COUNTRIES]
    (folder / "players.yaml").write_text("\n".join(lines + ["deadline: {hours: 48, grace_hours: 6}"]) + "\n")


def _empty(server: Server) -> None:
    """The moderator's mailbox emptied, as after the other game's pass: a pass reads only new mails."""
    imap = imaplib.IMAP4(server.host, server.port)
    imap.starttls(ssl_context=ssl.create_default_context(cafile=server.ca_file))
    imap.login(server.user, server.password)
    imap.select("INBOX")
    imap.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
    imap.expunge()
    imap.logout()


def by_mail(folder: Path, config: MailConfig, mailboxes: Mailboxes, at: str, mails: list[tuple[str, str, int | None]]
            ) -> dict[str, list[EmailMessage]]:
    """Mail each (country, orders as text, game turn or None for standing orders) to the game,
    run the loop's pass at `at`, and what each player got from it."""
    _empty(config.imap)
    for number, (country, orders, turn) in enumerate(mails):
        top = "" if turn else "standing_orders: yes\n"
        message_id = f"<{at.replace(':', '')}-{number}-{country}@example.org>"  # the answer's Message-ID grows from it
        _deliver(config.imap, _orders_mail(country, top + orders, message_id, turn=turn or 1))
    run_pass(folder, config, datetime.fromisoformat(at), render_turn)
    got = {c: list(mailboxes.of(f"{c}@example.org")) for c in COUNTRIES}
    mailboxes.boxes.clear()
    return got


def orders_mails(orders: dict[str, dict], turn: int) -> list[tuple[str, str, int | None]]:
    return [(country, text(data), turn) for country, data in orders.items()]


def standing_mails(standing: dict[str, dict]) -> list[tuple[str, str, int | None]]:
    return [(country, text(data), None) for country, data in standing.items()]


def shown(mail: EmailMessage, folder: Path) -> str:
    """Everything a mail shows its reader, but the date it was written, with the game's
    commitments in words: its headers, and each part's type, file name and content (a picture's
    digest)."""
    events = [json.loads(line) for events in sorted(folder.glob("*/events.jsonl"))
              for line in events.read_text().splitlines()]
    values = [value for turn in _turns(events) for value in commitments(turn)]
    # a multipart's boundary is drawn at random for every mail written: its parts are shown instead
    parts = [f"{key}: {value}" for key, value in mail.items() if key not in ("Date", "Content-Type")]
    for part in mail.walk():
        if not part.is_multipart():
            content = part.get_payload(decode=True) or b""
            readable = part.get_content_maintype() == "text" or str(part.get_filename()).endswith(".yaml")
            parts.append(f"-- {part.get_content_type()} {part.get_filename()}\n"
                         + (content.decode("utf-8") if readable else f"{len(content)} bytes, SHA-256 "
                            f"{hashlib.sha256(content).hexdigest()}"))
    return in_words("\n".join(parts), values)


def _turns(events: list[dict]) -> list[list[dict]]:
    """An event log's turns, each from its turn_start to its turn_end."""
    starts = [i for i, e in enumerate(events) if e["type"] == "turn_start"]
    return [events[i:j] for i, j in zip(starts, starts[1:] + [len(events)])]
