"""The battle part of the adjudication catalogue: tests/catalogue/<ruleset>/battles/*.yaml.

Every edition's folder runs under that edition's CombatRules and option defaults. Each file is one
case: a battle (or a bombing raid, or a rocket strike), the decisions, the exact
dice in canonical order and what must come out. Every die must be used.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pbem.rulesets.axis_allies.combat.battle import Battle, CombatRules, Piece, count_by_power, make_pieces
from pbem.rulesets.axis_allies.combat.decisions import BattleOrders, CasualtyOrder, PowerOrders, RetreatRule
from pbem.rulesets.axis_allies.combat.raids import resolve_bombing_raid, resolve_rocket_strike
from pbem.rulesets.axis_allies.combat.resolve import resolve_battle, takes_territory
from pbem.rulesets.axis_allies.edition import edition
from pbem.rulesets.axis_allies.edition import Edition

CATALOGUE = Path(__file__).parent / "catalogue"
CASES = sorted(CATALOGUE.glob("*/battles/*.yaml"))


def edition_of(path: Path) -> Edition:
    """The edition whose folder holds the case (tests/catalogue/<ruleset>/battles/)."""
    return edition(path.parent.parent.name)


class Dice:
    """The case's dice as the caller's dice stream; it fails when a battle wants more."""

    def __init__(self, dice: list[int]) -> None:
        self.dice, self.used = list(dice), 0

    def __call__(self, n: int) -> list[int]:
        if self.used + n > len(self.dice):
            raise AssertionError(f"the battle wants more dice than the case gives ({len(self.dice)})")
        self.used += n
        return self.dice[self.used - n:self.used]


def entries(order: list) -> tuple:
    """A casualty order's entries as CasualtyOrder takes them: {tank: 1} is ("tank", 1)."""
    return tuple(e if isinstance(e, str) else next(iter(e.items())) for e in order)


def casualty_order(spec: dict, label: str) -> CasualtyOrder:
    """A CasualtyOrder from the keys of orders.schema.json's battle decisions."""
    defaults = CasualtyOrder()
    return CasualtyOrder(
        entries(spec.get("casualty_order", defaults.types)),
        spec.get("damage_battleships_first", True), spec.get("keep_land_unit", True),
        label if "casualty_order" in spec else defaults.label)


def battle_orders(spec: dict) -> BattleOrders:
    attacker = spec.get("attacker", {})
    defenders = {
        power: PowerOrders(casualty_order(o, f"{power}'s casualty order"), o.get("submerge", "never"),
                           o.get("shared_casualties", "cheapest_first"))
        for power, o in spec.get("defenders", {}).items()}
    enemy = spec.get("enemy_casualties")
    return BattleOrders(
        PowerOrders(casualty_order(attacker, "attacker's casualty order"), attacker.get("submerge", "never")),
        defenders, RetreatRule(**spec.get("retreat", {})),
        CasualtyOrder(entries(enemy), label="the attacker's enemy_casualties order") if enemy
        else BattleOrders().enemy_casualties)


def load(rules: CombatRules, pieces: list[Piece], cargo: list[dict], first_id: int) -> list[Piece]:
    """Put each cargo entry aboard the next empty transport or carrier of that owner."""
    pieces = list(pieces)
    for entry in cargo:
        carrier = "transport" if "transport" in entry else "carrier"
        i = next(i for i, p in enumerate(pieces)
                 if p.type == carrier and p.owner == entry[carrier] and not p.cargo)
        aboard = tuple(make_pieces(rules, entry["units"], first_id))
        first_id += len(aboard)
        pieces[i] = Piece(pieces[i].id, carrier, pieces[i].owner, cargo=aboard)
    return pieces


def build_battle(spec: dict, ed: Edition) -> Battle:
    """The case's battle; options the case does not set take the edition's defaults.
    ``stranded_fighters: n``: the first n attacking pieces (list the fighters first) have no
    movement left."""
    rules = ed.combat
    options = {o.name: o.default for o in ed.options}
    attackers = make_pieces(rules, spec["attackers"], 1)
    defenders = make_pieces(rules, spec.get("defenders", {}), 101)
    cargo = spec.get("cargo", {})
    bombarding = make_pieces(rules, {spec["attacker"]: spec["bombarding"]}, 301) if spec.get("bombarding") else []
    return Battle(
        spec.get("id", "b1"), spec["space"], spec["kind"], spec["attacker"],
        load(rules, attackers, cargo.get("attackers", []), 201), load(rules, defenders, cargo.get("defenders", []), 251),
        spec.get("aa_gun"), bombarding, spec.get("amphibious", False),
        {p: frozenset(d) for p, d in spec.get("developments", {}).items()},
        spec.get("bombardment_targets", options["bombardment_targets"]),
        spec.get("partial_retreat", options["partial_retreat"]),
        spec.get("aa_casualties", options.get("aa_casualties")),
        tuple(make_pieces(rules, spec.get("bystanders", {}), 401)),
        frozenset(i + 1 for i in range(spec.get("stranded_fighters", 0))), rules=rules)


def matches(actual: dict, expected: dict) -> bool:
    return all(actual.get(k) == v for k, v in expected.items())


def check_events(events: list[dict], kind: str, expected: list[dict]) -> None:
    actual = [e for e in events if e["type"] == kind]
    assert len(actual) == len(expected), f"{kind} events: {actual}"
    for a, e in zip(actual, expected, strict=True):
        assert matches(a, e), f"{kind}: expected {e}, got {a}"


def run_battle(case: dict, dice: Dice, ed: Edition) -> None:
    rules = ed.combat
    battle = build_battle(case["battle"], ed)
    orders = battle_orders(case.get("orders", {}))
    limits = {"max_rounds": case["max_rounds"]} if "max_rounds" in case else {}
    result = resolve_battle(battle, orders, dice, **limits)
    expect = case["expect"]
    assert result.winner == expect["winner"]
    assert result.rounds == expect["rounds"]
    assert count_by_power(rules, result.attackers) == expect.get("attackers_left", {})
    assert count_by_power(rules, result.defenders) == expect.get("defenders_left", {})
    assert count_by_power(rules, result.retreated_pieces) == expect.get("retreated", {})
    for side in ("attacker", "defender"):
        assert count_by_power(rules, result.submerged[side]) == expect.get("submerged", {}).get(side, {})
    assert not any(p.damaged for p in result.attackers + result.defenders), "battleships are repaired"
    if "takes_territory" in expect:
        won = result.winner == "attacker" and takes_territory(battle, result.attackers)
        assert won == expect["takes_territory"]
    for kind in ("casualties", "roll", "aa_fire", "retreat", "submerge"):
        if kind in expect.get("events", {}):
            check_events(list(result.events), kind, expect["events"][kind])
    end = result.events[-1]
    assert end["type"] == "battle_end" and end["captured"] is False


def run_raid(case: dict, dice: Dice) -> None:
    spec = case["raid"]
    bombers = [Piece(i + 1, "bomber", spec["power"]) for i in range(spec["bombers"])]
    result = resolve_bombing_raid(
        spec["space"], bombers, spec["victim"], spec["territory_value"], spec["treasury"], dice,
        aa_gun=spec.get("aa_gun"), developments={p: frozenset(d) for p, d in spec.get("developments", {}).items()})
    expect = case["expect"]
    assert len(result.shot_down) == expect["shot_down"]
    assert (result.damage, result.paid) == (expect["damage"], expect["paid"])
    for kind in ("aa_fire", "bombing"):
        if kind in expect.get("events", {}):
            check_events(list(result.events), kind, expect["events"][kind])


def run_rocket(case: dict, dice: Dice) -> None:
    spec = case["rocket"]
    result = resolve_rocket_strike(spec["from"], spec["target"], spec["power"], spec["victim"],
                                   spec["territory_value"], spec["treasury"], dice)
    assert (result.damage, result.paid) == (case["expect"]["damage"], case["expect"]["paid"])
    assert matches(result.event, case["expect"].get("event", {}))


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.parent.name}/{p.stem}" for p in CASES])
def test_case(path: Path) -> None:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert {"name", "source", "dice", "expect"} <= case.keys(), "every case names itself and its source"
    dice = Dice(case["dice"])
    if "raid" in case:
        run_raid(case, dice)
    elif "rocket" in case:
        run_rocket(case, dice)
    else:
        run_battle(case, dice, edition_of(path))
    assert dice.used == len(dice.dice), f"only {dice.used} of {len(dice.dice)} dice were used"


def test_catalogue_is_not_empty() -> None:
    assert len([p for p in CASES if p.parent.parent.name == "aa-revised"]) >= 40
