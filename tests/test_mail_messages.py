"""Reading players' mails and writing pbem's, on bytes alone (no servers): hostile mails of every kind
are read without failing and within bounded work, what comes from their headers is one clean line,
and the mails pbem writes carry exactly the header fields meant, whatever the names and subjects."""

from __future__ import annotations

import base64
import hashlib
import re
import time
import unicodedata
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import messages, mime
from pbem.mail.messages import Incoming, outgoing, read_incoming

ORDERS = "power: ussr\npurchase:\n  infantry: 3\nmoves:\n  - from: russia\n    to: ukraine\n"
ORDERS_CRLF = ORDERS.replace("\n", "\r\n")
INTERNAL = "the mail could not be read (pbem failed"


def mail(*fields: str, body: bytes | str = "password: pw\r\nhello\r\n", content_type: str | None = None) -> bytes:
    """A mail as a server stores it: CRLF lines; From, Message-ID and Subject unless `fields` names them."""
    names = {f.split(":", 1)[0].lower() for f in fields}
    head = [f for name, f in (("from", "From: Player <player@example.org>"), ("message-id", "Message-ID: <m1@example.org>"),
                              ("subject", "Subject: orders")) if name not in names]
    head += fields
    if content_type:
        head += ["MIME-Version: 1.0", f"Content-Type: {content_type}"]
    body = body.encode("latin-1") if isinstance(body, str) else body
    return "\r\n".join(head).encode("utf-8", "surrogateescape") + b"\r\n\r\n" + body


def multipart(parts: list[tuple[list[str], bytes | str]], boundary: str = "b1", subtype: str = "mixed",
              *fields: str) -> bytes:
    body = b"".join(f"--{boundary}\r\n".encode() + "\r\n".join(head).encode("latin-1") + b"\r\n\r\n" +
                    (content.encode("latin-1") if isinstance(content, str) else content) + b"\r\n"
                    for head, content in parts) + f"--{boundary}--\r\n".encode()
    return mail(*fields, body=body, content_type=f"multipart/{subtype}; boundary=\"{boundary}\"")


def yaml_attachment(text: str, encoding: str = "base64", name: str = "orders.yaml") -> tuple[list[str], bytes]:
    data = text.encode()
    if encoding == "base64":
        data = base64.encodebytes(data).replace(b"\n", b"\r\n")
    return (["Content-Type: application/yaml", f"Content-Transfer-Encoding: {encoding}",
             f"Content-Disposition: attachment; filename=\"{name}\""], data)


TEXT = (["Content-Type: text/plain; charset=utf-8"], "password: pw\r\nmy orders are attached\r\n")


def assert_clean(incoming: Incoming) -> None:
    """What comes from the header is one line of bounded length; the text has Unix line endings."""
    for value, limit in ((incoming.subject, 200), (incoming.sender, 254), (incoming.message_id, 252)):
        assert len(value) <= limit
        assert not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in value), value
        assert value == " ".join(value.split())
    assert re.fullmatch(r"<[^\s<>\"\\(),:;]+>", incoming.message_id)
    assert incoming.sender == "" or re.fullmatch(r"[^\s@]+@[^\s@]+", incoming.sender)
    assert incoming.text is None or "\r" not in incoming.text
    assert (incoming.text is None) if incoming.problem else True
    assert not (incoming.problem or "").startswith(INTERNAL)


# what the bugs were: each of these raised before its sender was checked

def test_an_unknown_character_set_is_read_as_utf8_with_a_note() -> None:
    got = read_incoming(mail(body="password: pw\r\nBefehle f\u00fcr Runde 3\r\n".encode(),
                             content_type="text/plain; charset=x-unknown"))
    assert got.sender == "player@example.org" and got.password == "pw" and got.problem is None
    assert got.text == "\nBefehle f\u00fcr Runde 3\n"
    assert any("'x-unknown', which is unknown" in note for note in got.notes)
    assert_clean(got)


@pytest.mark.parametrize("charset", ["utf\x008", "base64", "zlib", "punycode", "idna", "undefined", "x" * 500,
                                     "\u00e9", "utf-8'' ", "; ; ;"])
def test_a_bogus_character_set_is_read_as_utf8(charset: str) -> None:
    body = b"password: pw\r\n" + "a\u00e9".encode() * 300_000  # punycode would take minutes on this
    started = time.perf_counter()
    got = read_incoming(mail(body=body, content_type=f"text/plain; charset=\"{charset}\""))
    assert time.perf_counter() - started < 5
    assert got.password == "pw" and got.text.endswith("a\u00e9") and got.problem is None
    assert_clean(got)


def test_a_nul_in_a_parameter_or_a_file_name_is_harmless() -> None:
    raw = multipart([TEXT, (["Content-Type: application/yaml; charset=\"utf-8\x00\"",
                             "Content-Disposition: attachment; filename*=utf\x008''orders%00.yaml"], ORDERS)])
    got = read_incoming(raw)
    assert got.text == ORDERS and got.password == "pw"
    raw = multipart([TEXT, (["Content-Type: application/octet-stream",
                             "Content-Disposition: attachment; filename=\"ord\x00ers.yaml\""], ORDERS)])
    got = read_incoming(raw)
    assert got.text == ORDERS and "the orders were read from the attachment ord ers.yaml" in got.notes
    assert_clean(got)


def nested(depth: int) -> bytes:
    """A mail of `depth` multiparts, each inside the one before, the innermost holding the text."""
    body = "Content-Type: text/plain\r\n\r\npassword: pw\r\nhello\r\n"
    for level in reversed(range(depth)):
        body = f"Content-Type: multipart/mixed; boundary=n{level}\r\n\r\n--n{level}\r\n{body}\r\n--n{level}--\r\n"
    return ("From: Player <player@example.org>\r\nMessage-ID: <m1@example.org>\r\nSubject: orders\r\n" + body).encode()


def test_parts_nested_beyond_the_limit_are_refused_and_within_it_read() -> None:
    got = read_incoming(nested(mime.MAX_DEPTH))
    assert got.text == "\nhello\n" and got.problem is None
    for depth in (mime.MAX_DEPTH + 1, 1000):
        got = read_incoming(nested(depth))
        assert got.text is None and got.problem == f"the mail's parts are nested more than {mime.MAX_DEPTH} deep"
        assert got.sender == "player@example.org" and got.message_id == "<m1@example.org>"
        assert mime.walk(nested(depth)).visited <= mime.MAX_DEPTH + 1


def many_parts(count: int) -> bytes:
    return multipart([TEXT] + [(["Content-Type: text/plain"], "x")] * (count - 1))


def test_a_mail_of_fifty_thousand_parts_is_refused_after_looking_at_a_bounded_number() -> None:
    raw = many_parts(50_000)
    assert 1_500_000 < len(raw) < 2_100_000
    walked = mime.walk(raw)
    assert walked.visited == mime.MAX_PARTS + 1 and walked.problem == f"the mail has more than {mime.MAX_PARTS} parts"
    got = read_incoming(raw)
    assert got.text is None and got.problem == walked.problem and got.sender == "player@example.org"
    assert got.password == "pw"  # read from what was read, so that the loop can tell a player why
    got = read_incoming(many_parts(mime.MAX_PARTS - 1))
    assert got.problem is None and got.text == "\nmy orders are attached\n"


def test_part_headers_beyond_their_budget_are_refused() -> None:
    field = "X-Padding: " + "a" * 990
    raw = multipart([([field] * 80 + ["Content-Type: text/plain"], "password: pw")] * 2)
    assert "header fields" in read_incoming(raw).problem
    long_type = "Content-Type: text/plain; " + "a=b; " * 500
    assert "Content-Type is longer than" in read_incoming(multipart([([long_type], "x")])).problem
    assert read_incoming(b"\xff" * (mime.MAX_BYTES + 1)).problem == f"the mail is larger than {mime.MAX_BYTES:,} bytes"
    got = read_incoming(mail(*[field] * 300))
    assert "header is longer than" in got.problem and got.sender == "player@example.org"


@pytest.mark.parametrize("boundary", ["", "b" * 300, "\u00e9"])
def test_a_multipart_without_a_usable_boundary_is_refused(boundary: str) -> None:
    got = read_incoming(mail(body="password: pw\r\n", content_type=f"multipart/mixed; boundary=\"{boundary}\""))
    assert got.problem == "a multipart part of the mail has no usable boundary" and got.text is None


# header fields

@pytest.mark.parametrize("encoded", ["=?utf-8?q?a=0D=0ABcc:_evil@example.org?=", "=?utf-8?b?YQpiDWM=?=",
                                     "=?utf-8?q?a=E2=80=A8b=C2=85c=0Bd=0Ce=00f=1Cg?=", "=?x-unknown?q?a=0A=FF?=",
                                     "=?utf-8?q?=E2=80=AEevil?="])
def test_no_line_break_of_any_kind_survives_in_the_subject_or_message_id(encoded: str) -> None:
    got = read_incoming(mail(f"Subject: {encoded}", f"Message-ID: {encoded}"))
    assert_clean(got)
    assert got.message_id.startswith("<sha256-")
    assert got.subject.startswith("a") or got.subject.startswith("evil")


def test_a_subject_is_decoded_and_bounded() -> None:
    got = read_incoming(mail("Subject: =?utf-8?q?Befehle_f=C3=BCr?= Runde 3", "Message-ID:  <CAF=x+y@mail.example>  "))
    assert got.subject == "Befehle f\u00fcr Runde 3" and got.message_id == "<CAF=x+y@mail.example>"
    got = read_incoming(mail("Subject: " + "x" * 10_000))
    assert got.subject == "x" * 200


@pytest.mark.parametrize("field", ["Message-ID: <a b@c>", "Message-ID: <a@b> <c@d>", "Message-ID: a@b",
                                   "Message-ID: <>", "Message-ID: <a\"@b>", "Message-ID: <" + "a" * 300 + "@b>",
                                   "Message-ID: \u00e9<a@b>", "Message-ID: "])
def test_a_message_id_that_is_not_plain_is_replaced_by_a_stable_one(field: str) -> None:
    raw = mail(field)
    got = read_incoming(raw)
    assert got.message_id == f"<sha256-{hashlib.sha256(raw).hexdigest()}@pbem>" == read_incoming(raw).message_id
    assert_clean(got)


@pytest.mark.parametrize("field", ["From: ", "From: (((((((((((((((((((" * 100, "From: a@b, c@d",
                                   "From: <>", "From: @@@", "From: player", "From: \"a\r\n b\" <a b@c>",
                                   "From: =?utf-8?q?x=0D=0A?= <x\u2028y@example.org>", "From: " + "a" * 5000 + "@b"])
def test_a_missing_or_garbled_sender_is_no_one(field: str) -> None:
    got = read_incoming(mail(field))
    assert got.sender == "" and got.password == "pw" and got.text == "\nhello\n"
    assert_clean(got)


def test_a_mail_without_from_is_from_no_one() -> None:
    got = read_incoming(mail("From: x").replace(b"From: x\r\n", b""))
    assert got.sender == "" and got.message_id == "<m1@example.org>" and got.password == "pw"


@pytest.mark.parametrize("field", ["<<<<", "(((", "<a b@c>", "=?utf-8?q?<a=0D=0A@b>?="])
def test_a_header_fetched_alone_is_read_as_read_incoming_reads_it(field: str) -> None:
    raw = mail(f"Message-ID: {field}", "From: =?utf-8?q?J=C3=BCrgen?= <Juergen@Example.org>")
    assert messages.identify(raw.split(b"\r\n\r\n")[0] + b"\r\n") == (None, "juergen@example.org")
    assert messages.identify(mail(body="")) == ("<m1@example.org>", "player@example.org")


def test_the_sender_is_the_address_lowercased_whatever_the_name() -> None:
    for field in ("From: \"Doe, J\u00fcrgen\" <Juergen@Example.org>", "From: =?utf-8?q?J=C3=BCrgen?= <juergen@example.org>",
                  "From: juergen@example.org (J\u00fcrgen)", "From: J\u00fcrgen <juergen@example.org>"):
        got = read_incoming(mail(field, "Subject: Befehle f\u00fcr Runde 3"))
        assert got.sender == "juergen@example.org", field
        assert got.subject == "Befehle f\u00fcr Runde 3"  # an 8-bit header read as UTF-8


# bodies and attachments

def test_orders_with_windows_line_endings_hash_as_the_unix_file() -> None:
    got = read_incoming(multipart([TEXT, yaml_attachment(ORDERS_CRLF)]))
    assert got.text == ORDERS and got.password == "pw"
    assert hashlib.sha256(got.text.encode()).hexdigest() == hashlib.sha256(ORDERS.encode()).hexdigest()
    assert "the line endings were read as Unix line endings (\\n)" in got.notes
    got = read_incoming(multipart([TEXT, yaml_attachment(ORDERS.replace("\n", "\r"))]))
    assert got.text == ORDERS and "the line endings were read as Unix line endings (\\n)" in got.notes
    got = read_incoming(multipart([TEXT, yaml_attachment(ORDERS)]))
    assert got.text == ORDERS and not any("line endings" in note for note in got.notes)
    # a 7-bit attachment's CRLF are the mail's own, not the file's
    got = read_incoming(multipart([TEXT, yaml_attachment(ORDERS_CRLF, "7bit")]))
    assert got.text == ORDERS and not any("line endings" in note for note in got.notes)


@pytest.mark.parametrize("damage", [b"!!!!", b"A", b"=", b"\x00\xff", b"QUJD\r\nRA"])
def test_broken_base64_is_read_as_far_as_it_goes(damage: bytes) -> None:
    _, data = yaml_attachment(ORDERS)
    head, _ = yaml_attachment(ORDERS)
    got = read_incoming(multipart([TEXT, (head, data + damage)]))
    assert got.problem is None and got.text is not None
    assert_clean(got)


@pytest.mark.parametrize("body", ["password: pw\r\nhello =ZZ =", "password: pw=\r\n", "=E9t=E9\r\n=\r\n",
                                  "password: pw\r\n" + "=" * 1000])
def test_broken_quoted_printable_is_read_as_far_as_it_goes(body: str) -> None:
    got = read_incoming(mail("Content-Transfer-Encoding: quoted-printable", body=body,
                             content_type="text/plain; charset=utf-8"))
    assert got.problem is None and got.text is not None
    assert_clean(got)


def test_orders_longer_than_the_limit_are_refused_not_cut() -> None:
    got = read_incoming(multipart([TEXT, yaml_attachment("x: 1\n" * 250_000, "8bit")]))
    assert got.text is None and got.problem.startswith("the attachment orders.yaml is longer than")
    assert got.password == "pw"


@pytest.mark.parametrize("html", ["<p>password: pw</p><![x<![y", "<p>password: pw</p>" + "< " * 100_000,
                                  "<p>password: pw</p>" + "<!--" * 1000])
def test_a_broken_html_only_mail_is_read(html: str) -> None:
    got = read_incoming(mail(body=html, content_type="text/html; charset=utf-8"))
    assert got.password == "pw" and got.problem is None
    got = read_incoming(mail(body=html + "<p>x</p>" * 40_000, content_type="text/html; charset=utf-8"))
    assert got.problem.startswith("the HTML text of the mail is longer than")


def test_a_yaml_part_anywhere_is_the_orders_and_a_plain_part_the_text() -> None:
    inner = (b"--i\r\nContent-Type: text/html\r\n\r\n<p>password: wrong</p>\r\n"
             b"--i\r\nContent-Type: text/plain\r\n\r\npassword: pw\r\n--i--\r\n")
    raw = multipart([(["Content-Type: multipart/alternative; boundary=i"], inner), yaml_attachment(ORDERS)])
    got = read_incoming(raw)
    assert got.text == ORDERS and got.password == "pw"
    got = read_incoming(mail(body=ORDERS_CRLF, content_type="text/yaml"))
    assert got.text == ORDERS


def test_a_bug_in_reading_is_answered_as_an_unreadable_mail(monkeypatch) -> None:
    def broken(html: str) -> str:
        raise RuntimeError("a bug")
    monkeypatch.setattr(messages, "html_text", broken)
    got = read_incoming(mail(body="<p>password: pw</p>", content_type="text/html"))
    assert got.problem == f"{INTERNAL} with RuntimeError)" and got.text is None
    assert got.sender == "player@example.org" and got.message_id == "<m1@example.org>"


# the fuzz: real mails, damaged

def real_mails() -> list[bytes]:
    plain = EmailMessage()
    plain["From"], plain["To"], plain["Subject"] = "J\u00fcrgen <juergen@example.org>", "mo@example.org", "R3 orders"
    plain["Message-ID"] = "<a1@example.org>"
    plain.set_content("password: pw\n" + ORDERS + "\n-- \nJ\u00fcrgen\n")
    attached = EmailMessage()
    for name in ("From", "To", "Subject", "Message-ID"):
        attached[name] = plain[name]
    attached.set_content("password: pw\n")
    attached.add_alternative("<p>password: pw</p><p>f\u00fcr</p>", subtype="html")
    attached.add_attachment(ORDERS_CRLF.encode(), maintype="application", subtype="yaml", filename="orders.yaml")
    html = EmailMessage()
    for name in ("From", "To", "Subject", "Message-ID"):
        html[name] = plain[name]
    html.set_content("<div>password: pw</div><pre>" + ORDERS + "</pre>", subtype="html", cte="quoted-printable")
    return [m.as_bytes(policy=policy.SMTP) for m in (plain, attached, html)] + [
        multipart([TEXT, yaml_attachment(ORDERS_CRLF)]), nested(4)]


REAL = real_mails()
HOSTILE = [b"\r", b"\n", b"\r\n", b"\x00", b"\xff", b"\xe2\x80\xa8", b"\xc2\x85", b"\x0b", b"\x0c", b"--", b";",
           b"\"", b"=", b"=?utf-8?q?a=0D=0Ab?=", b"=?x-unknown?b?AAA?=", b"charset=punycode",
           b"\r\nContent-Type: multipart/mixed; boundary=x\r\n", b"\r\n--x\r\n", b"<![", b"(((((",
           b"\r\nContent-Transfer-Encoding: base64\r\n", b"\r\nBcc: evil@example.org\r\n", b"filename*=x''%00"]
FIELDS = [b"Subject: =?utf-8?q?x=0D=0ABcc:_evil@example.org?=", b"Message-ID: <a\r\n b@c>", b"From: =?utf-8?q?a=0A?= <x@y>",
          b"Subject: \xe2\x80\xa8\xc2\x85", b"From: \"a\\\"\" <a@b>, <c@d>", b"Content-Type: text/plain; charset=\x00",
          b"Content-Type: multipart/mixed; boundary=\"\"", b"Message-ID: <\xff@x>", b"From: ((((((((((((((((((((("]


PIECES = HOSTILE + [field + b"\r\n" for field in FIELDS] + [bytes([n]) for n in range(256)] + [b"", b"-", b"--x", b" "]
MUTATION = st.tuples(st.sampled_from(["flip", "insert", "delete", "field", "boundary", "cut"]), st.integers(0, 1 << 16),
                     st.sampled_from(PIECES))


def damage(raw: bytes, mutations: list[tuple[str, int, bytes]]) -> bytes:
    """`raw` with bytes flipped, inserted (hostile ones) and deleted, header fields put in front,
    delimiter lines broken, or its end cut off. Flat draws: hypothesis spends far more time on many
    small draws than read_incoming spends on the mail."""
    raw = bytearray(raw)
    for kind, number, piece in mutations:
        at = number % (len(raw) + 1)
        if kind == "flip" and at < len(raw):
            raw[at] = (piece or b"\0")[0]
        elif kind == "insert":
            raw[at:at] = piece
        elif kind == "delete":
            del raw[at:at + 1 + number % 40]
        elif kind == "field":
            raw[0:0] = piece + (b"" if piece.endswith(b"\n") else b"\r\n")
        elif kind == "boundary":  # the delimiter lines are what the splitting trusts
            found = [m.start() + 1 for m in re.finditer(rb"\n--", bytes(raw))]
            if found:
                where = found[number % len(found)]
                raw[where:where + 1 + number % 6] = piece[:3]
        elif kind == "cut":
            del raw[at:]
    return bytes(raw)


@settings(max_examples=2000, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from(REAL), st.lists(MUTATION, min_size=1, max_size=6))
def test_a_damaged_mail_is_read_without_failing_and_its_fields_are_clean(raw: bytes, mutations) -> None:
    assert_clean(read_incoming(damage(raw, mutations)))


# mails pbem writes

NAMES = ["Doe, John", "\"Quoted\" Name", "J\u00fcrgen M\u00fcller", "Evil\r\nBcc: evil@example.org",
         "a\u2028b\u0085c\x0bd\x0ce\x00f", "<angle> stuff", "=?utf-8?q?encoded?=", "x" * 300, "back\\slash;colon:"]


@pytest.mark.parametrize("name", NAMES)
def test_a_mail_carries_exactly_the_fields_meant_whatever_the_names(name: str) -> None:
    subject = f"Re: {name}\r\nX-Injected: yes\u2028\u0085"
    message = outgoing(f"{name} <mo@example.org>", f"{name} <player@example.org>", subject, "text",
                       reply_to="<a1@example.org>", key="reply|<a1@example.org>")
    for serialised in (policy.SMTP, policy.SMTP.clone(max_line_length=998)):
        back = BytesParser(policy=policy.default).parsebytes(message.as_bytes(policy=serialised))
        assert sorted(back.keys()) == sorted(["From", "To", "Subject", "Message-ID", "Date", "In-Reply-To",
                                              "References", "MIME-Version", "Content-Type",
                                              "Content-Transfer-Encoding"])
        clean = messages.one_line(name, messages.MAX_NAME)
        clean = clean[1:-1] if len(clean) > 1 and clean[0] == clean[-1] == '"' else clean
        for field, address in (("From", "mo@example.org"), ("To", "player@example.org")):
            [parsed] = back[field].addresses
            assert parsed.addr_spec == address
            # a name written as an encoded word is one when read back: odd, but it adds no field
            assert parsed.display_name == clean or clean.startswith("=?")
        assert back["Subject"] == messages.one_line(subject, messages.MAX_OUTGOING_SUBJECT) or "=?" in subject
        assert back["In-Reply-To"] == back["References"] == "<a1@example.org>"


@pytest.mark.parametrize("reply_to", ["<a@b>\r\nBcc: evil@example.org", "<a@b> <c@d>", "a@b", "<a\u2028b@c>"])
def test_a_reply_to_an_unplain_message_id_has_no_references(reply_to: str) -> None:
    message = outgoing("Mo <mo@example.org>", "player@example.org", "Re: x", "text", reply_to=reply_to)
    back = BytesParser(policy=policy.default).parsebytes(message.as_bytes(policy=policy.SMTP))
    assert "In-Reply-To" not in back and "References" not in back and "Bcc" not in back


@pytest.mark.parametrize("address", ["a b@example.org", "a@example.org\r\nBcc: x@y", ""])
def test_an_address_that_would_spill_is_refused(address: str) -> None:
    with pytest.raises(ValueError):
        outgoing("Mo <mo@example.org>", address, "x", "text")


def test_every_text_part_names_utf8() -> None:
    message = outgoing("Mo <mo@example.org>", "player@example.org", "R1", "report \u00fc", "<p>report \u00fc</p>",
                       [("report.md", "# \u00fc\n".encode(), "text/markdown"), ("report.bbcode", b"[b]x[/b]", "text/plain"),
                        ("private.html", b"<p>x</p>", "text/html"), ("map.png", b"\x89PNG", "image/png")],
                       {"map": b"\x89PNG"})
    back = BytesParser(policy=policy.default).parsebytes(message.as_bytes(policy=policy.SMTP))
    texts = [part for part in back.walk() if part.get_content_maintype() == "text"]
    assert len(texts) == 5
    assert all(part.get_param("charset") == "utf-8" for part in texts)
    assert {part.get_filename(): part.get_content_type() for part in texts if part.get_filename()} == {
        "report.md": "text/markdown", "report.bbcode": "text/plain", "private.html": "text/html"}
    assert [p.get_content() for p in texts if p.get_filename() == "report.md"] == ["# \u00fc\n"]


def test_the_message_id_grows_from_the_key_and_the_game() -> None:
    def message_id(**kwargs) -> str:
        return outgoing("Mo <mo@example.org>", "player@example.org", "x", "text", **kwargs)["Message-ID"]
    assert message_id(key="k") == f"<{hashlib.sha256(b'k').hexdigest()[:32]}@example.org>" == message_id(key="k")
    assert message_id(key="k", game="a") == message_id(key="k", game="a")
    assert len({message_id(key="k"), message_id(key="k", game="a"), message_id(key="k", game="b")}) == 3
    assert message_id() != message_id()
