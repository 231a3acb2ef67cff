#!/usr/bin/env python3
"""Time an idle pass of the mail loop: a club's folder of games that all wait for orders, a mailbox
with nothing new. Issue 22's target: an idle pass over 200 games costs at most a few times an idle
pass over one.

The games are new Axis & Allies Revised games with a players file each; the mailbox is pymap on
loopback (a test dependency) and the mails go to an SMTP server in this process (aiosmtpd). The
first pass announces every game; the passes timed after it find nothing to do. Run from the
repository root with the test extras installed::

    python bench/bench_mail_idle.py [--games 1 200] [--runs 3] [--root DIR]

`--root DIR` times the one-game idle pass of another checkout too (its own .venv, or this Python
with DIR first on the path) and prints the ratio.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODERATOR = "mo@example.org"
START = datetime(2026, 11, 23, 10, 0)
SALT = "00112233aabbccdd"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _club(folder: Path, games: int) -> Path:
    from pbem.core.game import new_game
    from pbem.core.players import password_hash
    roles = ("ussr", "germany", "uk", "japan", "usa")
    players = [f"moderator: {{name: Mo, address: {MODERATOR}}}", "players:"]
    players += [f"  - {{name: {r.title()}, address: {r}@example.org, roles: [{r}], "
                f"password: 'sha256:{SALT}:{password_hash(SALT, r)}'}}" for r in roles]
    for number in range(games):
        game = new_game("aa-revised", folder / f"game{number:03d}", f"Bench game {number}", {},
                        secret=f"{number:064x}")
        (game / "players.yaml").write_text("\n".join(players) + "\n")
    return folder


class _Dropped:
    async def handle_DATA(self, server, session, envelope):
        return "250 delivered"


def _servers(folder: Path):
    from aiosmtpd.controller import Controller

    from pbem.mail.config import MailConfig, Server
    imap_port = _free_port()
    pymap = subprocess.Popen([str(Path(sys.executable).parent / "pymap"), "--host", "127.0.0.1", "--port",
                              str(imap_port), "--no-tls", "dict", "--demo-user",
                              MODERATOR, "--demo-password", "secret"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", imap_port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    smtp = Controller(_Dropped(), hostname="127.0.0.1", port=_free_port())
    smtp.start()
    config = MailConfig(Server("127.0.0.1", imap_port, MODERATOR, "secret", "plain"),
                        Server("127.0.0.1", smtp.port, "", "", "plain"))
    return config, pymap, smtp


def idle_pass(games: int, runs: int) -> float:
    """The best time of `runs` idle passes over a club of `games` games (one game: `pbem mail run`
    on the game itself, as every version of pbem can)."""
    from pbem.mail import loop

    with tempfile.TemporaryDirectory() as temporary:
        club = _club(Path(temporary), games)
        config, pymap, smtp = _servers(club)

        def run(at: datetime) -> list[str]:
            if games == 1:
                return loop.run_pass(club / "game000", config, at, None)
            lines, problems = loop.run_club(club, config, at, None)
            assert not problems, problems[0]
            return lines
        try:
            run(START)  # announces every game: not timed
            best = float("inf")
            for number in range(runs):
                began = time.perf_counter()
                lines = run(START + timedelta(minutes=number + 1))
                best = min(best, time.perf_counter() - began)
                assert not lines, lines
            return best
        finally:
            smtp.stop()
            pymap.terminate()
            pymap.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 200])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--root", type=Path, help="another checkout, to time its one-game idle pass")
    args = parser.parse_args()
    times = {}
    for games in args.games:
        times[games] = idle_pass(games, args.runs)
        print(f"idle pass over {games:4d} game{'s' if games != 1 else ' '}: {times[games] * 1000:8.1f} ms "
              f"(best of {args.runs})")
    if len(times) > 1:
        low, high = min(times), max(times)
        print(f"{high} games cost {times[high] / times[low]:.1f} times {low}")
    if args.root:
        python = args.root / ".venv" / "bin" / "python"
        python = python if python.exists() else Path(sys.executable)
        code = (f"import sys; sys.path.insert(0, {str(args.root)!r}); sys.path.insert(1, {str(REPO / 'bench')!r}); "
                f"import bench_mail_idle as b; print(b.idle_pass(1, {args.runs}))")
        theirs = float(subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True,
                                      cwd=args.root).stdout.split()[-1])
        print(f"{args.root}: one game {theirs * 1000:.1f} ms; this checkout is {theirs / times[min(times)]:.2f} "
              "times as fast")


if __name__ == "__main__":
    main()
