"""The mail loop against the servers clubs really run (tests/real_mail.py): a player's client sends
orders through Postfix's submission service, Postfix delivers them by LMTP into the moderator's
Dovecot mailbox, one pass of the loop reads them over IMAP and sends its answers and the reports
through Postfix, and each player finds them in their own Dovecot mailbox.

Only the loop's public entry points (run_pass, MailConfig, Server) are used, and only outcomes are
checked: a reply threaded to the player's mail, the turn in the ledger, a report in every mailbox."""

from __future__ import annotations

import imaplib
import json
import shutil
import smtplib
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.core.players import password_hash
from pbem.mail.config import MailConfig
from pbem.mail.loop import run_pass
from pbem.render import render_turn
from real_mail import DOMAIN, MODERATOR, ROLES  # as conftest.py imports it: one module, not two

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "aa-revised"
PLAYERS = ROLES["aa-revised"]
SALT = "00112233aabbccdd"
NOW = datetime.fromisoformat("2026-11-23T10:00")  # a Monday


def _game_password(role: str) -> str:
    return f"{role}-game-pw"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The Revised example before its first turn, with a players file whose players have
    mailboxes on the test servers."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLE, folder)
    for line in (folder / "ledger.jsonl").read_text().splitlines():
        entry = json.loads(line)
        shutil.rmtree(folder / entry["output"])
        (folder / entry["turn_file"]).unlink()
    (folder / "ledger.jsonl").unlink()
    lines = [f"moderator: {{name: Mo, address: {MODERATOR}}}", "players:"]
    lines += [f"  - {{name: {role.title()}, address: {role}@{DOMAIN}, roles: [{role}], "
              f"password: 'sha256:{SALT}:{password_hash(SALT, _game_password(role))}'}}" for role in PLAYERS]
    lines += ["deadline: {hours: 48, grace_hours: 6, reminders: [24, 2]}", "missing_orders: wait"]
    (folder / "players.yaml").write_text("\n".join(lines) + "\n")
    return folder


@pytest.fixture
def servers(real_mail):
    """The session's servers with every mailbox empty."""
    real_mail.clear()
    return real_mail


def _orders_mail(role: str, game_password: str, message_id: str) -> EmailMessage:
    """Orders as a player mails them: the game password in the body, the orders attached."""
    mail = EmailMessage()
    mail["From"] = f"{role.title()} <{role}@{DOMAIN}>"
    mail["To"] = MODERATOR
    mail["Subject"] = f"{role} orders"
    mail["Message-ID"] = message_id
    mail.set_content(f"password: {game_password}\ngame_turn: 1\n\nMy orders are attached.\n")
    first = json.loads((EXAMPLE / "ledger.jsonl").read_text().splitlines()[0])
    orders = (EXAMPLE / "orders" / Path(first["turn_file"]).name).read_bytes()
    mail.add_attachment(orders, maintype="application", subtype="yaml", filename="orders.yaml")
    return mail


def _replies(mails: list[EmailMessage], message_id: str) -> list[EmailMessage]:
    return [m for m in mails if (m["In-Reply-To"] or "").strip() == message_id]


def _ledger(game: Path) -> list[dict]:
    path = game / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_orders_mailed_through_postfix_are_answered_adjudicated_and_reported(servers, game: Path) -> None:
    servers.send("ussr@example.org", _orders_mail("ussr", _game_password("ussr"), "<ussr-turn1@example.org>"))
    assert len(servers.wait_for(MODERATOR, 1)) == 1  # Postfix delivered it into Dovecot

    config = MailConfig(imap=servers.imap_starttls(MODERATOR), smtp=servers.smtp(MODERATOR))
    run_pass(game, config, NOW, render_turn)
    servers.wait_delivered()

    ledger, example = _ledger(game), json.loads((EXAMPLE / "ledger.jsonl").read_text().splitlines()[0])
    assert [(e["turn"], e["power"]) for e in ledger] == [(example["turn"], "ussr")]
    assert ledger[0]["state_sha256"] == example["state_sha256"]  # as adjudicated by hand
    ussr = servers.mailbox("ussr@example.org")
    assert _replies(ussr, "<ussr-turn1@example.org>"), [m["Subject"] for m in ussr]
    for role in PLAYERS:
        mails = servers.mailbox(f"{role}@{DOMAIN}")
        reports = [m for m in mails if any(True for _ in m.iter_attachments())]
        assert reports, f"{role} got no report: {[m['Subject'] for m in mails]}"
        assert all(m["From"].addresses[0].addr_spec == MODERATOR for m in mails)


def test_the_loop_reads_the_mailbox_over_imaps(servers, game: Path) -> None:
    """A mail with a wrong game password, read over IMAP with TLS from the start: refused with a
    reply, and no turn played."""
    servers.send("germany@example.org", _orders_mail("germany", "not-the-password", "<forged@example.org>"))
    servers.wait_for(MODERATOR, 1)

    config = MailConfig(imap=servers.imap_ssl(MODERATOR), smtp=servers.smtp(MODERATOR))
    assert config.imap.tls == "ssl"
    run_pass(game, config, NOW, render_turn)
    servers.wait_delivered()

    assert _ledger(game) == []
    assert _replies(servers.mailbox("germany@example.org"), "<forged@example.org>")


def test_the_servers_are_as_strict_as_a_clubs(servers) -> None:
    """What a client must do on these servers, as on a club's: TLS and a login before sending, and
    sending only as oneself; mail for elsewhere is refused. (Dovecot 2.3 counts a connection
    from 127.0.0.1 to 127.0.0.1 as secure and takes a password without TLS there; it offers
    STARTTLS all the same.)"""
    imap = imaplib.IMAP4(servers.imap_starttls().host, servers.imap_port)
    assert "STARTTLS" in imap.capabilities
    imap.logout()

    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "ussr@example.org", MODERATOR, "hello"
    mail.set_content("hello\n")
    with smtplib.SMTP(servers.smtp().host, servers.submission_port) as smtp:
        with pytest.raises(smtplib.SMTPException):
            smtp.send_message(mail)  # neither TLS nor a login
    with smtplib.SMTP(servers.smtp().host, servers.submission_port) as smtp:
        smtp.starttls(context=servers.tls_context())
        smtp.login("germany@example.org", servers.users["germany@example.org"])
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            smtp.send_message(mail, from_addr="ussr@example.org")  # as someone else
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        servers.send("ussr@example.org", mail, to=["someone@elsewhere.invalid"])
    servers.wait_delivered()
    assert servers.mailbox(MODERATOR) == []
