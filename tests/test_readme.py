"""The README shows the example game as it is: its excerpt must match the committed report."""

from __future__ import annotations

import re
from pathlib import Path

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


def test_the_readme_map_exists():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", readme):
        assert (ROOT / image).is_file(), image
