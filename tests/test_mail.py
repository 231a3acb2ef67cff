"""The game run by mail against real servers on loopback: pymap as the moderator's IMAP mailbox
(with STARTTLS), aiosmtpd as the SMTP server that delivers into each player's mailbox. Players'
mails are put into the moderator's inbox as a mail server delivers them (IMAP APPEND)."""

from __future__ import annotations

import imaplib
import json
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest
import trustme
from aiosmtpd.controller import Controller
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.players import password_hash
from pbem.mail.config import MailConfig, Server, load_config
from pbem.mail.loop import run_pass
from pbem.render import render_turn

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ROLES = ("ussr", "germany", "uk", "japan", "usa")
SALT = "00112233aabbccdd"
MODERATOR = "mo@example.org"
START = "2026-11-23T10:00"  # a Monday


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    ca = trustme.CA()
    folder = tmp_path_factory.mktemp("tls")
    cert = ca.issue_cert("127.0.0.1", "localhost")
    cert.private_key_pem.write_to_path(str(folder / "key.pem"))
    cert.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    return folder


class ImapServer:
    """pymap on loopback with STARTTLS, in memory: stopping it loses its mails, as a crash would."""

    def __init__(self, certificates: Path) -> None:
        self.certificates, self.port, self.process = certificates, _free_port(), None
        self.start()

    def start(self) -> None:
        pymap = Path(sys.executable).parent / "pymap"
        self.process = subprocess.Popen(
            [str(pymap), "--host", "127.0.0.1", "--port", str(self.port), "--cert", str(self.certificates / "cert.pem"),
             "--key", str(self.certificates / "key.pem"), "dict", "--demo-user", MODERATOR,
             "--demo-password", "imap-secret"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

    @property
    def server(self) -> Server:
        return Server("127.0.0.1", self.port, MODERATOR, "imap-secret", "starttls", str(self.certificates / "ca.pem"))


@pytest.fixture
def imap(certificates):
    running = ImapServer(certificates)
    yield running
    running.stop()


@pytest.fixture
def imap_server(imap) -> Server:
    return imap.server


class Mailboxes:
    """The players' mailboxes: every mail the SMTP server delivers, by recipient."""

    def __init__(self) -> None:
        self.boxes: dict[str, list] = {}
        self.refuse = 0

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            self.refuse -= 1
            return "421 closing the connection: try again later"
        message = BytesParser(policy=policy.default).parsebytes(envelope.content)
        for rcpt in envelope.rcpt_tos:
            self.boxes.setdefault(rcpt.lower(), []).append(message)
        return "250 delivered"

    def of(self, address: str) -> list:
        return self.boxes.get(address, [])


@pytest.fixture
def smtp_server(certificates):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(certificates / "cert.pem"), str(certificates / "key.pem"))
    boxes = Mailboxes()
    controller = Controller(boxes, hostname="127.0.0.1", port=_free_port(), tls_context=context,
                            require_starttls=True)
    controller.start()
    yield Server("127.0.0.1", controller.port, "", "", "starttls", str(certificates / "ca.pem")), boxes
    controller.stop()


@pytest.fixture
def config(imap_server, smtp_server) -> MailConfig:
    return MailConfig(imap_server, smtp_server[0], max_message_bytes=2_000_000)


@pytest.fixture
def mailboxes(smtp_server) -> Mailboxes:
    return smtp_server[1]


def _players(missing: str = "wait", hours: int = 48) -> str:
    lines = [f"moderator: {{name: Mo, address: {MODERATOR}}}", "players:"]
    for role in ROLES:
        lines.append(f"  - {{name: {role.title()}, address: {role}@example.org, roles: [{role}], "
                     f"password: 'sha256:{SALT}:{password_hash(SALT, role + '-pw')}'}}")
    lines.append(f"deadline: {{hours: {hours}, grace_hours: 6, reminders: [24, 2]}}")
    lines.append(f"missing_orders: {missing}")
    return "\n".join(lines) + "\n"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The Revised example before its first turn, with a players file."""
    folder = tmp_path / "game"
    shutil.copytree(EXAMPLES / "aa-revised", folder)
    ledger = [json.loads(line) for line in (folder / "ledger.jsonl").read_text().splitlines()]
    for entry in ledger:
        shutil.rmtree(folder / entry["output"])
        (folder / entry["turn_file"]).unlink()
    (folder / "ledger.jsonl").unlink()
    (folder / "players.yaml").write_text(_players())
    return folder


def _deliver(server: Server, message: EmailMessage | bytes) -> None:
    imap = imaplib.IMAP4(server.host, server.port)
    imap.starttls(ssl_context=ssl.create_default_context(cafile=server.ca_file))
    imap.login(server.user, server.password)
    imap.append("INBOX", None, None, bytes(message) if isinstance(message, EmailMessage) else message)
    imap.logout()


def _orders_mail(role: str, orders: str, message_id: str, password: str | None = None, attach: bool = True,
                 sender: str | None = None, turn: int = 1) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = f"{role.title()} <{sender or role + '@example.org'}>"
    mail["To"] = MODERATOR
    mail["Subject"] = f"{role} orders"
    mail["Message-ID"] = message_id
    line = f"password: {password or role + '-pw'}\ngame_turn: {turn}\n"
    if attach:
        mail.set_content(line + "\nMy orders are attached.\n")
        mail.add_attachment(orders.encode(), maintype="application", subtype="yaml", filename="orders.yaml")
    else:
        mail.set_content(line + orders)
    return mail


def _run(game: Path, config: MailConfig, at: str = START) -> list[str]:
    from datetime import datetime
    return run_pass(game, config, datetime.fromisoformat(at), render_turn)


def test_a_round_by_mail_plays_as_by_hand(game: Path, config: MailConfig, mailboxes: Mailboxes) -> None:
    example = [json.loads(line) for line in (EXAMPLES / "aa-revised" / "ledger.jsonl").read_text().splitlines()]
    for number, entry in enumerate(example, start=1):
        role = entry["power"]
        orders = (EXAMPLES / "aa-revised" / "orders" / Path(entry["turn_file"]).name).read_text()
        _deliver(config.imap, _orders_mail(role, orders, f"<turn{number}@example.org>", turn=number))
        _run(game, config)
        ours = json.loads((game / "ledger.jsonl").read_text().splitlines()[-1])
        assert ours["turn"] == entry["turn"] and ours["state_sha256"] == entry["state_sha256"]
        (reply,) = [m for m in mailboxes.of(f"{role}@example.org") if m["In-Reply-To"] == f"<turn{number}@example.org>"]
        assert "are valid and stored as inbox/turn-" in reply.get_content()
        assert "Preview:" in reply.get_content() and "defender's standing orders unknown" in reply.get_content()
        report = mailboxes.of("ussr@example.org")[-1]
        assert report["Subject"].startswith(f"[Revised example game] Game turn {number} ({role}) played")
        html = report.get_body(preferencelist=("html",))
        assert 'src="cid:map"' in html.get_content() and 'src="cid:charts"' in html.get_content()
        assert "data:image" not in html.get_content()
        assert {part["Content-ID"] for part in report.walk()} >= {"<map>", "<charts>"}
        names = {part.get_filename() for part in report.iter_attachments()}
        assert {"report.md", "report.bbcode"} <= names and not names & {"map-forum.png", "charts.png"}
        images = [part for part in report.walk() if part.get_content_maintype() == "image"]
        assert sorted(part.get_filename() for part in images) == ["charts.png", "map.png"]  # each once
        forum = next(p for p in images if p["Content-ID"] == "<map>")
        assert forum.get_content()[:8] == b"\x89PNG\r\n\x1a\n" and len(forum.get_content()) < 300_000
        assert len(html.get_content().encode()) < 100_000
    announcement = mailboxes.of("germany@example.org")[0]
    assert "Germany" in announcement.get_body(("plain",)).get_content()
    # a game without secrets: the state is every player's view, to check orders on
    assert [(p.get_filename(), p.get_content()) for p in announcement.iter_attachments()] == \
        [("state.yaml", (game / "start" / "state.yaml").read_bytes())]


def test_every_bad_mail_gets_a_clear_answer_and_changes_nothing(game: Path, config: MailConfig,
                                                                mailboxes: Mailboxes) -> None:
    orders = (EXAMPLES / "aa-revised" / "orders" / "01-ussr.yaml").read_text()
    _deliver(config.imap, _orders_mail("ussr", orders, "<forged@x>", password="guess"))
    _deliver(config.imap, _orders_mail("ussr", orders, "<stranger@x>", sender="mallory@evil.example"))
    big = _orders_mail("ussr", orders, "<big@x>")
    big.add_attachment(b"\0" * 50_000_000, maintype="application", subtype="octet-stream", filename="huge.bin")
    _deliver(config.imap, big)
    _deliver(config.imap, _orders_mail("ussr", "power: ussr\npurchase: {armour: 99}\n", "<bad@x>", attach=False))
    lines = _run(game, config)
    replies = {m["In-Reply-To"]: m.get_content() for m in mailboxes.of("ussr@example.org") if m["In-Reply-To"]}
    assert "game password is wrong or missing" in replies["<forged@x>"]
    assert "was not read: a mail to this game may have at most 2,000,000 bytes" in replies["<big@x>"]
    assert "NOT valid" in replies["<bad@x>"] and "purchase" in replies["<bad@x>"]
    assert "<stranger@x>" not in replies and not mailboxes.of("mallory@evil.example")
    assert any("mallory@evil.example: not a player of this game; ignored" in line for line in lines)
    assert not (game / "ledger.jsonl").exists()  # nothing was played
    assert sorted(p.name for p in (game / "inbox" / "turn-01").iterdir()) == ["ussr.001.yaml"]
    assert "password" not in (game / "inbox" / "turn-01" / "ussr.001.yaml").read_text()


def test_mangled_html_and_duplicate_mails_are_read_once_and_repaired(game: Path, config: MailConfig,
                                                                     mailboxes: Mailboxes) -> None:
    orders = (EXAMPLES / "aa-revised" / "orders" / "01-ussr.yaml").read_text()
    mangled = orders.replace("  infantry: 8", "\tinfantry: 8").replace("power: ussr", "power:\u00a0ussr")
    assert mangled != orders
    html = EmailMessage()
    html["From"], html["To"], html["Subject"] = "ussr@example.org", MODERATOR, "orders"
    html["Message-ID"] = "<html@x>"
    body = ("<p>password: ussr-pw</p><p>game_turn: 1</p><pre>" + mangled.replace("&", "&amp;").replace("<", "&lt;")
            + "</pre>")
    html.set_content(body, subtype="html", cte="quoted-printable")
    _deliver(config.imap, html)
    _deliver(config.imap, html)  # the same mail delivered twice
    _run(game, config)
    receipts = [m for m in mailboxes.of("ussr@example.org") if m["In-Reply-To"] == "<html@x>"]
    assert len(receipts) == 1
    text = receipts[0].get_content()
    assert "are valid" in text and "its HTML was read as text" in text
    assert "tab in the indentation" in text and "no-break space" in text
    assert (game / "ledger.jsonl").exists()  # the turn was played from it
    _run(game, config)  # a second pass finds nothing new
    assert len([m for m in mailboxes.of("ussr@example.org") if m["In-Reply-To"] == "<html@x>"]) == 1


def test_a_server_that_fails_mid_run_loses_nothing_and_sends_nothing_twice(game: Path, config: MailConfig,
                                                                           mailboxes: Mailboxes) -> None:
    orders = (EXAMPLES / "aa-revised" / "orders" / "01-ussr.yaml").read_text()
    _deliver(config.imap, _orders_mail("ussr", orders, "<t1@x>"))
    mailboxes.refuse = 1  # the server turns a mail away in the middle of the pass
    with pytest.raises(Exception):
        _run(game, config)
    assert list((game / "mail" / "outbox").glob("*.eml"))  # the mails wait
    _run(game, config)
    _run(game, config)
    for role in ROLES:
        subjects = [m["Subject"] for m in mailboxes.of(f"{role}@example.org")]
        assert len(subjects) == len(set(subjects)), subjects  # each mail once
    assert not list((game / "mail" / "outbox").glob("*.eml"))
    assert json.loads((game / "ledger.jsonl").read_text().splitlines()[-1])["power"] == "ussr"


def test_reminders_lateness_and_the_deadline(game: Path, config: MailConfig, mailboxes: Mailboxes) -> None:
    (game / "players.yaml").write_text(_players(missing="standing", hours=48))
    _run(game, config, START)  # opens game turn 1: due Wednesday 10:00, late 16:00
    _run(game, config, "2026-11-24T11:00")  # 23 hours before: the 24-hour reminder
    _run(game, config, "2026-11-24T12:00")  # not again
    reminders = [m for m in mailboxes.of("ussr@example.org") if "] Reminder: " in m["Subject"]]
    assert len(reminders) == 1 and "due Wed 25 Nov 10:00 UTC" in reminders[0]["Subject"]
    status = CliRunner().invoke(app, ["status", str(game)]).stdout
    assert "orders due Wed 25 Nov 2026 10:00 UTC (then 6 h of grace; missing orders: standing)" in status
    _run(game, config, "2026-11-25T11:00")  # past the deadline: a lateness notice
    assert any("] Late: orders for ussr" in m["Subject"] for m in mailboxes.of("ussr@example.org"))
    assert not (game / "ledger.jsonl").exists()
    _run(game, config, "2026-11-25T16:30")  # past the grace: played with empty orders
    entry = json.loads((game / "ledger.jsonl").read_text().splitlines()[-1])
    assert entry["power"] == "ussr"
    assert "orders: ../inbox/turn-01/ussr.none.yaml" in (game / entry["turn_file"]).read_text()


def test_mail_settings_stay_out_of_the_game_folder(game: Path, tmp_path: Path) -> None:
    from pbem.core.errors import InputError
    inside = game / "mail.yaml"
    inside.write_text("imap: {host: imap.example.org, user: mo, password: x}\nsmtp: {host: smtp.example.org}\n")
    with pytest.raises(InputError, match="may not lie in the game folder"):
        load_config(game, inside)
    outside = tmp_path / "mail.yaml"
    outside.write_text("imap: {host: imap.example.org, user: mo, password: x, tls: plain}\n"
                       "smtp: {host: s.example.org}\n")
    with pytest.raises(InputError, match="plain sends the password in the clear"):
        load_config(game, outside)
    env = {"PBEM_IMAP_HOST": "imap.example.org", "PBEM_IMAP_USER": "mo", "PBEM_SMTP_HOST": "smtp.example.org"}
    settings = load_config(game, None, env)
    assert settings.imap.port == 143 and settings.smtp.port == 587 and settings.imap.tls == "starttls"


def test_each_player_gets_their_own_private_report_and_never_another(tmp_path: Path, config: MailConfig,
                                                                     mailboxes: Mailboxes) -> None:
    """Undaunted's bids by mail: both sides' orders in one pass, one exchange, and each side's mail
    carries its own private report only."""
    folder = tmp_path / "undaunted"
    shutil.copytree(EXAMPLES / "undaunted-stalingrad", folder)
    ledger = [json.loads(line) for line in (folder / "ledger.jsonl").read_text().splitlines()]
    last = ledger[-1]
    shutil.rmtree(folder / last["output"])
    (folder / last["turn_file"]).unlink()
    (folder / "ledger.jsonl").write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in ledger[:-1]))
    (folder / "players.yaml").write_text(
        f"moderator: {{name: Mo, address: {MODERATOR}}}\nplayers:\n"
        f"  - {{name: Marie, address: marie@example.org, roles: [soviet], "
        f"password: 'sha256:{SALT}:{password_hash(SALT, 'marie-pw')}'}}\n"
        f"  - {{name: Frantisek, address: frantisek@example.org, roles: [german], "
        f"password: 'sha256:{SALT}:{password_hash(SALT, 'frantisek-pw')}'}}\n")
    name = Path(last["turn_file"]).stem
    for side, player in (("soviet", "marie"), ("german", "frantisek")):
        orders = (EXAMPLES / "undaunted-stalingrad" / "orders" / f"{name}-{side}.yaml").read_text()
        _deliver(config.imap, _orders_mail(side, orders, f"<{side}@x>", password=f"{player}-pw",
                                           sender=f"{player}@example.org", turn=last["turn"]))
    _run(game=folder, config=config)
    ours = json.loads((folder / "ledger.jsonl").read_text().splitlines()[-1])
    assert ours["state_sha256"] == last["state_sha256"]
    for player, own, other in (("marie", "soviet", "german"), ("frantisek", "german", "soviet")):
        report = next(m for m in mailboxes.of(f"{player}@example.org") if "played" in m["Subject"])
        names = {part.get_filename() for part in report.iter_attachments()}
        assert {f"report-{own}.html", f"report-{own}.md"} <= names
        assert not any(other in n for n in names)
        hidden = set(yaml_ids(folder / ours["output"] / "state.yaml", other))
        assert hidden and not hidden & set(re.findall(r"[SN]-[PZVR]-\d{3}", report.as_string()))


def yaml_ids(state: Path, side: str) -> list[str]:
    import yaml
    zones = yaml.safe_load(state.read_text())["sides"][side]
    return [c for zone in ("hand", "deck", "discard", "casualties") for c in zones[zone]]


def test_an_imap_server_that_drops_the_connection_mid_pass_loses_nothing(game: Path, config: MailConfig, imap,
                                                                           mailboxes: Mailboxes, monkeypatch) -> None:
    import pbem.mail.loop as loop
    orders = (EXAMPLES / "aa-revised" / "orders" / "01-ussr.yaml").read_text()
    first = _orders_mail("ussr", orders.replace("infantry: 8", "infantry: 7"), "<first@x>")
    second = _orders_mail("ussr", orders, "<second@x>")
    _deliver(config.imap, first)
    _deliver(config.imap, second)
    read = loop.read_incoming

    def crash_after_the_first(raw: bytes):
        incoming = read(raw)
        if incoming.message_id == "<second@x>":
            imap.stop()  # the server goes away before the second mail is handled
            raise ConnectionResetError("the IMAP server closed the connection")
        return incoming

    monkeypatch.setattr(loop, "read_incoming", crash_after_the_first)
    with pytest.raises(ConnectionResetError):
        _run(game, config)
    monkeypatch.setattr(loop, "read_incoming", read)
    journal = [json.loads(line) for line in (game / "mail" / "journal.jsonl").read_text().splitlines()]
    assert [step["message_id"] for step in journal if step["step"] == "handled"] == ["<first@x>"]
    imap.start()  # back, with both mails still to be fetched (a real server keeps them)
    _deliver(config.imap, first)
    _deliver(config.imap, second)
    _run(game, config)
    replies = [m["In-Reply-To"] for m in mailboxes.of("ussr@example.org") if m["In-Reply-To"]]
    assert sorted(replies) == ["<first@x>", "<second@x>"]  # each answered once
    assert sorted(p.name for p in (game / "inbox" / "turn-01").iterdir()) == ["ussr.001.yaml", "ussr.002.yaml"]
    entry = json.loads((game / "ledger.jsonl").read_text().splitlines()[-1])
    example = json.loads((EXAMPLES / "aa-revised" / "ledger.jsonl").read_text().splitlines()[0])
    assert entry["state_sha256"] == example["state_sha256"]  # the latest valid version was played


def test_pbem_mail_run_reads_its_settings_from_the_environment(game: Path, config: MailConfig,
                                                               mailboxes: Mailboxes) -> None:
    env = {"PBEM_IMAP_HOST": config.imap.host, "PBEM_IMAP_PORT": str(config.imap.port),
           "PBEM_IMAP_USER": config.imap.user, "PBEM_IMAP_PASSWORD": config.imap.password,
           "PBEM_IMAP_CA_FILE": config.imap.ca_file, "PBEM_SMTP_HOST": config.smtp.host,
           "PBEM_SMTP_PORT": str(config.smtp.port), "PBEM_SMTP_CA_FILE": config.smtp.ca_file}
    orders = (EXAMPLES / "aa-revised" / "orders" / "01-ussr.yaml").read_text()
    _deliver(config.imap, _orders_mail("ussr", orders, "<cli@x>", attach=False))
    result = CliRunner(env=env).invoke(app, ["mail", "run", str(game), "--now", START])
    assert result.exit_code == 0, result.output
    assert "game turn 1 played" in result.stdout
    assert "imap-secret" not in result.output + (game / "mail" / "log.txt").read_text()
    failed = CliRunner(env=env | {"PBEM_IMAP_PASSWORD": "wrong"}).invoke(app, ["mail", "run", str(game)])
    assert failed.exit_code == 1 and "nothing is lost" in failed.output and "Traceback" not in failed.output


def test_a_club_runs_many_games_from_one_mailbox(tmp_path: Path, game: Path, config: MailConfig,
                                                 mailboxes: Mailboxes) -> None:
    """Two games in a club's folder, one mailbox: a mail goes to the game its subject names, a mail
    for no game is logged, and the two games' mails never share a Message-ID."""
    from datetime import datetime

    from pbem.core.game import new_game
    from pbem.mail.loop import run_club
    club = tmp_path / "club"
    club.mkdir()
    shutil.move(game, club / "first")
    new_game("aa-revised", club / "second", "Second game", {})
    shutil.copy(club / "first" / "players.yaml", club / "second" / "players.yaml")
    new_game("aa-revised", club / "broken", "Broken game", {})  # its players have no passwords
    (club / "broken" / "players.yaml").write_text(re.sub(r", password: '[^']*'", "", _players()))
    orders = (EXAMPLES / "aa-revised" / "orders" / "01-ussr.yaml").read_text()
    mail = _orders_mail("ussr", orders, "<second@x>")
    del mail["Subject"]
    mail["Subject"] = "[second] my orders"
    _deliver(config.imap, mail)
    stray = _orders_mail("ussr", orders, "<stray@x>", sender="mallory@evil.example")
    _deliver(config.imap, stray)
    lines, problems = run_club(club, config, datetime.fromisoformat(START), render_turn)
    assert [p.file for p in problems] == [str(club / "broken" / "players.yaml")]  # the others go on
    assert (club / "second" / "ledger.jsonl").exists() and not (club / "first" / "ledger.jsonl").exists()
    assert "<stray@x>" in (club / "mail-log.txt").read_text()
    ids = [m["Message-ID"] for m in mailboxes.of("ussr@example.org")]
    assert len(ids) == len(set(ids))
    begins = [m for m in mailboxes.of("ussr@example.org") if "The game begins" in m["Subject"]]
    assert sorted(m["Subject"] for m in begins) == ["[Revised example game] The game begins",
                                                    "[Second game] The game begins"]
    run_club(club, config, datetime.fromisoformat(START), render_turn)  # nothing new: nothing happens
    assert len(mailboxes.of("ussr@example.org")) == len(ids)


def test_text_attachments_say_they_are_utf8() -> None:
    """A report attached without a charset reads as US-ASCII: its dashes and accents garbled."""
    from pbem.mail.messages import outgoing

    report = "# Game — round 1, Württemberg\n".encode("utf-8")
    mail = outgoing("Mo <mo@example.org>", "ann@example.org", "report", "text\n",
                    attachments=[("report.md", report, "text/markdown"), ("map.png", b"\x89PNG", "image/png")])
    read = BytesParser(policy=policy.default).parsebytes(mail.as_bytes())
    md, png = read.iter_attachments()
    assert md.get_content_charset() == "utf-8" and md.get_content() == report.decode("utf-8")
    assert png.get_content_charset() is None and png.get_content() == b"\x89PNG"


def test_one_reminder_by_the_deadlines_own_calendar_and_news_of_the_players(game: Path, config: MailConfig,
                                                                             mailboxes: Mailboxes) -> None:
    """Weekdays only: a turn opened on Friday 10:00 is due Tuesday 10:00 (48 counted hours); its
    24-hour reminder falls on Monday 10:00, its 2-hour one on Tuesday 08:00. A pass that comes late,
    after both, sends one reminder."""
    text = _players().replace("reminders: [24, 2]", "reminders: [24, 2], weekdays: [mon, tue, wed, thu, fri]")
    (game / "players.yaml").write_text(text)
    _run(game, config, "2026-11-27T10:00")  # a Friday
    _run(game, config, "2026-11-30T09:00")  # Monday, before the 24-hour reminder: none
    assert not [m for m in mailboxes.of("ussr@example.org") if "Reminder" in m["Subject"]]
    _run(game, config, "2026-12-01T09:00")  # Tuesday, past both: one mail
    _run(game, config, "2026-12-01T09:30")
    reminders = [m for m in mailboxes.of("ussr@example.org") if "Reminder" in m["Subject"]]
    assert len(reminders) == 1 and "due Tue 01 Dec 10:00 UTC" in reminders[0]["Subject"]
    (game / "players.yaml").write_text(text.replace("name: Uk,", "name: Ursula,"))
    _run(game, config, "2026-12-01T09:40")
    news = [m for m in mailboxes.of("germany@example.org") if "The players of the game" in m["Subject"]]
    assert len(news) == 1 and "Ursula: uk" in news[0].get_content()


def test_a_game_run_by_mail_before_the_journal_is_neither_announced_nor_answered_again(
        game: Path, config: MailConfig, mailboxes: Mailboxes) -> None:
    orders = (EXAMPLES / "aa-revised" / "orders" / "01-ussr.yaml").read_text()
    _deliver(config.imap, _orders_mail("ussr", orders, "<old@x>"))
    (game / "mail").mkdir()
    (game / "mail" / "handled.jsonl").write_text(json.dumps({"message_id": "<old@x>", "outcome": "stored"}) + "\n")
    _run(game, config)
    assert not mailboxes.of("ussr@example.org")  # no announcement, no second answer
    assert not (game / "inbox").exists()


def test_a_mailed_tab_that_breaks_the_orders_is_pointed_at(game: Path, config: MailConfig,
                                                           mailboxes: Mailboxes) -> None:
    # read four columns wide `c` stands beside `b`, two wide beside `a`: pbem does not guess
    orders = "power: ussr\nnote:\n  a:\n    b: x\n\tc: 1\n"
    _deliver(config.imap, _orders_mail("ussr", orders, "<tab@x>", attach=False))
    _run(game, config)
    reply, = [m for m in mailboxes.of("ussr@example.org") if m["In-Reply-To"] == "<tab@x>"]
    assert "line 5, column 1: a tab here: YAML indents with spaces" in reply.get_content()
