"""Phase 1, develop weapons: one development, any number of research dice at the edition's price each."""

from __future__ import annotations

from pbem.rulesets.axis_allies.context import Turn


def research_cost(turn: Turn) -> int:
    """What the ordered research dice cost, 0 without research."""
    return turn.orders.research[1] * turn.table.research_die_cost if turn.orders.research else 0


def target_number(turn: Turn, development: str) -> int:
    """The number a research die must show: the chart number, or 6 under the any_six option."""
    if turn.opt("research_rule") == "any_six":
        return 6
    return turn.table.developments[development].number


def check_research(turn: Turn) -> None:
    """Problems with the research order (its cost is checked with the purchase)."""
    if turn.orders.research is None:
        return
    development, _ = turn.orders.research
    if turn.skip_economy:
        turn.problem(("research",), f"{turn.power}'s capital is held by the enemy: no research until it is freed"
                                    + turn.cite("lost_capital_orders"))
        return
    if development in turn.developments:
        turn.problem(("research", "development"), f"{turn.power} already has {development}: research something else"
                                                  + turn.cite("research_owned"),
                     ", ".join(d for d in turn.table.developments if d not in turn.developments))


def develop_weapons(turn: Turn) -> None:
    """Roll the research dice; a breakthrough works from now on, this turn included."""
    if turn.orders.research is None or turn.skip_economy:
        return
    development, count = turn.orders.research
    cost = research_cost(turn)
    turn.pos.treasury[turn.power] -= cost
    if turn.checking:
        # The development works from this turn on, so the orders may count on it: they are checked
        # as if the research succeeds, and what needed it is skipped if it fails (ruling).
        if development not in turn.developments:
            _gain(turn, development)
        return
    turn.ruling("research_rule")
    target = target_number(turn, development)
    dice = turn.roll(count)
    success = target in dice
    turn.research_failed = not success
    if success:
        _gain(turn, development)
    turn.event("research", power=turn.power, development=development, target=target, dice=dice,
               success=success, cost=cost, order="research")
    if not success and _needs(turn, development):
        turn.ruling("research_this_turn")


def _gain(turn: Turn, development: str) -> None:
    turn.pos.developments[turn.power].append(development)
    if development == "long_range_aircraft":
        # the longer range is usable in this very turn: no unit has moved yet
        for u in turn.pos.all_units():
            if u.owner == turn.power and u.type in ("fighter", "bomber"):
                u.movement_left = turn.table.movement(u.type, turn.developments)


def _needs(turn: Turn, development: str) -> bool:
    """Whether the orders use what the development gives (to explain skipped orders)."""
    uses = {"rockets": bool(turn.orders.rockets),
            "combined_bombardment": any(m.bombard and "destroyer" in m.units for m in turn.orders.combat_moves),
            "long_range_aircraft": any(t in ("fighter", "bomber") for m in
                                       turn.orders.combat_moves + turn.orders.noncombat_moves for t in m.units)}
    return uses.get(development, False)
