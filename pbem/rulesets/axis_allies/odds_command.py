"""`pbem odds`: the Axis & Allies family's battle calculator on the command line, for every edition.

The family adds this command to pbem through the entry point group `pbem.commands` (pyproject.toml), as
a game shipped on its own would; the calculator itself is odds.py, read from the player's words by
odds_request.py. Nothing is imported before the command runs, so that pbem starts as fast without it.
"""

from __future__ import annotations

import json
from typing import Optional

import typer

from pbem.commands import fail, ruleset_or_exit
from pbem.core.errors import InputError
from pbem.rulesets import RULESETS, get_ruleset


def odds(attacker: str = typer.Option(..., help='Attacking units, e.g. "3 infantry, 1 artillery, 2 tanks".'),
         defender: str = typer.Option(..., help='Defending units, e.g. "4 inf, 1 fighter" (an AA gun here = --aa).'),
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
    """The exact odds of a battle: who wins, what survives, what is lost, the likeliest outcomes."""
    from pbem.rulesets.axis_allies.odds_request import OddsRequest
    from pbem.rulesets.axis_allies.reports.odds_text import odds_text
    from pbem.rulesets.axis_allies.ruleset import AxisAllies
    request = OddsRequest(
        attacker, defender, attacker_power, defender_power, sea, amphibious, bombard, aa, attacker_tech,
        defender_tech, attacker_order, defender_order, keep_land_unit, retreat_after, retreat_below_units,
        retreat_when_weaker, retreat_below_chance, attacker_submerge, defender_submerge, simulate, seed, top)
    rules = ruleset_or_exit(ruleset)
    if not isinstance(rules, AxisAllies):
        editions = ", ".join(i for i in RULESETS if isinstance(get_ruleset(i), AxisAllies))
        typer.echo(f"error: the {ruleset} ruleset has no battle calculator (allowed: {editions})", err=True)
        raise typer.Exit(code=1)
    try:
        result = rules.odds(request)
    except InputError as exc:
        fail(exc, "no odds computed")
    text = json.dumps(result, indent=2, sort_keys=True) if as_json else odds_text(result, rules.words())
    typer.echo(text, nl=as_json)
