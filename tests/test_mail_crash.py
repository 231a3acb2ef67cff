"""A pass killed at any instant, or stopped by a full disk, loses nothing and doubles nothing: the
next passes finish its work, every player gets every mail once (but the one in flight at the
kill), and the game verifies.

The game is Undaunted's last example turn (both sides bid by mail, one exchange), on the
in-process servers of test_mail. A kill is a `Killed` raised at the chosen write, rename, removal
or sent mail of the pass; the kills at random times are real SIGKILLs of a pass in a process of
its own."""

from __future__ import annotations

import builtins
import io
import json
import os
import random
import shutil
import signal
import smtplib
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from test_mail import (EXAMPLES, MODERATOR, SALT, Mailboxes, _deliver, _orders_mail,  # noqa: F401
                       certificates, config, imap, imap_server, mailboxes, smtp_server)

from pbem.core.errors import InputError
from pbem.core.game import verify_game
from pbem.core.players import password_hash
from pbem.mail.config import MailConfig
from pbem.mail.loop import run_pass
from pbem.render import render_turn

SOURCE = EXAMPLES / "undaunted-stalingrad"
PLAYERS = {"soviet": "marie", "german": "frantisek"}
NOW = "2026-11-23T10:00"


class Killed(BaseException):
    """The process ends here: nothing after this point of the pass runs."""


def _game(folder: Path) -> tuple[Path, dict]:
    """The example before its last turn, with a players file."""
    shutil.copytree(SOURCE, folder)
    ledger = [json.loads(line) for line in (folder / "ledger.jsonl").read_text().splitlines()]
    last = ledger[-1]
    shutil.rmtree(folder / last["output"])
    (folder / last["turn_file"]).unlink()
    (folder / "ledger.jsonl").write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in ledger[:-1]))
    lines = [f"moderator: {{name: Mo, address: {MODERATOR}}}", "players:"]
    lines += [f"  - {{name: {name.title()}, address: {name}@example.org, roles: [{side}], "
              f"password: 'sha256:{SALT}:{password_hash(SALT, name + '-pw')}'}}" for side, name in PLAYERS.items()]
    (folder / "players.yaml").write_text("\n".join(lines) + "\n")
    return folder, last


@pytest.fixture
def inbox(config: MailConfig) -> dict:
    """Both sides' bids in the moderator's mailbox; the expected last turn."""
    last = json.loads((SOURCE / "ledger.jsonl").read_text().splitlines()[-1])
    name = Path(last["turn_file"]).stem
    for side, player in PLAYERS.items():
        orders = (SOURCE / "orders" / f"{name}-{side}.yaml").read_text()
        _deliver(config.imap, _orders_mail(side, orders, f"<{side}-bid@x>", password=f"{player}-pw",
                                           sender=f"{player}@example.org", turn=last["turn"]))
    return last


class Faults:
    """Counts the points where a pass changes something lasting, and stops it at one of them."""

    def __init__(self, monkeypatch, kill_at: int | None = None, disk_bytes: int | None = None) -> None:
        self.points: list[str] = []
        self.kill_at, self.disk_bytes, self.written = kill_at, disk_bytes, 0
        real_open, real_send = builtins.open, smtplib.SMTP.sendmail
        faults = self

        def point(what: str) -> None:
            faults.points.append(what)
            if len(faults.points) == faults.kill_at:
                raise Killed(what)

        def opening(file, mode="r", *args, **kwargs):
            handle = real_open(file, mode, *args, **kwargs)
            if any(c in mode for c in "wax+"):
                point(f"open {Path(str(file)).name}")
                if faults.disk_bytes is not None:
                    return _Bounded(handle, faults)
            return handle

        def wrap(name, original):
            def changed(*args, **kwargs):
                point(f"{name} {Path(str(args[0])).name}")
                return original(*args, **kwargs)
            return changed

        def sending(smtp, *args, **kwargs):
            result = real_send(smtp, *args, **kwargs)
            point("sent")  # a kill here leaves the mail sent but not moved to sent/: the one in flight
            return result

        monkeypatch.setattr(builtins, "open", opening)
        monkeypatch.setattr(io, "open", opening)
        for module, name in ((os, "replace"), (os, "rename"), (os, "unlink"), (shutil, "rmtree")):
            monkeypatch.setattr(module, name, wrap(name, getattr(module, name)))
        monkeypatch.setattr(smtplib.SMTP, "sendmail", sending)


class _Bounded:
    """A file on a disk with `disk_bytes` left for the whole pass."""

    def __init__(self, handle, faults: Faults) -> None:
        self.handle, self.faults = handle, faults

    def write(self, data):
        self.faults.written += len(data)
        if self.faults.written > self.faults.disk_bytes:
            raise OSError(28, "No space left on device")
        return self.handle.write(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.handle.__exit__(*exc)

    def __iter__(self):
        return iter(self.handle)


def _pass(game: Path, config: MailConfig) -> None:
    from datetime import datetime
    run_pass(game, config, datetime.fromisoformat(NOW), render_turn)


def _finished_once(game: Path, last: dict, mailboxes: Mailboxes, in_flight: int) -> None:
    """The turn played as by hand, each mail once (but `in_flight`), nothing waiting, the game
    verifying."""
    entry = json.loads((game / "ledger.jsonl").read_text().splitlines()[-1])
    assert entry["turn"] == last["turn"] and entry["state_sha256"] == last["state_sha256"]
    doubled = 0
    for player in PLAYERS.values():
        subjects = Counter(m["Subject"] for m in mailboxes.of(f"{player}@example.org"))
        assert any("The game begins" in s for s in subjects), subjects
        assert any("played" in s for s in subjects), subjects
        assert any(s.startswith("[") and "Re: " in s for s in subjects), subjects  # the answer to the bid
        doubled += sum(n - 1 for n in subjects.values())
    assert doubled <= in_flight, [Counter(m["Subject"] for m in mailboxes.of(f"{p}@example.org"))
                                  for p in PLAYERS.values()]
    assert not list((game / "mail" / "outbox").glob("*.eml"))
    handled = [json.loads(line) for line in (game / "mail" / "journal.jsonl").read_text().splitlines()
               if '"handled"' in line]
    assert sorted(h["message_id"] for h in handled) == ["<german-bid@x>", "<soviet-bid@x>"]
    stored = sorted(p.name for p in (game / "inbox" / f"turn-{last['turn']:02d}").iterdir())
    assert stored == ["german.001.yaml", "soviet.001.yaml"]  # each version once
    verify_game(game)


def _in_flight(point: str) -> bool:
    """Whether a kill here leaves a mail sent but still in the outbox (sent, not yet moved)."""
    return point == "sent" or point.startswith("replace 0") and point.endswith(".eml")


def test_a_kill_at_every_point_of_a_pass_is_finished_by_the_next(tmp_path: Path, config: MailConfig,
                                                                   mailboxes: Mailboxes, inbox: dict,
                                                                   monkeypatch) -> None:
    killed_at: list[str] = []
    while True:  # kill at the first point, then the second, ... until a pass runs through
        mailboxes.boxes.clear()
        game, _ = _game(tmp_path / f"kill-{len(killed_at) + 1}")
        faults = Faults(monkeypatch, kill_at=len(killed_at) + 1)
        try:
            _pass(game, config)
        except Killed:
            killed_at.append(faults.points[-1])
        else:
            break
        finally:
            monkeypatch.undo()
        _pass(game, config)
        _pass(game, config)
        try:
            _finished_once(game, inbox, mailboxes, in_flight=int(_in_flight(killed_at[-1])))
        except AssertionError as failed:
            raise AssertionError(f"killed at point {len(killed_at)}, {killed_at[-1]}: {failed}") from None
    assert len(killed_at) > 30 and killed_at.count("sent") == 6
    print(f"{len(killed_at)} kill points: {Counter(p.split()[0] for p in killed_at)}")


@pytest.mark.parametrize("share", [0.001, 0.01, 0.1, 0.5, 0.95])
def test_a_full_disk_is_named_and_the_next_pass_finishes(share: float, tmp_path: Path, config: MailConfig,
                                                         mailboxes: Mailboxes, inbox: dict, monkeypatch) -> None:
    """The disk fills after `share` of what a whole pass writes."""
    measuring = Faults(monkeypatch, disk_bytes=10**12)
    _pass(_game(tmp_path / "measure")[0], config)
    monkeypatch.undo()
    mailboxes.boxes.clear()
    game, _ = _game(tmp_path / "game")
    Faults(monkeypatch, disk_bytes=int(measuring.written * share))
    with pytest.raises(InputError) as stopped:
        _pass(game, config)
    monkeypatch.undo()
    said = "; ".join(str(p) for p in stopped.value.problems)
    assert "No space left on device" in said and "mail server" not in said
    _pass(game, config)
    _pass(game, config)
    _finished_once(game, inbox, mailboxes, in_flight=0)


KILLED_PASS = """
import json, sys
from datetime import datetime
from pathlib import Path
from pbem.mail.config import MailConfig, Server
from pbem.mail.loop import run_pass
from pbem.render import render_turn
imap, smtp = (Server(**json.loads(part)) for part in sys.argv[2:4])
print("ready", flush=True)
run_pass(Path(sys.argv[1]), MailConfig(imap, smtp), datetime.fromisoformat(sys.argv[4]), render_turn)
"""


def _spec(server) -> str:
    return json.dumps(server.__dict__)


def _start_pass(game: Path, config: MailConfig, tmp_path: Path) -> subprocess.Popen:
    """A pass in a process of its own, started once it has imported what it needs."""
    process = subprocess.Popen([sys.executable, "-c", KILLED_PASS, str(game), _spec(config.imap), _spec(config.smtp),
                                NOW], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=tmp_path)  # not the repository's pbem/
    assert process.stdout.readline().strip() == b"ready"
    return process


def test_passes_killed_at_random_times_lose_nothing(tmp_path: Path, config: MailConfig, mailboxes: Mailboxes,
                                                    inbox: dict) -> None:
    whole = _start_pass(_game(tmp_path / "timed")[0], config, tmp_path)
    began = time.perf_counter()
    assert whole.wait() == 0, whole.stderr.read().decode()
    length = time.perf_counter() - began
    chance, killed = random.Random(22), 0
    for attempt in range(4):
        mailboxes.boxes.clear()
        game, _ = _game(tmp_path / f"game-{attempt}")
        process = _start_pass(game, config, tmp_path)
        time.sleep(chance.uniform(0.0, 0.8 * length))
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert process.returncode in (0, -signal.SIGKILL), process.stderr.read().decode()
        killed += process.returncode == -signal.SIGKILL
        _pass(game, config)
        _pass(game, config)
        _finished_once(game, inbox, mailboxes, in_flight=1)
    assert killed >= 3  # the kills came in the middle of the passes
