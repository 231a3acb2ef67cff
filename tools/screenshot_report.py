"""Screenshot an HTML turn report in headless Chromium, to look at it as a player would.

    python tools/screenshot_report.py examples/aa-revised/01-ussr/report.html --out shot.png
    python tools/screenshot_report.py examples/aa-revised/04-japan/report.html --width 390 --at '#standing'

The examples do not commit their HTML reports: `pbem redraw examples/aa-revised` draws them first.
A width under 600 is a phone, emulated: headless Chromium's window is never narrower than 500
pixels. Needs chromium, its driver and selenium (`pip install -e '.[test]'`; Debian: apt-get
install chromium chromium-driver).
"""

from __future__ import annotations

import argparse
import shutil
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--out", type=Path, default=Path("report.png"))
    parser.add_argument("--width", type=int, default=1280, help="screen width in CSS pixels; 390 is a phone")
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--at", help="a CSS selector to scroll to first, e.g. '#battles' or '#standing'")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not (chromium and driver_path):
        raise SystemExit("needs chromium and chromedriver (Debian: apt-get install chromium chromium-driver)")
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,900"):
        options.add_argument(flag)
    browser = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=driver_path))
    try:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": args.width, "height": args.height, "deviceScaleFactor": 1, "mobile": args.width < 600})
        browser.get(args.report.resolve().as_uri())
        if args.at:
            browser.execute_script("document.querySelector(arguments[0]).scrollIntoView()", args.at)
        time.sleep(0.3)  # let the board viewer settle on its opening view
        browser.save_screenshot(str(args.out))
    finally:
        browser.quit()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
