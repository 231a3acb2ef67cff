"""`pbem odds` for an Axis & Allies edition: a battle as a player types it becomes the combat package's
Battle and BattleOrders, and the odds of odds.py become plain data.

Names are read with the tables the orders use (units.py, board.py), so `tanks`, `armour`, `AA gun`,
`bb`, `jets` or `Soviet Union` mean here what they mean in an orders file, and an unknown name gets
the same suggestion.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pbem.core.errors import InputError, Problem
from pbem.core.words import chance
from pbem.rulesets.axis_allies.combat.battle import KINDS, Battle, Piece, Side, check_battle, count_units, make_pieces
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders, CasualtyOrder, Entry, PowerOrders, RetreatRule
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.names import a, normalise
from pbem.rulesets.axis_allies.odds import Odds, battle_odds, simulate
from pbem.rulesets.axis_allies.odds_chain import StepsNotCovered


@dataclass(frozen=True)
class OddsRequest:
    """A battle between two stacks as a player types it for `pbem odds`.

    Unit lists, developments and casualty orders are the player's text ("3 infantry, 2 tanks");
    the ruleset reads them with its own names and says what is wrong with them. None or empty
    means the ruleset's default. Retreat rules are the attacker's (any one met is enough).
    """

    attacker: str
    defender: str
    attacker_power: str | None = None
    defender_power: str | None = None
    sea: bool = False
    amphibious: bool = False
    bombard: str = ""
    aa_gun: bool = False
    attacker_developments: str = ""
    defender_developments: str = ""
    attacker_casualty_order: str = ""
    defender_casualty_order: str = ""
    keep_land_unit: bool = True
    retreat_after: int | None = None
    retreat_below_units: int | None = None
    retreat_when_weaker: bool = False
    retreat_below_chance: float | None = None
    attacker_submerge: str = "never"
    defender_submerge: str = "never"
    simulate: int | None = None
    """Estimate from this many simulated battles instead of computing exactly."""
    seed: int = 0
    top: int = 10
    """How many of the most likely outcomes to list."""
    max_work: int | None = None
    """The exact odds' bound of work (odds.py); beyond it `BattleTooLarge` (None: no bound)."""


WHERE = "command line"  # the "file" of a Problem about an option
MAX_UNITS_A_SIDE = 1_000
"""More units than any board holds on one side of a battle: a request beyond it is refused before any
work (a million units would take the memory of a million pieces)."""
MAX_SIMULATED_UNITS = 3_000_000
"""Bound on `--simulate`'s work, in simulated battles times the units in them: some two or three minutes
on a 2-core machine (10,000 battles of 12 against 12 take about 13 s)."""
BATTLE_DEVELOPMENTS = ("jet_fighters", "super_submarines", "heavy_bombers", "combined_bombardment")
SUBMERGE = ("never", "always", "when_alone")
DIGITS = 9  # decimals of the probabilities printed: exact to well below that, and stable to print
OUTCOME_WINNERS = {"attacker": "attacker", "defender": "defender", "none": "draw"}

_COUNT_FIRST = re.compile(r"^(\d+)\s*x?\s*(\D.*)$", re.IGNORECASE)  # "3 tanks", "3x tanks"
_COUNT_LAST = re.compile(r"^(.*\D)\s*x\s*(\d+)$", re.IGNORECASE)  # "tanks x3"


def _count_and_name(item: str) -> tuple[int | None, str]:
    """`3 tanks`, `3x tanks` or `tanks x3` as (3, tanks); a bare name has no number (None)."""
    first, last = _COUNT_FIRST.match(item), _COUNT_LAST.match(item)
    if first:
        return int(first.group(1)), first.group(2).strip()
    if last:
        return int(last.group(2)), last.group(1).strip()
    return None, item


class _Reader:
    """Reads the options of a request, collecting every problem instead of stopping at the first."""

    def __init__(self, edition: Edition) -> None:
        self.problems: list[Problem] = []
        self.edition = edition
        self.table = edition.units
        self.board = edition.board

    def problem(self, option: str, message: str, allowed: str | None = None) -> None:
        self.problems.append(Problem(WHERE, None, option, message, allowed))

    @staticmethod
    def items(text: str) -> list[str]:
        return [item.strip() for item in text.split(",") if item.strip()]

    def unit_type(self, name: str, option: str) -> str | None:
        unit = self.table.unit_names.get(name)
        if unit is None:
            self.problem(option, *self.table.unit_names.unknown_message(name))
        return unit

    def units(self, text: str, option: str) -> Counter[str]:
        """`3 infantry, 1 artillery, tanks x2, bb` as {type: n}; a bare name is one unit."""
        counts: Counter[str] = Counter()
        for item in self.items(text):
            n, name = _count_and_name(item)
            unit = self.unit_type(name, option)
            if unit is not None and n != 0:
                counts[unit] += 1 if n is None else n
        return counts

    def casualty_order(self, text: str, option: str) -> tuple[Entry, ...]:
        """A casualty order: unit types and counted types (`1 tank`), the first lost first."""
        entries: list[Entry] = []
        for item in self.items(text):
            n, name = _count_and_name(item)
            unit = self.unit_type(name, option)
            if unit is None:
                continue
            if KINDS[unit] == "static":
                self.problem(option, f"{a(unit.replace('_', ' '))} is never a casualty in a battle",
                             ", ".join(self.edition.combat.casualty_order))
            elif n == 0:
                self.problem(option, f"{item!r} loses no unit first",
                             f"a number of 1 or more, e.g. 1 {unit.replace('_', ' ')}")
            elif n is not None:
                entries.append((unit, n))
            elif unit not in entries:  # a bare type twice: the second would take nothing
                entries.append(unit)
        return tuple(entries)

    def developments(self, text: str, option: str) -> frozenset[str]:
        found = set()
        for item in self.items(text):
            development = self.table.development_names.get(item)
            if development is None:
                self.problem(option, *self.table.development_names.unknown_message(item))
            elif development not in BATTLE_DEVELOPMENTS:
                self.problem(option, f"{development} does not change a battle", ", ".join(BATTLE_DEVELOPMENTS))
            else:
                found.add(development)
        return frozenset(found)

    def power(self, text: str, option: str) -> str | None:
        power = self.board.power_table.get(text)
        if power is None:
            self.problem(option, *self.board.power_table.unknown_message(text))
        return power

    def choice(self, text: str, option: str, allowed: tuple[str, ...]) -> str:
        chosen = next((c for c in allowed if normalise(c) == normalise(text)), None)
        if chosen is None:
            self.problem(option, f"unknown choice {text!r}", ", ".join(allowed))
        return chosen or allowed[0]


def _powers(r: _Reader, request: OddsRequest) -> tuple[str | None, str | None]:
    """The attacking and the defending power (default: germany, and its first enemy in turn order)."""
    attacker = r.power(request.attacker_power or "germany", "--attacker-power")
    if request.defender_power:
        defender = r.power(request.defender_power, "--defender-power")
    else:
        defender = next((p for p in r.board.powers if r.board.enemies(p, attacker)), None)
    if attacker is not None and defender is not None and not r.board.enemies(attacker, defender):
        r.problem("--defender-power", f"{defender} is not an enemy of {attacker}",
                  ", ".join(p for p in r.board.powers if r.board.enemies(p, attacker)))
    return attacker, defender


def read_battle(request: OddsRequest, edition: Edition) -> tuple[Battle, BattleOrders]:
    """The battle and the decisions ``request`` describes in ``edition``; `InputError` with every
    problem otherwise."""
    r = _Reader(edition)
    rules = edition.combat
    kind = "sea" if request.sea else "land"
    attacker, defender = _powers(r, request)
    attackers = r.units(request.attacker, "--attacker")
    defenders = r.units(request.defender, "--defender")
    bombarding = r.units(request.bombard, "--bombard")
    developments = {"attacker": r.developments(request.attacker_developments, "--attacker-tech"),
                    "defender": r.developments(request.defender_developments, "--defender-tech")}
    aa_gun = request.aa_gun
    if kind == "land" and defenders.pop("aa_gun", 0):  # the territory's AA gun, listed with its defenders
        aa_gun = True
    _check_units(r, kind, attackers, defenders, bombarding)
    _check_size(r, request, {"--attacker": attackers, "--defender": defenders, "--bombard": bombarding})
    if not attackers and not any(p.field == "--attacker" for p in r.problems):
        r.problem("--attacker", 'the attacker needs at least one unit, e.g. "3 infantry, 1 artillery, 2 tanks"')
    if aa_gun and kind == "sea":
        r.problem("--aa", "no AA gun fires in a sea battle")
    if request.amphibious and kind == "sea":
        r.problem("--amphibious", "marks the land part of an amphibious assault; its sea battle is an "
                  "ordinary --sea battle")
    if bombarding and not request.amphibious:
        r.problem("--bombard", "ships bombard only in an amphibious assault: add --amphibious")
    if ("destroyer" in bombarding and "combined_bombardment" not in developments["attacker"]
            and not rules.destroyers_bombard):
        r.problem("--bombard", "destroyers bombard only with combined_bombardment (add it to --attacker-tech)")
    submerge = {side: r.choice(text, f"--{side}-submerge", SUBMERGE)
                for side, text in (("attacker", request.attacker_submerge), ("defender", request.defender_submerge))}
    for side, policy in submerge.items():
        if kind == "land" and policy != "never":
            r.problem(f"--{side}-submerge", "submarines submerge only in sea battles")
    casualties = {side: CasualtyOrder(r.casualty_order(text, f"--{side}-order"),
                                      keep_land_unit=request.keep_land_unit, label=f"the {side}'s casualty order")
                  for side, text in (("attacker", request.attacker_casualty_order),
                                     ("defender", request.defender_casualty_order))}
    _check_numbers(r, request)
    if r.problems or attacker is None or defender is None:
        raise InputError(r.problems)
    first_defender = 1 + sum(attackers.values())
    battle = Battle(
        "odds", "the battle", kind, attacker, make_pieces(rules, {attacker: attackers}),
        make_pieces(rules, {defender: defenders}, first_defender),
        aa_gun=defender if aa_gun else None,
        bombarding=make_pieces(rules, {attacker: bombarding}, first_defender + sum(defenders.values())),
        amphibious=request.amphibious,
        developments={attacker: developments["attacker"], defender: developments["defender"]},
        bombardment_targets=edition.option("bombardment_targets").default,
        partial_retreat=edition.option("partial_retreat").default,
        aa_casualties=edition.option("aa_casualties").default
        if any(o.name == "aa_casualties" for o in edition.options) else None, rules=rules)
    try:
        check_battle(battle)
    except ValueError as exc:
        raise InputError([Problem(WHERE, None, "battle", str(exc))]) from None
    orders = BattleOrders(
        PowerOrders(casualties["attacker"], submerge["attacker"]),  # type: ignore[arg-type]
        {defender: PowerOrders(casualties["defender"], submerge["defender"])},  # type: ignore[arg-type]
        RetreatRule(request.retreat_after, request.retreat_below_units, request.retreat_when_weaker))
    return battle, orders


def _check_units(r: _Reader, kind: str, attackers: Counter[str], defenders: Counter[str],
                 bombarding: Counter[str]) -> None:
    """Units that cannot stand on this battle's board, or bombard."""
    for option, counts in (("--attacker", attackers), ("--defender", defenders)):
        for unit in counts:
            name = unit.replace("_", " ")
            if unit == "aa_gun":
                r.problem(option, "an AA gun does not attack" if option == "--attacker" else
                          "no AA gun fires in a sea battle")
            elif KINDS[unit] == "static":
                r.problem(option, f"{a(name)} does not fight in battles")
            elif KINDS[unit] != "air" and KINDS[unit] != kind:
                hint = " (add --sea for a sea battle)" if kind == "land" else ""
                r.problem(option, f"{a(name)} cannot fight in a {kind} battle{hint}")
    for unit in bombarding:
        if unit not in ("battleship", "destroyer"):
            r.problem("--bombard", f"{a(unit.replace('_', ' '))} cannot bombard", "battleship, destroyer")


def _check_size(r: _Reader, request: OddsRequest, sides: dict[str, dict[str, int]]) -> None:
    """Every request's work bounded: units a side, and simulated battles times their units."""
    for option, counts in sides.items():
        if sum(counts.values()) > MAX_UNITS_A_SIDE:
            r.problem(option, f"{sum(counts.values()):,} units: more than any board holds on one side",
                      f"at most {MAX_UNITS_A_SIDE:,} units a side")
    units = sum(sum(counts.values()) for counts in sides.values())
    if request.simulate is not None and units and request.simulate * units > MAX_SIMULATED_UNITS:
        r.problem("--simulate", f"{request.simulate:,} battles of {units} units would take more than a few "
                  f"minutes (the bound is {MAX_SIMULATED_UNITS:,} simulated units)",
                  f"at most --simulate {MAX_SIMULATED_UNITS // units:,} for this battle")


def _check_numbers(r: _Reader, request: OddsRequest) -> None:
    for option, value in (("--retreat-after", request.retreat_after),
                          ("--retreat-below-units", request.retreat_below_units),
                          ("--simulate", request.simulate), ("--top", request.top)):
        if value is not None and value < 1:
            r.problem(option, f"must be at least 1, not {value}")
    chance = request.retreat_below_chance
    if chance is not None and not 0 <= chance <= 1:
        r.problem("--retreat-below-chance", f"is a probability from 0 to 1, not {chance}")
    if chance is not None and request.simulate is not None:
        r.problem("--retreat-below-chance", "is worked out from the exact odds and cannot be simulated; "
                  "use another retreat rule with --simulate")


def odds_data(request: OddsRequest, edition: Edition) -> dict[str, Any]:
    """The odds of the battle ``request`` describes, exact or simulated, as plain JSON data
    (the keys of :meth:`pbem.core.ruleset.Ruleset.odds`)."""
    battle, orders = read_battle(request, edition)
    if request.simulate:
        odds = simulate(battle, orders, request.simulate, request.seed, top=request.top)
    else:
        try:
            odds = battle_odds(battle, orders, retreat_below=request.retreat_below_chance, top=request.top,
                               max_work=request.max_work)
        except StepsNotCovered as exc:
            raise InputError([Problem(WHERE, None, "--simulate", f"{exc} (add --simulate 10000)")]) from None
    retreat_rule = orders.retreat != RetreatRule() or request.retreat_below_chance is not None
    return _as_data(battle, next(iter(orders.defenders)), odds, retreat_rule, request.seed)


def error_bound(dropped: float) -> float:
    """The probability the exact odds left out, rounded up to two significant digits (a bound
    that still holds once printed)."""
    if dropped <= 0:
        return 0.0
    exponent = math.floor(math.log10(dropped)) - 1
    return float(f"{math.ceil(dropped / 10 ** exponent)}e{exponent}")


def _as_data(battle: Battle, defender: str, odds: Odds, retreat_rule: bool, seed: int) -> dict[str, Any]:
    def p(x: float) -> float:
        return round(x, DIGITS)

    def c(x: float) -> float:  # a chance
        return chance(x, DIGITS)

    def survivors(side: Side, pieces: Iterable[Piece]) -> dict[str, float]:  # every type that fought
        return {unit: p(odds.expected_survivors[side].get(unit, 0.0)) for unit in count_units(battle.rules, pieces)}

    data: dict[str, Any] = {
        "method": odds.method, "kind": battle.event_kind,
        "attacker": battle.attacker, "defender": defender,
        "attacker_win": c(odds.attacker_wins), "defender_win": c(odds.defender_holds), "draw": c(odds.draw),
        "attacker_captures": c(odds.captures) if battle.kind == "land" else None,
        "retreat": c(odds.retreats) if retreat_rule else None,
        "expected_rounds": p(odds.expected_rounds),
        "attacker_survivors": survivors("attacker", battle.attackers),
        "defender_survivors": survivors("defender", battle.defenders),
        "attacker_ipc_lost": p(odds.expected_ipc_lost["attacker"]),
        "defender_ipc_lost": p(odds.expected_ipc_lost["defender"]),
        "outcomes": [{"probability": c(s.probability), "winner": OUTCOME_WINNERS[s.winner],
                      "attackers": dict(s.attackers), "defenders": dict(s.defenders)} for s in odds.stacks],
    }
    if odds.method == "exact":
        data["error_bound"] = error_bound(odds.error_bound)
    if odds.runs is not None:
        data |= {"runs": odds.runs, "seed": seed,
                 "attacker_win_stderr": p(math.sqrt(odds.attacker_wins * (1 - odds.attacker_wins) / odds.runs))}
    return data
