"""The commands a Quartermaster General moderator and players use besides adjudicate and verify."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pbem.cli import app

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "qmg"
BEFORE_JAPAN = EXAMPLE / "38-r7-united_kingdom" / "state.yaml"


def pbem(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_validate_tells_orders_from_standing_orders() -> None:
    orders = pbem("validate", EXAMPLE / "orders" / "39-r7-japan.yaml", "--state", BEFORE_JAPAN)
    assert orders.exit_code == 0 and "the orders are valid; decisions digest" in orders.stderr
    standing = pbem("validate", EXAMPLE / "standing" / "soviet_union.yaml", "--state", BEFORE_JAPAN)
    assert standing.exit_code == 0 and "the standing orders are valid" in standing.stderr


def test_validate_names_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "orders.yaml"
    bad.write_text("country: japan\nplay: {card: Sea Battle, space: Bay of Bengol}\n"
                   "effects: [{card: Stalingrad}]\ndiscard: [Build Navy, Build Navy, Build Navy, Build Navy]\n")
    result = pbem("validate", bad, "--state", BEFORE_JAPAN)
    assert result.exit_code == 1
    assert "'Bay of Bengol' is not a space of the board (allowed: Bay of Bengal" in result.stderr
    assert "'Stalingrad' is not a card of japan's deck" in result.stderr
    assert "Build Navy is not in japan's hand as many times as named" in result.stderr


def test_validate_names_a_card_of_the_deck_that_is_not_in_hand(tmp_path: Path) -> None:
    # Surprise Attack is in Japan's deck but not in its hand: it used to stop pbem with a traceback
    bad = tmp_path / "orders.yaml"
    bad.write_text("country: japan\nreallocate: {discard: [Surprise Attack], take: Sea Battle}\n"
                   "play: {card: Surprise Attack, space: Hawaii}\n")
    result = pbem("validate", bad, "--state", BEFORE_JAPAN)
    assert result.exit_code == 1 and "Traceback" not in result.output
    hand = "Build Army, Build Navy, Build Navy, Build Navy, Land Battle, Land Battle, Sea Battle"
    assert f"orders.yaml:2: reallocate.discard[0]: Surprise Attack is not in japan's hand (allowed: {hand})" \
        in result.stderr
    # the card is played from the hand the reallocation leaves: its 4 discards taken as the turn takes them (none
    # named, so the last 4 cards of the hand) and the Sea Battle taken from the deck
    assert "orders.yaml:3: play.card[0]: Surprise Attack is not in japan's hand (allowed: Build Army, Build Navy, " \
        "Land Battle, Sea Battle)" in result.stderr


def test_the_schema_of_a_game_lists_its_names() -> None:
    schema = json.loads(pbem("schema", "orders", "--ruleset", "qmg").stdout)
    assert "Quartermaster General" in schema["title"]
    assert "Dive Bombers" in schema["$defs"]["card"]["enum"] and "Ukraine" in schema["$defs"]["space"]["enum"]
    standing = json.loads(pbem("schema", "standing-orders", "--ruleset", "qmg").stdout)
    assert "forced_discards" in standing["properties"]


def test_the_board_lists_spaces_and_straits() -> None:
    result = pbem("board", "North Africa", "--ruleset", "qmg")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["North Africa: land space, anchor of the strait between North Sea and "
                                          "Mediterranean", "  land: Middle East, Africa",
                                          "  sea: North Sea, Mediterranean"]
    assert "'Ukrain' is not a space of the board (allowed: Ukraine)" in pbem("board", "Ukrain", "--ruleset", "qmg").stderr


def test_content_check(tmp_path: Path) -> None:
    shipped = pbem("content", "qmg")
    assert shipped.exit_code == 0 and "note: cards: germany has 19 of its 41 printed cards" in shipped.stdout
    pack = Path(__file__).resolve().parents[1] / "pbem" / "rulesets" / "qmg" / "content"
    for name in ("board.yaml", "cards.yaml"):
        (tmp_path / name).write_text((pack / name).read_text().replace("near: Moscow", "near: Moskow"))
    broken = pbem("content", "qmg", "--pack", tmp_path)
    assert broken.exit_code == 1 and "card rasputitsa: 'Moskow' is not a space of the board" in broken.stderr
