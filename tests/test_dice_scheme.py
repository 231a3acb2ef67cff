"""Dice scheme 2 (issue 8): the dice follow the players' decisions and nothing the moderator can
vary; players may share in the randomness; `verify` proves the whole chain and notices what is
missing or does not belong.

Each test builds a fresh scheme-2 game with `pbem new` and plays the USSR's opening orders of the
bundled example in it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.dice import DiceStream, shared_key
from pbem.core.turn import decisions_digest
from pbem.core.yamlio import dump_yaml, load_document, parse_document

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "aa-revised"


def pbem(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def new_game(folder: Path, *extra: object) -> Path:
    result = pbem("new", "aa-revised", folder, "--game", "Scheme two", *extra)
    assert result.exit_code == 0, result.stderr
    shutil.copytree(EXAMPLE / "orders", folder / "orders")
    shutil.copytree(EXAMPLE / "standing", folder / "standing", dirs_exist_ok=True)
    return folder


def write_turn(game: Path, name: str = "01-ussr", standing: tuple[str, ...] = ("germany", "uk", "japan", "usa"),
               **extra: object) -> Path:
    seed = pbem("seed", game, 1).stdout.strip()
    turn = {"ruleset": "aa-revised", "state": "../start/state.yaml", "orders": "../orders/01-ussr.yaml",
            "standing_orders": {p: f"../standing/{p}.yaml" for p in standing}, "seed": seed,
            "output": f"../{name}", **extra}
    path = game / "turns" / f"{name}.yaml"
    path.write_text(dump_yaml(turn), encoding="utf-8")
    return path


def dice_events(folder: Path) -> list[dict]:
    """The events that carry dice, i.e. everything the dice decided."""
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    return [e for e in events if e["type"] != "turn_start"]


def digest_of(orders_text: str, standing: dict[str, str]) -> str:
    state = load_document(EXAMPLE / "start" / "state.yaml").data
    state["dice"] = {"scheme": 2, **state["dice"]}
    return decisions_digest(state, {"ussr": parse_document(orders_text, "orders.yaml")},
                            {p: parse_document(text, f"{p}.yaml") for p, text in standing.items()})


ORDERS = (EXAMPLE / "orders" / "01-ussr.yaml").read_text(encoding="utf-8")
STANDING = {p: (EXAMPLE / "standing" / f"{p}.yaml").read_text(encoding="utf-8")
            for p in ("germany", "uk", "japan", "usa")}


def test_notes_spelling_and_layout_do_not_change_the_digest():
    base = digest_of(ORDERS, STANDING)
    assert "infantry" in ORDERS
    respelt = ORDERS.replace("infantry:", "inf:").replace("note: ", "note: a different note, ")
    assert respelt != ORDERS and digest_of(respelt, STANDING) == base
    flowed = "# a comment\n" + ORDERS.replace("\n", "  \n")  # trailing spaces everywhere
    assert digest_of(flowed, STANDING) == base


def test_a_space_override_that_sets_nothing_does_not_change_the_digest():
    base = digest_of(ORDERS, STANDING)
    emptied = {**STANDING, "germany": STANDING["germany"] + "spaces: {Karelia: {}, Egypt: {}}\n"}
    assert digest_of(ORDERS, emptied) == base
    overriding = {**STANDING, "germany": STANDING["germany"] + "spaces: {Karelia: {submerge: never}}\n"}
    assert digest_of(ORDERS, overriding) != base


def test_a_decision_changes_the_digest():
    base = digest_of(ORDERS, STANDING)
    changed = {**STANDING, "germany": STANDING["germany"].replace("infantry", "tank", 1)}
    assert changed != STANDING and digest_of(ORDERS, changed) != base


def test_leaving_out_default_standing_orders_changes_nothing_but_leaving_out_real_ones_does():
    defaults = {**STANDING, "usa": "power: usa\nnote: nothing to say\n"}
    without = {p: t for p, t in STANDING.items() if p != "usa"}
    assert digest_of(ORDERS, defaults) == digest_of(ORDERS, without)
    assert digest_of(ORDERS, STANDING) != digest_of(ORDERS, without)


def test_the_moderator_cannot_reroll_by_choosing_which_files_to_list(tmp_path):
    game = new_game(tmp_path / "g")
    (game / "standing" / "usa.yaml").write_text("power: usa\n", encoding="utf-8")
    assert pbem("adjudicate", write_turn(game, "01-ussr")).exit_code == 0
    first = dice_events(game / "01-ussr")
    shutil.rmtree(game / "01-ussr")
    (game / "ledger.jsonl").unlink()
    (game / "standing" / "usa.yaml").write_text("power: usa\nnote: the defaults, in other words\n", encoding="utf-8")
    assert pbem("adjudicate", write_turn(game, "01-ussr")).exit_code == 0
    assert dice_events(game / "01-ussr") == first
    start = json.loads((game / "01-ussr" / "events.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert start["dice_scheme"] == 2
    usa = hashlib.sha256((game / "standing" / "usa.yaml").read_bytes()).hexdigest()
    assert {"kind": "standing_orders", "power": "usa", "file": "../standing/usa.yaml", "sha256": usa} in start["inputs"]
    orders = next(i for i in start["inputs"] if i["kind"] == "orders")
    assert orders["sha256"] == hashlib.sha256((game / "orders" / "01-ussr.yaml").read_bytes()).hexdigest()

    shutil.rmtree(game / "01-ussr")
    (game / "ledger.jsonl").unlink()
    left_out = pbem("adjudicate", write_turn(game, "01-ussr", standing=("germany", "uk", "japan")))
    assert left_out.exit_code == 1 and "standing_orders: no standing orders named for usa" in left_out.stderr
    assert not (game / "01-ussr").exists()


def test_shared_randomness_needs_every_players_value_and_verifies(tmp_path):
    alice = pbem("secret", tmp_path / "alice.yaml")
    bob = pbem("secret", tmp_path / "bob.yaml")
    assert alice.exit_code == 0 and bob.exit_code == 0
    assert pbem("secret", tmp_path / "alice.yaml").exit_code != 0  # never overwritten
    game = new_game(tmp_path / "g", "--player", f"alice={alice.stdout.strip()}",
                    "--player", f"bob={bob.stdout.strip()}")
    alice_value = pbem("seed", tmp_path / "alice.yaml", 1).stdout.strip()
    bob_value = pbem("seed", tmp_path / "bob.yaml", 1).stdout.strip()

    missing = pbem("adjudicate", write_turn(game, contributions={"alice": alice_value}))
    assert missing.exit_code == 1 and "no value from 'bob'" in missing.stderr
    wrong = pbem("adjudicate", write_turn(game, contributions={"alice": alice_value, "bob": alice_value}))
    assert wrong.exit_code == 1 and "does not hash to bob's commitment" in wrong.stderr
    assert not (game / "01-ussr").exists()

    done = pbem("adjudicate", write_turn(game, contributions={"alice": alice_value, "bob": bob_value}))
    assert done.exit_code == 0, done.stderr
    state = load_document(game / "01-ussr" / "state.yaml").data
    assert state["dice"]["players"] == {"alice": alice_value, "bob": bob_value}
    verify = pbem("verify", game)
    assert verify.exit_code == 0, verify.stderr


def test_shared_key_mixes_every_value():
    seed, a, b = "11" * 32, "22" * 32, "33" * 32
    keys = {shared_key(seed, {}), shared_key(seed, {"a": a}), shared_key(seed, {"a": a, "b": b}),
            shared_key(seed, {"a": b, "b": a})}
    assert len(keys) == 4
    assert DiceStream(shared_key(seed, {"a": a}), "x").roll(20) != DiceStream(shared_key(seed, {"a": b}), "x").roll(20)


@pytest.fixture
def played(tmp_path):
    game = new_game(tmp_path / "g")
    assert pbem("adjudicate", write_turn(game)).exit_code == 0
    return game


def test_verify_notices_a_last_turn_removed_with_all_its_files(played):
    assert pbem("verify", played).exit_code == 0
    (played / "turns" / "01-ussr.yaml").unlink()
    shutil.rmtree(played / "01-ussr")
    result = pbem("verify", played)
    assert result.exit_code == 1
    assert "ledger.jsonl:1" in result.stderr and "game turn 1 (ussr) was adjudicated but is not in the game folder" in result.stderr


def test_verify_notices_an_orphan_output_folder(played):
    (played / "turns" / "01-ussr.yaml").unlink()
    result = pbem("verify", played)
    assert result.exit_code == 1 and "an output folder that no turn of the game wrote" in result.stderr


def test_verify_notices_a_stray_file_in_an_output_folder(played):
    (played / "01-ussr" / "extra.txt").write_text("x", encoding="utf-8")
    result = pbem("verify", played)
    assert result.exit_code == 1 and "01-ussr/extra.txt" in result.stderr and "did not write" in result.stderr


def test_verify_proves_facts_without_drawing(played):
    """verify neither draws nor compares drawings, so any matplotlib the dependencies allow verifies."""
    code = ("import sys; from pbem.cli import app; "
            "sys.argv = ['pbem', 'verify', sys.argv[1]]\n"
            "try:\n    app()\nexcept SystemExit as e:\n    assert e.code in (0, None), e.code\n"
            "assert 'matplotlib' not in sys.modules, 'verify imported matplotlib'")
    # run outside the repository, whose pbem/ would stand in for the installed one
    done = subprocess.run([sys.executable, "-c", code, str(played)], capture_output=True, text=True, cwd=played)
    assert done.returncode == 0, done.stderr
    (played / "01-ussr" / "map.png").write_bytes(b"another drawing")
    assert pbem("verify", played).exit_code == 0
    (played / "01-ussr" / "report.md").write_text("edited\n", encoding="utf-8")
    assert pbem("verify", played).exit_code == 0
    reports = pbem("verify", played, "--reports")
    assert reports.exit_code == 1 and "report.md line 1 differs" in reports.stderr


@pytest.mark.parametrize("breaks, phrase", [
    (lambda g: shutil.rmtree(g / "01-ussr"), "missing: the turn's output folder was not recorded"),
    (lambda g: shutil.rmtree(g / "turns"), "an output folder that no turn of the game wrote"),
    (lambda g: (g / "ledger.jsonl").write_text(
        (g / "ledger.jsonl").read_text(encoding="utf-8").replace('{"turn"', '{"extra":1,"turn"'), encoding="utf-8"),
     "the entry holds fields pbem does not write"),
    (lambda g: (g / "ledger.jsonl").unlink(), "ledger.jsonl: (document): missing"),
    (lambda g: ((g / "ledger.jsonl").unlink(), os.mkfifo(g / "ledger.jsonl")), "not a regular file but a FIFO"),
    (lambda g: (g / "ledger.jsonl").write_text("[" * 100_000 + "\n", encoding="utf-8"), "not valid JSON"),
])
def test_verify_says_what_is_wrong_with_a_cut_or_edited_folder(played, breaks, phrase):
    breaks(played)
    result = pbem("verify", played)
    assert result.exit_code == 1 and phrase in result.stderr, result.stderr


def test_a_turn_file_outside_the_game_cannot_write_into_it(played, tmp_path):
    """Found from where the turn file lies, the game's checks would not apply to a turn file kept
    elsewhere, so the files of a game may only be named from a turn file inside it."""
    turn = (played / "turns" / "01-ussr.yaml").read_text(encoding="utf-8")
    outside = tmp_path / "elsewhere" / "turn.yaml"
    outside.parent.mkdir()
    outside.write_text(turn.replace("../", "../g/").replace("output: ../g/01-ussr", "output: ../g/start"),
                       encoding="utf-8")
    before = (played / "start" / "state.yaml").read_bytes()
    result = pbem("adjudicate", outside, "--force")
    assert result.exit_code == 1 and "lies in the game folder" in result.stderr, result.stderr
    assert (played / "start" / "state.yaml").read_bytes() == before


def test_a_broken_ledger_stops_a_turn_before_anything_is_written(played):
    (played / "ledger.jsonl").write_text("not a ledger\n", encoding="utf-8")
    before = {p: p.read_bytes() for p in (played / "01-ussr").iterdir()}
    result = pbem("adjudicate", played / "turns" / "01-ussr.yaml", "--force")
    assert result.exit_code == 1 and "nothing was written" in result.stderr and "ledger.jsonl:1" in result.stderr
    assert {p: p.read_bytes() for p in (played / "01-ussr").iterdir()} == before
