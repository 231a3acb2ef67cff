"""The example turns' HTML reports, opened in headless Chromium as a player would open them."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest

from pbem.core.game import read_ledger, redraw_game
from pbem.render import render_turn

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# The turns whose reports are opened, by game: the examples do not commit their HTML reports, so
# the `examples` fixture draws these in a copy of each game, as `pbem redraw --turn` does.
REVISED_TURNS = sorted(p.parent.name for p in (EXAMPLES / "aa-revised").glob("*/report.md"))
OPENED = {"aa-revised": REVISED_TURNS, "aa-europe": ["05-germany"], "qmg": ["39-r7-japan"],
          "undaunted-stalingrad": ["03-011-r1-soviet"]}
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def _need_chromium() -> None:
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI must install the Debian packages chromium and chromium-driver")
        pytest.skip("needs the Debian packages chromium and chromium-driver")


def _chromium(scripts: bool = True):
    _need_chromium()
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900"):
        options.add_argument(flag)
    if not scripts:  # as a mail client shows the report
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))


@pytest.fixture(scope="module")
def browser():
    driver = _chromium()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def examples(tmp_path_factory) -> Path:
    """A copy of the example games in which the reports of the turns in `OPENED` are drawn."""
    _need_chromium()  # drawing them takes a while: not for tests that are skipped
    root = tmp_path_factory.mktemp("examples")
    for game, outputs in OPENED.items():
        copy = Path(shutil.copytree(EXAMPLES / game, root / game))
        redraw_game(copy, render_turn, [entry["turn"] for entry in read_ledger(copy) if entry["output"] in outputs])
    return root


def test_the_example_has_reports(examples):
    assert sorted(p.parent.name for p in (examples / "aa-revised").glob("*/report.html")) == REVISED_TURNS
    assert len(REVISED_TURNS) == 5


@pytest.mark.parametrize("turn", REVISED_TURNS)
def test_report_loads_cleanly_and_shows_map_and_battles(browser, examples, turn):
    from selenium.webdriver.common.by import By

    report = examples / "aa-revised" / turn / "report.html"
    browser.get(report.as_uri())
    errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
    assert errors == []
    image = browser.find_element(By.CSS_SELECTOR, "figure img")
    assert image.is_displayed()
    assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) >= 1500
    battles = browser.find_elements(By.CSS_SELECTOR, "section.battle")
    expected = report.read_text(encoding="utf-8").count('<section class="battle"')
    assert len(battles) == expected
    for battle in battles:
        browser.execute_script("arguments[0].scrollIntoView()", battle)
        assert battle.is_displayed()
        for table in battle.find_elements(By.TAG_NAME, "table"):
            assert table.is_displayed() and table.size["height"] > 0
    # nothing is fetched from elsewhere: the page is self-contained
    resources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert [r for r in resources if not r.startswith("data:")] == []


QMG_TURN = Path("qmg") / "39-r7-japan"


@pytest.mark.parametrize("width", [1280, 390])
def test_quartermaster_general_reports_in_the_browser(browser, examples, width):
    """The public report shows the board and the position table; a private report shows its
    country's hand; both fit a phone, the table's rows as cards that keep every column."""
    from selenium.webdriver.common.by import By

    with screen(browser, width):
        browser.get((examples / QMG_TURN / "report.html").as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        image = browser.find_element(By.CSS_SELECTOR, "figure img")
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 1600
        table = browser.find_element(By.CSS_SELECTOR, ".table-wrap table")
        browser.execute_script("arguments[0].scrollIntoView()", table)
        assert len(table.find_elements(By.CSS_SELECTOR, "thead th")) == 7 and table.is_displayed()
        cells = table.find_elements(By.CSS_SELECTOR, "tbody td, tbody th")
        assert len(cells) == 7 * len(table.find_elements(By.CSS_SELECTOR, "tbody tr"))
        assert all(c.is_displayed() and 0 <= c.location["x"] and c.location["x"] + c.size["width"] <= width
                   for c in cells)  # every column of every row, on the screen
        _screenshot(browser, f"qmg-{width}-position")
        assert browser.find_elements(By.CSS_SELECTOR, "section.own") == []
        browser.get((examples / QMG_TURN / "report-japan.html").as_uri())
        own = browser.find_element(By.CSS_SELECTOR, "section.own")
        assert own.is_displayed() and "Hand:" in own.text
        body = browser.execute_script("return document.body.scrollWidth")
        assert body <= width + 1  # only the board scrolls sideways, never the page


UNDAUNTED_TURN = Path("undaunted-stalingrad") / "03-011-r1-soviet"


@pytest.mark.parametrize("width", [1280, 390])
def test_undaunted_reports_in_the_browser(browser, examples, width):
    """The public report shows the tile map, the units and the objectives and fetches nothing; a
    side's private report shows its cards; both fit a phone, tables too, only the map scrolling sideways."""
    from selenium.webdriver.common.by import By

    with screen(browser, width):
        browser.get((examples / UNDAUNTED_TURN / "report.html").as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        image = browser.find_element(By.CSS_SELECTOR, "figure img")
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 1600
        tables = browser.find_elements(By.CSS_SELECTOR, ".table-wrap table")
        assert len(tables) == 3  # each side's units, and the objectives
        for table in tables:
            browser.execute_script("arguments[0].scrollIntoView()", table)
            assert table.is_displayed() and table.size["height"] > 0 and table.size["width"] <= width
        assert "defence 4 + building cover 3 + range 2 = 9" in browser.find_element(By.TAG_NAME, "body").text
        assert browser.find_elements(By.CSS_SELECTOR, "section.own") == []
        resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert [r for r in resources if not r.startswith("data:")] == []
        browser.get((examples / UNDAUNTED_TURN / "report-german.html").as_uri())
        own = browser.find_element(By.CSS_SELECTOR, "section.own")
        assert own.is_displayed() and "Machine Gunner (A)" in own.text
        assert browser.execute_script("return document.body.scrollWidth") <= width + 1


@contextmanager
def screen(browser, width: int, height: int = 900):
    """The browser as a screen `width` CSS pixels wide; below 600, a phone (headless Chromium's
    window cannot be narrower than 500, so a phone is emulated)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        yield
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _screenshot(browser, name: str) -> None:
    """Saved where PBEM_SCREENSHOTS names, to be looked at (the closing notes say who did)."""
    folder = os.environ.get("PBEM_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(folder) / f"{name}.png"))


VIEWER = """
    var stage = document.querySelector('#board .stage'), viewport = document.querySelector('#board .viewport');
    var m = new DOMMatrix(getComputedStyle(stage).transform), v = viewport.getBoundingClientRect();
    return {scale: m.a, x: m.e, y: m.f, width: v.width, height: v.height, left: v.left, top: v.top,
            zoomable: document.getElementById('board').classList.contains('zoomable'),
            stack: document.querySelector('#board .stack').textContent};
"""


def _viewer(browser) -> dict:
    return browser.execute_script(VIEWER)


def _area_centre(browser, name: str) -> tuple[float, float]:
    """A point inside the first outline of space `name`, in image pixels."""
    coords = browser.execute_script(
        "return document.querySelector('#board area[alt=\"' + arguments[0] + '\"]').coords", name)
    xs, ys = [float(c) for c in coords.split(",")[0::2]], [float(c) for c in coords.split(",")[1::2]]
    return sum(xs) / len(xs), sum(ys) / len(ys)


GERMAN_TURN = Path("aa-revised") / "02-germany" / "report.html"


def test_the_board_can_be_zoomed_and_panned_and_shows_a_stack_on_pointing(browser, examples):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    with screen(browser, 1280, 900):
        browser.get((examples / GERMAN_TURN).as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        view = _viewer(browser)
        image = browser.find_element(By.ID, "map-image")
        width = int(image.get_attribute("data-width"))
        assert view["zoomable"] and abs(view["scale"] * width - view["width"]) < 2  # the whole board, page-wide
        _screenshot(browser, "desktop-board")
        for _ in range(6):
            browser.find_element(By.CSS_SELECTOR, "[data-zoom='1.5']").click()
        # at full zoom the image is shown at least pixel for pixel: names of about 11 px and more
        assert _viewer(browser)["scale"] >= 1
        browser.find_element(By.CSS_SELECTOR, "[data-fit='board']").click()
        browser.find_element(By.CSS_SELECTOR, "[data-zoom='1.5']").click()
        before = _viewer(browser)
        viewport = browser.find_element(By.CSS_SELECTOR, "#board .viewport")
        ActionChains(browser).move_to_element(viewport).click_and_hold().move_by_offset(-150, -40).release().perform()
        after = _viewer(browser)
        assert after["x"] == pytest.approx(before["x"] - 150, abs=1)
        assert after["y"] == pytest.approx(before["y"] - 40, abs=1)
        x, y = _area_centre(browser, "Germany")
        offset = (after["x"] + x * after["scale"] - after["width"] / 2,
                  after["y"] + y * after["scale"] - after["height"] / 2)
        ActionChains(browser).move_to_element_with_offset(viewport, round(offset[0]), round(offset[1])).perform()
        stack = _viewer(browser)["stack"]
        assert stack.startswith("Germany") and "infantry" in stack
        _screenshot(browser, "desktop-board-zoomed-stack")
        charts = browser.find_element(By.ID, "charts-image")
        browser.execute_script("arguments[0].scrollIntoView()", charts)
        assert charts.is_displayed() and browser.execute_script("return arguments[0].naturalWidth", charts) > 300
        _screenshot(browser, "desktop-charts")


PHONE_REPORTS = [Path("aa-revised") / "04-japan" / "report.html", Path("aa-europe") / "05-germany" / "report.html"]


@pytest.mark.parametrize("report", PHONE_REPORTS, ids=[r.parent.name for r in PHONE_REPORTS])
def test_a_phone_opens_on_the_action_and_loses_no_column(browser, examples, report):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    with screen(browser, 390, 844):
        browser.get((examples / report).as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        view = _viewer(browser)
        image = browser.find_element(By.ID, "map-image")
        width, height = int(image.get_attribute("data-width")), int(image.get_attribute("data-height"))
        whole = min(view["width"] / width, view["height"] / height)
        assert view["scale"] > 1.5 * whole  # not the whole board: this turn's action, larger
        x0, y0, x1, y1 = map(float, browser.find_element(By.ID, "board").get_attribute("data-action").split(","))
        centre = (view["x"] + (x0 + x1) / 2 * view["scale"], view["y"] + (y0 + y1) / 2 * view["scale"])
        assert 0 <= centre[0] <= view["width"] and 0 <= centre[1] <= view["height"]
        _screenshot(browser, f"phone-{report.parent.parent.name}-{report.parent.name}-board")
        # a tap on a space in view shows its stack
        view = _viewer(browser)
        target = browser.execute_script("""
            var v = arguments[0];
            for (const area of document.querySelectorAll('#board area')) {
                var c = area.coords.split(',').map(Number), x = 0, y = 0, n = c.length / 2;
                for (var i = 0; i < c.length; i += 2) { x += c[i] / n; y += c[i + 1] / n; }
                var px = v.x + x * v.scale, py = v.y + y * v.scale;
                if (px > 40 && px < v.width - 40 && py > 40 && py < v.height - 40) { return [area.alt, px, py]; }
            }
            return null;""", view)
        assert target is not None
        viewport = browser.find_element(By.CSS_SELECTOR, "#board .viewport")
        ActionChains(browser).move_to_element_with_offset(
            viewport, round(target[1] - view["width"] / 2), round(target[2] - view["height"] / 2)).click().perform()
        assert _viewer(browser)["stack"].startswith(target[0])
        assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
        cells = browser.execute_script(
            # a card table's header row is read by screen readers only: its labels are on the cards
            "return Array.from(document.querySelectorAll('table td, table th')).filter(c => !c.closest('.cards thead'))"
            ".map(c => c.getBoundingClientRect())"
            ".map(r => [r.left, r.right])")
        assert cells and all(left >= 0 and right <= 390 for left, right in cells)
        for section in ("#battles", "#standing", "#charts"):
            target = browser.find_elements(By.CSS_SELECTOR, section)
            if target:
                browser.execute_script("arguments[0].scrollIntoView()", target[0])
                _screenshot(browser, f"phone-{report.parent.parent.name}-{report.parent.name}-{section[1:]}")
        charts = browser.find_element(By.ID, "charts-image")
        assert charts.is_displayed() and charts.size["width"] <= 390


def test_without_scripts_the_report_shows_the_whole_board_and_the_charts(examples):
    """A mail client runs no scripts: the board is the whole map at the page's width, with no
    viewer controls, and the charts show."""
    from selenium.webdriver.common.by import By

    driver = _chromium(scripts=False)
    try:
        driver.get((examples / GERMAN_TURN).as_uri())
        figure = driver.find_element(By.ID, "board")
        image = driver.find_element(By.ID, "map-image")
        # the page's script did not run: it would have made the board a viewer with an image map
        assert "zoomable" not in figure.get_attribute("class") and image.get_attribute("usemap") is None
        assert image.is_displayed() and abs(image.size["width"] - figure.size["width"]) <= 1
        assert image.size["height"] == pytest.approx(image.size["width"] * int(image.get_attribute("data-height"))
                                                     / int(image.get_attribute("data-width")), abs=2)
        for hidden in ("#board .controls", "#board figcaption"):  # no buttons, no "drag to move"
            assert not driver.find_element(By.CSS_SELECTOR, hidden).is_displayed()
        assert driver.find_element(By.ID, "charts-image").is_displayed()
        _screenshot(driver, "desktop-no-scripts")
    finally:
        driver.quit()


@pytest.mark.parametrize("report", [QMG_TURN / "report.html", UNDAUNTED_TURN / "report.html"],
                         ids=["qmg", "undaunted"])
def test_the_qmg_and_undaunted_boards_zoom_and_pan_on_a_phone(browser, examples, report):
    """The board viewer the A&A reports use (board_viewer.html.j2) serves these boards too."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    with screen(browser, 390, 844):
        browser.get((examples / report).as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        whole = _viewer(browser)
        assert whole["zoomable"] and abs(whole["scale"] * 1600 - whole["width"]) < 4  # the whole board (in its border)
        browser.find_element(By.CSS_SELECTOR, "[data-zoom='1.5']").click()
        browser.find_element(By.CSS_SELECTOR, "[data-zoom='1.5']").click()
        zoomed = _viewer(browser)
        assert zoomed["scale"] == pytest.approx(whole["scale"] * 2.25, rel=0.01)
        viewport = browser.find_element(By.CSS_SELECTOR, "#board .viewport")
        ActionChains(browser).move_to_element(viewport).click_and_hold().move_by_offset(-60, 0).release().perform()
        assert _viewer(browser)["x"] == pytest.approx(zoomed["x"] - 60, abs=1)
        _screenshot(browser, f"phone-{report.parent.parent.name}-board-zoomed")
        assert browser.execute_script("return document.body.scrollWidth") <= 391
