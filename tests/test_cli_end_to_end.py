"""The `pbem` command line end to end, on copies of the example game (issues 2 and 3).

Every test works in a copy under a temporary folder; nothing is ever written into examples/. Only
the example's first turn (the USSR's) is used, so later turns added to examples/ change nothing here.
Adjudicating draws the map (a second or two), so the tests that only read an adjudicated game share
one module-scoped copy.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core.dice import commitment
from pbem.core.yamlio import dump_yaml

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "aa-revised"
OUTPUTS = ("state.yaml", "report.md", "report.html", "report.bbcode", "events.jsonl", "map.png", "map-forum.png",
           "charts.png")
TURN = Path("turns") / "01-ussr.yaml"
ORDERS = Path("orders") / "01-ussr.yaml"


# ---------------------------------------------------------------------------------------------
# helpers

def copy_game(dest: Path) -> Path:
    """The example game folder without any recorded outputs and with only the USSR's turn."""
    dest.mkdir(parents=True)
    for name in ("game.yaml", "secret.yaml"):
        shutil.copy2(EXAMPLE / name, dest / name)
    shutil.copytree(EXAMPLE / "start", dest / "start")
    shutil.copytree(EXAMPLE / "standing", dest / "standing")
    (dest / "orders").mkdir()
    shutil.copy2(EXAMPLE / ORDERS, dest / ORDERS)
    (dest / "turns").mkdir()
    shutil.copy2(EXAMPLE / TURN, dest / TURN)
    return dest


def output_of(game: Path) -> Path:
    """The output folder the USSR turn file names."""
    turn = yaml.safe_load((game / TURN).read_text(encoding="utf-8"))
    return (game / TURN).parent / turn["output"]


def pbem(*args: object):
    """Run the CLI in-process; stderr is kept apart from stdout."""
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (hidden ones included) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def tree(folder: Path) -> list[str]:
    """Every file and folder under `folder`, hidden ones included."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def line_of(path: Path, prefix: str) -> int:
    """The 1-based number of the first line of `path` that starts with `prefix`."""
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text.startswith(prefix):
            return number
    raise AssertionError(f"no line starting with {prefix!r} in {path}")


def problem_lines(stderr: str) -> list[str]:
    """The problem lines of an error message (each indented under the `error:` header)."""
    return [line.strip() for line in stderr.splitlines() if line.startswith("  ")]


def assert_problem(stderr: str, where: str, field: str, *phrases: str) -> str:
    """One problem line names `where` (``file:line``), the field and contains every phrase."""
    head = f"{where}: {field}: "
    hits = [line for line in problem_lines(stderr) if line.startswith(head)]
    assert hits, f"no problem at {head!r} in:\n{stderr}"
    for line in hits:
        if all(phrase in line for phrase in phrases):
            return line
    raise AssertionError(f"no problem at {head!r} saying {phrases!r} in:\n{stderr}")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG file"
    return struct.unpack(">II", data[16:24])


# ---------------------------------------------------------------------------------------------
# one adjudicated copy shared by the tests that only read it

@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A copy of the example game with the USSR's turn adjudicated through the CLI."""
    game = copy_game(tmp_path_factory.mktemp("played") / "game")
    result = pbem("adjudicate", game / TURN)
    assert result.exit_code == 0, result.stderr
    return game


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """A fresh, unplayed copy; the working folder is its parent so messages show `game/...`."""
    monkeypatch.chdir(tmp_path)
    return copy_game(tmp_path / "game")


@pytest.fixture
def played_copy(played, tmp_path, monkeypatch) -> Path:
    """A private copy of the adjudicated game, to alter."""
    monkeypatch.chdir(tmp_path)
    return Path(shutil.copytree(played, tmp_path / "game"))


# ---------------------------------------------------------------------------------------------
# adjudicate

def test_adjudicate_writes_every_output(played):
    out = output_of(played)
    assert sorted(p.name for p in out.iterdir()) == sorted(OUTPUTS)
    assert all((out / name).stat().st_size > 0 for name in OUTPUTS)
    state = yaml.safe_load((out / "state.yaml").read_text(encoding="utf-8"))
    assert state["next_power"] == "germany"
    seed = yaml.safe_load((played / TURN).read_text())["seed"]
    assert state["dice"] == {"scheme": 2, "commitment": seed, "turn": 2}
    events = [json.loads(line) for line in (out / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    assert events[0]["type"] == "turn_start" and events[-1]["type"] == "turn_end"
    assert any(e["type"] == "roll" for e in events)
    assert png_size((out / "map.png").read_bytes())[0] >= 1500
    assert (out / "report.md").read_text(encoding="utf-8").startswith("# ")
    # the outputs are readable by others, like any file the moderator writes (not mkdtemp's 0700)
    assert out.stat().st_mode & 0o077 == (0o777 & ~_umask()) & 0o077
    # nothing else was left beside the outputs: no staging folder
    assert [p.name for p in out.parent.iterdir() if p.name.startswith(".")] == []


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_adjudicate_twice_gives_identical_bytes(played, tmp_path, monkeypatch):
    # a second copy elsewhere, run from another working folder
    monkeypatch.chdir(tmp_path)
    again = copy_game(tmp_path / "elsewhere")
    result = pbem("adjudicate", again / TURN)
    assert result.exit_code == 0, result.stderr
    first = snapshot(output_of(played))
    assert snapshot(output_of(again)) == first
    # and once more over it with --force
    result = pbem("adjudicate", again / TURN, "--force")
    assert result.exit_code == 0, result.stderr
    assert snapshot(output_of(again)) == first
    assert sorted(first) == sorted(OUTPUTS)


def test_adjudicate_refuses_to_overwrite_without_force(played_copy):
    out = output_of(played_copy)
    (out / "report.md").write_text("edited by hand\n", encoding="utf-8")
    before = snapshot(played_copy)
    result = pbem("adjudicate", played_copy / TURN)
    assert result.exit_code != 0
    line = line_of(played_copy / TURN, "output:")
    assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line}", "output", "already holds",
                   "report.md", "--force")
    assert "nothing was written" in result.stderr
    assert snapshot(played_copy) == before


def test_adjudicate_refuses_the_folder_of_the_input_state(game):
    turn = game / TURN
    turn.write_text(re.sub(r"(?m)^output: .*$", "output: ../start", turn.read_text(encoding="utf-8")),
                    encoding="utf-8")
    before = snapshot(game)
    for extra in ([], ["--force"]):
        result = pbem("adjudicate", turn, *extra)
        assert result.exit_code != 0
        assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line_of(turn, 'output:')}", "output",
                       "holds the input state")
        assert snapshot(game) == before


# ---------------------------------------------------------------------------------------------
# bad input: every case exits non-zero, names file, line and field, and leaves nothing behind

# Small orders files for the USSR's opening turn (start/state.yaml): Karelia S.S.R. has 3 infantry
# and a fighter, Russia 3 infantry, 1 artillery, 2 tanks, a fighter and a complex (worth 8),
# Caucasus a complex worth 4, Novosibirsk and Kazakh S.S.R. 2 infantry each; the USSR has 24 IPCs.
BAD_ORDERS = {
    "invalid_yaml": (
        "power: ussr\npurchase: {infantry: 8]\nplace: []\n",
        [(2, "(document)", ["not valid YAML", "expected ',' or '}'"])]),
    "schema_violation": (
        "power: ussr\npurchase: {infantry: eight}\ncombat_moves: []\n",
        [(2, "purchase.infantry", ["expected a whole number; got `eight`"]),
         (3, "combat_moves", ["unknown field 'combat_moves'", "did you mean 'combat_move'?",
                              "(allowed: ", "combat_move, ", "noncombat_move"])]),
    "unknown_unit_type": (
        "power: ussr\npurchase: {infantery: 3}\nplace:\n  - at: Russia\n    units: {infantry: 3}\n",
        [(2, "purchase.infantery", ["unknown unit type 'infantery'", "did you mean 'infantry'",
                                    "(allowed: infantry, artillery, tank"])]),
    "unknown_territory": (
        "power: ussr\ncombat_move:\n  - units: {infantry: 3}\n    from: Karelia S.S.R.\n"
        "    path: [West Rusia]\n",
        [(5, "combat_move[0].path[0]", ["unknown space 'West Rusia'", "did you mean 'West Russia'"])]),
    "move_too_far": (
        "power: ussr\nnoncombat_move:\n  - units: {infantry: 2}\n    from: Novosibirsk\n"
        "    path: [Russia, Archangel]\n",
        [(5, "noncombat_move[0].path", ["an infantry moves 1 space, this path has 2",
                                        "(allowed: 1 or fewer)"])]),
    "move_through_neutral": (
        "power: ussr\ncombat_move:\n  - units: {fighter: 1}\n    from: Russia\n"
        "    path: [Caucasus, Turkey, Balkans]\n",
        [(5, "combat_move[0].path[1]", ["Turkey is neutral", "may enter, attack or fly over"])]),
    "fighter_cannot_land": (
        "power: ussr\ncombat_move:\n  - units: {fighter: 1}\n    from: Karelia S.S.R.\n"
        "    path: [Belorussia, Ukraine S.S.R., Balkans]\n",
        [(5, "combat_move[0].path", ["no landing place within reach", "cannot get to a territory"])]),
    "purchase_over_treasury": (
        "power: ussr\npurchase: {tank: 5}\nplace:\n  - at: Russia\n    units: {tank: 5}\n",
        [(2, "purchase", ["the units cost 25 IPCs; USSR has 24", "(allowed: 24 IPCs or less)"])]),
    "place_without_factory": (
        "power: ussr\npurchase: {infantry: 2}\nplace:\n  - at: Karelia S.S.R.\n    units: {infantry: 2}\n",
        [(4, "place[0].at", ["cannot mobilize in Karelia S.S.R.", "no complex",
                             "(allowed: Caucasus, Russia)"])]),
    "place_over_factory_limit": (
        "power: ussr\npurchase: {infantry: 7}\nplace:\n  - at: Caucasus\n    units: {infantry: 7}\n",
        [(5, "place[0].units", ["the complex in Caucasus may mobilize 4 units", "7 more asked",
                                "(allowed: 4 or fewer)"])]),
}


def assert_nothing_written(game: Path, before: dict[str, bytes], result) -> None:
    assert result.exit_code != 0
    assert result.stderr.startswith("error: ") and "nothing was written" in result.stderr
    assert not output_of(game).exists(), "an output folder was created"
    assert snapshot(game) == before, "an input changed or a file (temporary or not) was left behind"
    assert sorted(p.name for p in game.parent.iterdir()) == ["game"]


@pytest.mark.parametrize("case", sorted(BAD_ORDERS))
def test_bad_orders_are_refused_with_file_line_and_field(game, case):
    text, expected = BAD_ORDERS[case]
    (game / ORDERS).write_text(text, encoding="utf-8")
    before = snapshot(game)
    result = pbem("adjudicate", game / TURN)
    assert_nothing_written(game, before, result)
    for line, field, phrases in expected:
        assert_problem(result.stderr, f"game/orders/01-ussr.yaml:{line}", field, *phrases)


def test_over_full_transport_is_refused(played_copy):
    # Germany's turn after the USSR's: its transport in SZ 14 takes 1 land unit and 1 more infantry
    game = played_copy
    seed = pbem("seed", game, 2)
    assert seed.exit_code == 0, seed.stderr
    (game / "orders" / "02-germany.yaml").write_text(
        "power: germany\n"
        "combat_move:\n"
        "  - units: {battleship: 1, transport: 1}\n"
        "    from: SZ 14\n"
        "    load:\n"
        "      - {units: {infantry: 2, tank: 1}, from: Southern Europe}\n"
        "    path: [SZ 15]\n"
        "    unload: Anglo-Egypt\n", encoding="utf-8")
    turn = game / "turns" / "02-germany.yaml"
    turn.write_text(f"ruleset: aa-revised\nstate: ../01-ussr/state.yaml\norders: ../orders/02-germany.yaml\n"
                    "standing_orders: {" + ", ".join(f"{p}: ../standing/{p}.yaml" for p in ("ussr", "uk", "japan", "usa"))
                    + f"}}\nseed: {seed.stdout.strip()}\n"
                    f"output: ../02-germany\n", encoding="utf-8")
    before = snapshot(game)
    result = pbem("adjudicate", turn)
    assert result.exit_code != 0
    assert_problem(result.stderr, "game/orders/02-germany.yaml:5", "combat_move[0].load",
                   "do not fit aboard 1 transport", "1 land unit of any type and 1 more infantry")
    assert not (game / "02-germany").exists()
    assert snapshot(game) == before


def test_wrong_seed_is_refused(game):
    turn = game / TURN
    text = turn.read_text(encoding="utf-8")
    seed = re.search(r"(?m)^seed: (\w+)$", text).group(1)
    wrong = ("0" if seed[0] != "0" else "1") + seed[1:]
    turn.write_text(text.replace(seed, wrong), encoding="utf-8")
    before = snapshot(game)
    result = pbem("adjudicate", turn)
    assert_nothing_written(game, before, result)
    assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line_of(turn, 'seed:')}", "seed",
                   "does not hash to the state's dice commitment", "pbem seed GAME_FOLDER 1")


def test_turn_file_schema_violation(game):
    turn = game / TURN
    turn.write_text(turn.read_text(encoding="utf-8").replace("output:", "outptu:"), encoding="utf-8")
    before = snapshot(game)
    result = pbem("adjudicate", turn)
    assert result.exit_code != 0
    line = line_of(turn, "outptu:")
    assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line}", "outptu", "unknown field 'outptu'",
                   "did you mean 'output'?")
    assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line_of(turn, 'ruleset:')}", "(document)",
                   "missing required field 'output'")
    assert snapshot(game) == before


MANY_MISTAKES = """\
power: ussr
purchase: {infantery: 2, tank: 1}
combat_move:
  - units: {infantry: 3}
    from: Karelya
    path: [West Rusia]
  - units: {fighter: 1}
    from: Karelia S.S.R.
    path: [Belorussia, Ukraine S.S.R., Balkans]
  - units: {infantry: 2}
    from: Kazakh S.S.R.
    path: [Afghanistan]
noncombat_move:
  - units: {infantry: 2}
    from: Novosibirsk
    path: [Russia, Archangel]
place:
  - at: Karelia S.S.R.
    units: {infantry: 2}
  - at: Russia
    units: {tank: 1}
"""


def test_every_problem_is_listed_not_just_the_first(game):
    (game / ORDERS).write_text(MANY_MISTAKES, encoding="utf-8")
    turn = game / TURN   # and a wrong seed in the turn file as well
    text = turn.read_text(encoding="utf-8")
    turn.write_text(re.sub(r"(?m)^seed: \w+$", "seed: " + "ab" * 32, text), encoding="utf-8")
    before = snapshot(game)
    result = pbem("adjudicate", turn)
    assert_nothing_written(game, before, result)
    orders = "game/orders/01-ussr.yaml"
    assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line_of(turn, 'seed:')}", "seed", "does not hash")
    assert_problem(result.stderr, f"{orders}:2", "purchase.infantery", "did you mean 'infantry'")
    assert_problem(result.stderr, f"{orders}:5", "combat_move[0].from", "did you mean 'Karelia S.S.R.'")
    assert_problem(result.stderr, f"{orders}:6", "combat_move[0].path[0]", "did you mean 'West Russia'")
    assert_problem(result.stderr, f"{orders}:9", "combat_move[1].path", "no landing place")
    assert_problem(result.stderr, f"{orders}:12", "combat_move[2].path[0]", "Afghanistan is neutral")
    assert_problem(result.stderr, f"{orders}:16", "noncombat_move[0].path", "moves 1 space")
    assert_problem(result.stderr, f"{orders}:18", "place[0].at", "cannot mobilize in Karelia S.S.R.")
    problems = problem_lines(result.stderr)
    assert result.stderr.startswith(f"error: {len(problems)} problems;")
    assert len(problems) >= 8
    lines = [int(m.group(1)) for p in problems if (m := re.match(re.escape(orders) + r":(\d+):", p))]
    assert lines == sorted(lines), "the problems of a file come in document order"


# ---------------------------------------------------------------------------------------------
# validate

def test_validate_good_and_bad_orders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy2(EXAMPLE / ORDERS, tmp_path / "good.yaml")
    shutil.copy2(EXAMPLE / "start" / "state.yaml", tmp_path / "state.yaml")
    shutil.copy2(EXAMPLE / "standing" / "germany.yaml", tmp_path / "germany.yaml")
    (tmp_path / "bad.yaml").write_text(BAD_ORDERS["place_without_factory"][0], encoding="utf-8")
    before = tree(tmp_path)

    good = pbem("validate", "good.yaml", "--state", "state.yaml", "--standing", "germany.yaml")
    assert good.exit_code == 0, good.stderr
    assert "good.yaml: the orders are valid" in good.stderr

    bad = pbem("validate", "bad.yaml", "--state", "state.yaml")
    assert bad.exit_code != 0
    assert_problem(bad.stderr, "bad.yaml:4", "place[0].at", "cannot mobilize in Karelia S.S.R.")

    missing = pbem("validate", "nope.yaml", "--state", "state.yaml")
    assert missing.exit_code != 0 and "nope.yaml: (document): file not found" in missing.stderr

    assert tree(tmp_path) == before, "validate wrote something"


# ---------------------------------------------------------------------------------------------
# verify

def test_verify_passes_on_the_adjudicated_game(played):
    result = pbem("verify", played)
    assert result.exit_code == 0, result.stderr
    assert re.search(r"ok  turn 1 \(ussr\), \d+ dice", result.stderr)
    assert "verified 1 turn" in result.stderr


def alter_a_die(events: Path) -> int:
    """Turn the first die of the event log's first roll into another face; the line it is on."""
    lines = events.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "roll")
    event = json.loads(lines[number])
    event["dice"][0] = event["dice"][0] % 6 + 1
    lines[number] = json.dumps(event, ensure_ascii=False, separators=(",", ":"))
    events.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return number + 1


def test_verify_fails_when_a_die_is_altered(played_copy):
    line = alter_a_die(output_of(played_copy) / "events.jsonl")
    result = pbem("verify", played_copy)
    assert result.exit_code != 0
    message = assert_problem(result.stderr, "game/01-ussr/events.jsonl", "(document)",
                             "does not match the re-played turn")
    assert f"events.jsonl line {line} differs" in message


def test_verify_fails_when_the_state_is_altered(played_copy):
    path = output_of(played_copy) / "state.yaml"
    state = yaml.safe_load(path.read_text(encoding="utf-8"))
    state["treasury"]["ussr"] += 1
    path.write_text(dump_yaml(state), encoding="utf-8")
    result = pbem("verify", played_copy)
    assert result.exit_code != 0
    message = assert_problem(result.stderr, "game/01-ussr/state.yaml", "(document)",
                             "does not match the re-played turn")
    assert "state.yaml line" in message and "treasury" in result.stderr


def alter_orders(game: Path, field: str, value: object) -> None:
    """Rewrite one field of the USSR's orders, as a player might after the turn was played."""
    path = game / ORDERS
    orders = yaml.safe_load(path.read_text(encoding="utf-8"))
    orders[field] = value
    path.write_text(yaml.safe_dump(orders, sort_keys=False, allow_unicode=True), encoding="utf-8")


def test_verify_fails_when_the_orders_are_altered_after_adjudication(played_copy):
    alter_orders(played_copy, "casualty_order", ["artillery", "infantry", "tank", "fighter"])
    result = pbem("verify", played_copy)
    assert result.exit_code != 0
    assert_problem(result.stderr, "game/orders/01-ussr.yaml", "(document)",
                   "not the orders that were adjudicated", "game/01-ussr/events.jsonl line 1")


def test_verify_fails_when_only_a_note_is_altered_after_adjudication(played_copy):
    """A note does not steer the dice, but the turn recorded the sha256 of every file it read."""
    alter_orders(played_copy, "note", "Another note, written after the turn was adjudicated.")
    result = pbem("verify", played_copy)
    assert result.exit_code != 0
    assert_problem(result.stderr, "game/orders/01-ussr.yaml", "(document)",
                   "not the file that was adjudicated", "game/01-ussr/events.jsonl line 1 records",
                   "for the orders of ussr")


def test_verify_fails_when_the_seed_is_altered(played_copy):
    turn = played_copy / TURN
    text = turn.read_text(encoding="utf-8")
    seed = re.search(r"(?m)^seed: (\w+)$", text).group(1)
    turn.write_text(text.replace(seed, seed[::-1]), encoding="utf-8")
    result = pbem("verify", played_copy)
    assert result.exit_code != 0
    assert_problem(result.stderr, f"game/turns/01-ussr.yaml:{line_of(turn, 'seed:')}", "seed",
                   "does not hash to the state's dice commitment")


DRAWN = ("map.png", "map-forum.png", "charts.png", "report.html")


def test_verify_needs_neither_the_drawings_nor_the_html_report(played_copy):
    """They can be drawn again from the facts, so the examples do not commit them: a game verifies
    without them, its text reports compared too."""
    for name in DRAWN:
        (output_of(played_copy) / name).unlink()
    for options in ((), ("--reports",)):
        result = pbem("verify", played_copy, *options)
        assert result.exit_code == 0, result.stderr


# ---------------------------------------------------------------------------------------------
# redraw

def test_redraw_makes_the_drawings_and_html_report_again_from_the_facts(played_copy):
    out = output_of(played_copy)
    adjudicated = {f"01-ussr/{name}": (out / name).read_bytes() for name in DRAWN}
    for name in DRAWN:
        (out / name).unlink()
    facts = snapshot(played_copy)
    result = pbem("redraw", played_copy)
    assert result.exit_code == 0, result.stderr
    assert "turn 1 (ussr): wrote charts.png, map-forum.png, map.png, report.html to game/01-ussr" in result.stderr
    redrawn = snapshot(played_copy)
    assert redrawn == {**facts, **adjudicated}  # the facts byte for byte, the drawings as adjudicate drew them
    again = pbem("redraw", played_copy, "--turn", "1")
    assert again.exit_code == 0, again.stderr
    assert snapshot(played_copy) == redrawn


@pytest.mark.parametrize("breaks,args,phrase", [
    (lambda g: alter_a_die(output_of(g) / "events.jsonl"), (), "does not match the re-played turn"),
    (lambda g: None, ("--turn", "1", "--turn", "7"),
     "the game has no recorded game turn 7 (allowed: game turns 1 to 1)"),
], ids=["a die altered", "a turn not played"])
def test_redraw_refuses_a_game_whose_facts_do_not_verify(played_copy, breaks, args, phrase):
    (output_of(played_copy) / "map.png").unlink()
    breaks(played_copy)
    before = snapshot(played_copy)
    result = pbem("redraw", played_copy, *args)
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "error: 1 problem; nothing was written" in result.stderr and phrase in result.stderr
    assert snapshot(played_copy) == before


# ---------------------------------------------------------------------------------------------
# player text is escaped; the installed console script

NOTE = "<script>alert(1)</script> & [b]x[/b] [go](javascript:alert(1)) ![t](http://evil.example/t.png) **bold**"


@pytest.fixture(scope="module")
def escaped(tmp_path_factory) -> Path:
    """The USSR turn with a hostile note, adjudicated by the installed `pbem` console script."""
    script = Path(sys.executable).with_name("pbem")
    if not script.exists():
        found = shutil.which("pbem")
        if found is None:
            pytest.skip("the pbem console script is not installed")
        script = Path(found)
    game = copy_game(tmp_path_factory.mktemp("escaped") / "game")
    orders = yaml.safe_load((game / ORDERS).read_text(encoding="utf-8"))
    orders["note"] = NOTE
    (game / ORDERS).write_text(yaml.safe_dump(orders, sort_keys=False, allow_unicode=True), encoding="utf-8")
    done = subprocess.run([str(script), "adjudicate", str(TURN)], cwd=game, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr.startswith("wrote ")
    return output_of(game)


def test_console_script_adjudicates(escaped):
    assert sorted(p.name for p in escaped.iterdir()) == sorted(OUTPUTS)


def test_markdown_report_escapes_player_html(escaped):
    md = (escaped / "report.md").read_text(encoding="utf-8")
    assert "<script" not in md.lower()
    # no link, image or emphasis can form either: their brackets and stars are escaped
    assert ("&lt;script&gt;alert(1)&lt;/script&gt; &amp; \\[b\\]x\\[/b\\] \\[go\\](javascript:alert(1)) "
            "!\\[t\\](http://evil.example/t.png) \\*\\*bold\\*\\*") in md
    # the only links are the report's own images: the forum map (linking the full one) and the charts
    assert re.findall(r"(?<!\\)\]\(([^)]*)\)", md) == ["map-forum.png", "map.png", "charts.png"]


def test_html_report_shows_the_note_as_text_only(escaped):
    html = (escaped / "report.html").read_text(encoding="utf-8")
    assert html.lower().count("<script") == 1  # the board viewer's own, which reads no player text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; [b]x[/b] [go](javascript:alert(1))" in html
    assert 'href="javascript' not in html and "evil.example/t.png\"" not in html


def test_bbcode_report_keeps_player_text_from_forming_tags(escaped):
    bbcode = (escaped / "report.bbcode").read_text(encoding="utf-8")
    assert "[b]x[/b]" not in bbcode
    # BBCode forums escape HTML themselves, so "<script>" here is shown as text; entity-escaping it
    # would make the forum show "&lt;script&gt;". A zero-width space after "[" breaks the tags.
    assert "<script>alert(1)</script> & [\u200bb]x[\u200b/b] [\u200bgo](javascript:alert(1))" in bbcode
    assert "&lt;" not in bbcode


def test_the_data_files_keep_player_text_as_data(escaped):
    # The note is not part of the state or the event log (the orders digest in turn_start covers
    # it); whatever text they hold is plain data, never HTML-escaped.
    state_text = (escaped / "state.yaml").read_text(encoding="utf-8")
    events_text = (escaped / "events.jsonl").read_text(encoding="utf-8")
    yaml.safe_load(state_text)
    for line in events_text.splitlines():
        json.loads(line)
    for text in (state_text, events_text):
        assert "&lt;" not in text and "&amp;" not in text
        assert "alert(1)" not in text or NOTE in text


# ---------------------------------------------------------------------------------------------
# new, seed, schema, render

def test_new_and_seed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = pbem("new", "aa-revised", "mygame", "--game", "Club game 12", "-o", "victory_cities=12")
    assert result.exit_code == 0, result.stderr
    assert "keep secret.yaml to yourself" in result.stderr
    game = yaml.safe_load((tmp_path / "mygame" / "game.yaml").read_text(encoding="utf-8"))
    assert game["game"] == "Club game 12" and game["options"]["victory_cities"] == 12
    state = yaml.safe_load((tmp_path / "mygame" / "start" / "state.yaml").read_text(encoding="utf-8"))
    assert state["dice"] == {"scheme": 2, "commitment": game["dice"]["commitment"], "turn": 1}
    assert (tmp_path / "mygame" / "secret.yaml").stat().st_mode & 0o077 == 0

    seed = pbem("seed", "mygame", 1)
    assert seed.exit_code == 0, seed.stderr
    assert re.fullmatch(r"[0-9a-f]{64}\n", seed.stdout)
    assert commitment(seed.stdout.strip()) == game["dice"]["commitment"]
    # the chain goes on: the seed of turn 2 hashes to the seed of turn 1
    assert commitment(pbem("seed", "mygame", 2).stdout.strip()) == seed.stdout.strip()

    verify = pbem("verify", "mygame")
    assert verify.exit_code == 0 and "verified 0 turns" in verify.stderr

    before = tree(tmp_path)
    again = pbem("new", "aa-revised", "mygame")
    assert again.exit_code != 0
    assert_problem(again.stderr, "mygame", "(document)", "the folder is not empty")
    unknown = pbem("new", "aa-revised", "other", "-o", "victory_city=10")
    assert unknown.exit_code != 0
    assert_problem(unknown.stderr, "--option", "victory_city", "unknown option", "victory_cities")
    bad_value = pbem("new", "aa-revised", "other", "-o", "victory_cities=9")
    assert bad_value.exit_code != 0
    assert_problem(bad_value.stderr, "--option", "victory_cities", "9 is not allowed", "(allowed: 8, 10, 12)")
    flag = pbem("new", "aa-revised", "other", "--victory-cities", "10")
    assert flag.exit_code != 0 and "No such option" in flag.stderr
    ruleset = pbem("new", "aa-classic", "other")
    assert ruleset.exit_code != 0 and "unknown ruleset 'aa-classic' (allowed: aa-europe, aa-revised, qmg, undaunted-stalingrad)" in ruleset.stderr
    assert tree(tmp_path) == before, "a refused `pbem new` wrote something"


def test_schema_prints_json_schema_2020_12():
    from jsonschema import Draft202012Validator

    result = pbem("schema", "orders", "--ruleset", "aa-revised")
    assert result.exit_code == 0, result.stderr
    schema = json.loads(result.stdout)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    assert list(validator.iter_errors(yaml.safe_load((EXAMPLE / ORDERS).read_text(encoding="utf-8")))) == []
    assert list(validator.iter_errors({"power": "ussr", "combat_moves": []}))

    unknown = pbem("schema", "order")
    assert unknown.exit_code != 0 and "unknown schema 'order'" in unknown.stderr


def test_render_writes_a_png_about_2000_px_wide(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = pbem("render", EXAMPLE / "start" / "state.yaml", "--out", "map.png")
    assert result.exit_code == 0, result.stderr
    width, height = png_size((tmp_path / "map.png").read_bytes())
    assert 1800 <= width <= 2200 and 0 < height < width
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.png"]

    not_a_state = pbem("render", EXAMPLE / ORDERS, "--out", "other.png")
    assert not_a_state.exit_code != 0 and "missing required field 'format'" in not_a_state.stderr
    assert not (tmp_path / "other.png").exists()


BROKEN_GAME_FOLDERS = {
    "game_file_without_fields": (lambda g: (g / "game.yaml").write_text("format: pbem-game/1\n"),
                                 "game/game.yaml:1", "(document)", "missing required field 'ruleset'"),
    "unknown_ruleset": (lambda g: (g / "game.yaml").write_text(
                            (g / "game.yaml").read_text().replace("ruleset: aa-revised", "ruleset: aa-classic")),
                        "game/game.yaml:2", "ruleset", "unknown ruleset 'aa-classic'"),
    "no_opening_state": (lambda g: (g / "start" / "state.yaml").unlink(),
                         "game/start/state.yaml", "(document)", "file not found"),
    "turn_file_not_a_mapping": (lambda g: (g / "turns" / "00-note.yaml").write_text("- a list\n"),
                                "game/turns/00-note.yaml:1", "(document)", "expected a mapping; got a list"),
    "report_missing": (lambda g: (output_of(g) / "report.md").unlink(),
                       "game/01-ussr/report.md", "(document)", "missing"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_GAME_FOLDERS))
def test_verify_reports_a_broken_game_folder(played_copy, case):
    breaks, where, field, phrase = BROKEN_GAME_FOLDERS[case]
    breaks(played_copy)
    result = pbem("verify", played_copy)
    assert result.exit_code != 0
    assert_problem(result.stderr, where, field, phrase)


@pytest.mark.parametrize("command", ["verify", "redraw", "adjudicate"])
def test_a_fault_inside_pbem_is_one_line_not_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          command: str) -> None:
    """A bug of the engine (here: resolve raising) reaches the moderator as one line that names it,
    exit code 2, and nothing written."""
    from pbem.rulesets.axis_allies.ruleset import AxisAllies

    def broken(*args: object, **kwargs: object) -> None:
        raise TypeError("unsupported operand")

    monkeypatch.setattr(AxisAllies, "resolve", broken)
    if command in ("verify", "redraw"):
        game = tmp_path / "game"
        shutil.copytree(EXAMPLE, game)
        result = pbem(command, game)
    else:
        game = copy_game(tmp_path / "game")
        before = snapshot(game)
        result = pbem("adjudicate", game / TURN)
        assert snapshot(game) == before
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("error: pbem failed inside (TypeError: unsupported operand)")
