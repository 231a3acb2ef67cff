"""A power's turn: the seven phases in order, checked (`check_turn`) or played (`resolve_turn`).

1 develop weapons, 2 purchase, 3 combat move, 4 conduct combat, 5 noncombat move, 6 mobilize,
7 collect income; after the last power of the round, the victory check. A power whose capital is
enemy-held plays only phases 3 to 5.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from pbem.core.errors import Problem, choices
from pbem.core.events import EventLog
from pbem.core.ruleset import Dice
from pbem.core.yamlio import Document, field_name
from pbem.rulesets.axis_allies import battles, landing, patriotic_war
from pbem.rulesets.axis_allies.context import Turn
from pbem.rulesets.axis_allies.edition import Edition
from pbem.rulesets.axis_allies.mobilize import check_purchase, mobilize, place_with_advance, purchase_units
from pbem.rulesets.axis_allies.move_plan import MovePlan
from pbem.rulesets.axis_allies.movement import apply_move, check_move
from pbem.rulesets.axis_allies.orders import Move, StandingOrders, read_orders, read_standing
from pbem.rulesets.axis_allies.paths import check_steps
from pbem.rulesets.axis_allies.research import check_research, develop_weapons
from pbem.rulesets.axis_allies.state import Position


# --- entry points ------------------------------------------------------------------------------

def check_turn(edition: Edition, state: dict[str, Any], orders_doc: Document,
               standing_docs: dict[str, Document]) -> list[Problem]:
    """Every problem with the orders and standing orders for this state; empty when they may be played."""
    turn, problems = _start(edition, state, orders_doc, standing_docs, EventLog(), None, checking=True)
    if turn is not None:
        _play(turn)
        problems += turn.problems
    return _in_document_order(problems)


def resolve_turn(edition: Edition, state: dict[str, Any], orders_doc: Document,
                 standing_docs: dict[str, Document], dice: Dice, log: EventLog) -> dict[str, Any]:
    """Play the turn; returns the state after it (the core sets its `dice`)."""
    turn, problems = _start(edition, state, orders_doc, standing_docs, log, dice, checking=False)
    if turn is None or problems:
        raise ValueError("resolve called with orders that do not pass check_orders:\n"
                         + "\n".join(str(p) for p in problems))
    turn.need_research = _moves_needing_research(edition, state, orders_doc, standing_docs)
    _play(turn)
    return turn.pos.to_state()


def _moves_needing_research(edition: Edition, state: dict[str, Any], orders_doc: Document,
                            standing_docs: dict[str, Document]) -> frozenset[str]:
    """The fields of the moves that are legal only with this turn's research, found by checking the
    orders without it: the orders may count on a breakthrough, but if it fails no aircraft may take
    off without a landing place in reach (no suicide missions), so such a move is not carried out."""
    data = orders_doc.data
    if not isinstance(data, dict) or "research" not in data:
        return frozenset()
    without = dataclasses.replace(orders_doc, data={key: value for key, value in data.items() if key != "research"})
    return frozenset(p.field for p in check_turn(edition, state, without, standing_docs))


def _start(edition: Edition, state: dict[str, Any], orders_doc: Document, standing_docs: dict[str, Document],
           log: EventLog, dice: Dice | None, checking: bool) -> tuple[Turn | None, list[Problem]]:
    orders, problems = read_orders(orders_doc, edition)
    standing: dict[str, StandingOrders] = {}
    for key, doc in standing_docs.items():
        parsed, more = read_standing(doc, edition)
        problems += more
        if parsed is not None:
            standing[parsed.power] = parsed
    pos = Position.from_state(copy.deepcopy(state), edition)
    expected = pos.next_power
    if orders.power is not None and orders.power != expected:
        problems.append(orders_doc.problem(("power",), f"it is {expected}'s turn, not {orders.power}'s", expected))
        return None, problems
    if orders.round is not None and orders.round != pos.round:
        problems.append(orders_doc.problem(("round",), f"these orders are for round {orders.round}; the game is in "
                                                       f"round {pos.round}", str(pos.round)))
    if pos.winner is not None:
        problems.append(orders_doc.problem(("power",), f"the game is over: the {pos.winner} won"))
    turn = Turn(pos, orders, standing, log, dice, checking)
    turn.skip_economy = not pos.capital_held(turn.power)
    turn.purchase_readable = _purchase_readable(orders_doc, edition)
    return turn, problems


def _purchase_readable(doc: Document, edition: Edition) -> bool:
    """False when some unit name of the purchase could not be read (its totals are then unknown)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    purchase = data.get("purchase")
    if not isinstance(purchase, dict):
        return True
    return all(edition.units.unit_names.get(k) is not None for k in purchase)


def _in_document_order(problems: list[Problem]) -> list[Problem]:
    seen, result = set(), []
    for p in sorted(problems, key=lambda p: (p.file, p.line or 0)):
        key = (p.file, p.line, p.field, p.message)
        if key not in seen:
            seen.add(key)
            result.append(p)
    return result


# --- the phases ------------------------------------------------------------------------------

def _play(turn: Turn) -> None:
    rules = turn.edition.rules
    if turn.pos.round == 0:
        _set_up_turn(turn)
        return
    if turn.checking:
        if rules.research:
            check_research(turn)
        else:
            _refuse_research(turn)
        check_purchase(turn)
    if rules.research:
        develop_weapons(turn)
    purchase_units(turn)
    combat_move(turn)
    battles.conduct_combat(turn)
    noncombat_move(turn)
    patriotic_war.take_over(turn)
    mobilize(turn)
    if rules.surface == "after_mobilize":
        surface_and_repair(turn)
    collect_income(turn)
    if rules.victory == "victory_cities":
        victory_check(turn)
    _next_turn(turn)
    if rules.victory == "capitals":
        capital_victory_check(turn)


def _set_up_turn(turn: Turn) -> None:
    """Europe's set-up round 0 (l.342-358): the power claims its share of its side's cash advance,
    buys, places where its side already has a unit, keeps the rest, and is paid its starting income
    (l.350: the incomes are paid after the advance, before round 1)."""
    orders = turn.orders
    if turn.checking:
        for key, present in (("research", orders.research is not None), ("rockets", bool(orders.rockets)),
                             ("combat_move", bool(orders.combat_moves)), ("battles", bool(orders.battles)),
                             ("noncombat_move", bool(orders.noncombat_moves)),
                             ("middle_east_payers", bool(orders.middle_east_payers))):
            if present:
                turn.problem((key,), "the set-up round before round 1 has only the cash advance: `cash_advance` "
                                     "(an Ally's claim), `purchase` and `place`")
    claim_cash_advance(turn)
    if turn.checking:
        check_purchase(turn)
    purchase_units(turn)
    place_with_advance(turn)
    collect_income(turn)
    _next_turn(turn)


def claim_cash_advance(turn: Turn) -> None:
    """An Ally takes its declared share of what is left of its side's advance (option allied_advance)."""
    pos, side = turn.pos, turn.side
    claim = turn.orders.cash_advance
    left = pos.cash_advance.get(side)
    if left is None:
        if claim is not None:
            turn.problem(("cash_advance",), f"{turn.power} has no share of a cash advance to claim "
                                            f"(option allied_advance = {turn.opt('allied_advance')})")
        return
    turn.ruling("allied_advance")
    later = turn.board.powers[turn.board.powers.index(turn.power) + 1:]
    last = not any(turn.board.side[p] == side for p in later)
    if claim is None:
        claim = left if last else 0
        turn.default("claim on the Allies' cash advance", claim, "the set-up orders give no `cash_advance`"
                     + ("; the last Ally to claim takes what is left, which the side keeps (l.348)" if last else ""))
    if claim > left:
        turn.problem(("cash_advance",), f"the Allies have {left} IPCs of their advance left to claim, not {claim}",
                     f"{left} or less")
        claim = left
    elif last and claim < left:
        # l.348: a side keeps what it does not spend; nobody claims after the last Ally
        turn.problem(("cash_advance",), f"{turn.power} is the last Ally to claim: it takes the {left} IPCs left of "
                     "the advance, which the side keeps for round 1 (l.348)", f"{left}, or no `cash_advance`")
    pos.cash_advance[side] = left - claim
    if last:
        pos.cash_advance.pop(side)
    pos.treasury[turn.power] += claim
    turn.event("cash_advance", power=turn.power, amount=claim, left=left - claim,
               treasury_after=pos.treasury[turn.power],
               **({"order": "cash_advance"} if turn.orders.cash_advance is not None else {}))


def _refuse_research(turn: Turn) -> None:
    """An edition without weapons development refuses research and rockets in the orders."""
    for key, present in (("research", turn.orders.research is not None), ("rockets", bool(turn.orders.rockets))):
        if present:
            turn.problem((key,), f"{turn.edition.name} has no weapons development (research and rockets are "
                                 "Revised's): remove this part of the orders")


def _launch(turn: Turn, moves: list[Move]) -> None:
    """Fighters listed in a move from a carrier's sea zone take off before any carrier moves."""
    for move in moves:
        n = move.units.get("fighter", 0)
        if not n or not turn.board.is_sea(move.frm):
            continue
        aboard = [u for u in turn.pos.units_in(move.frm, owner=turn.power, type="fighter")
                  if u.aboard is not None and not u.moved_noncombat]
        if aboard and len(turn.pos.units_in(move.frm, type="carrier")) > 0:
            turn.ruling("fighters_launch_first")
        for u in sorted(aboard, key=lambda u: u.id)[:n]:
            u.aboard = None


def _report(turn: Turn, move: Move, errors: list, phase: str, reason: str | None = None) -> None:
    turn.refused.append(move)
    if turn.checking:
        for where, message, allowed in errors:
            turn.problem(where, message, allowed)
        return
    text = reason or "; ".join(message for _, message, _ in errors)
    turn.event("move_skipped", phase=phase, power=turn.power, units=dict(move.units), **{"from": move.frm},
               to=move.to, reason=text, order=field_name(move.where))


def _run(turn: Turn, move: Move, phase: str, taken: dict[int, Move]) -> MovePlan | None:
    if turn.research_failed and any(f == field_name(move.where) or f.startswith(field_name(move.where) + ".")
                                    for f in turn.need_research):
        turn.ruling("research_this_turn")
        _report(turn, move, [], phase, reason=f"it needs {turn.orders.research[0].replace('_', ' ')}, whose research "
                "failed this turn")
        return None
    errors: list = []
    plan = check_move(turn, move, phase, taken, errors)
    if plan is None:
        _report(turn, move, errors, phase)
        return None
    taken.update((u.id, move) for u in plan.units)
    apply_move(turn, plan, phase)
    return plan


def combat_move(turn: Turn) -> None:
    """Phase 3: every combat move in the order listed (all happen at the same moment in the rules;
    the listing order only fixes the order of the flak dice)."""
    moves = turn.orders.combat_moves
    _launch(turn, moves)
    taken: dict[int, Move] = {}  # unit id -> the move that took it
    for move in moves:
        if move.condition and turn.checking:
            turn.problem(move.where + ("if",), "conditions are for noncombat moves (battles come after the combat move)")
            continue
        _run(turn, move, "combat", taken)
    if turn.checking:
        landing.check_landings(turn)


def noncombat_move(turn: Turn) -> None:
    """Phase 5: land and sea moves in the order listed, then aircraft; then pick-ups, landings and
    the surfacing of submerged submarines."""
    moves = turn.orders.noncombat_moves
    if any(m.condition for m in moves):
        turn.ruling("conditions")
    verdicts = {id(m): _condition(turn, m) for m in moves}
    all_air = [_all_air(turn, m) for m in moves]
    surface = [m for m, flies in zip(moves, all_air) if not flies]
    air = [m for m, flies in zip(moves, all_air) if flies]
    if air and surface and all_air.index(True) < len(all_air) - 1 - all_air[::-1].index(False):
        turn.ruling("noncombat_order")  # some aircraft are listed before a land or sea move
    _launch(turn, [m for m in air if verdicts[id(m)] is True])
    taken: dict[int, Move] = {}  # unit id -> the move that took it
    for i, move in enumerate(surface + air):
        if i == len(surface):
            landing.make_pickups(turn)
        verdict = verdicts[id(move)]
        if verdict is None:
            # while checking, a move for other outcomes than the hoped ones is checked as far as it can be
            errors: list = []
            check_steps(turn, move, move.frm, move.path, errors)
            _report(turn, move, errors, "noncombat")
        elif verdict is not True:
            _report(turn, move, [], "noncombat", reason=str(verdict))
        else:
            _run(turn, move, "noncombat", taken)
    if not air:
        landing.make_pickups(turn)
    landing.land_aircraft(turn)
    if turn.edition.rules.surface == "after_noncombat":
        for u in turn.pos.all_units():
            u.submerged = False


def surface_and_repair(turn: Turn) -> None:
    """Europe's step 6: every submerged submarine surfaces, of every power (battleships are repaired
    at the end of their battle: a battleship fights once a turn, so the result is the same)."""
    surfacing = [u for u in turn.pos.all_units() if u.submerged]
    if surfacing:
        turn.ruling("surface_and_repair")
    for u in surfacing:
        u.submerged = False


def _all_air(turn: Turn, move: Move) -> bool:
    return all(turn.table.cls(t) == "air" for t in move.units)


def _condition(turn: Turn, move: Move) -> bool | str | None:
    """True when the move's conditions hold; a reason when not; None while checking a move whose
    conditions hope for another outcome than the one assumed."""
    for space, wanted in move.condition.items():
        outcome = turn.outcomes.get(space)
        if outcome is None:
            if turn.checking:
                turn.problem(move.where + ("if", space), f"there is no battle in {space} this turn",
                             choices(turn.outcomes, "there is no battle this turn"))
                return None
            return f"condition not met: no battle in {space}"
        if not outcome.matches(wanted):
            if turn.checking:
                return None
            return "condition not met: " + _UNMET[wanted].format(space=space)
    return True


_UNMET = {
    "won": "the attack on {space} was not won",
    "captured": "{space} was not captured",
    "lost": "the attack on {space} was not lost",
    "retreated": "the attackers did not retreat from {space}",
    "not_captured": "{space} was captured",
}


def collect_income(turn: Turn) -> None:
    """Phase 7: the national production level, nothing while the capital is enemy-held."""
    power, pos = turn.power, turn.pos
    if not pos.capital_held(power):
        capital = turn.board.capitals[power]
        _, track = _middle_east_track(turn)
        turn.event("income", power=power, amount=0, treasury_after=pos.treasury[power],
                   reason=f"its capital {capital} is held by {turn.board.power_names[pos.control[capital]]}"
                   + (f"; the Allies pay none of its Middle East track ({track} IPCs) either" if track else ""))
        _payers_unused(turn, f"its capital {capital} is held by the enemy, so it collects no income")
        return
    if turn.skip_economy:
        turn.ruling("capital_freed_this_turn")
    amount = pos.npl(power)
    pos.treasury[power] += amount
    turn.event("income", power=power, amount=amount, treasury_after=pos.treasury[power])
    middle_east_payment(turn)


def _middle_east_track(turn: Turn) -> tuple[list[str], int]:
    """The Middle East countries the acting power holds where the Allies pay it their value (Europe's
    Germany), and that value; none for another power."""
    b = turn.board
    if turn.edition.rules.middle_east_income != turn.power:
        return [], 0
    countries = [t for t in b.sort_spaces(b.territories)
                 if b.territories[t].middle_east and turn.pos.control.get(t) == turn.power]
    return countries, sum(b.ipc(t) for t in countries)


def middle_east_payment(turn: Turn) -> None:
    """Europe, l.841: the Middle East countries Germany holds count in no production level; the
    Allies pay their value (the track) to Germany in cash, split as their standing orders offer, or
    as Germany's orders choose when the offers do not cover it. Nobody pays more than it has, and
    what the Allies cannot pay is not owed later."""
    b, pos, power = turn.board, turn.pos, turn.power
    if turn.edition.rules.middle_east_income != power:
        return
    payers = [p for p in b.powers if b.enemies(p, power)]
    if turn.checking:
        for i, p in enumerate(turn.orders.middle_east_payers):
            if p not in payers:
                turn.problem(("middle_east_payers", i), f"{p} does not pay {power}'s Middle East income",
                             ", ".join(payers))
        return
    countries, track = _middle_east_track(turn)
    if not track:
        _payers_unused(turn, f"{turn.words.power(power)} holds no Middle East country")
        return
    turn.ruling("middle_east_track")
    turn.ruling("middle_east_payment")
    offers = {p: (turn.standing[p].middle_east_offer or 0) if p in turn.standing else 0 for p in payers}
    if sum(min(offers[p], pos.treasury[p]) for p in payers) >= track:
        chosen_by, order, limit = "allies", payers, offers
        _payers_unused(turn, "the Allies' standing offers pay all of the Middle East income")
    else:
        chosen_by, limit = power, {p: pos.treasury[p] for p in payers}
        # l.841: Germany picks who pays; an Ally it did not pick pays nothing
        order = [p for p in turn.orders.middle_east_payers if p in payers]
        if not order:
            order = payers
            turn.default("who pays the Middle East income", payers,
                         "the Allies' offers do not cover it and the orders name no `middle_east_payers`")
    payments: dict[str, int] = {}
    left = track
    for p in order:
        amount = min(limit[p], pos.treasury[p], left)
        if amount:
            payments[p] = amount
            pos.treasury[p] -= amount
            left -= amount
    pos.treasury[power] += track - left
    turn.event("middle_east_payment", power=power, countries=countries, track=track, payments=payments,
               chosen_by=chosen_by, unpaid=left, treasury_after=pos.treasury[power],
               **({"order": "middle_east_payers"} if chosen_by == power and turn.orders.middle_east_payers else {}))


def _payers_unused(turn: Turn, why: str) -> None:
    if turn.orders.middle_east_payers:
        turn.event("order_unused", power=turn.power, order="middle_east_payers",
                   reason=f"nobody needed choosing to pay: {why}")


def victory_check(turn: Turn) -> None:
    """After the last power of the round: does a side hold enough victory cities?"""
    b, pos = turn.board, turn.pos
    if turn.power != b.powers[-1]:
        return
    cities: dict[str, list[str]] = {side: [] for side in b.sides}
    for power, city in b.victory_cities_held(pos.control):
        cities[b.side[power]].append(city)
    needed = int(turn.opt("victory_cities"))
    turn.ruling("victory_cities")
    winners = [side for side in b.sides if len(cities[side]) >= needed]
    winner = winners[0] if winners else None
    fields: dict[str, Any] = {}
    if winner:
        pos.winner = winner
        if turn.opt("individual_winner") is True:
            turn.ruling("individual_winner")
            fields["individual_winners"] = individual_winners(turn, winner)
    turn.event("victory_check", round=pos.round, cities=cities, needed=needed, winner=winner, **fields)


def capital_victory_check(turn: Turn) -> None:
    """At the start of a power's turn (checked as the turn before it ends, since nothing happens
    between): it wins for its side if it holds an enemy capital and its own (Europe, l.613). The
    enemy capital can only have been taken in its own last turn, so 'held until the start of its
    next turn' is exactly this."""
    b, pos = turn.board, turn.pos
    power = pos.next_power
    if pos.winner is not None or not pos.capital_held(power) or pos.control.get(b.capitals[power]) != power:
        return
    taken = [b.capitals[p] for p in b.powers if b.enemies(p, power) and pos.control.get(b.capitals[p]) == power]
    if not taken:
        return
    turn.ruling("victory_timing")
    pos.winner = b.side[power]
    fields: dict[str, Any] = {}
    if turn.opt("individual_winner") is True:
        turn.ruling("individual_winner")
        fields["individual_winners"] = individual_winners(turn, pos.winner)
    turn.event("victory_check", round=pos.round, power=power, capitals=taken, own_capital=b.capitals[power],
               winner=pos.winner, **fields)


def individual_winners(turn: Turn, side: str) -> list[str]:
    """The powers of the winning side that did best: whose production level rose most since the start
    of the game (Revised), or that has the highest production level (Europe, l.78)."""
    b = turn.board
    start = {p: sum(t.ipc for t in b.territories.values() if t.original_owner == p) for p in b.powers}
    if turn.edition.rules.individual_winner == "income":
        score = {p: turn.pos.npl(p) for p in b.powers if b.side[p] == side}
    else:
        score = {p: turn.pos.npl(p) - start[p] for p in b.powers if b.side[p] == side}
    best = max(score.values())
    return [p for p in b.powers if score.get(p) == best]


def _next_turn(turn: Turn) -> None:
    b, pos = turn.board, turn.pos
    i = b.powers.index(turn.power)
    pos.next_power = b.powers[(i + 1) % len(b.powers)]
    if i + 1 == len(b.powers):
        pos.round += 1
        pos.aa_guns_moved.clear()  # l.871: once a round
