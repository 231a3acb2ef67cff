"""The contract between the core and a game, proven by a game that is not pbem's: High Card
(tests/toy_game/, docs/new-game.md) is installed as a game shipped on its own would be, through the
entry point group pbem.games, into a folder of its own that only these tests put on the path, and is
played to its end by the installed `pbem` command: new, options, validate, receive and next, a turn
by mail through the mail loop, verify with the reports, reveal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_mail import (MODERATOR, SALT, Mailboxes, _deliver, _orders_mail,  # noqa: F401 (fixtures)
                       certificates, config, imap, imap_server, mailboxes, smtp_server)

from pbem.core.players import password_hash
from pbem.mail.config import MailConfig
from pbem.rulesets import RULESETS

TOY = Path(__file__).resolve().parent / "toy_game"
PBEM = Path(sys.executable).parent / "pbem"
START = "2026-11-23T10:00"


@pytest.fixture(scope="module")
def toy_path(tmp_path_factory) -> str:
    """A folder holding High Card as pip installs it; on PYTHONPATH, pbem finds the game there."""
    where = tmp_path_factory.mktemp("toy")
    shutil.copytree(TOY, where / "source")  # pip builds in the source folder: not in the repository
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(where / "site"),
                    str(where / "source")], check=True)
    return str(where / "site")


def pbem(toy_path: str | None, *args, cwd: Path, env: dict | None = None, ok: bool = True):
    """The installed command, outside the repository so that its pbem/ cannot shadow the installed one."""
    environment = {**os.environ, **(env or {})}
    environment.pop("PYTHONPATH", None)
    if toy_path:
        environment["PYTHONPATH"] = toy_path
    done = subprocess.run([str(PBEM), *map(str, args)], cwd=cwd, env=environment, capture_output=True, text=True)
    assert "Traceback" not in done.stderr
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def _orders(folder: Path, seat: str, card: int | None) -> Path:
    path = folder / f"{seat}-{card}.yaml"
    path.write_text(f"seat: {seat}\n" + (f"play: {card}\n" if card else ""))
    return path


def _state(game: Path) -> dict:
    ledger = (game / "ledger.jsonl").read_text().splitlines() if (game / "ledger.jsonl").exists() else []
    where = game / json.loads(ledger[-1])["output"] if ledger else game / "start"
    return yaml.safe_load((where / "state.yaml").read_text())


def test_the_toy_game_is_only_where_its_test_installs_it(toy_path: str, tmp_path: Path) -> None:
    assert "high-card" not in RULESETS
    assert "high-card" not in pbem(None, "new", "--help", cwd=tmp_path).stdout
    listed = pbem(toy_path, "new", "--help", cwd=tmp_path).stdout
    assert all(game in listed for game in ("aa-europe", "aa-revised", "qmg", "undaunted-stalingrad", "high-card"))


def test_a_game_of_the_toy_from_new_to_reveal(toy_path: str, tmp_path: Path, config: MailConfig,
                                              mailboxes: Mailboxes) -> None:
    game = tmp_path / "game"
    run = lambda *args, **kw: pbem(toy_path, *args, cwd=tmp_path, **kw)  # noqa: E731
    assert "tie_break (default die" in run("options", "high-card").stdout
    run("new", "high-card", game, "--game", "Toy", "-o", "tie_break=none")
    hands = _state(game)["hands"]

    # a card not in the hand is refused with the seat's own hand as what is allowed, and nothing else
    wrong = next(card for card in range(1, 10) if card not in hands["north"])
    refused = run("validate", _orders(tmp_path, "north", wrong), "--state", game / "start" / "state.yaml", ok=False)
    assert refused.returncode == 1 and f"play: {wrong} is not in your hand (allowed: " \
        f"{', '.join(map(str, hands['north']))})" in refused.stderr
    assert str(hands["south"]) not in refused.stderr

    # turn 1 by hand: both seats' orders received, then played
    for seat in hands:
        run("receive", game, _orders(tmp_path, seat, max(hands[seat])))
    run("next", game)
    turn = game / json.loads((game / "ledger.jsonl").read_text())["output"]
    for seat, hand in _state(game)["hands"].items():  # each seat's report shows its own hand, and only that
        assert f"\nYour hand: {', '.join(map(str, hand))}\n" in (turn / f"report-{seat}.md").read_text()
    assert "Your hand" not in (turn / "report.md").read_text()

    # turn 2 by mail: each player mails their orders; the loop plays the turn and mails the reports
    players = ["moderator: {name: Mo, address: " + MODERATOR + "}", "players:"]
    players += [f"  - {{name: {seat.title()}, address: {seat}@example.org, roles: [{seat}], "
                f"password: 'sha256:{SALT}:{password_hash(SALT, seat + '-pw')}'}}" for seat in hands]
    (game / "players.yaml").write_text("\n".join(players) + "\n")
    hands = _state(game)["hands"]
    for seat in hands:
        orders = f"seat: {seat}\nplay: {min(hands[seat])}\n"
        _deliver(config.imap, _orders_mail(seat, orders, f"<{seat}-2@example.org>", turn=2))
    env = {"PBEM_IMAP_HOST": config.imap.host, "PBEM_IMAP_PORT": str(config.imap.port),
           "PBEM_IMAP_USER": config.imap.user, "PBEM_IMAP_PASSWORD": config.imap.password,
           "PBEM_IMAP_CA_FILE": config.imap.ca_file, "PBEM_SMTP_HOST": config.smtp.host,
           "PBEM_SMTP_PORT": str(config.smtp.port), "PBEM_SMTP_CA_FILE": config.smtp.ca_file}
    assert "game turn 2 played" in run("mail", "run", game, "--now", START, env=env).stdout
    for seat, other in (("north", "south"), ("south", "north")):
        attached = {part.get_filename() for mail in mailboxes.of(f"{seat}@example.org")
                    for part in mail.iter_attachments()}
        assert f"report-{seat}.md" in attached and not any(other in (name or "") for name in attached)

    # turn 3 by hand, north without a card: the lowest is played, and the report says why
    run("receive", game, _orders(tmp_path, "north", None))
    run("receive", game, _orders(tmp_path, "south", _state(game)["hands"]["south"][0]))
    run("next", game)
    last = game / json.loads((game / "ledger.jsonl").read_text().splitlines()[-1])["output"]
    assert "North: the orders name no card, so the lowest card in hand was played." in (last / "report.md").read_text()
    assert _state(game)["winner"] in ("north", "south", "draw")

    assert "verified 3 turns" in run("verify", game, "--reports").stderr
    run("reveal", game)
    assert "hidden_key" in (game / "reveal.yaml").read_text()
    assert "verified 3 turns" in run("verify", game, "--reports").stderr
    # a private HTML report, the one mail clients show, faked after the game: verify names it
    private = last / "report-south.html"
    private.write_text(private.read_text().replace("Your hand:", "Your hand (faked):"))
    faked = run("verify", game, "--reports", ok=False)
    assert faked.returncode == 1 and "report-south.html line" in faked.stderr
