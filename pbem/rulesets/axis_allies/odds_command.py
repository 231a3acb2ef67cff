"""`pbem odds`: the Axis & Allies family's battle calculator on the command line, for every edition.

The family adds this command to pbem through the entry point group `pbem.commands` (pyproject.toml), as
a game shipped on its own would; the calculator itself is odds.py, read from the player's words by
odds_request.py. Nothing is imported before the command runs, so that pbem starts as fast without it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

import typer

from pbem.commands import fail, ruleset_or_exit
from pbem.core.errors import InputError
from pbem.rulesets import RULESETS, get_ruleset


def odds(space: Optional[str] = typer.Argument(None, help="With --state: the space whose battle to compute."),
         state: Optional[Path] = typer.Option(None, "--state", help="A state or view file: the defenders of SPACE "
                                              "come from it, the attackers from the --orders' moves into SPACE."),
         orders: Optional[Path] = typer.Option(None, "--orders", help="With --state: the attacker's orders."),
         attacker: Optional[str] = typer.Option(None, help='Attacking units, e.g. "3 infantry, 1 artillery, 2 tanks".'),
         defender: Optional[str] = typer.Option(
             None, help='Defending units, e.g. "4 inf, 1 fighter" (an AA gun here = --aa).'),
         attacker_power: Optional[str] = typer.Option(None, help="The attacking power (default germany)."),
         defender_power: Optional[str] = typer.Option(
             None, help="The defending power (default the attacker's first enemy in turn order)."),
         sea: bool = typer.Option(False, "--sea", help="A sea battle (default: a land battle)."),
         amphibious: bool = typer.Option(False, "--amphibious",
                                         help="The land battle of an amphibious assault (land units cannot retreat)."),
         bombard: str = typer.Option("", help='Ships bombarding in an amphibious assault, e.g. "1 battleship".'),
         aa: bool = typer.Option(False, "--aa", help="The defender has an AA gun in the territory."),
         attacker_tech: str = typer.Option("", help='Attacker\'s developments, e.g. "heavy bombers, super subs".'),
         defender_tech: str = typer.Option("", help='Defender\'s developments, e.g. "jet fighters".'),
         attacker_order: str = typer.Option(
             "", help="Attacker's casualty order: unit types, the first lost first; \"1 tank\" loses at most one tank "
                 "there (default cheapest first)."),
         defender_order: str = typer.Option("", help="Defender's casualty order (default cheapest first)."),
         keep_land_unit: bool = typer.Option(True, help="The attacker loses aircraft before its last land unit."),
         retreat_after: Optional[int] = typer.Option(None, help="The attacker retreats after this many rounds."),
         retreat_below_units: Optional[int] = typer.Option(
             None, help="The attacker retreats when fewer units than this are left."),
         retreat_when_weaker: bool = typer.Option(False, "--retreat-when-weaker",
                                                  help="The attacker retreats when its firepower is below the "
                                                       "defender's."),
         retreat_below_chance: Optional[float] = typer.Option(
             None, help="The attacker retreats when its chance to win from there is below this (0 to 1; exact only)."),
         attacker_submerge: str = typer.Option("never", help="Attacking subs submerge: never, always or when_alone."),
         defender_submerge: str = typer.Option("never", help="Defending subs submerge: never, always or when_alone."),
         simulate: Optional[int] = typer.Option(None, help="Simulate this many battles instead of the exact odds."),
         seed: int = typer.Option(0, help="The dice seed of --simulate."),
         top: int = typer.Option(10, help="How many of the most likely outcomes to list."),
         as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
         ruleset: str = typer.Option("aa-revised", help="Ruleset id: an Axis & Allies edition."),
         ) -> None:
    """The exact odds of a battle: who wins, what survives, what is lost, the likeliest outcomes; given
    --state, SPACE and --orders, of the battle those orders make there (after its sea battle, if any)."""
    if state is not None:
        _odds_on_board(state, space, orders, as_json)
        return
    if attacker is None or defender is None:
        typer.echo("error: say the battle: --attacker and --defender, or --state STATE SPACE --orders ORDERS",
                   err=True)
        raise typer.Exit(code=1)
    from pbem.rulesets.axis_allies.odds import MAX_ODDS_WORK
    from pbem.rulesets.axis_allies.odds_request import OddsRequest
    from pbem.rulesets.axis_allies.reports.odds_text import odds_text
    from pbem.rulesets.axis_allies.ruleset import AxisAllies
    request = OddsRequest(
        attacker, defender, attacker_power, defender_power, sea, amphibious, bombard, aa, attacker_tech,
        defender_tech, attacker_order, defender_order, keep_land_unit, retreat_after, retreat_below_units,
        retreat_when_weaker, retreat_below_chance, attacker_submerge, defender_submerge, simulate, seed, top,
        max_work=MAX_ODDS_WORK)
    rules = ruleset_or_exit(ruleset)
    if not isinstance(rules, AxisAllies):
        editions = ", ".join(i for i in RULESETS if isinstance(get_ruleset(i), AxisAllies))
        typer.echo(f"error: the {ruleset} ruleset has no battle calculator (allowed: {editions})", err=True)
        raise typer.Exit(code=1)
    result = _computed(lambda: rules.odds(request), "add --simulate 10000 for an estimate")
    text = json.dumps(result, indent=2, sort_keys=True) if as_json else odds_text(result, rules.words())
    typer.echo(text, nl=as_json)


def _computed(compute: Callable[[], Any], too_large: str) -> Any:
    """What `compute` returns, or the command's clear error: the request's problems, or a battle beyond
    the exact odds' bound of work (some ten seconds) with `too_large` as the way on."""
    from pbem.rulesets.axis_allies.odds_chain import BattleTooLarge
    try:
        return compute()
    except InputError as exc:
        fail(exc, "no odds computed")
    except BattleTooLarge:
        typer.echo(f"error: too large a battle for exact odds within pbem's bound of work: {too_large}", err=True)
        raise typer.Exit(code=1) from None


def _odds_on_board(state: Path, space: str | None, orders: Path | None, as_json: bool) -> None:
    """The battles of SPACE as the preview of the orders computes them: one path for both."""
    from pbem.core.views import split_view
    from pbem.core.words import percent
    from pbem.core.yamlio import load_document
    from pbem.rulesets.axis_allies.preview import space_odds
    from pbem.rulesets.axis_allies.reports.odds_text import odds_text
    from pbem.rulesets.axis_allies.ruleset import AxisAllies
    if space is None or orders is None:
        missing = " and ".join(m for m, given in (("SPACE", space), ("--orders ORDERS", orders)) if given is None)
        typer.echo(f"error: with --state, the odds need {missing}: the defenders come from the state, the "
                   "attackers from the orders' combat moves into SPACE", err=True)
        raise typer.Exit(code=1)
    view = _computed(lambda: split_view(load_document(state))[0].data, "")
    rules = ruleset_or_exit(view["ruleset"])
    if not isinstance(rules, AxisAllies):
        typer.echo(f"error: the {view['ruleset']} ruleset has no battle calculator", err=True)
        raise typer.Exit(code=1)
    battles = _computed(lambda: space_odds(rules.edition, view, load_document(orders).data, space),
                        "give it as --attacker and --defender, with --simulate 10000")
    if as_json:
        typer.echo(json.dumps(battles, indent=2, sort_keys=True))
        return
    typer.echo("\n".join(odds_text(b, rules.words()) for b in battles), nl=False)
    if "linked_win_at_least" in battles[-1]:
        typer.echo(f"\nWith the sea battle in {battles[0]['space']} first: the assault wins at least "
                   f"{percent(battles[-1]['linked_win_at_least'])} (the sea battle won with every transport afloat "
                   f"{percent(battles[-1]['sea_battle_won_afloat'])}; ends where some cargo sank are not counted)")
