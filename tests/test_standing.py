"""Where the war stands: the per-power figures of the reports, their history and the charts, checked
against the example games' own files rather than against the code that computes them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pbem.core.turn import load_turn, resolve_turn
from pbem.render import render_turn
from pbem.rulesets.axis_allies.reports.charts import render_charts
from pbem.rulesets.axis_allies.reports.report import report_model
from pbem.render.templates import POST_LIMIT
from pbem.core.history import Point, game_history
from pbem.rulesets.axis_allies.reports.standing import losses, standing_model
from pbem.rulesets import get_ruleset

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TURNS = [*sorted((EXAMPLES / "aa-revised" / "turns").glob("*.yaml")),
         *sorted((EXAMPLES / "aa-europe" / "turns").glob("*.yaml"))]


def _played(turn: Path):
    inputs = load_turn(turn)
    result = resolve_turn(inputs)
    return inputs, result, game_history(inputs, result.state)


def _state(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _number(text) -> int:
    return int(str(text).replace("\u2212", "-") or 0)


@pytest.mark.parametrize("turn", TURNS, ids=[f"{t.parent.parent.name}/{t.stem}" for t in TURNS])
def test_the_income_table_adds_up(turn):
    inputs, result, history = _played(turn)
    model = report_model(inputs.state.data, result.state, result.events, None, history)
    for row in model["treasury"]:
        assert row["before"] - _number(row["spent"]) + _number(row["income"]) + _number(row["other"]) == row["after"]


def test_money_that_income_and_spending_do_not_explain_is_other():
    inputs, result, history = _played(EXAMPLES / "aa-revised" / "turns" / "02-germany.yaml")
    after = {**result.state, "treasury": {**result.state["treasury"], "uk": result.state["treasury"]["uk"] - 6}}
    model = report_model(inputs.state.data, after, result.events, None, history)
    uk = next(row for row in model["treasury"] if row["power"] == "UK")
    assert uk["other"] == "\u22126" and model["other_money"]


@pytest.mark.parametrize("turn", TURNS, ids=[f"{t.parent.parent.name}/{t.stem}" for t in TURNS])
def test_losses_account_for_every_unit_that_is_gone(turn):
    """Units after = units before - losses + placements, per power and kind, and units that
    changed hands (Europe's Patriotic War) counted with their new owner."""
    inputs, result, _ = _played(turn)
    ruleset = get_ruleset(inputs.state.data["ruleset"])
    before, after = ruleset.summary(inputs.state.data), ruleset.summary(result.state)
    lost = losses(result.events, result.events.events[0]["power"])
    for row_before, row_after in zip(before["powers"], after["powers"]):
        power = row_before["power"]
        expected = dict(row_before["units"])
        for kind, n in lost.get(power, {}).items():
            expected[kind] -= n
        for e in [*result.events.of_type("place"), *result.events.of_type("patriotic_war")]:
            for kind, n in e["units"].items():
                if kind in before["costs"]:
                    change = n if e["power"] == power else -n if e.get("from") == power else 0
                    expected[kind] = expected.get(kind, 0) + change
        assert {k: n for k, n in expected.items() if n} == row_after["units"], power


def test_a_change_is_since_the_powers_own_last_turn():
    """In the USA's first turn of the Revised example, Germany's change is since the state after
    Germany's turn (02-germany), the USA's since the opening, and a side's since the opening."""
    inputs, result, history = _played(EXAMPLES / "aa-revised" / "turns" / "05-usa.yaml")
    ruleset = get_ruleset("aa-revised")
    model = standing_model(ruleset.words(), history, result.events)
    germany = next(p for p in model["powers"] if p["power"] == "Germany")
    then = next(r for r in ruleset.summary(_state(EXAMPLES / "aa-revised" / "02-germany" / "state.yaml"))["powers"]
                if r["power"] == "germany")
    assert germany["since"] == "its turn in round 1"
    assert _number(germany["change"]["value"]) == germany["value"] - then["value"]
    assert _number(germany["change"]["treasury"]) == germany["treasury"] - then["treasury"]
    usa = next(p for p in model["powers"] if p["power"] == "USA")
    opening = next(r for r in ruleset.summary(_state(EXAMPLES / "aa-revised" / "start" / "state.yaml"))["powers"]
                   if r["power"] == "usa")
    assert usa["since"] == "the opening"
    assert _number(usa["change"]["units"]) == usa["units"] - sum(opening["units"].values())
    assert model["changes"].endswith("for a side, since the opening")
    assert [p.turn for p in history] == [0, 1, 2, 3, 4, 5]
    assert [p.power for p in history] == [None, "ussr", "germany", "uk", "japan", "usa"]


def test_without_a_game_folder_the_change_is_the_turns_own():
    inputs, result, _ = _played(EXAMPLES / "aa-revised" / "turns" / "02-germany.yaml")
    ruleset = get_ruleset("aa-revised")
    points = [Point(1, None, None, ruleset.summary(inputs.state.data)),
              Point(2, 1, "germany", ruleset.summary(result.state))]
    model = standing_model(ruleset.words(), points, result.events)
    assert {p["since"] for p in model["powers"]} == {"this turn began"}
    assert model["changes"].startswith("the change in this turn")
    germany = next(p for p in model["powers"] if p["power"] == "Germany")
    assert germany["spent"] == sum(e["cost"] for e in result.events.of_type("purchase"))


def _pbem(game: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([Path(sys.executable).with_name("pbem"), *args], cwd=game, capture_output=True, text=True,
                          timeout=120)


def _adjudicate(game: Path, turn: str) -> subprocess.CompletedProcess:
    return _pbem(game, "adjudicate", "--force", f"turns/{turn}.yaml")


def test_the_state_a_turn_starts_from_changed_after_its_turn_is_a_clear_error(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES / "aa-revised", game)
    changed = game / "03-uk" / "state.yaml"
    changed.write_text(changed.read_text(encoding="utf-8").replace("germany: 42", "germany: 420", 1), encoding="utf-8")
    before = {p: p.read_bytes() for p in (game / "04-japan").iterdir()}
    done = _adjudicate(game, "04-japan")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "03-uk/state.yaml" in done.stderr and "ledger" in done.stderr
    assert {p: p.read_bytes() for p in (game / "04-japan").iterdir()} == before


def test_an_earlier_state_changed_after_its_turn_is_not_read_again_and_verify_names_it(tmp_path):
    """The ledger keeps each turn's summary, so a later turn reads no earlier state (issue 27)."""
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES / "aa-revised", game)
    changed = game / "02-germany" / "state.yaml"
    changed.write_text(changed.read_text(encoding="utf-8").replace("germany: 42", "germany: 420", 1), encoding="utf-8")
    done = _adjudicate(game, "04-japan")
    assert done.returncode == 0, done.stderr
    report = "04-japan/report.md"
    assert (game / report).read_text() == (EXAMPLES / "aa-revised" / report).read_text()
    verified = _pbem(game, "verify", ".")
    assert verified.returncode == 1 and "02-germany/state.yaml" in verified.stderr


def test_the_charts_are_the_same_bytes_for_the_same_history():
    inputs, result, history = _played(EXAMPLES / "aa-europe" / "turns" / "08-usa.yaml")
    ruleset = get_ruleset("aa-europe")
    colours = {p: c["unit"] for p, c in ruleset.map_data()[1]["style"]["powers"].items()}
    svg, png = render_charts(history, ruleset.words(), colours)
    assert render_charts(history, ruleset.words(), colours) == (svg, png)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 100_000
    text = svg.decode("utf-8")
    for title in ("Production per power", "Army value per side", "Enemy capitals held per side", "Germany", "USA"):
        assert title in text
    # self-contained and dated by nothing: its writing is text in a bundled font, nothing fetched
    assert "<dc:date" not in text and "<image" not in text and not re.search(r'href="(?!#)', text)


@pytest.mark.parametrize("game,busiest", [("aa-revised", "02-germany"), ("aa-europe", "05-germany")])
def test_forum_reports_fit_one_post_and_show_the_forum_map_and_charts(game, busiest):
    for output in sorted(p.parent for p in (EXAMPLES / game).glob("*/report.md")):
        md = (output / "report.md").read_text(encoding="utf-8")
        bbcode = (output / "report.bbcode").read_text(encoding="utf-8")
        assert len(md) < POST_LIMIT and len(bbcode) < POST_LIMIT
        assert "(map-forum.png)](map.png)" in md and "(charts.png)" in md
        assert "[url=map.png][img]map-forum.png[/img][/url]" in bbcode and "[img]charts.png[/img]" in bbcode
        assert "Where we stand" in md and "Where we stand" in bbcode
    # the examples do not commit their maps: the one with most on it is drawn (the largest to compress)
    drawn = resolve_turn(load_turn(EXAMPLES / game / "turns" / f"{busiest}.yaml"), render_turn).files
    assert len(drawn["map-forum.png"]) < 300_000


@pytest.mark.parametrize("entry", ['{"turn": "two", "power": "germany", "turn_file": "turns/02-germany.yaml", '
                                   '"output": "02-germany"}',
                                   '{"turn": 2, "power": "germany", "turn_file": "turns/02-germany.yaml", '
                                   '"output": "../../outside"}'])
def test_a_hostile_ledger_is_a_clear_error(tmp_path, entry):
    game = tmp_path / "game"
    shutil.copytree(EXAMPLES / "aa-revised", game)
    lines = (game / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    lines[1] = entry
    (game / "ledger.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _adjudicate(game, "04-japan")
    assert done.returncode == 1 and "Traceback" not in done.stderr and "nothing was written" in done.stderr
    assert "ledger.jsonl:2" in done.stderr or "outside the game folder" in done.stderr


def test_europe_counts_enemy_capitals_for_a_power_as_for_its_side():
    ruleset = get_ruleset("aa-europe")
    state = _state(EXAMPLES / "aa-europe" / "start" / "state.yaml")
    assert all(not p["cities"] for p in ruleset.summary(state)["powers"])  # own capitals are not counted
    state["control"]["Moscow"] = "germany"
    summary = ruleset.summary(state)
    germany = next(p for p in summary["powers"] if p["power"] == "germany")
    assert germany["cities"] == ["Moscow"]
    assert {s["name"]: s["count"] for s in summary["sides"]} == {"Axis": 1, "Allies": 0}
    brief = ruleset.brief(state)  # pbem status and the turn mails count the same way
    assert brief[0].endswith(", 1 enemy capital")
    assert brief[-1] == "Axis 1 enemy capital; Allies 0 enemy capitals (one, with one's own, wins)"


def test_every_turn_has_a_tick_and_each_line_its_own_marker_and_dashes():
    from pbem.rulesets.axis_allies.reports.charts import _panels, _turn_axis
    inputs, result, history = _played(EXAMPLES / "aa-europe" / "turns" / "08-usa.yaml")
    ruleset = get_ruleset("aa-europe")
    panels = _panels(history, ruleset.words(), {})
    labelled, _, every = _turn_axis(history)
    assert sorted([*labelled, *every]) == list(range(len(history)))
    for panel in panels:
        styles = [style for _, _, style in panel.lines]  # the legend row draws each line's own style
        for part in ("marker", "linestyle"):
            assert len({str(style[part]) for style in styles}) == len(styles)
        assert all(style["marker"] not in (None, "None", "") for style in styles)
    assert panels[-1].win == (1, "1 wins (with one's own capital)")



def test_a_turn_with_its_map_layers_kept_imports_no_figure_or_axes(tmp_path):
    """The charts, like the map's changing part, are drawn without matplotlib's Figure and Axes, whose
    import cost more than the drawing: only a map layer drawn anew needs them."""
    turn = EXAMPLES / "aa-revised" / "turns" / "02-germany.yaml"
    program = f"""
import sys
from pathlib import Path
from pbem.core.turn import load_turn, resolve_turn
from pbem.render import render_turn
files = resolve_turn(load_turn(Path({str(turn)!r})), render_turn).files
assert "charts.png" in files and "report.html" in files
print(sorted(m for m in sys.modules if m in ("matplotlib.figure", "matplotlib.axes", "matplotlib.pyplot")))
"""
    env = {**os.environ, "PBEM_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True, env=env,
                           cwd=tmp_path)  # not the checkout, whose folders `python -c` would import first
            for _ in range(2)]  # the first draws the map's layers and keeps them
    assert runs[1].stdout.strip() == "[]"


def test_a_long_game_names_at_most_twelve_rounds_under_its_charts():
    """300 turns: the rounds named every 5th (R5, R10... R60), each turn still ticked, so the labels
    neither overlap nor make the drawing grow with the game's length."""
    from pbem.core.history import Point
    from pbem.rulesets.axis_allies.reports.charts import ROUND_LABELS, _turn_axis
    powers = ("ussr", "germany", "uk", "japan", "usa")
    history = [Point(0, None, None, {})] + [Point(t, (t - 1) // 5 + 1, powers[(t - 1) % 5], {}) for t in range(1, 301)]
    labelled, labels, every = _turn_axis(history)
    assert labels == ["start"] + [f"R{r}" for r in range(5, 61, 5)]
    assert len(labels) - 1 <= ROUND_LABELS
    assert sorted([*labelled, *every]) == list(range(len(history)))
    short = history[:41]  # 8 rounds: every round named, as before
    assert _turn_axis(short)[1] == ["start"] + [f"R{r}" for r in range(1, 9)]
