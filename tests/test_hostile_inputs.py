"""Files from a hostile mailbox: each is refused with a located message, promptly, showing nothing of
what it points at, and never with a traceback or a crash."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core.errors import InputError
from pbem.core.files import MAX_INPUT_BYTES
from pbem.core.yamlio import (MAX_DEPTH, MAX_INTEGER_LENGTH, MAX_NODES, MAX_STRING_LENGTH,
                              load_document, load_json_lines, parse_document)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "aa-revised"

BILLION_LAUGHS = """\
power: germany
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def refused(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_document(text, "orders.yaml")
    assert len(caught.value.problems) == 1
    return str(caught.value.problems[0])


def test_an_alias_bomb_is_refused_at_its_first_anchor():
    assert refused(BILLION_LAUGHS) == ("orders.yaml:2: a: an anchor or alias (&name, *name) "
                                       "(allowed: every value written out where it is used)")


def test_an_alias_alone_is_refused_too():
    assert refused("power: germany\nnote: *x\n").startswith("orders.yaml:2: note: an anchor or alias")


@pytest.mark.parametrize("style, text", [
    ("flow", "[" * 100_000 + "]" * 100_000 + "\n"),
    ("block", "- " * 100_000 + "infantry\n"),
])
def test_deep_nesting_is_refused_by_the_command_without_a_crash(tmp_path, style, text):
    # A subprocess, so that a segfault (the C composer's recursion) fails this test, not pytest.
    orders = tmp_path / "deep.yaml"
    orders.write_text(text, encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pbem.cli", "validate", str(orders), "--state",
                             str(EXAMPLE / "start" / "state.yaml")], capture_output=True, text=True, timeout=120,
                            cwd=tmp_path)  # outside the repository, whose pbem/ would stand in for the installed one
    assert result.returncode == 1, result.stderr
    # the field is the path to the first value too deep, or the whole document when the YAML parser
    # itself (libyaml in PyYAML 6.0.4 and later) stops the nesting first
    assert (f"deep.yaml:1: {'[0]' * MAX_DEPTH}: nested more than {MAX_DEPTH} levels deep" in result.stderr
            or f"deep.yaml:1: (document): nested more than {MAX_DEPTH} levels deep" in result.stderr)
    assert "Traceback" not in result.stderr


def test_nesting_up_to_the_limit_is_read():
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_document(text, "x.yaml").data is not None
    assert "nested more than" in refused("[" + text + "]")


def test_a_4300_digit_integer_is_refused():
    assert refused("power: germany\npurchase: {infantry: " + "9" * 4300 + "}\n") == (
        f"orders.yaml:2: purchase.infantry: a number of 4300 characters (allowed: at most "
        f"{MAX_INTEGER_LENGTH} characters)")


def test_a_long_text_is_refused_where_it_stands():
    long_note = "x" * (MAX_STRING_LENGTH + 1)
    assert refused(f"power: germany\nnote: '{long_note}'\n") == (
        f"orders.yaml:2: note: a text of {MAX_STRING_LENGTH + 1:,} characters (allowed: at most "
        f"{MAX_STRING_LENGTH:,} characters)")
    assert refused("{" + long_note + ": 1}").startswith("orders.yaml:1: (document): a text of")
    assert parse_document(f"note: {long_note[1:]}\n", "x.yaml").data["note"] == long_note[1:]


def test_too_many_values_are_refused():
    assert f"more than {MAX_NODES:,} keys and values" in refused("[" + "1," * MAX_NODES + "]")


def test_a_10_mb_file_is_refused_without_reading_it_all(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("note: '" + "x" * 10_000_000 + "'\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_document(big)
    assert f"the file is larger than {MAX_INPUT_BYTES:,} bytes" in str(caught.value)


def test_an_event_log_is_read_with_the_same_bounds(tmp_path):
    log = tmp_path / "events.jsonl"
    log.write_text('{"type": "turn_start"}\n' + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_json_lines(log)
    assert str(caught.value).startswith(f"{log}:2: (document): not valid JSON")
    log.write_text('{"type": "turn_start"}\n{"n": ' + "9" * 5000 + "}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_json_lines(log)
    assert str(caught.value).startswith(f"{log}:2: (document): not valid JSON")


def run_pbem(*args: object):
    from typer.testing import CliRunner

    from pbem.cli import app
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_option_values_are_read_with_the_same_bounds(tmp_path):
    result = run_pbem("new", "aa-revised", tmp_path / "game", "-o", "victory_cities=&a 12",
                      "-o", "research_rule=" + "[" * 100 + "]" * 100)
    assert result.exit_code == 1
    assert "--option: victory_cities: an anchor or alias" in result.stderr
    assert f"--option: research_rule: nested more than {MAX_DEPTH} levels deep" in result.stderr
    assert not (tmp_path / "game").exists()


def test_control_characters_from_a_player_are_shown_escaped():
    from pbem.core.schemas import validate
    doc = parse_document('power: germany\n"\\e[2J\\r\\u202e\\x9b": 1\n', "orders\x1b[31m.yaml")
    text = "\n".join(str(p) for p in validate("orders", doc, "pbem.rulesets.axis_allies.schemas"))
    assert "orders\\x1b[31m.yaml:2: \\x1b[2J\\r\\u202e\\x9b: unknown field" in text
    assert not any(c in text for c in "\x1b\r\u202e\x9b")


def test_messages_pbem_writes_on_several_lines_keep_their_lines():
    from pbem.core.errors import Problem
    text = str(Problem("state.yaml", None, "", "differs:\n  recorded: a\x1b\n  replayed: b"))
    assert text == "state.yaml: (document): differs:\n  recorded: a\\x1b\n  replayed: b"


def test_verify_shows_the_names_of_turn_files_escaped(monkeypatch, tmp_path):
    import pbem.core.game
    from pbem.core.game import Verified

    def replayed(folder, render, progress):
        progress(Verified(tmp_path / "turns" / "01-\x1b[2Jussr.yaml", 1, "ussr", 12))
        return []
    monkeypatch.setattr(pbem.core.game, "verify_game", replayed)  # `pbem verify` imports it when it runs
    result = run_pbem("verify", tmp_path)
    assert "01-\\x1b[2Jussr.yaml" in result.stderr and "\x1b" not in result.stderr


# ---------------------------------------------------------------------------------------------
# the files a turn file names

SECRET = "root:x:0:0"  # what must never be shown of a file outside the game


@pytest.fixture
def game(tmp_path, monkeypatch) -> Path:
    """The example game's inputs (no outputs), with a file outside it that holds a secret."""
    import shutil
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "game"
    folder.mkdir()
    for name in ("game.yaml", "start", "orders", "standing", "turns"):
        copy = shutil.copytree if (EXAMPLE / name).is_dir() else shutil.copy2
        copy(EXAMPLE / name, folder / name)
    (tmp_path / "x").write_text(f"{SECRET}: /root\n", encoding="utf-8")
    return folder


def turn_naming(game: Path, field: str, name: str) -> Path:
    """The first turn file with `field` naming `name`."""
    import yaml
    path = game / "turns" / "01-ussr.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data[field] = name
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def refused_turn(turn: Path) -> str:
    from pbem.core.turn import load_turn
    with pytest.raises(InputError) as caught:
        load_turn(turn)
    text = str(caught.value)
    assert SECRET not in text
    return text


@pytest.mark.parametrize("field, name", [
    ("orders", "/etc/passwd"), ("orders", "/dev/zero"), ("orders", "../../x"), ("state", "../../x"),
    ("output", "../../elsewhere"), ("output", "/tmp"),
])
def test_a_turn_file_names_nothing_outside_its_game(game, field, name):
    text = refused_turn(turn_naming(game, field, name))
    assert f"turns/01-ussr.yaml:" in text and f"{field}: {name!r} lies outside the game folder game" in text


def test_a_symbolic_link_out_of_the_game_is_refused(game):
    (game / "orders" / "link.yaml").symlink_to(game.parent / "x")
    text = refused_turn(turn_naming(game, "orders", "../orders/link.yaml"))
    assert "orders: '../orders/link.yaml' lies outside the game folder" in text


def test_a_turn_file_outside_any_game_is_confined_to_its_folders_parent(game):
    (game / "game.yaml").unlink()
    assert "lies outside the game folder game" in refused_turn(turn_naming(game, "orders", "../../x"))


@pytest.mark.parametrize("make, kind", [
    (os.mkfifo, "a FIFO (named pipe)"), (os.mkdir, "a folder"),
])
def test_only_regular_files_are_read(game, make, kind):
    make(game / "orders" / "special.yaml")
    text = refused_turn(turn_naming(game, "orders", "../orders/special.yaml"))
    assert f"orders/special.yaml: (document): not a regular file but {kind}" in text


def test_verify_refuses_turn_files_that_link_out_of_the_game_or_are_fifos(game):
    from pbem.core.game import verify_game
    (game / "turns" / "00-link.yaml").symlink_to(game.parent / "x")
    with pytest.raises(InputError) as caught:
        verify_game(game, None)
    assert "turns/00-link.yaml: (document): '00-link.yaml' lies outside the game folder" in str(caught.value)
    assert SECRET not in str(caught.value)
    (game / "turns" / "00-link.yaml").unlink()
    os.mkfifo(game / "turns" / "00-fifo.yaml")
    with pytest.raises(InputError) as caught:
        verify_game(game, None)
    assert "turns/00-fifo.yaml: (document): not a regular file but a FIFO" in str(caught.value)


# ---------------------------------------------------------------------------------------------
# what mail clients do to YAML

CLEAN = """\
power: germany
combat_move:
        - units: {tank: 2}
          from: Poland
          to: W Russia   # the short name
note: |
  a\tblock\u00a0keeps its text
quoted: "a\u00a0quote keeps it\ttoo"
"""
MAILED = """\
power: germany
combat_move:
\t- units: {tank: 2}
\t  from: Poland
\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0to:\u00a0W\u00a0Russia   # the short name
note: |
  a\tblock\u00a0keeps its text
quoted: "a\u00a0quote keeps it\ttoo"
"""


def test_tabs_and_no_break_spaces_are_repaired_with_a_note():
    clean, mailed = parse_document(CLEAN, "orders.yaml"), parse_document(MAILED, "orders.yaml")
    assert mailed.data == clean.data and mailed.lines == clean.lines
    assert clean.notes == []
    assert [str(n) for n in mailed.notes] == [
        "orders.yaml:3: a tab in the indentation was read as spaces to the next multiple of 8 columns "
        "(and on 1 more line)",
        "orders.yaml:5: a no-break space outside quotes was read as a space"]


def test_a_bom_is_dropped_and_quoted_text_is_kept():
    text = "\ufeffpower: germany\nnote: 'it''s\u00a0#1'\u00a0 # \u00a0\nx: it's\u00a0\ufeffme\n"
    doc = parse_document(text, "o.yaml")
    assert doc.data == {"power": "germany", "note": "it's\u00a0#1", "x": "it's me"}
    assert [(n.line, n.message[:22]) for n in doc.notes] == [(2, "a no-break space outsi"),
                                                              (3, "an invisible U+FEFF (b")]


def test_validate_prints_the_notes(tmp_path):
    orders = tmp_path / "orders.yaml"
    orders.write_text((EXAMPLE / "orders" / "02-germany.yaml").read_text(encoding="utf-8").replace(
        "power: germany", "power:\u00a0germany"), encoding="utf-8")
    result = run_pbem("validate", orders, "--state", EXAMPLE / "01-ussr" / "state.yaml", "--standing",
                      EXAMPLE / "standing" / "ussr.yaml")
    assert result.exit_code == 0, result.stderr
    assert f"note: {orders}:" in result.stderr and "a no-break space outside quotes" in result.stderr


@pytest.mark.parametrize("value, tag", [
    ('!!bool "x"', "!!bool"),  # a KeyError in PyYAML
    ('!!int "12abc"', "!!int"),  # a ValueError
    ('!!int ""', "!!int"),  # an IndexError
    ('!!float "."', "!!float"),
    ('!!timestamp "x"', "!!timestamp"),  # an AttributeError
    ('!!timestamp "2001-02-30"', "!!timestamp"),  # a ValueError from datetime
    ('!!timestamp "2001-02-03 01:02:03 +99:00"', "!!timestamp"),
    ("2001-02-30", "!!timestamp"),  # read as a date without any tag
    ('!!map "x"', "!!map"),
])
def test_a_value_its_tag_cannot_read_is_refused_where_it_stands(value, tag):
    text = refused(f"power: germany\nnote: {value}\n")
    assert text.startswith("orders.yaml:2: note: "), text
    assert f"cannot be read as {tag}" in text


def test_an_unknown_tag_is_refused_where_it_stands():
    assert refused('power: germany\nplace:\n  - !!python/name:os.system ""\n') == (
        "orders.yaml:3: place[0]: '' has the tag !!python/name:os.system, which pbem does not read "
        "(allowed: the value without its tag)")


def test_validate_refuses_a_bad_tagged_value_without_a_traceback(tmp_path):
    orders = tmp_path / "orders.yaml"
    orders.write_text('power: russia\npurchase: {infantry: !!int "12abc"}\n', encoding="utf-8")
    result = run_pbem("validate", orders, "--state", EXAMPLE / "start" / "state.yaml")
    assert result.exit_code == 1
    assert (f"{orders}:2: purchase.infantry: '12abc' cannot be read as !!int (allowed: a value that !!int "
            "accepts, or the value without its tag)") in result.stderr


def test_a_tab_that_breaks_the_yaml_is_read_at_the_one_width_that_reads_it():
    # a mail client's tab meant as four columns: read as eight it left `from` outside its move
    doc = parse_document("power: germany\ncombat_move:\n  - units: {tank: 2}\n\tfrom: Poland\n", "orders.yaml")
    assert doc.data["combat_move"] == [{"units": {"tank": 2}, "from": "Poland"}]
    assert [str(n) for n in doc.notes] == [
        "orders.yaml:4: a tab in the indentation was read as spaces to the next multiple of 4 columns"]


def test_a_tab_that_could_mean_two_things_is_pointed_at():
    # four columns puts `d` beside `c`, two beside `b`: pbem does not guess
    with pytest.raises(InputError) as refused:
        parse_document("a:\n  b:\n    c: x\n\td: 1\n", "orders.yaml")
    problem, = refused.value.problems
    assert problem.line == 4
    assert problem.message.endswith("; line 4, column 1: a tab here: YAML indents with spaces")
    assert problem.allowed.startswith("spaces in place of each tab")


def test_a_syntax_error_without_tabs_says_nothing_of_tabs():
    with pytest.raises(InputError) as refused:
        parse_document("a:\n  b: 1\n c: 2\n", "orders.yaml")
    assert "tab" not in str(refused.value)
