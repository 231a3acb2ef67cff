"""The example turns' HTML reports, opened in headless Chromium as a player would open them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

EXAMPLE_GAME = Path(__file__).resolve().parent.parent / "examples" / "aa-revised"
REPORTS = sorted(EXAMPLE_GAME.glob("*/report.html"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI must install the Debian packages chromium and chromium-driver")
        pytest.skip("needs the Debian packages chromium and chromium-driver")
    webdriver = pytest.importorskip("selenium.webdriver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    yield driver
    driver.quit()


def test_the_example_has_reports():
    assert len(REPORTS) == 5


@pytest.mark.parametrize("report", REPORTS, ids=[r.parent.name for r in REPORTS])
def test_report_loads_cleanly_and_shows_map_and_battles(browser, report):
    from selenium.webdriver.common.by import By

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


QMG_TURN = EXAMPLE_GAME.parent / "qmg" / "39-r7-japan"


@pytest.mark.parametrize("width", [1280, 390])
def test_quartermaster_general_reports_in_the_browser(browser, width):
    """The public report shows the board and the position table; a private report shows its
    country's hand; both fit a phone without losing a column of the table."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 900)
    try:
        browser.get((QMG_TURN / "report.html").as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        image = browser.find_element(By.CSS_SELECTOR, "figure img")
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 1600
        table = browser.find_element(By.CSS_SELECTOR, ".table-wrap table")
        browser.execute_script("arguments[0].scrollIntoView()", table)
        assert len(table.find_elements(By.CSS_SELECTOR, "tr:first-child th")) == 7 and table.is_displayed()
        assert browser.find_elements(By.CSS_SELECTOR, "section.own") == []
        browser.get((QMG_TURN / "report-japan.html").as_uri())
        own = browser.find_element(By.CSS_SELECTOR, "section.own")
        assert own.is_displayed() and "Hand:" in own.text
        body = browser.execute_script("return document.body.scrollWidth")
        assert body <= width + 1  # only the table and the board scroll sideways, never the page
    finally:
        browser.set_window_size(1280, 900)


UNDAUNTED_TURN = EXAMPLE_GAME.parent / "undaunted-stalingrad" / "03-011-r1-soviet"


@pytest.mark.parametrize("width", [1280, 390])
def test_undaunted_reports_in_the_browser(browser, width):
    """The public report shows the tile map, the units and the objectives and fetches nothing; a
    side's private report shows its cards; both fit a phone, only the tables scrolling sideways."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 900)
    try:
        browser.get((UNDAUNTED_TURN / "report.html").as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        image = browser.find_element(By.CSS_SELECTOR, "figure img")
        assert browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 1600
        tables = browser.find_elements(By.CSS_SELECTOR, ".table-wrap table")
        assert len(tables) == 3  # each side's units, and the objectives
        for table in tables:
            browser.execute_script("arguments[0].scrollIntoView()", table)
            assert table.is_displayed() and table.size["height"] > 0
        assert "defence 4 + building cover 3 + range 2 = 9" in browser.find_element(By.TAG_NAME, "body").text
        assert browser.find_elements(By.CSS_SELECTOR, "section.own") == []
        resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert [r for r in resources if not r.startswith("data:")] == []
        browser.get((UNDAUNTED_TURN / "report-german.html").as_uri())
        own = browser.find_element(By.CSS_SELECTOR, "section.own")
        assert own.is_displayed() and "Machine Gunner (A)" in own.text
        assert browser.execute_script("return document.body.scrollWidth") <= width + 1
    finally:
        browser.set_window_size(1280, 900)
