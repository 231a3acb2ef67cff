"""The Quartermaster General board as a picture: every space where its `at` point lies (the map is a
cylinder cut along the Americas' Pacific coast), its neighbours joined by lines, the pieces in their
country's colour (unsupplied ones crossed), the straits in the colour of the team they are open to,
this turn's battles and builds ringed, and the VP track. Drawn with matplotlib's Agg backend."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

from pbem.core.words import Words
from pbem.render.palette import palette_png
from pbem.rulesets.qmg.content import COUNTRIES, TEAMS, Pack
from pbem.rulesets.qmg.palette import LEGEND_INK, ROLES
from pbem.rulesets.qmg.supply import axis_armies, supply_chains

COLOURS = {country: role.fill for country, role in ROLES.items()}
TEAM_COLOURS = {"axis": "#444444", "allies": "#1f5fa8"}
LAND, SEA = "#e8dcc0", "#cfe3f2"
EDGE_LONGITUDE = -120  # spaces west of this longitude are drawn at the board's eastern (Pacific) edge
# Europe holds a third of the spaces in a tenth of the world: the drawing widens it (piecewise linear)
LONGITUDES, XS = (-120, -30, 55, 75, 125, 240), (-120, -30, 150, 175, 255, 350)
LATITUDES, YS = (-60, 35, 70), (-60, 35, 112)
W = Words()


def _at(longitude: float, latitude: float) -> tuple[float, float]:
    unrolled = longitude + 360 if longitude < EDGE_LONGITUDE else longitude
    return float(np.interp(unrolled, LONGITUDES, XS)), float(np.interp(latitude, LATITUDES, YS))


def render_board(pack: Pack, state: dict[str, Any], events: list[dict[str, Any]], title: str,
                 vp_history: list[tuple[int, dict[str, int]]] | None = None) -> bytes:
    """The board after a turn; `vp_history`, each turn's (round, team VP) so far, adds the VP chart."""
    board = pack.board
    at = {name: _at(*space.at) for name, space in board.spaces.items()}
    left, right = min(x for x, _ in at.values()) - 12, max(x for x, _ in at.values()) + 12
    figure = Figure(figsize=(16, 8.6), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_axes((0.01, 0.1, 0.98, 0.84))
    axes.set_xlim(left, right)
    axes.set_ylim(-62, 118)
    axes.axis("off")
    axes.set_title(title, fontsize=14)
    lines, stubs = [], []
    for name in board.order:
        for other in sorted(board.neighbours[name], key=board.order.index):
            if board.order.index(other) < board.order.index(name):
                continue
            (x1, y1), (x2, y2) = at[name], at[other]
            if abs(x1 - x2) > 250:  # across the cylinder's edge: a stub to each side of the board
                stubs += [[(x1, y1), (left if x1 < x2 else right, y1)], [(x2, y2), (left if x2 < x1 else right, y2)]]
            else:
                lines.append([(x1, y1), (x2, y2)])
    axes.add_collection(LineCollection(lines, colors="#9a9a9a", linewidths=0.8, zorder=1))
    axes.add_collection(LineCollection(stubs, colors="#8a8a8a", linewidths=0.8, linestyles="dotted", zorder=1))
    axis_on = axis_armies(state["pieces"])
    straits: list[tuple[str, str, str]] = []
    for strait in board.straits:
        team = "axis" if strait["anchor"] in axis_on else "allies"
        (x1, y1), (x2, y2) = (at[s] for s in strait["seas"])
        axes.plot([x1, x2], [y1, y2], color=TEAM_COLOURS[team], lw=2.2, ls=(0, (4, 2)), zorder=2)
        straits.append((strait["anchor"], f"strait open to the {team.title()}", TEAM_COLOURS[team]))
    names = board.order
    xs, ys = [at[n][0] for n in names], [at[n][1] for n in names]
    spaces = [board.spaces[n] for n in names]
    axes.scatter(xs, ys, s=520, zorder=3, c=[LAND if s.kind == "land" else SEA for s in spaces],
                 edgecolors=[COLOURS[s.home] if s.home else "#7a7a7a" for s in spaces],
                 linewidths=[3 if s.home else 0.8 for s in spaces])
    stars = [at[n] for n in names if board.spaces[n].star]
    axes.scatter([x + 3.2 for x, _ in stars], [y + 3.0 for _, y in stars], s=70, marker="*", c="#d4a017",
                 edgecolors="#6b5200", linewidths=0.5, zorder=5)
    _rings(axes, at, events)
    labels = [(n, n, "black") for n in names] + straits
    for (x, y, ha, va), (_, text, colour) in zip(label_places(at, labels), labels):
        axes.text(x, y, text, ha=ha, va=va, fontsize=7, color=colour, zorder=6)
    supplied = {c: supply_chains(board, state["pieces"], c, state["options"]) for c in COUNTRIES}
    _supply_lines(axes, at, state["pieces"], supplied)
    drawn: dict[str, list[list[Any]]] = {"army": [[], [], [], []], "navy": [[], [], [], []]}
    cut_off: list[tuple[float, float]] = []
    for name, here in state["pieces"].items():
        x, y = at[name]
        for i, piece in enumerate(here):
            px = x - 2.2 * (len(here) - 1) / 2 + 2.2 * i
            points = drawn[piece["piece"]]
            points[0].append(px)
            points[1].append(y)
            points[2].append(COLOURS[piece["country"]])
            points[3].append(piece["country"])
            if name not in supplied[piece["country"]]:
                cut_off.append((px, y))
    for piece, marker in (("army", "s"), ("navy", "^")):
        px, py, colours, owners = drawn[piece]
        if px:
            axes.scatter(px, py, s=95, marker=marker, c=colours, edgecolors="black", linewidths=0.6, zorder=7)
            _owner_letters(axes, px, py, owners, piece)
    if cut_off:
        axes.scatter([x for x, _ in cut_off], [y for _, y in cut_off], s=60, marker="x", c="white",
                     linewidths=1.4, zorder=8)
    _legend(figure, state, events)
    if vp_history:
        _vp_chart(figure, vp_history)
    return palette_png(figure)


def _owner_letters(axes: Any, xs: list[float], ys: list[float], owners: list[str], piece: str) -> None:
    """Each piece's owner by its letter, so that colour is not the only clue (a navy's letter sits low,
    in the triangle's wide part)."""
    for x, y, owner in zip(xs, ys, owners):
        axes.text(x, y - (0.35 if piece == "navy" else 0), ROLES[owner].letter, ha="center", va="center",
                  fontsize=5, fontweight="bold", color=ROLES[owner].ink, zorder=7.5)


# where a label may sit around its space's point (offset, alignment), the first that is clear wins
PLACES = ((0, -4.6, "center", "top"), (0, 4.6, "center", "bottom"), (5.6, 0, "left", "center"),
          (-5.6, 0, "right", "center"), (0, -9.5, "center", "top"), (0, 9.5, "center", "bottom"))
CHAR_WIDTH, LINE_HEIGHT, DOT = 1.55, 2.6, (5.2, 4.4)  # a 7-point letter and a space's dot, in board units


def label_places(at: dict[str, tuple[float, float]], labels: list[tuple[str, str, str]]
                 ) -> list[tuple[float, float, str, str]]:
    """Where each (space, text, colour) label is drawn: the first place around its space whose text
    overlaps no space's dot and no label placed before it (else the first place)."""
    taken = [(x - DOT[0], y - DOT[1], x + DOT[0], y + DOT[1]) for x, y in at.values()]
    chosen = []
    for space, text, _ in labels:
        x, y = at[space]
        boxes = [_box(x + dx, y + dy, ha, va, len(text)) for dx, dy, ha, va in PLACES]
        clear = [i for i, box in enumerate(boxes) if not any(_overlap(box, t) for t in taken)]
        i = clear[0] if clear else 0
        taken.append(boxes[i])
        dx, dy, ha, va = PLACES[i]
        chosen.append((x + dx, y + dy, ha, va))
    return chosen


def _box(x: float, y: float, ha: str, va: str, letters: int) -> tuple[float, float, float, float]:
    width = CHAR_WIDTH * letters
    left = {"center": x - width / 2, "left": x, "right": x - width}[ha]
    bottom = {"top": y - LINE_HEIGHT, "bottom": y, "center": y - LINE_HEIGHT / 2}[va]
    return left, bottom, left + width, bottom + LINE_HEIGHT


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _supply_lines(axes: Any, at: dict[str, tuple[float, float]], pieces: dict[str, list[dict[str, str]]],
                  chains: dict[str, dict[str, list[str]]]) -> None:
    """Each supplied piece's chain back to its supply source, in its country's colour, each country's
    lines a little apart so that two chains through the same spaces both show."""
    for i, (country, supplied) in enumerate(chains.items()):
        shift = (i - (len(chains) - 1) / 2) * 0.7
        links = {tuple(chain[j:j + 2]) for space, chain in supplied.items()
                 if any(p["country"] == country for p in pieces.get(space, [])) for j in range(len(chain) - 1)}
        lines = [[(at[a][0] + shift, at[a][1] + shift), (at[b][0] + shift, at[b][1] + shift)]
                 for a, b in sorted(links) if abs(at[a][0] - at[b][0]) < 250]  # none drawn across the cut
        axes.add_collection(LineCollection(lines, colors=COLOURS[country], linewidths=2.4, alpha=0.75, zorder=2))


def _vp_chart(figure: Figure, history: list[tuple[int, dict[str, int]]]) -> None:
    """Each team's VP after every turn of the game so far, in the empty south-west of the board, a
    tick at each round's first turn."""
    chart = figure.add_axes((0.04, 0.13, 0.2, 0.12))
    turns = range(len(history))
    for team, style in (("axis", "-"), ("allies", "--")):
        chart.plot(turns, [vp[team] for _, vp in history], color=TEAM_COLOURS[team], ls=style, lw=1.6,
                   label=team.title())
    starts = [i for i, (r, _) in enumerate(history) if i == 0 or history[i - 1][0] != r]
    chart.set_xticks(starts, [str(history[i][0]) for i in starts], fontsize=6)
    chart.tick_params(axis="y", labelsize=6)
    chart.set_xlabel("round", fontsize=6, labelpad=1)
    chart.set_title("VP over the game", fontsize=7, pad=2)
    chart.legend(fontsize=6, loc="upper left", frameon=False)


def _rings(axes: Any, at: dict[str, tuple[float, float]], events: list[dict[str, Any]]) -> None:
    """This turn's battles and builds ringed; a battle's ring is the wider, so a space both built in and
    fought over shows both rings."""
    for kinds, colour, style, size in ((("battle",), "#c62828", "--", 1500), (("built", "recruited"), "#2e7d32",
                                                                           "-", 1000)):
        ringed = sorted({e["space"] for e in events if e["type"] in kinds and e.get("space") in at})
        if ringed:
            axes.scatter([at[n][0] for n in ringed], [at[n][1] for n in ringed], s=size, facecolors="none",
                         edgecolors=colour, linewidths=2, linestyles=style, zorder=2)


def shown_round(state: dict[str, Any], events: list[dict[str, Any]]) -> int:
    """The round this turn was played in: a turn that ends a round leaves the state in the next one."""
    return min((e["round"] for e in events if e["type"] == "round_end"), default=state["round"])


def _legend(figure: Figure, state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """The countries' colours and letters, the symbols, and the VP track with the round."""
    for i, country in enumerate(COUNTRIES):
        figure.text(0.02 + 0.105 * i, 0.075, "■", fontsize=10, color=COLOURS[country], va="center")
        figure.text(0.031 + 0.105 * i, 0.075, f"{ROLES[country].letter} {W.power(country)} "
                    f"({TEAMS[country].title()})", fontsize=8, color=LEGEND_INK, va="center")
    figure.text(0.66, 0.075, "■ army   ▲ navy   × unsupplied   ★ supply space   thick lines: supply chains\n"
                "rings: battle (red, dashed), built or recruited (green)", fontsize=7.5, va="center")
    track = figure.add_axes((0.25, 0.018, 0.5, 0.035))
    axis, allies = state["vp"]["axis"], state["vp"]["allies"]
    total = max(max(axis, 0) + max(allies, 0), 1)
    track.barh([0], [max(axis, 0)], color=TEAM_COLOURS["axis"])
    track.barh([0], [max(allies, 0)], left=[max(axis, 0)], color=TEAM_COLOURS["allies"])
    track.set_xlim(0, total)
    track.axis("off")
    track.text(0, 0, f" Axis {axis} VP", va="center", ha="left", color="white", fontsize=9, fontweight="bold")
    track.text(total, 0, f"Allies {allies} VP ", va="center", ha="right", color="white", fontsize=9,
               fontweight="bold")
    figure.text(0.76, 0.035, f"round {shown_round(state, events)} of 20; sudden victory at a lead of 30", fontsize=8,
                va="center")
