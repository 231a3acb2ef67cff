"""Mails in and out: the orders and the game password in a player's mail (a YAML attachment, or the
body; an HTML-only mail read as text; quoted-printable and base64 undone by the mail library), and
the mails pbem sends (replies, reports with the map inline, reminders).

A player's mail may come from anyone and hold anything: reading it never fails and takes bounded
work (pbem.mail.mime), and what is taken from its header (sender, subject, Message-ID) is one line
of bounded length, since it goes into the journal, the log and the header of the reply."""

from __future__ import annotations

import codecs
import hashlib
import html as html_module
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from email import policy
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.message import EmailMessage, Message
from email.utils import formatdate, make_msgid
from html.parser import HTMLParser

from pbem.mail.mime import Part, read_head, read_parts

YAML_TYPES = ("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml")
PASSWORD_LINE = re.compile(r"^[ \t]*password[ \t]*:[ \t]*(\S+)[ \t\r]*$", re.IGNORECASE | re.MULTILINE)
SIGNATURE = re.compile(r"^-- $", re.MULTILINE)
MAX_SUBJECT = 200
MAX_OUTGOING_SUBJECT = 300  # a reply's subject is "Re: " and the player's
MAX_NAME = 100  # a display name or a file name
MAX_ADDRESS = 254  # RFC 5321's longest path, less its angle brackets
MAX_TEXT_BYTES = 1_000_000
"""Orders, or the text of a mail, after the transfer encoding is undone: orders are a few kilobytes."""
MAX_HTML = 250_000
"""Characters of HTML read for text: the standard library's HTML parser takes about a microsecond
a character on hostile input."""
UNSAFE_CODECS = {"idna", "punycode", "undefined", "unicode-escape", "raw-unicode-escape"}
"""Codecs Python has that are no mail's character set; punycode takes minutes on a megabyte."""

_BREAKS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Control characters of every kind, the Unicode line and paragraph separators, and the
bidirectional overrides that can make a log line read as something else."""
_SURROGATES = re.compile("[\ud800-\udfff]")
_MESSAGE_ID = re.compile(r"<[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~.@\[\]]{1,250}>")
"""What RFC 5322 allows in a Message-ID without quoting: nothing that could end a header field or
need escaping in one."""
_ADDRESS = re.compile(r"[^\s@]+@[^\s@]+")
_DOMAIN = re.compile(r"[A-Za-z0-9.-]{1,200}")
_TAG = re.compile(r"<[^<>]*>")


@dataclass
class Incoming:
    message_id: str
    sender: str
    subject: str
    text: str | None
    password: str | None
    notes: list[str] = field(default_factory=list)
    problem: str | None = None
    """Why the mail could not be read (then `text` is None), in words for the player."""
    body: str = ""
    """The mail's own text, where the lines for pbem (password, game_turn) may stand above attached orders."""


def one_line(value: str, limit: int) -> str:
    """`value` on one line of at most `limit` characters, with no control character of any kind:
    anything that could end a header field, or start a new line in the log, becomes a space."""
    value = _SURROGATES.sub("\ufffd", value)
    return " ".join(_BREAKS.sub(" ", value).split())[:limit].rstrip()


def sane_message_id(value: str) -> str | None:
    """`value` if it is one plain Message-ID (`<left@right>`), else None."""
    value = value.strip()
    return value if _MESSAGE_ID.fullmatch(value) else None


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
    try:
        reader.feed(html)
    except AssertionError:  # Python 3.11's parser gives up on some broken declarations, such as '<![x'
        return html_module.unescape(_TAG.sub("\n", html))
    return "".join(reader.parts)


class _TooLong(Exception):
    """A text over its limit: read in part, it could be mistaken for the whole."""


def _field(head: Message, name: str, limit: int) -> str | None:
    """The first `name` field as written, unfolded, cut at `limit` characters; 8-bit bytes, which
    some mail programs put in a header unencoded, read as UTF-8."""
    for key, value in head.raw_items():
        if key.lower() == name:
            value = value[:limit].encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            return "".join(value.splitlines())
    return None


def _subject(head: Message) -> str:
    value = _field(head, "subject", 20 * MAX_SUBJECT) or ""
    try:
        value = str(policy.default.header_factory("subject", value))
    except Exception:  # the header parser fails in more ways than it documents; the field as written will do
        pass
    return one_line(value, MAX_SUBJECT)


def _sender(head: Message) -> str:
    """The one address in From, or "" (a From naming no one, or several, or that cannot be read,
    names no player)."""
    value = _field(head, "from", 1000)
    if not value:
        return ""
    try:
        found = [address.addr_spec for address in policy.default.header_factory("from", value).addresses]
    except Exception:  # as in _subject: a From that the mail library cannot read is no one's
        return ""
    if len(found) != 1:
        return ""
    address = found[0].lower()
    return address if _ADDRESS.fullmatch(address) and one_line(address, MAX_ADDRESS) == address else ""


def _filename(part: Part) -> str | None:
    try:
        return part.headers.get_filename()
    except (LookupError, UnicodeError, ValueError):  # an RFC 2231 name in a bogus character set
        return None


def _decode(part: Part, what: str, notes: list[str]) -> str:
    """The part's text: its transfer encoding undone (leniently, as the mail library does), then its
    character set, which falls back to UTF-8 when it is unknown, bogus or not given for 8-bit text."""
    headers = part.headers
    headers.set_payload(part.body.decode("ascii", "surrogateescape"))
    damaged = len(headers.defects)
    data = headers.get_payload(decode=True)
    if len(headers.defects) > damaged:
        notes.append(f"{what} was damaged in its transfer encoding: it was read as far as it could be")
    if len(data) > MAX_TEXT_BYTES:
        raise _TooLong(f"{what} is longer than {MAX_TEXT_BYTES:,} bytes")
    charset = headers.get_param("charset")
    if isinstance(charset, tuple):  # written as in RFC 2231: (character set, language, value)
        charset = charset[2]
    name = charset.strip() if isinstance(charset, str) else ""
    unknown = f"{what} named the character set '{one_line(name, 40)}', which is unknown: it was read as UTF-8"
    codec = None
    if name and len(name) <= 64 and name.isascii() and name.isprintable():
        try:
            codec = codecs.lookup(name).name
        except LookupError:
            pass
    if codec in UNSAFE_CODECS or (name and codec is None):
        notes.append(unknown)
        codec = "utf-8"
    elif codec in (None, "ascii") and not data.isascii():
        codec = "utf-8"
    try:
        return data.decode(codec or "ascii", "replace")
    except LookupError:  # a codec that is not for text (base64, zlib...) is known by that name too
        notes.append(unknown)
        return data.decode("utf-8", "replace")


def _unix(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _is_orders(part: Part) -> bool:
    name = (_filename(part) or "").lower()
    return part.headers.get_content_type() in YAML_TYPES or name.endswith((".yaml", ".yml"))


def _orders(part: Part, notes: list[str]) -> str:
    name = one_line(_filename(part) or "", MAX_NAME) or "(no name)"
    decoded = _decode(part, f"the attachment {name}", notes)
    notes.append(f"the orders were read from the attachment {name}")
    # only a base64 attachment keeps the file's own bytes; other encodings carry the mail's line endings
    if "\r" in decoded and str(part.headers.get("Content-Transfer-Encoding", "")).strip().lower() == "base64":
        notes.append("the line endings were read as Unix line endings (\\n)")
    return _unix(decoded)


def _body(part: Part, notes: list[str]) -> str:
    text = _unix(_decode(part, "the text of the mail", notes))
    if part.headers.get_content_type() == "text/html":
        if len(text) > MAX_HTML:
            raise _TooLong(f"the HTML text of the mail is longer than {MAX_HTML:,} characters")
        text = html_text(text)
        notes.append("the mail had no plain text: its HTML was read as text")
    cut = SIGNATURE.search(text)
    if cut:
        text = text[:cut.start()]
        notes.append("the signature after '-- ' was left out")
    return text


def _read(parts: list[Part], notes: list[str]) -> tuple[str | None, str | None, str | None]:
    """The orders text of an attachment, if any, the text of the mail (its first plain text part,
    else its first HTML part), and why either could not be read; each is read even when the other
    cannot be, so that the password is found wherever it is."""
    orders = next((part for part in parts if _is_orders(part)), None)
    candidates = [part for part in parts if part is not orders and part.headers.get_content_type() in
                  ("text/plain", "text/html") and part.headers.get_content_disposition() != "attachment"]
    body = next((p for p in candidates if p.headers.get_content_type() == "text/plain"), None) or \
        next(iter(candidates), None)
    texts: list[str | None] = [None, None]
    problem = None
    for index, (part, read) in enumerate(((orders, _orders), (body, _body))):
        if part is not None:
            try:
                texts[index] = read(part, notes)
            except _TooLong as exc:
                problem = problem or str(exc)
    return texts[0], texts[1], problem


def read_incoming(raw: bytes) -> Incoming:
    """A player's mail: who sent it, the orders text with the password line taken out (it is never
    stored), and notes on how it was read. Never fails: a mail that cannot be read has no text and
    says why in `problem`; its sender, subject and Message-ID are still read when they can be."""
    message_id, sender, subject = f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem>", "", ""
    notes: list[str] = []
    try:
        walked = read_head(raw)
        message_id = sane_message_id(_field(walked.head, "message-id", 1000) or "") or message_id
        sender, subject = _sender(walked.head), _subject(walked.head)
        read_parts(walked)
        text, body_text, problem = _read(walked.parts, notes)
        problem = walked.problem or problem
    except Exception as exc:  # a bug in reading one mail must not stop the loop: the mail is answered as unreadable
        return Incoming(message_id, sender, subject, None, None, notes,
                        f"the mail could not be read (pbem failed with {type(exc).__name__})")
    password = None
    for source in (body_text, text):  # the password line may stand above the orders or beside them
        found = PASSWORD_LINE.search(source or "")
        if found:
            password = found.group(1)
            break
    if problem:
        return Incoming(message_id, sender, subject, None, password, notes, problem)
    if text is None:
        text = body_text
    if text is not None:
        text = PASSWORD_LINE.sub("", text, count=1)  # never stored
    return Incoming(message_id, sender, subject, text, password, notes, None, body_text or "")


def identify(header: bytes) -> tuple[str | None, str]:
    """The plain Message-ID (None when there is none) and the sender of a mail's header fetched on
    its own, as read_incoming reads them. For the mail loop's look at the inbox, where the mail
    library's own reading raises on a Message-ID such as '<<<<'."""
    try:
        head = read_head(header).head
        return sane_message_id(_field(head, "message-id", 1000) or ""), _sender(head)
    except Exception:  # as in read_incoming: one mail's header must not stop the loop
        return None, ""


def _address(value: str) -> Address:
    """'Name <address>' or a bare address, as an Address, which quotes or encodes the name as the
    header needs; the name is what stands before the last '<', so it may hold commas, quotes, '<'."""
    found = re.fullmatch(r"(.*)<([^<>]*)>\s*", value, re.DOTALL)
    name, address = (found.group(1), found.group(2)) if found else ("", value)
    name = one_line(name, MAX_NAME)
    if len(name) > 1 and name[0] == name[-1] == '"':
        name = name[1:-1]
    try:
        return Address(display_name=name, addr_spec=one_line(address, MAX_ADDRESS))
    except (HeaderParseError, IndexError) as exc:  # the mail library's ways of saying it is no address
        raise ValueError(f"not a mail address: {address!r}") from exc


def outgoing(sender: str, to: str, subject: str, text: str, html: str | None = None,
             attachments: list[tuple[str, bytes, str]] = (), inline: Mapping[str, bytes] | None = None,
             reply_to: str | None = None, key: str = "", game: str | None = None) -> EmailMessage:
    """A mail from the moderator. Its Message-ID grows from `key` (what the mail is) and `game` (so
    that two games by the same moderator never share one), so that a mail sent again after a run was
    killed is recognisably the same one. `inline` holds the PNG images the HTML shows as `cid:NAME`,
    by NAME (mail clients do not show `data:` images). Every header value is made one line: a subject
    or name holding a line break could otherwise add header fields of its own."""
    message = EmailMessage()
    author = _address(sender)
    message["From"], message["To"] = author, _address(to)
    message["Subject"] = one_line(subject, MAX_OUTGOING_SUBJECT)
    domain = author.domain if _DOMAIN.fullmatch(author.domain) else "pbem"
    seed = key if game is None else f"{game}\0{key}"
    message["Message-ID"] = f"<{hashlib.sha256(seed.encode()).hexdigest()[:32]}@{domain}>" if key else \
        make_msgid(domain=domain)
    message["Date"] = formatdate(usegmt=True)
    reply_to = sane_message_id(reply_to or "")
    if reply_to:
        message["In-Reply-To"] = reply_to
        message["References"] = reply_to
    message.set_content(text)
    if html is not None:
        message.add_alternative(html, subtype="html")
        for name, png in (inline or {}).items():
            message.get_payload()[1].add_related(png, "image", "png", cid=f"<{name}>", filename=f"{name}.png",
                                                    disposition="inline")
    for name, data, mime in attachments:
        maintype, subtype = mime.split("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=one_line(name, MAX_NAME))
        if maintype == "text":  # the reports are UTF-8; without the charset a client guesses
            message.get_payload()[-1].set_param("charset", "utf-8")
    return message
