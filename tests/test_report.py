"""The turn report read as a player would: player text stays inert text in every format, events
are listed where they belong in the report's own words, and the inputs of a turn can be checked.

The reports are rendered from synthetic event logs on the example's opening position, so each test
shows exactly the events it is about.
"""

from __future__ import annotations

import copy
import html
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from markdown_it import MarkdownIt

from pbem.core.dice import FixedDice
from pbem.core.events import EventLog
from pbem.core.yamlio import parse_document
from pbem.rulesets.axis_allies.reports.report import render_bbcode, render_html, render_markdown, report_model
from pbem.render.templates import one_line
from pbem.rulesets import get_ruleset

START = yaml.safe_load((Path(__file__).parents[1] / "examples/aa-revised/start/state.yaml").read_text("utf-8"))
HEX = "ab" * 32
RULES = get_ruleset("aa-revised")


def reports(*events: dict[str, Any], game: str = "Test game", note: str | None = None,
            turn_start: dict[str, Any] | None = None) -> dict[str, str]:
    """The three reports of a turn of Germany whose log holds `events` between its start and end."""
    before = {**copy.deepcopy(START), "game": game}
    log = EventLog()
    log.add("turn_start", round=1, power="germany", turn=2, seed=HEX, seed_commitment=HEX,
            orders_digest=HEX, **(turn_start or {}))
    log.extend([copy.deepcopy(e) for e in events])
    log.add("turn_end", round=1, power="germany", next_power="uk", dice_rolled=0, next_seed_commitment=HEX)
    model = report_model(before, copy.deepcopy(before), log, note)
    return {"md": render_markdown(model), "bbcode": render_bbcode(model), "html": render_html(model, None)}


def move(note: str | None = None, phase: str = "combat", **fields: Any) -> dict[str, Any]:
    """A move event of Germany (a tank from Germany to Poland unless `fields` say otherwise)."""
    event = {"type": "move", "phase": phase, "power": "germany", "units": {"tank": 1}, "from": "Germany",
             "path": ["Poland"], "to": "Poland", **fields}
    if note is not None:
        event["note"] = note
    return event


# --- player text is inert --------------------------------------------------------------------------

HOSTILE = {
    "carriage return": "fine\r# Forged heading\r- forged item",
    "line feed": "fine\n\n## Forged heading\n> forged quote",
    "crlf": "fine\r\n\r\n| a | b |\r\n|---|---|\r\n| 1 | 2 |",
    "line and paragraph separators": "fine\u2028# Forged\u2029- forged",
    "next line": "fine\x85# Forged\x85* forged",
    "setext underlines": "Forged heading\n===\nAnother\n---",
    "block markers": "# heading",
    "list dash": "- item",
    "list star": "* item",
    "list plus": "+ item",
    "ordered list": "1. item",
    "ordered list paren": "12) item",
    "thematic break": "---",
    "equals": "===",
    "blockquote": "> quoted",
    "table": "| a | b |\n|---|---|",
    "code fence": "```\ncode\n```",
    "tilde fence": "~~~\ncode",
    "indented code": "x\n\n    code block",
    "backticks": "`code` and ``more``",
    "link": "[click](http://evil.example/)",
    "image": "![pic](http://evil.example/p.png)",
    "reference link": "[x]: http://evil.example/\n[x]",
    "autolink": "<http://evil.example/>",
    "html script": "<script>alert(1)</script>",
    "html img": '<img src=x onerror="alert(1)">',
    "entities": "&lt;b&gt; &amp; &#60;i&#62;",
    "emphasis": "**bold** _em_ ~~struck~~",
    "bbcode url": "[url=http://evil.example/]click[/url]",
    "bbcode img": "[img]http://evil.example/p.png[/img]",
    "bbcode close quote": "[/quote][b]forged[/b][quote]",
    "bbcode size": "[size=200]BIG[/size]",
    "bbcode list item": "[*]forged item",
    "trailing backslash": "ends in a break\\",
    "controls": "bell\x07 null\x00 escape\x1b[31m del\x7f c1\x9b tab\there",
    "bidi override": "abc\u202edcba\u202c \u2066isolate\u2069",
    "bidi marks": "left\u200emark right\u200fmark arabic\u061cmark",
}
FORMATS = ("md", "bbcode", "html")


def hostile_and_harmless(text: str, where: str) -> tuple[dict[str, str], dict[str, str]]:
    """The reports with `text` in one place a player can write, and with a harmless word there."""
    def make(value: str) -> dict[str, str]:
        if where == "orders note":
            return reports(move(), note=value)
        if where == "move note":
            return reports(move(value))
        return reports(move(), game=value)
    return make(text), make("harmless")


def markdown_structure(text: str) -> list[tuple[str, str]]:
    """The blocks and inline elements a CommonMark parser (with tables and strikethrough) finds."""
    parser = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    shape = []
    for token in parser.parse(text):
        shape.append((token.type, token.tag))
        for child in token.children or []:
            if child.type not in ("text", "text_special", "softbreak") or not shape or shape[-1][0] != "text":
                shape.append(("text", "") if child.type == "text_special" else (child.type, child.tag))
    return shape


BBCODE_TAG = re.compile(r"\[(/?)([a-z*]+)(?:=[^\]]*)?\]", re.IGNORECASE)


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, tuple]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.found.append((tag, tuple(attrs)))

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.found.append((tag, tuple(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.found.append(("/" + tag, ()))


def html_elements(text: str) -> list[tuple[str, tuple]]:
    """Every start and end tag with its attributes, in order, as a browser's tokenizer sees them."""
    parser = _Elements()
    parser.feed(text)
    parser.close()
    return parser.found


@pytest.mark.parametrize("where", ["orders note", "move note", "game name"])
@pytest.mark.parametrize("name", HOSTILE)
def test_player_text_cannot_change_the_structure_of_any_report(name, where):
    hostile, harmless = hostile_and_harmless(HOSTILE[name], where)
    for kind in FORMATS:
        assert hostile[kind].count("\n") == harmless[kind].count("\n"), kind
    assert markdown_structure(hostile["md"]) == markdown_structure(harmless["md"])
    assert [m.groups() for m in BBCODE_TAG.finditer(hostile["bbcode"])] == \
        [m.groups() for m in BBCODE_TAG.finditer(harmless["bbcode"])]
    assert html_elements(hostile["html"]) == html_elements(harmless["html"])


CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize("name", ["controls", "bidi override", "bidi marks", "next line",
                                  "carriage return", "line and paragraph separators"])
def test_no_control_character_reaches_a_report(name):
    for text in reports(move(HOSTILE[name]), note=HOSTILE[name], game=HOSTILE[name]).values():
        assert not CONTROL.search(text)


def test_control_characters_show_as_their_code_points():
    assert one_line("bell\x07 \u202eabc\u202c del\x7f") == "bell⟨U+0007⟩ ⟨U+202E⟩abc⟨U+202C⟩ del⟨U+007F⟩"


def test_a_bidi_mark_in_a_note_shows_as_its_code_point_in_every_report():
    # U+200E, U+200F and U+061C reorder what is shown like the overrides; messages escape them too
    for kind, text in reports(move("left\u200eright"), note="a\u200fb\u061cc").items():
        assert "left⟨U+200E⟩right" in text, kind
        assert "a⟨U+200F⟩b⟨U+061C⟩c" in text, kind
        assert not any(mark in text for mark in "\u200e\u200f\u061c"), kind


def test_reports_show_every_character_that_messages_escape():
    from pbem.core.errors import CONTROL_CHARACTERS, escape_controls
    for code in CONTROL_CHARACTERS:
        if code not in (0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x85, 0x2028, 0x2029):  # blanks, breaks
            assert one_line(f"a{chr(code)}b") == f"a⟨U+{code:04X}⟩b"
            assert escape_controls(chr(code)) != chr(code)


@pytest.mark.parametrize("text, shown", [
    ("wrapped\nby the mail client\r\nand\rthis", "wrapped by the mail client and this"),
    ("one paragraph\n\nanother\r\n \r\nthird\u2029\u2029fourth", "one paragraph ⏎ another ⏎ third ⏎ fourth"),
    ("  \n indented\tand tabbed \n\n", "indented and tabbed"),
])
def test_player_text_is_one_line_with_its_paragraphs_marked(text, shown):
    assert one_line(text) == shown


def test_player_text_reads_as_written_in_every_format():
    text = "# 1. <b>[b]*Go*[/b]</b> & `x` | y"
    out = reports(move(), note=text)
    assert "> \\# 1. &lt;b&gt;\\[b\\]\\*Go\\*\\[/b\\]&lt;/b&gt; &amp; \\`x\\` \\| y\n" in out["md"]
    assert "[quote]# 1. <b>[\u200bb]*Go*[\u200b/b]</b> & `x` | y[/quote]" in out["bbcode"]
    assert '<div class="note"># 1. &lt;b&gt;[b]*Go*[/b]&lt;/b&gt; &amp; `x` | y</div>' in out["html"]


# --- events listed where they belong, in the report's words ----------------------------------------

def played(orders: str, dice: list[int], **units: dict[str, int]) -> EventLog:
    """The event log of Germany's turn from the opening, with `units` of Germany's put in spaces."""
    state = copy.deepcopy(START)
    state["next_power"] = "germany"
    for space, counts in units.items():
        state["units"][space.replace("_", " ")]["germany"].update(counts)
    document = parse_document(orders, "orders.yaml")
    assert RULES.check_orders(state, {state["next_power"]: document}, {}) == []
    log = EventLog()
    RULES.resolve(state, {state["next_power"]: document}, {}, FixedDice(dice), log)
    return log


def section(report: str, heading: str) -> str:
    """One `## ` section of a Markdown report, without its heading."""
    return report.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def shown_in_every_format(out: dict[str, str], line: str) -> bool:
    """Whether `line` is a list item in each report."""
    return (f"\n- {line}\n" in out["md"] and f"\n[*]{line}\n" in out["bbcode"]
            and f"<li>{line}</li>" in html.unescape(out["html"]))


def test_move_notes_name_units_with_plurals():
    log = played("power: germany\nnoncombat_move:\n  - units: {transport: 2}\n    from: SZ 5\n"
                 "    load: [{units: {tank: 2}, from: Germany}]\n    unload: Eastern Europe\n", [],
                 SZ_5={"transport": 2})
    [loading] = [e for e in log.of_type("move") if e["units"] == {"transport": 2}]
    assert loading["note"] == "loads 2 tanks from Germany; unloads 2 tanks in Eastern Europe"


def test_a_rocket_strike_skipped_for_failed_research_is_shown_as_one():
    log = played("power: germany\nresearch: {development: rockets, dice: 1}\n"
                 "rockets:\n  - {from: Germany, target: United Kingdom}\n", [6])
    out = reports(*log.events[:-1])  # without the income: the helper ends the turn
    line = "Germany's rocket strike from Germany at United Kingdom is not made: Rockets has not been developed"
    assert shown_in_every_format(out, line)
    assert line in section(out["md"], "Strategic bombing and rockets")
    assert "Moves not made" not in out["md"] and "germany" not in out["md"].replace("Germany", "")


RAID = [move("strategic bombing raid on Russia", units={"bomber": 2}, path=["Eastern Europe", "Belorussia",
                                                                           "West Russia", "Russia"], to="Russia"),
        {"type": "aa_fire", "space": "Russia", "power": "ussr", "targets": {"bomber": 2}, "dice": [1, 4],
         "hits": 1, "casualties": {"bomber": 1}, "battle": None},
        {"type": "bombing", "space": "Russia", "power": "germany", "victim": "ussr", "bombers": 1, "dice": [5],
         "damage": 5, "cap_per_bomber": 8, "paid": 5}]


def test_the_aa_fire_of_a_bombing_raid_is_listed_with_its_raid():
    out = reports(*RAID)
    raids = section(out["md"], "Strategic bombing and rockets")
    fire = "Raid on Russia: AA gun in Russia (USSR) fires at 2 bombers: 1 4 — 1 hit, shoots down 1 bomber"
    assert shown_in_every_format(out, fire)
    assert raids.index(fire) < raids.index("Germany bombs the industrial complex in Russia with 1 bomber")
    assert "AA gun" not in section(out["md"], "Combat moves") and "AA fire on flight paths" not in out["md"]


def test_a_raids_air_battle_is_listed_between_its_aa_fire_and_its_bombs():
    # Europe's raid (seed l.719-731): escorts, interceptors, and no cap per bomber
    events = [move("strategic bombing raid on Russia", units={"bomber": 1, "fighter": 2}, to="Russia"),
              {"type": "aa_fire", "space": "Russia", "power": "ussr", "targets": {"bomber": 1, "fighter": 2},
               "dice": [1, 3, 4], "hits": 1, "casualties": {"fighter": 1}, "battle": None},
              {"type": "interception", "space": "Russia", "power": "germany", "interceptors": {"ussr": {"fighter": 2}},
               "dice": [2, 5], "hits": 1, "escorts": {"fighter": 1}, "escort_dice": [1], "escort_hits": 1,
               "interceptors_lost": {"ussr": {"fighter": 1}}, "raiders_lost": {"fighter": 1}},
              {"type": "bombing", "space": "Russia", "power": "germany", "victim": "ussr", "bombers": 1,
               "dice": [6], "damage": 6, "paid": 6}]
    out = reports(*events)
    raids = section(out["md"], "Strategic bombing and rockets")
    fire = "Raid on Russia: AA gun in Russia (USSR) fires at 1 bomber, 2 fighters: 1 3 4 — 1 hit, shoots down 1 fighter"
    air = ("Raid on Russia: 2 fighters (USSR) intercept: 2 5 — 1 hit; escorting 1 fighter answer: 1 — 1 hit; "
           "Germany loses 1 fighter, USSR loses 1 fighter")
    bombs = "Germany bombs the industrial complex in Russia with 1 bomber: rolled 6, damage 6; USSR pays 6 IPC"
    assert all(shown_in_every_format(out, line) for line in (fire, air, bombs))
    assert raids.index(fire) < raids.index(air) < raids.index(bombs)


@pytest.mark.parametrize("phase", ["combat", "noncombat"])
def test_aa_fire_on_a_flight_path_has_its_own_part_naming_the_move(phase):
    flight = move(phase=phase, units={"fighter": 2}, path=["Eastern Europe", "Karelia S.S.R."], to="Karelia S.S.R.")
    fire = {"type": "aa_fire", "space": "Eastern Europe", "power": "ussr", "targets": {"fighter": 2},
            "dice": [3, 6], "hits": 0, "casualties": {}, "battle": None}
    out = reports(flight, fire)
    line = (f"{phase.capitalize()} move, 2 fighters Germany → Karelia S.S.R.: "
            "AA gun in Eastern Europe (USSR) fires at 2 fighters: 3 6 — 0 hits")
    assert shown_in_every_format(out, line)
    assert line in section(out["md"], "AA fire on flight paths")
    assert "AA gun" not in section(out["md"], "Combat moves") and "Strategic bombing" not in out["md"]


# --- the inputs of a turn, for a player to check ---------------------------------------------------

SHA = {"orders": "1" * 64, "uk": "2" * 64}
SCHEME_2 = {
    "dice_scheme": 2,
    "inputs": [{"kind": "orders", "power": "germany", "file": "orders/02-germany.yaml", "sha256": SHA["orders"]},
               {"kind": "standing_orders", "power": "uk", "file": "standing/uk.yaml", "sha256": SHA["uk"]}],
    "contributions": [{"player": "Anna <anna@example.org>", "value": "3" * 64}],
}


def test_every_report_lists_the_inputs_of_a_turn_and_how_to_check_them():
    out = reports(turn_start=SCHEME_2)
    for line in ("Orders of Germany: orders/02-germany.yaml, SHA-256 " + SHA["orders"],
                 "Standing orders of UK: standing/uk.yaml, SHA-256 " + SHA["uk"],
                 f"Digest of the decisions (names resolved, notes and layout left out): {HEX}"):
        assert shown_in_every_format(out, line), line
    assert "orders/02-germany.yaml" in section(out["md"], "Inputs of this turn")
    for text in out.values():
        assert "sha256sum FILE" in text


def test_a_players_name_in_the_inputs_is_inert_text():
    out = reports(turn_start=SCHEME_2)
    assert "- Contribution of Anna &lt;anna@example.org&gt; to the dice: " + "3" * 64 in out["md"]
    assert "<li>Contribution of Anna &lt;anna@example.org&gt; to the dice: " in out["html"]
    assert "[*]Contribution of Anna <anna@example.org> to the dice: " in out["bbcode"]


def test_a_game_with_the_first_dice_scheme_has_no_inputs_section():
    out, listed = reports(), reports(turn_start=SCHEME_2)
    for kind in FORMATS:
        assert "Inputs of this turn" not in out[kind] and "sha256sum" not in out[kind]
        assert "Inputs of this turn" in listed[kind]


def test_aa_fire_in_a_battle_says_who_chose_the_aircraft_when_the_edition_lets_the_defender():
    # Europe's aa_casualties option: the aa_fire event carries chosen_by (Revised's never does).
    start = {"type": "battle_start", "battle": "b1", "space": "Karelia S.S.R.", "kind": "land",
             "attacker": "germany", "attackers": {"germany": {"infantry": 1, "fighter": 1, "bomber": 1}},
             "defenders": {"ussr": {"infantry": 1}}}
    fire = {"type": "aa_fire", "space": "Karelia S.S.R.", "power": "ussr", "targets": {"fighter": 1, "bomber": 1},
            "dice": [1, 6], "hits": 1, "casualties": {"bomber": 1}, "battle": "b1", "chosen_by": "ussr"}
    end = {"type": "battle_end", "battle": "b1", "space": "Karelia S.S.R.", "rounds": 1, "winner": "attacker",
           "attackers_left": {"germany": {"infantry": 1, "fighter": 1}}, "defenders_left": {}, "captured": True,
           "odds": {"not_computed": "steps not covered by the exact odds"}}
    out = reports(start, fire, end)
    assert shown_in_every_format(out, "AA fire shoots down 1 bomber (USSR chose)")
    plain = reports(start, {k: v for k, v in fire.items() if k != "chosen_by"}, end)
    assert shown_in_every_format(plain, "AA fire shoots down 1 bomber") and "chose" not in plain["md"]


def test_allied_ships_standing_by_in_a_battle_are_listed_with_the_attackers():
    start = {"type": "battle_start", "battle": "b1", "space": "SZ 5", "kind": "sea", "attacker": "germany",
             "attackers": {"germany": {"fighter": 1}}, "defenders": {"uk": {"submarine": 1}},
             "bystanders": {"japan": {"destroyer": 1}}}
    end = {"type": "battle_end", "battle": "b1", "space": "SZ 5", "rounds": 1, "winner": "defender",
           "attackers_left": {"germany": {"fighter": 1}}, "defenders_left": {"uk": {"submarine": 1}},
           "captured": False, "odds": {"not_computed": "steps not covered by the exact odds"}}
    out = reports(start, end)
    assert all("Germany: 1 fighter; standing by, not firing: Japan: 1 destroyer" in html.unescape(text)
               for text in out.values())


def test_the_orders_not_carried_out_are_listed_with_why():
    # issue 25: every item of the orders that was not carried out, or only partly, is shown with why
    events = [move(phase="noncombat", units={"fighter": 1}, missing={"fighter": 1}, order="noncombat_move[0]"),
              {"type": "default", "power": "germany", "what": "retreat from Karelia S.S.R.", "applied": "no retreat",
               "why": "Belorussia is no longer a friendly space the attackers came from",
               "order": "battles.Karelia S.S.R."},
              {"type": "order_unused", "power": "germany", "order": "casualty_order",
               "reason": "no loss in this turn's battles was chosen by it"},
              {"type": "place_skipped", "power": "germany", "space": "Poland", "units": {"tank": 1},
               "reason": "no complex", "order": "place[0]"}]
    out = reports(*events)
    lines = ["noncombat_move[0]: Germany: 1 fighter of the move Germany → Poland not moved, lost in battle or to AA "
             "fire",
             "battles.Karelia S.S.R.: Germany: retreat from Karelia S.S.R.: no retreat: Belorussia is no longer a "
             "friendly space the attackers came from",
             "casualty_order: not needed: no loss in this turn's battles was chosen by it",
             "place[0]: Germany: 1 tank not placed in Poland: no complex"]
    shown = out["md"].replace("\\", "").split("### Orders not carried out\n", 1)[1].split("\n\n", 1)[0]
    assert shown.splitlines() == [f"- {line}" for line in lines]
    bbcode = out["bbcode"].replace("\u200b", "")  # the forums' tags in player text are broken up
    assert all(f"[*]{line}\n" in bbcode and f"<li>{line}</li>" in html.unescape(out["html"]) for line in lines)
    assert "Defaults applied" not in out["md"]  # a default that decides an item is said with the item


def test_the_battle_header_names_the_defenders_aa_gun():
    state = copy.deepcopy(START)
    state["next_power"] = "germany"
    state["units"]["Karelia S.S.R."]["ussr"]["aa_gun"] = 1
    orders = parse_document("power: germany\ncombat_move:\n  - units: {infantry: 2, tank: 1, fighter: 1}\n"
                            "    from: Eastern Europe\n    path: [Karelia S.S.R.]\n", "orders.yaml")
    log = EventLog()
    log.add("turn_start", round=1, power="germany", turn=2, seed=HEX, seed_commitment=HEX, orders_digest=HEX)
    after = RULES.resolve(copy.deepcopy(state), {"germany": orders}, {}, FixedDice([6, 1, 1, 1, 1, 6, 6, 6, 6]), log)
    log.add("turn_end", round=1, power="germany", next_power="uk", dice_rolled=9, next_seed_commitment=HEX)
    (start,) = log.of_type("battle_start")
    assert start["aa_gun"] == "ussr" and "aa_gun" not in start["defenders"]["ussr"]  # it takes no hits
    md = render_markdown(report_model(state, after, log))
    assert "- Defender: USSR: 3 infantry, 1 fighter; AA gun (USSR)\n" in md
