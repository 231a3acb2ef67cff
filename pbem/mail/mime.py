"""A mail's MIME structure read within fixed bounds: its size, how deep its parts nest, how many
parts there are and how many header bytes the parts carry. The standard library's parser reads any
structure in full (recursively, building every part), so a mail from anyone could make it slow or
make it fail; here only the header blocks go through it, one at a time, and the body is split at
the boundaries by this module with the limits checked as it goes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email import policy
from email.message import Message
from email.parser import BytesParser

MAX_BYTES = 4 * 1024 * 1024
"""The mail loop refuses mails of more than about 2 MB before reading them; this is the cap that
holds whatever a caller passes."""
MAX_DEPTH = 20
MAX_PARTS = 200
MAX_HEAD_BYTES = 256 * 1024
"""The mail's own header block (long Received chains are normal, but not a quarter of a megabyte)."""
MAX_PART_HEAD_BYTES = 64 * 1024
"""The header blocks of all the parts together: their parameters are parsed in Python, so their
total size bounds the time taken."""
MAX_FIELD = 2000
"""A Content-Type, Content-Disposition or Content-Transfer-Encoding field: a long file name written
in RFC 2231 takes a few hundred characters."""
MAX_BOUNDARY = 200  # RFC 2046 allows 70

_HEADERS = BytesParser(policy=policy.compat32)  # fields kept as written: parsed only when asked
_HEADER_LINE = re.compile(rb"(?:From |[\x21-\x39\x3b-\x7e]*:|[ \t])[^\r\n]*(?:\r\n|\r|\n|\Z)")
_LINE_END = re.compile(rb"\r\n|\r|\n")
_DELIMITER_TAIL = re.compile(rb"(--)?[ \t]*(\r\n|\n|\Z)")


class Unreadable(Exception):
    """Reading stopped at a limit or at damage that leaves no way on; the text says which, for the player."""


@dataclass
class Part:
    """A part that holds content (not a multipart): its header fields and its body as sent, still
    in its transfer encoding."""

    headers: Message
    body: bytes


@dataclass
class Walk:
    head: Message
    """The mail's own header fields (From, Subject, Message-ID), as far as they could be read."""
    body: bytes
    parts: list[Part] = field(default_factory=list)
    visited: int = 0
    """Parts looked at, the multiparts included: never more than MAX_PARTS + 1."""
    problem: str | None = None


class _Budget:
    def __init__(self) -> None:
        self.parts = 0
        self.head_bytes = 0

    def part(self) -> None:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise Unreadable(f"the mail has more than {MAX_PARTS} parts")


def _split_head(data: bytes, limit: int) -> tuple[bytes, bytes, bool]:
    """The header block, the body, and whether the header block went past `limit` bytes (it is then
    cut after its last whole line within the limit). The block ends where the mail parser ends it:
    at an empty line, or at the first line that is neither a field nor a continuation."""
    end = 0
    while end < len(data):
        line = _HEADER_LINE.match(data, end)
        if line is None or line.end() == end:
            break
        if line.end() > limit:
            return data[:end], b"", True
        end = line.end()
    blank = _LINE_END.match(data, end)
    return data[:end], data[blank.end() if blank else end:], False


def _fields(head: bytes) -> Message:
    return _HEADERS.parsebytes(head, headersonly=True)


def _too_long(headers: Message) -> str | None:
    for name in ("Content-Type", "Content-Disposition", "Content-Transfer-Encoding"):
        if any(len(value) > MAX_FIELD for key, value in headers.raw_items() if key.lower() == name.lower()):
            return f"a part's {name} is longer than {MAX_FIELD} characters"
    return None


def _split_multipart(body: bytes, boundary: bytes) -> list[bytes]:
    """The parts between the delimiter lines; a missing close delimiter ends the last part at the end
    of the body, as the mail parser does. The search runs in the regular expression engine, which
    finds the literal delimiter quickly, so a large body costs little at each level."""
    delimiter = re.compile(rb"\n--" + re.escape(boundary) + rb"(--)?[ \t]*(?:\r\n|\n|\Z)")
    found = []
    if body.startswith(b"--" + boundary):
        tail = _DELIMITER_TAIL.match(body, 2 + len(boundary))
        if tail:
            found.append((0, tail.end(), bool(tail.group(1))))
    for match in delimiter.finditer(body):
        found.append((match.start(), match.end(), bool(match.group(1))))
        if match.group(1) or len(found) > MAX_PARTS + 1:
            break
    parts = []
    for (_, start, closing), (end, _, _) in zip(found, found[1:]):
        if closing:
            break
        parts.append(body[start:end - 1 if body[end - 1:end] == b"\r" else end])
    if found and not found[-1][2] and len(found) <= MAX_PARTS + 1:
        parts.append(body[found[-1][1]:])
    return parts


def _walk(headers: Message, body: bytes, depth: int, budget: _Budget, out: list[Part]) -> None:
    budget.part()
    too_long = _too_long(headers)
    if too_long:
        raise Unreadable(too_long)
    if headers.get_content_maintype() != "multipart":
        out.append(Part(headers, body))
        return
    boundary = headers.get_param("boundary")
    # an 8-bit boundary reaches here with its bytes already replaced, so it could not be found
    if not isinstance(boundary, str) or not boundary.isascii() or not 0 < len(boundary) <= MAX_BOUNDARY:
        raise Unreadable("a multipart part of the mail has no usable boundary")
    if depth >= MAX_DEPTH:
        raise Unreadable(f"the mail's parts are nested more than {MAX_DEPTH} deep")
    for chunk in _split_multipart(body, boundary.encode("ascii")):
        head, inner, cut = _split_head(chunk, MAX_PART_HEAD_BYTES - budget.head_bytes)
        budget.head_bytes += len(head)
        if cut:
            raise Unreadable(f"the mail's parts carry more than {MAX_PART_HEAD_BYTES:,} bytes of header fields")
        _walk(_fields(head), inner, depth + 1, budget, out)


def read_head(raw: bytes) -> Walk:
    """The mail's header fields, read first and apart, so that a mail whose parts cannot be read
    still has its sender; `problem` says when the mail cannot be read further."""
    head, body, cut = _split_head(raw[:MAX_BYTES], MAX_HEAD_BYTES)
    result = Walk(_fields(head), body)
    if len(raw) > MAX_BYTES:
        result.problem = f"the mail is larger than {MAX_BYTES:,} bytes"
    elif cut:
        result.problem = f"the mail's header is longer than {MAX_HEAD_BYTES:,} bytes"
    return result


def read_parts(walked: Walk) -> None:
    """The parts with content, in order, or as many of them as could be read and the reason why
    the rest could not (`problem`)."""
    if walked.problem:
        return
    budget = _Budget()
    try:
        _walk(walked.head, walked.body, 0, budget, walked.parts)
    except Unreadable as exc:
        walked.problem = str(exc)
    walked.visited = budget.parts


def walk(raw: bytes) -> Walk:
    walked = read_head(raw)
    read_parts(walked)
    return walked
