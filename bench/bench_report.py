#!/usr/bin/env python3
"""Time what an Axis & Allies turn report draws: the game's history, the charts, the map and its
two palette images, against the text reports alone.

Issue 14's target: charts and map together add under 0.5 s to a turn in-process. Prints the best
of several runs after one warm-up, for one turn of an example game:

- the text reports (`report_model`, Markdown, BBCode), the part that draws nothing;
- the history of the game so far (`standing.game_history`: every earlier state, read and checked
  once per process, then cached as `pbem verify` uses it);
- the charts (SVG and palette PNG);
- the map drawn at the viewer's scale, then map.png and map-forum.png from its pixels;
- the HTML report with both embedded;
- `render_reports`, everything together.

Compare `render_reports` with bench/bench_turn.py's step (3) on a checkout from before issue 14
(`--root DIR` runs that checkout's bench_turn.py on the same turn, with the checkout's own
`.venv` when it has one: an editable install reads its templates from where it was installed). Run
from the repository root::

    python bench/bench_report.py [TURN_FILE] [--runs 5] [--root DIR]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench_turn import best_of  # noqa: E402  (this folder, the script's own, is on the path)
from pbem.core.turn import load_turn, resolve_turn  # noqa: E402
from pbem.rulesets.axis_allies.reports import standing  # noqa: E402
from pbem.rulesets.axis_allies.reports.charts import render_charts  # noqa: E402
from pbem.render.palette import palette_image  # noqa: E402
from pbem.rulesets.axis_allies.reports.report import (VIEWER_SCALE, draw_board, render_bbcode, render_html, render_markdown,  # noqa: E402
                                render_reports, report_model)
from pbem.rulesets import get_ruleset  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("turn", nargs="?", type=Path,
                        default=REPO / "examples" / "aa-revised" / "turns" / "05-usa.yaml")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", type=Path, help="a checkout from before issue 14, to time its bench_turn.py step (3)")
    args = parser.parse_args()
    inputs = load_turn(args.turn)
    result = resolve_turn(inputs)
    before, after, log = inputs.state.data, result.state, result.events
    ruleset = get_ruleset(before["ruleset"])
    colours = {p: c["unit"] for p, c in ruleset.map_data()[1]["style"]["powers"].items()}
    print(f"{args.turn}: best of {args.runs} after one warm-up")

    def show(label: str, seconds: float) -> None:
        print(f"  {label:<68} {seconds * 1000:8.1f} ms")

    start = time.perf_counter()
    history = standing.game_history(inputs, after)
    show(f"history, first read ({len(history)} positions, each checked)", time.perf_counter() - start)
    seconds, history = best_of(args.runs, lambda: standing.game_history(inputs, after))
    show("history, cached", seconds)
    seconds, model = best_of(args.runs, lambda: report_model(before, after, log, None, history))
    text = best_of(args.runs, lambda: (render_markdown(model), render_bbcode(model)))[0]
    show("text reports: report model, Markdown and BBCode", seconds + text)
    charts, (svg, _) = best_of(args.runs, lambda: render_charts(history, ruleset.words(), colours))
    show("charts (SVG and palette PNG)", charts)
    drawing, (pixels, info) = best_of(args.runs, lambda: draw_board(after, log.events, "t", scale=VIEWER_SCALE))
    show(f"map drawn at {VIEWER_SCALE} times ({pixels.shape[1]} x {pixels.shape[0]} pixels)", drawing)
    full, map_png = best_of(args.runs, lambda: palette_image(pixels, 256))
    show("map.png (256 colours)", full)
    forum = best_of(args.runs, lambda: palette_image(pixels, 128, width=round(pixels.shape[1] / VIEWER_SCALE)))[0]
    show("map-forum.png (2000 pixels, 128 colours)", forum)
    html = best_of(args.runs, lambda: render_html(model, map_png, svg, None))[0]
    show("HTML report with map and charts embedded", html)
    whole, files = best_of(args.runs, lambda: render_reports(before, after, log, inputs))
    show("render_reports: everything", whole)
    show("of which drawn (charts, map, its images, history read once)",
         charts + drawing + full + forum)
    print("  files: " + ", ".join(f"{name} {len(data) // 1024} KiB" for name, data in sorted(files.items())))
    if args.root:
        # the same turn file in that checkout: the outputs it reads must be its own
        turn = args.root / args.turn.resolve().relative_to(REPO)
        python = args.root / ".venv" / "bin" / "python"
        done = subprocess.run([str(python if python.exists() else sys.executable),
                               str(args.root / "bench" / "bench_turn.py"), str(turn),
                               "--runs", str(args.runs)], cwd=args.root, capture_output=True, text=True, check=True)
        line = next(line for line in done.stdout.splitlines() if line.strip().startswith("(3)"))
        print(f"  {args.root}: {line.strip()}")


if __name__ == "__main__":
    main()
