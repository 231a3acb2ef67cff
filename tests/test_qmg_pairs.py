"""Issue 24's property for Quartermaster General: what every audience is told depends only on what
it may know. Random games are stopped at each exchange; the exchange is played once as it is and
again with one country's secrets changed (tests/qmg_secrets.py), and every other audience, the
public and each other country, must be told the same bytes both times (tests/qmg_pairs.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from qmg_folders import answered, broken, game_folder, new_folder, outputs, play_next, text
from qmg_mails import by_mail, orders_mails, players_file, shown, standing_mails
from qmg_pairs import AUDIENCES, account, first_difference, play
from qmg_play import Exchange, effect_cards, play_game, random_options, random_orders, random_standing, rich_pack
from qmg_secrets import Secrets, secret_pair
from test_mail import certificates, config, imap, imap_server, mailboxes, smtp_server  # noqa: F401 (fixtures)

from pbem.core.folder import START_STATE
from pbem.core.moderator import check, current
from pbem.core.yamlio import load_document, parse_document
from pbem.render import render_turn
from pbem.rulesets import get_ruleset
from pbem.rulesets.qmg.content import COUNTRIES, TEAMS

GAMES = 16
PAIRS_PER_GAME = 64  # GAMES of them make over a thousand pairs
CONSULTED_TRIES = 3  # pairs for each country whose secrets an exchange consulted as few do: the changes are random


@pytest.fixture(scope="module")
def rules():
    """The ruleset the core plays, with the pack of test cards while these tests run."""
    ruleset = get_ruleset("qmg")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ruleset, "pack", rich_pack())
        yield ruleset


def _how(seed: int, number: int) -> str:
    """How an exchange is played: mostly by the ruleset; one in fifty by the core with its files, and
    in a quarter of the games one with the reports and the board the core draws (both slow)."""
    if number == 20 + seed and seed % 4 == 1:
        return "drawn"
    return "core" if number % 50 == seed % 50 else "ruleset"


def _secret_keepers(exchange, count: int, rng: random.Random) -> list[tuple[str, list[str] | None]]:
    """The countries whose secrets change, `count` of them, each with the changes to try (None: some
    at random): more often those with face-down Responses, whose secrets the others' turns consult,
    and half the time first one whose orders the exchange awaits."""
    weights = [1 + 2 * bool(exchange.state["countries"][c]["responses"]) for c in COUNTRIES]
    keepers: list[str] = []
    while len(keepers) < count:
        keepers += [c for c in rng.choices(COUNTRIES, weights) if c not in keepers]
    if keepers and rng.random() < 0.5 and not set(exchange.orders) & set(keepers):
        keepers[0] = rng.choice(list(exchange.orders))
    return [(country, None) for country in keepers]


def _consulted(exchange, events: list[dict]) -> list[tuple[str, list[str] | None]]:
    """Countries whose secrets the exchange consulted in a way few exchanges do, each with the
    changes that reach those secrets: after a recruit, the other team's face-down Responses and
    standing orders (a card's condition met, or not, by a recruit); when a country's orders count
    on cards only it knows (it reallocates, or uses a Status instead of a card), its face-down pile
    and hand."""
    consulted = [(country, ["face-down response", "dropped entry", "idle entries"]) for e in events
                 if e["type"] == "recruited" for country in COUNTRIES
                 if TEAMS[country] != TEAMS[e["country"]] and exchange.state["countries"][country]["responses"]]
    consulted += [(country, ["face-down kind", "face-down discard", "hand card"]) for country, orders
                  in exchange.orders.items() if "reallocate" in orders or "instead" in orders.get("play", {})]
    return consulted * CONSULTED_TRIES


def _pairs(rules, seed: int, exchange, count: int, rng: random.Random) -> int:
    """Play `exchange` as it is and again with the secrets of `count` countries, and of those it
    consulted, changed; fail where an audience other than that country is told anything else. The
    pairs made."""
    how = _how(seed, exchange.number)
    first = play(rules, exchange, how)
    accounts: dict[str, dict] = {}
    made = 0
    for country, names in _secret_keepers(exchange, count, rng) + _consulted(exchange, first.log.events):
        sec = Secrets(rules.pack, exchange, first.log.events, first.after, country, rng)
        changed, changes = secret_pair(rules, sec, names)
        if not changes:
            continue
        second = play(rules, changed, how)
        made += 1
        for audience in AUDIENCES:
            if audience == country:
                continue
            if audience not in accounts:
                accounts[audience] = account(first, audience)
            difference = first_difference(accounts[audience], account(second, audience))
            if difference:
                pytest.fail(f"game {seed}, exchange {exchange.number} ({how}): {audience} learns {country}'s "
                            f"secrets ({', '.join(changes)}): {difference}", pytrace=False)
    return made


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_other_audience_is_told_the_same(rules, seed: int) -> None:
    rng = random.Random(seed)
    exchanges = [exchange for exchange, _, _ in play_game(rules, seed, random_options(rules, rng))]
    rate = 1.1 * PAIRS_PER_GAME / len(exchanges)  # pairs spread over every exchange, early and late
    pairs = sum(_pairs(rules, seed, exchange, min(len(COUNTRIES), int(rate) + (rng.random() < rate % 1)), rng)
                for exchange in exchanges)
    for _ in range(3 * PAIRS_PER_GAME):  # more where changes found nothing to change, or changed more than secrets
        if pairs >= PAIRS_PER_GAME:
            break
        pairs += _pairs(rules, seed, rng.choice(exchanges), 1, rng)
    assert pairs >= PAIRS_PER_GAME, f"game {seed} made {pairs} pairs"


@pytest.fixture(scope="module")
def new_game_folder(rules, tmp_path_factory) -> Path:
    return new_folder(tmp_path_factory.mktemp("qmg") / "game")


def _changed(rules, exchange, country: str, rng: random.Random):
    """The exchange with `country`'s secrets changed, and the changes; None where none kept."""
    first = play(rules, exchange)
    changed, changes = secret_pair(rules, Secrets(rules.pack, exchange, first.log.events, first.after, country, rng))
    return (changed, changes) if changes else None


FOLDER_GAMES = 3
FOLDER_PAIRS = 4


@pytest.mark.parametrize("seed", range(100, 100 + FOLDER_GAMES))
def test_game_folders_tell_every_other_role_the_same(rules, new_game_folder: Path, tmp_path: Path, seed: int) -> None:
    """Pairs of game folders: the answers of `pbem receive` (and `pbem validate` on the whole state),
    `pbem status`, the check of standing orders, and the turn `pbem next` plays. The country's
    standing orders on file are sometimes not valid: never in force, never quoted to another."""
    rng = random.Random(seed)
    exchanges = [exchange for exchange, _, _ in play_game(rules, seed, random_options(rules, rng))]
    render = render_turn if seed == 100 else None  # one turn's reports and board drawn: it is slow
    for number, exchange in enumerate(rng.sample(exchanges, FOLDER_PAIRS)):
        country, _ = _secret_keepers(exchange, 1, rng)[0]
        pair = _changed(rules, exchange, country, rng)
        if pair is None:
            continue
        changed, changes = pair
        standing = [{c: text(s) for c, s in side.standing.items()} for side in (exchange, changed)]
        if country in changed.standing and rng.random() < 0.5:
            standing[1][country] = broken(changed.standing[country], rng)
            changes.append("standing orders not valid")
        sides = list(zip((exchange, changed), (tmp_path / f"{number}a", tmp_path / f"{number}b"), standing))
        folders = [game_folder(new_game_folder, folder, side.state, on_file) for side, folder, on_file in sides]
        others = [audience for audience in AUDIENCES if audience != country]
        told = [{audience: answered(folder, side, audience) if audience != "public" else {} for audience in others}
                for folder, (side, _, _) in zip(folders, sides)]
        if "standing orders not valid" not in changes:
            outs = [play_next(folder, side.orders, render) for folder, (side, _, _) in zip(folders, sides)]
            render = None
            for account, out in zip(told, outs):
                for audience in others:
                    account[audience] |= outputs(out, audience)
        for audience in others:
            difference = first_difference(told[0][audience], told[1][audience])
            if difference:
                pytest.fail(f"game {seed}, exchange {exchange.number} in a game folder: {audience} learns "
                            f"{country}'s secrets ({', '.join(changes)}): {difference}", pytrace=False)


def _orders_for_both(rules, folders: list[Path], turn: int) -> dict[str, dict]:
    """Orders for the next turn that the awaited countries may send in both games: drawn from the
    first game's position, valid in both (a country whose secrets differ holds other cards)."""
    positions = [current(folder) for folder in folders]
    for attempt in range(100):
        rng = random.Random(f"{turn} {attempt}")
        orders = {c: random_orders(rules.pack, positions[0].state, c, rng) for c in positions[0].awaited}
        if not any(check(p, c, parse_document(text(o), "orders.yaml")) for p in positions for c, o in orders.items()):
            return orders
    raise AssertionError(f"no orders for game turn {turn} fit both games")


@pytest.mark.parametrize("country", ["soviet_union", "germany"])
def test_every_other_player_gets_the_same_mails(rules, new_game_folder: Path, tmp_path: Path, config, mailboxes,
                                                country: str) -> None:
    """Two games run by mail through their setup and the first turn, Germany's, the second game's
    country with another card in hand, its deck in another order, other setup discards and standing
    orders that never fire; every mail each other player gets, answers and reports, is the same in
    both."""
    rng = random.Random(country)
    start = load_document(new_game_folder / START_STATE).data
    setup = Exchange(1, start, {c: random_orders(rules.pack, start, c, rng) for c in COUNTRIES}, {})
    first = play(rules, setup)
    changed, changes = secret_pair(rules, Secrets(rules.pack, setup, first.log.events, first.after, country, rng),
                                   ["hand card", "deck order", "own choices"])
    assert "hand card" in changes
    other = COUNTRIES[COUNTRIES.index(country) - 1]  # whose answer to its standing orders is compared too
    standing = {c: random_standing(rules.pack, start, c, rng) for c in (country, other)}
    idle = {"card": effect_cards(rules.pack, country)[0], "space": ["Moscow"]}  # no card on its table yet
    folders = [game_folder(new_game_folder, tmp_path / side, state, {})
               for side, state in (("a", setup.state), ("b", changed.state))]
    mails = [standing_mails(standing) + orders_mails(setup.orders, 1),
             standing_mails(standing | {country: {**standing[country], "effects": [idle]}}) +
             orders_mails(changed.orders, 1)]
    got: list[dict[str, list]] = [{c: [] for c in COUNTRIES}, {c: [] for c in COUNTRIES}]

    def mail_pass(at: str, sent: list[list]) -> None:
        for side, folder in enumerate(folders):
            for player, received in by_mail(folder, config, mailboxes, at, sent[side]).items():
                got[side][player] += received

    for folder in folders:
        players_file(folder)
    mail_pass("2026-11-23T10:00", [[], []])  # the game is announced
    mail_pass("2026-11-23T11:00", mails)  # standing orders, and the setup played
    mail_pass("2026-11-23T12:00", [orders_mails(_orders_for_both(rules, folders, 2), 2)] * 2)  # Germany's turn
    assert [len(list(f.glob("*/events.jsonl"))) for f in folders] == [2, 2], "the setup and a turn played in each game"
    for player in COUNTRIES:
        if player == country:
            continue
        told = [{str(n): shown(mail, folder) for n, mail in enumerate(got[side][player])}
                for side, folder in enumerate(folders)]
        difference = first_difference(*told)
        if difference:
            pytest.fail(f"{player} learns {country}'s secrets by mail ({', '.join(changes)}): mail {difference}",
                        pytrace=False)
