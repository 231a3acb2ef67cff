"""Where the game's mailbox is and how to log in: from the environment or from a file outside the
game folder, never from the game folder itself (a game folder is published; a password is not)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.yamlio import load_document

LOOPBACK = ("127.0.0.1", "::1", "localhost")


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str
    password: str
    tls: str
    """ssl (TLS from the start), starttls, or plain (loopback only)."""
    ca_file: str | None = None
    """A certificate authority to trust besides the system's (a test server's own)."""


@dataclass(frozen=True)
class MailConfig:
    imap: Server
    smtp: Server
    max_message_bytes: int = 2_000_000


def _server(kind: str, values: Mapping[str, str], where: str) -> Server:
    def need(key: str) -> str:
        if not values.get(key):
            raise InputError([Problem(where, None, f"{kind}.{key}", "missing", "see docs/moderating.md")])
        return values[key]
    tls = values.get("tls") or "starttls"
    host = need("host")
    if tls not in ("ssl", "starttls", "plain"):
        raise InputError([Problem(where, None, f"{kind}.tls", f"{tls!r} is not a way to connect",
                                  "ssl, starttls, or plain (loopback only)")])
    if tls == "plain" and host not in LOOPBACK:
        raise InputError([Problem(where, None, f"{kind}.tls", "plain sends the password in the clear",
                                  "ssl or starttls; plain only to a server on this machine")])
    default_port = {"imap": {"ssl": 993, "starttls": 143, "plain": 143},
                    "smtp": {"ssl": 465, "starttls": 587, "plain": 25}}[kind][tls]
    return Server(host, int(values.get("port") or default_port), values.get("user") or "",
                  values.get("password") or "", tls, values.get("ca_file") or None)


def load_config(game: Path, path: Path | None, environ: Mapping[str, str] = os.environ) -> MailConfig:
    """The mail settings: `path` (a YAML file outside the game folder) or the PBEM_IMAP_* and
    PBEM_SMTP_* environment variables (HOST, PORT, USER, PASSWORD, TLS, CA_FILE)."""
    if path is not None:
        shown = display_path(path)
        if game.resolve() in (path.resolve(), *path.resolve().parents):
            raise InputError([Problem(shown, None, "", "the mail settings hold passwords and may not lie in the "
                                      "game folder, which players see", "a file outside the game folder")])
        data = load_document(path).data
        if not isinstance(data, dict):
            raise InputError([Problem(shown, None, "", "not a mapping", "imap: {...}, smtp: {...}")])
        return MailConfig(_server("imap", {k: str(v) for k, v in (data.get("imap") or {}).items()}, shown),
                          _server("smtp", {k: str(v) for k, v in (data.get("smtp") or {}).items()}, shown),
                          int(data.get("max_message_bytes") or 2_000_000))
    def values(kind: str) -> dict[str, str]:
        prefix = f"PBEM_{kind.upper()}_"
        return {k[len(prefix):].lower(): v for k, v in environ.items() if k.startswith(prefix)}
    return MailConfig(_server("imap", values("imap"), "environment"), _server("smtp", values("smtp"), "environment"),
                      int(environ.get("PBEM_MAX_MESSAGE_BYTES") or 2_000_000))
