"""Screenshot an HTML turn report in headless Chromium, to look at it as a player would.

    python tools/screenshot_report.py examples/aa-revised/01-ussr/report.html --out shot.png
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--out", type=Path, default=Path("report.png"))
    parser.add_argument("--width", type=int, default=1280, help="window width; 412 shows a phone")
    parser.add_argument("--height", type=int, default=4000)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        raise SystemExit("needs chromium (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={profile}", f"--window-size={args.width},{args.height}",
                        f"--screenshot={args.out.resolve()}", args.report.resolve().as_uri()],
                       check=True, capture_output=True)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
