"""Issue 24's property for Quartermaster General: what every audience is told depends only on what
it may know. Random games are stopped at each exchange; the exchange is played once as it is and
again with one country's secrets changed (tests/qmg_secrets.py), and every other audience, the
public and each other country, must be told the same bytes both times (tests/qmg_pairs.py)."""

from __future__ import annotations

import math
import random

import pytest
from qmg_pairs import AUDIENCES, account, first_difference, play
from qmg_play import play_game, random_options, rich_pack
from qmg_secrets import Secrets, secret_pair

from pbem.rulesets import get_ruleset
from pbem.rulesets.qmg.content import COUNTRIES

GAMES = 8
PAIRS_PER_GAME = 130  # GAMES of them make over a thousand pairs


@pytest.fixture(scope="module")
def rules():
    """The ruleset the core plays, with the pack of test cards while these tests run."""
    ruleset = get_ruleset("qmg")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ruleset, "pack", rich_pack())
        yield ruleset


def _how(seed: int, number: int) -> str:
    """How an exchange is played: mostly by the ruleset; one in thirty by the core with its files, and
    in half the games one with the reports and the board the core draws (both slow)."""
    if number == 20 + 3 * seed and seed % 2:
        return "drawn"
    return "core" if number % 30 == seed % 30 else "ruleset"


def _secret_keepers(exchange, count: int, rng: random.Random) -> list[str]:
    """The countries whose secrets change, `count` of them: sometimes first one whose orders the
    exchange awaits."""
    keepers = rng.sample(COUNTRIES, count)
    if rng.random() < 0.3 and not set(exchange.orders) & set(keepers):
        keepers[0] = rng.choice(list(exchange.orders))
    return keepers


@pytest.mark.parametrize("seed", range(GAMES))
def test_every_other_audience_is_told_the_same(rules, seed: int) -> None:
    rng = random.Random(seed)
    exchanges = [exchange for exchange, _, _ in play_game(rules, seed, random_options(rules, rng))]
    # pairs spread over every exchange, early and late, a quarter more than needed: a change may find nothing to
    # change, or change more than secrets
    per_exchange = min(len(COUNTRIES), math.ceil(1.25 * PAIRS_PER_GAME / len(exchanges)))
    pairs = 0
    for exchange in exchanges:
        how = _how(seed, exchange.number)
        first = play(rules, exchange, how)
        accounts = {}
        for country in _secret_keepers(exchange, per_exchange, rng):
            changed, changes = secret_pair(rules, Secrets(rules.pack, exchange, first.log.events, first.after,
                                                          country, rng))
            if not changes:
                continue
            second = play(rules, changed, how)
            pairs += 1
            for audience in AUDIENCES:
                if audience == country:
                    continue
                if audience not in accounts:
                    accounts[audience] = account(first, audience)
                difference = first_difference(accounts[audience], account(second, audience))
                if difference:
                    pytest.fail(f"game {seed}, exchange {exchange.number} ({how}): {audience} learns {country}'s "
                                f"secrets ({', '.join(changes)}): {difference}", pytrace=False)
    assert pairs >= PAIRS_PER_GAME, f"game {seed} made {pairs} pairs"
