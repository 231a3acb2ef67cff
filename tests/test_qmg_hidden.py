"""A Quartermaster General game folder end to end: secret hands dealt from the committed hidden
key, a private report per country, and `pbem verify` noticing any hand, deck order or report
changed afterwards, before and after the moderator reveals the key."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.hidden import state_commitment
from pbem.rulesets.qmg import Qmg
from pbem.rulesets.qmg.content import COUNTRIES

PACK = Qmg().pack


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def _write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A new game with its setup exchange and Germany's first turn adjudicated."""
    folder = tmp_path / "g"
    assert pbem("new", "qmg", folder).exit_code == 0
    start = yaml.safe_load((folder / "start" / "state.yaml").read_text())
    orders = {}
    for country in COUNTRIES:
        hand = start["countries"][country]["hand"]
        _write(folder / "orders" / f"setup-{country}.yaml",
               {"country": country, "setup_discard": [PACK.name(country, c) for c in hand[:3]]})
        orders[country] = f"../orders/setup-{country}.yaml"
    seed = pbem("seed", folder, 1).output.strip()
    _write(folder / "turns" / "00-setup.yaml", {"ruleset": "qmg", "state": "../start/state.yaml", "orders": orders,
                                                 "seed": seed, "output": "../00-setup"})
    result = pbem("adjudicate", folder / "turns" / "00-setup.yaml")
    assert result.exit_code == 0, result.output
    after = yaml.safe_load((folder / "00-setup" / "state.yaml").read_text())
    _write(folder / "orders" / "01-germany.yaml",
           {"country": "germany", "play": {"discard": PACK.name("germany", after["countries"]["germany"]["hand"][0])}})
    for country in COUNTRIES[1:]:
        _write(folder / "standing" / f"{country}.yaml", {"country": country})
    _write(folder / "turns" / "01-germany.yaml", {
        "ruleset": "qmg", "state": "../00-setup/state.yaml", "orders": "../orders/01-germany.yaml",
        "standing_orders": {c: f"../standing/{c}.yaml" for c in COUNTRIES[1:]},
        "seed": pbem("seed", folder, 2).output.strip(), "output": "../01-germany"})
    result = pbem("adjudicate", folder / "turns" / "01-germany.yaml")
    assert result.exit_code == 0, result.output
    return folder


def test_each_country_sees_its_own_hand_and_no_other(game: Path) -> None:
    state = yaml.safe_load((game / "01-germany" / "state.yaml").read_text())
    for country in COUNTRIES:
        text = (game / "01-germany" / f"report-{country}.md").read_text()
        hand = sorted(PACK.name(country, c) for c in state["countries"][country]["hand"])
        assert f"- Hand: {', '.join(hand)}" in text
        assert text.count("- Hand:") == 1
    public = (game / "01-germany" / "report.md").read_text()
    assert "- Hand:" not in public and "Your cards" not in public


def test_the_public_report_commits_to_the_whole_state(game: Path) -> None:
    secret = yaml.safe_load((game / "secret.yaml").read_text())["secret"]
    key = hmac.new(bytes.fromhex(secret), b"pbem-hidden/1", hashlib.sha256).hexdigest()
    state_bytes = (game / "01-germany" / "state.yaml").read_bytes()
    public = (game / "01-germany" / "report.md").read_text()
    assert state_commitment(key, 2, state_bytes) in public
    for name in ("report.md", "report.bbcode", "report.html", "events.jsonl"):
        text = (game / "01-germany" / name).read_text()
        assert key not in text and secret not in text


def test_verify_passes_and_notices_a_changed_hand(game: Path) -> None:
    assert pbem("verify", game, "--reports").exit_code == 0
    path = game / "00-setup" / "state.yaml"
    state = yaml.safe_load(path.read_text())
    hand, deck = state["countries"]["germany"]["hand"], state["countries"]["germany"]["deck"]
    hand[0], deck[0] = deck[0], hand[0]
    _write(path, state)
    result = pbem("verify", game)
    assert result.exit_code == 1
    assert "00-setup/state.yaml" in result.output and "does not match the re-played turn" in result.output


def test_verify_notices_a_changed_deal(game: Path) -> None:
    path = game / "start" / "state.yaml"
    text = path.read_text()
    first, second = re.findall(r"build_army-\d+", text)[:2]
    path.write_text(text.replace(first, "@").replace(second, first).replace("@", second))
    result = pbem("verify", game)
    assert result.exit_code == 1 and "start/state.yaml" in result.output


@pytest.mark.parametrize("report", ["report.md", "report-soviet_union.md", "report-italy.bbcode"])
def test_verify_notices_a_changed_report(game: Path, report: str) -> None:
    path = game / "01-germany" / report
    path.write_text(path.read_text().replace("Victory points", "Victory pointz"))
    result = pbem("verify", game, "--reports")
    assert result.exit_code == 1 and report in result.output


def test_after_the_reveal_anyone_can_verify_without_the_secret(game: Path) -> None:
    assert pbem("reveal", game).exit_code == 1  # the game is not over
    assert pbem("reveal", game, "--before-end").exit_code == 0
    (game / "secret.yaml").unlink()
    assert pbem("verify", game, "--reports").exit_code == 0
    (game / "reveal.yaml").write_text("hidden_key: " + "ab" * 32 + "\n")
    result = pbem("verify", game)
    assert result.exit_code == 1 and "does not hash to the hidden_commitment" in result.output
    (game / "reveal.yaml").unlink()
    result = pbem("verify", game)
    assert result.exit_code == 1 and "neither secret.yaml" in result.output


def test_a_turn_brings_exactly_the_awaited_orders(game: Path) -> None:
    turn = yaml.safe_load((game / "turns" / "00-setup.yaml").read_text())
    del turn["orders"]["italy"]
    turn["output"] = "../00-again"
    _write(game / "turns" / "again.yaml", turn)
    result = pbem("adjudicate", game / "turns" / "again.yaml")
    assert result.exit_code == 1
    assert "this turn awaits the orders of germany, united_kingdom, japan, soviet_union, italy, united_states" \
        in result.output
