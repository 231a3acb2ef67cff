"""Mails in and out: the orders and the game password in a player's mail (a YAML attachment, or the
body; an HTML-only mail read as text; quoted-printable and base64 undone by the mail library), and
the mails pbem sends (replies, reports with the map inline, reminders)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formatdate, make_msgid, parseaddr
from html.parser import HTMLParser

YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
PASSWORD_LINE = re.compile(r"^[ \t]*password[ \t]*:[ \t]*(\S+)[ \t\r]*$", re.IGNORECASE | re.MULTILINE)
SIGNATURE = re.compile(r"^-- \r?$", re.MULTILINE)


@dataclass
class Incoming:
    message_id: str
    sender: str
    subject: str
    text: str | None
    password: str | None
    notes: list[str] = field(default_factory=list)
    body: str = ""
    """The mail's own text, where the lines for pbem (password, game_turn) may stand above attached orders."""


class _Text(HTMLParser):
    """The text of an HTML mail, a line per paragraph, line break or list item."""

    BREAKS = {"br", "p", "div", "li", "tr", "pre", "h1", "h2", "h3"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("style", "script", "head"):
            self.skip += 1
        elif tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "head"):
            self.skip = max(0, self.skip - 1)
        elif tag in ("p", "div", "pre"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    reader = _Text()
    reader.feed(html)
    return "".join(reader.parts)


def read_incoming(raw: bytes) -> Incoming:
    """A player's mail: who sent it, the orders text with the password line taken out (it is never
    stored), and notes on how it was read."""
    message = BytesParser(policy=policy.default).parsebytes(raw)
    message_id = (message.get("Message-ID") or "").strip() or f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem>"
    sender = parseaddr(str(message.get("From") or ""))[1].lower()
    notes: list[str] = []
    body_text = None
    body = message.get_body(preferencelist=("plain", "html"))
    if body is not None:
        body_text = body.get_content()
        if body.get_content_type() == "text/html":
            body_text = html_text(body_text)
            notes.append("the mail had no plain text: its HTML was read as text")
        cut = SIGNATURE.search(body_text)
        if cut:
            body_text = body_text[:cut.start()]
            notes.append("the signature after '-- ' was left out")
    text = None
    for part in message.iter_attachments():
        name = (part.get_filename() or "").lower()
        if part.get_content_type() in YAML_TYPES or name.endswith((".yaml", ".yml")):
            content = part.get_content()
            text = content.decode("utf-8", errors="replace") if isinstance(content, bytes) else content
            notes.append(f"the orders were read from the attachment {part.get_filename() or '(no name)'}")
            break
    password = None
    for source in ("body", "orders"):  # the password line may stand above the orders or beside them
        found = PASSWORD_LINE.search((body_text if source == "body" else text) or "")
        if found:
            password = found.group(1)
            break
    if text is None:
        text = body_text
    if text is not None:
        text = PASSWORD_LINE.sub("", text, count=1)  # never stored
    return Incoming(message_id, sender, str(message.get("Subject") or ""), text, password, notes, body_text or "")


def outgoing(sender: str, to: str, subject: str, text: str, html: str | None = None,
             attachments: list[tuple[str, bytes, str]] = (), inline: Mapping[str, bytes] | None = None,
             reply_to: str | None = None, key: str = "") -> EmailMessage:
    """A mail from the moderator. Its Message-ID grows from `key` (what the mail is), so that a mail
    sent again after a run was killed is recognisably the same one. `inline` holds the PNG images the
    HTML shows as `cid:NAME`, by NAME (mail clients do not show `data:` images)."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    domain = sender.rsplit("@", 1)[-1].strip(">") or "pbem"
    message["Message-ID"] = f"<{hashlib.sha256(key.encode()).hexdigest()[:32]}@{domain}>" if key else \
        make_msgid(domain=domain)
    message["Date"] = formatdate(usegmt=True)
    if reply_to:
        message["In-Reply-To"] = reply_to
        message["References"] = reply_to
    message.set_content(text)
    if html is not None:
        message.add_alternative(html, subtype="html")
        for name, png in (inline or {}).items():
            message.get_payload()[1].add_related(png, "image", "png", cid=f"<{name}>", filename=f"{name}.png")
    for name, data, mime in attachments:
        maintype, subtype = mime.split("/")
        # a text part without a charset is US-ASCII to its reader: the reports are UTF-8
        params = {"charset": "utf-8"} if maintype == "text" else {}
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name, params=params)
    return message
