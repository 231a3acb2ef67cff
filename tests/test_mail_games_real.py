"""Whole games run by mail through Dovecot and Postfix (tests/real_mail.py), with no file of the game
touched by hand after `pbem new` but the moderator's players file: every order, standing order and
resubmission goes from a player's client through Postfix's submission service into the moderator's
mailbox, each pass of the loop runs as cron runs it, and every check reads what reached the
players' own mailboxes or what the game folder records.

- Axis & Allies Revised, from `pbem new` into round 2, each turn's state as in the example game:
  standing orders by mail (one power changes them mid-round, and every turn names the version it
  played), a resubmission, orders sent early, two poison mails (an unknown charset, a thousand
  nested multiparts) before valid orders, a pass killed before the reports were queued and one
  killed after, and a power that misses the deadline.
- Quartermaster General's setup turn and round 1: each country's hand reaches its own player only.
"""

from __future__ import annotations

import hashlib
import imaplib
import json
import re
import smtplib
import time
from collections import Counter
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.core.chain import read_secret
from pbem.core.game import new_game, verify_game
from pbem.core.players import password_hash
from pbem.core.yamlio import dump_yaml, load_document
from pbem.mail.config import MailConfig
from pbem.mail.loop import run_pass
from pbem.mail.room import Mailroom
from pbem.mail.turns import GameTurns
from pbem.render import render_turn
from pbem.rulesets import get_ruleset
from real_mail import DOMAIN, MODERATOR, ROLES  # as conftest.py imports it: one module, not two

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SALT = "a1b2c3d4e5f60718"
T0 = datetime.fromisoformat("2026-11-23T10:00")  # a Monday


LEGACY = {"aa-revised": {"partial_retreat": "subs_with_fleet"}}
"""Options the example game predates: `pbem new` names every option in the state, so the example's
rules are chosen by their legacy values, and a state is compared with the example's without them."""


def _as_example(example: str, state: Path) -> bytes:
    """A state file as the example game's options would have written it."""
    data = load_document(state).data
    for name, value in LEGACY.get(example, {}).items():
        assert data["options"].pop(name) == value
    return dump_yaml(data).encode("utf-8")


class Killed(BaseException):
    """The pass's process killed at that instant (no `except Exception` catches it)."""


def _password(role: str) -> str:
    return f"{role}-game-pw"


def _address(role: str) -> str:
    return f"{role}@{DOMAIN}"


def _ledger(folder: Path) -> list[dict]:
    path = folder / "ledger.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def _journal(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "mail" / "journal.jsonl").read_text().splitlines()]


def _new_game(example: str, folder: Path, missing: str) -> Path:
    """`pbem new` with the example's name, options and secret, so that its orders fit the deal, and
    the moderator's players file: one player a role, each with a game password."""
    info = load_document(EXAMPLES / example / "game.yaml").data
    new_game(info["ruleset"], folder, info["game"], {**info["options"], **LEGACY.get(example, {})},
             secret=read_secret(EXAMPLES / example / "secret.yaml"))
    assert _as_example(example, folder / "start" / "state.yaml") == \
        (EXAMPLES / example / "start" / "state.yaml").read_bytes()
    lines = [f"moderator: {{name: Mo, address: {MODERATOR}}}", "players:"]
    lines += [f"  - {{name: {role.title()}, address: {_address(role)}, roles: [{role}], "
              f"password: 'sha256:{SALT}:{password_hash(SALT, _password(role))}'}}" for role in ROLES[example]]
    lines += ["deadline: {hours: 48, grace_hours: 6, reminders: [24, 2]}", f"missing_orders: {missing}"]
    (folder / "players.yaml").write_text("\n".join(lines) + "\n")
    return folder


class Club:
    """The players' side of a game: their clients sending through Postfix, and cron's passes."""

    def __init__(self, servers, game: Path) -> None:
        self.servers, self.game = servers, game
        self.config = MailConfig(imap=servers.imap_starttls(MODERATOR), smtp=servers.smtp(MODERATOR))
        self.sent = 0
        self.serial = 0

    def send(self, role: str, top: str, orders: bytes | None = None, subject: str | None = None,
             mail: EmailMessage | None = None) -> str:
        """Mail from `role`'s player: `top` the lines above the orders, the orders attached. Waits
        until Dovecot holds it, so that mails arrive in the order they were sent."""
        self.serial += 1
        message_id = f"<{role}-{self.serial}@{DOMAIN}>"
        if mail is None:
            mail = EmailMessage()
            mail["Subject"] = subject or f"{role} mail {self.serial}"
            mail.set_content(top)
            if orders is not None:
                mail.add_attachment(orders, maintype="application", subtype="yaml", filename="orders.yaml")
        mail["From"] = f"{role.title()} <{_address(role)}>"
        mail["To"] = MODERATOR
        mail["Message-ID"] = message_id
        self.servers.send(_address(role), mail)
        self._arrived()
        return message_id

    def send_raw(self, role: str, raw: bytes) -> None:
        """Bytes no mail library would write, as a player's client sends them."""
        with smtplib.SMTP(self.config.smtp.host, self.servers.submission_port, timeout=30) as smtp:
            smtp.starttls(context=self.servers.tls_context())
            smtp.login(_address(role), self.servers.users[_address(role)])
            smtp.sendmail(_address(role), [MODERATOR], raw)
        self._arrived()

    def _arrived(self) -> None:
        """Wait until the moderator's mailbox holds every mail sent (counted, not parsed: a
        poison mail may be one the mail library cannot read)."""
        self.sent += 1
        end = time.monotonic() + 30
        while True:
            self.servers.wait_delivered()
            imap = imaplib.IMAP4(self.config.imap.host, self.servers.imap_port, timeout=30)
            imap.starttls(ssl_context=self.servers.tls_context())
            imap.login(MODERATOR, self.servers.users[MODERATOR])
            try:
                imap.select("INBOX", readonly=True)
                _, found = imap.uid("SEARCH", None, "ALL")
            finally:
                imap.logout()
            if len(found[0].split()) >= self.sent:
                return
            assert time.monotonic() < end, f"the moderator has {len(found[0].split())} of {self.sent} mails"
            time.sleep(0.05)

    def orders(self, role: str, path: Path, turn: int, subject: str | None = None) -> str:
        return self.send(role, f"password: {_password(role)}\ngame_turn: {turn}\n\nMy orders are attached.\n",
                         path.read_bytes(), subject)

    def standing(self, role: str, text: bytes) -> str:
        return self.send(role, f"password: {_password(role)}\nstanding_orders: yes\n", text,
                         f"{role} standing orders ({self.serial + 1})")

    def run(self, now: datetime) -> list[str]:
        lines = run_pass(self.game, self.config, now, render_turn)
        self.servers.wait_delivered()
        return lines

    def mailbox(self, role: str) -> list[EmailMessage]:
        return self.servers.mailbox(_address(role))


def _replies(mails: list[EmailMessage], message_id: str) -> list[EmailMessage]:
    return [m for m in mails if (m["In-Reply-To"] or "").strip() == message_id]


def _text(mail: EmailMessage) -> str:
    """The mail's plain text, its lines ended as Python writes them (IMAP gives CRLF)."""
    return mail.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def _reports(mails: list[EmailMessage], turn: int) -> list[EmailMessage]:
    return [m for m in mails if f"] Game turn {turn} (" in m["Subject"]]


def _once_each(mails: list[EmailMessage]) -> None:
    """No mail reached the player twice: every subject and Message-ID once."""
    twice = [s for s, n in Counter(str(m["Subject"]) for m in mails).items() if n > 1]
    assert not twice, twice
    assert len({m["Message-ID"] for m in mails}) == len(mails)


NESTED_ID = f"<nested@{DOMAIN}>"


def _nested(depth: int) -> bytes:
    """A mail of `depth` multiparts one inside the other, from Japan's address, the password and
    orders at the bottom."""
    lines = [b"From: Japan <japan@example.org>", b"To: " + MODERATOR.encode(), b"Subject: japan nested",
             b"Message-ID: " + NESTED_ID.encode(), b"MIME-Version: 1.0"]
    for level in range(depth):
        lines += [b'Content-Type: multipart/mixed; boundary="b%d"' % level, b"", b"--b%d" % level]
    lines += [b"Content-Type: text/plain", b"", f"password: {_password('japan')}".encode(), b"game_turn: 4",
              b"power: japan"]
    for level in reversed(range(depth)):
        lines += [b"--b%d--" % level]
    return b"\r\n".join(lines) + b"\r\n"


@pytest.fixture
def servers(real_mail):
    real_mail.clear()  # every mailbox, the moderator's too: a new game reads its mailbox from the start
    yield real_mail
    real_mail.clear(MODERATOR)  # no poison left for a later test that reads the moderator's mail


# -- Axis & Allies Revised --------------------------------------------------------------------------

def test_revised_by_mail_from_pbem_new_into_round_two(servers, tmp_path: Path, monkeypatch) -> None:
    example = EXAMPLES / "aa-revised"
    roles = ROLES["aa-revised"]
    expected = _ledger(example)
    game = _new_game("aa-revised", tmp_path / "revised", missing="standing")
    club = Club(servers, game)

    def played(count: int) -> None:
        ledger = _ledger(game)
        assert [e["turn"] for e in ledger] == list(range(1, count + 1))
        for entry, wanted in zip(ledger, expected):
            assert (entry["turn"], entry["power"]) == (wanted["turn"], wanted["power"])
            state = _as_example("aa-revised", game / entry["output"] / "state.yaml")
            assert hashlib.sha256(state).hexdigest() == wanted["state_sha256"], f"game turn {entry['turn']}"

    # the first pass announces the game
    club.run(T0)
    for role in roles:
        (announce,) = club.mailbox(role)
        assert announce["Subject"] == "[Revised example game] The game begins"
        assert "game_turn: 1" in _text(announce) and "awaits orders from ussr" in _text(announce)

    # every power mails the example's standing orders; the Soviet Union its orders
    standing_ids = {role: club.standing(role, (example / "standing" / f"{role}.yaml").read_bytes()) for role in roles}
    club.orders("ussr", example / "orders" / "01-ussr.yaml", 1)
    club.run(T0 + timedelta(hours=1))
    played(1)
    for role in roles:
        (answer,) = _replies(club.mailbox(role), standing_ids[role])
        assert f"Your standing orders for {role} are valid" in _text(answer)

    # Germany sends two valid versions (the later counts); the UK sends its orders a turn early
    first = club.send("germany", f"password: {_password('germany')}\ngame_turn: 2\n", b"power: germany\n",
                      "germany first thoughts")
    second = club.orders("germany", example / "orders" / "02-germany.yaml", 2, "germany second thoughts")
    early = club.orders("uk", example / "orders" / "03-uk.yaml", 3)
    club.run(T0 + timedelta(hours=2))
    played(3)
    germany = club.mailbox("germany")
    assert "valid and stored as inbox/turn-02/germany.001.yaml" in _text(_replies(germany, first)[0])
    assert "valid and stored as inbox/turn-02/germany.002.yaml" in _text(_replies(germany, second)[0])
    assert load_document(game / "turns" / "02-r1-germany.yaml").data["orders"] == \
        "../inbox/turn-02/germany.002.yaml"
    uk = club.mailbox("uk")
    assert "kept as inbox/turn-03/uk.001.yaml" in _text(_replies(uk, early)[0])
    assert "Your orders for uk sent early (uk.001.yaml) are valid and count for game turn 3" in \
        _text(_reports(uk, 2)[0])

    # the UK changes its standing orders; a poison mail from Japan's address, then Japan's orders;
    # the pass is killed once game turn 4 is in the ledger, before its reports are queued
    changed = (example / "standing" / "uk.yaml").read_bytes() + b"note: Hold India at all costs.\n"
    uk_change = club.standing("uk", changed)
    poison = EmailMessage()
    poison["Subject"] = "japan orders, garbled"
    poison["Content-Type"] = "text/plain; charset=x-unknown"
    poison["Content-Transfer-Encoding"] = "base64"
    poison.set_payload("//79/Pv6+fj39vX08/Lx8O/u7ezr6uno5+bl5OPi4eDf3t3c29rZ2NfW1dTT0tHQ\n")
    poison_id = club.send("japan", "", mail=poison)
    club.send_raw("japan", _nested(1000))
    club.orders("japan", example / "orders" / "04-japan.yaml", 4)
    original = GameTurns._mail_reports

    def killed_before_queueing(self, entry):
        monkeypatch.setattr(GameTurns, "_mail_reports", original)
        raise Killed(entry["turn"])
    monkeypatch.setattr(GameTurns, "_mail_reports", killed_before_queueing)
    with pytest.raises(Killed):
        club.run(T0 + timedelta(hours=3))
    played(4)
    handled = [s for s in _journal(game) if s.get("step") == "handled" and s["message_id"] == poison_id]
    # the unknown charset reads as UTF-8: garbage without the game password
    assert [s["outcome"] for s in handled] == ["wrong password"], handled
    handled = [s for s in _journal(game) if s.get("step") == "handled" and s["message_id"] == NESTED_ID]
    assert [s["outcome"] for s in handled] == ["unreadable"] and "deep" in handled[0]["why"], handled
    assert all(not _reports(club.mailbox(role), 4) for role in roles)

    # the next pass mails game turn 4; the USA's orders are played, and that pass is killed after
    # game turn 5's reports were queued but before the journal says so
    club.orders("usa", example / "orders" / "05-usa.yaml", 5)
    note = Mailroom.note

    def killed_after_queueing(self, step, **facts):
        if step == "reported" and facts.get("turn") == 5:
            monkeypatch.setattr(Mailroom, "note", note)
            raise Killed(step)
        return note(self, step, **facts)
    monkeypatch.setattr(Mailroom, "note", killed_after_queueing)
    with pytest.raises(Killed):
        club.run(T0 + timedelta(hours=4))
    played(5)
    assert all(len(_reports(club.mailbox(role), 4)) == 1 for role in roles)
    club.run(T0 + timedelta(hours=5))
    played(5)
    answer = _replies(club.mailbox("uk"), uk_change)
    assert len(answer) == 1 and "Your standing orders for uk are valid" in _text(answer[0])
    # the turns before the change name the first version, those after it the second
    versions = {turn: load_document(game / "turns" / f"{turn}.yaml").data["standing_orders"].get("uk")
                for turn in ("01-r1-ussr", "02-r1-germany", "04-r1-japan", "05-r1-usa")}
    assert versions == {"01-r1-ussr": "../standing/versions/uk.001.yaml",
                        "02-r1-germany": "../standing/versions/uk.001.yaml",
                        "04-r1-japan": "../standing/versions/uk.002.yaml",
                        "05-r1-usa": "../standing/versions/uk.002.yaml"}
    assert (game / "standing" / "versions" / "uk.002.yaml").read_bytes() == changed

    # round 2: the Soviet Union sends nothing; a reminder, the late notice, then the turn is played
    # with empty orders once the grace is over (the turn's clock began with game turn 5's reports)
    started = T0 + timedelta(hours=4)
    club.run(started + timedelta(hours=30))
    club.run(started + timedelta(hours=49))
    assert len(_ledger(game)) == 5
    club.run(started + timedelta(hours=55))
    assert [e["power"] for e in _ledger(game)] == ["ussr", "germany", "uk", "japan", "usa", "ussr"]
    assert load_document(game / "turns" / "06-r2-ussr.yaml").data["orders"] == "../inbox/turn-06/ussr.none.yaml"

    for role in roles:
        mails = club.mailbox(role)
        _once_each(mails)
        for turn in range(1, 7):
            assert len(_reports(mails, turn)) == 1, (role, turn, [m["Subject"] for m in mails])
        assert "ussr sent no valid orders by the deadline" in _text(_reports(mails, 6)[0])
    ussr = [str(m["Subject"]) for m in club.mailbox("ussr")]
    assert any(s.startswith("[Revised example game] Reminder: orders for ussr") for s in ussr), ussr
    assert "[Revised example game] Late: orders for ussr" in ussr
    assert not any("Reminder" in str(m["Subject"]) for m in club.mailbox("germany"))

    assert [v.turn for v in verify_game(game)] == [1, 2, 3, 4, 5, 6]


# -- Quartermaster General --------------------------------------------------------------------------

def _contents(mail: EmailMessage) -> str:
    """Everything a mail shows its reader: every text part and text attachment, decoded."""
    shown = []
    for part in mail.walk():
        if part.get_content_maintype() == "text":
            content = part.get_content()
            shown.append(content.decode("utf-8", "replace") if isinstance(content, bytes) else content)
    return "\n".join(shown).replace("\r\n", "\n")


def _mentions(name: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def test_quartermaster_general_by_mail_hands_stay_private(servers, tmp_path: Path) -> None:
    example = EXAMPLES / "qmg"
    roles = ROLES["qmg"]
    expected = _ledger(example)
    game = _new_game("qmg", tmp_path / "qmg", missing="wait")
    club = Club(servers, game)
    ruleset = get_ruleset("qmg")
    start = load_document(game / "start" / "state.yaml").data

    def played(count: int) -> None:
        ledger = _ledger(game)
        assert [(e["turn"], e["power"], e["state_sha256"]) for e in ledger] == \
            [(e["turn"], e["power"], e["state_sha256"]) for e in expected[:count]]

    club.run(T0)
    for role in roles:
        (announce,) = club.mailbox(role)
        assert announce["Subject"] == "[qmg] The game begins"
        private = _text(announce).split("For your eyes only:\n", 1)[1].rstrip("\n") + "\n"
        assert private == "".join(f"- {role}: {line}\n" for line in ruleset.private_brief(start, role))
        # the position as the country may see it, to check its orders on: its own view, no other
        assert {part.get_filename(): part.get_content() for part in announce.iter_attachments()} == \
            {f"view-{role}.yaml": (game / "start" / f"view-{role}.yaml").read_bytes()}

    # the setup turn: every country's standing orders and its three discards
    for role in roles:
        club.standing(role, (example / "standing" / f"{role}.yaml").read_bytes())
    for role in roles:
        club.orders(role, example / "orders" / f"00-setup-{role}.yaml", 1)
    club.run(T0 + timedelta(hours=1))
    played(1)

    # round 1: the first three countries' orders in one pass (two of them early), then the others'
    turns = [path.stem for path in sorted((example / "turns").glob("0[1-6]-r1-*.yaml"))]
    for number, (name, role) in enumerate(zip(turns, roles), start=2):
        club.orders(role, example / "orders" / f"{name}.yaml", number)
        if role == "japan":
            club.run(T0 + timedelta(hours=2))
            played(4)
    club.run(T0 + timedelta(hours=3))
    played(7)

    # what each country may know: the cards of its own deck; another country's cards are secret
    # unless a public report names them (a card played face up) or another deck holds one so named
    names = {role: {ruleset.pack.name(role, card) for zone in ("hand", "deck")
                    for card in start["countries"][role][zone]} for role in roles}
    public = "\n".join((game / e["output"] / name).read_text() for e in _ledger(game)
                       for name in ("report.md", "report.html"))
    secret = {role: {name for name in names[role] if not any(name in names[other] for other in roles if other != role)
                     and not _mentions(name, public)} for role in roles}
    assert sum(bool(cards) for cards in secret.values()) >= 4, secret  # Italy and the USA: common cards only

    ledger = _ledger(game)
    for role in roles:
        mails = club.mailbox(role)
        _once_each(mails)
        shown = {id(m): _contents(m) for m in mails}
        for other in roles:
            if other == role:
                continue
            leaked = sorted(name for name in secret[other] for m in mails if _mentions(name, shown[id(m)]))
            assert not leaked, f"{role} was shown {other}'s cards {leaked}"
        for mail in mails:
            private = [n for part in mail.iter_attachments() if (n := part.get_filename() or "").startswith("report-")]
            assert all(n.startswith(f"report-{role}.") for n in private), (role, private)
            assert set(re.findall(r"^- (\w+): your hand:", _text(mail), re.M)) <= {role}
        # each turn's report brings the country its own private report and its hand for what follows
        for entry in ledger:
            (report,) = _reports(mails, entry["turn"])
            attached = {part.get_filename(): part.get_content() for part in report.iter_attachments()}
            assert attached[f"report-{role}.md"].replace("\r\n", "\n") == \
                (game / entry["output"] / f"report-{role}.md").read_text()
            after = load_document(game / entry["output"] / "state.yaml").data
            hand = "".join(f"- {role}: {line}\n" for line in ruleset.private_brief(after, role))
            assert "For your eyes only:\n" + hand in _text(report)
            assert [n for n in attached if n.startswith("view-")] == [f"view-{role}.yaml"]
            assert attached[f"view-{role}.yaml"] == (game / entry["output"] / f"view-{role}.yaml").read_bytes()
        own = sorted(name for name in secret[role] if any(_mentions(name, shown[id(m)]) for m in mails))
        assert own or not secret[role], f"{role}'s own cards never reached it"

    assert [v.turn for v in verify_game(game)] == list(range(1, 8))
