"""Quartermaster General turn reports: one public report and one private report per country.

Each report is built from one audience's view of the states and from the events that audience may
see (an event with `to` is seen only by the countries it names), so nothing private to one country
can reach another's report or the public one.
"""

from __future__ import annotations

from typing import Any

from pbem.core.dice import seed_check_command
from pbem.core.events import EventLog, seen_by
from pbem.core.turn import TurnInputs
from pbem.core.words import Words
from pbem.render.reports import reports_with_map
from pbem.render.templates import template, within_post_limit
from pbem.rulesets import get_ruleset
from pbem.core.history import game_history

W = Words()
# the countries whose English name takes "the": "the United States' turn", not "United States's turn"
THE = {"united_kingdom", "soviet_union", "united_states"}


def country(c: str | None, start: bool = False) -> str:
    """A country's name as a sentence says it; `start` capitalises "The" at a sentence's start."""
    name = W.power(c)
    return f"{'The' if start else 'the'} {name}" if c in THE else name


def countrys(c: str | None, start: bool = False) -> str:
    """A country's name as a possessive: "Germany's", "the United States'"."""
    name = country(c, start)
    return name + ("'" if name.endswith("s") else "'s")


def a(word: str) -> str:
    """A noun with its indefinite article: "an army", "a navy"."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _cards(names: list[str]) -> str:
    return ", ".join(names) if names else "none"


SOURCES = {"hand": "hand", "deck": "draw deck", "responses": "face-down Responses"}


def event_line(e: dict[str, Any]) -> str | None:
    """One event as a sentence of the report; None for events the report shows elsewhere."""
    who, whose = country(e.get("country"), True), countrys(e.get("country"), True)
    its = country(e.get("country"))
    kind = e["type"]
    if kind == "cards_discarded":
        return f"{who} discards {e['count']} card{'s' if e['count'] != 1 else ''} face down from its " \
               f"{SOURCES[e['source']]} ({e['reason']})."
    if kind == "cards_discarded_named":
        return f"Your discards ({SOURCES[e['source']]}): {_cards(e['cards'])}."
    if kind == "cards_drawn":
        return f"{who} draws {e['count']} card{'s' if e['count'] != 1 else ''} ({e['deck_left']} left in its deck)."
    if kind == "cards_drawn_named":
        return f"You drew: {_cards(e['cards'])}."
    if kind == "card_played":
        basic = e["card_type"] in ("build_army", "build_navy", "land_battle", "sea_battle")
        return f"{who} plays {e['card']}" + ("." if basic else f" ({e['card_type'].replace('_', ' ')}).")
    if kind == "response_laid":
        return f"{who} lays a Response face down."
    if kind == "response_laid_named":
        return f"Your face-down Response: {e['card']}."
    if kind == "effect_used":
        return f"{who} uses {e['card']} ({e['card_type']}) {_trigger(e['trigger'])}: {e['text']}"
    if kind in ("built", "recruited"):
        by = f" (card of {country(e['by'])})" if e["by"] != e["country"] else ""
        return f"{who} {'builds' if kind == 'built' else 'recruits'} {a(e['piece'])} in {e['space']}{by}."
    if kind == "declared_built":
        return f"{who} declares its {e['piece']} in {e['space']} newly built."
    if kind == "battle":
        target = f" against {country(e['target'])}" if e["target"] else " on an empty space"
        return f"{who} conducts a {e['kind']} battle in {e['space']}{target}."
    if kind == "piece_withdrawn":
        return f"{who} takes its {e['piece']} in {e['space']} off the board."
    if kind == "piece_removed":
        return f"{whose} {e['piece']} in {e['space']} is removed ({e['cause']})."
    if kind == "removal_prevented":
        return f"{whose} {e['piece']} in {e['space']} is not removed ({e['why']})."
    if kind == "action_failed":
        where = f" in {e['space']}" if e.get("space") else ""
        return f"{who} cannot {e['action']}{where}: {e['why']}."
    if kind == "vp":
        sign = "+" if e["change"] >= 0 else ""
        why = {"supply_spaces": f"{countrys(e['country'])} supply spaces",
               "no_card": f"{its} can neither play nor discard a card",
               "deck_empty": f"{its} could not discard {e.get('cards')} card(s) for {e.get('what')}: its deck is empty",
               "card": f"{e.get('card')} of {its}"}[e["reason"]]
        return f"{e['team'].title()} {sign}{e['change']} VP ({why}): {e['total']} VP."
    if kind == "victory_step_skipped":
        return f"{who} skips its Victory step: {e['why']}."
    if kind == "card_shown":
        return f"{who} shows {e['card']} ({e['reason']})."
    if kind == "deck_shuffled":
        return f"{who} shuffles its draw deck ({e['cards']} cards)."
    if kind == "round_end":
        return f"Round {e['round']} ends: Axis {e['vp']['axis']} VP, Allies {e['vp']['allies']} VP."
    if kind == "order_result" and e["result"] != "carried out":
        return f"Your order `{e['order']}` was {e['result']}: {e['why']}."
    if kind == "game_over":
        return f"The game is over: the {e['winner'].title()} win ({e['why']})."
    return None


def _trigger(t: dict[str, Any]) -> str:
    """The condition an effect answered, in words."""
    kind = t["event"]
    if kind == "removal":
        return f"as {countrys(t['owner'])} {t['piece']} in {t['space']} was to be removed"
    if kind == "built":
        return f"as {countrys(t['owner'])} {t['piece']} was {t['how']} in {t['space']}"
    if kind == "battle":
        return f"as {country(t['by'])} conducted a {t['kind']} battle in {t['space']}"
    if kind == "play_step":
        return "in its Play step, instead of playing a card"
    return f"at {kind.replace('_', ' ')}"


def game_name(state: dict[str, Any]) -> str:
    """The game's name for titles: a game named only by the ruleset's id reads as the game's own name."""
    return "Quartermaster General" if state["game"] == state["ruleset"] else state["game"]


def unnamed_responses(responses: list[str], standing: dict[str, Any] | None) -> list[str]:
    """The warnings for face-down Responses that no entry of the country's standing orders names: out
    of its turn a country uses an effect only as those entries say, so such a Response is never used."""
    if standing is None:  # the country whose turn it was: the turn used no standing orders of its own
        return []
    named = {str(entry.get("card")).lower() for entry in standing.get("effects") or [] if isinstance(entry, dict)}
    return [f"Your face-down Response {card} is named by no entry under `effects` in your standing orders: out of "
            "your turn it is never used. Name it there (with `when` to choose the moment) to use it."
            for card in responses if card.lower() not in named]


def report_model(ruleset, before: dict[str, Any], after: dict[str, Any], log: EventLog, audience: str,
                 standing: dict[str, Any] | None = None) -> dict[str, Any]:
    """One audience's report; `standing` is its standing orders as this turn used them (a private
    report warns of the face-down Responses they leave unused)."""
    start, end = log.events[0], log.events[-1]
    seen = ruleset.view(after, audience)
    events = [e for e in log.events if seen_by(e, audience)]
    countries = []
    for owner, zones in seen["countries"].items():
        spaces = [space + (" (navy)" if p["piece"] == "navy" else "") for space, here in after["pieces"].items()
                  for p in here if p["country"] == owner]
        countries.append({"name": W.power(owner), "hand": zones["hand"], "deck": zones["deck"],
                          "responses": zones["responses"], "statuses": _cards(zones["statuses"]),
                          "discard": zones["discard"], "top": zones["discard_top"] or "—",
                          "pieces": ", ".join(spaces) or "none"})
    own = seen["countries"].get(audience) if audience in seen["countries"] else None
    return {
        "game": game_name(after), "round": before["round"], "audience": country(audience) if own else None,
        "title": "setup" if before["phase"] == "setup" else f"{countrys(before['next_power'])} turn",
        "turn": start["turn"], "seed": start["seed"], "commitment": start["seed_commitment"],
        "seed_check": seed_check_command(start["seed"]), "state_commitment": end["state_commitment"],
        "awaiting": ", ".join(country(c) for c in end["awaiting"]) or "nobody: the game is over",
        "vp": after["vp"], "winner": after["winner"],
        "lines": [line for e in events if (line := event_line(e))],
        "rulings": [f"{e['name']}: {e['text']}" for e in events if e["type"] == "ruling"],
        "defaults": [f"{country(e['country'], True)}: {e['what']}" for e in events if e["type"] == "default_applied"],
        "countries": countries,
        "own": own and {"hand": _cards(own["hand_cards"]), "responses": _cards(own["response_cards"]),
                        "discard": _cards(own["discard_cards"]),
                        "warnings": unnamed_responses(own["response_cards"], standing)},
    }


def render_formats(model: dict[str, Any], map_png: str | None = None) -> dict[str, str]:
    """The three formats of one audience's report; `map_png` (base64) is embedded in the HTML."""
    return {"md": within_post_limit(template(__package__, "qmg.md.j2").render(r=model), "Markdown"),
            "bbcode": within_post_limit(template(__package__, "qmg.bbcode.j2").render(r=model),
                                        "BBCode"),
            "html": template(__package__, "qmg.html.j2").render(r=model, map_png=map_png)}


def vp_history(inputs: TurnInputs, after: dict[str, Any]) -> list[tuple[int, dict[str, int]]]:
    """Each turn's round and the teams' VP after it, from the game folder's states as the ledger
    checks them (the A&A charts read the same history)."""
    return [(p.round or 1, p.summary["vp"]) for p in game_history(inputs, after)]


def render_reports(before: dict[str, Any], after: dict[str, Any], log: EventLog,
                   inputs: TurnInputs) -> dict[str, bytes]:
    """The public report and each country's private report, in every format, and the board."""
    from pbem.rulesets.qmg.board_image import draw_board  # matplotlib is slow to import; only when drawing
    ruleset = get_ruleset(before["ruleset"])
    public = report_model(ruleset, before, after, log, "public")
    pixels = draw_board(ruleset.pack, after, [e for e in log.events if seen_by(e, "public")],
                        f"{public['game']} — round {public['round']}, {public['title']}", vp_history(inputs, after))

    def formats(audience: str, map_png: str | None) -> dict[str, str]:
        standing = inputs.standing[audience].data if audience in inputs.standing else None
        return render_formats(report_model(ruleset, before, after, log, audience, standing), map_png)
    return reports_with_map(pixels, ruleset.powers, formats)
