"""The README shows the example game as it is: its excerpt must match the committed report."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _words(text: str) -> str:
    return " ".join(text.split())


def test_the_readme_excerpt_is_from_the_example_report():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    report = _words((ROOT / "examples/aa-revised/02-germany/report.md").read_text(encoding="utf-8"))
    excerpt = "\n".join(line[1:].strip() for line in readme.splitlines() if line.startswith(">"))
    paragraphs = [_words(p) for p in re.split(r"\n\s*\n", excerpt) if p.strip()]
    assert len(paragraphs) >= 5
    for paragraph in paragraphs[1:]:  # the first is the battle's heading, a title in the report
        assert paragraph in report


def _readme_images() -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", (ROOT / "README.md").read_text(encoding="utf-8"))


def test_the_readme_map_exists():
    for image in _readme_images():
        assert (ROOT / image).is_file(), image


def test_the_examples_commit_what_the_readme_shows_and_no_other_drawing():
    """.gitignore keeps the examples' drawings and HTML reports out of git (`pbem redraw` makes them),
    all but the pictures the README shows."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    outputs = [p.parent.relative_to(ROOT).as_posix() for p in sorted(ROOT.glob("examples/*/*/events.jsonl"))]
    drawn = {f"{output}/{name}" for output in outputs
             for name in ("map.png", "map-forum.png", "charts.png", "report.html", "report-germany.html")}
    shown = set(_readme_images())
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *sorted(drawn | shown)], cwd=ROOT,
                             capture_output=True, text=True, check=False).stdout.split()
    assert shown and set(ignored) == drawn - shown
