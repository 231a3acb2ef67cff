"""A game's mail folder: what the mail loop has done, kept so that a pass killed at any instant is
finished by the next one, and nothing is done twice.

    GAME/mail/journal.jsonl   append-only, one line a step: a mail handled (its Message-ID, sender,
                              outcome), a version stored from it, a turn's reports queued, a refusal
    GAME/mail/turns.json      each game turn's clock: when it began, the reminders sent
    GAME/mail/outbox/*.eml    mails waiting for the server, named by what they are
    GAME/mail/sent/*.eml      mails the server took
    GAME/mail/log.txt         what each pass did
    GAME/mail/.lock           held by the pass at work, so that two passes never overlap

Every file is replaced whole (written beside, then renamed) or appended a line at a time, so a kill
leaves the old version or the new one; a journal line cut by a kill is read as not written.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
from contextlib import contextmanager
from datetime import datetime, timedelta
from email import policy
from pathlib import Path
from typing import Any, Iterator

from pbem.core.errors import InputError, Problem, display_path
from pbem.core.folder import GAME_FILE, MAIL_DIR, TURN_CLOCKS, TURNS_DIR
from pbem.core.yamlio import load_document

JOURNAL = "journal.jsonl"
UNFOLDED = policy.SMTP.clone(max_line_length=998)
"""Headers on one line (a folded subject reads with a leading blank in some clients)."""
REFUSALS_PER_HOUR = 3
"""Refusals mailed to one address in an hour; beyond them a refusal is only logged, so that nobody
can make the game mail a player without end by sending mails in their name."""


def write_whole(path: Path, data: bytes) -> None:
    """Replace `path` by `data` in one step, durable before it counts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.parent / f".{path.name}.new"
    with open(staging, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(staging, path)


def game_identity(game: Path) -> tuple[str, str]:
    """The game's name, and a key unique to it (its dice commitment, drawn at random), so that two
    games' mails to one player never share a Message-ID."""
    info = load_document(game / GAME_FILE).data
    return str(info.get("game") or game.name), str(info.get("dice", {}).get("commitment") or game.resolve())


SETTLED = "settled.json"
"""A game left with nothing to do: what its files looked like then and when its clock next asks
for something, so that an idle pass over many games reads next to nothing of each."""


def fingerprint(game: Path, turn: int) -> list[Any]:
    """The sizes and times of what a pass's work depends on; any change means the game must be
    looked at (a mail, a turn played by hand, a version received, a players file edited)."""
    parts = ("ledger.jsonl", "players.yaml", GAME_FILE, TURNS_DIR, f"inbox/turn-{turn:02d}", f"{MAIL_DIR}/outbox",
             f"{MAIL_DIR}/{JOURNAL}", str(TURN_CLOCKS))
    found = []
    for part in parts:
        try:
            seen = os.stat(game / part)
            found.append([part, seen.st_size, seen.st_mtime_ns])
        except FileNotFoundError:
            found.append([part, None])
    return found


def settled(game: Path, now: datetime) -> dict[str, Any] | None:
    """The game's record of being idle, when it still holds: nothing changed and its clock asks
    for nothing yet."""
    try:
        record = json.loads((game / MAIL_DIR / SETTLED).read_text())
        unchanged = record["fingerprint"] == fingerprint(game, record["turn"])
        return record if unchanged and (record["wake"] is None or now.isoformat() < record["wake"]) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def settle(game: Path, turn: int, wake: datetime | None, name: str, addresses: list[str]) -> None:
    record = {"turn": turn, "wake": wake.isoformat() if wake else None, "name": name, "addresses": addresses,
              "fingerprint": fingerprint(game, turn)}
    write_whole(game / MAIL_DIR / SETTLED, json.dumps(record).encode())


class GameBusy(Exception):
    """Another pass holds the game."""


@contextmanager
def game_lock(game: Path) -> Iterator[None]:
    """Hold the game for one pass; `GameBusy` when another pass (cron overlapping) holds it."""
    (game / MAIL_DIR).mkdir(exist_ok=True)
    with open(game / MAIL_DIR / ".lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise GameBusy(display_path(game)) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


class Mailroom:
    """The game's mail folder, read once a pass and written a step at a time."""

    def __init__(self, game: Path, now: datetime, game_key: str) -> None:
        self.game, self.root, self.now, self.game_key = game, game / MAIL_DIR, now, game_key
        self.lines: list[str] = []
        self.steps = self._read_journal()
        self.handled = {s["message_id"]: s for s in self.steps if s.get("step") == "handled"}
        self.storing = {s["message_id"]: s for s in self.steps if s.get("step") == "storing"}
        self.reported = {s["turn"] for s in self.steps if s.get("step") == "reported"}
        path = game / TURN_CLOCKS
        self.turns: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.exists() else {}
        self.known = {p.name.split("-", 1)[-1].removesuffix(".eml") for folder in ("outbox", "sent")
                      if (self.root / folder).is_dir() for p in (self.root / folder).iterdir()}

    def _read_journal(self) -> list[dict[str, Any]]:
        path = self.root / JOURNAL
        if not path.exists():
            return self._before_the_journal()
        steps = []
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                step = json.loads(line)
            except ValueError:
                continue  # the last line of a pass killed while writing it: that step was not done
            if isinstance(step, dict):
                steps.append(step)
        return steps

    def _before_the_journal(self) -> list[dict[str, Any]]:
        """A game run by mail before the journal (mail/handled.jsonl): its mails count as handled
        and its players as told, so that an upgrade answers and announces nothing twice."""
        legacy = self.root / "handled.jsonl"
        if not legacy.exists():
            return []
        from pbem.core.game import read_ledger
        steps = [{"step": "baseline", "turns": len(read_ledger(self.game) or [])}, {"step": "announced"}]
        for line in legacy.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                steps.append({"step": "handled", "message_id": json.loads(line)["message_id"]})
            except (ValueError, KeyError, TypeError):
                continue
        for step in steps:
            self._append(step)
        return steps

    def note(self, step: str, **facts: Any) -> dict[str, Any]:
        """Append one step to the journal, on disk before the pass goes on."""
        entry = {"step": step, **facts}
        self._append(entry)
        self.steps.append(entry)
        if step == "handled":
            self.handled[entry["message_id"]] = entry
        elif step == "storing":
            self.storing[entry["message_id"]] = entry
        elif step == "reported":
            self.reported.add(entry["turn"])
        return entry

    def _append(self, entry: dict[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / JOURNAL, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry, sort_keys=True) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def may_refuse(self, address: str) -> bool:
        """Whether a refusal may still be mailed to `address` this hour (then it counts one)."""
        since = (self.now - timedelta(hours=1)).isoformat()
        recent = [s for s in self.steps if s.get("step") == "refusal" and s.get("address") == address
                  and s.get("at", "") > since]
        if len(recent) >= REFUSALS_PER_HOUR:
            return False
        self.note("refusal", address=address, at=self.now.isoformat())
        return True

    def save_turns(self) -> None:
        write_whole(self.game / TURN_CLOCKS, json.dumps(self.turns, indent=1, sort_keys=True).encode())

    def log(self, line: str) -> None:
        self.lines.append(line)
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / "log.txt", "a", encoding="utf-8") as out:
            out.write(f"{self.now.isoformat(timespec='minutes')} {line}\n")

    def key_digest(self, key: str) -> str:
        return hashlib.sha256(f"{self.game_key}|{key}".encode()).hexdigest()[:24]

    def queue(self, key: str, message) -> bool:
        """Put a mail in the outbox once: a mail of the same key waiting or sent is not queued
        again. Whether it was queued now."""
        digest = self.key_digest(key)
        if digest in self.known:
            return False
        # numbered, so that mails go out in the order they were written
        write_whole(self.root / "outbox" / f"{len(self.known) + 1:06d}-{digest}.eml",
                    message.as_bytes(policy=UNFOLDED))
        self.known.add(digest)
        return True

    def waiting(self) -> list[Path]:
        box = self.root / "outbox"
        return sorted(p for p in box.iterdir() if p.suffix == ".eml") if box.is_dir() else []

    def sent(self, path: Path) -> None:
        (self.root / "sent").mkdir(exist_ok=True)
        os.replace(path, self.root / "sent" / path.name)


def disk_problem(exc: OSError, game: Path) -> InputError:
    """A local file that could not be written, named, as the moderator must fix it (not the
    mail server)."""
    where = display_path(exc.filename) if exc.filename else display_path(game)
    return InputError([Problem(where, None, "", f"cannot write on this machine's disk: {exc.strerror or exc}; "
                               "nothing is lost: the next pass finishes what this one began",
                               "room on the disk of the game folder, and the right to write there")])
