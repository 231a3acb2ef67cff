"""The turn report, built from the event log and the states before and after the turn.

`report_model` gathers what happened into plain data; the templates in `templates/` beside it only lay it
out, so the Markdown, HTML and BBCode reports always tell the same story.
"""

from __future__ import annotations

import base64
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pbem.core.dice import seed_check_command
from pbem.core.events import EventLog
from pbem.core.turn import TurnInputs
from pbem.core.words import Words, percent
from pbem.core.history import Point, game_history
from pbem.rulesets.axis_allies.reports.standing import signed, spending, standing_model
from pbem.render.templates import template, within_post_limit
from pbem.rulesets import get_ruleset

STEP_NAMES = {"aa": "AA fire", "bombardment": "Shore bombardment", "submarines": "Submarines",
              "attack": "Attacker fires", "defence": "Defender fires"}


def _move_line(w: Words, e: dict[str, Any]) -> str:
    via = e["path"][:-1]
    text = f"{w.power(e['power'])}: {w.units(e['units'])} {e['from']} → {e['to']}"
    if via:
        text += f" (via {', '.join(via)})"
    if e.get("cargo"):
        text += f", carrying {w.forces(e['cargo'])}"
    if e.get("note"):
        text += f" — {e['note']}"
    return text


def _battle(w: Words, events: list[dict[str, Any]]) -> dict[str, Any]:
    start = events[0]
    rounds: dict[int, dict[str, Any]] = {}
    end = None
    for e in events[1:]:
        if e["type"] == "battle_end":
            end = e
            continue
        number = e.get("round") or 1
        current = rounds.setdefault(number, {"number": number, "rolls": [], "events": []})
        if e["type"] == "roll":
            current["rolls"].append({
                "step": STEP_NAMES.get(e["step"], e["step"]), "side": e["side"],
                "power": w.power(e["power"]), "unit": w.unit(e["unit"], len(e["dice"])),
                "count": len(e["dice"]), "value": e["value"],
                "dice": " ".join(str(d) for d in e["dice"]), "hits": e["hits"]})
        elif e["type"] == "aa_fire":
            current["rolls"].append({
                "step": "AA fire", "side": "defender", "power": w.power(e["power"]),
                "unit": "AA gun", "count": len(e["dice"]), "value": 1,
                "dice": " ".join(str(d) for d in e["dice"]), "hits": e["hits"]})
            if e.get("casualties"):
                chooser = f" ({w.power(e['chosen_by'])} chose)" if "chosen_by" in e else ""
                current["events"].append(f"AA fire shoots down {w.units(e['casualties'])}{chooser}")
        elif e["type"] == "casualties":
            text = w.power(e["power"])
            if e["units"]:
                text += f" loses {w.units(e['units'])}"
            if e.get("damaged"):
                text += f"{';' if e['units'] else ':'} {w.units(e['damaged'])} damaged"
            if e.get("chosen_by"):
                text += f" (chosen by {w.power(e['chosen_by'])}"
                text += f": {e['rule']})" if e.get("rule") else ")"
            current["events"].append(text)
        elif e["type"] == "submerge":
            current["events"].append(f"{w.power(e['power'])} submerges {w.units(e['units'])}")
        elif e["type"] == "retreat":
            where = f"to {e['to']}" if e.get("to") else "(to land in the noncombat move)"
            current["events"].append(f"{w.power(e['power'])} retreats {w.units(e['units'])} {where}")
        elif e["type"] in ("lost", "capture", "default", "ruling"):
            current["events"].append(_other_line(w, e))
    result = "unresolved"
    if end:
        result = {"attacker": f"{w.power(start['attacker'])} wins",
                  "defender": "The defender holds", "none": "Both sides are wiped out"}[end["winner"]]
        if end.get("captured"):
            result += f" and takes {start['space']}"
        result += f" after {end['rounds']} round{'s' if end['rounds'] != 1 else ''}"
    return {
        "id": start["battle"], "space": start["space"], "kind": start["kind"].replace("_", " "),
        "attacker": w.power(start["attacker"]),
        # the attacker's allies' ships in the zone (Europe) are listed with the attackers
        "attackers": w.forces(start["attackers"]) + (
            f"; standing by, not firing: {w.forces(start['bystanders'])}" if start.get("bystanders") else ""),
        "defenders": w.forces(start["defenders"]) + (f"; AA gun ({w.power(start['aa_gun'])})"
                                                      if start.get("aa_gun") else ""),
        "rounds": [rounds[k] for k in sorted(rounds)],
        "result": result,
        "attackers_left": w.forces(end["attackers_left"]) if end else "",
        "defenders_left": w.forces(end["defenders_left"]) if end else "",
        "luck": _luck_line(w.power(start["attacker"]), end.get("odds")) if end else "",
    }


def _luck_line(attacker: str, odds: dict[str, Any] | None) -> str:
    """The battle_end event's odds in words; empty for a log written before battles had odds.

    The luck is a percentile: the share of the outcomes strictly worse for the attacker (one minus the
    event's share as good or better), so a higher figure means a luckier attacker, as players read it."""
    if not odds:
        return ""
    if "not_computed" in odds:
        return f"Odds not computed: {odds['not_computed']}."
    return (f"Odds before the battle: {attacker} wins {percent(odds['attacker_win'])}, both sides wiped out "
            f"{percent(odds['draw'])}, the defender holds {percent(odds['defender_win'])}. "
            f"Luck: {attacker} was luckier than {percent(1 - odds['this_good_or_better'])} of the possible outcomes."
            + (f" Each chance may be up to {percent(odds['error_bound'])} higher (states too unlikely to follow "
               "were left out)." if "error_bound" in odds else ""))


_NOT_DONE = {
    "move_skipped": lambda w, e: f"{w.power(e['power'])}: {w.units(e['units'])} {e['from']} → {e['to']} not moved",
    "move": lambda w, e: f"{w.power(e['power'])}: {w.units(e['missing'])} of the move {e['from']} → {e['to']} not "
                         "moved, lost in battle or to AA fire",
    "place_skipped": lambda w, e: f"{w.power(e['power'])}: {w.units(e['units'])} not placed in {e['space']}",
    "battle_order": lambda w, e: f"battles fought in the order {', '.join(e['spaces'])}",
    "default": lambda w, e: f"{w.power(e['power'])}: {e['what']}: {e['applied']}",
    "order_unused": lambda w, e: "not needed",
}
"""What was left undone of an order item, by the type of the event that says so (a rocket strike not made
is said with the rockets)."""


def _not_carried_out(w: Words, e: dict[str, Any]) -> str | None:
    """The line for an event that says an item of the orders was not carried out, or only partly,
    naming the item and why; None for any other event."""
    why = e.get("reason") or e.get("why")
    if "order" not in e or e["type"] not in _NOT_DONE or not (why or e.get("missing")):
        return None
    return f"{e['order']}: {_NOT_DONE[e['type']](w, e)}" + (f": {why}" if why else "")


def _other_line(w: Words, e: dict[str, Any]) -> str:
    kind = e["type"]
    if kind == "lost":
        return f"{w.power(e['power'])} loses {w.units(e['units'])} in {e['space']}: {e['reason']}"
    if kind == "capture":
        verb = "liberates" if e.get("liberated") else "takes"
        text = f"{w.power(e['by'])} {verb} {e['space']} ({e['ipc']} IPC) from {w.power(e['from'])}"
        if e.get("liberated") and e["to"] != e["by"]:
            text += f"; it returns to {w.power(e['to'])}"
        return text
    if kind == "default":
        return f"{w.power(e['power'])}: {e['what']}: {e['applied']} ({e['why']})"
    if kind == "ruling":
        return f"{e['rule']}: {e['text']}"
    return str(e)


def _aa_fire_text(w: Words, e: dict[str, Any]) -> str:
    text = (f"AA gun in {e['space']} ({w.power(e['power'])}) fires at {w.units(e['targets'])}: "
            f"{' '.join(map(str, e['dice']))} — {e['hits']} hit{'s' if e['hits'] != 1 else ''}")
    if e.get("casualties"):
        text += f", shoots down {w.units(e['casualties'])}"
    return text


def _raid_fire(events: list[dict[str, Any]], i: int) -> bool:
    """Whether events[i] is the AA fire of a bombing raid: the raid's air battle (Europe) or its
    bombing event follows it at once."""
    e, after = events[i], events[i + 1] if i + 1 < len(events) else {}
    return (e["type"] == "aa_fire" and not e.get("battle") and after.get("type") in ("interception", "bombing")
            and after["space"] == e["space"])


def _hits(dice: list[int], hits: int) -> str:
    return f"{' '.join(map(str, dice)) or 'no dice'} — {hits} hit{'s' if hits != 1 else ''}"


def _interception_text(w: Words, e: dict[str, Any]) -> str:
    """A raid's air battle: the interceptors' fire, the escorts' answer and what each side lost."""
    interceptors = ", ".join(f"{w.units(units)} ({w.power(p)})" for p, units in e["interceptors"].items())
    text = f"Raid on {e['space']}: {interceptors} intercept: {_hits(e['dice'], e['hits'])}"
    if e["escorts"]:
        text += f"; escorting {w.units(e['escorts'])} answer: {_hits(e['escort_dice'], e['escort_hits'])}"
    lost = [f"{w.power(e['power'])} loses {w.units(e['raiders_lost'])}"] if e["raiders_lost"] else []
    lost += [f"{w.power(p)} loses {w.units(units)}" for p, units in e["interceptors_lost"].items()]
    return text + (f"; {', '.join(lost)}" if lost else "")


def _raids(w: Words, events: list[dict[str, Any]]) -> list[str]:
    """Each strategic bombing raid: its AA fire (if a gun defends the complex), then its damage."""
    lines = []
    for i, e in enumerate(events):
        if _raid_fire(events, i):
            lines.append(f"Raid on {e['space']}: {_aa_fire_text(w, e)}")
        elif e["type"] == "interception":
            lines.append(_interception_text(w, e))
        elif e["type"] == "bombing":
            # Europe's raids have no cap per bomber: the victim's cash is the only limit
            cap = f" (at most {e['cap_per_bomber']} per bomber)" if "cap_per_bomber" in e else ""
            lines.append(f"{w.power(e['power'])} bombs the industrial complex in {e['space']} with "
                         f"{e['bombers']} bomber{'s' if e['bombers'] != 1 else ''}: rolled "
                         f"{' '.join(map(str, e['dice']))}, damage {e['damage']}{cap}; "
                         f"{w.power(e['victim'])} pays {e['paid']} IPC")
    return lines


def _flak(w: Words, events: list[dict[str, Any]]) -> list[str]:
    """AA fire at aircraft on their flight path, each with the move it hit (the move event before it)."""
    lines, flight = [], None
    for i, e in enumerate(events):
        if e["type"] == "move":
            flight = e
        elif e["type"] == "aa_fire" and not e.get("battle") and not _raid_fire(events, i):
            move = (f"{flight['phase'].capitalize()} move, {w.units(flight['units'])} {flight['from']} → "
                    f"{flight['to']}: ") if flight else ""
            lines.append(move + _aa_fire_text(w, e))
    return lines


def _inputs(w: Words, start: dict[str, Any]) -> list[str]:
    """The files, decisions digest and shared randomness a turn's dice are bound to, for a player to
    check; empty for a game whose turn_start does not list its inputs (dice scheme 1)."""
    lines = []
    for i in start.get("inputs") or []:
        what = f"{'Orders' if i['kind'] == 'orders' else 'Standing orders'} of {w.power(i['power'])}"
        lines.append(f"{what}: {i['file']}, SHA-256 {i['sha256']}")
    if lines:
        lines.append(f"Digest of the decisions (names resolved, notes and layout left out): {start['orders_digest']}")
    lines += [f"Contribution of {c['player']} to the dice: {c['value']}" for c in start.get("contributions") or []]
    return lines


def _position(w: Words, summary: dict[str, Any] | None) -> dict[str, Any] | None:
    if summary is None:
        return None
    powers = [{**row, "power": w.power(row["power"])} for row in summary["powers"]]
    needed = summary.get("needed")
    if needed:  # victory cities (Revised)
        sides = [{**side, "line": f"{side['name']}: {side['count']} victory cities (needed to win: {needed})",
                  "short": f"{side['name']}: {side['count']} (needed to win: {needed})"} for side in summary["sides"]]
    else:  # capitals (Europe)
        sides = [{**side, "line": f"{side['name']}: {side['count']} enemy "
                                  f"capital{'' if side['count'] == 1 else 's'} held", "short": ""}
                 for side in summary["sides"]]
        for side in sides:
            side["short"] = side["line"]
    return {"column": "Victory cities" if needed else "Enemy capitals held", **summary, "powers": powers,
            "sides": sides}


def _middle_east_line(w: Words, e: dict[str, Any]) -> str:
    paid = ", ".join(f"{w.power(p)} {n}" for p, n in e["payments"].items()) or "nobody"
    how = "as the Allies offered" if e["chosen_by"] == "allies" else f"{w.power(e['chosen_by'])} chose the payers"
    unpaid = f"; {e['unpaid']} IPC unpaid: the payers had no more" if e["unpaid"] else ""
    return (f"Middle East: {w.power(e['power'])} holds {', '.join(e['countries'])} (track {e['track']}); paid "
            f"{paid} ({how}){unpaid}")


def _victory(w: Words, e: dict[str, Any]) -> dict[str, Any]:
    """A victory_check event as the reports write it: a label, a sentence, and a short sentence for
    BBCode posts."""
    if "capitals" in e:  # Europe: at the start of the winner's turn (l.613)
        text = (f"{w.power(e['power'])} holds {', '.join(e['capitals'])} since its last turn and its own capital "
                f"{e['own_capital']}: the {e['winner'].title()} win.")
        if e.get("individual_winners"):
            text += f" Individual winner (largest income): {', '.join(w.power(p) for p in e['individual_winners'])}."
        return {"label": f"Victory (start of {w.power(e['power'])}'s turn):", "text": text, "short": text}
    if e["winner"]:
        text, short = f"the {e['winner'].title()} win with {e['needed']} or more victory cities.", \
            f"the {e['winner'].title()} win."
    else:
        text, short = f"no side holds {e['needed']} victory cities; play goes on.", "no winner; play goes on."
    return {"label": f"Victory check (end of round {e['round']}):", "text": text, "short": short}


def report_model(before: dict[str, Any], after: dict[str, Any], log: EventLog,
                 note: str | None = None, history: list[Point] | None = None) -> dict[str, Any]:
    """Everything the report shows, as plain data (no markup). `history`: the game's positions up to
    this turn's (`pbem.core.history.game_history`); without it, the turn's own before and after."""
    events = log.events
    start, end = events[0], events[-1]
    ruleset = get_ruleset(before["ruleset"])
    w = ruleset.words()
    by_battle: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        if e.get("battle"):  # flak on a flight path has battle None and is listed on its own
            by_battle.setdefault(e["battle"], []).append(e)
    battles = [_battle(w, evs) for evs in by_battle.values() if evs[0]["type"] == "battle_start"]
    income = {e["power"]: e for e in log.of_type("income")}
    spent = spending(log)
    treasury = []
    for p in ruleset.powers:
        gained = income[p]["amount"] if p in income else 0
        # what income and spending do not explain: plunder, bombing and rocket damage paid, Middle
        # East payments, a claimed cash advance (the notes under the table say which)
        other = after["treasury"].get(p, 0) - before["treasury"].get(p, 0) + spent.get(p, 0) - gained
        treasury.append({"power": w.power(p), "before": before["treasury"].get(p, 0), "spent": spent.get(p, ""),
                         "income": income[p]["amount"] if p in income else "", "other": signed(other),
                         "after": after["treasury"].get(p, 0)})
    points = history or [Point(start["turn"] - 1, None, None, ruleset.summary(before)),
                         Point(start["turn"], start["round"], start["power"], ruleset.summary(after))]
    return {
        "game": before["game"], "ruleset": ruleset.name,
        # Europe's round 0 is the set-up round of the cash advance (l.342)
        "round": start["round"] or "0 (set-up: the cash advance)",
        "power": w.power(start["power"]), "turn": start["turn"], "note": note,
        "research": [f"{w.power(e['power'])} buys {len(e['dice'])} research "
                     f"{'die' if len(e['dice']) == 1 else 'dice'} ({e['cost']} IPC) for "
                     f"{e['development'].replace('_', ' ')}, needing a {e['target']}: rolled "
                     f"{' '.join(map(str, e['dice']))} — "
                     f"{'breakthrough!' if e['success'] else 'no breakthrough'}"
                     for e in log.of_type("research")],
        "purchases": [f"{w.power(e['power'])} claims {e['amount']} IPC of its side's cash advance "
                      f"({e['left']} IPC left to claim)" for e in log.of_type("cash_advance")]
        + [f"{w.power(e['power'])} buys {w.units(e['units'])} for {e['cost']} IPC "
                      f"({e['treasury_after']} IPC left)" for e in log.of_type("purchase")],
        "combat_moves": [_move_line(w, e) for e in log.of_type("move") if e["phase"] == "combat"],
        "flak": _flak(w, events),
        "bombings": _raids(w, events),
        "rockets": [f"{w.power(e['power'])} fires a rocket from {e['from']} at {e['target']}: rolled "
                    f"{e['die']}, damage {e['damage']}; {w.power(e['victim'])} pays {e['paid']} IPC"
                    for e in log.of_type("rocket")]
        + [f"{w.power(e['power'])}'s rocket strike from {e['from']} at {e['target']} is not made: {e['reason']}"
           for e in log.of_type("rocket_skipped")],
        "battles": battles,
        "captures": [_other_line(w, e) for e in log.of_type("capture")],
        "plunder": [f"{w.power(e['power'])} takes {e['ipc']} IPC from {w.power(e['from'])}'s treasury"
                    for e in log.of_type("plunder")],
        "noncombat_moves": [_move_line(w, e) for e in log.of_type("move") if e["phase"] == "noncombat"]
        + [f"Patriotic War: {w.power(e['power'])} takes over {w.power(e['from'])}'s {w.units(e['units'])} in "
           f"{e['territory']}; they do not move this turn" for e in log.of_type("patriotic_war")],
        "not_carried_out": [line for e in events if (line := _not_carried_out(w, e))],
        "lost": [_other_line(w, e) for e in log.of_type("lost") if not e.get("battle")],
        "placements": [f"{w.power(e['power'])} places {w.units(e['units'])} in {e['space']}"
                       for e in log.of_type("place")],
        "treasury": treasury, "other_money": any(t["other"] for t in treasury),
        "standing": standing_model(w, points, log),
        "income_notes": [f"{w.power(e['power'])}: {e['reason']}" for e in log.of_type("income")
                         if e.get("reason")]
        + [_middle_east_line(w, e) for e in log.of_type("middle_east_payment")],
        "victory": [_victory(w, e) for e in log.of_type("victory_check")],
        "summary": _position(w, ruleset.summary(after)),
        "defaults": [_other_line(w, e) for e in log.of_type("default") if "order" not in e],
        "rulings": sorted({_other_line(w, e) for e in log.of_type("ruling")}),
        "inputs": _inputs(w, start),
        "seed": start["seed"], "commitment": start["seed_commitment"],
        "seed_check": seed_check_command(start["seed"]),
        "next_commitment": end["next_seed_commitment"], "next_turn": start["turn"] + 1,
        "dice_rolled": end["dice_rolled"], "next_power": w.power(end["next_power"]),
        "winner": after.get("winner"),
    }


def render_markdown(model: dict[str, Any]) -> str:
    """The report for Markdown forums."""
    return within_post_limit(template(__package__, "report.md.j2").render(r=model), "Markdown")


def render_bbcode(model: dict[str, Any]) -> str:
    """The report for BBCode forums."""
    return within_post_limit(template(__package__, "report.bbcode.j2").render(r=model), "BBCode")


def render_html(model: dict[str, Any], map_png: bytes | None, charts_svg: bytes | None = None,
                board: dict[str, Any] | None = None) -> str:
    """The self-contained HTML report (map and charts embedded, no external fetches, all text escaped).
    `board`: the map's spaces and this turn's action in image pixels, for the zoomable viewer."""
    def embedded(data: bytes | None) -> str | None:
        return base64.b64encode(data).decode("ascii") if data else None
    return template(__package__, "report.html.j2").render(
        r=model, map_png=embedded(map_png), charts_svg=embedded(charts_svg), board=board)


VIEWER_SCALE = 1.4
"""The HTML report's board is drawn 1.4 times the forum map's 2000 pixels: zoomed to full size, its
names are about 12 pixels high, legible on a 1280-pixel screen."""


def draw_board(state: dict[str, Any], events: list[dict[str, Any]] | None, title: str,
               theatre: str | None = None, scale: float = 1.0):
    """The map of a position as RGB pixels and what is drawn where (`map_info.MapInfo`), or None
    when the ruleset has no board drawing."""
    drawing = get_ruleset(state["ruleset"]).map_data()
    if drawing is None:
        return None
    from pbem.rulesets.axis_allies.reports.map_image import draw_map  # matplotlib is slow to import; only when drawing
    board, graphics = drawing
    return draw_map(state, board, graphics, events, theatre=theatre, title=title, scale=scale)


def render_map_png(state: dict[str, Any], events: list[dict[str, Any]] | None, title: str,
                   theatre: str | None = None) -> bytes | None:
    """The map image of a position as a palette PNG, or None when the ruleset has no board drawing."""
    from pbem.render.palette import palette_image
    drawn = draw_board(state, events, title, theatre)
    return None if drawn is None else palette_image(drawn[0], 256)


def _viewer_data(info) -> dict[str, Any]:
    """What the HTML board viewer needs of the drawing: its size, each space's outlines (image
    pixels, as an image map's coordinates) with its whole stack, and the box of this turn's action."""
    return {"width": info.width_px, "height": info.height_px,
            "action": ",".join(map(str, info.action)) if info.action else None,
            "spaces": [{"name": space.name,
                        "stack": f"{space.name} \u2014 {' | '.join(space.stack) if space.stack else 'no units'}",
                        "polygons": [",".join(f"{x},{y}" for x, y in ring) for ring in space.polygons]}
                       for space in info.spaces]}


def render_reports(before: dict[str, Any], after: dict[str, Any], log: EventLog,
                   inputs: TurnInputs) -> dict[str, bytes]:
    """Every report file of a turn, as `pbem adjudicate` writes them: the three reports, the map in
    full (for the HTML report's viewer) and at forum size, and the charts of the game so far."""
    from pbem.rulesets.axis_allies.reports.charts import render_charts  # matplotlib: only when drawing
    from pbem.render.palette import palette_image
    (orders,) = inputs.submissions.values()  # an Axis & Allies turn is one power's
    history = game_history(inputs, after)
    model = report_model(before, after, log, orders.data.get("note"), history)
    title = f"{model['game']} — round {model['round']}, after {model['power']}'s turn"
    ruleset = get_ruleset(before["ruleset"])
    colours = {p: c["unit"] for p, c in ruleset.map_data()[1]["style"]["powers"].items()}
    pixels, info = draw_board(after, log.events, title, scale=VIEWER_SCALE)
    # PIL quantises and compresses without holding the interpreter: the maps' PNGs are made on a second
    # thread while this one draws the charts and writes the text (each PNG is the same bytes either way)
    with ThreadPoolExecutor(max_workers=1) as pool:
        map_png = pool.submit(palette_image, pixels, 256)
        # 128 colours keep the forum map well under the 300 kB that forums commonly accept
        forum_png = pool.submit(palette_image, pixels, 128, width=round(pixels.shape[1] / VIEWER_SCALE))
        charts_svg, charts_png = render_charts(history, ruleset.words(), colours)
        texts = {"report.md": render_markdown(model).encode("utf-8"),
                 "report.bbcode": render_bbcode(model).encode("utf-8")}
        html = render_html(model, map_png.result(), charts_svg, _viewer_data(info))
        return {**texts, "report.html": html.encode("utf-8"), "charts.png": charts_png, "map.png": map_png.result(),
                "map-forum.png": forum_png.result()}
