"""Issue 24, point 2, for Undaunted: Stalingrad: what each audience is told depends only on what it
may know. Seeded random games (random and steady players, the options varied, cards the first
scenario lacks dealt in) stop at their exchanges; at each, a twin differs from the exchange only in
one side's secrets (undaunted_secrets.py), and the public and the other side must be told byte for
byte the same of both (undaunted_told.py): the events they see, their views, their reports in every
format, the map (for a sample), the problems of their orders and standing orders, and what the
moderator's receive, check and status answer them in game folders that differ only in that side's
secrets. Two twins also go through the mail loop, whose every mail to the other side's player must
be the same."""

from __future__ import annotations

import contextlib
import difflib
import functools
import json
import random
import shutil
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any, Callable
from unittest import mock

import pytest

from pbem.core.folder import STANDING
from pbem.core.players import password_hash
from pbem.core.views import view_files
from pbem.core.yamlio import dump_yaml, load_document
from pbem.mail.config import MailConfig, Server
from pbem.mail.loop import run_pass
from pbem.render import render_turn
from pbem.rulesets.undaunted.content import SIDES, other_side
from undaunted_answers import answers, folder_answers
from undaunted_play import RULESET, Exchange, Step, documents, hidden_key, opening, play
from undaunted_players import standing_orders
from undaunted_scenes import SCENES, armed
from undaunted_secrets import CHANGES, Twin, flow, make_twin, why_no_twin
from undaunted_told import Played, digest, drawn, normalised, play_exchange, told
from test_mail import (MODERATOR, SALT, ImapServer, Mailboxes, _deliver, _orders_mail,  # noqa: F401 (fixtures)
                       certificates, smtp_server)

GAMES = range(20)
EXCHANGES = 160
PAIRS_PER_GAME = 30
"""Each game's at least; all games together compare over a thousand pairs."""
TWINNED, SPECIAL, GAP = 0.01, 0.12, 20
"""The shares of exchanges that are twinned: of any kind, and of a special kind (SPECIAL_KINDS);
and the most exchanges that pass without a twin."""
STAGED = 0.07
"""The share of turns from which a scene of undaunted_scenes.py is staged and twinned too."""
TWINS = 4
"""Twins of each case."""
DRAWN = range(0, 20, 3)
"""The games whose first pair has its map drawn too (a quarter of a second a map)."""
FOLDER_EVERY = 8
"""One pair in this many is also asked of in game folders."""
SPECIAL_KINDS = ("casualty", "card_taken", "bomber_removed", "mine_triggered", "fire_lane_triggered", "scenario_won",
                 "not_pushed", "pushed")
KINDS = ("bids", "acting", "waiting", "early", "late", "drawn", "folder", "play_failed", *SPECIAL_KINDS,
         *(scene.__name__ for scene in SCENES))
"""Kinds of exchange every run must twin: whose, when, what happened in them, how staged."""


def _game(seed: int) -> list[Step]:
    rng = random.Random(seed)
    options = {"bombard_open_ground": rng.choice(["units", "no effect"]), "inspire_own_card": rng.random() < 0.7}
    state = opening(seed, options)
    if seed % 4:
        state = armed(state, rng)
    return list(play(seed, EXCHANGES, steady=(0.3, 0.6, 0.9)[seed % 3], state=state, standing=standing_orders))


def _first_difference(case: str | bytes, twin: str | bytes) -> str:
    if isinstance(case, bytes) or isinstance(twin, bytes):
        return f"{len(case)} bytes in the case, {len(twin)} in the twin"
    lines = difflib.unified_diff(case.splitlines(), twin.splitlines(), "case", "twin", n=0, lineterm="")
    return "\n".join(list(lines)[2:6])


def _same(case: dict[str, Any], twin: dict[str, Any], where: str) -> None:
    for name in case:
        if case[name] != twin[name]:
            pytest.fail(f"{where}: {name} differs:\n{_first_difference(case[name], twin[name])}", pytrace=False)


class Comparison:
    """The twins of one game's exchanges compared with them, and what kinds of exchange and twin
    were compared (`pairs`: how many; `no twin`: twins made but found to differ in more than
    secrets)."""

    def __init__(self, seed: int, folders: Path) -> None:
        self.seed, self.folders, self.key = seed, folders / str(seed), hidden_key(seed)
        self.rng = random.Random(seed * 7919)
        self.kinds: Counter = Counter()

    def game(self) -> Counter:
        last = 0
        for step in _game(self.seed):
            special = any(e["type"] in SPECIAL_KINDS for e in step.events)
            if self.rng.random() < (SPECIAL if special else TWINNED) or step.number - last >= GAP:
                last = step.number
                self.twins(step.exchange, step.number, "as played")
            if step.exchange.state["phase"] == "turn" and self.rng.random() < STAGED:
                scene = self.rng.choice(SCENES)
                staged = scene(step.exchange, self.rng)
                if staged and not RULESET.check_orders(staged.state, documents(staged.orders),
                                                       documents(staged.standing)):
                    self.kinds[scene.__name__] += 1
                    self.twins(staged, step.number, f"staged as {scene.__name__}")
        return self.kinds

    def twins(self, case: Exchange, number: int, how: str) -> None:
        dice = digest(case, self.key, number)
        played = play_exchange(case, self.key, number, dice)
        for _ in range(TWINS):
            secret_of = self.rng.choice(SIDES) if case.state["phase"] == "bid" else \
                case.state["next_power"] if self.rng.random() < 0.35 else other_side(case.state["next_power"])
            twin = make_twin(case, played.log.events, secret_of, self.rng)
            twin_played = twin and self.play_twin(case, played, twin, number, dice)
            if twin_played is None:
                self.kinds["no twin"] += 1
                continue
            where = f"seed {self.seed}, exchange {number} {how} ({case.state['phase']}, round " \
                    f"{case.state['round']}), secret of {secret_of}, twin: {twin.changes}"
            self.compare(case, played, twin, twin_played, where)

    def play_twin(self, case: Exchange, played: Played, twin: Twin, number: int, dice: str) -> Played | None:
        """The twin played, or None when it is none: its orders refused, or its owner's cards
        flowing otherwise."""
        if RULESET.check_orders(twin.exchange.state, documents(twin.exchange.orders),
                                documents(twin.exchange.standing)):
            return None
        twin_played = play_exchange(twin.exchange, self.key, number, dice)
        acting = case.state["phase"] != "bid" and twin.secret_of in case.orders
        why = why_no_twin(flow(played.log.events, twin.secret_of, acting),
                          flow(twin_played.log.events, twin.secret_of, acting), twin.private)
        return None if why else twin_played

    def compare(self, case: Exchange, played: Played, twin: Twin, twin_played: Played, where: str) -> None:
        """Everyone but the secret's owner is told the same of the case and its twin."""
        pair = self.kinds["pairs"]
        other = other_side(twin.secret_of)
        for audience in ("public", other):
            _same(told(played, audience), told(twin_played, audience), f"{where}, told to {audience}")
        if pair == 0 and self.seed in DRAWN:
            _same(drawn(played), drawn(twin_played), f"{where}, drawn for the public")
            self.kinds["drawn"] += 1
        where += f", answered to {other}"
        _same(answers(case, played, other, pair), answers(twin.exchange, twin_played, other, pair), where)
        if pair % FOLDER_EVERY == 0:
            broken = pair % (2 * FOLDER_EVERY) == 0
            folder = self.folders / str(pair)
            _same(folder_answers(folder / "case", case, played, other, pair, False),
                  folder_answers(folder / "twin", twin.exchange, twin_played, other, pair, broken), where)
            self.kinds["folder"] += 1
        self.kinds.update(["pairs", "early" if case.state["round"] <= 2 else "late", *twin.changes])
        self.kinds.update({e["type"] for e in played.log.events if e["type"] in KINDS})
        self.kinds["bids" if case.state["phase"] == "bid" else "acting" if twin.secret_of in case.orders
                   else "waiting"] += 1


@functools.lru_cache(maxsize=None)
def compared(seed: int, folders: Path) -> Counter:
    return Comparison(seed, folders).game()


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pairs")


@pytest.mark.parametrize("seed", GAMES)
def test_no_other_audience_can_tell_a_twin_from_its_case(seed: int, folders: Path) -> None:
    assert compared(seed, folders)["pairs"] >= PAIRS_PER_GAME


def test_the_twins_reach_every_kind_of_exchange_and_secret(folders: Path) -> None:
    kinds = sum((compared(seed, folders) for seed in GAMES), Counter())
    assert kinds["pairs"] >= 1000
    missing = [kind for kind in KINDS + tuple(change.__name__ for change in CHANGES) if not kinds[kind]]
    assert not missing, f"no twin of these kinds: {missing}; compared {dict(kinds)}"


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "undaunted-stalingrad"
PLAYERS = {"soviet": "marie", "german": "frantisek"}
START = datetime(2026, 11, 23, 10)


class MailPair:
    """The example game run by mail from a game turn of it, twice: as it is (the case) and with one
    side's secrets changed (the twin), each game with its own mailbox. What the other side's player
    receives from both must be the same mail for mail, but for its Date and the commitments."""

    def __init__(self, folder: Path, turns: int, certificates: Path, smtp: tuple[Server, Mailboxes],
                 secret_of: str) -> None:
        self.secret_of, self.other = secret_of, other_side(secret_of)
        self.smtp, self.boxes = smtp
        self.games = {name: _example_after(folder / name, turns) for name in ("case", "twin")}
        self.servers = {name: ImapServer(certificates) for name in self.games}
        self.sent = 0

    def close(self) -> None:
        for server in self.servers.values():
            server.stop()

    @property
    def twin(self) -> Path:
        return self.games["twin"]

    def mail(self, side: str, orders: dict[str, Any] | str, turn: int, only: str | None = None) -> None:
        """A player's orders mailed to the case's and the twin's mailbox (or to `only` one)."""
        text = orders if isinstance(orders, str) else dump_yaml(orders)
        self.sent += 1
        for name in [only] if only else self.games:
            _deliver(self.servers[name].server, _orders_mail(side, text, f"<{side}-{self.sent}@x>",
                                                             password=f"{PLAYERS[side]}-pw",
                                                             sender=f"{PLAYERS[side]}@example.org", turn=turn))

    def run(self) -> dict[str, list[Any]]:
        """One pass of the mail loop over each game: the mails the other side's player got, each as
        its parts. A turn the twin plays rolls the case's dice: they follow the decisions digest,
        which covers the secret standing orders, and only the same dice make the games comparable."""
        got = {}
        played = len(_ledger(self.games["case"]))
        for name, game in self.games.items():
            config = MailConfig(self.servers[name].server, self.smtp, max_message_bytes=2_000_000)
            ledger = _ledger(self.games["case"])
            dice = _events(self.games["case"], ledger[-1])[0]["orders_digest"] if len(ledger) > played else None
            with mock.patch("pbem.core.turn.orders_digest", lambda inputs: dice) if name == "twin" and dice \
                    else contextlib.nullcontext():
                run_pass(game, config, START, render_turn)
            got[name] = [_parts(mail, game) for mail in self.boxes.boxes.pop(f"{PLAYERS[self.other]}@example.org", [])]
            self.boxes.boxes.clear()
        return got


def _ledger(game: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (game / "ledger.jsonl").read_text().splitlines()]


def _events(game: Path, entry: dict[str, Any]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (game / entry["output"] / "events.jsonl").read_text().splitlines()]


def _example_after(folder: Path, turns: int) -> Path:
    """The example game after its first `turns` game turns, with a player for each side."""
    shutil.copytree(EXAMPLE, folder)
    ledger = (folder / "ledger.jsonl").read_text().splitlines(keepends=True)
    for line in ledger[turns:]:
        entry = json.loads(line)
        shutil.rmtree(folder / entry["output"])
        (folder / entry["turn_file"]).unlink()
    (folder / "ledger.jsonl").write_text("".join(ledger[:turns]))
    (folder / "players.yaml").write_text(dump_yaml({
        "moderator": {"name": "Mo", "address": MODERATOR},
        "players": [{"name": name.title(), "address": f"{name}@example.org", "roles": [side],
                     "password": f"sha256:{SALT}:{password_hash(SALT, f'{name}-pw')}"}
                    for side, name in PLAYERS.items()]}))
    return folder


def _parts(mail: Any, game: Path) -> dict[str, str | bytes]:
    """A mail as its headers but Date (a multipart's boundary left out, it is drawn at random), then
    each part's content by its place, type and file name, the last turn's commitments named."""
    events = _events(game, _ledger(game)[-1])
    headers = [f"{k}: {mail.get_content_type() if k == 'Content-Type' else v}" for k, v in mail.items() if k != "Date"]
    parts: dict[str, str | bytes] = {"headers": "\n".join(headers)}
    for number, part in enumerate(p for p in mail.walk() if not p.is_multipart()):
        content = part.get_content()
        parts[f"part {number}, {part.get_content_type()} {part.get_filename() or ''}"] = \
            normalised(content, events) if isinstance(content, str) else content
    return parts


def _change_hidden(game: Path, side: str, change: Callable[[dict[str, list[str]]], None]) -> None:
    """Change a side's zones in the game's latest state, and write its views again."""
    path = game / _ledger(game)[-1]["output"] / "state.yaml"
    state = load_document(path).data
    change(state["sides"][side])
    path.write_text(dump_yaml(state))
    for name, data in view_files(RULESET, state).items():
        (path.parent / name).write_bytes(data)


def _hand_to_bottom_and_discard_reversed(zones: dict[str, list[str]]) -> None:
    zones["hand"][0], zones["deck"][-1] = zones["deck"][-1], zones["hand"][0]
    zones["discard"].reverse()


def _same_mails(case: list[dict[str, Any]], twin: list[dict[str, Any]], what: str) -> None:
    assert len(case) == len(twin), f"{what}: {len(case)} mails in the case, {len(twin)} in the twin"
    for number, (one, other) in enumerate(zip(case, twin)):
        _same(one, other, f"{what}, mail {number}")


@pytest.fixture
def mail_pair(tmp_path: Path, certificates: Path, smtp_server):
    made = []

    def make(turns: int, secret_of: str) -> MailPair:
        made.append(MailPair(tmp_path, turns, certificates, smtp_server, secret_of))
        return made[-1]
    yield make
    for pair in made:
        pair.close()


def test_by_mail_the_soviets_cannot_tell_the_german_hand_deck_and_standing_orders(mail_pair) -> None:
    """Game turn 6, the Soviets' turn: the Germans lose a card from their discard pile. In the twin
    another card of their hand lies at the bottom of their deck, their discard pile lies the other
    way round, and their standing mine_push names tiles no mine of theirs uses."""
    pair = mail_pair(5, "german")
    _change_hidden(pair.twin, "german", _hand_to_bottom_and_discard_reversed)
    standing = pair.twin / STANDING / "german.yaml"
    standing.write_text(dump_yaml(load_document(standing).data | {"mine_push": ["101", "505"]}))
    pair.mail("soviet", (EXAMPLE / "orders" / "06-011-r2-soviet.yaml").read_text(), 6)
    got = pair.run()
    assert any("played" in mail["headers"] for mail in got["case"])
    _same_mails(got["case"], got["twin"], "game turn 6 by mail")


def test_by_mail_the_soviets_cannot_tell_the_german_bid_before_their_own(mail_pair) -> None:
    """Game turn 14, the bids of round 5: the Germans bid first, another card in the twin; the
    Soviets' answers to their own bids, a mistaken one and then theirs, are the same until both
    bids are in and the report shows both."""
    pair = mail_pair(13, "german")
    pair.mail("german", {"side": "german", "bid": "N-P-026"}, 14, only="case")
    pair.mail("german", {"side": "german", "bid": "N-P-024"}, 14, only="twin")
    got = pair.run()
    _same_mails(got["case"], got["twin"], "the Germans' bid")
    pair.mail("soviet", {"side": "soviet", "bid": "S-P-006"}, 14)
    got = pair.run()
    assert any("NOT valid" in str(part) for mail in got["case"] for part in mail.values())
    _same_mails(got["case"], got["twin"], "a mistaken Soviet bid")
    pair.mail("soviet", {"side": "soviet", "bid": "S-P-023"}, 14)
    got = pair.run()
    replies = {name: [mail for mail in mails if "Re:" in mail["headers"]] for name, mails in got.items()}
    assert replies["case"] and len(replies["case"]) < len(got["case"])
    _same_mails(replies["case"], replies["twin"], "the Soviet bid")
